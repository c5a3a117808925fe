"""Issue 48: a Ctrl-C while the command line is still importing is exit 130, no traceback."""

from __future__ import annotations

import doctest
import json
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import cpwords._startup as startup

#: What pip writes as the ``cpwords`` console script (``cpwords.cli:main``).
CONSOLE_SCRIPT = """# -*- coding: utf-8 -*-
import re
import sys
from cpwords.cli import main
if __name__ == "__main__":
    sys.argv[0] = re.sub(r"(-script\\.pyw|\\.exe)?$", "", sys.argv[0])
    sys.exit(main())
"""


def test_doctests() -> None:
    assert doctest.testmod(startup).failed == 0


def _interrupt_during_imports(command: list[str]) -> tuple[int, str, str]:
    """Run ``python -X importtime COMMAND``, Ctrl-C it as soon as its first cpwords module is
    imported (the rest of the imports take some 0.2 s more); (status, stdout, stderr)."""
    proc = subprocess.Popen(
        [sys.executable, "-X", "importtime", *command],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watchdog = threading.Timer(120, proc.kill)
    watchdog.start()
    seen = []
    assert proc.stderr is not None
    for line in proc.stderr:
        seen.append(line)
        if "cpwords.core.errors" in line:
            break
    else:
        raise AssertionError(f"cpwords.core.errors was never imported: {seen[-5:]}")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=100)
    watchdog.cancel()
    return proc.returncode, out, err


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGINT delivery")
@pytest.mark.parametrize("entry", ["console script", "python -m cpwords"])
def test_ctrl_c_during_the_imports_is_exit_130_without_a_traceback(
    tmp_path: Path, entry: str
) -> None:
    words = tmp_path / "words.txt"
    words.write_text("seasick\nkiln\nnausea\n", encoding="utf-8")
    script = tmp_path / "cpwords"
    script.write_text(CONSOLE_SCRIPT, encoding="utf-8")
    head = [str(script)] if entry == "console script" else ["-m", "cpwords"]
    code, out, err = _interrupt_during_imports([*head, "chain", str(words), "--json"])
    lines = [x for x in err.splitlines() if not x.startswith("import time:")]
    assert code == 130 and "Traceback" not in err, err
    assert lines in (["cpwords: interrupted"], ["cpwords: interrupted (Ctrl-C)"]), err
    row = json.loads(out)  # the same answer as a Ctrl-C before any answer, after the imports
    assert row["status"] == "UNKNOWN" and row["interrupted"] is True


@pytest.mark.slow
def test_a_program_that_imports_cpwords_keeps_its_own_ctrl_c() -> None:
    code = "import signal, cpwords; print(signal.getsignal(2) is signal.default_int_handler)"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.stdout.strip() == "True", res.stderr


def test_the_command_line_is_told_from_other_programs() -> None:
    python = sys.executable
    assert startup.is_command_line(["/usr/local/bin/cpwords"], [python, "/usr/local/bin/cpwords"])
    assert startup.is_command_line(["-m"], [python, "-X", "importtime", "-m", "cpwords", "x"])
    assert startup.is_command_line(["-m"], [python, "-mcpwords"])
    assert not startup.is_command_line(["-m"], [python, "-m", "cpwords.cli"])
    assert not startup.is_command_line(["-m"], [python, "-m", "pytest", "-m", "cpwords"])
    assert not startup.is_command_line(["prog.py"], [python, "prog.py", "-m", "cpwords"])
    assert not startup.is_command_line(["-c"], [python, "-c", "import cpwords", "-m", "cpwords"])
