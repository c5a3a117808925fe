"""Running the application: uvicorn on 127.0.0.1 unless told otherwise."""

from __future__ import annotations

import ipaddress
import socket
import threading
import webbrowser
from collections.abc import Callable, Sequence
from typing import Any

from cpwords.core.errors import InputError
from cpwords.serve.settings import MAX_QUEUE, Settings

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
    max_queue: int = MAX_QUEUE,
    allow_hosts: Sequence[str] = (),
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
    max_queue : int
        Solves that may wait; one more is refused (429) until one ends.
    allow_hosts : sequence of str
        Names besides this machine's own (and ``host``) that requests may be addressed to
        (``"*"``: any, which lets a rebound page name reach the server).
    warn : callable, optional
        Receives the warning of a non-loopback host (default: print to stderr).

    Raises
    ------
    InputError
        The web extra is not installed, the host is not known or the port cannot be bound.
    """
    try:
        import uvicorn
    except ImportError:
        raise InputError(
            "cpwords serve needs the web extra: pip install -e '.[web]' (in the cpwords checkout)"
        ) from None
    from cpwords.serve.app import create_app
    from cpwords.serve.guard import allowed_hosts

    sock = listen(host, port)  # a busy port or an unknown host: one line, before anything else
    port = int(sock.getsockname()[1])
    message = exposure_warning(host)
    if message is not None:
        if warn is None:
            import sys

            print(f"cpwords: warning: {message}", file=sys.stderr)
        else:
            warn(message)
    settings = Settings(
        max_solves=max_solves, max_queue=max_queue, allowed_hosts=allowed_hosts(host, allow_hosts)
    )
    config = uvicorn_config(create_app(settings), host, port, settings, log_level)
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
    server.run(sockets=[sock])


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` and ``port`` (as uvicorn binds: IPv6 when ``host`` has a
    colon), for the server to listen on.

    Raises
    ------
    InputError
        The host is not known, or the address cannot be bound (a port in use, an address
        not of this machine, a privileged port): the one line, before anything is served.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        addr = socket.getaddrinfo(host, port, family, socket.SOCK_STREAM)[0][4]
    except (socket.gaierror, UnicodeError) as exc:
        raise InputError(f"cannot listen on {host[:100]!r}: {exc} (--host)") from None
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
    except OSError as exc:
        sock.close()
        why = (exc.strerror or type(exc).__name__).lower()
        raise InputError(f"cannot listen on {host}:{port}: {why}") from None
    return sock


def uvicorn_config(
    app: Any, host: str, port: int, settings: Settings, log_level: str = "warning"
) -> Any:
    """The uvicorn configuration of a server: its connection limit and its deadlines.

    Idle connections never lock clients out. At most ``settings.max_connections`` connections
    stay open: past it, a new connection closes those idle the longest (open with no request
    being served: none sent yet, or between two of a keep-alive connection), oldest first
    (:func:`guarded_protocol`). Requests are limited apart: past ``settings.max_connections``
    served at once, 503 (:class:`~cpwords.serve.guard.RequestLimitMiddleware`). uvicorn's own
    ``limit_concurrency`` is off: it counted every open connection, so 200 connections opened
    and left silent made every client's request 503 until the head deadline closed them (10
    s, and again as often as they were opened). A connection idle between requests is closed
    after 5 s (``timeout_keep_alive``), and one that does not finish sending a request's head
    within ``settings.request_timeout`` seconds is closed (the body has the same deadline,
    :class:`~cpwords.serve.guard.BodyDeadlineMiddleware`).

    Returns
    -------
    uvicorn.Config
    """
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        lifespan="on",
        http=guarded_protocol(settings.request_timeout, settings.max_connections),
        limit_concurrency=None,
        timeout_keep_alive=5,
        h11_max_incomplete_event_size=64 * 1024,
    )


def guarded_protocol(timeout: float, max_connections: int) -> type:
    """uvicorn's h11 protocol with the server's two connection guards.

    - A connection that starts no request within ``timeout`` seconds of opening or of its last
      answer (a client sending its head byte by byte, or nothing) is closed.
    - Past ``max_connections`` open connections, each new one closes the idle connections
      (no request being served) that have waited longest, so that connections opened and left
      silent cannot keep others out: a client's request gets its turn as soon as it is sent.

    Parameters
    ----------
    timeout : float
        Seconds to send a request's head.
    max_connections : int
        Open connections past which the idle ones are closed.

    Returns
    -------
    type
        A subclass of ``uvicorn.protocols.http.h11_impl.H11Protocol``.
    """
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Guarded(H11Protocol):
        idle_since = 0.0

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.idle_since = self.loop.time()
            self.loop.call_later(timeout, self._overdue, self.cycle)
            if len(self.connections) > max_connections:
                self._close_idle(len(self.connections) - max_connections)

        def on_response_complete(self) -> None:
            waited_since = self.cycle  # a new request on this connection replaces it
            self.idle_since = self.loop.time()
            super().on_response_complete()
            self.loop.call_later(timeout, self._overdue, waited_since)

        def is_idle(self) -> bool:
            """No request being served (none started, or the last one answered)."""
            return not self.transport.is_closing() and (
                self.cycle is None or self.cycle.response_complete
            )

        def _close_idle(self, count: int) -> None:
            idle = [
                c
                for c in self.connections
                if c is not self and isinstance(c, Guarded) and c.is_idle()
            ]
            idle.sort(key=lambda c: c.idle_since)
            for c in idle[:count]:
                c.transport.close()

        def _overdue(self, cycle: Any) -> None:
            if self.cycle is cycle and not self.transport.is_closing():
                self.transport.close()  # no request started since: its head is overdue

    return Guarded


def _bound_port(server: object, port: int) -> int:
    try:
        return int(server.servers[0].sockets[0].getsockname()[1])  # type: ignore[attr-defined]
    except (AttributeError, IndexError):
        return port
