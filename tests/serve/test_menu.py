"""The pages' menu in plain words and the Letter Boxed rules in one line (issue 47, item 5)."""

from __future__ import annotations

import html
import re

import httpx

from tests.serve.conftest import LiveServer

#: Words of the solver's trade that a menu label should not need.
JARGON = ("superstring", "prefix", "suffix", "cp-sat", "mip", "solver", "lexicon")


def menu(page: str) -> list[tuple[str, str, str, bool]]:
    """The menu of a page: (path, label, title, marked as the page shown) per link."""
    nav = re.search(r"<nav>(.*?)</nav>", page, flags=re.S)
    assert nav, "no menu"
    links = re.findall(r'<a href="([^"]+)" title="([^"]+)"( class="here")?>([^<]+)</a>', nav[1])
    return [(href, html.unescape(label), html.unescape(t), bool(h)) for href, t, h, label in links]


def test_each_page_is_in_the_menu_by_its_own_heading(live: LiveServer) -> None:
    links = menu(httpx.get(live.url + "/", timeout=60).text)
    assert len(links) >= 7 and not any(here for *_, here in links)  # the home page: none
    for href, label, what, _ in links:
        page = httpx.get(live.url + href, timeout=60)
        assert page.status_code == 200, href
        heading = re.search(r"<h1>([^<]+)</h1>", page.text)
        assert heading and html.unescape(heading[1]) == label, (href, label)
        assert [h for h, *_, here in menu(page.text) if here] == [href]  # itself, alone
        assert not any(w in label.lower() for w in JARGON), label
        assert len(what.split()) >= 4 and what != label  # what a player does there


def test_the_letter_boxed_page_states_the_rules(live: LiveServer) -> None:
    page = httpx.get(live.url + "/letterboxed", timeout=60).text
    rules = re.search(r'<p id="rules">(.*?)</p>', page, flags=re.S)
    assert rules
    line = " ".join(rules[1].split())
    assert line.count(";") == 3 and "\n" not in line  # four rules, one sentence
    for said in ("every letter", "different sides", "last letter", "fewest words"):
        assert said in line, said
