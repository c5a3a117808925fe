"""The Letterpress, Truncate and grid pages over HTTP, and the dictionary choices: what each
page draws is what the public API answers, and bad input is the CLI's one line."""

from __future__ import annotations

import html
import itertools
import re
import xml.etree.ElementTree as ET
from typing import Any

import httpx
import pytest

import cpwords
import cpwords.serve.views
from cpwords.core.errors import InputError
from cpwords.core.sources import lexicon_words
from cpwords.grid.rules import board_words, default_board, grid_problems, parse_fill
from cpwords.letterpress.rules import parse_board, parse_letters, play, spellable_count
from cpwords.serve.views import grid_tokens
from tests.conftest import grid_example, needs_dictionary
from tests.serve.conftest import LiveServer

NS = {"svg": "http://www.w3.org/2000/svg"}
LETTERS = "ovrkqlwislrecrtgmvpfprzey"
COLOURS = "bb...b..r.....r...r.....r"
OWNER = {"me": 1, "neutral": 0, "opponent": -1}
BOARD = default_board()


def svgs(text: str) -> list[ET.Element]:
    """Every SVG drawing of a page, parsed."""
    return [ET.fromstring(m) for m in re.findall(r"<svg .*?</svg>", text, flags=re.S)]


def error_line(text: str) -> str:
    m = re.search(r'id="error">error: ([^<]*)<', text)
    assert m, "no error line on the page"
    return html.unescape(m.group(1))


def message(call: Any, *args: Any) -> str:
    with pytest.raises(InputError) as info:
        call(*args)
    return str(info.value)


@pytest.mark.slow
def test_letterpress_words_of_a_bag_recounted(live: LiveServer) -> None:
    resp = httpx.get(f"{live.url}/letterpress", params={"letters": LETTERS}, timeout=60)
    assert resp.status_code == 200
    count = int(re.search(r'id="count">([\d,]+) words', resp.text).group(1).replace(",", ""))  # type: ignore[union-attr]
    # An independent recount: a plain scan of the game's own list (the page's default).
    assert count == spellable_count(lexicon_words("letterpress"), LETTERS) > 4500
    listed = re.findall(r"<span>([a-z]+)</span>", resp.text)
    assert len(listed) == count and len(listed[0]) == max(map(len, listed))
    (drawing,) = svgs(resp.text)
    assert len(drawing.findall(".//svg:rect[@class='tile']", NS)) == 25
    used = drawing.findall(".//svg:rect[@class='used']", NS)
    assert "".join(LETTERS[int(r.get("data-index", 0))] for r in used) == listed[0]


@pytest.mark.slow
def test_letterpress_best_move_drawn_before_and_after(live: LiveServer) -> None:
    params = {"letters": LETTERS, "colours": COLOURS}
    resp = httpx.post(f"{live.url}/letterpress", data=params, timeout=60)
    board = parse_board(LETTERS, COLOURS)
    best = cpwords.best_letterpress_move(board, workers=1)
    assert best.status is cpwords.Status.OPTIMAL
    word = re.search(r'id="move">([A-Z]+)<', resp.text).group(1)  # type: ignore[union-attr]
    assert f"swing {best.objective:+.0f} tiles" in resp.text and "proven best move" in resp.text
    before, after = svgs(resp.text)
    tiles = [int(r.get("data-index", 0)) for r in before.findall(".//svg:rect[@class='used']", NS)]
    assert "".join(LETTERS[t] for t in tiles) == word.lower()
    assert board.letters and len(tiles) == len(word)
    order = before.findall(".//svg:text[@class='order']", NS)  # numbered, not joined
    assert [int(t.text or 0) for t in order] == list(range(1, len(word) + 1))
    owners = [
        OWNER[r.get("data-owner", "")] for r in after.findall(".//svg:rect[@class='tile']", NS)
    ]
    assert owners == list(play(board, tiles))
    # The swing shown is the one the rules give these tiles.
    assert sum(owners) - sum(board.owners) == best.objective


