"""Words a generated puzzle must not show: profanity and slurs, per language, plus the
designer's own list.

The puzzles cpwords *generates* (grid listings and ``--unique`` designs, ``letterboxed
--generate``) draw on frequency lists, which hold profanity, slurs and names: a grid board
spelled "fuck" and "rape", a French design showed "catin". The default blocklist of a
language (its ``--lang``) is built from:

* English: the word list of the ``better-profanity`` package (MIT; 944 entries; the most used
  word list of its kind on PyPI, a plain text file with no model behind it) and LDNOOBW's
  English list;
* every other language LDNOOBW has (ar cs da de eo es fa fi fil fr hi hu it ja kab ko nl no/nb
  pl pt ru sv th tlh tr zh): its list. LDNOOBW is the List of Dirty, Naughty, Obscene, and
  Otherwise Bad Words (Shutterstock and contributors, CC BY 4.0), shipped in
  ``cpwords/data/blocklists/`` with its licence (from the npm package ``naughty-words``
  1.2.0; ``tools/pack_blocklists.py``);
* cpwords' own few additions (:data:`ADDITIONS`: words its designs showed that the lists miss);
* for a language other than English, the English list too (frequency lists of other
  languages hold English profanity: "fuck" is as common in German as "nackt"), less the
  entries that are ordinary words of that language (Spanish "negro", Swedish "slut", "end").

These lists are lists of every *sensitive* word, and many entries are ordinary words (god,
kill, organ, slope, thrust, urine; French folle, jouir, gerbe; Spanish martillo; Italian
pesce, "fish"). The rule that keeps a blocklist to slurs and profanity: in a language whose
common entries were reviewed (:data:`PROFANE`: every language LDNOOBW has a list for and
cpwords generates puzzles in, en fr de es it pt nl pl sv da nb fi cs ru tr hu ar fa fil hi,
but ja ko zh), an entry that is a common word of the language (wordfreq Zipf frequency at
least :data:`COMMON_ZIPF`, about its 25,000 commonest words), its own list's or the English
list's, is left out, unless it is one of the language's real profanity and slurs
(:data:`PROFANE`: fuck and shit are common, and stay). Rare entries stay whatever they are:
leaving them out would gain a puzzle little. The lists of Japanese, Korean and Chinese are
taken whole, unreviewed: wordfreq measures their words only with its ``cjk`` extra (MeCab,
jieba). There (with the extra), and in a language LDNOOBW has no list for, an English entry
is left out when it is common in the language and more common in it than in English; without
the extra, English's list is taken whole too. Each entry blocks its accent-folded form too
(a puzzle with ``--fold-accents`` shows "encule"), unless that form is an ordinary common
word of a reviewed language (Swedish "sas", from "sås", sauce).

A designer adds words of their own from a file, or turns the default list off.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cpwords.core.errors import InputError

__all__ = ["Blocklist", "default_blocklist_words", "default_source", "load_blocklist"]

#: The package whose word list is the English default.
DEFAULT_SOURCE = "better-profanity"

#: Zipf frequency (wordfreq: log10 of uses per billion words, plus 9) from which a list's entry
#: is a common word of its language: 3.5 is about the 25,000th word of English.
COMMON_ZIPF = 3.5


def _words(text: str) -> frozenset[str]:
    """The words of a table's text, split at white space."""
    return frozenset(text.split())


