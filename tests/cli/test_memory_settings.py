"""The command line puts NumPy's arrays on ordinary pages (``NUMPY_MADVISE_HUGEPAGE=0`` unless
the environment says otherwise), each probe in a process of its own; a program that imports
cpwords keeps NumPy's default (the allocator's own setting: ``test_allocator.py``)."""

from __future__ import annotations

import os
import subprocess
import sys

#: Run as ``python -m cpwords`` would be: the package imported first, then NumPy; prints
#: what NumPy was told.
PROBE = """
import sys
sys.argv = ["-m"]
sys.orig_argv = [sys.executable, "-m", "cpwords"]
import cpwords, os
from numpy._core import multiarray
print(os.environ.get("NUMPY_MADVISE_HUGEPAGE"), multiarray._get_madvise_hugepage())
"""


def _run(code: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "NUMPY_MADVISE_HUGEPAGE"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout.strip()


def test_the_command_line_puts_numpy_on_ordinary_pages() -> None:
    assert _run(PROBE) == "0 False"


def test_the_environment_keeps_its_own_choice() -> None:
    assert _run(PROBE, NUMPY_MADVISE_HUGEPAGE="1").startswith("1 ")


def test_a_program_that_imports_cpwords_keeps_numpys_default() -> None:
    code = "import cpwords, os; print(os.environ.get('NUMPY_MADVISE_HUGEPAGE'))"
    assert _run(code) == "None"
