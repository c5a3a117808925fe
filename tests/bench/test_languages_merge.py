"""benchmarks/bench_languages.py: ``generate LANG ...`` and ``boards LANG ...`` run only those
languages and merge their runs into the recorded file (the solver faked: nothing is solved)."""

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
def mod(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """bench_languages, with ``cpwords`` replaced by a fake that echoes its language."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    sys.modules.pop("bench_languages", None)
    m = importlib.import_module("bench_languages")

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
    for path in (target.generated, target.boards):
        runs = [{"lang": lang, "fold_accents": False, "new": False} for lang in ("fr", "de")]
        path.write_text(json.dumps({"machine": {"date": "first"}, "runs": runs}))
    return target


@pytest.mark.parametrize("command", ["generate", "boards"])
def test_a_language_run_later_is_merged_into_the_file(
    mod: ModuleType, tmp_path: Path, command: str
) -> None:
    target = _target(mod, tmp_path)
    run = getattr(mod, command)
    run(target, only=["de", "ru"])  # de replaced in its place, ru appended, fr kept
    path = target.generated if command == "generate" else target.boards
    data = json.loads(path.read_text())
    assert data["machine"] == {"date": "first"}
    assert [(r["lang"], r["new"]) for r in data["runs"]] == [
        ("fr", False),
        ("de", True),
        ("ru", True),
    ]
    assert "machine" not in data["runs"][0]
    assert all(r["machine"] == {"date": "later"} for r in data["runs"][1:])
    run(target, only=["ru"])  # running a language again replaces it, not a second copy
    assert [r["lang"] for r in json.loads(path.read_text())["runs"]] == ["fr", "de", "ru"]


def test_without_languages_the_file_is_written_anew(mod: ModuleType, tmp_path: Path) -> None:
    target = _target(mod, tmp_path)
    mod.boards(target)
    data = json.loads(target.boards.read_text())
    assert data["machine"] == {"date": "later"}
    assert [(r["lang"], r["new"]) for r in data["runs"]] == [("fr", True), ("de", True)]


def test_the_command_line_passes_the_languages(
    mod: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(mod, "generate", lambda target, only: seen.update(generate=only))
    monkeypatch.setattr(mod, "boards", lambda target, only: seen.update(boards=only))
    mod.main(["--dictionaries", "generate", "ru"])
    mod.main(["--dictionaries", "boards"])
    assert seen == {"generate": ["ru"], "boards": None}
