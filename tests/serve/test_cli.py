"""``cpwords serve``: binds 127.0.0.1 by default, warns on any other address."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request

import pytest
from click.testing import CliRunner

from cpwords.cli import cli
from cpwords.serve.server import exposure_warning, is_loopback


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
def test_loopback_hosts_need_no_warning(host: str) -> None:
    assert is_loopback(host) and exposure_warning(host) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.5", "example.org", "::"])
def test_other_hosts_are_warned_about(host: str) -> None:
    warning = exposure_warning(host)
    assert not is_loopback(host) and warning and "other machines can reach" in warning


def test_help_names_the_defaults() -> None:
    res = CliRunner().invoke(cli, ["serve", "--help"])
    assert res.exit_code == 0
    assert "127.0.0.1" in res.output and "--open" in res.output and "--port" in res.output
    assert "--allow-host" in res.output and "--max-queue" in res.output


def test_serve_options_reach_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """--allow-host and --max-queue become the server's settings (the run is stubbed)."""
    import cpwords.serve

    seen: dict[str, object] = {}
    monkeypatch.setattr(cpwords.serve, "run", lambda *a, **kw: seen.update(kw, args=a))
    res = CliRunner().invoke(
        cli, ["serve", "--allow-host", "pc.lan", "--allow-host", "box", "--max-queue", "3"]
    )
    assert res.exit_code == 0, res.output
    assert seen["allow_hosts"] == ("pc.lan", "box") and seen["max_queue"] == 3
    res = CliRunner().invoke(cli, ["serve", "--max-queue", "-1"])
    assert res.exit_code == 2


@pytest.mark.slow
def test_cpwords_serve_starts_on_loopback_and_stops_on_ctrl_c() -> None:
    import signal
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cpwords", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        t0 = time.monotonic()
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as resp:
                    assert resp.status == 200
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() - t0 < 30, proc.stderr
                time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=15)
    assert f"http://127.0.0.1:{port}/" in out
    assert "warning" not in err and "Traceback" not in err


@pytest.mark.slow
def test_a_busy_port_or_an_unknown_host_is_one_line() -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        res = subprocess.run(
            [sys.executable, "-m", "cpwords", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith(f"cpwords: error: cannot listen on 127.0.0.1:{port}: ")
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    res = subprocess.run(
        [sys.executable, "-m", "cpwords", "serve", "--host", "no-such-host.invalid"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith("cpwords: error: cannot listen on 'no-such-host.invalid'")
    assert res.stderr.count("\n") == 1
