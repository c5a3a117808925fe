"""The user's files: inputs read with a size cap, outputs written without losing what was there.

**Outputs** (``--svg``, ``--certificate``, ``--export-*``: every file cpwords writes to a path the
user gave). :func:`check_output` runs before any work, so a path that cannot be written is refused
in one line before a long solve. :func:`open_output` then writes:

* a regular file (new, or replaced with ``--force``) through a fresh temporary file beside it,
  flushed to disk, then renamed over the target in one step: a kill, a full disk or an error
  mid-write leaves the old file whole and no temporary file behind. A replaced file keeps its
  permission bits; a new one gets the usual ``0666`` less the umask. A symbolic link is followed:
  the file it names is replaced, the link stays.
* a character device or a pipe (``/dev/null``, ``/dev/stdout``, a terminal, a FIFO) is opened and
  written through: it is never replaced by a regular file, and needs no ``--force`` (nothing is
  overwritten). A path that is this process's standard output or error (``/dev/stdout`` with the
  output redirected to a file) is written through the same way.
* a folder, a block device or a socket is refused.

**Inputs** (word lists, dictionaries, boards, answers, certificates): :func:`read_input` refuses a
regular file larger than what the machine can read before reading a byte (its size from ``stat``),
reads anything else (standard input, a pipe, ``/dev/zero``) in chunks up to the same cap, and
refuses a NUL byte in the first chunk that holds one: text never has one.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, BinaryIO

from cpwords.core.errors import InputError, excerpt
from cpwords.core.machine import available_memory

#: Peak memory of reading and parsing a word list, per byte of the file: measured 945 MB for the
#: 60 MB Polish list of 4.3 million words (``/usr/share/dict/polish``), 16 bytes a byte.
READ_MEMORY_PER_BYTE = 16
#: Bytes read at a time (and checked for NUL) from an input.
CHUNK = 1 << 20


def read_cap() -> int:
    """The largest input cpwords reads: the available memory over :data:`READ_MEMORY_PER_BYTE`.

    Returns
    -------
    int
        Bytes (1.1 GB with 17.6 GB available).

    Examples
    --------
    >>> read_cap() > 0
    True
    """
    return available_memory() // READ_MEMORY_PER_BYTE


def _too_large(what: str, name: str, size: int | None, cap: int) -> InputError:
    """The refusal of an input over the cap (``size`` None: a stream cut at the cap)."""
    told = f"more than {cap:,} bytes" if size is None else f"{size:,} bytes, more than the {cap:,}"
    return InputError(
        f"{what} {excerpt(name)} is {told} cpwords reads "
        f"(1/{READ_MEMORY_PER_BYTE} of the memory available)"
    )


def read_input(
    path: str | os.PathLike[str],
    what: str = "file",
    max_bytes: int | None = None,
    text: bool = True,
) -> bytes:
    """Read an input file's bytes with a size cap, refusing binary data early.

    Parameters
    ----------
    path : path-like
        ``-`` reads standard input.
    what : str
        What the file is, for messages (``"word list"``, ``"certificate"``).
    max_bytes : int, optional
        The cap (default :func:`read_cap`).
    text : bool
        Refuse a NUL byte (False: binary data, such as a gzip file).

    Returns
    -------
    bytes

    Raises
    ------
    InputError
        Missing file, a folder, an OS error, more than ``max_bytes`` bytes (a regular file is
        refused from its size, before reading), or a NUL byte (refused at the first chunk that
        holds one).

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "w.txt")
    ...     _ = open(p, "wb").write(b"run\\nnausea\\n")
    ...     read_input(p, "word list")
    b'run\\nnausea\\n'
    """
    cap = read_cap() if max_bytes is None else max_bytes
    if str(path) == "-":
        return _read_chunks(sys.stdin.buffer, what, "<stdin>", cap, text)
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise InputError(f"{what} not found: {excerpt(str(p))}") from None
    except OSError as exc:
        raise InputError(f"cannot read {what} {excerpt(str(p))}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{what} is a directory, not a file: {excerpt(str(p))}")
    if stat.S_ISREG(st.st_mode) and st.st_size > cap:
        raise _too_large(what, str(p), st.st_size, cap)
    try:
        with open(p, "rb") as fh:
            return _read_chunks(fh, what, str(p), cap, text)
    except OSError as exc:
        raise InputError(f"cannot read {what} {excerpt(str(p))}: {exc.strerror or exc}") from None


def _read_chunks(fh: BinaryIO, what: str, name: str, cap: int, text: bool) -> bytes:
    """At most ``cap`` bytes of ``fh``, chunk by chunk, each checked for a NUL byte (text)."""
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = fh.read(min(CHUNK, cap + 1 - total))
        if not chunk:
            break
        nul = chunk.find(b"\0") if text else -1
        if nul >= 0:
            raise InputError(
                f"{what} {excerpt(name)} is not text (a NUL byte at byte {total + nul + 1:,})"
            )
        chunks.append(chunk)
        total += len(chunk)
        if total > cap:
            raise _too_large(what, name, None, cap)
    return b"".join(chunks)


# ---------------------------------------------------------------------------------------------
# Outputs


def _std_stream(st: os.stat_result) -> int | None:
    """The descriptor (1 or 2) of this process's standard output or error when ``st`` is it."""
    for fd in (1, 2):
        with contextlib.suppress(OSError):
            if os.path.samestat(st, os.fstat(fd)):
                return fd
    return None


