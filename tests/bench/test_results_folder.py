"""The record stays small (issue 49): ``benchmarks/results/`` holds each suite's current run and
its report, a dated report per comparison of two commits, and nothing that nothing names; the
history is git's."""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = "benchmarks/results/"
#: How many files the folder may hold (61 since the real genomes' rows of issue 46).
MOST = 61
#: Files that may name a result: text, outside the folder (and outside the tests).
TEXT = (".md", ".toml", ".py", ".sh", ".txt", ".cfg", ".ini", ".yml", ".yaml", ".rst")


def _tracked(*paths: str) -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    out = subprocess.run(
        ["git", "ls-files", "-z", "--", *paths], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode("utf-8")
    return [p for p in out.split("\0") if p and (ROOT / p).is_file()]


@cache
def _results() -> tuple[str, ...]:
    return tuple(_tracked(RESULTS))


@cache
def _namers() -> str:
    """Every tracked text file outside the folder and the tests, as one text."""
    texts = []
    for path in _tracked("."):
        if path.startswith((RESULTS, "tests/")) or not path.endswith(TEXT):
            continue
        try:
            texts.append((ROOT / path).read_text("utf-8"))
        except UnicodeDecodeError:
            continue
    return "\n".join(texts)


def _named(path: str) -> bool:
    """Whether a file outside names ``path`` (as ``results/FOLDER/FILE`` or, for a suite's
    rows, ``FOLDER/FILE``), or its folder's report names it (by its file name)."""
    rel = path[len(RESULTS) :]
    if f"results/{rel}" in _namers():
        return True
    pure = PurePosixPath(path)
    report = ROOT / pure.parent / "report.md"
    return pure.name != "report.md" and report.is_file() and pure.name in report.read_text("utf-8")


def test_the_folder_holds_at_most_sixty_one_files() -> None:
    assert len(_results()) <= MOST, f"{len(_results())} files under {RESULTS}"


def test_every_file_is_named_outside_the_folder_or_by_its_report() -> None:
    unnamed = [p for p in _results() if not _named(p)]
    assert not unnamed, f"named by no suite, report, doc or README: {unnamed}"


def test_no_script_or_copy_is_kept_as_text() -> None:
    assert not [p for p in _results() if p.endswith((".py.txt", ".sh.txt"))]


def test_every_result_a_page_quotes_is_there() -> None:
    """The docs' includes and the pages' links into the folder point at files it holds (a file
    quoted from git history, ``git show COMMIT:benchmarks/results/...``, is not in the tree)."""
    missing = []
    for path in _tracked("docs", "models"):
        if not path.endswith(".md"):
            continue
        text = (ROOT / path).read_text("utf-8")
        for m in re.finditer(r"(?<!:)benchmarks/results/([\w./-]+\.(?:md|png|jsonl|json))", text):
            if not (ROOT / RESULTS / m.group(1)).is_file():
                missing.append(f"{path}: {m.group(0)}")
    assert not missing, missing
