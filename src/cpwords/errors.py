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
