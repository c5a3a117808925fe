"""Shared fixtures: the real-data folder ../shared/data, skipped with a reason when absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpwords.core.lexicon import shared_data_dir


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path of ../shared/data (real inputs nobody on the project wrote)."""
    d = shared_data_dir()
    if d is None:
        pytest.skip("../shared/data is absent (real-data tests run only inside the workplace)")
    return d


def needs_dictionary(lang: str) -> pytest.MarkDecorator:
    """Skip a test when the curated dictionary of ``lang`` (:mod:`cpwords.core.dictionaries`)
    is not installed, with a reason naming the command that installs it."""
    from cpwords.core.dictionaries import find_dictionary

    d = find_dictionary(lang)
    return pytest.mark.skipif(
        not d.installed(), reason=f"the {d.language} dictionary is absent: {d.install}"
    )
