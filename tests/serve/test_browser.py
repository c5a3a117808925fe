"""Each page's main flow in a real headless Chromium (Selenium, Debian's chromedriver).

Skipped with a reason where no browser is installed (``.ci/run`` installs Debian's
``chromium`` and ``chromium-driver``). Each test keeps a screenshot in its tmp_path.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.serve.conftest import LiveServer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)),
    reason="no headless browser: apt-get install chromium chromium-driver",
)
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is in the test extra")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1200,1000",
    ):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console, for the CSP
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def wait_for(condition: Callable[[], Any], timeout: float = 30.0) -> Any:
    """The condition's first true value; an element missing or gone stale (the page was
    being replaced) counts as not yet."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    t0 = time.monotonic()
    while True:
        try:
            value = condition()
        except (NoSuchElementException, StaleElementReferenceException):
            value = None
        if value:
            return value
        if time.monotonic() - t0 > timeout:
            raise AssertionError("timed out waiting for the page")
        time.sleep(0.05)


#: A phone's width in CSS pixels (an iPhone 12 to 15); headless Chromium's window cannot be
#: made narrower than 500 px, so the width is emulated (DevTools' device metrics).
PHONE = 390


@contextlib.contextmanager
def phone(driver: Any, width: int = PHONE, height: int = 844) -> Iterator[None]:
    """The browser as a phone of ``width`` CSS pixels (its viewport meta honoured)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True},
    )
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def page_size(driver: Any) -> tuple[int, int]:
    """The page's scrollable width and height (CSS pixels)."""
    return tuple(
        driver.execute_script(
            "const e = document.documentElement; return [e.scrollWidth, e.scrollHeight];"
        )
    )


def shot(driver: Any, path: Path) -> None:
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000  # a real picture, not an empty page


