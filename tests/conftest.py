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
        pytest.skip(
            "the real puzzle data (ENABLE, the Truncate and Letterpress lists, NYT Letter Boxed "
            "days) is absent: put the project's shared/data folder at ../shared/data beside the "
            "checkout, or name it with CPWORDS_DATA=DIR"
        )
    return d


def needs_dictionary(lang: str) -> pytest.MarkDecorator:
    """Skip a test when the curated dictionary of ``lang`` (:mod:`cpwords.core.dictionaries`)
    is not installed, with a reason naming the command that installs it."""
    from cpwords.core.dictionaries import find_dictionary

    d = find_dictionary(lang)
    return pytest.mark.skipif(
        not d.installed(), reason=f"the {d.language} dictionary is absent: {d.install}"
    )


# The README's test command is the fast suite (every test not marked slow); `--runslow` runs the
# whole suite (CI runs both). The slow tests are those over about a second on the 2-core machine:
# real dictionaries, whole-list solves, subprocess CLI runs, the browser.
def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow",
        action="store_true",
        default=False,
        help="also run the tests marked slow (the whole suite; the default is the fast part)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    slow = [item for item in items if "slow" in item.keywords]
    if slow:  # deselected, not skipped: the summary says "N deselected" in one line
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if "slow" not in item.keywords]