@pytest.mark.slow
def test_truncate_ladder_is_the_api_answer(live: LiveServer) -> None:
    resp = httpx.get(f"{live.url}/truncate", params={"word": "a"}, timeout=60)
    res = cpwords.solve_truncate(lexicon_words("truncate"), starting="a")
    seq = list(res.solution.sequence)
    (ladder,) = svgs(resp.text)
    rungs = ladder.findall(".//svg:g[@class='rung']", NS)
    assert [g.get("data-word") for g in rungs] == seq
    assert len(ladder.findall(".//svg:rect[@class='cell added']", NS)) == len(seq) - 1
    assert f"{len(seq)} plays" in resp.text
    assert re.search(r'id="count">([\d,]+)<', resp.text).group(1) == f"{res.solution.count:,}"  # type: ignore[union-attr]
    # Another of the longest chains, picked from the list, is drawn instead.
    resp = httpx.get(f"{live.url}/truncate", params={"word": "a", "pick": 1}, timeout=60)
    (ladder,) = svgs(resp.text)
    other = [g.get("data-word", "") for g in ladder.findall(".//svg:g[@class='rung']", NS)]
    assert other != seq and len(other) == len(seq) and other[0] == "a"
    # The listed chains are numbered from 1, as every list of the pages is.
    assert '<ol class="optimal" id="listed">' in resp.text and 'start="0"' not in resp.text


@pytest.mark.slow
def test_grid_check_solve_and_unique(live: LiveServer) -> None:
    # The first lexicon size whose puzzles include a unique one (which depends on the English
    # list installed: wamerican's words, or web2's).
    for top, plurals in ((5000, False), (10000, True), (10000, False), (20000, False)):
        tokens = grid_tokens(top, 2, 2, plurals)
        design = cpwords.design_grid_puzzles(BOARD, tokens, time_limit=60)
        assert design.complete
        if design.unique:
            break
    assert design.unique
    params = {"top": str(top), "L": "2", "P": "2", "action": "unique"}
    params.update({"plurals": "1"} if plurals else {})
    resp = httpx.post(f"{live.url}/grid", data=params, timeout=60)
    shown = re.findall(r"<li><code>([a-z ]+)</code>", resp.text)
    assert shown == [" ".join(p.suffixes) for p in design.unique]
    # Complete the puzzle from its suffixes: the unique answer, drawn and accepted.
    puzzle = design.unique[0]
    fill = {f"t_{s}": t for s, t in zip(BOARD.suffix_slots, puzzle.suffixes, strict=True)}
    resp = httpx.post(f"{live.url}/grid", data={**params, "action": "solve", **fill}, timeout=60)
    assert 'id="verdict">completed, verified<' in resp.text
    (drawing,) = svgs(resp.text)
    got = {
        g.get("data-slot", ""): g.get("data-token", "")
        for g in drawing.findall(".//svg:g", NS)
        if g.get("data-slot")
    }
    assert all(got.values()) and len(got) == 13
    assert not grid_problems(BOARD, got, tokens.words)
    edges = drawing.findall(".//svg:line", NS)
    assert sorted(e.get("data-word", "") for e in edges) == sorted(board_words(BOARD, got))
    # Check it by hand, then with one prefix changed: the checker's messages, the bad words red.
    hand = {f"t_{v}": t for v, t in got.items()}
    resp = httpx.get(f"{live.url}/grid", params={**params, "action": "check", **hand}, timeout=60)
    assert 'id="verdict">valid board' in resp.text
    bad = dict(hand, t_c=hand["t_n"])
    resp = httpx.get(f"{live.url}/grid", params={**params, "action": "check", **bad}, timeout=60)
    assert "INVALID board" in resp.text
    problems = grid_problems(BOARD, {k[2:]: v for k, v in bad.items()}, tokens.words)
    listed = [
        html.unescape(p)
        for p in re.findall(
            r"<li>([^<]*)</li>", resp.text.split('id="problems"')[1].split("</ul>")[0]
        )
    ]
    assert listed == problems and problems
    (drawing,) = svgs(resp.text)
    assert {
        g.get("data-slot") for g in drawing.findall(".//svg:g", NS) if "bad" in g.get("class", "")
    } == {"c", "n"}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("path", "params", "expected"),
    [
        ("/letterpress", {"letters": "ab1"}, lambda: message(parse_letters, "ab1")),
        (
            "/letterpress",
            {"letters": "abc", "colours": "bbx"},
            lambda: message(parse_board, "abc", "bbx"),
        ),
        (
            "/truncate",
            {"word": "zzzq"},
            lambda: "'zzzq' is not in the dictionary",
        ),  # as truncate --from
        ("/truncate", {"word": "a", "dict": "nope"}, lambda: "unknown dictionary 'nope'"),
        ("/grid", {"t_s1": "a1"}, lambda: message(parse_fill, "s1=a1", "the board")),
        (
            "/grid",
            {"top": "x", "action": "check"},
            lambda: "the most common words must be a whole number, got 'x'",
        ),
        (
            "/grid",
            {"P": "9", "action": "check"},
            lambda: "the prefix ('prefix at least') must be from 1 to 8, got 9",
        ),
    ],
)
def test_bad_input_is_one_line(
    live: LiveServer, path: str, params: dict[str, str], expected: Any
) -> None:
    resp = httpx.get(live.url + path, params=params, timeout=60)
    assert resp.status_code == 400 and "Traceback" not in resp.text
    assert error_line(resp.text).startswith(expected())
    if path == "/grid":  # the form keeps what was typed
        assert 'name="t_s1"' in resp.text