@pytest.mark.slow
def test_letterboxed_flow(live: LiveServer, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    # The NYT's answer of that day is on wordfreq's list (the page's default is wamerican's).
    browser.get(f"{live.url}/letterboxed?dict=wordfreq:100000")
    box = browser.find_element(By.ID, "box")
    box.clear()
    box.send_keys("lua-sgc-yhk-zop")
    browser.find_element(By.ID, "solve").click()
    paths = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#drawing path.word"))
    assert [p.get_attribute("data-word") for p in paths] == ["psychology", "yakuza"]
    # One segment per pair of consecutive letters, drawn from letter to letter.
    assert [p.get_attribute("d").count(" L ") for p in paths] == [9, 5]
    letters = browser.find_elements(By.CSS_SELECTOR, "#drawing text.letter")
    assert sorted(t.text for t in letters) == sorted("LUASGCYHKZOP")
    assert browser.find_element(By.ID, "solution").text == "PSYCHOLOGY–YAKUZA"
    assert "proven" in browser.find_element(By.ID, "score").text
    assert browser.find_element(By.ID, "counts").text.startswith("0 of 1 word, 1 of 2 words")
    # The drawing is really rendered: the path has a length on screen.
    length = browser.execute_script("return document.querySelector('path.word').getTotalLength()")
    assert length > 100
    shot(browser, tmp_path / "letterboxed.png")

    # Hint mode: nothing drawn, then one word per click.
    browser.find_element(By.LINK_TEXT, "Play it in hint mode").click()
    wait_for(lambda: browser.find_elements(By.ID, "hint"))
    assert browser.find_elements(By.CSS_SELECTOR, "#drawing path.word") == []
    browser.find_element(By.ID, "reveal-next").click()
    wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#drawing path.word")) == 1)
    assert browser.find_element(By.ID, "next").text.startswith("Next word: 6 letters")
    shot(browser, tmp_path / "letterboxed-hint.png")

    # Bad input: the CLI's line on the page.
    browser.get(f"{live.url}/letterboxed?box=lua-sgc-yhk-zoo")
    err = browser.find_element(By.ID, "error").text
    assert err == "error: letter 'o' appears twice on side 4; box letters must be distinct"


@pytest.mark.slow
def test_wordsnake_flow(live: LiveServer, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    browser.get(f"{live.url}/wordsnake")
    browser.find_element(By.ID, "demo").click()
    assert len(browser.find_element(By.ID, "words").get_attribute("value").split()) == 50
    browser.find_element(By.ID, "start").click()
    wait_for(lambda: browser.find_element(By.ID, "result").is_displayed(), timeout=60)
    summary = browser.find_element(By.ID, "summary").text
    assert summary.startswith("OPTIMAL: score 510, bound 510") and "verified" in summary
    groups = browser.find_elements(By.CSS_SELECTOR, "#snake g.word")
    assert len(groups) == 50
    tails = browser.find_elements(By.CSS_SELECTOR, "#snake rect.overlap.tail")
    heads = browser.find_elements(By.CSS_SELECTOR, "#snake rect.overlap.head")
    assert len(tails) == len(heads) > 40
    score = sum(int(r.get_attribute("data-length")) ** 2 for r in tails)
    assert score == 510  # the highlighted overlaps add up to the proven score
    # The chart shows the final point even when the solve ended before any progress event.
    for name in ("incumbent", "bound"):
        dot = browser.find_element(By.ID, f"dot-{name}")
        assert dot.get_attribute("visibility") == "visible" and dot.is_displayed()
        assert 0 <= float(dot.get_attribute("cx")) <= 480
    assert browser.find_element(By.ID, "chart-time").text.endswith(" s")
    assert browser.find_element(By.ID, "chart-last").text == f"incumbent {score}, bound {score}"
    href = browser.find_element(By.ID, "download").get_attribute("href")
    assert href.endswith("/result.json")
    cert = browser.find_element(By.ID, "cert-link")
    assert cert.is_displayed() and cert.get_attribute("href").endswith("/certificate.json")
    shot(browser, tmp_path / "wordsnake.png")

    # Bad input: the CLI's line, no solve started.
    words = browser.find_element(By.ID, "words")
    words.clear()
    words.send_keys("run\nNa-usea\n")
    browser.find_element(By.ID, "start").click()
    err = wait_for(lambda: browser.find_element(By.ID, "error").text)
    assert err.startswith("error: the list: 1 line that is not a word: line 2 'Na-usea' ('-' is")


@pytest.mark.slow
def test_wordsnake_stop_from_the_page(live: LiveServer, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from cpwords.wordsnake.spec import random_strings

    browser.get(f"{live.url}/wordsnake")
    words = "\n".join(random_strings("ab", 1000, 1, 6, 12))
    browser.execute_script("document.getElementById('words').value = arguments[0]", words)
    Select(browser.find_element(By.ID, "method")).select_by_visible_text("cpsat-routes")
    browser.find_element(By.ID, "start").click()
    wait_for(lambda: browser.find_element(By.ID, "state").text == "running")
    jobs = live.app.state.jobs
    job = wait_for(lambda: next((j for j in jobs._jobs.values() if not j.final), None))
    pid = wait_for(lambda: job.pid)
    time.sleep(1.0)
    t0 = time.monotonic()
    browser.find_element(By.ID, "stop").click()
    wait_for(lambda: browser.find_element(By.ID, "state").text == "stopped", timeout=20)
    assert time.monotonic() - t0 < 15.0  # against the page's 60 s: stopped, not run out
    assert not os.path.exists(f"/proc/{pid}")
    assert browser.find_element(By.ID, "start").is_enabled()
    shot(browser, tmp_path / "wordsnake-stopped.png")


@pytest.mark.slow
def test_letterpress_flow(live: LiveServer, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    import cpwords
    from cpwords.letterpress.rules import parse_board, play

    letters, colours = "ovrkqlwislrecrtgmvpfprzey", "bb...b..r.....r...r.....r"
    browser.get(f"{live.url}/letterpress")
    browser.find_element(By.ID, "letters").send_keys(letters)
    browser.find_element(By.ID, "colours").send_keys(colours)
    browser.find_element(By.ID, "go").click()
    word = wait_for(lambda: browser.find_elements(By.ID, "move"), timeout=60)[0].text
    board = parse_board(letters, colours)
    best = cpwords.best_letterpress_move(board, workers=1)
    assert "proven best move" in browser.find_element(By.ID, "swing").text
    assert f"swing {best.objective:+.0f}" in browser.find_element(By.ID, "swing").text
    used = browser.find_elements(By.CSS_SELECTOR, "#drawing rect.used")
    tiles = [int(r.get_attribute("data-index")) for r in used]
    assert "".join(letters[t] for t in tiles) == word.lower() and len(tiles) == len(word)
    order = browser.find_elements(By.CSS_SELECTOR, "#drawing text.order")  # numbered, not joined
    assert [int(t.text) for t in order] == list(range(1, len(word) + 1))
    after = browser.find_elements(By.CSS_SELECTOR, "#drawing-after rect.tile")
    owners = {"me": 1, "neutral": 0, "opponent": -1}
    assert [owners[r.get_attribute("data-owner")] for r in after] == list(play(board, tiles))
    shot(browser, tmp_path / "letterpress.png")

    # The words are grouped by length, the longest open: a click opens the 5-letter group,
    # and a click on one of its words draws that word instead.
    span = browser.find_element(By.CSS_SELECTOR, "#words p[data-length='5'] span")
    assert not span.is_displayed()
    browser.find_element(By.CSS_SELECTOR, "#words details[data-length='5'] summary").click()
    wait_for(span.is_displayed)
    picked = span.text
    span.click()
    wait_for(lambda: browser.find_element(By.ID, "move").text == picked.upper())
    used = browser.find_elements(By.CSS_SELECTOR, "#drawing rect.used")
    assert "".join(letters[int(r.get_attribute("data-index"))] for r in used) == picked

    # Bad input: the CLI's line on the page.
    browser.get(f"{live.url}/letterpress?letters=abc&colours=bbx")
    err = browser.find_element(By.ID, "error").text
    assert err == "error: unknown colour code(s) 'x': use b (mine), r (opponent), . (neutral)"


@pytest.mark.slow
def test_truncate_flow(live: LiveServer, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(f"{live.url}/truncate")
    Select(browser.find_element(By.ID, "direction")).select_by_value("to")
    browser.find_element(By.ID, "word").send_keys("relapsed")  # the game's own dictionary
    browser.find_element(By.ID, "go").click()
    rungs = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#drawing g.rung"), 60)
    words = [g.get_attribute("data-word") for g in rungs]
    assert words == ["a", "la", "lap", "laps", "lapse", "elapse", "elapsed", "relapsed"]
    assert browser.find_element(By.ID, "length").text.startswith("8 plays")
    added = browser.find_elements(By.CSS_SELECTOR, "#drawing rect.added")
    assert len(added) == 7
    # Each rung is the one above with one letter added: its letters, read on screen.
    for g, w in zip(rungs, words, strict=True):
        assert "".join(t.text for t in g.find_elements(By.CSS_SELECTOR, "text")) == w.upper()
    shot(browser, tmp_path / "truncate.png")
    browser.get(f"{live.url}/truncate?word=zzzq")
    err = browser.find_element(By.ID, "error").text
    assert err == "error: 'zzzq' is not in the dictionary"  # as cpwords truncate --from says


@pytest.mark.slow
def test_grid_flow(live: LiveServer, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    import cpwords
    from cpwords.grid.rules import default_board, grid_problems
    from cpwords.serve.views import grid_tokens

    board = default_board()
    browser.get(f"{live.url}/grid")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#drawing g.slot")) == 13
    assert len(browser.find_elements(By.CSS_SELECTOR, "#drawing line.edge")) == 24
    if not cpwords.design_grid_puzzles(board, grid_tokens(5000, 2, 2, False)).unique:
        pytest.skip(
            "web2's 5,000 most common words have no unique grid puzzle: apt-get install "
            "wamerican (the English dictionary the page's link reads where installed)"
        )
    browser.find_element(By.LINK_TEXT, "5,000 most common words").click()
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#unique li"), 60)
    browser.find_element(By.CSS_SELECTOR, "#unique a.play").click()
    wait_for(lambda: browser.find_element(By.ID, "t_s1").get_attribute("value"))
    # Fill one prefix by hand, wrongly, and have it checked.
    browser.find_element(By.ID, "t_c").send_keys("zz")
    browser.find_element(By.ID, "check").click()
    wait_for(lambda: browser.find_elements(By.ID, "verdict"))
    assert browser.find_element(By.ID, "verdict").text == "INVALID board"
    bad = browser.find_elements(By.CSS_SELECTOR, "#drawing line.edge.bad")
    assert len(bad) == 4 and all(e.get_attribute("data-word").startswith("zz") for e in bad)
    # Complete it from the suffixes alone: the unique answer, valid.
    browser.find_element(By.ID, "t_c").clear()
    browser.find_element(By.ID, "solve").click()
    wait_for(lambda: browser.find_element(By.ID, "verdict").text.startswith("completed"), 60)
    slots = browser.find_elements(By.CSS_SELECTOR, "#drawing g.slot")
    fill = {g.get_attribute("data-slot"): g.get_attribute("data-token") for g in slots}
    assert all(fill.values()) and len(fill) == 13
    assert not grid_problems(board, fill, grid_tokens(5000, 2, 2, False).words)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#words li")) == 24
    shot(browser, tmp_path / "grid.png")
    browser.find_element(By.ID, "check").click()
    wait_for(lambda: browser.find_element(By.ID, "verdict").text == "valid board")


@pytest.mark.slow
def test_letterboxed_generate_by_difficulty(live: LiveServer, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    import cpwords

    browser.get(f"{live.url}/letterboxed")
    Select(browser.find_element(By.ID, "difficulty")).select_by_visible_text("hard")
    browser.find_element(By.NAME, "seed").send_keys("7")
    browser.find_element(By.ID, "generate").click()
    note = wait_for(lambda: browser.find_element(By.ID, "generated").text, 60)
    score = float(note.split("difficulty ")[1].split(" ")[0])
    box = browser.find_element(By.ID, "box").get_attribute("value")
    assert score >= 3.0 and cpwords.box_difficulty(box).score == score
    # a new box is a puzzle: no word drawn until the answer is revealed
    assert browser.find_element(By.ID, "hint").is_displayed()
    assert not browser.find_elements(By.CSS_SELECTOR, "#drawing path.word")
    browser.find_element(By.ID, "show-all").click()
    wait_for(lambda: browser.find_elements(By.ID, "score"), 60)
    paths = browser.find_elements(By.CSS_SELECTOR, "#drawing path.word")
    assert len(paths) == int(browser.find_element(By.ID, "score").text.split()[0]) == 2
    shot(browser, tmp_path / "letterboxed-hard.png")


@pytest.mark.slow
def test_wordsnake_from_a_shipped_lexicon(live: LiveServer, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from cpwords.core.sources import lexicon_words

    browser.get(f"{live.url}/wordsnake")
    Select(browser.find_element(By.ID, "lexicon")).select_by_value("wordfreq:1000")
    assert not browser.find_element(By.ID, "words").is_enabled()
    Select(browser.find_element(By.ID, "method")).select_by_visible_text("greedy")
    browser.find_element(By.ID, "start").click()
    wait_for(lambda: browser.find_element(By.ID, "result").is_displayed(), timeout=60)
    summary = browser.find_element(By.ID, "summary").text
    assert "verified" in summary
    # The whole lexicon was solved: the snake draws its first 400 of its words.
    n = len(lexicon_words("wordfreq:1000"))
    assert n > 400 and len(browser.find_elements(By.CSS_SELECTOR, "#snake g.word")) == 400
    shot(browser, tmp_path / "wordsnake-lexicon.png")


#: Every page, with an answer where it has one (GET only: a solve of seconds is POST).
PAGES = (
    "/",
    "/letterboxed",
    "/letterboxed?box=lua-sgc-yhk-zop",
    "/letterboxed?box=lua-sgc-yhk-zop&check=plough+hazy",
    "/wordsnake",
    "/letterpress",
    "/letterpress?letters=ovrkqlwislrecrtgmvpfprzey",
    "/letterpress?letters=ovrkqlwislrecrtgmvpfprzey&colours=bb...b..r.....r...r.....r",
    "/truncate",
    "/truncate?word=sheathery&direction=to",
    "/grid",
    "/grid?top=5000&L=2&P=2&action=check&t_s1=de",
    "/chain",
    "/superstring",
    "/no-such-page",
)


@pytest.mark.slow
def test_no_page_scrolls_sideways_on_a_phone(
    live: LiveServer, browser: Any, tmp_path: Path
) -> None:
    """At a phone's width every page fits: nothing wider than the screen (long menu options,
    fixed grid columns and wide drawings shrink or wrap), a solved snake included."""
    from selenium.webdriver.common.by import By

    widths = {}
    with phone(browser):
        for path in PAGES:
            browser.get(live.url + path)
            widths[path] = page_size(browser)[0]
        browser.get(f"{live.url}/wordsnake")
        browser.find_element(By.ID, "demo").click()
        browser.find_element(By.ID, "start").click()
        wait_for(lambda: browser.find_element(By.ID, "result").is_displayed(), timeout=60)
        widths["/wordsnake (solved)"] = page_size(browser)[0]
        shot(browser, tmp_path / "wordsnake-phone.png")
        # The answers sent by POST: a best move drawn before and after, a grid design's list.
        browser.get(f"{live.url}/letterpress?letters=ovrkqlwislrecrtgmvpfprzey")
        browser.find_element(By.ID, "colours").send_keys("bb...b..r.....r...r.....r")
        browser.find_element(By.ID, "go").click()
        wait_for(lambda: browser.find_elements(By.ID, "drawing-after"), timeout=60)
        widths["/letterpress (best move)"] = page_size(browser)[0]
        browser.get(f"{live.url}/grid")
        browser.find_element(By.LINK_TEXT, "5,000 most common words").click()
        wait_for(lambda: browser.find_elements(By.ID, "unique-list"), timeout=60)
        widths["/grid (unique puzzles)"] = page_size(browser)[0]
        # A long chain drawn (the staircase wraps at the picture's width).
        browser.get(f"{live.url}/chain")
        words = "\n".join(f"{a}{b}{a}" for a in "abcdefgh" for b in "xyz")
        browser.find_element(By.ID, "words").send_keys(words)
        browser.find_element(By.ID, "go").click()
        wait_for(lambda: browser.find_elements(By.ID, "drawing"), timeout=60)
        widths["/chain (a chain drawn)"] = page_size(browser)[0]
        shot(browser, tmp_path / "chain-phone.png")
        # A superstring drawn (its words underlined in lanes below it).
        browser.get(f"{live.url}/superstring")
        words = "\n".join(f"{a}{b}{c}" for a in "abc" for b in "abc" for c in "ab")
        browser.find_element(By.ID, "words").send_keys(words)
        browser.find_element(By.ID, "go").click()
        wait_for(lambda: browser.find_elements(By.ID, "drawing"), timeout=60)
        widths["/superstring (drawn)"] = page_size(browser)[0]
        shot(browser, tmp_path / "superstring-phone.png")
    assert len(widths) == len(PAGES) + 5
    assert {page: width for page, width in widths.items() if width > PHONE} == {}


@pytest.mark.slow
def test_letterpress_listing_stays_short(live: LiveServer, browser: Any, tmp_path: Path) -> None:
    """A bag that spells thousands of words: the page stays within a few screens on a phone
    and on a desktop (grouped by length, collapsed), and opening a group shows its words."""
    from selenium.webdriver.common.by import By

    url = f"{live.url}/letterpress?letters=ovrkqlwislrecrtgmvpfprzey"
    browser.get(url)
    count = int(browser.find_element(By.ID, "count").text.split()[0].replace(",", ""))
    _, desktop = page_size(browser)
    screen = browser.execute_script("return window.innerHeight")
    assert count > 4500 and desktop < 2 * screen
    with phone(browser, height=844):
        browser.get(url)
        _, height = page_size(browser)
        assert height < 3 * 844
        shot(browser, tmp_path / "letterpress-phone.png")
        summaries = browser.find_elements(By.CSS_SELECTOR, "#words summary")
        for summary in summaries[1:]:
            summary.click()
        shown = browser.find_elements(By.CSS_SELECTOR, "#words span")
        assert len(shown) == count and all(s.is_displayed() for s in shown[-3:])
        _, opened = page_size(browser)
        assert opened > 5 * height  # what the grouping saves


def _verdict_of(browser: Any, shown: str) -> str | None:
    """The page's verdict once it names ``shown`` (the page of this answer), else None."""
    from selenium.webdriver.common.by import By

    text: str = browser.find_element(By.ID, "verdict").text
    return text if text.endswith(f": {shown}") else None


@pytest.mark.slow
def test_letterboxed_check_my_answer(live: LiveServer, browser: Any, tmp_path: Path) -> None:
    """A player types an answer under the box: the checker's verdict and problems, the answer
    drawn on the box, the solution kept hidden until asked for."""
    from selenium.webdriver.common.by import By

    from cpwords.letterboxed.models.dp import default_lexicon
    from cpwords.letterboxed.rules import letterboxed_problems, parse_box

    box = "lua-sgc-yhk-zop"
    browser.get(f"{live.url}/letterboxed?box={box}&hint=1&reveal=0")
    for answer in ("plough hazy", "pucks slough hazy"):
        field = browser.find_element(By.ID, "check")
        field.clear()
        field.send_keys(answer)
        browser.find_element(By.ID, "check-go").click()
        words = answer.split()
        shown = "–".join(words).upper()
        # the form reloads the page: wait for this answer's verdict, not the last one's
        verdict = wait_for(partial(_verdict_of, browser, shown))
        problems = letterboxed_problems(parse_box(box), words, default_lexicon().as_set())
        expected = "valid" if not problems else "invalid"
        assert verdict == f"{expected}: {shown}"
        listed = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#check-problems li")]
        assert listed == problems
        drawn = browser.find_elements(By.CSS_SELECTOR, "#drawing path.word")
        assert [p.get_attribute("data-word") for p in drawn] == words
        assert browser.find_elements(By.ID, "solution") == []  # not given away
    assert browser.find_element(By.ID, "hint").is_displayed()  # still in hint mode
    shot(browser, tmp_path / "letterboxed-check.png")


@pytest.mark.slow
def test_letterboxed_from_where_the_player_stands(
    live: LiveServer, browser: Any, tmp_path: Path
) -> None:
    """A player types their words so far under the box: whether it is still solvable and in
    how few more words (proven), then a hint, as the library answers; the plays drawn, the
    answer kept hidden (issue 47, item 3)."""
    from selenium.webdriver.common.by import By

    from cpwords.letterboxed.models.dp import LetterBoxedSolver
    from cpwords.letterboxed.spec import continue_box, hint_box, hint_text
    from cpwords.serve.views import page_lexicon

    box = "lua-sgc-yhk-zop"
    solver = LetterBoxedSolver(page_lexicon("enable1"))
    browser.get(f"{live.url}/letterboxed?box={box}&dict=enable1&hint=1&reveal=0")
    field = browser.find_element(By.ID, "from")
    field.send_keys("pucks")
    browser.find_element(By.ID, "from-go").click()
    said = wait_for(lambda: browser.find_element(By.ID, "position-solvable").text)
    fewest = len(continue_box(box, "pucks", solver).solution or ())
    assert said == f"yes, in {fewest} more words at fewest (proven)"
    assert browser.find_element(By.ID, "position").get_attribute("data-fewest") == str(fewest)
    drawn = browser.find_elements(By.CSS_SELECTOR, "#drawing path.word")
    assert [p.get_attribute("data-word") for p in drawn] == ["pucks"]
    assert browser.find_element(By.ID, "from").get_attribute("value") == "pucks"  # kept
    browser.find_element(By.ID, "hint-2").click()
    hint = wait_for(lambda: browser.find_element(By.ID, "position-hint").text)
    assert hint == hint_text(hint_box(box, "pucks", 2, solver).to_dict())
    assert browser.find_elements(By.ID, "solution") == []  # not given away
    shot(browser, tmp_path / "letterboxed-from.png")
    with phone(browser):  # the field and its five buttons wrap on a phone
        browser.refresh()
        assert page_size(browser)[0] <= PHONE


@pytest.mark.slow
def test_no_page_breaks_its_content_security_policy(live: LiveServer, browser: Any) -> None:
    # Issue 48: every answer carries a CSP without inline scripts or styles; a page that
    # needed one would log "Refused to ..." in the console (and its script would not run; the
    # flows above click through the scripts).
    browser.get_log("browser")  # drop what earlier tests logged
    pages = [
        "/",
        "/letterboxed?box=lua-sgc-yhk-zop",
        "/wordsnake",
        "/letterpress?letters=abc",
        "/truncate?word=cat",
        "/grid",
        "/chain",
        "/superstring",
    ]
    for path in pages:
        browser.get(live.url + path)
        wait_for(lambda: browser.execute_script("return document.readyState") == "complete")
        refused = [
            e["message"]
            for e in browser.get_log("browser")
            if "Content Security Policy" in e["message"]
        ]
        assert refused == [], (path, refused)


def _command_row(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    """The command's ``--json`` row (exit status 0)."""
    import json

    from tests.conftest import run_cli

    code, out, err = run_cli([*argv, "--json"], capsys)
    assert code == 0, err
    row: dict[str, Any] = json.loads(out)
    return row


@pytest.mark.slow
def test_each_page_shows_its_commands_answer(
    live: LiveServer, browser: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 47: what a player reads on the page, typed in by hand, is what the command answers
    on the same input: Letter Boxed's solution, Truncate's chain, Letterpress's whole listing
    (each solved deterministically, so the words themselves agree, not only their number)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    box = "lua-sgc-yhk-zop"
    browser.get(f"{live.url}/letterboxed?dict=enable1")
    field = browser.find_element(By.ID, "box")
    field.clear()
    field.send_keys(box)
    browser.find_element(By.ID, "solve").click()
    shown = wait_for(lambda: browser.find_element(By.ID, "solution").text, 60)
    row = _command_row(capsys, "letterboxed", box, "--dict", "enable1")
    assert shown == "–".join(row["solution"]).upper()

    browser.get(f"{live.url}/truncate")
    Select(browser.find_element(By.ID, "direction")).select_by_value("to")
    browser.find_element(By.ID, "word").send_keys("relapsed")
    browser.find_element(By.ID, "go").click()
    rungs = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#drawing g.rung"), 60)
    row = _command_row(capsys, "truncate", "--end", "relapsed")
    assert [g.get_attribute("data-word") for g in rungs] == row["solution"]["sequence"]

    bag = "ovrkqlwislrecrtgmvpfprzey"
    browser.get(f"{live.url}/letterpress")
    browser.find_element(By.ID, "letters").send_keys(bag)
    browser.find_element(By.ID, "go").click()
    spans = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#words p span"), 60)
    row = _command_row(capsys, "letterpress", bag, "--longest-first")
    assert [s.get_attribute("textContent") for s in spans] == row["solution"]
