"""Running the application: uvicorn on 127.0.0.1 unless told otherwise."""

from __future__ import annotations

import ipaddress
import threading
import webbrowser
from collections.abc import Callable

from cpwords.core.errors import InputError

#: Hosts that only this machine can reach.
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def is_loopback(host: str) -> bool:
    """True when ``host`` is reachable from this machine only.

    Examples
    --------
    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def exposure_warning(host: str) -> str | None:
    """The warning a server bound to ``host`` prints, or None on a loopback address."""
    if is_loopback(host):
        return None
    return (
        f"serving on {host}: other machines can reach this server and start solves on it "
        "(there is no login); use --host 127.0.0.1 unless you mean it"
    )


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    open_browser: bool = False,
    max_solves: int = 2,
    warn: Callable[[str], None] | None = None,
    log_level: str = "warning",
) -> None:
    """Serve the application with uvicorn until Ctrl-C; children are stopped on the way out.

    Parameters
    ----------
    host : str
        Address to bind (default the loopback address; anything else prints a warning).
    port : int
        TCP port (0: any free port).
    open_browser : bool
        Open the start page in the default browser once the server listens.
    max_solves : int
        Wordsnake solves run at once; others wait in a queue.
    warn : callable, optional
        Receives the warning of a non-loopback host (default: print to stderr).

    Raises
    ------
    InputError
        The web extra is not installed.
    """
    try:
        import uvicorn
    except ImportError:
        raise InputError("cpwords serve needs the web extra: pip install 'cpwords[web]'") from None
    from cpwords.serve.app import Settings, create_app

    message = exposure_warning(host)
    if message is not None:
        if warn is None:
            import sys

            print(f"cpwords: warning: {message}", file=sys.stderr)
        else:
            warn(message)
    app = create_app(Settings(max_solves=max_solves))
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, lifespan="on")
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host
    if open_browser:

        def opener() -> None:
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started:
                webbrowser.open(f"http://{shown}:{_bound_port(server, port)}/")

        threading.Thread(target=opener, daemon=True).start()
    print(f"cpwords serve: http://{shown}:{port}/ (Ctrl-C stops)", flush=True)
    server.run()


def _bound_port(server: object, port: int) -> int:
    try:
        return int(server.servers[0].sockets[0].getsockname()[1])  # type: ignore[attr-defined]
    except (AttributeError, IndexError):
        return port
