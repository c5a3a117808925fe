"""What one server is started with: its limits (:class:`Settings`) and their defaults."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Largest word list accepted by the Wordsnake page (bytes of the request body).
MAX_UPLOAD = 4 * 1024 * 1024

#: Longest time limit a page may ask for (seconds): ``cpwords snake``'s default.
MAX_TIME_LIMIT = 600.0

#: The Wordsnake page's default time limit (seconds). Shorter than ``cpwords snake``'s 600 s
#: (:data:`CLI_TIME_LIMIT`) on purpose: a page's solve holds one of the server's few slots
#: (``--max-solves``) while other solves wait in the queue, and a page is watched (its Stop
#: button ends a solve sooner still); the page says so beside the field.
DEFAULT_TIME_LIMIT = 60.0

#: ``cpwords snake``'s default time limit (seconds), which the page names beside its own.
CLI_TIME_LIMIT = 600.0

#: Solves that may wait for a slot (Wordsnake jobs; the other pages' solves likewise).
MAX_QUEUE = 8

#: Host names a request may be addressed to by default (the Host header, port left out):
#: this machine's own names, so that a page whose name was rebound to 127.0.0.1 (DNS
#: rebinding) is refused.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")

#: Seconds a client has to send a request's head, and then its body.
REQUEST_TIMEOUT = 10.0

#: Requests served at once (503 past it), and connections kept open (past it, the idle ones
#: are closed, longest idle first).
MAX_CONNECTIONS = 200


@dataclass
class Settings:
    """What one server was started with.

    Attributes
    ----------
    max_solves : int
        Wordsnake solves running at once (and, apart, the other pages' solves at once).
    max_queue : int
        Solves that may wait for a slot; one more is answered 429 (503 on the pages).
    max_upload : int
        Largest request body of a Wordsnake solve (bytes).
    max_time_limit : float
        Longest time limit a solve may ask for (seconds).
    grace : float
        Seconds a stopped solve has to answer before its process is killed (a stopped
        default method answers within about a second of the signal; the French wordfreq
        list took up to 1.8 s on a loaded machine, 2026-12-04).
    allowed_hosts : tuple of str
        Names the Host header may carry (Starlette's ``TrustedHostMiddleware``; ``"*"``: any).
    request_timeout : float
        Seconds a client has to send a request's head, then its body (408 after that).
    max_connections : int
        Requests served at once (503 past it), and connections kept open (past it, the idle
        ones are closed, longest idle first; :func:`cpwords.serve.server.guarded_protocol`).
    """

    max_solves: int = 2
    max_queue: int = MAX_QUEUE
    max_upload: int = MAX_UPLOAD
    max_time_limit: float = MAX_TIME_LIMIT
    grace: float = 3.0
    allowed_hosts: tuple[str, ...] = LOCAL_HOSTS
    request_timeout: float = REQUEST_TIMEOUT
    max_connections: int = MAX_CONNECTIONS
    extra: dict[str, Any] = field(default_factory=dict)
