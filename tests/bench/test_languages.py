"""benchmarks/languages.py: ``generate LANG ...`` and ``boards LANG ...`` run only those
languages and merge their runs into their section of the recorded file (the solver faked:
nothing is solved); the report's dictionary check and before/after tables, on a tiny fake record
(two runs, a fake French dictionary)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def mod(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> ModuleType:
    """The script, with ``cpwords`` replaced by a fake that echoes its language, and a fake
    dictionary folder holding a French list whose only proper noun is ``Paris``."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    dicts = tmp_path / "dict"
    dicts.mkdir()
    (dicts / "french").write_text("chat\nchats\nchaton\nParis\nété\n", encoding="utf-8")
    monkeypatch.setenv("CPWORDS_DICT_DIR", str(dicts))
    sys.modules.pop("languages", None)
    m = importlib.import_module("languages")

    def fake_run(cmd: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        lang = cmd[cmd.index("--lang") + 1]
        out = {"lang": lang, "found": 1, "fold_accents": "--fold-accents" in cmd, "new": True}
        out |= {"letters": "abc", "count": 3} if "letterpress" in cmd else {}
        return subprocess.CompletedProcess(cmd, 0, json.dumps(out), "")

    monkeypatch.setattr(m.subprocess, "run", fake_run)
    monkeypatch.setattr(m, "machine", lambda: {"date": "later"})
    return m


def _target(mod: ModuleType, tmp_path: Path) -> Any:
    """A recorded run of French and German: one Letter Boxed run and one board each."""
    target = mod.Target(tmp_path, "t", ("fr", "de"), (), (("fr", False), ("de", False)))
    runs = [{"lang": lang, "fold_accents": False, "new": False} for lang in ("fr", "de")]
    section = {"machine": {"date": "first"}, "runs": runs}
    target.designs.write_text(json.dumps({"letterboxed": section, "boards": section}))
    return target


@pytest.mark.parametrize("command", ["generate", "boards"])
def test_a_language_run_later_is_merged_into_the_file(
    mod: ModuleType, tmp_path: Path, command: str
) -> None:
    target = _target(mod, tmp_path)
    run = getattr(mod, command)
    run(target, only=["de", "ru"])  # de replaced in its place, ru appended, fr kept
    section = "letterboxed" if command == "generate" else "boards"
    data = json.loads(target.designs.read_text())
    other = data["boards" if command == "generate" else "letterboxed"]
    assert [r["new"] for r in other["runs"]] == [False, False]  # the other section untouched
    data = data[section]
    assert data["machine"] == {"date": "first"}
    assert [(r["lang"], r["new"]) for r in data["runs"]] == [
        ("fr", False),
        ("de", True),
        ("ru", True),
    ]
    assert "machine" not in data["runs"][0]
    assert all(r["machine"] == {"date": "later"} for r in data["runs"][1:])
    run(target, only=["ru"])  # running a language again replaces it, not a second copy
    runs = json.loads(target.designs.read_text())[section]["runs"]
    assert [r["lang"] for r in runs] == ["fr", "de", "ru"]


def test_without_languages_the_section_is_written_anew(mod: ModuleType, tmp_path: Path) -> None:
    target = _target(mod, tmp_path)
    mod.boards(target)
    data = json.loads(target.designs.read_text())
    assert data["boards"]["machine"] == {"date": "later"}
    assert [(r["lang"], r["new"]) for r in data["boards"]["runs"]] == [("fr", True), ("de", True)]
    assert data["letterboxed"]["machine"] == {"date": "first"}


def test_the_command_line_passes_the_languages(
    mod: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(mod, "generate", lambda target, only: seen.update(generate=only))
    monkeypatch.setattr(mod, "boards", lambda target, only: seen.update(boards=only))
    mod.main(["generate", "ru"])
    mod.main(["boards"])
    assert seen == {"generate": ["ru"], "boards": None}


def _row(puzzle: str, spec: dict[str, Any], objective: float, solution: Any) -> dict[str, Any]:
    return {
        "schema": "cpwords-bench/1",
        "puzzle": puzzle,
        "instance": f"{puzzle}-x",
        "method": "m",
        "status": "OPTIMAL",
        "instance_spec": spec,
        "objective": objective,
        "solution": solution,
        "size": 5,
        "solver_info": {"count": 1, "source": "fake"},
        "wall_time": 0.01,
    }


def _record(
    mod: ModuleType,
    root: Path,
    prefix: str,
    chain: list[str],
    bag_words: int,
    lb: list[str],
    grid_words: list[str],
) -> Any:
    """A fake run: a Truncate chain, one Letterpress bag, one Letter Boxed box, one grid design."""
    target = mod.Target(root, prefix, ("fr",), (("fr", 20000, 2),), (("fr", False),))
    root.mkdir()
    rows = [
        _row("truncate", {"lexicon": "lang:fr"}, len(chain), chain),
        _row(
            "letterpress",
            {"lexicon": "lang:fr", "letters": "chatsabcde"},
            bag_words,
            {"count": bag_words, "longest": [chain[-1]]},
        ),
    ]
    target.rows.write_text("".join(json.dumps(r) + "\n" for r in rows))
    box = {"box": "abc-def-ghi-jkl", "solution": lb, "two_word_solutions": [lb], "verified": True}
    runs = [{"lang": "fr", "requested": 1, "lexicon": "fake", "boxes": [box]}]
    design = {
        "lang": "fr",
        "top": 20000,
        "suffix_length": 2,
        "unique_count": 1,
        "classes": 3,
        "quadruples": [{"words": grid_words}],
    }
    target.designs.write_text(
        json.dumps({"letterboxed": {"runs": runs}, "grid": {"runs": [design]}})
    )
    return mod.Record.of(target)


def test_the_check_reads_the_file_and_flags_words_outside_it(
    mod: ModuleType, tmp_path: Path
) -> None:
    after = _record(mod, tmp_path / "a", "a", ["chat", "chats"], 7, ["chaton", "été"], ["chat"])
    before = _record(mod, tmp_path / "b", "b", ["cha", "chat"], 9, ["paris", "zut"], ["chat"])
    table = "\n".join(mod.check_table(after, before, ["fr"]))
    lines = {line.split(" | ")[2]: line for line in table.splitlines()[2:]}
    # after: every word in the file; before: `cha` and `zut` absent, `paris` only a proper noun
    assert lines["truncate"].endswith("| 2 | 2 | 0 | 0 | 2 | 1 of 2: `cha` |")
    assert "| 2 | 2 | 0 | 0 | 2 | 2 of 2: `paris`, `zut` |" in lines["letterboxed"]
    status = mod.dictionary_status(
        Path(tmp_path / "dict" / "french"), "utf-8", True, ["paris", "chat", "cha"]
    )
    assert status == {"paris": "proper noun", "chat": "word", "cha": "absent"}


def test_an_answer_outside_the_dictionary_is_counted(mod: ModuleType, tmp_path: Path) -> None:
    after = _record(mod, tmp_path / "a", "a", ["chat", "chatz"], 7, ["chat", "été"], ["zz"])
    before = _record(mod, tmp_path / "b", "b", ["chat"], 9, ["chat", "été"], ["chat"])
    table = "\n".join(mod.check_table(after, before, ["fr"]))
    assert "1: `chatz`" in table and "1: `zz`" in table


def test_before_and_after_tables_pair_the_runs(mod: ModuleType, tmp_path: Path) -> None:
    after = _record(mod, tmp_path / "a", "a", ["chat", "chats"], 7, ["chaton", "été"], ["chat"])
    before = _record(mod, tmp_path / "b", "b", ["cha", "chat"], 9, ["paris", "zut"], ["chat"])
    trunc = "\n".join(mod.truncate_table(after, before, ["fr"]))
    assert "cha -> chat |" in trunc and "chat -> chats |" in trunc
    lp = "\n".join(mod.letterpress_table(after, before, ["fr", "de"]))
    assert "| fr | the same | 9 -> 7 | 9 -> 7 |" in lp
    assert "| de |" in lp and "not recorded" in lp
    lb = "\n".join(mod.letterboxed_table(after, before, ["fr"]))
    assert "PARIS-ZUT" in lb and "CHATON-ÉTÉ" in lb
    grid = "\n".join(mod.grid_table(after, before, ["fr"]))
    assert "| fr | 1 of 3 -> 1 of 3 | - -> - |" in grid


def test_the_before_is_read_from_git(mod: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()  # the real subprocess.run: git show
    before = mod.Record.at(mod.BEFORE_COMMIT)
    if not before.rows:
        pytest.skip(f"no commit {mod.BEFORE_COMMIT} in this clone")
    assert before.truncate()["fr"]["puzzle"] == "truncate"
    assert before.lb_runs() and before.grid_runs() and before.board_runs()
    assert mod.Record.at("0" * 40).rows == []
