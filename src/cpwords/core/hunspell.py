"""Hunspell dictionaries (``.dic`` + ``.aff``): every word form their affix rules allow.

A Hunspell dictionary stores stems with flags (``читать/BLMP``); the ``.aff`` file says what
each flag adds (``SFX B ть ешь ть``: strip ``ть``, add ``ешь`` where the stem ends in ``ть``).
:func:`expand_dictionary` applies them the way Hunspell's own checker accepts words: the stem
(unless flagged NEEDAFFIX or ONLYINCOMPOUND, or its first homonym FORBIDDENWORD), each suffix
and prefix whose condition the stem meets, a prefix on a suffixed form where every affix
allows the cross product, a second suffix where the first one's continuation flags name it
(twofold suffixes), a CIRCUMFIX suffix with a CIRCUMFIX prefix only; the roles on affixes as
Hunspell 1.7 reads them (:func:`_affixed`: FORBIDDENWORD counts on stems only, the outer suffix
of a twofold one adds no role). Compounds (COMPOUNDFLAG, COMPOUNDRULE) are not expanded: they
make an unbounded set, and a word game takes the dictionary's own words.

Measured against ``hunspell -G`` (issue 48) on 3,000 random tables of the four roles, prefixes,
twofold suffixes and homonyms: the same forms on all but 4, each a form with two readings, one
resting on a FORBIDDENWORD or ONLYINCOMPOUND homonym that also carries affix flags: Hunspell
keeps the first reading it finds (by its tables' inner order), this expansion refuses the form.
``hunspell-ru`` and ``hunspell-cs`` expand to the same forms as before.

Why not Hunspell's ``unmunch`` (Debian ``hunspell-tools``): measured on ``hunspell-ru``, it
matches conditions byte by byte, so in UTF-8 it loses 181,666 of the 1,437,107 forms Hunspell
accepts (``абонируем``...) and emits 21 that Hunspell rejects (``зачела``...); this expansion
gives exactly the forms, each accepted by ``hunspell -G``
(``tests/core/test_hunspell.py`` checks that where ``hunspell`` is installed).

The expansion of a large dictionary takes seconds (``ru_RU``: about 20 s), so
:func:`expanded_words` caches it in the user's cache directory (``platformdirs``;
``$CPWORDS_CACHE_DIR`` overrides it), keyed by both files' contents and the expansion's version
(:func:`source_digest`); nothing is ever written beside the dictionary.

References
----------
Hunspell's manual page ``hunspell(5)`` (the ``.aff``/``.dic`` formats).
"""

from __future__ import annotations

import codecs
import hashlib
import os
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from cpwords.core.errors import InputError, excerpt

#: Bump when the expansion changes, so that cached expansions are made anew.
EXPANSION_VERSION = 2  # 2: the roles as hunspell -G reads them (issue 48)


@dataclass(frozen=True)
class Affix:
    """One row of a ``PFX``/``SFX`` table.

    Attributes
    ----------
    flag : str
        The flag that names its table.
    cross : bool
        Whether it combines with an affix of the other kind (the table's ``Y``).
    strip : str
        What it removes from the stem (``0`` in the file: nothing).
    add : str
        What it adds.
    cont : frozenset of str
        Its continuation flags (``add/FLAGS``): a second suffix, NEEDAFFIX, CIRCUMFIX...
    cond : re.Pattern or None
        The stem's condition (anchored at the stem's end for a suffix, its start for a prefix);
        None when every stem that holds ``strip`` meets it (``.``, or the condition is
        ``strip`` itself).
    """

    flag: str
    cross: bool
    strip: str
    add: str
    cont: frozenset[str]
    cond: re.Pattern[str] | None


