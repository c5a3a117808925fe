"""Issue 47: every puzzle page and its command, driven on the same inputs, give the same answer.

For each page with a command-line twin (Wordsnake, Letter Boxed, Letterpress's listing and best
move, Truncate, the prefix/suffix grid's check and completion, word chain, superstring) the
page's JSON answer (``/api/<page>``; the Wordsnake page's job API) and the command's ``--json``
row are compared on what a user sees: the status, the objective (score, length, count) and the
answer itself.

The answer is compared word for word where the method is deterministic (Letter Boxed's layered
programme and its full set of optimal solutions, Letterpress's index listing, Truncate's
dynamic programme, the grid's checker). Where equally good answers may legitimately differ
(ties of a MIP or CP-SAT solve: the Wordsnake ordering, the word chain, the superstring, the
grid's completion, Letterpress's best move), the objectives are compared and each side's answer
is re-checked by the game's rules instead.

Both sides read the same dictionaries: the pasted lists (written to a file for the command),
or the lists shipped with cpwords (``enable1``, ``letterpress``, ``truncate``); the grid reads
the English default's 10,000 most common words on both sides.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.conftest import grid_example, run_cli

#: A small Wordsnake/chain/superstring list: overlapping words, a few ties among the answers.
WORDS = [
    "seasick",
    "kiln",
    "nausea",
    "run",
    "nab",
    "bee",
    "eel",
    "lemon",
    "once",
    "ceiling",
    "ingot",
    "gotham",
    "hamlet",
    "letter",
    "terse",
]
#: The README's Letter Boxed box, read in ENABLE (a 3-word optimum with a dozen ties).
BOX = "lua-sgc-yhk-zop"
#: The README's Letterpress bag, and the guide's board position.
BAG = "ovrkqlwislrecrtgmvpfprzey"
BOARD, COLOURS = "ovrkq/lwisl/recrt/gmvpf/przey", "bbr../b.rr./...../.r.../....b"
#: The README's Truncate query (the chains ending at 'relapsed').
TRUNCATE_END = "relapsed"


#: Every test's Letterpress index cache is private (tests/serve/conftest.py, with ``client``).
pytestmark = pytest.mark.usefixtures("private_cache")


def command(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 0) -> dict[str, Any]:
    """The command's ``--json`` row (exit status ``status``: 1 for a check that fails)."""
    code, out, err = run_cli([*argv, "--json"], capsys)
    assert code == status, err
    row = json.loads(out)
    assert isinstance(row, dict)
    return row


def page(client: TestClient, name: str, *, post: bool = False, **query: str) -> dict[str, Any]:
    """The page's JSON answer (``/api/NAME``; a solve of seconds is sent as a POST)."""
    if post:
        resp = client.post(f"/api/{name}", data=query)
    else:
        resp = client.get(f"/api/{name}", params=query)
    assert resp.status_code == 200, resp.text
    data = resp.json()
    assert isinstance(data, dict)
    return data


def word_file(tmp_path: Path) -> Path:
    f = tmp_path / "words.txt"
    f.write_text("\n".join(WORDS) + "\n")
    return f


# ---- one comparison per page --------------------------------------------------------------------


