"""Every command and Python example of the README and the docs runs as written and prints what
the page shows (issue 35). The convention the pages follow is in ``docs/examples.md`` and
:mod:`tests.docs.examples`."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cpwords.core.lexicon import shared_data_dir
from tests.docs.examples import ROOT, Example, collect, mismatch

EXAMPLES = collect()
#: Longest a single example may run before the test gives up (a hung example is a failure).
TIMEOUT_S = 600


def _marks(ex: Example) -> list[pytest.MarkDecorator]:
    marks = [pytest.mark.slow] if ex.slow else []
    if ex.skip is not None:
        marks.append(pytest.mark.skip(reason=ex.skip))
    return marks


def _params() -> list[object]:
    return [pytest.param(ex, id=ex.id, marks=_marks(ex)) for ex in EXAMPLES]


def _needs(ex: Example) -> None:
    """Skip, with a reason, when the example needs data or a dictionary that is absent."""
    from cpwords.core.dictionaries import find_dictionary

    if ex.data and shared_data_dir() is None:
        pytest.skip(f"{ex.id} reads ../shared/data, which is absent (CPWORDS_DATA names it)")
    for name in ex.dictionaries:
        d = find_dictionary(name)
        if not d.installed():
            pytest.skip(f"{ex.id} needs the {d.language} dictionary: {d.install}")


def _workplace(tmp: Path) -> tuple[Path, dict[str, str]]:
    """An empty folder to run a block in, beside a ``shared/data`` link to the real data, and the
    environment in which ``cpwords`` and ``python`` are this interpreter with this checkout."""
    work = tmp / "checkout"
    work.mkdir()
    (work / "benchmarks").symlink_to(ROOT / "benchmarks")
    data = shared_data_dir()
    if data is not None:
        (tmp / "shared").mkdir()
        (tmp / "shared" / "data").symlink_to(data.resolve())
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    for name, line in (("python", ""), ("cpwords", "-m cpwords")):
        shim = bin_dir / name
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" {line} "$@"\n', encoding="utf-8")
        shim.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    env["COLUMNS"] = "200"  # what a wide terminal gets; output is read through a pipe anyway
    return work, env


def _run_bash(ex: Example, tmp: Path) -> None:
    work, env = _workplace(tmp)
    proc = subprocess.run(
        ["bash", "-e", "-c", ex.code],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert proc.returncode == ex.exit, (
        f"{ex.id} ended with exit {proc.returncode} (the page expects {ex.exit}):\n{proc.stderr}"
    )
    if ex.shown is not None:
        problem = mismatch(ex.shown, proc.stdout)
        assert problem is None, f"{ex.id}: {problem}\n--- printed:\n{proc.stdout}"


def _run_python(ex: Example, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp)
    if ex.lang == "python":
        exec(compile(ex.code, ex.id, "exec"), {"__name__": "__example__"})
        return
    test = doctest.DocTestParser().get_doctest(ex.code, {}, ex.id, ex.page, ex.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


@pytest.mark.parametrize("ex", _params())
def test_example_runs_as_shown(
    ex: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _needs(ex)
    if ex.lang in ("python", "pycon"):
        _run_python(ex, tmp_path, monkeypatch)
    else:
        _run_bash(ex, tmp_path)


def test_every_command_block_is_run_or_says_why_not() -> None:
    """No example is left out silently: a block that is not run names its reason."""
    assert EXAMPLES, "no examples found"
    for ex in EXAMPLES:
        assert ex.skip is None or len(ex.skip) > 10, f"{ex.id}: say why it is not run"


def test_excerpts_are_matched_in_order() -> None:
    assert mismatch("...\nb\n...", "a\nb\nc") is None
    assert mismatch("a\n...", "a\nb") is None
    assert mismatch("...\nc", "a\nb\nc") is None
    assert mismatch("b\n...", "a\nb\nc") is not None  # the excerpt starts at the top
    assert mismatch("...\nb", "a\nb\nc") is not None  # ... and ends at the bottom
    assert mismatch("...\nc\n...\na\n...", "a\nb\nc") is not None  # in order
    assert mismatch("time 0.5 s", "time 12 ms") is None  # times vary from run to run
    assert mismatch("30 words", "31 words") is not None
