"""The default blocklists (issue 47): slurs and profanity per language, not every sensitive
word; the puzzle's --lang chooses the list; a designer's file adds to it, off turns it off."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from wordfreq import top_n_list, zipf_frequency

from cpwords.cli import main
from cpwords.core.alphabet import fold_accents
from cpwords.core.blocklist import (
    COMMON_ZIPF,
    PROFANE,
    default_blocklist_words,
    default_source,
    list_entries,
    load_blocklist,
)
from cpwords.core.lexicon import known_languages


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
    assert rare and all(w in block for w in rare)  # Danish's list has 20 entries, 11 rare


#: Per reviewed language: how many of its 10,000 commonest words (wordfreq's) its default
#: blocklist blocks. Before the review of issue 47's second round (their lists taken whole):
#: it 33, pt 26, nl 37, pl 10, sv 24, da 12, nb 22, fi 17, cs 4, ru 5, tr 7, hu 12, ar 4,
#: fa 13, fil 11, hi 0. Some went up: English profanity common in the language used to be
#: left out when more common there than in English (Hungarian "nigger", Portuguese "buceta").
BLOCKED_OF_10_000 = {
    "en": 33,
    "fr": 16,
    "de": 20,
    "es": 8,
    "it": 25,
    "pt": 11,
    "nl": 26,
    "pl": 11,
    "sv": 19,
    "da": 13,
    "nb": 22,
    "fi": 10,
    "cs": 5,
    "ru": 4,
    "tr": 8,
    "hu": 9,
    "ar": 3,
    "fa": 6,
    "fil": 11,
    "hi": 0,
}


def test_every_generating_language_with_a_list_was_reviewed() -> None:
    # The languages --lang takes (wordfreq's) that LDNOOBW has a list of (no/nb).
    with_list = {x for x in known_languages() if default_source(x).startswith("LDNOOBW")}
    assert with_list - set(PROFANE) == {"ja", "ko", "zh"}
    assert set(PROFANE) == set(BLOCKED_OF_10_000)


@pytest.mark.parametrize("lang", sorted(PROFANE))
def test_how_many_of_the_commonest_words_are_blocked(lang: str) -> None:
    block = load_blocklist(lang=lang)
    blocked = [w for w in top_n_list(lang, 10_000) if block.blocks(w)]
    assert len(blocked) == BLOCKED_OF_10_000[lang], blocked


#: Per newly reviewed language: common ordinary words its list held, now left out; and real
#: profanity and slurs, its own and English, that stay blocked.
ORDINARY_AND_PROFANE = {
    "it": ("pesce regina palle tirare cadavere", "cazzo vaffanculo puttana frocio fuck"),
    "pt": ("comer inferno cerveja aranha sexo", "caralho porra buceta bicha fuck"),
    "nl": ("naakt beurt gat hoor douche", "neuken kut klootzak flikker fuck"),
    "pl": ("jajko nad debil", "kurwa gówno gowno chuj fuck"),
    "sv": ("hård hard sås sas slut kock puss", "fan knulla fitta neger fuck"),
    "da": ("slut tit fag", "røv lort fisse fuck"),
    "nb": ("pokker sinnsykt titt fag", "faen dritt hore fitte fuck"),
    "fi": ("pistää panna jätkä jatka muna reikä", "vittu perkele neekeri fuck"),
    "cs": ("soused nad semen", "kurva prdel zmrd fuck"),
    "ru": ("секс голый", "блядь хуй говно"),
    "tr": ("kum gey", "orospu göt got siktir fuck"),
    "hu": ("marha barom teste", "kurva fasz geci nigger dick"),
    "ar": ("فرج قضيب", "نيك كس"),
    "fa": ("تجاوز لخت سوپر", "کیر کس جنده"),
    "fil": ("guro puto tanga paki", "tangina burat titi fuck"),
}


@pytest.mark.parametrize("lang", sorted(ORDINARY_AND_PROFANE))
def test_a_reviewed_language_lets_its_ordinary_words_go_and_keeps_its_swearing(
    lang: str,
) -> None:
    ordinary, profane = (words.split() for words in ORDINARY_AND_PROFANE[lang])
    block = load_blocklist(lang=lang)
    assert not any(block.blocks(w) for w in ordinary), [w for w in ordinary if block.blocks(w)]
    assert all(block.blocks(w) for w in profane), [w for w in profane if not block.blocks(w)]
    listed = list_entries(lang) | default_blocklist_words("en")
    listed |= {fold_accents(w) for w in listed}
    assert all(w in listed and zipf_frequency(w, lang) >= COMMON_ZIPF for w in ordinary)


def test_japanese_korean_and_chinese_take_their_lists_whole_even_without_cjk_tokenizers() -> None:
    # Not reviewed: their lists are taken whole. wordfreq needs MeCab or jieba (its cjk
    # extra) to measure their words; without them the blocklist is still built (the command
    # used to fail with ModuleNotFoundError), English's list whole too.
    for lang in ("ja", "ko", "zh"):
        block = load_blocklist(lang=lang)
        assert block.blocks("fuck") and list_entries(lang) <= block.words


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
