"""``cpwords lexicons``: every lexicon cpwords knows, whether it is installed, how to install it."""

from __future__ import annotations

import dataclasses

import click

from cpwords.cli._common import echo_json, json_option

#: The text table's columns: (key of LexiconInfo, heading). It fits 100 columns: the source
#: and the licence are in --json only, and the install command shows where it is needed.
COLUMNS = (
    ("name", "name"),
    ("language", "language"),
    ("kind", "kind"),
    ("words", "words"),
    ("installed", "installed"),
)

#: The last line of the text table.
MORE = "source and licence of each: cpwords lexicons --json"


@click.command("lexicons")
@json_option()
def lexicons(as_json: bool) -> None:
    """List every lexicon cpwords knows and how to install it.

    A lexicon is a dictionary (which words are valid) and, optionally, frequencies (how common
    they are, which only rank). Listed: the curated dictionaries (Debian's word lists in
    /usr/share/dict: wamerican, wfrench, wngerman...; `apt-get install wfrench`; and Hunspell's
    in /usr/share/hunspell where Debian has no word list: hunspell-ru, hunspell-cs, their stems
    expanded with their affix rules on first use and cached), the word lists shipped with
    cpwords (enable1, and the games' own: letterpress, truncate), the english-words package's
    lists (web2, gcide) and wordfreq's frequency lists (wordfreq:LANG:N, words seen in text,
    not a dictionary). Every name listed works in --dict (a file of that name wins) and in a
    suite; a dictionary is also named dict:LANG or dict:NAME (dict:fr, dict:wngerman). words
    is the entries of the file when installed (its lines; a Hunspell dictionary's stems).
    The table fits 100 columns: installed says yes, or no with the command that installs it;
    the source and the licence are in --json.

    JSON (--json): a list of objects, one per lexicon, with name, lang, language, kind,
    source, licence, installed, words (null when unknown) and install. Exit status 0.

    \b
    Examples:
      cpwords lexicons
      cpwords lexicons --json
    """
    from cpwords.core.dictionaries import list_lexicons

    rows = list_lexicons()
    if as_json:
        echo_json([dataclasses.asdict(r) for r in rows])
        return
    table = [[heading for _key, heading in COLUMNS]]
    for r in rows:
        d = dataclasses.asdict(r)
        cells = []
        for key, _heading in COLUMNS:
            v = d[key]
            if key == "installed":
                v = "yes" if v else f"no: {r.install}"
            elif key == "words":
                v = "" if v is None else f"{v:,}"
            elif key == "language" and "(" not in r.language:
                v = f"{v} ({r.lang})"
            cells.append(str(v))
        table.append(cells)
    widths = [max(len(row[i]) for row in table) for i in range(len(COLUMNS))]
    words_col = [k for k, _h in COLUMNS].index("words")
    for row in table:
        cells = [
            c.rjust(w) if i == words_col else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        click.echo("  ".join(cells).rstrip())
    click.echo(MORE)
