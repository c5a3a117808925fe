"""benchmarks/report_languages_dictionaries.py: the dictionary check and the before/after tables
of the languages report, on a tiny fake record (two runs, a fake French dictionary)."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def mod(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> ModuleType:
    """The report module (it imports bench_languages, beside it), with a fake dictionary folder
    holding a French list whose only proper noun is ``Paris``."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    dicts = tmp_path / "dict"
    dicts.mkdir()
    (dicts / "french").write_text("chat\nchats\nchaton\nParis\nété\n", encoding="utf-8")
    monkeypatch.setenv("CPWORDS_DICT_DIR", str(dicts))
    for name in ("report_languages_dictionaries", "bench_languages"):
        sys.modules.pop(name, None)
    return importlib.import_module("report_languages_dictionaries")


def _row(puzzle: str, spec: dict[str, Any], objective: float, solution: Any) -> dict[str, Any]:
    return {
        "schema": "cpwords-bench/1", "puzzle": puzzle, "instance": f"{puzzle}-x", "method": "m",
        "status": "OPTIMAL",
        "instance_spec": spec, "objective": objective, "solution": solution, "size": 5,
        "solver_info": {"count": 1, "source": "fake"}, "wall_time": 0.01,
    }  # fmt: skip


def _record(mod: ModuleType, root: Path, prefix: str, chain: list[str], bag_words: int,
            lb: list[str], grid_words: list[str]) -> Any:  # fmt: skip
    """A fake run: a Truncate chain, one Letterpress bag, one Letter Boxed box, one grid design."""
    target = mod.Target(root, prefix, ("fr",), (("fr", 20000, 2),), (("fr", False),))
    root.mkdir()
    rows = [
        _row("truncate", {"lexicon": "lang:fr"}, len(chain), chain),
        _row("letterpress", {"lexicon": "lang:fr", "letters": "chatsabcde"}, bag_words,
             {"count": bag_words, "longest": [chain[-1]]}),
    ]  # fmt: skip
    (root / f"{prefix}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    box = {"box": "abc-def-ghi-jkl", "solution": lb, "two_word_solutions": [lb], "verified": True}
    runs = [{"lang": "fr", "requested": 1, "lexicon": "fake", "boxes": [box]}]
    target.generated.write_text(json.dumps({"runs": runs}))
    design = {"lang": "fr", "top": 20000, "suffix_length": 2, "unique_count": 1, "classes": 3,
              "quadruples": [{"words": grid_words}]}  # fmt: skip
    target.grid.write_text(json.dumps({"runs": [design]}))
    return mod.Record(target)


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