def _label(path: str | os.PathLike[str], option: str | None) -> str:
    return excerpt(str(path)) if option is None else f"{option} {excerpt(str(path))}"


def _target(path: str | os.PathLike[str], option: str | None) -> tuple[str, os.stat_result | None]:
    """``("file", st)``, ``("new", None)`` or ``("through", st)``; refuses the unwritable."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return "new", None
    except OSError as exc:
        raise InputError(f"{_label(path, option)}: cannot write it ({exc.strerror})") from None
    mode = st.st_mode
    if stat.S_ISDIR(mode):
        raise InputError(f"{_label(path, option)}: is a folder, give a file name")
    if _std_stream(st) is not None or stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return "through", st
    if not stat.S_ISREG(mode):
        raise InputError(
            f"{_label(path, option)}: neither a file, a character device nor a pipe "
            "(cpwords does not write to it)"
        )
    return "file", st


def check_output(
    path: str | os.PathLike[str], option: str | None = None, force: bool = False
) -> None:
    """Refuse, before any work, an output path that cannot be written or must not be replaced.

    Parameters
    ----------
    path : path-like
    option : str, optional
        The option that named it (``"--svg"``), for messages.
    force : bool
        Whether an existing regular file may be replaced.

    Raises
    ------
    InputError
        A folder, a block device or a socket; an existing file without ``force``; a missing or
        unwritable folder; a device or pipe this user cannot write.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     check_output(os.path.join(d, "out.svg"), "--svg")
    ...     check_output(d, "--svg")
    Traceback (most recent call last):
    ...
    cpwords.core.errors.InputError: --svg ...: is a folder, give a file name
    """
    kind, _ = _target(path, option)
    label = _label(path, option)
    if kind == "through":
        if not os.access(path, os.W_OK):
            raise InputError(f"{label}: not writable by this user")
        return
    if kind == "file" and not force:
        raise InputError(f"{label}: the file exists (add --force to overwrite it)")
    folder = Path(os.path.realpath(path)).parent
    if not folder.is_dir():
        raise InputError(f"{label}: folder {excerpt(str(folder))} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"{label}: folder {excerpt(str(folder))} is not writable by this user")


def _umask() -> int:
    """The process's umask (from ``/proc``: setting it to read it is not thread-safe)."""
    with (
        contextlib.suppress(OSError, ValueError),
        open("/proc/self/status", encoding="ascii") as fh,
    ):
        for line in fh:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)  # pragma: no cover - not Linux
    os.umask(mask)  # pragma: no cover
    return mask  # pragma: no cover


@contextlib.contextmanager
def _write_through(path: str | os.PathLike[str], binary: bool, encoding: str) -> Iterator[IO[Any]]:
    """Open a device, a pipe or this process's output for writing, without creating anything."""
    std = _std_stream(os.stat(path))
    # This process's own output: the same open file (and offset), not the file reopened at 0.
    fd = os.dup(std) if std is not None else os.open(path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
    if std is None and stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)  # replaced by a regular file since it was checked: refuse, never truncate
        raise InputError(f"{excerpt(str(path))} changed while being written; try again")
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()  # keep the order of what was printed before
    with open(fd, "wb" if binary else "w", encoding=None if binary else encoding) as fh:
        yield fh


@contextlib.contextmanager
def _write_atomic(
    path: str | os.PathLike[str], st: os.stat_result | None, binary: bool, encoding: str
) -> Iterator[IO[Any]]:
    """A temporary file beside the target, flushed to disk, then renamed over it."""
    import tempfile  # with shutil, random and more: 5 ms of a start that writes no file

    target = Path(os.path.realpath(path))
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        os.fchmod(fd, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask())
        with open(fd, "wb" if binary else "w", encoding=None if binary else encoding) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def open_output(
    path: str | os.PathLike[str],
    option: str | None = None,
    *,
    binary: bool = False,
    encoding: str = "utf-8",
) -> Iterator[IO[Any]]:
    """Open an output for writing; on a clean exit the target holds exactly what was written.

    Parameters
    ----------
    path : path-like
        Checked beforehand with :func:`check_output` (the ``--force`` decision is made there).
    option : str, optional
        The option that named it, for messages.
    binary : bool
        Bytes (else text in ``encoding``).
    encoding : str

    Yields
    ------
    file object

    Raises
    ------
    InputError
        The write failed (full disk, no permission...): a regular target is left as it was and
        no temporary file remains.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "out.txt")
    ...     with open_output(p) as fh:
    ...         _ = fh.write("hello")
    ...     open(p).read(), os.listdir(d)
    ('hello', ['out.txt'])
    """
    kind, st = _target(path, option)
    try:
        if kind == "through":
            with _write_through(path, binary, encoding) as fh:
                yield fh
        else:
            with _write_atomic(path, st, binary, encoding) as fh:
                yield fh
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise InputError(f"{_label(path, option)}: cannot write it ({why})") from None


