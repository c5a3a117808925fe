"""Issue 30: Hunspell dictionaries (``.dic`` + ``.aff``) expanded to every word form.

The reader is tested on fixtures written here in Hunspell's format (prefixes, suffixes, the
cross product, twofold suffixes, NEEDAFFIX, FORBIDDENWORD, CIRCUMFIX, long flags and ``AF``
aliases, a ``SET`` line in ISO 8859-1 and in UTF-8). Where the ``hunspell`` checker is
installed, Hunspell itself is the oracle: of every string the affixes could make, the
expansion holds exactly those Hunspell accepts.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.core import dictionaries, hunspell
from cpwords.core.dictionaries import dictionary_lexicon, find_dictionary
from cpwords.core.errors import InputError
from cpwords.core.hunspell import expand_dictionary, expanded_words, parse_aff, read_hunspell

#: ISO 8859-1, one-character flags: ``un`` crosses with ``-ed``, ``re`` does not; ``-s``
#: carries ``-ed`` (a twofold suffix); ``pseudo`` needs an affix; ``unbaked`` is forbidden.
LATIN_AFF = """SET ISO8859-1
NEEDAFFIX N
FORBIDDENWORD F
PFX U Y 1
PFX U 0 un .
PFX R N 1
PFX R 0 re .
SFX D Y 2
SFX D 0 ed [^e]
SFX D 0 d e
SFX S Y 1
SFX S 0 s/D .
SFX E N 1
SFX E 0 \u00e9 [^\u00e9]
"""
LATIN_DIC = "5\nlock/UDR\nbake/DU\ncaf/E\npseudo/NS\nunbaked/F\n"
LATIN_FORMS = {
    "lock",
    "locked",
    "unlock",
    "unlocked",
    "relock",
    "bake",
    "baked",
    "unbake",
    "caf",
    "café",
    "pseudos",
    "pseudosed",
}

#: UTF-8, two-character flags named through AF aliases, Cyrillic conditions, a circumfix
#: (``ge-...-t``: the suffix names the prefix, as in Hunspell's own circumfix test).
CYRILLIC_AFF = """SET UTF-8
FLAG long
AF 5
AF AaBb
AF CcAa
AF Tt
AF Xx
AF GgXx
CIRCUMFIX Xx
SFX Aa Y 2
SFX Aa ый ая [^ц]ый
SFX Aa ый ое ый
SFX Bb Y 1
SFX Bb ый ы [^н]ый
PFX Cc Y 1
PFX Cc 0 не .
PFX Gg Y 1
PFX Gg 0 ge/4 .
SFX Tt Y 1
SFX Tt 0 t/5 .
"""
CYRILLIC_DIC = "5\nкрасный/1\nбелый/1\nважный/2\nМосква\nmach/3\n"
CYRILLIC_FORMS = {
    "красный",
    "красная",
    "красное",
    "белый",
    "белая",
    "белое",
    "белы",
    "важный",
    "важная",
    "важное",
    "неважный",
    "неважная",
    "неважное",
    "Москва",
    "mach",
    "gemacht",
}


def write_pair(folder: Path, name: str, aff: str, dic: str, encoding: str) -> tuple[Path, Path]:
    (folder / f"{name}.aff").write_bytes(aff.encode(encoding))
    (folder / f"{name}.dic").write_bytes(dic.encode(encoding))
    return folder / f"{name}.dic", folder / f"{name}.aff"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_prefixes_suffixes_cross_product_twofold_needaffix_forbidden(tmp_path: Path) -> None:
    dic, aff = write_pair(tmp_path, "fx", LATIN_AFF, LATIN_DIC, "latin-1")
    assert (tmp_path / "fx.aff").read_bytes().count(b"\xe9") == 2  # é in ISO 8859-1
    words = set(read_hunspell(dic, aff))
    assert words == LATIN_FORMS
    assert "relocked" not in words  # re- does not cross
    assert "pseudo" not in words  # NEEDAFFIX
    assert "unbaked" not in words  # FORBIDDENWORD


def test_long_flags_aliases_utf8_conditions_circumfix(tmp_path: Path) -> None:
    dic, aff = write_pair(tmp_path, "fx", CYRILLIC_AFF, CYRILLIC_DIC, "utf-8")
    words = set(read_hunspell(dic, aff))
    assert words == CYRILLIC_FORMS
    assert "красны" not in words  # [^н]ый
    assert not {"gemach", "macht"} & words  # a circumfix's halves never alone
    assert all(unicodedata.is_normalized("NFC", w) for w in words)


def test_unknown_encoding_and_bad_table_are_input_errors(tmp_path: Path) -> None:
    dic, aff = write_pair(tmp_path, "fx", "SET X-NOPE\n", "1\na\n", "ascii")
    with pytest.raises(InputError, match="X-NOPE"):
        read_hunspell(dic, aff)
    with pytest.raises(InputError, match="before its table"):
        parse_aff("SFX A 0 s .\n")
    with pytest.raises(InputError, match="alias 7"):
        parse_aff("AF 1\nAF A\n").split_flags("7")
    with pytest.raises(InputError, match="'A' is not a number"):  # with aliases: numbers
        parse_aff("AF 1\nAF A\n").split_flags("A")


def test_the_expansion_is_cached_and_remade_when_a_file_changes(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dic, aff = write_pair(tmp_path, "fx", LATIN_AFF, LATIN_DIC, "latin-1")
    first = expanded_words(dic, aff)
    assert set(first) == LATIN_FORMS
    assert len(list((cache / "hunspell").glob("fx-*.txt"))) == 1
    real = hunspell.read_hunspell

    def refuse(*_a: object) -> list[str]:
        raise AssertionError("expanded again")

    monkeypatch.setattr(hunspell, "read_hunspell", refuse)
    assert expanded_words(dic, aff) == first  # from the cache
    monkeypatch.setattr(hunspell, "read_hunspell", real)
    dic.write_bytes((LATIN_DIC.replace("5\n", "6\n") + "fish/S\n").encode("latin-1"))
    again = expanded_words(dic, aff)
    assert set(again) == LATIN_FORMS | {"fish", "fishs", "fishsed"}
    assert not list(tmp_path.glob("fx*.txt"))  # nothing beside the dictionary


@pytest.fixture
def russian_fixture(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache: Path) -> Iterator[Path]:
    """``hunspell-ru`` replaced by :data:`CYRILLIC_DIC`/:data:`CYRILLIC_AFF`."""
    folder = tmp_path / "hunspell"
    folder.mkdir()
    write_pair(folder, "ru_RU", CYRILLIC_AFF, CYRILLIC_DIC, "utf-8")
    monkeypatch.setattr(dictionaries, "HUNSPELL_DIR", folder)
    monkeypatch.setattr(dictionaries, "DICT_DIR", tmp_path / "nothing")
    monkeypatch.delenv("CPWORDS_DICT_DIR", raising=False)
    dictionary_lexicon.cache_clear()
    yield folder
    dictionary_lexicon.cache_clear()


def test_russian_lexicon_drops_capitalised_entries(russian_fixture: Path) -> None:
    lex = dictionary_lexicon("ru")
    assert lex.source == "hunspell-ru"
    expected = {w for w in CYRILLIC_FORMS if not w[0].isupper()}
    assert set(lex.words) == expected
    dictionary_lexicon.cache_clear()
    assert "москва" in dictionary_lexicon("ru", proper=True).words


def test_missing_hunspell_dictionary_names_its_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dictionaries, "HUNSPELL_DIR", tmp_path)
    monkeypatch.delenv("CPWORDS_DICT_DIR", raising=False)
    dictionary_lexicon.cache_clear()
    (tmp_path / "ru_RU.dic").write_text("1\nдом\n", encoding="utf-8")  # no .aff: not installed
    with pytest.raises(InputError) as exc:
        dictionary_lexicon("ru")
    assert str(exc.value) == (
        "the Russian dictionary (hunspell-ru) is not installed: apt-get install hunspell-ru"
    )


def _hunspell_accepts(folder: Path, name: str, candidates: list[str]) -> set[str]:
    """The candidates Hunspell's checker accepts (``hunspell -G``), one call."""
    res = subprocess.run(
        ["hunspell", "-d", str(folder / name), "-G", "-i", "utf-8"],
        input="\n".join(candidates) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=True,
    )
    return set(res.stdout.split())