#: Per reviewed language, its real profanity and slurs among the common entries (Zipf at least
#: COMMON_ZIPF) of its list and of the English list (the second line: English profanity
#: common in the language's text): they stay blocked. Every other common entry is an ordinary
#: word and is left out (e.g. English god, kill, gay, sex, naked, organ; French folle, baiser,
#: jouir; German dick, "thick"; Italian pesce, "fish"). Where unsure whether a word is
#: vulgar, the review kept it (Italian sega, "saw" and "wank").
PROFANE: dict[str, frozenset[str]] = {
    "en": _words("""
        fuck fucking fucked fuckin fucks fucker motherfucker wtf shit shits shitty bullshit
        damn goddamn crap ass asses asshole arse dumbass bitch bitches bastard dick cock prick
        pussy cunt tits boobs whore slut cum piss pissed pissing horny porn xxx nsfw lmao
        rape raped raping rapist negro nigga homo retarded
        """),
    "fr": _words("""
        merde putain cul con conne connard foutre bordel chier pute salope couilles bite
        chatte enculé pisser chiottes enfoiré branler nègre
        fuck shit dick wtf
        """),
    "de": _words("""
        scheiße arsch arschloch ficken fick hurensohn titten schlampe muschi kacke fotze hure
        milf neger wichser nutte nutten wichsen vögeln pissen porno
        fuck fucking shit bullshit porn pussy wtf
        """),
    "es": _words("""
        mierda puta culo coño verga pendejo pinche cabrón gilipollas mamada marica follar
        fuck dick wtf
        """),
    # Italian: pesce (fish), regina, palle, tirare, porco, vacca, pisello (pea) left out.
    "it": _words("""
        cazzo merda culo figa fica coglioni coglione tette stronzo stronza stronzata porca
        troia puttana vaffanculo cagare cagata cazzata minchia scopare scopata cesso sega balle
        mona pompino fottere pisciare bordello frocio
        porno negro xxx bastardo dick ass fuck cum wtf milf
        """),
    # Portuguese: comer (eat), inferno, saco, pau, gozar, pênis, chupar, negro left out.
    "pt": _words("""
        merda porra puta foda foder caralho cu vadia cacete bosta sacanagem corno bicha cagar
        buceta puto dick porno ass
        """),
    # Dutch: beurt (turn), gat (hole), naakt, pot, nicht, naaien (sew), eikel, poep left out.
    "nl": _words("""
        neuken shit lul kont kut del pik hoer pijpen slet godverdomme reet stront wijf
        flikker klootzak kloten teef vingeren schijt
        xxx dick fuck porno bbw ass pussy bitch fucking cum milf cock
        """),
    # Polish: jajko (egg), debil, syf, nad (over), wad (defects), pasty (pastes) left out.
    "pl": _words("""
        kurwa kurwy gówno gowno chuj dupa jebany jebać zajebisty pieprzyć suka pierdolić
        burdel dziwka kutas rzygać pojebany
        porno fuck wtf xxx shit dick ruski lmao damn
        """),
    # Swedish: hård (hard), sås (sauce), tusan, slut (end), puss (kiss), kock (cook) left out.
    "sv": _words("""
        fan helvete jävlar knulla kuk fitta satan röv skita rövhål runka neger
        fuck shit ass dick fucking piss bitch wtf bullshit damn fucked
        """),
    # Danish: slut (end), tit (often), fag (subject), smut, tosser (fools) left out.
    "da": _words("""
        røv lort pik pis luder fisse røvhul
        fuck fucking porno dick ass bitch fucked pussy damn porn shit
        """),
    # Norwegian: pokker, sinnsykt (insanely), fag (subject), pusse (clean), len left out.
    "nb": _words("""
        faen jævla jævlig dritt helvete ræva forbanna forbannet fan fitte satan pikk
        drittsekk kuk skitt
        fuck shit porno ass hore piss dick bullshit pussy wtf pisser bitch fuckings fucked damn
        """),
    # Finnish: pistää (put), jätkä (guy), panna (put), muna (egg), reikä (hole), hitto, piru
    # (darn) left out.
    "fi": _words("""
        vittu vitun vituttaa vitusti vittuilla paska perkele perse mulkku neekeri helvetisti
        kusipää naida narttu kusi kusta saatanasti kulli lutka nussia
        dick fuck fucking pron porno shit ass wtf
        """),
    # Czech: debil, nad (over), fuk ("no matter"), soused (neighbour), semen (seed) left out.
    "cs": _words("""
        kurva prdel hovno bordel hajzl srát sračka čurák zmrd
        porno dick xxx fuck
        """),
    # Russian: секс (sex), голый (naked), фига (a fig) left out.
    "ru": _words("""
        блядь дерьмо хрен хуй сиськи говно ебать
        """),
    # Turkish: kum (sand), gey, tampon, dink (a name) left out; got is göt folded.
    "tr": _words("""
        orospu siktir am göt got sik siki sikmek amcık yarak çingene götten götü taşak
        porno dick fuck porn xxx
        """),
    # Hungarian: barom, marha (cattle), franc, pofa (mug), teste (body) left out.
    "hu": _words("""
        kurva szar szart szarok fasz faszt kibaszott picsa punci pöcs bazmeg geci seggfej
        pina balfasz
        dick cum porn nigger
        """),
    # Arabic: فرج (vulva; relief, a name), قضيب (rod), مص (suck), شهوة (desire) left out.
    "ar": _words("""
        نيك سكس اغتصاب كس عاهرة طيز زب
        """),
    # Persian: تجاوز (transgression), منی (semen), سوپر (super), لخت and برهنه (naked),
    # سکسی (sexy), شهوت (lust), ارگاسم (orgasm) left out.
    "fa": _words("""
        کس سکس کون جنده کیر هرزه پورن کونی داف کیری پورنو
        """),
    # Filipino: tanga and bobo (stupid), guro (teacher), paki (please), puto (a rice cake),
    # mong, arian left out.
    "fil": _words("""
        burat bayag kantot ulol tangina
        titi shit boobs porn rape fuck cum milf shota negro dick ass damn
        """),
    # Hindi: its list has no common entry.
    "hi": _words("""
        rape porn
        """),
}

