"""A Ctrl-C that arrives during the independent check keeps the proven answer (issue 34)."""

from __future__ import annotations

import dataclasses
import os
import signal
from typing import Any

import cpwords
from cpwords.wordsnake.rules import WordsnakeInstance

WORDS = ("run", "nausea", "seasick", "sickle", "lemon")


def test_ctrl_c_during_the_check_keeps_the_checked_answer_marked_interrupted() -> None:
    spec = cpwords.get_spec("wordsnake")
    quiet = cpwords.solve(spec, WordsnakeInstance(WORDS))
    assert quiet.solver_info.get("interrupted") is not True

    def interrupted_check(instance: Any, result: Any) -> list[str]:
        os.kill(os.getpid(), signal.SIGINT)  # the user presses Ctrl-C now
        return list(spec.problems(instance, result))

    res = cpwords.solve(
        dataclasses.replace(spec, problems=interrupted_check), WordsnakeInstance(WORDS)
    )
    assert res.status is cpwords.Status.OPTIMAL and res.verified is True
    assert res.solution == quiet.solution and res.objective == quiet.objective == 30
    assert res.solver_info["interrupted"] is True
    # The handler is back: a later Ctrl-C interrupts as before.
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
