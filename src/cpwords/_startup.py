"""A Ctrl-C while the command line is still importing, held until :func:`cpwords.cli.main`;
NumPy's arrays on ordinary pages on the command line (:func:`small_pages`).

The console script (``cpwords``, which runs ``from cpwords.cli import main``) and ``python -m
cpwords`` import the package and its command line (about 0.1 s; the command's own module, with
its solvers, is imported later, inside ``main``) before any code of cpwords can catch a
``KeyboardInterrupt``: a Ctrl-C then ended the process with a traceback. So when the process is
one of those two (a program that imports cpwords keeps its own signal handlers), this module,
the package's first import, holds SIGINT: the first Ctrl-C is only noted, and
:func:`release_interrupt`, the first thing ``main`` does, hands it back as a Ctrl-C before any
answer (exit 130, one line, the ``--json`` row). A second Ctrl-C before then ends the process at
once, with the same line and status.
"""

from __future__ import annotations

import os
import signal
import sys

#: The exit status of a command stopped by Ctrl-C (as ``cpwords.cli._common.EXIT_INTERRUPTED``).
EXIT_INTERRUPTED = 130

_held = False


def _hold(signum: int, frame: object) -> None:
    """Note the first Ctrl-C; end the process at the second."""
    global _held
    if _held:
        os.write(2, b"cpwords: interrupted\n")
        os._exit(EXIT_INTERRUPTED)
    _held = True


def is_command_line(argv: list[str], orig_argv: list[str]) -> bool:
    """Whether this process is the ``cpwords`` command line.

    Parameters
    ----------
    argv : list of str
        ``sys.argv`` (the console script's path first).
    orig_argv : list of str
        ``sys.orig_argv`` (``python -m cpwords ...``).

    Returns
    -------
    bool

    Examples
    --------
    >>> is_command_line(["/usr/bin/cpwords", "chain"], ["python3", "/usr/bin/cpwords", "chain"])
    True
    >>> is_command_line(["-m"], ["python3", "-X", "utf8", "-m", "cpwords", "chain"])
    True
    >>> is_command_line(["-c"], ["python3", "-c", "import cpwords"])
    False
    """
    script = os.path.basename(argv[0]) if argv else ""
    if script in ("cpwords", "cpwords.exe", "cpwords-script.py"):
        return True
    i = 1
    while i < len(orig_argv):
        arg = orig_argv[i]
        if arg == "-m":
            return orig_argv[i + 1 : i + 2] == ["cpwords"]
        if arg.startswith("-m"):
            return arg == "-mcpwords"
        if arg == "-c" or not arg.startswith("-"):
            return False  # a program or a script runs: not ours
        i += 2 if arg in ("-X", "-W", "--check-hash-based-pycs") else 1
    return False


def hold_interrupt() -> None:
    """Hold SIGINT for the imports, when this process is the command line and SIGINT has its
    default handler (not when it is ignored: a background job)."""
    if not is_command_line(sys.argv, getattr(sys, "orig_argv", [])):
        return
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _hold)


def release_interrupt() -> bool:
    """Give SIGINT back its default handler (when :func:`hold_interrupt` took it).

    Returns
    -------
    bool
        Whether a Ctrl-C came while it was held.
    """
    global _held
    if signal.getsignal(signal.SIGINT) is _hold:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    held, _held = _held, False
    return held


def small_pages() -> None:
    """On the command line, NumPy's large arrays on the kernel's ordinary pages: no
    ``madvise(MADV_HUGEPAGE)`` (``NUMPY_MADVISE_HUGEPAGE=0``, read when NumPy is imported, after
    this module), unless the environment says otherwise.

    With transparent huge pages on ``madvise`` (the usual setting), each huge page NumPy asks
    for may first be compacted by the kernel, in the system CPU of the faulting process.
    Measured on this project's 2-core machine (medians of 3; `defrag` on ``madvise``): ENABLE's
    ``snake`` 1.66 -> 1.51 s of CPU (system 0.43 -> 0.23 s), lambda's 48,472 31-mers 2.49 ->
    1.82 s, the French list 3.89 -> 3.08 s, 391,751 31-mers of C. elegans 33.4 -> 22.1 s
    (system 19.9 -> 7.9 s), the peak unchanged or lower.
    """
    if is_command_line(sys.argv, getattr(sys, "orig_argv", [])):
        os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")


hold_interrupt()
small_pages()