@dataclass
class AffixRules:
    """What an ``.aff`` file says, as far as expanding words needs.

    Attributes
    ----------
    encoding : str
        The Python codec of both files (from ``SET``; ISO 8859-1 without one, as in Hunspell).
    flag_type : str
        ``char`` (one character a flag), ``long`` (two), ``num`` (numbers, comma-separated) or
        ``UTF-8`` (one character).
    prefixes, suffixes : dict of str to list of Affix
        The tables by flag.
    aliases : list of frozenset of str
        ``AF`` flag sets (a ``.dic`` entry then names one by its number, from 1).
    needaffix, forbidden, onlyincompound, circumfix : str or None
        The flags of those roles (``PSEUDOROOT`` is NEEDAFFIX's old name).
    fullstrip : bool
        Whether an affix may strip the whole stem.
    """

    encoding: str = "iso8859-1"
    flag_type: str = "char"
    prefixes: dict[str, list[Affix]] = field(default_factory=dict)
    suffixes: dict[str, list[Affix]] = field(default_factory=dict)
    aliases: list[frozenset[str]] = field(default_factory=list)
    needaffix: str | None = None
    forbidden: str | None = None
    onlyincompound: str | None = None
    circumfix: str | None = None
    fullstrip: bool = False
    #: The suffixes of each flag by what they strip, and the lengths stripped (built by
    #: :meth:`index`: a stem is then checked only against the rows whose strip it ends with).
    by_strip: dict[str, dict[str, list[Affix]]] = field(default_factory=dict)
    strip_lengths: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def index(self) -> None:
        """Index the suffix tables by what each row strips."""
        for flag, rows in self.suffixes.items():
            table: dict[str, list[Affix]] = {}
            for a in rows:
                table.setdefault(a.strip, []).append(a)
            self.by_strip[flag] = table
            self.strip_lengths[flag] = tuple(sorted({len(k) for k in table}))

    def matching_suffixes(self, word: str, flag: str) -> Iterator[Affix]:
        """The suffixes of ``flag`` whose strip ``word`` ends with."""
        table = self.by_strip.get(flag)
        if table is None:
            return
        n = len(word)
        for k in self.strip_lengths[flag]:
            if k < n or (k == n and self.fullstrip):
                yield from table.get(word[n - k :], ())

    def split_flags(self, text: str) -> frozenset[str]:
        """The flags written ``text``, or where ``AF`` aliases are defined, those of the alias
        it numbers.

        Examples
        --------
        >>> sorted(AffixRules(flag_type="long").split_flags("AaBb"))
        ['Aa', 'Bb']
        >>> sorted(AffixRules(flag_type="num").split_flags("12,7"))
        ['12', '7']
        """
        if self.aliases:  # then every flag field is an alias's number (as Hunspell reads it)
            n = len(self.aliases)
            # ASCII digits only ("²".isdigit() is true), and few: int() refuses 4,300 digits.
            if re.fullmatch(r"[0-9]{1,9}", text) is None:
                raise InputError(
                    f"Hunspell flag alias {excerpt(text, 20)!r} is not a number from 1 to {n} (AF)"
                )
            k = int(text)
            if not 1 <= k <= n:
                raise InputError(f"Hunspell flag alias {k} is not defined (AF, 1 to {n})")
            return self.aliases[k - 1]
        return self.raw_flags(text)

    def raw_flags(self, text: str) -> frozenset[str]:
        """The flags written ``text`` in the ``FLAG`` format (no alias)."""
        if self.flag_type == "long":
            return frozenset(text[i : i + 2] for i in range(0, len(text), 2))
        if self.flag_type == "num":
            return frozenset(f for f in text.split(",") if f)
        return frozenset(text)


def python_encoding(name: str) -> str:
    """The Python codec of a Hunspell ``SET`` value.

    Raises
    ------
    InputError
        An encoding Python does not know.

    Examples
    --------
    >>> python_encoding("UTF-8"), python_encoding("microsoft-cp1251"), python_encoding("KOI8-R")
    ('utf-8', 'cp1251', 'koi8-r')
    """
    key = name.strip().lower().removeprefix("microsoft-")
    key = {"tis620-2533": "tis-620", "iscii-devanagari": "iscii"}.get(key, key)
    try:
        return codecs.lookup(key).name
    except LookupError:
        raise InputError(f"Hunspell encoding {name!r} is not one Python reads") from None