def _blind_candidates(dic: str, aff_text: str) -> list[str]:
    """Every string an affix could make, conditions and flags ignored (a superset)."""
    rules = parse_aff(aff_text)
    stems = [line.split("/")[0] for line in dic.splitlines()[1:]]
    sfx = [a for rows in rules.suffixes.values() for a in rows]
    pfx = [a for rows in rules.prefixes.values() for a in rows]
    out = set(stems)
    for s in stems:
        one = {s[: len(s) - len(a.strip)] + a.add for a in sfx if s.endswith(a.strip)}
        two = {w + b.add for w in one for b in sfx if not b.strip}
        out |= one | two
        out |= {p.add + w for p in pfx for w in {s} | one | two}
    return sorted(out)


needs_hunspell = pytest.mark.skipif(
    shutil.which("hunspell") is None,
    reason="the Hunspell checker is absent: apt-get install hunspell",
)


@needs_hunspell
@pytest.mark.parametrize(
    ("aff", "dic", "encoding"),
    [(LATIN_AFF, LATIN_DIC, "latin-1"), (CYRILLIC_AFF, CYRILLIC_DIC, "utf-8")],
)
def test_hunspell_itself_accepts_exactly_the_expansion(
    tmp_path: Path, aff: str, dic: str, encoding: str
) -> None:
    dic_path, aff_path = write_pair(tmp_path, "fx", aff, dic, encoding)
    candidates = _blind_candidates(dic, aff)
    accepted = _hunspell_accepts(tmp_path, "fx", candidates)
    assert set(read_hunspell(dic_path, aff_path)) == accepted


