"""Pages for designers and players in a real headless Chromium (issue 47, item 5): the puzzle
links of a box, the progress line of a page's solve and of a Wordsnake solve, both moving each
second. Skipped where no browser is installed, as tests/serve/test_browser.py is."""

from __future__ import annotations

import functools
import itertools
import json
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from cpwords.serve import views
from tests.serve.conftest import LiveServer
from tests.serve.test_browser import CHROMEDRIVER, CHROMIUM, wait_for

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)),
        reason="no headless browser: apt-get install chromium chromium-driver",
    ),
]
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is in the test extra")

#: How long the slowed superstring page takes (seconds): long enough to see its clock move.
SLOW = 3.5


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = CHROMIUM
    # A click that sends a form returns at once, not once the answer is loaded: the page
    # waiting for its answer is what these tests watch.
    opts.page_load_strategy = "none"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def _slowed(view: Callable[..., dict[str, Any]], *args: Any, **kwargs: Any) -> dict[str, Any]:
    """The superstring view, :data:`SLOW` seconds late when it solves."""
    if kwargs.get("solve", True):
        time.sleep(SLOW)
    return view(*args, **kwargs)


@pytest.fixture(scope="module")
def slow_live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose superstring page answers :data:`SLOW` seconds late (a solve of
    seconds, without the CPU)."""
    from cpwords.serve.app import Settings, create_app

    mp = pytest.MonkeyPatch()
    mp.setenv("CPWORDS_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    mp.setattr(views, "superstring_view", functools.partial(_slowed, views.superstring_view))
    srv = LiveServer(create_app(Settings(max_solves=1, grace=1.0)))
    mp.undo()  # the app holds the slowed view; nothing else sees it
    yield srv
    srv.stop()


def _changes(read: Callable[[], str], within: float) -> tuple[str, str]:
    """The text ``read`` gives now, and the first different one within ``within`` seconds."""
    first = read()
    t0 = time.monotonic()
    while time.monotonic() - t0 < within:
        now = read()
        if now != first:
            return first, now
        time.sleep(0.05)
    raise AssertionError(f"{first!r} did not change within {within} s")


#: A recorder of the progress line's texts, kept in the tab's session storage: while a form's
#: answer loads, the driver's scripts run in the page to come, not in the one that waits.
RECORD = """
new MutationObserver(() => {
  const line = document.getElementById("working");
  if (!line) return;
  const log = JSON.parse(sessionStorage.getItem("working") || "[]");
  log.push([Date.now(), line.textContent]);
  sessionStorage.setItem("working", JSON.stringify(log));
}).observe(document.body, {subtree: true, childList: true, characterData: true});
"""


def test_a_page_solve_shows_its_seconds(slow_live: LiveServer, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    browser.get(f"{slow_live.url}/superstring")
    wait_for(lambda: browser.find_element(By.ID, "go"), timeout=10)
    browser.find_element(By.ID, "words").send_keys("seasick\nkiln\nnausea\nrun\n")
    browser.execute_script("sessionStorage.removeItem('working');" + RECORD)
    browser.find_element(By.ID, "go").click()
    wait_for(lambda: browser.find_elements(By.ID, "length"), timeout=30)
    assert not browser.find_elements(By.ID, "working")  # the answer replaced the page
    log = json.loads(browser.execute_script("return sessionStorage.getItem('working')"))
    texts = list(dict.fromkeys(text for _, text in log))
    assert texts[:3] == [f"Sent; waiting for the answer: {s} s elapsed" for s in range(3)]
    shown = {text: t for t, text in reversed(log)}  # when each text first appeared (ms)
    steps = [shown[b] - shown[a] for a, b in itertools.pairwise(texts)]
    assert all(800 < ms < 1500 for ms in steps), steps


def test_a_wordsnake_solve_shows_its_seconds(live: LiveServer, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(f"{live.url}/wordsnake")
    wait_for(lambda: browser.find_element(By.ID, "start"), timeout=10)
    Select(browser.find_element(By.ID, "lexicon")).select_by_value("wordfreq:100000")
    browser.find_element(By.ID, "start").click()
    elapsed = browser.find_element(By.ID, "elapsed")
    wait_for(lambda: elapsed.text.endswith(" s"), timeout=10)
    first, later = _changes(lambda: elapsed.text, within=2.5)
    assert float(later.split()[0]) > float(first.split()[0])
    reported = browser.find_element(By.ID, "reported").text
    assert reported == "none yet" or reported.endswith("ago") or reported.startswith("now")
    browser.find_element(By.ID, "stop").click()
    wait_for(lambda: browser.find_element(By.ID, "result").is_displayed(), timeout=30)


def test_a_box_links_its_puzzle(live: LiveServer, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    browser.get(f"{live.url}/letterboxed?box=lua-sgc-yhk-zop&dict=enable1&hint=1&reveal=0")
    wait_for(lambda: browser.find_element(By.ID, "puzzle-png"), timeout=30)
    href = browser.find_element(By.ID, "puzzle-svg").get_attribute("href")
    svg = httpx.get(href, timeout=30).text
    assert 'class="word"' not in svg and "LUA-SGC-YHK-ZOP" in svg
    png = httpx.get(browser.find_element(By.ID, "puzzle-png").get_attribute("href"), timeout=30)
    assert png.content.startswith(b"\x89PNG")