def wordsnake(client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The Wordsnake page's solve (a job) and ``cpwords snake FILE``: both exact, so the same
    proven score; the orderings may differ on ties, so each is re-scored by the rules."""
    from cpwords.wordsnake.rules import snake_lengths, snake_score

    resp = client.post("/api/wordsnake/jobs", json={"words": "\n".join(WORDS), "time_limit": 60})
    assert resp.status_code == 202, resp.text
    job = resp.json()["id"]
    deadline = time.monotonic() + 120
    while True:  # a bound on a hung job, not a timing assertion
        got = client.get(f"/api/wordsnake/jobs/{job}/result.json")
        if got.status_code != 409 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert got.status_code == 200, got.text
    web = got.json()
    cli = command(capsys, "snake", str(word_file(tmp_path)), "--workers", "1", "--seed", "0")
    assert web["status"] == cli["status"] == "OPTIMAL"
    assert web["method"] == cli["method"]
    assert web["objective"] == cli["objective"]
    assert web["total_chars"] == cli["total_chars"] and web["snake_chars"] == cli["snake_chars"]
    for row in (web, cli):
        order = row["solution"]
        assert sorted(order) == sorted(WORDS)
        assert snake_score(order) == row["objective"]
        assert snake_lengths(order, False, False) == (row["total_chars"], row["snake_chars"])
        assert row["verified"] is True


def letterboxed(client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``/api/letterboxed?box=BOX&dict=enable1`` is ``cpwords letterboxed BOX --dict enable1
    --all --max-words 2``: the layered programme is deterministic, so the solution, the whole
    set of optimal solutions and the counts are the same."""
    from cpwords.core.wordlists import packaged_lexicon
    from cpwords.letterboxed.rules import letterboxed_problems, parse_box

    web = page(client, "letterboxed", box=BOX, dict="enable1")
    cli = command(capsys, "letterboxed", BOX, "--dict", "enable1", "--all", "--max-words", "2")
    same = ("status", "objective", "bound", "num_words", "num_letters", "box", "lexicon")
    assert {k: web[k] for k in same} == {k: cli[k] for k in same}
    assert web["status"] == "OPTIMAL"
    assert web["lexicon_size"] == cli["lexicon_size"]
    assert web["playable_words"] == cli["playable_words"]
    assert web["solution"] == cli["solution"]
    assert web["n_optimal"] == cli["n_optimal"] == len(cli["optimal_solutions"]) > 1
    assert sorted(map(tuple, web["optimal_solutions"])) == sorted(
        map(tuple, cli["optimal_solutions"])
    )
    assert web["counts"] == cli["counts"] and web["count_total"] == cli["count_total"]
    words = packaged_lexicon("enable1").as_set()
    for answer in web["optimal_solutions"]:
        assert not letterboxed_problems(parse_box(BOX), answer, words)


def letterpress_words(
    client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``/api/letterpress?letters=BAG`` is ``cpwords letterpress BAG --longest-first``: the
    same words of the game's list, in the same order."""
    from cpwords.letterpress.rules import can_spell

    web = page(client, "letterpress", letters=BAG)
    cli = command(capsys, "letterpress", BAG, "--longest-first")
    listed = [w for _, ws in web["by_length"] for w in ws]
    assert web["lexicon"] == cli["lexicon"] and web["lexicon_size"] == cli["lexicon_size"]
    assert web["count"] == len(cli["solution"]) == len(listed) > 0
    assert listed == cli["solution"]
    assert all(can_spell(w, BAG) for w in listed)


def letterpress_move(
    client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The best move on the guide's board: the page (``colours``) and ``--board COLOURS``
    prove the same swing; the word may differ on a tie, so each move is re-scored on the
    board."""
    from cpwords.letterpress.rules import move_scores, parse_board

    web = page(client, "letterpress", post=True, letters=BOARD, colours=COLOURS)
    cli = command(capsys, "letterpress", BOARD, "--board", COLOURS, "--workers", "1")
    assert web["status"] == cli["status"] == "OPTIMAL"
    assert web["proven"] is True
    board = parse_board(BOARD, COLOURS)
    for move in (web["move"], cli["solution"]):
        assert move["swing"] == cli["objective"]
        assert move_scores(board, move["tiles"]) == (move["swing"], move["defence"])
        assert "".join(board.letters[t] for t in move["tiles"]) == move["word"]
    assert web["move"]["defence"] == cli["solution"]["defence"]


def truncate(client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``/api/truncate?word=W&direction=to`` is ``cpwords truncate --end W --all``: the dynamic
    programme is deterministic, so the length, the count and the listed chains agree."""
    from cpwords.core.wordlists import packaged_lexicon
    from cpwords.truncate.rules import truncate_sequence_problems

    web = page(client, "truncate", word=TRUNCATE_END, direction="to")
    cli = command(capsys, "truncate", "--end", TRUNCATE_END, "--all")
    sol = cli["solution"]
    assert web["status"] == cli["status"] == "OPTIMAL"
    assert web["lexicon"] == cli["lexicon"] and web["lexicon_size"] == cli["lexicon_size"]
    assert web["length"] == sol["length"] == cli["objective"]
    assert web["count"] == sol["count"] == len(sol["sequences"])
    assert web["sequence"] == sol["sequence"]
    assert web["listed"] == sol["sequences"][: len(web["listed"])]
    assert len(web["listed"]) == min(sol["count"], 50)
    words = packaged_lexicon("truncate").as_set()
    for chain in web["listed"]:
        assert not truncate_sequence_problems(chain, words, ending=TRUNCATE_END)


def grid_check(client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A full board checked on the grid page (``action=check``) and by ``cpwords grid
    --check-text``: the same verdict, then the same for the board with one token changed."""
    _, _, full = grid_example()
    fill = dict(part.split("=") for part in full.split(","))
    broken = fill | {"c": fill["n"]}  # a prefix twice (and words off the list)
    for board in (fill, broken):
        text = ",".join(f"{k}={v}" for k, v in board.items())
        query: dict[str, Any] = {f"t_{k}": v for k, v in board.items()}
        web = page(client, "grid", action="check", **query)
        cli = command(capsys, "grid", "--check-text", text, status=int(board is broken))
        assert web["valid"] == cli["valid"] == (board is fill)
        assert bool(web["problems"]) == bool(cli["problems"]) == (board is broken)
        assert web["lexicon"] == cli["lexicon"] and web["lexicon_size"] == cli["lexicon_size"]


def grid_solve(client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A board with its four suffixes placed, completed on the page (``action=solve``) and by
    ``cpwords grid --solve-text``: the same status from the same lexicon (less the blocked
    words); the completions may differ (many fill the board), so each is re-checked."""
    from cpwords.grid.rules import common_tokens, default_board, grid_problems

    _, suffixes, _ = grid_example()
    placed = dict(part.split("=") for part in suffixes.split(","))
    query = {f"t_{k}": v for k, v in placed.items()}
    web = page(client, "grid", post=True, action="solve", **query)
    cli = command(capsys, "grid", "--solve-text", suffixes, "--workers", "1")
    assert web["status"] == cli["status"]
    assert web["status"] in ("OPTIMAL", "FEASIBLE")
    assert cli["lexicon"].startswith(web["lexicon"])  # the page names the list before the cut
    words = set(common_tokens(10000, 2, 2, False).words)
    for fill in (web["fill"], cli["solution"]):
        assert {k: fill[k] for k in placed} == placed
        assert not grid_problems(default_board(), fill, words, 2, 2)


def chain(client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The word-chain page on a pasted list and ``cpwords chain FILE``: both prove the longest
    chain's length; the chains may differ on ties, so each is re-checked by the rules."""
    from cpwords.chain.rules import chain_problems

    web = page(client, "chain", post=True, words="\n".join(WORDS), k="1", maximise="words")
    cli = command(capsys, "chain", str(word_file(tmp_path)), "--overlap", "1")
    assert web["status"] == cli["status"] == "OPTIMAL"
    assert web["objective"] == cli["objective"] == len(cli["solution"]) == web["words"]
    assert web["lexicon_size"] == len(WORDS)
    for answer in (web["chain"], cli["solution"]):
        assert not chain_problems(answer, set(WORDS), 1)


def superstring(client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The superstring page on a pasted list and ``cpwords superstring FILE``: both prove the
    shortest length; the strings may differ on ties, so each is re-checked."""
    from cpwords.superstring.rules import superstring_problems

    web = page(client, "superstring", post=True, words="\n".join(WORDS))
    cli = command(capsys, "superstring", str(word_file(tmp_path)), "--workers", "1")
    assert web["status"] == cli["status"] == "OPTIMAL"
    assert web["objective"] == cli["objective"] == web["length"] == len(cli["solution"])
    assert web["kept"] == cli["solver_info"]["kept"]
    for text in (web["superstring"], cli["solution"]):
        assert not superstring_problems(WORDS, text)


COMPARISONS: dict[str, Callable[[TestClient, pytest.CaptureFixture[str], Path], None]] = {
    "wordsnake": wordsnake,
    "letterboxed": letterboxed,
    "letterpress-words": letterpress_words,
    "letterpress-move": letterpress_move,
    "truncate": truncate,
    "grid-check": grid_check,
    "grid-solve": grid_solve,
    "chain": chain,
    "superstring": superstring,
}


@pytest.mark.parametrize("name", list(COMPARISONS))
def test_the_page_and_its_command_agree(
    name: str, client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    COMPARISONS[name](client, capsys, tmp_path)
