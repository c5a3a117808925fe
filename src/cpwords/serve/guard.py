"""What keeps other web pages and slow clients off the server: the checks around the routes.

A page the user visits elsewhere can make the browser send requests to ``127.0.0.1``; three
checks keep it from starting solves or reading their results:

- **Host** (Starlette's :class:`~starlette.middleware.trustedhost.TrustedHostMiddleware`):
  a request must be addressed to one of the server's names (:func:`allowed_hosts`). A page
  whose own name was rebound to 127.0.0.1 (DNS rebinding) sends its own name and gets 400.
- **Origin** (:class:`SameOriginMiddleware`): a request that changes something (any method
  but GET, HEAD and OPTIONS) sent by a browser from another site gets 403. Browsers name the
  sending page in ``Origin`` and ``Sec-Fetch-Site`` on every such request; tools such as
  ``curl`` send neither and are let through (they are not a visited page).
- **Costly work behind POST**: a solve of seconds (a Letterpress move, a grid completion or
  design, a generated box) runs only on POST, so an image tag or a link on another page,
  which can only GET, cannot run it.

Slow clients: :class:`BodyDeadlineMiddleware` answers 408 to a request whose body has not
arrived within the deadline; the request's head has the same deadline, kept by the server's
protocol (:mod:`cpwords.serve.server`), which also closes idle connections past its limit of
open ones. Requests served at once are limited apart (:class:`RequestLimitMiddleware`: 503).

Every answer carries ``X-Content-Type-Options: nosniff`` and the :data:`CONTENT_SECURITY_POLICY`
(:class:`SecurityHeadersMiddleware`): the pages' scripts and styles are files of the server's
(no inline script, no inline style), so a string that slipped into a page could run nothing;
and an error quotes at most a short excerpt of what was sent
(:func:`cpwords.core.errors.short_message`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cpwords.core.errors import short_message
from cpwords.serve.settings import LOCAL_HOSTS

#: Methods that change nothing (the only ones another site's page may send us).
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

#: ``Sec-Fetch-Site`` values of a request a page of ours sent (or the user typed).
OWN_SITES = frozenset({"same-origin", "none"})

#: Addresses that mean "every interface" (no name to add to the allowed hosts).
_WILDCARDS = frozenset({"0.0.0.0", "::", ""})


def allowed_hosts(bind: str, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The Host header values a server bound to ``bind`` accepts (ports left out).

    This machine's loopback names, the bound address itself (unless it is a wildcard such as
    ``0.0.0.0``) and the ``extra`` names (``--allow-host``; ``"*"`` accepts any).

    Parameters
    ----------
    bind : str
        The address the server listens on.
    extra : iterable of str
        More names (lower-cased; an IPv6 address gets its brackets).

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> allowed_hosts("127.0.0.1")
    ('127.0.0.1', 'localhost', '[::1]')
    >>> allowed_hosts("0.0.0.0", ["pc.lan"])
    ('127.0.0.1', 'localhost', '[::1]', 'pc.lan')
    >>> allowed_hosts("fe80::1")
    ('127.0.0.1', 'localhost', '[::1]', '[fe80::1]')
    """
    names = list(LOCAL_HOSTS)
    wanted = [] if bind in _WILDCARDS else [bind]
    for name in [*wanted, *extra]:
        name = name.strip().lower()
        if ":" in name and not name.startswith("["):
            name = f"[{name}]"
        if name and name not in names:
            names.append(name)
    return tuple(names)


def _refusal(scope: Scope, code: int, message: str) -> Response:
    """The one-line answer: ``{"error": ...}`` under /api/, plain text elsewhere."""
    message = short_message(message)
    if str(scope.get("path", "")).startswith("/api/"):
        return JSONResponse({"error": message}, status_code=code)
    return PlainTextResponse(f"error: {message}\n", status_code=code)


def cross_site(scope: Scope) -> str | None:
    """Why this request comes from another site's page, or None when it does not.

    A request counts as cross-site when ``Sec-Fetch-Site`` says so, or when its ``Origin``
    is not the origin the request is addressed to (``scheme://Host``); a request with
    neither header (``curl``, a script) is not a page's and passes.
    """
    headers = Headers(scope=scope)
    site = headers.get("sec-fetch-site")
    if site is not None and site.lower() not in OWN_SITES:
        return f"a {site} request (sent by another site's page)"
    origin = headers.get("origin")
    if origin is None:
        return None
    own = f"{scope.get('scheme', 'http')}://{headers.get('host', '')}".lower()
    if origin.lower() != own:
        return f"a request from {origin[:100]!r} (another site's page)"
    return None


class SameOriginMiddleware:
    """403 for a request that changes something (a POST) sent by another site's page."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            why = cross_site(scope)
            if why is not None:
                msg = f"refused {why}: only this server's own pages may send it"
                await _refusal(scope, 403, msg)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class BodyDeadlineMiddleware:
    """408 for a request whose body does not arrive within ``timeout`` seconds.

    The deadline runs from the moment the route first reads the body; once the body is
    complete, reading goes on unbounded (a route waiting for the client to leave, as the
    event stream does, is not a slow client).
    """

    def __init__(self, app: ASGIApp, timeout: float) -> None:
        self.app = app
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        state: dict[str, float | bool] = {"complete": False}

        async def timed_receive() -> Message:
            if state["complete"]:
                return await receive()
            deadline = float(state.setdefault("deadline", loop.time() + self.timeout))
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise HTTPException(
                    408,
                    f"the request's body did not arrive within {self.timeout:g} s",
                    headers={"Connection": "close"},
                ) from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                state["complete"] = True
            return message

        await self.app(scope, timed_receive, send)


#: The Content-Security-Policy of every answer. The pages load their scripts and style sheet
#: from the server (``/static/``), use no inline script, style attribute or ``eval``, draw
#: with inline SVG (no style in it), show a ``data:`` icon, and talk to the server only
#: (``fetch``, ``EventSource``, forms).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

#: The headers :class:`SecurityHeadersMiddleware` adds to every answer.
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
}


class SecurityHeadersMiddleware:
    """``X-Content-Type-Options: nosniff`` and the Content-Security-Policy on every answer
    (:data:`SECURITY_HEADERS`; a route's own value of either is kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class RequestLimitMiddleware:
    """503 for a request past ``limit`` being served at once (idle connections do not count:
    they are the server protocol's, :func:`cpwords.serve.server.guarded_protocol`)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.active = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.active >= self.limit:
            msg = f"the server is serving {self.active} requests, its limit: try again shortly"
            response = _refusal(scope, 503, msg)
            response.headers["Retry-After"] = "5"
            await response(scope, receive, send)
            return
        self.active += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.active -= 1
