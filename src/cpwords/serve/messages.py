"""Error messages as a page shows them: the command line's flags told as the page's controls.

The pages call the same functions as the command line, so an
:class:`~cpwords.core.errors.InputError` may give the command line's advice (``leave them out
with --skip-invalid``, ``--lang 'xx' is not a language code``). A page has no flags: its
errors name its own controls (:func:`page_message`), and advice that only the command line
can follow is said the page's way or left out.
"""

from __future__ import annotations

import re

from cpwords.core.errors import short_message

#: Advice of the command line that a page words its own way (no page has these controls).
PHRASES: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"\s*\(fix them, or leave them out with --skip-invalid\)"),
        " (fix those lines or delete them)",
    ),
    (
        re.compile(r";\s*give a list of your own with --dict FILE"),
        "; choose one of the known languages",
    ),
    (re.compile(r",?\s*or give --no-blocklist"), ""),
)

#: A flag, and the label of the page control that plays its part (a flag not listed is told
#: by its own words: ``--suffix-length`` as ``suffix length``).
LABELS = {
    "--dict": "dictionary",
    "--lexicon": "dictionary",
    "--lang": "language",
    "--top": "most common words",
    "--min-prefix": "prefix at least",
    "--plurals": "keep plurals",
    "--proper": "proper overlaps",
    "--hint": "hint mode",
    "--generate": "generate",
    "--check-text": "your answer",
    "--from": "your words so far",
    "--solve": "complete it",
    "--unique": "unique puzzles",
}

#: A command-line flag: two dashes, then a letter, at the start of a word (not in quotes: a
#: quoted input is shown as it was typed).
FLAG = re.compile(r"(?<![\w'\"-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?![\w-])")


def page_message(text: str) -> str:
    """``text`` with every command-line flag told as the page's control.

    Parameters
    ----------
    text : str
        An error message of the command line's functions.

    Returns
    -------
    str
        The message with the command line's advice said the page's way (:data:`PHRASES`),
        then each flag named by its control's label (:data:`LABELS`; others by their words).

    Examples
    --------
    >>> page_message("--lang 'xx' is not a language code")
    "language 'xx' is not a language code"
    >>> page_message("1 line is not a word (fix them, or leave them out with --skip-invalid)")
    '1 line is not a word (fix those lines or delete them)'
    >>> page_message("too long for --suffix-length")
    'too long for suffix length'
    """
    for pattern, said in PHRASES:
        text = pattern.sub(said, text)
    return FLAG.sub(lambda m: LABELS.get(m.group(0), m.group(1).replace("-", " ")), text)


def page_error(exc: BaseException | str) -> str:
    """The one line a page (or its JSON answer) shows for an error: its message with the
    flags told as the page's controls (:func:`page_message`), cut as
    :func:`~cpwords.core.errors.short_message` cuts it.

    Parameters
    ----------
    exc : BaseException or str
        The error, or its message.

    Returns
    -------
    str
    """
    return short_message(page_message(str(exc)))