#: cpwords' own additions to a language's list: words its designs showed that the lists miss
#: (French "catin", a slur for a prostitute, in the generated boxes of issue 47).
ADDITIONS: dict[str, tuple[str, ...]] = {
    "fr": ("catin", "catins", "pétasse", "pétasses", "bougnoule", "bougnoules", "youpin"),
}

#: cpwords' language code -> LDNOOBW's, where they differ.
LDNOOBW_CODES = {"nb": "no"}


@dataclass(frozen=True)
class Blocklist:
    """A set of blocked words and where they came from.

    Attributes
    ----------
    words : frozenset of str
        Lower-case words; a word is blocked when it is one of them, in any case (the list
        holds its own inflections: "fucks", "sucked"; adding a plural rule blocked "assess"
        and "spaces").
    source : str
        For messages and JSON (``"better-profanity 0.7.0 + mine.txt"``, ``"off"``).
    """

    words: frozenset[str]
    source: str

    def blocks(self, word: str) -> bool:
        """Whether ``word`` (any case) is blocked.

        Examples
        --------
        >>> b = Blocklist(frozenset({"damn"}), "test")
        >>> b.blocks("Damn"), b.blocks("dam")
        (True, False)
        """
        return word.lower() in self.words

    def any_blocked(self, words: Iterable[str]) -> list[str]:
        """The blocked words among ``words``, in order."""
        return [w for w in words if self.blocks(w)]

    def __bool__(self) -> bool:
        return bool(self.words)


def _better_profanity() -> list[str]:
    """``better-profanity``'s word list, as it is.

    Raises
    ------
    InputError
        The package is not installed (it is a dependency of cpwords).
    """
    from importlib import resources

    try:
        text = (
            resources.files("better_profanity")
            .joinpath("profanity_wordlist.txt")
            .read_text(encoding="utf-8")
        )
    except (ModuleNotFoundError, FileNotFoundError):
        raise InputError(
            "the default blocklist needs the package better-profanity (pip install "
            "better-profanity), or give --no-blocklist"
        ) from None
    return text.splitlines()


@functools.cache
def _ldnoobw() -> dict[str, list[str]]:
    """LDNOOBW's lists as shipped: language code -> entries."""
    from importlib import resources

    text = resources.files("cpwords.data").joinpath("blocklists/ldnoobw.json").read_text("utf-8")
    lists: dict[str, list[str]] = json.loads(text)["lists"]
    return lists


def list_entries(lang: str) -> frozenset[str]:
    """Every entry of language ``lang``'s lists (lower case), before the common-word rule:
    better-profanity's for English, LDNOOBW's, and cpwords' :data:`ADDITIONS`.

    Parameters
    ----------
    lang : str
        An ISO 639 code; a language no list has gets none.

    Returns
    -------
    frozenset of str
    """
    entries = list(_ldnoobw().get(LDNOOBW_CODES.get(lang, lang), []))
    entries += ADDITIONS.get(lang, ())
    if lang == "en":
        entries += _better_profanity()
    return frozenset(e.strip().lower() for e in entries if e.strip())


@functools.cache
def _measurable(lang: str) -> bool:
    """Whether wordfreq gives words' frequencies in ``lang``: it has a list of the language,
    and can split its text (Japanese, Korean and Chinese need wordfreq's ``cjk`` extra, MeCab
    and jieba; without it their lists are taken whole)."""
    from wordfreq import available_languages, zipf_frequency

    if lang not in available_languages():
        return False
    try:
        zipf_frequency("a", lang)
    except ImportError:
        return False
    return True


