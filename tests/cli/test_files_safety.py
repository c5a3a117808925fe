"""Issue 34: the user's files. Outputs never replace a device nor leave a truncated file; an
unwritable output is refused before the solve, and a write that fails after it still prints the
answer; inputs are read with a size cap, and binary data is refused at once."""

from __future__ import annotations

import errno
import io
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import cpwords.core.files as files
from cpwords.cli import main
from cpwords.core.errors import InputError
from cpwords.core.files import check_output, open_output, read_input, staged_output

WORDS = "alpha\nphase\nsea\nease\nseal\n"
TRUNCATE = ["a", "la", "lap", "laps", "lapse", "elapse", "elapsed", "relapsed", "clap", "claps"]
BOXED = ["bechfag", "gjdkil", "bead", "dhl", "lcfgjik", "cab"]
PRESS = ["over", "overs", "slier", "prove", "proves", "viper", "vipers", "lover", "grove"]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[Any, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def one_line(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err


def full_disk(*_: Any) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.fixture
def words(tmp_path: Path) -> Path:
    path = tmp_path / "five.txt"
    path.write_text(WORDS)
    return path


# ---------------------------------------------------------------------------------------------
# Item 1: --force never replaces a device file


@pytest.mark.parametrize("option", ["--export-tsplib", "--certificate", "--svg"])
def test_force_writes_through_dev_null_and_leaves_it_a_device(
    option: str, words: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["snake", str(words), option, "/dev/null", "--force"], capsys)
    assert code == 0, err
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert not [p for p in Path("/dev").glob(".null.*")]


def test_a_fifo_is_written_through_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    check_output(fifo, "--svg", force=False)  # nothing is replaced: no --force needed
    with open_output(fifo, "--svg") as fh:
        fh.write("<svg/>")
    reader.join(timeout=30)
    assert got == [b"<svg/>"] and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_dev_stdout_redirected_to_a_file_gets_the_drawing_after_the_answer(
    tmp_path: Path, words: Path
) -> None:
    out = tmp_path / "out.txt"
    with out.open("wb") as fh:
        inode = os.fstat(fh.fileno()).st_ino
        subprocess.run(
            [sys.executable, "-m", "cpwords", "snake", str(words), "--svg", "/dev/stdout"],
            stdout=fh,
            check=True,
            timeout=300,
        )
    text = out.read_text()
    assert out.stat().st_ino == inode  # the same file, not replaced
    assert "objective" in text and "<svg" in text and text.index("objective") < text.index("<svg")


def test_a_socket_or_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a folder"):
        check_output(tmp_path, "--svg", force=True)


# ---------------------------------------------------------------------------------------------
# Item 2: every output is written beside the target, then renamed: never truncated first


def test_a_failed_write_leaves_the_old_file_whole_and_nothing_beside_it(tmp_path: Path) -> None:
    target = tmp_path / "keep.svg"
    target.write_text("precious\n")
    target.chmod(0o640)
    with pytest.raises(RuntimeError), open_output(target, "--svg") as fh:
        fh.write("half a drawing")
        raise RuntimeError("killed mid-write")
    assert target.read_text() == "precious\n" and os.listdir(tmp_path) == ["keep.svg"]
    with open_output(target, "--svg") as fh:
        fh.write("new")
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_writer_killed_mid_write_leaves_the_old_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "keep.svg"
    target.write_text("precious\n")
    script = (
        "import os, signal, sys\n"
        "from cpwords.core.files import open_output\n"
        "with open_output(sys.argv[1], '--svg') as fh:\n"
        "    fh.write('<svg>' * 100000)\n"
        "    fh.flush()\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(target)], timeout=120)
    assert done.returncode == -9
    assert target.read_text() == "precious\n"


def test_a_new_output_follows_the_umask_and_a_link_stays_a_link(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        with open_output(tmp_path / "new.txt") as fh:
            fh.write("x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o640
    link = tmp_path / "link.txt"
    link.symlink_to(tmp_path / "new.txt")
    with open_output(link) as fh:
        fh.write("y")
    assert link.is_symlink() and (tmp_path / "new.txt").read_text() == "y"


def test_staged_output_moves_a_finished_file_into_place(tmp_path: Path) -> None:
    target = tmp_path / "m.lp"
    target.write_text("old")
    with pytest.raises(InputError), staged_output(target, "--export-model") as staged:
        staged.write_text("half")
        raise OSError(errno.ENOSPC, "No space left on device")
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["m.lp"]
    with staged_output(target, "--export-model") as staged:
        staged.write_text("model")
    assert target.read_text() == "model" and os.listdir(tmp_path) == ["m.lp"]


def _five_commands(tmp_path: Path) -> dict[str, list[str]]:
    snake = tmp_path / "snake.txt"
    snake.write_text(WORDS)
    trunc = tmp_path / "trunc.txt"
    trunc.write_text("\n".join(TRUNCATE) + "\n")
    boxed = tmp_path / "boxed.txt"
    boxed.write_text("\n".join(BOXED) + "\n")
    press = tmp_path / "press.txt"
    press.write_text("\n".join(PRESS) + "\n")
    return {
        "snake": ["snake", str(snake)],
        "truncate": ["truncate", "--dict", str(trunc), "--ending", "claps"],
        "letterboxed": ["letterboxed", "abc-def-ghi-jkl", "--dict", str(boxed)],
        "letterpress": ["letterpress", "provesx", "--dict", str(press), "--no-cache"],
        "grid": ["grid", "--check-text", "c=abcde"],
    }


@pytest.mark.parametrize("command", ["snake", "truncate", "letterboxed", "letterpress", "grid"])
def test_svg_force_on_a_full_disk_keeps_the_old_drawing(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    args = _five_commands(tmp_path)[command]
    out = tmp_path / "old.svg"
    out.write_text("precious\n")
    before = sorted(os.listdir(tmp_path))
    monkeypatch.setattr(files.os, "fsync", full_disk)
    code, _, err = run([*args, "--svg", str(out), "--force"], capsys)
    if "cannot write" not in err:  # a command that drew nothing (grid refusing the fill)
        assert code != 0 and one_line(err)
        pytest.skip(f"{command} drew nothing here: {err.strip()}")
    assert code == 2 and one_line(err) and "No space left" in err
    assert out.read_text() == "precious\n" and sorted(os.listdir(tmp_path)) == before


def test_export_tsplib_on_a_full_disk_keeps_the_old_file(
    words: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    out = tmp_path / "old.atsp"
    out.write_text("precious\n")
    monkeypatch.setattr(files.os, "fsync", full_disk)
    for option in ("--export-tsplib", "--export-model"):
        target = out if option == "--export-tsplib" else tmp_path / "old.lp"
        target.write_text("precious\n")
        before = sorted(os.listdir(tmp_path))
        code, _, err = run(["snake", str(words), option, str(target), "--force"], capsys)
        assert code == 2 and one_line(err) and "No space left" in err
        assert target.read_text() == "precious\n" and sorted(os.listdir(tmp_path)) == before


# ---------------------------------------------------------------------------------------------
# Item 4: an unwritable --certificate is refused before the solve; a failed write prints the answer


def test_certificate_in_a_missing_folder_is_refused_before_solving(
    words: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    import cpwords.cli.snake as snake

    monkeypatch.setattr(snake, "_solve", lambda *a, **k: pytest.fail("solved first"))
    target = tmp_path / "no" / "such" / "c.json"
    code, out, err = run(["snake", str(words), "--certificate", str(target)], capsys)
    assert code == 2 and out == "" and one_line(err) and "does not exist" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_certificate_in_a_read_only_folder_is_refused_before_solving(
    words: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    code, out, err = run(["snake", str(words), "--certificate", str(ro / "c.json")], capsys)
    assert code == 2 and out == "" and one_line(err) and "not writable" in err


@pytest.mark.parametrize("as_json", [False, True])
def test_a_certificate_write_that_fails_after_the_solve_still_prints_the_answer(
    as_json: bool, words: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    monkeypatch.setattr(files.os, "fsync", full_disk)
    target = tmp_path / "c.json"
    extra = ["--json"] if as_json else []
    code, out, err = run(["snake", str(words), "--certificate", str(target), *extra], capsys)
    assert code == 2 and one_line(err) and "No space left" in err
    assert "objective" in out and "OPTIMAL" in out
    assert not target.exists() and sorted(os.listdir(tmp_path)) == ["five.txt"]


# ---------------------------------------------------------------------------------------------
# Item 17: inputs are read with a size check first; binary data is refused at once


def test_nul_bytes_are_refused_at_the_first_chunk(tmp_path: Path, monkeypatch: Any) -> None:
    path = tmp_path / "zeros.txt"
    path.write_bytes(b"run\n" + b"\0" * (3 * files.CHUNK))
    reads: list[int] = []

    class Counting(io.FileIO):
        def read(self, n: int | None = -1) -> bytes:
            data = super().read(n)
            reads.append(len(data))
            return data

    monkeypatch.setattr(files, "open", lambda p, mode: Counting(p, "r"), raising=False)
    with pytest.raises(InputError, match="NUL byte at byte 5") as err:
        read_input(path, "word list")
    assert "\n" not in str(err.value) and sum(reads) <= files.CHUNK


def test_dev_zero_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["snake", "/dev/zero"], capsys)
    assert code == 2 and out == "" and one_line(err) and "NUL" in err


def test_a_file_over_the_cap_is_refused_from_its_size_without_reading(
    tmp_path: Path, monkeypatch: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "big.txt"
    path.write_text("a" * 5000 + "\n")
    monkeypatch.setattr(files, "available_memory", lambda: files.READ_MEMORY_PER_BYTE * 4000)
    monkeypatch.setattr(files, "open", lambda *a, **k: pytest.fail("read"), raising=False)
    code, out, err = run(["snake", str(path)], capsys)
    assert code == 2 and out == "" and one_line(err) and "5,001 bytes" in err


def test_a_stream_over_the_cap_is_cut_at_the_cap(monkeypatch: Any) -> None:
    class Endless(io.RawIOBase):
        served = 0

        def readable(self) -> bool:
            return True

        def readinto(self, buf: Any) -> int:
            buf[:] = b"a" * len(buf)
            Endless.served += len(buf)
            return len(buf)

    stream = io.BufferedReader(Endless())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stream))
    with pytest.raises(InputError, match="more than 10,000 bytes"):
        read_input("-", "word list", max_bytes=10_000)
    assert Endless.served < 10_000 + 2 * files.CHUNK


def test_the_largest_real_list_passes_on_a_modest_machine(monkeypatch: Any) -> None:
    polish = Path("/usr/share/dict/polish")
    if not polish.is_file():
        pytest.skip("no /usr/share/dict/polish (apt install wpolish)")
    # 2 GiB available: the 60 MB list of 4.3 million words is read.
    monkeypatch.setattr(files, "available_memory", lambda: 2 << 30)
    assert len(read_input(polish, "word list")) == polish.stat().st_size
