"""The default method's stages: the card's list and the policy's, and what each stage keeps."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from cpwords.wordsnake.models.auto import STAGES, solve_exact
from cpwords.wordsnake.models.lagrangian import solve_string_flow
from cpwords.wordsnake.models.string_hub import build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance, snake_score

CARD = Path(__file__).resolve().parents[2] / "models" / "wordsnake.md"


def card_stages() -> list[str]:
    """The bold names of the numbered list under the card's "its stages" heading."""
    text = CARD.read_text(encoding="utf-8")
    section = text.split("## The default `exact` method: its stages", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\d+\. \*\*(.+?)\*\*", section, flags=re.MULTILINE)


def test_the_policy_runs_the_cards_stages_in_the_cards_order() -> None:
    names = [stage.name for stage in STAGES]
    assert names == card_stages()
    assert len(set(names)) == len(names) == 13


def test_the_flow_stages_alone_give_a_sound_bound_and_a_checked_ordering() -> None:
    rng = random.Random(3)
    words = tuple("".join(rng.choice("abc") for _ in range(rng.randint(2, 6))) for _ in range(30))
    inst = WordsnakeInstance(words)
    out = solve_string_flow(build_string_network(inst), lagrangian_iterations=5)
    assert out.order is not None and out.bound is not None and out.objective is not None
    ordering = [words[i] for i in out.order]
    assert sorted(ordering) == sorted(words)
    assert snake_score(ordering, False, False) == out.objective <= out.bound
    best = solve_exact(inst, time_limit=60, workers=1)
    assert best.is_optimal and best.objective is not None
    assert out.objective <= best.objective <= out.bound
    assert best.solver_info["stages"][0]["stage"] == "flow"


def test_a_stop_before_any_flow_bound_reports_the_length_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stopped while the network is built: the answer still carries a proven bound, the words'
    lengths' (issue 34: it was null), at least the brute-force optimum."""
    import itertools

    from cpwords.wordsnake.models.pipeline import first_bound, policy

    rng = random.Random(5)
    words = tuple(sorted({"".join(rng.choice("abc") for _ in range(rng.randint(2, 5)))
                          for _ in range(7)}))  # fmt: skip
    inst = WordsnakeInstance(words)

    def stopped(state: object) -> None:
        raise policy.DeadlineReached

    monkeypatch.setattr(policy, "NETWORK", policy.Stage("string-hub network", stopped))
    # No routes model after it either (it would solve so small a list outright).
    monkeypatch.setattr(policy, "ROUTES", policy.Stage("routes", stopped, lambda _s: False))
    res = solve_exact(inst)
    best = max(snake_score(p) for p in itertools.permutations(words))
    assert res.bound == first_bound.length_bound(inst) >= best
    assert res.objective is not None and res.objective <= best
    assert res.solver_info["length_bound"] == res.bound
