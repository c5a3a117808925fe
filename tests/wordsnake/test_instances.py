"""The named instances in instances/ and their known optima (python-mip style bound table)."""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path
from typing import Any

import pytest

from cpwords.core.lexicon import read_word_list
from cpwords.wordsnake.rules import WordsnakeInstance, snake_score
from cpwords.wordsnake.spec import EXACT_METHODS, solve_wordsnake

FOLDER = Path(__file__).parents[2] / "instances" / "wordsnake"
KNOWN = tomllib.loads((FOLDER / "known.toml").read_text())["instance"]


@pytest.mark.parametrize("entry", KNOWN, ids=lambda e: f"{e['file']}-cyclic={e['cyclic']}")
def test_known_wordsnake_optima(entry: dict[str, Any]) -> None:
    words = tuple(read_word_list(FOLDER / entry["file"]))
    cyclic, proper = entry["cyclic"], entry["proper"]
    brute = max(snake_score(p, cyclic, proper) for p in itertools.permutations(words))
    assert brute == entry["optimum"]
    inst = WordsnakeInstance(words, cyclic=cyclic, proper=proper)
    for method in EXACT_METHODS:
        res = solve_wordsnake(inst, method, workers=1)
        assert res.is_optimal and res.objective == entry["optimum"], method


def test_every_instance_file_is_listed() -> None:
    listed = {e["file"] for e in KNOWN}
    assert {p.name for p in FOLDER.glob("*.txt")} == listed