@needs_hunspell
@pytest.mark.slow
def test_the_real_russian_expansion_is_accepted_by_hunspell(cache: Path) -> None:
    d = find_dictionary("ru")
    if not d.installed():
        pytest.skip(f"the Russian dictionary is absent: {d.install}")
    assert d.aff_path is not None
    words = expanded_words(d.path, d.aff_path)
    assert len(words) > 1_000_000  # a stem list would hold 146,269
    sample = random.Random(0).sample(words, 5_000)
    assert _hunspell_accepts(d.path.parent, d.file, sample) == set(sample)


def test_lexicons_lists_the_hunspell_dictionary_with_its_stems(russian_fixture: Path) -> None:
    from cpwords.core.dictionaries import list_lexicons

    rows = {r.name: r for r in list_lexicons()}
    ru, cs = rows["hunspell-ru"], rows["hunspell-cs"]
    assert ru.installed and ru.words == 5 and ru.lang == "ru" and ru.kind == "dictionary"
    assert ".dic/.aff" in ru.source and ru.install == "apt-get install hunspell-ru"
    assert not cs.installed and cs.words is None


def test_lang_ru_truncate_answers_are_the_dictionary_s_forms(
    russian_fixture: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from cpwords.cli import main
    from cpwords.core import languages

    languages.language_lexicon.cache_clear()
    with pytest.raises(SystemExit) as exc:
        main(["truncate", "--lang", "ru", "--json"])
    languages.language_lexicon.cache_clear()
    data = json.loads(capsys.readouterr().out)
    assert exc.value.code == 0 and data["lexicon"] == "hunspell-ru"
    forms = {w for w in CYRILLIC_FORMS if not w[0].isupper()}
    assert data["sequence"] and set(data["sequence"]) <= forms


def _edit_aff_keeping_size_and_time(aff: Path) -> None:
    """``[^н]ый`` becomes ``[^ж]ый`` (so ``красны`` is a form), same bytes, same times."""
    st = aff.stat()
    text = aff.read_text(encoding="utf-8")
    assert "[^н]ый" in text
    aff.write_text(text.replace("[^н]ый", "[^ж]ый"), encoding="utf-8")
    os.utime(aff, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert aff.stat().st_size == st.st_size and aff.stat().st_mtime_ns == st.st_mtime_ns


def test_the_expansion_cache_follows_the_aff_contents_and_the_expansion_version(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dic, aff = write_pair(tmp_path, "fx", CYRILLIC_AFF, CYRILLIC_DIC, "utf-8")
    assert "красны" not in expanded_words(dic, aff)
    _edit_aff_keeping_size_and_time(aff)
    assert "красны" in expanded_words(dic, aff)
    calls: list[Path] = []
    real = hunspell.read_hunspell

    def counted(dic: Path, aff: Path) -> list[str]:
        calls.append(dic)
        return real(dic, aff)

    monkeypatch.setattr(hunspell, "read_hunspell", counted)
    expanded_words(dic, aff)
    assert calls == []  # unchanged: from the cache
    monkeypatch.setattr(hunspell, "EXPANSION_VERSION", hunspell.EXPANSION_VERSION + 1)
    expanded_words(dic, aff)
    assert calls == [dic]  # another expansion code: made anew


def test_the_letterpress_index_of_a_hunspell_dictionary_follows_its_aff(
    russian_fixture: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    from cpwords.core import languages
    from cpwords.letterpress.models.index import load_letterpress_index

    request.addfinalizer(languages.language_lexicon.cache_clear)

    def index() -> tuple[bool, set[str]]:
        dictionary_lexicon.cache_clear()
        languages.language_lexicon.cache_clear()
        found = load_letterpress_index(None, lang="ru")
        return found.from_cache, set(found.words)

    built, words = index()
    assert not built and "красны" not in words and "красная" in words
    assert index()[0]  # the second time, from the cache
    _edit_aff_keeping_size_and_time(russian_fixture / "ru_RU.aff")
    cached, words = index()
    assert not cached and "красны" in words
    monkeypatch.setattr(hunspell, "EXPANSION_VERSION", hunspell.EXPANSION_VERSION + 1)
    assert not index()[0]


@pytest.mark.parametrize(
    ("aff_edit", "dic_edit", "message"),
    [
        ({}, {"красный/1": "красный/\u00b2"}, "'\u00b2' is not a number"),  # "²".isdigit()
        ({}, {"красный/1": "красный/" + "7" * 5000}, "is not a number"),  # int() refuses it
        ({"[^н]ый": "[^]ый"}, {}, "empty class"),
        ({"[^н]ый": "[]ый"}, {}, "empty class"),
        ({"AF 5": "AF 5\nAF \u00b2"}, {}, None),  # an alias line of any flags is fine
    ],
)
def test_a_malformed_hunspell_dictionary_is_one_line_exit_2(
    russian_fixture: Path,
    capsys: pytest.CaptureFixture[str],
    aff_edit: dict[str, str],
    dic_edit: dict[str, str],
    message: str | None,
) -> None:
    from cpwords.cli import main
    from cpwords.core import languages

    for name, edits in (("ru_RU.aff", aff_edit), ("ru_RU.dic", dic_edit)):
        path = russian_fixture / name
        text = path.read_text(encoding="utf-8")
        for old, new in edits.items():
            assert old in text
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
    for args in (["truncate", "--lang", "ru"], ["letterpress", "--lang", "ru", "красныйбелая"]):
        languages.language_lexicon.cache_clear()
        dictionary_lexicon.cache_clear()
        with pytest.raises(SystemExit) as exc:
            main(args)
        languages.language_lexicon.cache_clear()
        _, err = capsys.readouterr()
        if message is None:
            assert exc.value.code == 0 and err == ""
        else:
            assert exc.value.code == 2 and len(err.strip().splitlines()) == 1
            assert err.startswith("cpwords: error: Hunspell") and message in err
            assert len(err) < 200


#: Fields of affix rows and ``.dic`` entries, malformed ones among them.
_FIELDS = st.sampled_from(
    [
        "0",
        "a",
        "ab",
        "\u00b2",
        "[^]",
        "[]",
        "[",
        "]",
        "[^a]",
        "a/B",
        "a/1",
        "a/\u00b2",
        "/",
        ".",
        "9" * 5000,
        "(",
        "\\",
        "*",
        "[a-",
        "[^",
        "[]]",
        "[^]a",
        "x/AB",
        "x/1,2",
        "$",
    ]
)
_ENTRIES = st.sampled_from(
    ["ab", "ab/A", "ab/1", "ab/\u00b2", "a/" + "9" * 5000, "b/AB", "x/", "\\/a/A", "ba/1,2"]
)
_TABLES = st.lists(
    st.tuples(
        st.sampled_from(["SFX", "PFX"]),
        st.sampled_from(["A", "B", "1", "AB"]),
        st.sampled_from("YN"),
        st.lists(st.tuples(_FIELDS, _FIELDS, _FIELDS), min_size=1, max_size=3),
    ),
    max_size=4,
)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["", "FLAG long\n", "FLAG num\n", "FLAG UTF-8\n"]),
    st.booleans(),
    _TABLES,
    st.lists(_ENTRIES, max_size=4),
)
def test_any_dictionary_expands_or_is_an_input_error(
    flag: str,
    aliases: bool,
    tables: list[tuple[str, str, str, list[tuple[str, str, str]]]],
    dic: list[str],
) -> None:
    lines = [flag + ("AF 2\nAF AB\nAF 1\n" if aliases else "") + "CIRCUMFIX B\nNEEDAFFIX 1"]
    for kind, name, cross, rows in tables:
        lines.append(f"{kind} {name} {cross} {len(rows)}")
        lines += [f"{kind} {name} {' '.join(r)}" for r in rows]
    try:
        words = expand_dictionary("\n".join([str(len(dic)), *dic]), parse_aff("\n".join(lines)))
    except InputError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 200
    else:
        assert all(isinstance(w, str) for w in words)


# ---- Issue 48: the roles as hunspell -G reads them --------------------------------------------

#: (what, .aff rows after the roles, .dic entries, the forms hunspell -G accepts). Measured
#: with Hunspell 1.7.1; the forms before issue 48 in the comments.
ROLE_CASES = [
    (  # before: neither "mach" nor "lauf" (a stem's CIRCUMFIX refused it), nor "gemach"
        "CIRCUMFIX on a stem, and a CIRCUMFIX prefix alone",
        "PFX A Y 1\nPFX A 0 ge/X .\nSFX B Y 1\nSFX B 0 t/X .\nSFX S Y 1\nSFX S 0 s .\n",
        "mach/ABX\nlauf/SX\n",
        {"mach", "gemach", "gemacht", "lauf", "laufs"},
    ),
    (  # before: no "foo" (any FORBIDDENWORD homonym removed it)
        "a later homonym flagged FORBIDDENWORD",
        "SFX S Y 1\nSFX S 0 s .\nPFX U Y 1\nPFX U 0 un .\n",
        "foo/SU\nfoo/F\nbar/F\nbar/S\n",
        {"foo", "foos", "unfoo", "unfoos", "bars"},
    ),
    (  # before: no "walkers", no "runx"
        "FORBIDDENWORD among a suffix's continuation flags",
        "SFX A Y 1\nSFX A 0 er/B .\nSFX B Y 1\nSFX B 0 s/F .\nSFX C Y 1\nSFX C 0 x/F .\n",
        "walk/A\nrun/C\n",
        {"walk", "walker", "walkers", "run", "runx"},
    ),
    (  # before: no "walkers"
        "NEEDAFFIX among a second suffix's continuation flags",
        "SFX A Y 1\nSFX A 0 er/B .\nSFX B Y 1\nSFX B 0 s/N .\nSFX C Y 1\nSFX C 0 x/N .\n",
        "walk/A\nrun/C\n",
        {"walk", "walker", "walkers", "run"},
    ),
    (  # before: "apxytt" too (only the outer suffix's cross product was read)
        "a prefix on a twofold suffix needs both suffixes' cross product",
        "PFX P Y 1\nPFX P 0 ap .\nSFX S N 1\nSFX S 0 ss/T .\nSFX T Y 1\nSFX T 0 tt .\n",
        "xy/PS\n",
        {"xy", "apxy", "xyss", "xysstt"},
    ),
]
ROLES = "NEEDAFFIX N\nFORBIDDENWORD F\nCIRCUMFIX X\nONLYINCOMPOUND O\n"


def _role_pair(folder: Path, rows: str, entries: str) -> tuple[Path, Path]:
    dic = f"{len(entries.splitlines())}\n{entries}"
    return write_pair(folder, "fx", "SET UTF-8\n" + ROLES + rows, dic, "utf-8")


@pytest.mark.parametrize(
    ("what", "rows", "entries", "forms"), ROLE_CASES, ids=[c[0] for c in ROLE_CASES]
)
def test_the_roles_expand_as_hunspell_reads_them(
    tmp_path: Path, what: str, rows: str, entries: str, forms: set[str]
) -> None:
    dic, aff = _role_pair(tmp_path, rows, entries)
    assert set(read_hunspell(dic, aff)) == forms


@needs_hunspell
@pytest.mark.parametrize(
    ("what", "rows", "entries", "forms"), ROLE_CASES, ids=[c[0] for c in ROLE_CASES]
)
def test_hunspell_accepts_exactly_the_roles_expansion(
    tmp_path: Path, what: str, rows: str, entries: str, forms: set[str]
) -> None:
    dic, aff = _role_pair(tmp_path, rows, entries)
    dic_text = dic.read_text(encoding="utf-8")
    aff_text = aff.read_text(encoding="utf-8")
    assert _hunspell_accepts(tmp_path, "fx", _blind_candidates(dic_text, aff_text)) == forms


def _random_tables(rng: random.Random) -> tuple[str, str]:
    """A random ``.aff`` (two prefix and three suffix tables, one or two rows each, random
    cross products, continuation flags naming second suffixes, prefixes and the four roles)
    and ``.dic`` (two stems, one of them twice; FORBIDDENWORD on an entry of no other flag, as
    dictionaries use it)."""
    lines = [ROLES.rstrip("\n")]
    for kind, flag in (("PFX", "P"), ("PFX", "Q"), ("SFX", "S"), ("SFX", "T"), ("SFX", "U")):
        rows = rng.randint(1, 2)
        lines.append(f"{kind} {flag} {rng.choice('YN')} {rows}")
        pool = "NFXO" if kind == "PFX" else ("TU" if flag == "S" else "") + "NFXOPQ"
        for _ in range(rows):
            cont = "".join(sorted(set(rng.sample(pool, rng.randint(0, 3)))))
            add = rng.choice(["a", "b", "ab", "ba", "c"])
            lines.append(f"{kind} {flag} 0 {add}{'/' + cont if cont else ''} .")
    entries = []
    for stem in rng.choice([["xy", "zz"], ["xy", "zz", "xy"], ["xy", "xy", "zz"]]):
        if rng.random() < 0.15:
            entries.append(f"{stem}/F")
            continue
        flags = "".join(sorted(set(rng.sample("PQSTUNXO", rng.randint(0, 4)))))
        entries.append(stem + (f"/{flags}" if flags else ""))
    return "\n".join(lines) + "\n", "\n".join(entries) + "\n"


@needs_hunspell
@pytest.mark.slow
def test_hunspell_accepts_exactly_the_expansion_of_random_tables(tmp_path: Path) -> None:
    rng = random.Random(48)
    for _ in range(150):
        rows, entries = _random_tables(rng)
        dic, aff = _role_pair(tmp_path, rows.removeprefix(ROLES), entries)
        candidates = _blind_candidates(dic.read_text(encoding="utf-8"), aff.read_text("utf-8"))
        accepted = _hunspell_accepts(tmp_path, "fx", candidates)
        assert set(read_hunspell(dic, aff)) == accepted, (rows, entries)
