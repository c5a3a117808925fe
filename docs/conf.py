"""Sphinx configuration of the cpwords documentation (``sphinx-build -W docs docs/_build``)."""

from __future__ import annotations

import cpwords

project = "cpwords"
author = "the cpwords developers"
copyright = "2026, the cpwords developers"
release = cpwords.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
# Links from the included cards and reports to files of the repository (suites, results rows)
# are not documents of the site; they stay as they are.
suppress_warnings = ["myst.xref_missing"]

# numpydoc-style docstrings, read by napoleon (tolerant of the short forms our docstrings use).
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
# Types such as "ndarray of shape (m,)" stay text: their words are not cross-references.
napoleon_use_param = False
napoleon_use_ivar = False
autodoc_default_options = {"members": True, "member-order": "bysource", "ignore-module-all": True}
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented"
autosummary_generate = True
autosummary_imported_members = False

html_theme = "furo"
html_title = f"cpwords {release}"