def aff_encoding(data: bytes) -> str:
    """The encoding an ``.aff`` file declares (``SET``), as a Python codec name.

    Examples
    --------
    >>> aff_encoding(b"# x\\nSET KOI8-R\\nTRY abc\\n"), aff_encoding(b"TRY abc\\n")
    ('koi8-r', 'iso8859-1')
    """
    m = re.search(rb"^\s*SET\s+(\S+)", data, re.MULTILINE)
    return python_encoding(m.group(1).decode("ascii", "replace")) if m else "iso8859-1"


def condition_regex(cond: str, suffix: bool) -> re.Pattern[str]:
    """A Hunspell affix condition (``[^аеи]кий``, ``.``) as a regular expression anchored at
    the stem's end (suffix) or start (prefix).

    Examples
    --------
    >>> bool(condition_regex("[^ёа]кий", True).search("крепкий"))
    True
    >>> bool(condition_regex("[^ёа]кий", True).search("краснощёкий"))
    False
    >>> un = condition_regex("un.", False)
    >>> bool(un.match("undo")), bool(un.match("do"))
    (True, False)

    Raises
    ------
    InputError
        An empty class (``[]``, ``[^]``), or a condition that is no pattern.
    """
    out = []
    for m in re.finditer(r"\[(\^?)([^\]]*)\]|(.)", cond):
        if m.group(3) is not None:
            out.append("." if m.group(3) == "." else re.escape(m.group(3)))
        elif not m.group(2):
            raise InputError(
                f"Hunspell affix condition {excerpt(cond, 40)!r} holds an empty class "
                f"({m.group(0)})"
            )
        else:
            chars = "".join(re.escape(c) for c in m.group(2))
            out.append(f"[{m.group(1)}{chars}]")
    rx = "".join(out)
    try:
        return re.compile(f"(?:{rx})$" if suffix else f"^(?:{rx})")
    except re.error as exc:  # every character is escaped: a last guard
        raise InputError(f"Hunspell affix condition {excerpt(cond, 40)!r}: {exc}") from None


_ROLES = {
    "NEEDAFFIX": "needaffix",
    "PSEUDOROOT": "needaffix",
    "FORBIDDENWORD": "forbidden",
    "ONLYINCOMPOUND": "onlyincompound",
    "CIRCUMFIX": "circumfix",
}


def parse_aff(text: str, encoding: str = "utf-8") -> AffixRules:
    """Read an ``.aff`` file's text (already decoded; ``encoding`` is recorded for its ``.dic``).

    Raises
    ------
    InputError
        A malformed affix table.

    Examples
    --------
    >>> rules = parse_aff("SFX S Y 1\\nSFX S y ies [^aeiou]y\\n")
    >>> [(a.strip, a.add) for a in rules.suffixes["S"]]
    [('y', 'ies')]
    """
    rules = AffixRules(encoding=encoding)
    rows = [line.split() for line in _dic_lines(text)]
    rows = [r for r in rows if r and not r[0].startswith("#")]
    seen_af_header = False
    for r in rows:  # the flag format first: the tables' flags depend on it
        if r[0] == "FLAG" and len(r) > 1:
            rules.flag_type = r[1]
    for r in rows:
        key = r[0]
        if key in _ROLES and len(r) > 1:
            setattr(rules, _ROLES[key], r[1])
        elif key == "FULLSTRIP":
            rules.fullstrip = True
        elif key == "AF" and len(r) > 1:
            if seen_af_header:
                rules.aliases.append(rules.raw_flags(r[1]))
            seen_af_header = True  # the first AF line is the count
    _read_tables(rows, rules)
    return rules