@pytest.mark.slow
def test_letterboxed_generate_difficulty_and_dictionary(live: LiveServer) -> None:
    resp = httpx.post(
        f"{live.url}/letterboxed/generate", data={"difficulty": "hard", "seed": 5}, timeout=60
    )
    assert resp.status_code == 303
    box = resp.headers["location"].split("box=")[1].split("&")[0]
    assert cpwords.box_difficulty(box).score >= 3.0  # the band's floor, recomputed
    resp = httpx.post(
        f"{live.url}/letterboxed/generate", data={"difficulty": "easy", "seed": 5}, timeout=60
    )
    box = resp.headers["location"].split("box=")[1].split("&")[0]
    assert cpwords.box_difficulty(box).score < 2.0
    resp = httpx.post(f"{live.url}/letterboxed/generate", data={"difficulty": "extreme"})
    assert error_line(resp.text).startswith("unknown difficulty 'extreme'")
    # Another dictionary: its words, its answer.
    resp = httpx.get(
        f"{live.url}/letterboxed", params={"box": "lua-sgc-yhk-zop", "dict": "web2"}, timeout=60
    )
    res = cpwords.solve_letterboxed("lua-sgc-yhk-zop", lexicon_words("web2"))
    assert res.solution is not None and res.status is cpwords.Status.OPTIMAL
    assert "–".join(res.solution).upper() in resp.text and "web2" in resp.text


def test_wordsnake_from_a_shipped_lexicon(live: LiveServer) -> None:
    from tests.serve.test_app import events

    url = f"{live.url}/api/wordsnake/jobs"
    body = {"lexicon": "wordfreq:1000", "method": "greedy", "time_limit": 30}
    resp = httpx.post(url, json=body)
    assert resp.status_code == 202 and resp.json()["n"] == len(lexicon_words("wordfreq:1000"))
    done = events(live, resp.json()["id"])[-1][1]
    assert done["state"] == "done" and done["verified"] is True
    resp = httpx.post(url, json={**body, "words": "run\nnausea\n"})
    assert (
        resp.status_code == 400
        and resp.json()["error"] == "give the words or pick a lexicon, not both"
    )
    resp = httpx.post(url, json={**body, "lexicon": "nope"})
    assert resp.json()["error"].startswith("unknown dictionary 'nope'")


@pytest.mark.slow
def test_json_api_answers_as_the_pages(live: LiveServer) -> None:
    data = httpx.get(f"{live.url}/api/letterpress", params={"letters": "tacos"}, timeout=60).json()
    assert data["count"] == spellable_count(lexicon_words("letterpress"), "tacos")
    assert sum(len(ws) for _, ws in data["by_length"]) == data["count"]
    assert ET.fromstring(data["svg"]).get("data-word") == data["shown"]
    data = httpx.get(f"{live.url}/api/truncate", params={"word": "a"}, timeout=60).json()
    res = cpwords.solve_truncate(lexicon_words("truncate"), starting="a")
    assert data["sequence"] == list(res.solution.sequence) and data["count"] == res.solution.count
    suffixes = dict(pair.split("=") for pair in grid_example(10000)[1].split(","))
    params = {"action": "solve", **{f"t_{slot}": token for slot, token in suffixes.items()}}
    data = httpx.post(f"{live.url}/api/grid", data=params, timeout=60).json()
    assert data["board"] == "okwddm" and data["verified"] is True and len(data["fill"]) == 13
    resp = httpx.get(f"{live.url}/api/grid", params={"t_s1": "a1"})
    assert resp.status_code == 400
    assert resp.json() == {"error": message(parse_fill, "s1=a1", "the board")}


