"""The default blocklists (issue 47): slurs and profanity per language, not every sensitive
word; the puzzle's --lang chooses the list; a designer's file adds to it, off turns it off."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from wordfreq import top_n_list, zipf_frequency

from cpwords.cli import main
from cpwords.core.blocklist import (
    COMMON_ZIPF,
    PROFANE,
    default_blocklist_words,
    list_entries,
    load_blocklist,
)


@pytest.mark.parametrize("lang", sorted(PROFANE))
def test_the_commonest_words_are_blocked_only_when_real_profanity(lang: str) -> None:
    # English blocked 83 of its 10,000 commonest words (god, kill, organ, slope, thrust, urine).
    block = load_blocklist(lang=lang)
    common = top_n_list(lang, 10_000)
    blocked = {w for w in common if block.blocks(w)}
    assert blocked <= PROFANE[lang], sorted(blocked - PROFANE[lang])
    assert len(PROFANE[lang]) < 0.01 * len(common)  # a short list, not a list of everything
    assert all(block.blocks(w) for w in PROFANE[lang])  # real profanity stays, common or not


@pytest.mark.parametrize("lang", sorted(PROFANE))
def test_rare_entries_all_stay(lang: str) -> None:
    # The common-word rule drops common words only: every rare entry is still blocked.
    block = default_blocklist_words(lang)
    rare = [w for w in list_entries(lang) if zipf_frequency(w, lang) < COMMON_ZIPF]
    assert len(rare) >= 20 and all(w in block for w in rare)


def test_english_keeps_its_swearing_and_lets_ordinary_words_go() -> None:
    block = load_blocklist()
    assert all(block.blocks(w) for w in ("fuck", "shit", "cunt", "rape", "Fuck"))
    assert not any(block.blocks(w) for w in ("god", "kill", "organ", "slope", "thrust", "urine"))
    assert block.source.startswith("better-profanity") and "LDNOOBW en" in block.source


def test_each_language_has_its_own_list() -> None:
    fr, de, es, en = (load_blocklist(lang=x) for x in ("fr", "de", "es", "en"))
    assert fr.blocks("catin") and fr.blocks("putain") and not en.blocks("catin")
    assert fr.blocks("encule") and fr.blocks("enculé")  # a puzzle with accents folded
    assert not fr.blocks("folle") and not fr.blocks("jouir")  # ordinary French words
    assert de.blocks("arschloch") and de.blocks("fuck") and not de.blocks("dick")  # thick
    assert es.blocks("coño") and not es.blocks("cono") and not es.blocks("negro")  # cone, black
    assert en.blocks("negro")
    assert fr.source.startswith("LDNOOBW fr") and "cpwords fr" in fr.source


def test_a_language_without_a_list_still_blocks_english_profanity() -> None:
    block = load_blocklist(lang="ta")
    assert block.blocks("fuck") and "English" in block.source


def test_ones_own_file_adds_and_off_turns_the_default_off(tmp_path: Path) -> None:
    mine = tmp_path / "mine.txt"
    mine.write_text("Rocher  # a name I do not want\n", encoding="utf-8")
    both = load_blocklist(mine, lang="fr")
    assert both.blocks("rocher") and both.blocks("catin") and str(mine) in both.source
    only = load_blocklist(mine, enabled=False, lang="fr")
    assert only.blocks("rocher") and not only.blocks("catin") and only.source == str(mine)
    assert not load_blocklist(enabled=False, lang="fr")


@pytest.mark.slow
def test_the_grid_takes_the_blocklist_of_its_language(capsys: pytest.CaptureFixture[str]) -> None:
    from cpwords.grid.rules import board_words, default_board

    with pytest.raises(SystemExit) as exc:
        main(["grid", "--lang", "fr", "--top", "5000", "--json", "--limit", "5"])
    row = json.loads(capsys.readouterr().out)
    assert exc.value.code == 0 and row["blocklist"]["source"].startswith("LDNOOBW fr")
    assert "blocked words" in row["lexicon"]
    block = load_blocklist(lang="fr")
    for q in row["quadruples"]:
        assert not block.any_blocked(board_words(default_board(), q["board"]))


@pytest.mark.slow
def test_letter_boxed_generation_takes_the_blocklist_of_its_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["letterboxed", "--generate", "1", "--lang", "fr", "--seed", "3", "--json"])
    row = json.loads(capsys.readouterr().out)
    assert exc.value.code == 0 and row["blocklist"]["source"].startswith("LDNOOBW fr")
    block = load_blocklist(lang="fr")
    for box in row["boxes"]:
        shown = [*box["solution"], *(w for pair in box["two_word_solutions"] for w in pair)]
        assert shown and not block.any_blocked(shown)