def _read_tables(rows: list[list[str]], rules: AffixRules) -> None:
    """Fill ``rules``' prefix and suffix tables from the ``.aff`` rows."""
    cross: dict[tuple[str, str], bool] = {}
    for r in rows:
        if r[0] not in ("PFX", "SFX") or len(r) < 4:
            continue
        kind, flag = r[0], r[1]
        if (kind, flag) not in cross and r[2] in ("Y", "N") and r[3].isdigit():
            cross[kind, flag] = r[2] == "Y"
            continue
        if (kind, flag) not in cross:
            raise InputError(f"Hunspell {kind} {flag}: a row before its table's header")
        strip = "" if r[2] == "0" else r[2]
        add, _, cont = r[3].partition("/")
        add = "" if add == "0" else add
        cond = r[4] if len(r) > 4 else "."
        rx = None if cond in (".", strip) else condition_regex(cond, kind == "SFX")
        table = rules.suffixes if kind == "SFX" else rules.prefixes
        table.setdefault(flag, []).append(
            Affix(
                flag,
                cross[kind, flag],
                strip,
                add,
                rules.split_flags(cont) if cont else frozenset(),
                rx,
            )
        )
    rules.index()


def parse_dic_line(line: str, rules: AffixRules) -> tuple[str, frozenset[str]]:
    """A ``.dic`` entry's stem and flags (morphological fields after a space or tab are
    ignored; ``\\/`` is a slash in the stem).

    Examples
    --------
    >>> stem, flags = parse_dic_line("читать/BLMP po:verb", AffixRules())
    >>> stem, sorted(flags)
    ('читать', ['B', 'L', 'M', 'P'])
    >>> parse_dic_line("km\\\\/h", AffixRules())
    ('km/h', frozenset())
    """
    entry = line.split(maxsplit=1)[0] if line.strip() else ""
    m = re.search(r"(?<!\\)/", entry)
    stem, flags = (entry[: m.start()], entry[m.end() :]) if m else (entry, "")
    return stem.replace("\\/", "/"), rules.split_flags(flags) if flags else frozenset()


def _apply_prefix(word: str, a: Affix, fullstrip: bool) -> str | None:
    if not word.startswith(a.strip) or (len(a.strip) >= len(word) and not fullstrip):
        return None
    if a.cond is not None and not a.cond.match(word):
        return None
    return a.add + word[len(a.strip) :]


class _Suffixed(NamedTuple):
    """A stem with one suffix (``inner``), or two (``outer`` named by ``inner``'s continuation
    flags): the form, the stem flag that names ``inner``, the suffixes from the stem outwards."""

    form: str
    flag: str
    inner: Affix
    outer: Affix | None = None


def _suffixed(stem: str, flags: frozenset[str], rules: AffixRules) -> Iterator[_Suffixed]:
    """The stem with one suffix, then with a second one where the first's continuation flags
    name it (a twofold suffix)."""
    for f in flags:
        for a in rules.matching_suffixes(stem, f):
            if a.cond is not None and not a.cond.search(stem):
                continue
            form = stem[: len(stem) - len(a.strip)] + a.add
            yield _Suffixed(form, f, a)
            for g in a.cont:
                for b in rules.matching_suffixes(form, g):
                    if b.cond is None or b.cond.search(form):
                        yield _Suffixed(form[: len(form) - len(b.strip)] + b.add, f, a, b)


def _has(flag: str | None, flags: frozenset[str]) -> bool:
    return flag is not None and flag in flags


