"""Exception hierarchy. The CLI turns every :class:`CpwordsError` into one line on stderr."""

import re


class CpwordsError(Exception):
    """Base class of every error cpwords raises on purpose."""

    exit_code = 2


class InputError(CpwordsError, ValueError):
    """Bad input: a missing or unreadable file, an empty list, a malformed line or argument."""


class ModelError(CpwordsError, RuntimeError):
    """A solver rejected a model as invalid; always a bug in cpwords, never in the input."""


class CheckError(CpwordsError, AssertionError):
    """A returned solution failed its independent checker; always a bug in cpwords."""


def excerpt(text: str, limit: int = 60) -> str:
    """At most ``limit`` characters of ``text`` for an error message.

    Error messages quote the user's input only this far, so a wrong 8 MB argument cannot
    become an 8 MB line on stderr.

    >>> excerpt("abc")
    'abc'
    >>> excerpt("x" * 100, 5)
    'xxxxx... (100 characters)'
    """
    first = text.split("\n", 1)[0]
    if len(first) <= limit and len(first) == len(text):
        return text
    return f"{first[:limit]}... ({len(text):,} characters)"


def short_message(text: str, limit: int = 300, run: int = 60) -> str:
    """A message fit to send back: every run of more than ``run`` non-blank characters (a
    quoted input, most often) cut to its first ``run`` and its length, then at most ``limit``
    characters of the first line (:func:`excerpt`).

    The server's answers quote errors this way, so that a 1 MB field sent to it is not sent
    back whole, and the words around a quoted input (what is wrong with it) are kept.

    >>> short_message("the word '" + "x" * 100 + "' is not in the list", run=5)
    "the word 'xxxx... (102 characters) is not in the list"
    >>> len(short_message("a " * 1000)) < 330
    True
    """
    cut = re.sub(rf"\S{{{run + 1},}}", lambda m: excerpt(m.group(0), run), text)
    return excerpt(cut, limit)