@pytest.mark.slow
@needs_dictionary("fr")
@needs_dictionary("de")
def test_pages_in_other_languages(live: LiveServer) -> None:
    """The dictionary menu offers the curated dictionaries installed here: a French box with
    accented letters is solved as the API solves it on wfrench, and a French bag spells French
    words."""
    name = "dict:fr"
    assert name in [n for n, _ in cpwords.serve.views.dictionary_choices()]
    box = "éra-tlo-sni-cuè"
    data = httpx.get(
        f"{live.url}/api/letterboxed", params={"box": box, "dict": name}, timeout=120
    ).json()
    res = cpwords.solve_letterboxed(box, lexicon_words(name))
    assert res.status is cpwords.Status.OPTIMAL
    assert data["status"] == "OPTIMAL" and data["solution"] == list(res.solution or [])
    assert any("é" in w or "è" in w for w in data["solution"])
    bag = "éléphantsàrosedécouvrir"
    resp = httpx.get(
        f"{live.url}/api/letterpress", params={"letters": bag, "dict": name}, timeout=120
    )
    assert resp.status_code == 200
    found = resp.json()
    assert found["count"] == spellable_count(lexicon_words(name), bag) > 0
    # A German chain through an umlaut, as the CLI reads it.
    resp = httpx.get(
        f"{live.url}/api/truncate",
        params={"word": "über", "direction": "to", "dict": "dict:de"},
        timeout=120,
    )
    assert resp.status_code == 200, resp.text
    chain = resp.json()["sequence"]
    german = set(lexicon_words("dict:de"))
    assert chain[-1] == "über" and len(chain) >= 2 and set(chain) <= german
    for a, b in itertools.pairwise(chain):  # one letter added at either end
        assert len(b) == len(a) + 1 and a in (b[1:], b[:-1])


@pytest.mark.slow
@needs_dictionary("de")
def test_grid_page_in_another_language(live: LiveServer) -> None:
    """``lang`` on the grid page cuts the German dictionary's words (wngerman's most common)
    as ``grid --lang de`` does: the same lexicon and the same puzzle classes as the API."""
    from cpwords.grid.rules import common_tokens

    tokens = common_tokens(2000, 2, 2, False, "de")
    design = cpwords.design_grid_puzzles(BOARD, tokens, time_limit=60)
    assert design.complete
    params = {"top": "2000", "L": "2", "P": "2", "lang": "de", "action": "unique"}
    data = httpx.post(f"{live.url}/api/grid", data=params, timeout=120).json()
    assert data["lexicon"] == tokens.source and tokens.source.startswith("wngerman top 2,000")
    assert data["lexicon_size"] == len(tokens.words)
    assert data["complete"] and data["classes"] == len(design.puzzles) > 0
    assert len(data["unique"]) + data["withheld"] == len(design.unique)
    resp = httpx.post(f"{live.url}/api/grid", data={**params, "lang": "xx"})
    assert resp.status_code == 400 and resp.json()["error"].startswith("no built-in word list for")


@pytest.mark.slow
def test_letterpress_words_are_grouped_by_length_the_longest_open(live: LiveServer) -> None:
    """Thousands of words stay off the first screen: one collapsed group per length, the
    longest (and the drawn word's) open, every word listed once."""
    resp = httpx.get(f"{live.url}/letterpress", params={"letters": LETTERS}, timeout=60)
    groups = re.findall(r'<details data-length="(\d+)"( open)?>(.*?)</details>', resp.text, re.S)
    lengths = [int(n) for n, _, _ in groups]
    assert lengths == sorted(set(lengths), reverse=True) and len(lengths) > 5
    assert [n for n, is_open, _ in groups if is_open] == [str(lengths[0])]
    words = {int(n): re.findall(r"<span>([a-z]+)</span>", body) for n, _, body in groups}
    assert all(len(w) == n for n, ws in words.items() for w in ws)
    count = sum(map(len, words.values()))
    assert count == spellable_count(lexicon_words("letterpress"), LETTERS)
    drawn = words[lengths[-1]][0]  # a shortest word drawn: its group opens too
    resp = httpx.get(f"{live.url}/letterpress", params={"letters": LETTERS, "word": drawn})
    opened = re.findall(r'<details data-length="(\d+)" open>', resp.text)
    assert opened == [str(lengths[0]), str(len(drawn))]


def test_wordsnake_page_says_why_its_time_limit_differs_from_the_commands(
    live: LiveServer,
) -> None:
    """The page's default (a solve holds one of the server's slots) is named beside the
    command's own, read from ``cpwords snake``'s option."""
    from cpwords.cli.snake import snake
    from cpwords.serve.settings import DEFAULT_TIME_LIMIT

    (cli_default,) = [p.default for p in snake.params if p.name == "time_limit"]
    page = html.unescape(httpx.get(f"{live.url}/wordsnake").text)
    field = re.search(r'id="time-limit"[^>]*value="(\d+)"', page, re.S)
    assert field and float(field.group(1)) == DEFAULT_TIME_LIMIT
    note = page.split('id="time-limit-note">')[1].split("</span>")[0]
    note = " ".join(re.sub(r"<[^>]+>", " ", note).split())
    assert f"{DEFAULT_TIME_LIMIT:g} s by default here" in note
    assert f"cpwords snake defaults to {cli_default:g} s" in note
