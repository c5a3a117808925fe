"""The study's results file: append-only JSON lines, one row per finished task.

Every row starts with ``{"schema": "cpwords-bench/1"``, which is how a file is recognised as a
cpwords results file; any other non-empty file is never written to. Each row is written with one
``write`` on a file opened for appending, then ``fsync``-ed, so a crash loses at most the row
being written; a torn last line (no final newline, not a whole row) is dropped on the next run
and its task redone, while a whole row that only lacks its newline (a file edited by hand) is
kept. An advisory lock stops two runners from writing the same file at once.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cpwords.core.errors import InputError

SCHEMA = "cpwords-bench/1"
#: Seconds a runner waits for the results file's lock before giving up.
LOCK_WAIT = 2.0
_PREFIX = '{"schema": "' + SCHEMA + '"'

try:  # advisory locking where the platform has it
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]


def encode_row(row: dict[str, Any]) -> bytes:
    """One row as a JSON line whose first key is the schema marker."""
    body = {"schema": SCHEMA}
    body.update({k: v for k, v in row.items() if k != "schema"})
    return (json.dumps(body, default=_default, allow_nan=False) + "\n").encode()


def _default(obj: Any) -> Any:
    from cpwords.core.result import _json_default

    return _json_default(obj)


def is_results_text(head: bytes) -> bool:
    """Whether ``head`` (the first bytes of a file) starts like a cpwords results file."""
    if not head:
        return True
    probe = _PREFIX.encode()
    n = min(len(head), len(probe))
    return head[:n] == probe[:n]


def read_rows(path: str | Path, *, strict: bool = True) -> list[dict[str, Any]]:
    """All complete rows of a results file, in file order.

    Parameters
    ----------
    path : path-like
        The results file; ``-`` reads standard input.
    strict : bool
        When True, a malformed line other than a torn last line is an error.

    Returns
    -------
    list of dict

    Raises
    ------
    InputError
        Missing file, not a cpwords results file, or a malformed line in the middle.
    """
    if str(path) == "-":
        import sys

        data = sys.stdin.buffer.read()
        p = Path("<stdin>")
        if not is_results_text(data[:64]):
            raise InputError("<stdin> is not a cpwords results file")
        return list(_parse(data, str(p), strict))
    p = Path(path)
    if not p.exists():
        raise InputError(f"results file not found: {p}")
    if p.is_dir():
        raise InputError(f"results path is a directory: {p}")
    data = p.read_bytes()
    if not is_results_text(data[:64]):
        raise InputError(f"{p} is not a cpwords results file")
    return list(_parse(data, str(p), strict))


def _whole_row(raw: bytes) -> dict[str, Any] | None:
    """``raw`` as a row when it is one whole row (a last line without its newline), else None."""
    try:
        row = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return row if isinstance(row, dict) and row.get("schema") == SCHEMA else None


def _parse(data: bytes, source: str, strict: bool) -> Iterator[dict[str, Any]]:
    lines = data.split(b"\n")
    complete = lines[:-1]  # the last element is b"" for a newline-terminated file, else torn
    if lines[-1].strip() and _whole_row(lines[-1]) is not None:
        complete = lines  # a whole last row without its newline
    for i, raw in enumerate(complete, start=1):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            if strict:
                raise InputError(f"{source}, line {i}: not a JSON row") from None
            continue
        if not isinstance(row, dict) or row.get("schema") != SCHEMA:
            if strict:
                raise InputError(f"{source}, line {i}: not a {SCHEMA} row")
            continue
        yield row


class ResultsWriter:
    """Append rows to a results file, holding its lock (a context manager).

    Opening checks that the file is empty, absent or a cpwords results file, takes an exclusive
    advisory lock, and cuts a torn last line left by a crash.

    Parameters
    ----------
    path : path-like
        The results file; its folder is created if needed.
    forbidden : sequence of path-like
        Paths it must not be (e.g. the suite file itself).

    Raises
    ------
    InputError
        When the path is a directory, a forbidden file, a file that is not a cpwords results
        file, or locked by another runner.
    """

    def __init__(self, path: str | Path, forbidden: tuple[str | Path, ...] = ()) -> None:
        self.path = Path(path)
        self._fd: int | None = None
        p = self.path
        if p.is_dir():
            raise InputError(f"--out {p} is a directory; give a file such as {p}/results.jsonl")
        for f in forbidden:
            if p.exists() and Path(f).exists() and os.path.samefile(p, f):
                raise InputError(f"--out {p} is the suite file itself")
        if p.exists():
            with open(p, "rb") as fh:
                head = fh.read(64)
            if not is_results_text(head):
                raise InputError(
                    f"{p} exists and is not a cpwords results file; refusing to write to it"
                )

    def __enter__(self) -> ResultsWriter:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o644)
        if fcntl is not None:
            # The kernel frees an flock when its last holder exits, so a lock whose owner is
            # gone never blocks; the short wait covers a runner that was just killed and
            # whose processes the kernel is still tearing down.
            deadline = time.monotonic() + LOCK_WAIT
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError:
                    if time.monotonic() < deadline:
                        time.sleep(0.05)
                        continue
                    os.close(fd)
                    raise InputError(
                        f"{self.path} is being written by another cpwords bench run"
                    ) from None
        self._fd = fd
        self._cut_torn_tail()
        return self

    def fileno(self) -> int | None:
        """The open descriptor of the results file (None outside the with-block)."""
        return self._fd

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the lock
            self._fd = None

    def _cut_torn_tail(self) -> None:
        assert self._fd is not None
        size = os.fstat(self._fd).st_size
        if size == 0:
            return
        # Find the last newline by reading backwards in blocks.
        pos, block = size, 65536
        while pos > 0:
            start = max(0, pos - block)
            chunk = os.pread(self._fd, pos - start, start)
            if start + len(chunk) == size and chunk.endswith(b"\n"):
                return  # the file ends cleanly
            idx = chunk.rfind(b"\n")
            if idx >= 0:
                self._end_at(start + idx + 1, size)
                return
            pos = start
        self._end_at(0, size)  # a single line without its newline

    def _end_at(self, cut: int, size: int) -> None:
        """End the file cleanly after the last newline at ``cut``: a whole last row that only
        lacks its newline gets one; a torn row is cut off."""
        assert self._fd is not None
        if _whole_row(os.pread(self._fd, size - cut, cut)) is not None:
            os.write(self._fd, b"\n")
        else:
            os.ftruncate(self._fd, cut)
        os.fsync(self._fd)

    def done_keys(self) -> dict[str, dict[str, Any]]:
        """``{key: row}`` of the rows already in the file (the last row wins for a key)."""
        rows = read_rows(self.path)
        return {r["key"]: r for r in rows if "key" in r}

    def append(self, row: dict[str, Any]) -> None:
        """Write one row and flush it to disk before returning."""
        if self._fd is None:
            raise RuntimeError("ResultsWriter used outside its with-block")
        line = encode_row(row)
        written = os.write(self._fd, line)
        while written < len(line):  # a short write is rare but legal
            written += os.write(self._fd, line[written:])
        os.fsync(self._fd)
