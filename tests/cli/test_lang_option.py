"""Every subcommand's --lang refuses an unknown code the same way (issue 20)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cpwords.core.lexicon import known_languages

#: One call per subcommand that would run without --lang (built-in lists or inputs).
COMMANDS = {
    "snake": ["snake"],
    "letterboxed": ["letterboxed", "abc-def-ghi-jkl"],
    "letterpress": ["letterpress", "abc"],
    "truncate": ["truncate"],
    "grid": ["grid", "--top", "100"],
}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from cpwords.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_an_unknown_language_is_one_line_listing_the_known_ones(cmd: str) -> None:
    res = run(*COMMANDS[cmd], "--lang", "xx")
    assert res.returncode == 2, (res.returncode, res.stderr)
    assert res.stdout == ""
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert "no word list for language 'xx'" in res.stderr
    assert f"known: {', '.join(known_languages())})" in res.stderr


@pytest.mark.slow
def test_snake_still_reads_a_known_language() -> None:
    # Turkish case rules: the dotted capital I of the input is the word's plain i
    res = run("snake", "--lang", "tr", "--check-text", "İnce ecel", "--json")
    assert res.returncode in (0, 1), res.stderr
    assert '"ince"' in res.stdout and "İ" not in res.stdout