def _common(word: str, lang: str) -> float:
    """``word``'s Zipf frequency in ``lang`` (0 where wordfreq cannot tell:
    :func:`_measurable`)."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word, lang) if _measurable(lang) else 0.0


def _ordinary(word: str, lang: str) -> bool:
    """Whether a list's entry is an ordinary common word of ``lang`` (left out of the default):
    a common word (:data:`COMMON_ZIPF`) of a reviewed language, not one of its real profanity."""
    return (
        lang in PROFANE
        and word.isalpha()
        and word not in PROFANE[lang]
        and _common(word, lang) >= COMMON_ZIPF
    )


@functools.cache
def default_blocklist_words(lang: str = "en") -> frozenset[str]:
    """The default blocklist of language ``lang`` (see the module's notes): its list's entries
    less its ordinary common words, cpwords' additions, English's entries that are not
    ordinary words of ``lang``, each with its accent-folded form.

    Parameters
    ----------
    lang : str
        The puzzle's language (ISO 639 code, ``--lang``).

    Returns
    -------
    frozenset of str
        Lower-case words.

    Raises
    ------
    InputError
        better-profanity is not installed.

    Examples
    --------
    >>> words = default_blocklist_words("en")
    >>> "fuck" in words, "organ" in words
    (True, False)
    """
    from cpwords.core.alphabet import fold_accents

    words = {w for w in list_entries(lang) if not _ordinary(w, lang)}
    if lang != "en":  # English profanity in the language's text; not its own ordinary words
        words |= {w for w in default_blocklist_words("en") if not _ordinary_here(w, lang)}
    folded = {fold_accents(w) for w in words} - words
    return frozenset(words | {w for w in folded if not _ordinary(w, lang)})


def _ordinary_here(word: str, lang: str) -> bool:
    """Whether an entry of the English list is an ordinary word of ``lang`` (German "dick",
    Spanish "negro"): as :func:`_ordinary` in a reviewed language (whose :data:`PROFANE`
    names the English profanity common in it), else a common word more common in ``lang``
    than in English."""
    if lang in PROFANE:
        return _ordinary(word, lang)
    return word.isalpha() and _common(word, lang) >= max(COMMON_ZIPF, _common(word, "en"))


def default_source(lang: str = "en") -> str:
    """Where language ``lang``'s default blocklist comes from, for messages and JSON
    (``"better-profanity 0.7.0 + LDNOOBW en"``, ``"LDNOOBW fr + cpwords fr + English"``).

    Parameters
    ----------
    lang : str

    Returns
    -------
    str
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        english = f"{DEFAULT_SOURCE} {version(DEFAULT_SOURCE)} + LDNOOBW en"
    except PackageNotFoundError:  # pragma: no cover - read before, so installed
        english = f"{DEFAULT_SOURCE} + LDNOOBW en"
    if lang == "en":
        return english
    parts = [f"LDNOOBW {lang}"] if LDNOOBW_CODES.get(lang, lang) in _ldnoobw() else []
    parts += [f"cpwords {lang}"] if lang in ADDITIONS else []
    return " + ".join([*parts, f"English ({english})"])


def load_blocklist(
    extra: str | Path | None = None, enabled: bool = True, lang: str = "en"
) -> Blocklist:
    """The blocklist of a generating command: the language's default list plus a file of
    one's own.

    Parameters
    ----------
    extra : path-like, optional
        A UTF-8 file of words to block too, one a line (``#`` starts a comment).
    enabled : bool
        False turns the default list off (``--no-blocklist``); ``extra`` still applies.
    lang : str
        The puzzle's language (``--lang``): whose default list (:func:`default_blocklist_words`).

    Returns
    -------
    Blocklist

    Raises
    ------
    InputError
        The extra file is missing, a directory, unreadable or not UTF-8.
    """
    lang = lang.strip().lower()
    words: set[str] = set()
    parts: list[str] = []
    if enabled:
        words |= default_blocklist_words(lang)
        parts.append(default_source(lang))
    if extra is not None:
        words |= _own_words(Path(extra))
        parts.append(str(extra))
    return Blocklist(frozenset(words), " + ".join(parts) if parts else "off")


def _own_words(p: Path) -> set[str]:
    """The words of a designer's blocklist file (lower case; ``#`` comments left out)."""
    if not p.is_file():
        what = "a directory" if p.is_dir() else "not found"
        raise InputError(f"blocklist file {p} is {what}")
    try:
        text = p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"blocklist file {p} is not UTF-8 text") from None
    except OSError as exc:
        raise InputError(f"cannot read blocklist file {p}: {exc.strerror}") from None
    words = set()
    for line in text.splitlines():
        w = line.split("#", 1)[0].strip().lower()
        if w:
            words.add(w)
    return words