def _affixed(
    stem: str, flags: frozenset[str], rules: AffixRules
) -> Iterator[tuple[str, frozenset[str], bool]]:
    """Every affixed form of one entry that ``hunspell -G`` accepts, with the stem flags it
    rests on (the homonym Hunspell checks it against is the first entry holding them) and
    whether it has a suffix (then ONLYINCOMPOUND homonyms are passed over in that search).

    The roles, as Hunspell 1.7 reads them (measured with ``hunspell -G``, issue 48):
    NEEDAFFIX on a stem asks for an affix; on a suffix or a prefix, for another affix (a
    prefix and a suffix that both need one do not do); ONLYINCOMPOUND on a stem or an inner
    suffix rules out every form, on a prefix its forms without a twofold suffix; CIRCUMFIX
    pairs a prefix with the inner suffix (a CIRCUMFIX prefix may stand alone, a CIRCUMFIX
    suffix may not); FORBIDDENWORD counts on stems only (:func:`expand_dictionary`). The outer
    suffix of a twofold one adds nothing: its continuation flags are not read.
    """
    need, only, circ = rules.needaffix, rules.onlyincompound, rules.circumfix
    one = frozenset(r for r in (need, circ, only) if r is not None)  # refuse one suffix
    two = one - {need} if need is not None else one  # refuse the inner of two
    no_prefix = frozenset(r for r in (need, only) if r is not None)  # refuse a prefix alone
    sfx = list(_suffixed(stem, flags, rules))
    for s in sfx:
        if s.inner.cont.isdisjoint(one if s.outer is None else two):
            yield s.form, frozenset((s.flag,)), True
    for f in flags:
        for p in rules.prefixes.get(f, ()):
            pform = _apply_prefix(stem, p, rules.fullstrip)
            if pform is not None and p.cont.isdisjoint(no_prefix):
                yield pform, frozenset((f,)), False
    if rules.prefixes:
        yield from _prefixed_suffixed(flags, sfx, rules)


def _prefixed_suffixed(
    flags: frozenset[str], sfx: list[_Suffixed], rules: AffixRules
) -> Iterator[tuple[str, frozenset[str], bool]]:
    """A prefix on each suffixed form, under the roles of :func:`_affixed`.

    The prefix is one of the stem's flags or of the inner suffix's continuation flags, and
    every affix allows the cross product; or, on a twofold suffix, one that the outer suffix's
    continuation flags name: then Hunspell reads the inner suffix as without a prefix (only
    the prefix and the outer suffix need the cross product, and no CIRCUMFIX pairs them).
    """
    only, circ = rules.onlyincompound, rules.circumfix
    for s in sfx:
        a, b = s.inner, s.outer
        if _has(only, a.cont):
            continue
        # Each prefix flag: the stem flags the form rests on, and whether the outer suffix
        # names it (Hunspell's reading then).
        named: dict[str, tuple[frozenset[str], bool]] = {}
        outer = frozenset() if b is None else b.cont  # a prefix it names is read its way only
        if b is not None and b.cross and not _has(circ, a.cont):
            named.update((f, (frozenset({s.flag}), True)) for f in b.cont)
        if a.cross and (b is None or b.cross):
            for f in a.cont - outer:
                named.setdefault(f, (frozenset({s.flag}), False))
            for f in flags - outer:
                named.setdefault(f, (frozenset({f, s.flag}), False))
        seen: set[str] = set()
        for f, (key, by_outer) in named.items():
            for p in rules.prefixes.get(f, ()):
                if not p.cross or not (by_outer or _pairs(p, s, rules)):
                    continue
                pform = _apply_prefix(s.form, p, rules.fullstrip)
                if pform is not None and pform not in seen:
                    seen.add(pform)
                    yield pform, key, True


def _pairs(p: Affix, s: _Suffixed, rules: AffixRules) -> bool:
    """Whether prefix ``p`` goes with the suffixes of ``s`` (a prefix the stem or the inner
    suffix names): CIRCUMFIX on both or neither of ``p`` and the inner suffix; with one suffix
    also no ONLYINCOMPOUND on ``p``, and not NEEDAFFIX on both."""
    need, only, circ = rules.needaffix, rules.onlyincompound, rules.circumfix
    if _has(circ, p.cont) != _has(circ, s.inner.cont):
        return False
    if s.outer is not None:
        return True
    return not (_has(only, p.cont) or (_has(need, s.inner.cont) and _has(need, p.cont)))