def write_output(
    path: str | os.PathLike[str], data: str | bytes, option: str | None = None
) -> None:
    """Write ``data`` (text as UTF-8) to an output with :func:`open_output`.

    Parameters
    ----------
    path : path-like
    data : str or bytes
    option : str, optional

    Raises
    ------
    InputError
        The write failed (the target is left as it was).
    """
    with open_output(path, option, binary=isinstance(data, bytes)) as fh:
        fh.write(data)


@contextlib.contextmanager
def staged_output(path: str | os.PathLike[str], option: str | None = None) -> Iterator[Path]:
    """A fresh path with the target's name, in a private folder beside it, for writers that
    need a file name (a solver's own export); what it holds is then moved into place as
    :func:`open_output` writes (renamed over a regular file, copied into a device or pipe).

    Parameters
    ----------
    path : path-like
    option : str, optional

    Yields
    ------
    pathlib.Path
        Where to write.

    Raises
    ------
    InputError
        The write failed (the target is left as it was; the private folder is removed).
    """
    import shutil
    import tempfile

    kind, _ = _target(path, option)
    folder = Path(os.path.realpath(path)).parent if kind != "through" else None
    try:
        scratch = Path(tempfile.mkdtemp(dir=folder, prefix=".cpwords-"))
    except OSError as exc:
        raise InputError(f"{_label(path, option)}: cannot write it ({exc.strerror})") from None
    try:
        staged = scratch / Path(path).name
        yield staged
        with staged.open("rb") as src, open_output(path, option, binary=True) as dst:
            shutil.copyfileobj(src, dst)
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise InputError(f"{_label(path, option)}: cannot write it ({why})") from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def write_json_document(
    obj: Any, path: str | os.PathLike[str], force: bool = False, option: str | None = None
) -> None:
    """Write a JSON document compactly (gzip when the name ends in ``.gz``), with
    :func:`check_output` and :func:`write_output` (atomic; devices and pipes written through).

    Parameters
    ----------
    obj : JSON-serialisable object
    path : path-like
    force : bool
        Replace an existing file (otherwise refused).
    option : str, optional
        The option that named the path, for messages.

    Raises
    ------
    InputError
        The file exists and ``force`` is False, or it cannot be written.
    """
    import gzip
    import json

    check_output(path, option, force)
    data = json.dumps(obj, separators=(",", ":")).encode("utf-8")
    if str(path).endswith(".gz"):
        data = gzip.compress(data, compresslevel=6, mtime=0)
    write_output(path, data, option)


def read_json_document(path: str | os.PathLike[str], what: str, max_bytes: int) -> Any:
    """Read a JSON document, plain or gzip-compressed, never holding more than ``max_bytes`` of
    JSON: the file is read with :func:`read_input` and a ``.gz`` is decompressed as a stream
    and refused past the cap (a gzip bomb stops there). A UTF-8 byte-order mark is accepted.

    Parameters
    ----------
    path : path-like
    what : str
        What the document is, for messages (``"certificate"``).
    max_bytes : int
        The most JSON read.

    Returns
    -------
    object
        What :func:`json.loads` gives.

    Raises
    ------
    InputError
        Missing, too large (compressed or not), truncated, not JSON, or nested too deep (one
        line naming the file).
    """
    import gzip
    import io
    import json

    name = excerpt(str(path))
    raw = read_input(path, what, max_bytes, text=False)
    try:
        if raw[:2] == b"\x1f\x8b":
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as gz:
                raw = gz.read(max_bytes + 1)  # streamed: never more than the cap in memory
        if len(raw) <= max_bytes:
            return json.loads(raw.decode("utf-8-sig"))
    except RecursionError:
        raise InputError(f"{name} is not a {what} (JSON nested too deep)") from None
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError, ValueError):
        raise InputError(f"{name} is not a readable {what} (truncated or not JSON)") from None
    raise InputError(
        f"{name} decompresses to more than {max_bytes:,} bytes, more than a {what} of this "
        "list can hold"
    )
