"""benchmarks/draw_unions.py: the draw is the seed's (every pair once, kept ones in range), its
suite loads, and an existing file is never overwritten (wordfreq's lists faked: nothing read)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

from cpwords.bench import load_suite

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def mod(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The script, with each union's size a function of its two languages."""
    pytest.importorskip("wordfreq")
    from cpwords.core import sources

    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    sys.modules.pop("draw_unions", None)
    m = importlib.import_module("draw_unions")

    def fake_words(name: str) -> range:
        a, b = name.removeprefix("wordfreq:").split(":")[0].split("+")
        return range(400_000 * (len(set(a + b)) - 1))  # 0.4 to 1.2 M words

    monkeypatch.setattr(sources, "lexicon_words", fake_words)
    return m


def test_the_draw_is_the_seeds_and_keeps_unions_in_range(mod: ModuleType) -> None:
    drawn, kept = mod.draw(20261207, keep=3)
    assert (drawn, kept) == mod.draw(20261207, keep=3)
    assert len({(a, b) for a, b, _ in drawn}) == len(drawn)  # no pair twice
    assert kept == [d for d in drawn if 1_000_000 <= d[2] <= 1_500_000]
    assert len(kept) == 3 and all(a < b for a, b, _ in drawn)


def test_the_suite_loads_and_an_existing_file_is_kept(mod: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "drawn.toml"
    assert mod.main(["--seed", "7", "--keep", "2", "--out", str(out)]) == 0
    suite = load_suite(out)
    assert len(suite.tasks) == 2 and all(t.method == "auto" for t in suite.tasks)
    assert out.read_text(encoding="utf-8").startswith("# Unions drawn at random")
    before = out.read_bytes()
    with pytest.raises(SystemExit) as err:
        mod.main(["--seed", "8", "--out", str(out)])
    assert err.value.code == 2 and out.read_bytes() == before
