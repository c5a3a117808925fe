"""Where the real data is looked for, and how CI hides it (a fresh machine has none)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpwords.core.lexicon import shared_data_dir


def test_cpwords_data_names_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CPWORDS_DATA", str(tmp_path))
    assert shared_data_dir() == tmp_path


@pytest.mark.parametrize("value", ["none", "/nonexistent/shared/data"])
def test_cpwords_data_naming_no_folder_hides_the_shared_data(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before, a value naming no folder fell through to ../shared/data, so CI could not run the
    # tests as a fresh machine would.
    monkeypatch.setenv("CPWORDS_DATA", value)
    assert shared_data_dir() is None
