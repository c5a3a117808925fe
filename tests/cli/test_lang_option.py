"""Every subcommand's --lang refuses an unknown code the same way (issue 20)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
def test_a_code_that_is_no_language_is_one_line(cmd: str) -> None:
    res = run(*COMMANDS[cmd], "--lang", "xx")
    assert res.returncode == 2, (res.returncode, res.stderr)
    assert res.stdout == ""
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert "--lang 'xx' is not a language code" in res.stderr


@pytest.mark.slow
@pytest.mark.parametrize("cmd", sorted(set(COMMANDS) - {"snake"}))
def test_a_language_without_a_list_is_refused_only_where_the_built_in_list_is_read(
    cmd: str, tmp_path: Path
) -> None:
    # Issue 35, item 18: --lang also sets the case rules (Azerbaijani: I -> ı, İ -> i), which a
    # list of one's own needs; only a built-in list that does not exist is refused.
    res = run(*COMMANDS[cmd], "--lang", "az")
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert "no built-in word list for language 'az'" in res.stderr and "--dict FILE" in res.stderr
    assert f"known: {', '.join(known_languages())})" in res.stderr
    words = tmp_path / "az.txt"
    words.write_text("ILIK\nKILIÇ\nDİYARBAKIR\nabcdefghijkl\n", encoding="utf-8")
    own = [a for a in COMMANDS[cmd] if a not in ("--top", "100")]
    res = run(*own, "--lang", "az", "--dict", str(words), "--json")
    assert res.returncode in (0, 1), res.stderr
    row = json.loads(res.stdout)
    assert row["lang"] == "az"


@pytest.mark.slow
def test_snake_reads_any_language_code_for_its_case_rules(tmp_path: Path) -> None:
    words = tmp_path / "l.txt"
    words.write_text("DİYARBAKIR\nILIK\n", encoding="utf-8")
    res = run("snake", str(words), "--lang", "az", "--json")
    assert res.returncode == 0, res.stderr
    assert sorted(json.loads(res.stdout)["solution"]) == ["diyarbakır", "ılık"]


@pytest.mark.slow
def test_snake_still_reads_a_known_language() -> None:
    # Turkish case rules: the dotted capital I of the input is the word's plain i
    res = run("snake", "--lang", "tr", "--check-text", "İnce ecel", "--json")
    assert res.returncode in (0, 1), res.stderr
    assert '"ince"' in res.stdout and "İ" not in res.stdout
