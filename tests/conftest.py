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
