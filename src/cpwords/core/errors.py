"""Exception hierarchy. The CLI turns every :class:`CpwordsError` into one line on stderr."""


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
