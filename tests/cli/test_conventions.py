"""Issue 12: one command-line language, strict JSON, time limits, inputs, progress."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cpwords.cli import cli
from cpwords.cli._common import Ticker, dumps
from tests.conftest import grid_example


def cpwords(
    *args: str, stdin: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from cpwords.cli import main; main()", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=timeout,
    )


def one_error_line(res: subprocess.CompletedProcess[str]) -> None:
    assert res.returncode == 2, (res.returncode, res.stderr)
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr, res.stderr
    assert len(res.stderr) < 400


def invoke(args: list[str]) -> tuple[int, str]:
    """Run the click group in-process: (exit status as main() gives it, output + error)."""
    from cpwords.core.errors import CpwordsError

    res = CliRunner().invoke(cli, args)
    if isinstance(res.exception, CpwordsError):
        return 2, str(res.exception)
    return res.exit_code, res.output


WORDS = "\n".join(["bean", "beer", "dean", "deer", "sean", "seer", "lean", "leer"]) + "\n"


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-3", "abc"])
@pytest.mark.parametrize(
    "cmd",
    [
        ["grid", "--top", "500"],
        ["letterboxed", "abc-def-ghi-jkl", "--method", "cpsat"],
        ["letterpress", "abcde", "--board", "....."],
    ],
)
def test_bad_time_limits_are_refused(cmd: list[str], value: str) -> None:
    res = CliRunner().invoke(cli, [*cmd, "--time-limit", value])
    assert res.exit_code == 2, res.output
    assert "--time-limit" in res.output


def test_json_never_prints_nan_or_infinity() -> None:
    text = dumps({"a": math.nan, "b": [math.inf, -math.inf, 1.5], "c": {"d": math.nan}})
    assert json.loads(text) == {"a": None, "b": [None, None, 1.5], "c": {"d": None}}
    assert "NaN" not in text and "Infinity" not in text


@pytest.mark.slow
def test_grid_time_limit_is_honoured_on_a_big_lexicon(tmp_path: Path) -> None:
    # Issue 12: grid --lexicon on a 1,000,000-word file ran for over 300 s with no bound.
    import random

    rng = random.Random(1)
    cons, vows = "bcdfghklmnprst", "aeiou"
    words = {
        "".join(rng.choice(cons) + rng.choice(vows) for _ in range(rng.randint(2, 4)))
        for _ in range(200_000)
    }
    big = tmp_path / "big.txt"
    big.write_text("\n".join(sorted(words)) + "\n")
    t0 = time.monotonic()
    res = cpwords("grid", "--dict", str(big), "--time-limit", "2", "--json", "--show", "0")
    wall = time.monotonic() - t0
    # Not a timing test (timings belong to benchmarks): the run must stop because of the limit,
    # which an order of magnitude of slack still tells apart from ignoring it (300+ s before).
    assert wall < 20, f"ran {wall:.1f} s for a 2 s limit"
    assert res.returncode in (0, 1), res.stderr
    row = json.loads(res.stdout)  # with --json, one object even when the limit came first
    assert row["status"] in ("FEASIBLE", "UNKNOWN") and row["interrupted"] is False
    if row["status"] == "UNKNOWN":
        assert res.returncode == 1 and "time limit" in res.stderr
    else:
        assert row["complete"] is False and res.returncode == 0


@pytest.mark.slow
def test_a_time_limit_before_any_answer_still_prints_one_json_object(tmp_path: Path) -> None:
    f = tmp_path / "w.txt"
    f.write_text(_sixteen_letter_words())
    res = cpwords(
        "letterboxed",
        "abcd-efgh-ijkl-mnop",
        "--any-shape",
        "--dict",
        str(f),
        "--time-limit",
        "0.2",
        "--json",
    )
    assert res.returncode == 1, res.stderr
    row = json.loads(res.stdout)
    assert row["status"] == "UNKNOWN" and row["solution"] is None and "time limit" in row["reason"]
    assert res.stderr.count("\n") == 1 and "time limit" in res.stderr


@pytest.mark.slow
def test_grid_partial_enumeration_is_marked_incomplete() -> None:
    from cpwords.grid.models.listing import enumerate_quadruples
    from cpwords.grid.rules import common_tokens, load_board

    board = load_board(None)
    tokens = common_tokens(20000, 2, 2, False)
    full = enumerate_quadruples(board, tokens)
    assert full.complete and full.stopped is None
    cut = enumerate_quadruples(board, tokens, time_limit=1e-9)
    assert cut.stopped == "time_limit" and not cut.complete
    assert cut.suffix_set() <= full.suffix_set()


@pytest.mark.slow
def test_grid_error_quotes_only_an_excerpt_of_a_huge_fill_file(tmp_path: Path) -> None:
    # Issue 12: grid --solve million.txt echoed the whole 8 MB file in one stderr line.
    big = tmp_path / "million.txt"
    big.write_text("\n".join(f"word{i}" for i in range(200_000)) + "\n")
    res = cpwords("grid", "--top", "500", "--solve", str(big))
    one_error_line(res)


@pytest.mark.slow
def test_grid_fill_files_empty_bom_and_stdin(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n")
    res = cpwords("grid", "--top", "5000", "--check", str(empty))
    one_error_line(res)
    assert "empty" in res.stderr
    fill = grid_example()[1]
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbf" + fill.encode())
    for args, stdin in (([str(bom)], None), (["-"], fill)):
        res = cpwords("grid", "--top", "5000", "--solve", *args, "--json", stdin=stdin)
        assert res.returncode == 0, res.stderr
        assert json.loads(res.stdout)["count"] == 1


def test_grid_dict_is_the_option_and_lexicon_a_hidden_alias(tmp_path: Path) -> None:
    lex = tmp_path / "w.txt"
    lex.write_text(WORDS)
    runner = CliRunner()
    assert "--lexicon" not in runner.invoke(cli, ["grid", "--help"]).output
    new = runner.invoke(cli, ["grid", "--dict", str(lex), "--json", "--limit", "5"])
    old = runner.invoke(cli, ["grid", "--lexicon", str(lex), "--json", "--list", "5"])
    assert new.exit_code == old.exit_code
    assert json.loads(new.output)["lexicon"] == json.loads(old.output)["lexicon"]
    assert invoke(["grid", "--dict", str(lex), "--lexicon", str(lex)])[0] == 2


#: Options that do nothing in the mode given: each is refused in one line (exit 2).
IDLE_OPTIONS = [
    ["grid", "--dict", "{w}", "--top", "100"],
    ["grid", "--top", "500", "--count", "ck,ll,nd,ss", "--limit", "3"],
    ["grid", "--top", "500", "--count", "ck,ll,nd,ss", "--all-orientations"],
    ["grid", "--top", "500", "--check-text", "s1=ck", "--show", "2"],
    ["grid", "--top", "500", "--workers", "2"],
    ["grid", "--top", "500", "--seed", "3"],
    ["snake", "{w}", "--method", "greedy", "--iterations", "5"],
    ["snake", "{w}", "--method", "exact", "--iterations", "5"],
    ["snake", "{w}", "--method", "local", "--workers", "3"],
    ["snake", "{w}", "--peers"],
    ["snake", "{w}", "--compare", "--peer-time-limit", "3"],
    ["snake", "{w}", "--check-text", "bean beer", "--method", "greedy"],
    ["snake", "{w}", "--check-text", "bean beer", "--time-limit", "5"],
    ["snake", "{w}", "--export-tsplib", "{tmp}/x.atsp", "--seed", "4"],
    ["snake", "{w}", "--export-tsplib", "{tmp}/x.atsp", "--export-connectivity", "none"],
    ["snake", "{w}", "--force"],
    ["superstring", "{w}", "--method", "greedy", "--workers", "2"],
    ["superstring", "{w}", "--check-text", "beanbeer", "--time-limit", "5"],
    ["superstring", "{w}", "--compare", "--method", "greedy"],
    ["superstring", "{w}", "--force"],
    ["letterboxed", "abc-def-ghi-jkl", "--check-text", "bead dhl", "--method", "dp"],
    ["letterboxed", "abc-def-ghi-jkl", "--check-text", "bead dhl", "--time-limit", "5"],
    ["letterboxed", "abc-def-ghi-jkl", "--check-text", "bead dhl", "--all"],
    ["letterboxed", "abc-def-ghi-jkl", "--dict", "{w}", "--limit", "3"],
    ["letterboxed", "abc-def-ghi-jkl", "--dict", "{w}", "--workers", "2"],
    ["letterboxed", "--generate", "1", "--limit", "3"],
    ["letterboxed", "--generate", "1", "--workers", "2"],
    ["letterpress", "abc", "--dict", "{w}", "--played", "bean"],
    ["letterpress", "abc", "--dict", "{w}", "--seed", "1"],
    ["letterpress", "a" * 25, "--board", "." * 25, "--limit", "3"],
    ["truncate", "--dict", "{w}", "--limit", "1"],
    ["bench", "benchmarks/suites/quick.toml", "--out", "{tmp}/r.jsonl", "--list", "--jobs", "2"],
    [
        "bench",
        "benchmarks/suites/quick.toml",
        "--out",
        "{tmp}/r.jsonl",
        "--executor",
        "serial",
        "--jobs",
        "2",
    ],
]

#: The same options where they do something: accepted.
USED_OPTIONS = [
    ["snake", "{w}", "--method", "layered", "--iterations", "5"],
    ["snake", "{w}", "--method", "exact", "--workers", "1", "--seed", "2"],
    ["superstring", "{w}", "--workers", "1", "--seed", "2"],
    ["letterboxed", "abc-def-ghi-jkl", "--dict", "{w}", "--all", "--limit", "3"],
    ["letterboxed", "abc-def-ghi-jkl", "--dict", "{w}", "--method", "cpsat", "--workers", "1"],
    ["truncate", "--dict", "{w}", "--all", "--limit", "1"],
    ["grid", "--dict", "{w}", "--all-orientations", "--limit", "2"],
    ["letterpress", "--random-board", "--dict", "{w}", "--seed", "1"],
]


@pytest.mark.parametrize("args", IDLE_OPTIONS, ids=lambda a: " ".join(a[:1] + a[2:]))
def test_options_that_do_nothing_are_refused(tmp_path: Path, args: list[str]) -> None:
    lex = tmp_path / "w.txt"
    lex.write_text(WORDS)
    argv = [a.format(w=lex, tmp=tmp_path) for a in args]
    code, text = invoke(argv)
    assert code == 2 and "does nothing" in text, (argv, text)
    assert text.count("\n") <= 1 and len(text) < 200
    assert not list(tmp_path.glob("x.atsp")) and not list(tmp_path.glob("r.jsonl"))


@pytest.mark.parametrize("args", USED_OPTIONS, ids=lambda a: " ".join(a[:1] + a[2:]))
def test_the_same_options_are_accepted_where_they_do_something(
    tmp_path: Path, args: list[str]
) -> None:
    lex = tmp_path / "w.txt"
    lex.write_text(WORDS)
    code, text = invoke([a.format(w=lex, tmp=tmp_path) for a in args])
    assert code in (0, 1) and "does nothing" not in text, text


def test_ticker_clock_runs_and_bound_never_gets_worse() -> None:
    t = Ticker("solve", sense="max")
    t.update(incumbent=10, bound=50, stage="flow")
    t.update(incumbent=8, bound=60)  # worse on both counts: ignored
    assert (t.incumbent, t.bound, t.stage) == (10, 50, "flow")
    t.update(incumbent=12, bound=40)
    assert (t.incumbent, t.bound) == (12, 40)
    first = t.elapsed()
    time.sleep(0.05)
    assert t.elapsed() > first  # ticks without any update
    assert "bound 40" in t.text() and "best 12" in t.text()
    m = Ticker("solve", sense="min")
    m.update(incumbent=5, bound=1)
    m.update(incumbent=7, bound=0)
    assert (m.incumbent, m.bound) == (5, 1)


@pytest.mark.slow
def test_truncate_limit_and_its_old_name(tmp_path: Path) -> None:
    d = tmp_path / "d.txt"
    d.write_text("a\nla\nlap\nlaps\nlapse\nelapse\nlapsed\nelapsed\n")
    new = invoke(["truncate", "--dict", str(d), "--all", "--limit", "1", "--json"])
    old = invoke(["truncate", "--dict", str(d), "--all", "--max-sequences", "1", "--json"])
    assert new[0] == old[0] == 0
    assert json.loads(new[1])["sequences"] == json.loads(old[1])["sequences"]
    assert len(json.loads(new[1])["sequences"]) == 1
    assert invoke(["truncate", "--dict", str(d), "--limit", "1"])[0] == 2  # needs --all
    res = cpwords("truncate", "--dict", "-", "--json", stdin=d.read_text())
    assert res.returncode == 0 and json.loads(res.stdout)["length"] == 7, res.stderr


def test_cache_info_clear_and_size_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cpwords.letterpress.models import index as lp

    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "cache"))
    for i in range(3):
        lp.load_letterpress_index([f"word{c}" for c in "abcdefgh"[: i + 3]])
        time.sleep(0.02)
    info = json.loads(invoke(["cache", "info", "--json"])[1])
    assert info["files"] == 3 and info["bytes"] > 0
    sizes = [e["bytes"] for e in info["entries"]]
    # A cap that holds only the newest file evicts the two oldest on the next write.
    monkeypatch.setenv("CPWORDS_CACHE_MAX_MB", str((max(sizes) + 10) / 1024 / 1024))
    newest = lp.load_letterpress_index(["zebra", "zoo"])
    left = lp.cache_files()
    assert len(left) == 1 and newest.fingerprint[:40] in left[0].name
    code, text = invoke(["cache", "clear", "--json"])
    assert code == 0 and json.loads(text)["removed"] == 1
    assert lp.cache_files() == []


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGINT delivery")
def test_ctrl_c_in_cpsat_prints_the_best_so_far_marked_interrupted(tmp_path: Path) -> None:
    # 3000 random playable words: CP-SAT takes far longer than the test waits.
    import random
    import signal

    rng = random.Random(3)
    sides = ["abc", "def", "ghi", "jkl"]
    side = {ch: i for i, s in enumerate(sides) for ch in s}
    words: set[str] = set()
    while len(words) < 3000:
        w = [rng.choice("abcdefghijkl")]
        for _ in range(rng.randint(2, 7)):
            w.append(rng.choice([c for c in "abcdefghijkl" if side[c] != side[w[-1]]]))
        words.add("".join(w))
    d = tmp_path / "d.txt"
    d.write_text("\n".join(sorted(words)) + "\n")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from cpwords.cli import main; main()",
            "letterboxed",
            "abc-def-ghi-jkl",
            "--method",
            "cpsat",
            "--dict",
            str(d),
            "--time-limit",
            "60",
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(4)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=55)
    # Stopped by Ctrl-C, not by the 60 s limit (a timing margin, not a timing test).
    assert time.monotonic() - t0 < 30
    assert proc.returncode == 130, err
    row = json.loads(out)
    assert row["interrupted"] is True and row["status"] in ("UNKNOWN", "FEASIBLE")


def _full_grid_fill() -> str:
    return grid_example()[2]


SNAKE_WORDS = "run\nnausea\nseasick\nsickle\nlemon\n"


@pytest.mark.parametrize("cmd", ["snake", "letterboxed", "grid", "chain", "superstring"])
def test_check_is_a_file_or_stdin_and_check_text_is_inline(tmp_path: Path, cmd: str) -> None:
    # Issue 12: --check took a file in snake and text in letterboxed; now --check is always
    # a file ('-': stdin) and --check-text the same answer inline, in every subcommand.
    if cmd == "snake":
        words = tmp_path / "five.txt"
        words.write_text(SNAKE_WORDS)
        args, inline = ["snake", str(words)], "RUN, nausea seasick sickle lemon"
        content = inline.replace(",", "").replace(" ", "\n")
    elif cmd == "letterboxed":
        # words of the default list, wamerican's or web2's (wordfreq's gave PSYCHOLOGY YAKUZA)
        args, inline = ["letterboxed", "lua-sgc-yhk-zop"], "SOUP PLOUGH HAZY YUCK"
        content = inline
    elif cmd == "chain":
        words = tmp_path / "five.txt"
        words.write_text(SNAKE_WORDS)
        args, inline = ["chain", str(words)], "RUN -> nausea"
        content = "run\nnausea\n"
    elif cmd == "superstring":
        words = tmp_path / "five.txt"
        words.write_text(SNAKE_WORDS)
        args, inline = ["superstring", str(words)], "RUNAUSEASICKLEMON"
        content = "runauseasick\nlemon\n"  # spaces and new lines are ignored
    else:
        args, inline = ["grid", "--top", "5000"], _full_grid_fill()
        content = "\ufeff" + inline  # a byte-order mark is accepted
    f = tmp_path / "answer.txt"
    f.write_text(content, encoding="utf-8")
    runner = CliRunner()
    by_file = runner.invoke(cli, [*args, "--check", str(f), "--json"])
    by_stdin = runner.invoke(cli, [*args, "--check", "-", "--json"], input=content)
    by_text = runner.invoke(cli, [*args, "--check-text", inline, "--json"])
    rows = [json.loads(r.output) for r in (by_file, by_stdin, by_text)]
    assert [r.exit_code for r in (by_file, by_stdin, by_text)] == [0, 0, 0], rows
    assert rows[0]["valid"] is True and rows[0] == rows[1] == rows[2]
    # An inline answer given to --check (a file option) is refused with a pointer.
    code, text = invoke([*args, "--check", inline])
    assert code == 2 and "--check-text" in text, text
    code, text = invoke([*args, "--check", str(f), "--check-text", inline])
    assert code == 2 and "not both" in text, text


def test_grid_board_and_solve_read_stdin_and_only_one_input_may(tmp_path: Path) -> None:
    from importlib import resources

    board = resources.files("cpwords").joinpath("data/boards/okwddm.json").read_text("utf-8")
    runner = CliRunner()
    fill = grid_example()[1]
    by_stdin = runner.invoke(
        cli,
        ["grid", "--top", "5000", "--board", "-", "--solve-text", fill, "--json"],
        input=board,
    )
    by_default = runner.invoke(cli, ["grid", "--top", "5000", "--solve-text", fill, "--json"])
    assert by_stdin.exit_code == by_default.exit_code == 0, by_stdin.output
    a, b = json.loads(by_stdin.output), json.loads(by_default.output)
    assert a["status"] == b["status"] == "FEASIBLE" and a["group_order"] == b["group_order"] == 8
    assert a["board"] == "okwddm"
    f = tmp_path / "fill.txt"
    f.write_text(fill)
    solve_stdin = runner.invoke(
        cli, ["grid", "--top", "5000", "--solve", "-", "--json"], input=fill
    )
    assert solve_stdin.exit_code == 0 and json.loads(solve_stdin.output)["solution"]
    code, text = invoke(["grid", "--board", "-", "--solve", "-"])
    assert code == 2 and "stdin" in text


UPPER = ["RUN", "Nausea", "SEASICK", "sickle", "LEMON"]


@pytest.mark.slow
def test_upper_case_words_mean_the_same_in_the_api_as_on_the_command_line(
    tmp_path: Path,
) -> None:
    # Issue 12: the CLI lower-cases, so the API must too (or refuse); here it lower-cases.
    from cpwords.core.errors import InputError
    from cpwords.grid.fill_spec import solve_grid
    from cpwords.grid.models.cpsat import count_completions
    from cpwords.grid.rules import common_tokens, cut_words, load_board
    from cpwords.letterboxed.spec import solve_letterboxed
    from cpwords.truncate.spec import solve_truncate
    from cpwords.wordsnake.rules import WordsnakeInstance
    from cpwords.wordsnake.spec import solve_wordsnake

    f = tmp_path / "upper.txt"
    f.write_text("\n".join(UPPER) + "\n")
    lower = [w.lower() for w in UPPER]
    # Wordsnake
    api = solve_wordsnake(WordsnakeInstance(tuple(UPPER)), "exact")
    assert api.objective == solve_wordsnake(WordsnakeInstance(tuple(lower)), "exact").objective
    cli_row = json.loads(invoke(["snake", str(f), "--json"])[1])
    assert cli_row["objective"] == api.objective == 30 and cli_row["solution"] == api.solution
    with pytest.raises(InputError, match="not one string"):
        WordsnakeInstance("run")  # type: ignore[arg-type]
    # Truncate
    trunc = ["A", "La", "LAP", "laps", "LAPSE"]
    f.write_text("\n".join(trunc) + "\n")
    api = solve_truncate(trunc, starting="A")
    assert api.solution.sequence == ("a", "la", "lap", "laps", "lapse")
    cli_row = json.loads(invoke(["truncate", "--dict", str(f), "--starting", "A", "--json"])[1])
    assert cli_row["sequence"] == list(api.solution.sequence)
    # Letter Boxed
    lb = ["BECHFAG", "GJDKIL", "Bead"]
    f.write_text("\n".join(lb) + "\n")
    api = solve_letterboxed("ABC-DEF-GHI-JKL", lb)
    cli_row = json.loads(invoke(["letterboxed", "ABC-DEF-GHI-JKL", "--dict", str(f), "--json"])[1])
    assert api.status.value == cli_row["status"] == "OPTIMAL"
    assert api.solution == cli_row["solution"] == ["bechfag", "gjdkil"]
    # Grid: tokens, counting and solving
    assert cut_words(["HELLO", "Jello"], 2, 2).pairs == cut_words(["hello", "jello"], 2, 2).pairs
    board, tokens = load_board(None), common_tokens(5000)
    quadruple = grid_example()[0].split(",")
    up = count_completions(board, tokens, [s.upper() for s in quadruple])
    low = count_completions(board, tokens, quadruple)
    assert up.count == low.count > 0
    upper = ",".join(quadruple).upper()
    cli_row = json.loads(invoke(["grid", "--top", "5000", "--count", upper, "--json"])[1])
    assert cli_row["count"] == up.count
    solved = solve_grid(board, tokens, {"s1": quadruple[0].upper()})
    assert solved.status.value == "FEASIBLE" and solved.solution["s1"] == quadruple[0]
    assert solved.verified


LB_WORDS = "bechfag\ngjdkil\nbead\ndhl\nlcfgjik\ncab\n"
BOARD = ("ovrkq/lwisl/recrt/gmvpf/przey", "bbr../b.rr./...../.r.../....b")

#: (arguments, expected exit status): every solving mode of every subcommand, answer or none.
SOLVING_MODES = [
    (["snake", "{five}"], 0),
    (["snake", "{five}", "--method", "greedy"], 0),
    (["snake", "{five}", "--compare"], 0),
    (["superstring", "{five}"], 0),
    (["superstring", "{five}", "--method", "greedy"], 0),
    (["superstring", "{five}", "--compare"], 0),
    (["truncate", "--dict", "{trunc}"], 0),
    (["truncate", "--dict", "{trunc}", "--all", "--limit", "2"], 0),
    (["truncate", "--dict", "{trunc}", "--starting", "lap", "--ending", "la"], 1),
    (["letterpress", "abcdeer", "--dict", "{snake_words}"], 0),
    (["letterpress", "xyz", "--dict", "{snake_words}"], 1),
    (["letterpress", BOARD[0], "--board", BOARD[1], "--dict", "{snake_words}"], 0),
    (["letterboxed", "abc-def-ghi-jkl", "--dict", "{lb}"], 0),
    (["letterboxed", "abc-def-ghi-jkl", "--dict", "{lb}", "--max-words", "3", "--list"], 0),
    (["letterboxed", "abc-def-ghi-jkl", "--dict", "{lb}", "--all"], 0),
    (["letterboxed", "abc-def-ghi-jkl", "--dict", "{lb}", "--method", "seed-first"], 0),
    (["letterboxed", "abc-def-ghi-jkl", "--dict", "{lb}", "--method", "cpsat"], 0),
    (["letterboxed", "abe-dcf-ghi-jkl", "--dict", "{lb}"], 1),
    (["letterboxed", "--generate", "1", "--dict", "{lb}", "--max-draws", "2"], 1),
    (["grid", "--top", "5000", "--limit", "3"], 0),
    (["grid", "--dict", "{snake_words}"], 1),
    (["grid", "--top", "5000", "--count", "{quadruple}"], 0),
    (["grid", "--top", "2000", "--count", "er,ed,ly,al"], 1),
    (["grid", "--top", "5000", "--solve-text", "{s1}"], 0),
    (["grid", "--top", "2000", "--unique"], 1),
]


@pytest.fixture()
def inputs(tmp_path: Path) -> dict[str, str]:
    files = {
        "five": SNAKE_WORDS,
        "trunc": "a\nla\nlap\nlaps\nlapse\n",
        "lb": LB_WORDS,
        "snake_words": WORDS,
    }
    out = {}
    for name, text in files.items():
        (tmp_path / f"{name}.txt").write_text(text)
        out[name] = str(tmp_path / f"{name}.txt")
    quadruple, suffix_fill, _ = grid_example()
    return {**out, "quadruple": quadruple, "s1": suffix_fill.split(",")[0]}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "code"), SOLVING_MODES, ids=[" ".join(a[:3]) for a, _ in SOLVING_MODES]
)
def test_every_solving_mode_has_the_same_json_keys_and_exit_statuses(
    args: list[str], code: int, inputs: dict[str, str]
) -> None:
    from cpwords.cli._common import RESULT_KEYS, exit_status

    argv = [a.format(**inputs) for a in args] + ["--json"]
    res = CliRunner().invoke(cli, argv)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    row = json.loads(res.output)
    assert tuple(row)[: len(RESULT_KEYS)] == RESULT_KEYS, list(row)
    assert row["status"] in ("OPTIMAL", "FEASIBLE", "INFEASIBLE", "UNKNOWN")
    assert isinstance(row["interrupted"], bool) and row["interrupted"] is False
    assert isinstance(row["method"], str) and isinstance(row["wall_time"], float)
    assert row["counts"] is None or all(isinstance(v, int) for v in row["counts"].values())
    if row["objective"] is None or row["bound"] is None:
        assert row["gap"] is None
    if row["status"] == "OPTIMAL":
        assert row["objective"] is not None and row["gap"] == 0
    if row["status"] in ("INFEASIBLE", "UNKNOWN"):
        assert not row["solution"]
    # One mapping from status to exit status everywhere: 0 found, 1 none.
    assert res.exit_code == exit_status(row["status"]) == code, (res.exit_code, row["status"])
    if args[0] not in ("snake", "superstring") and "--generate" not in args:
        assert isinstance(row["lexicon"], str) and isinstance(row["lexicon_size"], int)


@pytest.mark.slow
@pytest.mark.parametrize("cmd", ["snake", "letterboxed", "grid", "chain", "superstring"])
def test_every_checking_mode_has_the_same_json_keys(inputs: dict[str, str], cmd: str) -> None:
    from cpwords.cli._common import CHECK_KEYS

    good, bad = {
        "snake": (["snake", inputs["five"]], ("run nausea seasick sickle lemon", "run lemon")),
        "letterboxed": (
            ["letterboxed", "lua-sgc-yhk-zop"],
            ("soup plough hazy yuck", "psychology zap"),
        ),
        "grid": (["grid", "--top", "5000"], (_full_grid_fill(), "s1=ck,s2=ck")),
        "chain": (["chain", inputs["five"]], ("run -> nausea", "nausea -> run")),
        "superstring": (["superstring", inputs["five"]], ("runauseasicklemon", "runausea")),
    }[cmd]
    for answer, valid in ((bad[0], True), (bad[1], False)):
        res = CliRunner().invoke(cli, [*good, "--check-text", answer, "--json"])
        row = json.loads(res.output)
        assert tuple(row)[: len(CHECK_KEYS)] == CHECK_KEYS, list(row)
        assert row["valid"] is valid and bool(row["problems"]) is not valid
        assert isinstance(row["solution"], (list, dict, str)) and row["solution"]
        assert res.exit_code == (0 if valid else 1)


def _same_candidates_lexicon(n_prefixes: int) -> list[str]:
    """Every prefix forms a word with each of 4 suffixes: on the default board every prefix
    slot may then take any prefix, so the exact count is n! / (n - 9)! (9 prefix slots)."""
    cons, vows = "bcdfghklmnprstvw", "aeiou"
    prefixes = sorted({a + b + c for a in cons for b in vows for c in cons})[:n_prefixes]
    return [p + s for p in prefixes for s in ("ab", "od", "ef", "ug")]


@pytest.mark.slow
def test_a_stopped_grid_count_is_a_lower_bound_marked_incomplete(tmp_path: Path) -> None:
    # Issue 12: counting under --time-limit printed nothing; now the partial count, marked.
    from cpwords.grid.models.cpsat import count_completions
    from cpwords.grid.rules import cut_words, load_board

    board = load_board(None)
    small = count_completions(board, cut_words(_same_candidates_lexicon(16)), QUAD)
    assert small.complete and small.count == math.perm(16, 9) and small.unique is False
    big_tokens = cut_words(_same_candidates_lexicon(200))
    cut = count_completions(board, big_tokens, QUAD, time_limit=0.5)
    assert cut.stopped == "time_limit" and not cut.complete and cut.unique is False
    assert 0 < cut.count < math.perm(200, 9)  # the exact count would take ages
    f = tmp_path / "slow.txt"
    f.write_text("\n".join(_same_candidates_lexicon(200)) + "\n")
    t0 = time.monotonic()
    res = cpwords(
        "grid", "--dict", str(f), "--count", ",".join(QUAD), "--time-limit", "2", "--json"
    )
    assert time.monotonic() - t0 < 30  # stopped by the limit (order-of-magnitude margin)
    assert res.returncode == 0, res.stderr
    row = json.loads(res.stdout)
    assert row["status"] == "FEASIBLE" and row["complete"] is False
    assert row["stopped"] == "time_limit" and row["bound"] is None
    assert row["count"] > 0 and row["objective"] == row["count"] == row["counts"]["boards"]
    human = cpwords("grid", "--dict", str(f), "--count", ",".join(QUAD), "--time-limit", "1")
    assert human.returncode == 0 and "at least" in human.stdout and "INCOMPLETE" in human.stdout


QUAD = ["ab", "od", "ef", "ug"]


def _interrupt_after(
    marker: str, args: list[str], delay: float = 0.3, stdin_open: bool = False, sig: str = "SIGINT"
) -> tuple[int, str, str]:
    """Run cpwords, wait for the progress line ``marker`` (CPWORDS_PROGRESS=lines), then
    Ctrl-C (SIGINT, or the signal named) it ``delay`` seconds later; (exit status, stdout,
    stderr)."""
    import os
    import signal
    import threading

    env = dict(os.environ, CPWORDS_PROGRESS="lines")
    proc = subprocess.Popen(
        [sys.executable, "-c", "from cpwords.cli import main; main()", *args],
        stdin=subprocess.PIPE if stdin_open else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    watchdog = threading.Timer(300, proc.kill)  # never hang the suite
    watchdog.start()
    seen = []
    assert proc.stderr is not None
    for line in proc.stderr:
        seen.append(line)
        if marker in line:
            break
    else:
        raise AssertionError(f"no progress line {marker!r}: {seen}")
    time.sleep(delay)
    proc.send_signal(getattr(signal, sig))
    out, err = proc.communicate(timeout=280)
    watchdog.cancel()
    if proc.stdin is not None:
        proc.stdin.close()
    return proc.returncode, out, "".join(seen) + err


def _sixteen_letter_words() -> str:
    """Every 3- and 4-letter playable word of the 16-letter box abcd-efgh-ijkl-mnop (29,952):
    the proof needs 5 words, and the DP's layers take about 11 s on a 2-core machine (3-letter
    words alone took 2.9 s, too close to a 3 s limit on a faster machine)."""
    sides = ["abcd", "efgh", "ijkl", "mnop"]
    side = {ch: i for i, s in enumerate(sides) for ch in s}
    letters = "".join(sides)
    three = [
        a + b + c
        for a in letters
        for b in letters
        for c in letters
        if side[a] != side[b] and side[b] != side[c]
    ]
    four = [w + d for w in three for d in letters if side[w[2]] != side[d]]
    return "\n".join(three + four) + "\n"


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGINT delivery")
@pytest.mark.parametrize(
    "case", ["letterboxed-dp", "truncate-all", "grid-count", "grid-unique", "generate", "loading"]
)
def test_ctrl_c_prints_the_best_answer_so_far_marked_interrupted(tmp_path: Path, case: str) -> None:
    # Issue 12: Ctrl-C lost the answer outside CP-SAT; now every stage prints what it has
    # (status, bound, partial listing or count), marked "interrupted": true, exit 130.
    from cpwords.cli._common import RESULT_KEYS

    f = tmp_path / "words.txt"
    stdin_open = False
    if case == "letterboxed-dp":
        f.write_text(_sixteen_letter_words())
        marker = "solving (dp)"
        args = ["letterboxed", "abcd-efgh-ijkl-mnop", "--any-shape", "--dict", str(f)]
    elif case == "truncate-all":
        # Every a/b string of up to 14 letters: 14-play sequences, about 9 * 10**7 of them.
        import itertools

        f.write_text(
            "\n".join("".join(p) for n in range(1, 15) for p in itertools.product("ab", repeat=n))
            + "\n"
        )
        marker, args = "solving", ["truncate", "--dict", str(f), "--all"]
    elif case == "grid-count":
        f.write_text("\n".join(_same_candidates_lexicon(200)) + "\n")
        marker = "counting"
        args = ["grid", "--dict", str(f), "--count", ",".join(QUAD)]
    elif case == "grid-unique":
        marker, args = "grid: unique puzzles", ["grid", "--top", "20000", "--unique"]
    elif case == "generate":
        marker, args = "generating", ["letterboxed", "--generate", "500"]
    else:  # a stage with no answer yet: reading a dictionary from a stdin that stays open
        marker, args, stdin_open = "loading the index", ["letterpress", "abc", "--dict", "-"], True
    code, out, err = _interrupt_after(marker, [*args, "--json"], stdin_open=stdin_open)
    assert code == 130, (code, err[-500:])
    assert "Traceback" not in err
    row = json.loads(out)
    assert tuple(row)[: len(RESULT_KEYS)] == RESULT_KEYS
    assert row["interrupted"] is True and row["status"] in ("OPTIMAL", "FEASIBLE", "UNKNOWN")
    if case == "letterboxed-dp":  # no answer yet, but a proven fewest number of words
        assert row["solution"] is None and row["bound"] >= 2000 and "at least" in row["reason"]
    elif case == "truncate-all" and row["status"] == "OPTIMAL":  # proven; listing partial
        assert row["complete"] is False and len(row["sequences"]) < row["count"]
        assert row["objective"] == row["length"] == 14
    elif case == "grid-count":
        assert row["stopped"] == "interrupted" and row["complete"] is False
        assert row["status"] in ("FEASIBLE", "UNKNOWN") and row["bound"] is None
        assert row["count"] < math.perm(200, 9)
    elif case in ("grid-unique", "generate"):
        assert row["stopped"] == "interrupted" and row["complete"] is False
    else:
        assert row["status"] == "UNKNOWN" and row["solution"] is None


def test_api_time_limits_keep_what_was_found_and_say_they_stopped() -> None:
    import itertools

    from cpwords.grid.models.design import design_grid_puzzles
    from cpwords.grid.rules import common_tokens, load_board
    from cpwords.letterboxed.models.design import generate_boxes
    from cpwords.truncate.spec import solve_truncate

    ab = ["".join(p) for n in range(1, 13) for p in itertools.product("ab", repeat=n)]
    res = solve_truncate(ab, all_sequences=True, time_limit=0.3)
    sol = res.solution
    assert res.status.value == "OPTIMAL" and res.objective == 12 and res.verified
    assert res.solver_info["stopped"] == "time_limit" and len(sol.sequences) < sol.count
    gen = generate_boxes(3, ["bechfag", "gjdkil", "bead"], time_limit=1e-9)
    assert gen.stopped == "time_limit" and not gen.complete and gen.draws == 0
    # 20,000 words: the enumeration alone takes about a second, the counts about 2 minutes.
    design = design_grid_puzzles(load_board(None), common_tokens(20000), time_limit=0.3)
    assert design.stopped == "time_limit" and not design.complete


SOLVERS = ["snake", "letterboxed", "truncate", "letterpress", "grid"]


def _leaf_commands() -> list[tuple[str, click.Command]]:
    out = []
    for name, cmd in sorted(cli.commands.items()):
        if isinstance(cmd, click.Group):
            out += [(f"{name} {sub}", c) for sub, c in sorted(cmd.commands.items())]
        else:
            out.append((name, cmd))
    return out


def test_help_of_every_subcommand_reads_the_same_way() -> None:
    # Issue 12: --help of every subcommand reads the same way: the shared options close the
    # list in one order, each with one wording, one spelling and one metavar everywhere.
    from cpwords.cli._common import EPILOG, HELP, SHARED_ORDER

    forms: dict[str, set[tuple[object, ...]]] = {}
    for name, cmd in _leaf_commands():
        opts = [p for p in cmd.params if isinstance(p, click.Option) and not p.hidden]
        names = [str(p.name) for p in opts]
        shared = [n for n in names if n in SHARED_ORDER]
        assert shared == [n for n in SHARED_ORDER if n in shared], (name, shared)
        assert names[len(names) - len(shared) :] == shared, (name, names)
        for p in opts:
            if p.name in HELP:
                assert p.help == HELP[p.name], (name, p.name, p.help)
                forms.setdefault(str(p.name), set()).add((tuple(p.opts), p.metavar))
        # The description: one short first sentence (shown whole in `cpwords --help`).
        assert cmd.help and not cmd.get_short_help_str(limit=56).endswith("..."), name
        if name in SOLVERS:
            assert cmd.epilog == EPILOG and "JSON, beyond the conventions below" in cmd.help
            assert {"as_json", "time_limit"} <= set(names), name
            res = CliRunner().invoke(cli, [name, "--help"])
            assert res.exit_code == 0 and "Exit status 0 found" in " ".join(res.output.split())
    assert all(len(v) == 1 for v in forms.values()), forms
    assert {"dict_path", "limit", "time_limit", "workers", "seed", "as_json", "check_file"} <= set(
        forms
    )


# ---------------------------------------------------------------------------------------------
# The list of defects, once more: the ones without a test of their own elsewhere
# ---------------------------------------------------------------------------------------------


def _cpsat_box_words(n: int = 3000) -> str:
    """Random playable words of abc-def-ghi-jkl: CP-SAT takes far longer than any test waits."""
    import random

    rng = random.Random(3)
    sides = ["abc", "def", "ghi", "jkl"]
    side = {ch: i for i, s in enumerate(sides) for ch in s}
    words: set[str] = set()
    while len(words) < n:
        w = [rng.choice("abcdefghijkl")]
        for _ in range(rng.randint(2, 7)):
            w.append(rng.choice([c for c in "abcdefghijkl" if side[c] != side[w[-1]]]))
        words.add("".join(w))
    return "\n".join(sorted(words)) + "\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    "case",
    [
        "letterboxed-cpsat",
        "letterboxed-dp",
        "truncate-all",
        "generate",
        "grid-unique",
        "grid-count",
    ],
)
def test_every_long_running_mode_honours_the_time_limit(tmp_path: Path, case: str) -> None:
    # Defect 3: every mode that can run long takes --time-limit and stops there with what it
    # has (an order-of-magnitude margin, not a timing test: timings belong to benchmarks).
    import itertools

    f = tmp_path / "words.txt"
    if case == "letterboxed-cpsat":
        f.write_text(_cpsat_box_words())
        args = ["letterboxed", "abc-def-ghi-jkl", "--method", "cpsat", "--dict", str(f)]
    elif case == "letterboxed-dp":
        f.write_text(_sixteen_letter_words())
        args = ["letterboxed", "abcd-efgh-ijkl-mnop", "--any-shape", "--dict", str(f)]
    elif case == "truncate-all":
        f.write_text(
            "\n".join("".join(p) for n in range(1, 15) for p in itertools.product("ab", repeat=n))
            + "\n"
        )
        args = ["truncate", "--dict", str(f), "--all"]
    elif case == "generate":
        args = ["letterboxed", "--generate", "500"]
    elif case == "grid-unique":
        args = ["grid", "--top", "20000", "--unique"]
    else:
        f.write_text("\n".join(_same_candidates_lexicon(200)) + "\n")
        args = ["grid", "--dict", str(f), "--count", ",".join(QUAD)]
    t0 = time.monotonic()
    res = cpwords(*args, "--time-limit", "3", "--json")
    wall = time.monotonic() - t0
    assert wall < 40, f"{case} ran {wall:.1f} s for a 3 s limit"
    assert res.returncode in (0, 1), res.stderr
    row = json.loads(res.stdout)
    assert row["interrupted"] is False
    stopped = row.get("complete") is False or row["status"] in ("FEASIBLE", "UNKNOWN")
    assert stopped, row["status"]  # each of these takes far longer than 3 s to finish


def test_invalid_values_are_errors_not_silently_replaced(tmp_path: Path) -> None:
    # Defect 7: '--iterations -5' became 1; out-of-range values are now refused by click.
    words = tmp_path / "w.txt"
    words.write_text(SNAKE_WORDS)
    for args in (
        ["snake", str(words), "--method", "layered", "--iterations", "-5"],
        ["snake", str(words), "--workers", "0"],
        ["snake", str(words), "--seed", "-1"],
        ["grid", "--top", "0"],
        ["grid", "--top", "500", "--limit", "-1"],
        ["truncate", "--all", "--limit", "-2"],
        ["letterboxed", "abc-def-ghi-jkl", "--max-words", "0"],
        ["bench", "x.toml", "--out", str(tmp_path / "r.jsonl"), "--jobs", "0"],
    ):
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 2 and "Invalid value" in res.output, (args, res.output)


def test_the_repeated_word_warning_is_one_short_line(tmp_path: Path) -> None:
    # Defect 6: the repeated-word warning was one 318 KB line; now a count and the first few.
    import string

    f = tmp_path / "reps.txt"
    f.write_text(
        "".join(f"{a}{b}\n{a}{b}\n" for a in string.ascii_lowercase for b in string.ascii_lowercase)
    )
    res = cpwords("snake", str(f), "--method", "greedy", "--json")
    assert res.returncode == 0, res.stderr
    warning = [line for line in res.stderr.splitlines() if "repeated" in line]
    assert len(warning) == 1 and len(warning[0]) < 200
    assert "676 repeated words" in warning[0] and "671 more" in warning[0]


def test_a_study_suite_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    # Defect 7: suite TOML files with a BOM were refused. The suite needs no shared data.
    suite = tmp_path / "plain.toml"
    suite.write_text(
        '[suite]\nname = "bom"\n\n[[instances]]\npuzzle = "wordsnake"\nname = "five"\n'
        'words = ["run", "nausea", "seasick", "sickle", "lemon"]\n\n'
        '[[methods]]\npuzzle = "wordsnake"\nmethod = "auto"\n',
        encoding="utf-8",
    )
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + suite.read_bytes())
    out = tmp_path / "r.jsonl"
    plain = invoke(["bench", str(suite), "--out", str(out), "--list", "--json"])
    marked = invoke(["bench", str(bom), "--out", str(out), "--list", "--json"])
    assert plain[0] == marked[0] == 0
    assert json.loads(plain[1])["tasks"] == json.loads(marked[1])["tasks"] != []


#: Every file option of every subcommand, given '-': (arguments with {f} for the file, content).
FILE_OPTIONS = [
    (["snake", "{f}"], SNAKE_WORDS),
    (["snake", "{w}", "--check", "{f}"], "run\nnausea\nseasick\nsickle\nlemon\n"),
    (["letterboxed", "abc-def-ghi-jkl", "--dict", "{f}"], LB_WORDS),
    (["letterboxed", "abc-def-ghi-jkl", "--check", "{f}"], "bechfag gjdkil"),
    (["truncate", "--dict", "{f}"], "a\nla\nlap\nlaps\n"),
    (["letterpress", "abcdeer", "--dict", "{f}"], WORDS),
    (["grid", "--dict", "{f}"], WORDS),
    (["grid", "--top", "5000", "--board", "{f}"], None),  # the default board's file
    # one worker: a multi-worker CP-SAT search may find a different (equally valid) completion
    (["grid", "--top", "5000", "--solve", "{f}", "--workers", "1"], "s1=ck,s2=ll"),
    (["grid", "--top", "5000", "--check", "{f}"], "s1=ck"),
]


@pytest.mark.parametrize(("args", "content"), FILE_OPTIONS, ids=lambda a: str(a)[:40])
def test_every_file_option_reads_stdin_and_accepts_a_byte_order_mark(
    tmp_path: Path, args: list[str], content: str | None
) -> None:
    # Defect 7: '-' reads stdin for every file option, and a BOM is accepted in every file.
    from importlib import resources

    if content is None:
        content = resources.files("cpwords").joinpath("data/boards/okwddm.json").read_text()
    w = tmp_path / "five.txt"
    w.write_text(SNAKE_WORDS)
    f = tmp_path / "input.txt"
    f.write_bytes(b"\xef\xbb\xbf" + content.encode())
    runner = CliRunner()
    by_file = runner.invoke(cli, [a.format(f=f, w=w) for a in args] + ["--json"])
    by_stdin = runner.invoke(cli, [a.format(f="-", w=w) for a in args] + ["--json"], input=content)
    assert by_file.exit_code == by_stdin.exit_code, (by_file.output, by_stdin.output)
    a, b = json.loads(by_file.output), json.loads(by_stdin.output)
    for row in (a, b):  # where the input came from, and timings, may differ
        for key in ("wall_time", "lexicon", "instance", "solver_info", "trace", "index"):
            row.pop(key, None)
    assert a == b


@pytest.mark.parametrize(
    ("args", "stages"),
    [
        (["snake", "{w}"], ["reading", "solving 5 words"]),
        (
            ["letterboxed", "abc-def-ghi-jkl", "--dict", "{lb}", "--max-words", "3"],
            ["loading the lexicon", "solving (dp)", "counting"],
        ),
        (["truncate", "--dict", "{t}"], ["solving"]),
        (
            ["letterpress", "runxyz", "--dict", "{w}", "--no-cache"],
            ["loading the index", "listing"],
        ),
        (["grid", "--top", "5000"], ["loading the lexicon", "symmetry", "enumerating"]),
        (["grid", "--top", "5000", "--count", "{quadruple}"], ["counting"]),
    ],
    ids=["snake", "letterboxed", "truncate", "letterpress", "grid", "grid-count"],
)
def test_progress_reports_every_stage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], stages: list[str]
) -> None:
    # Defect 9: progress appears in every stage (CPWORDS_PROGRESS=lines prints one line each).
    monkeypatch.setenv("CPWORDS_PROGRESS", "lines")
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "cache"))
    files = {"w": SNAKE_WORDS, "lb": LB_WORDS, "t": "a\nla\nlap\n"}
    for name, text in files.items():
        (tmp_path / f"{name}.txt").write_text(text)
    names = {k: tmp_path / f"{k}.txt" for k in files}
    if "{quadruple}" in args:
        names["quadruple"] = grid_example()[0]  # type: ignore[assignment]
    argv = [a.format(**names) for a in args]
    res = CliRunner().invoke(cli, [*argv, "--json"])
    assert res.exit_code == 0, res.output
    lines = [line for line in res.stderr.splitlines() if line.startswith("cpwords: progress:")]
    for stage in stages:
        assert any(stage in line for line in lines), (stage, lines)
    json.loads(res.stdout)  # stdout stays one JSON object


@pytest.mark.slow
def test_a_command_run_from_python_counts_its_time_limit_from_its_own_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The limit covers start-up for a real command line; a command run later in the same
    # process (tests, scripts) must not inherit a clock that started at import time.
    from cpwords.cli import _common

    monkeypatch.setattr(_common, "STARTED", time.monotonic() - 1000)  # imported long ago
    res = CliRunner().invoke(
        cli, ["letterboxed", "--generate", "5", "--time-limit", "60", "--json"]
    )
    row = json.loads(res.output)
    assert res.exit_code == 0 and row["found"] == 5 and row["stopped"] is None, row["stopped"]


def test_a_bare_cpwords_prints_the_help_as_click_does(capsys: pytest.CaptureFixture[str]) -> None:
    """No command: the group's help (no "error:" line), exit 2, as click does for a group."""
    from cpwords.cli import main

    with pytest.raises(SystemExit) as stop:
        main([])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("Usage: ") and "error" not in err.splitlines()[0]
    assert "snake" in err and "letterboxed" in err


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals")
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_stop_as_ctrl_c_does(tmp_path: Path, sig: str) -> None:
    """``kill``, a closed terminal: the best answer so far, marked interrupted, exit 130."""
    import itertools

    f = tmp_path / "words.txt"
    f.write_text(
        "\n".join("".join(p) for n in range(1, 15) for p in itertools.product("ab", repeat=n))
        + "\n"
    )
    args = ["truncate", "--dict", str(f), "--all", "--json"]
    code, out, err = _interrupt_after("solving", args, sig=sig)
    assert code == 130 and "Traceback" not in err, (code, err[-500:])
    row = json.loads(out)
    assert row["interrupted"] is True and row["status"] in ("OPTIMAL", "FEASIBLE", "UNKNOWN")


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals")
@pytest.mark.parametrize(
    ("sig", "said"), [("SIGTERM", "SIGTERM"), ("SIGHUP", "SIGHUP"), ("SIGINT", "Ctrl-C")]
)
def test_an_interrupt_says_which_signal_it_was(tmp_path: Path, sig: str, said: str) -> None:
    """Issue 47: a `kill` was reported as "interrupted (Ctrl-C)"."""
    import itertools

    f = tmp_path / "words.txt"
    f.write_text(
        "\n".join("".join(p) for n in range(1, 15) for p in itertools.product("ab", repeat=n))
        + "\n"
    )
    code, out, err = _interrupt_after("solving", ["truncate", "--dict", str(f), "--all"], sig=sig)
    assert code == 130 and "Traceback" not in err, (code, err[-500:])
    stopped = [
        line for line in (out + err).splitlines() if "interrupted" in line or "stopped" in line
    ]
    assert stopped and all(said in line for line in stopped), stopped
    others = {"SIGTERM", "SIGHUP", "Ctrl-C"} - {said}
    assert not any(o in out + err for o in others)