def expand_entry(stem: str, flags: frozenset[str], rules: AffixRules) -> Iterator[str]:
    """Every word form of one ``.dic`` entry on its own (see :func:`_affixed` for the rules; a
    FORBIDDENWORD entry has none, and :func:`expand_dictionary` weighs homonyms).

    Examples
    --------
    >>> rules = parse_aff("PFX U Y 1\\nPFX U 0 un .\\nSFX D Y 1\\nSFX D 0 ed .\\n")
    >>> sorted(expand_entry("lock", frozenset("UD"), rules))
    ['lock', 'locked', 'unlock', 'unlocked']
    """
    if _has(rules.forbidden, flags) or _has(rules.onlyincompound, flags):
        return
    if not _has(rules.needaffix, flags):
        yield stem
    for form, _key, _suffix in _affixed(stem, flags, rules):
        yield form


def expand_dictionary(dic_text: str, rules: AffixRules) -> set[str]:
    """Every word form of a ``.dic`` text (its first line, the entry count, is skipped), NFC.

    Homonyms (entries of the same stem) are weighed as Hunspell does, in the file's order: a
    stem is no word when its first entry is FORBIDDENWORD (and then no form of any entry
    spelled like it is one), and a word on its own when an entry has neither NEEDAFFIX nor
    ONLYINCOMPOUND; an affixed form counts when the first entry holding the flags it rests on
    (past the ONLYINCOMPOUND ones, for a form with a suffix) is neither FORBIDDENWORD nor
    ONLYINCOMPOUND, and is refused when a reading of it rests on such an entry (Hunspell stops
    at the first reading it finds).

    Parameters
    ----------
    dic_text : str
        The ``.dic`` file, decoded.
    rules : AffixRules
        The ``.aff`` file's rules (:func:`parse_aff`).

    Returns
    -------
    set of str

    Examples
    --------
    >>> rules = parse_aff("SFX S Y 2\\nSFX S 0 s [^y]\\nSFX S y ies y\\n")
    >>> sorted(expand_dictionary("2\\ncat/S\\nfly/S\\n", rules))
    ['cat', 'cats', 'flies', 'fly']
    >>> rules = parse_aff("FORBIDDENWORD F\\nSFX S Y 1\\nSFX S 0 s .\\n")
    >>> sorted(expand_dictionary("2\\nfoo/S\\nfoo/F\\n", rules))  # the first entry decides
    ['foo', 'foos']
    """
    homonyms: dict[str, list[frozenset[str]]] = {}
    lines = _dic_lines(dic_text)
    start = 1 if lines and lines[0].strip().isdigit() else 0
    for line in lines[start:]:
        stem, flags = parse_dic_line(line, rules)
        if stem:
            homonyms.setdefault(stem, []).append(flags)
    forb, need, only = rules.forbidden, rules.needaffix, rules.onlyincompound
    out: set[str] = set()
    forbidden: set[str] = set()
    for stem, entries in homonyms.items():
        if _has(forb, entries[0]):
            forbidden.add(stem)
        elif any(not (_has(need, e) or _has(only, e)) for e in entries):
            out.add(stem)
        if len(entries) == 1 and not (_has(forb, entries[0]) or _has(only, entries[0])):
            out.update(form for form, _key, _suffix in _affixed(stem, entries[0], rules))
            continue  # its own root: nothing to weigh
        for flags in entries:
            for form, key, suffix in _affixed(stem, flags, rules):
                # Hunspell's root: the first homonym holding the flags (its suffix search
                # passes over the ONLYINCOMPOUND ones, its prefix search does not).
                root = next(
                    (e for e in entries if key <= e and not (suffix and _has(only, e))), None
                )
                if root is None:
                    continue
                if _has(forb, root) or _has(only, root):
                    forbidden.add(form)  # Hunspell stops at such a root: no other reading
                else:
                    out.add(form)
    return {unicodedata.normalize("NFC", w) for w in out - forbidden}


