"""``cpwords grid``: JSON and human output, exit statuses, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpwords.cli import main
from cpwords.grid.rules import common_tokens, default_board, grid_problems, load_board
from tests.conftest import grid_example

BAD = Path(__file__).parents[1] / "data" / "bad"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(["grid", *args])
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def test_json_enumeration_lists_valid_boards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--top", "5000", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["count"] == len(obj["quadruples"]) > 0
    board = default_board()
    words = common_tokens(5000).words
    for q in obj["quadruples"]:
        assert [q["board"][s] for s in board.suffix_slots] == q["suffixes"]
        assert not grid_problems(board, q["board"], words)
        assert len(q["words"]) == 24


def test_human_output_draws_boards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--top", "5000", "--show", "1")
    assert code == 0
    assert "automorphisms" in out and "words:" in out and "quadruples (s1, s2, s3, s4)" in out


def test_count_json_agrees_with_enumeration(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "--top", "5000", "--json")
    first = json.loads(out)["quadruples"][0]
    code, out, _ = run(capsys, "--top", "5000", "--count", ",".join(first["suffixes"]), "--json")
    obj = json.loads(out)
    assert code == 0 and obj["count"] >= 1 and obj["quadruples"][0]["suffixes"] == first["suffixes"]
    assert obj["unique"] == (obj["count_up_to_symmetry"] == 1)


def test_no_quadruple_and_no_completion_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--top", "2000")
    assert code == 1 and "no suffix quadruple" in out
    code, out, _ = run(capsys, "--top", "2000", "--count", "er,ed,ly,al", "--json")
    assert code == 1 and json.loads(out)["count"] == 0


def test_solve_and_check(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _, out, _ = run(capsys, "--top", "5000", "--json")
    ex = json.loads(out)["quadruples"][0]["board"]
    fill = f"s2={ex['s1']},c={ex['c']}"
    code, out, _ = run(capsys, "--top", "5000", "--solve-text", fill, "--json")
    sol = json.loads(out)
    assert code == 0 and sol["status"] == "FEASIBLE" and sol["verified"] is True
    assert sol["bound"] is None  # a satisfaction problem proves no bound
    assert sol["solution"]["s2"] == ex["s1"]
    f = tmp_path / "board.json"
    f.write_text(json.dumps(ex))
    code, out, _ = run(capsys, "--top", "5000", "--check", str(f), "--json")
    assert code == 0 and json.loads(out)["valid"] is True
    broken = dict(ex, n=ex["c"])
    f.write_text(json.dumps(broken))
    code, out, _ = run(capsys, "--top", "5000", "--check", str(f))
    assert code == 1 and "INVALID" in out


def test_a_finished_solve_reports_no_stop(capsys: pytest.CaptureFixture[str]) -> None:
    # A board found ends the satisfaction search: not "stopped": "time_limit" (a full board,
    # every slot already placed, was reported as stopped by the time limit).
    _, out, _ = run(capsys, "--top", "5000", "--json")
    full = json.loads(out)["quadruples"][0]["board"]
    for fill in (full, {"s2": full["s1"], "c": full["c"]}):
        text = ",".join(f"{slot}={tok}" for slot, tok in fill.items())
        code, out, _ = run(capsys, "--top", "5000", "--solve-text", text, "--json")
        row = json.loads(out)
        assert code == 0 and row["status"] == "FEASIBLE" and row["solution"] is not None
        assert row["stopped"] is None and row["interrupted"] is False
        assert row["solver_info"].get("stopped") is None


@pytest.mark.parametrize(
    "args",
    [
        ["--suffix-length", "0"],
        ["--suffix-length", "9"],
        ["--min-prefix", "0"],
        ["--min-prefix", "9"],
        ["--top", "0"],
        ["--top", "5", "--suffix-length", "8"],  # nothing long enough: an empty lexicon
        ["--top", "abc"],
        ["--count", "er,ed"],
        ["--count", "er,ed,l1,al"],
        ["--solve-text", "zz=ab"],
        ["--solve-text", "c:ab"],
        ["--solve", "c=ab"],  # a file option: the inline form is --solve-text
        ["--check", "/nonexistent/board.json"],
        ["--board", "/nonexistent/board.json"],
        ["--count", "er,ed,ly,al", "--check-text", "c=ab"],
        ["--check", "x.json", "--check-text", "c=ab"],
    ],
    ids=lambda a: " ".join(a),
)
def test_bad_arguments_one_line_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, _, err = (
        run(capsys, "--top", "2000", *args) if "--top" not in args else run(capsys, *args)
    )
    assert code == 2
    assert err.startswith("cpwords: error:") and err.count("\n") == 1


@pytest.mark.parametrize("path", sorted(BAD.glob("grid_*")), ids=lambda p: p.name)
def test_bad_board_file_exit_2(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    code, _, err = run(capsys, "--board", str(path), "--top", "2000")
    assert code == 2 and err.startswith("cpwords: error:") and err.count("\n") == 1


def test_empty_lexicon_file_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "words.txt"
    f.write_text("# nothing\n")
    code, _, err = run(capsys, "--lexicon", str(f))
    assert code == 2 and err.count("\n") == 1


def test_other_board_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "two.json"
    f.write_text(
        json.dumps(
            {
                "suffix_slots": ["x", "y"],
                "prefix_slots": ["p", "q"],
                "edges": [["p", "x"], ["p", "y"], ["q", "x"], ["q", "y"]],
            }
        )
    )
    words = tmp_path / "words.txt"
    words.write_text("bean\nbeer\ndean\ndeer\n")
    code, out, _ = run(capsys, "--board", str(f), "--lexicon", str(words), "--json")
    obj = json.loads(out)
    assert code == 0 and obj["count"] == 1 and obj["group_order"] == 4
    assert not grid_problems(
        load_board(f), obj["quadruples"][0]["board"], words.read_text().split()
    )


# Issue 23, item 13: generated boards spelled profanity ("fuck", "rape" in a --solve-text
# 's1=ck,c=ro' completion); a blocklist is now on by default for what cpwords generates.


@pytest.mark.slow
def test_generated_boards_show_no_blocked_word(capsys: pytest.CaptureFixture[str]) -> None:
    from cpwords.core.blocklist import load_blocklist
    from cpwords.grid.rules import board_words

    block = load_blocklist()
    code, out, _ = run(capsys, "--solve-text", "s1=ck,c=ro", "--json", "--workers", "1")
    row = json.loads(out)
    assert code == 0 and row["blocklist"]["source"].startswith("better-profanity")
    assert not block.any_blocked(board_words(default_board(), row["solution"]))
    code, out, _ = run(capsys, "--json", "--limit", "40")
    row = json.loads(out)
    assert code == 0 and "blocked words" in row["lexicon"]
    for q in row["quadruples"]:
        assert not block.any_blocked(q["words"]), q["words"]
    code, _, err = run(capsys, "--count", "ar,ld,at,ng", "--no-blocklist")
    assert code == 2 and "nothing is generated" in err


@pytest.mark.slow
def test_unique_designs_whose_answer_shows_a_blocked_word_are_withheld(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--unique", "--top", "20000", "--count-limit", "2", "--json"]
    code, out, _ = run(capsys, *args)
    row = json.loads(out)
    assert code == 0 and row["blocklist"]["withheld"] == 0 and row["counts"]["unique"] >= 1
    mine = tmp_path / "mine.txt"
    mine.write_text("# words of my own\n" + row["quadruples"][0]["words"][0] + "\n")
    code, out, _ = run(capsys, *args, "--blocklist", str(mine))
    again = json.loads(out)
    assert again["blocklist"]["withheld"] >= 1 and str(mine) in again["blocklist"]["source"]
    assert row["quadruples"][0]["suffixes"] not in [q["suffixes"] for q in again["quadruples"]]


def test_a_board_only_blocked_words_complete_is_still_solved_not_called_infeasible(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "No completion" is a proof on the whole lexicon: the blocklist only chooses among them.
    # Blocking every word that ends in the first suffix blocks a word of every completion.
    quadruple, suffix_fill, _ = grid_example()
    first = quadruple.split(",")[0]
    mine = tmp_path / "mine.txt"
    mine.write_text("\n".join(w for w in common_tokens(5000).words if w.endswith(first)) + "\n")
    args = ["--top", "5000", "--solve-text", suffix_fill, "--workers", "1"]
    args += ["--blocklist", str(mine)]
    code, out, _ = run(capsys, *args, "--json")
    row = json.loads(out)
    assert code == 0 and row["status"] == "FEASIBLE"
    assert row["blocklist"]["every_completion_blocked"] is True
    code, _, err = run(capsys, *args)
    assert code == 0 and "every completion of this board uses a blocked word" in err


def test_a_count_says_its_example_board_was_checked(capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 35, item 16: --count gave "verified": null although it shows an example board.
    quadruple = grid_example()[0]
    code, out, _ = run(capsys, "--top", "5000", "--count", quadruple, "--json")
    row = json.loads(out)
    assert code == 0 and row["solution"] and row["verified"] is True
    assert not grid_problems(default_board(), row["solution"], common_tokens(5000).words)
    code, out, _ = run(capsys, "--top", "2000", "--count", "er,ed,ly,al", "--json")
    assert code == 1 and json.loads(out)["verified"] is None  # no board, nothing to check


def test_no_unique_puzzle_says_what_to_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 47, item 6: the default size found nothing and exited 1 with no hint.
    from cpwords.cli.grid import NO_UNIQUE_HINT

    words = tmp_path / "few.txt"
    words.write_text("\n".join(sorted(common_tokens(2000).words)) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "--unique", "--dict", str(words))
    row_code, row, _ = run(capsys, "--unique", "--dict", str(words), "--json")
    if json.loads(row)["counts"]["unique"]:
        pytest.skip("this list has a unique puzzle")
    assert code == 1 and row_code == 1
    lines = out.splitlines()
    assert lines[-2] == "no suffix quadruple has a unique full board"
    assert lines[-1] == NO_UNIQUE_HINT and len(NO_UNIQUE_HINT) <= 100
    assert "--top" in NO_UNIQUE_HINT and NO_UNIQUE_HINT not in row