def _dic_lines(text: str) -> list[str]:
    """A ``.dic`` or ``.aff`` file's lines, split at ``\\n`` (and ``\\r\\n``) only, as
    Hunspell reads them (not at U+2028 and the other breaks of :meth:`str.splitlines`)."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def read_hunspell(dic: Path, aff: Path) -> list[str]:
    """Expand a Hunspell dictionary's files (no cache): its word forms, sorted.

    Parameters
    ----------
    dic, aff : pathlib.Path
        The ``.dic`` (stems and their flags) and ``.aff`` (affix rules, ``SET`` encoding) files.

    Returns
    -------
    list of str
        Every word form the rules give, NFC, sorted by code point (Russian's 146,269 stems:
        1,437,107 forms).

    Raises
    ------
    InputError
        A file that cannot be read or decoded in the ``SET`` encoding, or a malformed table.
    """
    try:
        aff_bytes = aff.read_bytes()
        encoding = aff_encoding(aff_bytes)
        rules = parse_aff(aff_bytes.decode(encoding), encoding)
        dic_text = dic.read_bytes().decode(encoding)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the Hunspell dictionary {dic}: {exc}") from None
    return sorted(expand_dictionary(dic_text, rules))


def cache_dir() -> Path:
    """Where expansions are cached: ``$CPWORDS_CACHE_DIR`` or the platform's user cache dir."""
    env = os.environ.get("CPWORDS_CACHE_DIR")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("cpwords"))


def source_digest(dic: Path, aff: Path) -> str:
    """SHA-256 of both files' contents and of :data:`EXPANSION_VERSION`: what the expansion
    depends on, so what every cache made from it is keyed by.

    Parameters
    ----------
    dic, aff : pathlib.Path
        The dictionary's two files.

    Returns
    -------
    str
        64 hex digits; another ``.dic``, another ``.aff`` or another expansion code (a new
        :data:`EXPANSION_VERSION`) gives another digest, whatever the files' sizes and times.

    Raises
    ------
    OSError
        A file that cannot be read.
    """
    h = hashlib.sha256(f"cpwords hunspell expansion v{EXPANSION_VERSION}".encode())
    for p in (dic, aff):
        part = hashlib.sha256()
        with p.open("rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                part.update(chunk)
        h.update(b"\0" + part.digest())
    return h.hexdigest()


def cache_key(dic: Path, aff: Path) -> str:
    """The expansion's cache key: :func:`source_digest` (both files' contents and the
    expansion's version), shortened."""
    return source_digest(dic, aff)[:24]


def expanded_words(dic: Path, aff: Path) -> list[str]:
    """A Hunspell dictionary's word forms, sorted (:func:`read_hunspell`), from the cache when
    the files have not changed since it was written; written there otherwise (when the cache
    folder cannot be written, the expansion is only not kept).

    Parameters
    ----------
    dic, aff : pathlib.Path
        The dictionary's two files.

    Returns
    -------
    list of str
        As :func:`read_hunspell`.

    Raises
    ------
    InputError
        As :func:`read_hunspell`.
    """
    try:
        path = cache_dir() / "hunspell" / f"{dic.stem}-{cache_key(dic, aff)}.txt"
    except OSError as exc:
        raise InputError(f"cannot read the Hunspell dictionary {dic}: {exc}") from None
    try:
        return path.read_text(encoding="utf-8").split("\n")[:-1]  # one word a line, each ended
    except (OSError, UnicodeDecodeError):
        pass
    words = read_hunspell(dic, aff)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text("".join(w + "\n" for w in words), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass
    return words
