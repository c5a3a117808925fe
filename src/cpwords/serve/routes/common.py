"""What every route shares: the server's state (:class:`Web`) and the heavy pages' steps."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import QueryParams
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

import cpwords
from cpwords.core.errors import CpwordsError, InputError
from cpwords.serve import views
from cpwords.serve.jobs import JobManager
from cpwords.serve.messages import page_error
from cpwords.serve.settings import Settings

#: A route's handler: called with the server's state and the request.
Handler = Callable[["Web", Request], Awaitable[Response]]


class LetterBoxedDefault:
    """The default Letter Boxed lexicon, indexed once on first use (thread-safe)."""

    def __init__(self) -> None:
        self._solver: Any = None
        self._lock = threading.Lock()

    def solver(self) -> Any:
        """The indexed solver of the default lexicon (built by the first caller)."""
        with self._lock:
            if self._solver is None:
                self._solver = cpwords.LetterBoxedSolver()
            return self._solver


@dataclass
class Web:
    """One server's shared state, handed to every route.

    Attributes
    ----------
    settings : Settings
        The server's limits.
    templates : starlette.templating.Jinja2Templates
        The pages' templates.
    jobs : JobManager
        The Wordsnake solves (queued, running, finished).
    lb : LetterBoxedDefault
        The default Letter Boxed lexicon.
    lexicons : views.Lexicons
        The other dictionaries and what is built from them.
    busy : Slots
        The pages' own solves (a Letterpress move, a grid fill or design: up to 20 s each)
        run at most ``settings.max_solves`` at once; ``settings.max_queue`` more wait their
        turn.
    """

    settings: Settings
    templates: Jinja2Templates
    jobs: JobManager
    lb: LetterBoxedDefault
    lexicons: views.Lexicons
    busy: Slots

    def page(self, request: Request, name: str, code: int = 200, **context: Any) -> Response:
        """Render template ``name`` with ``context`` and status ``code``."""
        return self.templates.TemplateResponse(request, name, context, status_code=code)


def route(path: str, handler: Handler, web: Web, methods: list[str] | None = None) -> Route:
    """A route calling ``handler(web, request)``, named after the handler."""
    return Route(path, functools.partial(handler, web), methods=methods, name=handler.__name__)


#: Largest form or JSON body of a page's request (bytes).
MAX_FORM = 64 * 1024

#: Why a body is refused as JSON (a syntax error, bad UTF-8, nesting too deep for the parser,
#: or a number of more digits than Python converts).
NOT_JSON = "the request is not JSON (or nests too deep, or has too long a number)"

#: Why a costly query is refused on GET (the pages' forms send it with POST).
POST_ONLY = (
    "this query runs a solve of up to 20 s: send it with POST (the same keys, as a form or "
    "a JSON object), which only this server's own pages may send"
)


async def read_capped(request: Request, cap: int, what: str = "the list") -> bytes:
    """The request body, refused (the one-line error) past ``cap`` bytes."""
    declared = request.headers.get("content-length")
    too_big = f"{what} is larger than the {cap // 1024:,} KiB upload cap"
    if declared is not None and declared.isdigit() and int(declared) > cap:
        raise InputError(too_big)
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            raise InputError(too_big)
        chunks.append(chunk)
    return b"".join(chunks)


async def fields(request: Request) -> Mapping[str, str]:
    """A page's query: the URL's on GET; on POST, the body's (a form, or a JSON object of
    strings, numbers and booleans; ``true`` reads as ``"1"``, ``false`` and null as ``""``).

    Raises
    ------
    InputError
        The body is too large, not UTF-8, not such a JSON object, or of another type.
    """
    if request.method != "POST":
        return request.query_params
    body = await read_capped(request, MAX_FORM, "the form")
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the form is not UTF-8") from None
    if kind == "application/x-www-form-urlencoded":
        return QueryParams(text)
    if kind != "application/json":
        raise InputError(f"send a form or a JSON object, not {kind[:60] or 'no content type'}")
    try:
        data = json.loads(text or "{}")
    except (ValueError, RecursionError):
        raise InputError(
            "the request is not JSON (or nests too deep, or has too long a number)"
        ) from None
    if not isinstance(data, dict) or not all(
        isinstance(v, (str, int, float, bool, type(None))) for v in data.values()
    ):
        raise InputError("the request must be a JSON object of strings, numbers and booleans")
    return {k: _text(v) for k, v in data.items()}


def _text(value: str | float | bool | None) -> str:
    """A JSON value as the form would send it."""
    if isinstance(value, bool) or value is None:
        return "1" if value else ""
    return str(value)


class Slots:
    """At most ``running`` solves at once and ``waiting`` more in line; one more is 503.

    The pages' own solves (a Letterpress move, a grid fill or design, a generated box) hold
    a slot while they run.
    """

    def __init__(self, running: int, waiting: int) -> None:
        self._free = asyncio.Semaphore(running)
        self._waiting = 0
        self.max_waiting = waiting

    @contextlib.asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        """Wait for a slot and hold it.

        Raises
        ------
        starlette.exceptions.HTTPException
            503 when ``max_waiting`` solves already wait.
        """
        if self._free.locked() and self._waiting >= self.max_waiting:
            raise HTTPException(
                503,
                f"the server is busy ({self._waiting} solves waiting): try again shortly",
                headers={"Retry-After": "10"},
            )
        self._waiting += 1
        try:
            await self._free.acquire()
        finally:
            self._waiting -= 1
        try:
            yield
        finally:
            self._free.release()


async def heavy_page(
    web: Web,
    request: Request,
    name: str,
    title: str,
    view: Callable[..., dict[str, Any]],
    *,
    form: Callable[[Any], dict[str, Any]] | None = None,
    costly: Callable[[Mapping[str, str]], bool] | None = None,
) -> Response:
    """A page whose view may solve for seconds: the form alone, or the view's answer.

    The view runs in the thread pool, at most ``max_solves`` at once (``web.busy``). With
    ``form``, the empty page is the view's answer to no query (its defaults), and a refused
    query shows ``form(query)`` (the form keeps what was typed). A query that is ``costly``
    runs its solve on POST only: on GET the view is called with ``solve=False`` (the page
    shows the query checked and a button that sends it with POST).
    """
    ctx: dict[str, Any] = {
        "title": title,
        "q": request.query_params,
        "dicts": views.dictionary_choices(),
    }
    try:
        q = await fields(request)
        ctx["q"] = q
        if not q:
            ctx |= await run_in_threadpool(view, {}) if form is not None else {}
            return web.page(request, name, **ctx)
        if request.method != "POST" and costly is not None and costly(q):
            view = functools.partial(view, solve=False)
        async with web.busy.hold():
            ctx |= await run_in_threadpool(view, q)
    except CpwordsError as exc:
        if form is not None:
            ctx |= form(ctx["q"])
        return web.page(request, name, code=400, error=page_error(exc), **ctx)
    return web.page(request, name, **ctx)


def view_routes(
    web: Web,
    page: str,
    title: str,
    view: Callable[..., dict[str, Any]],
    form: Callable[[Any], dict[str, Any]] | None = None,
    costly: Callable[[Mapping[str, str]], bool] | None = None,
) -> list[Route]:
    """A page at ``/page`` (template ``page.html``) whose view may solve for seconds, and the
    same view's answer as JSON at ``/api/page`` (routes named ``page`` and ``api_page``).

    Both take GET and POST; a ``costly`` query (a solve of seconds) is answered on POST only
    (the page on GET shows it unsolved; the JSON answer on GET is 405)."""

    async def show(request: Request) -> Response:
        return await heavy_page(web, request, f"{page}.html", title, view, form=form, costly=costly)

    async def answer(request: Request) -> Response:
        return await api_page(web, request, view, costly)

    methods = ["GET", "POST"]
    return [
        Route(f"/{page}", show, name=page, methods=methods),
        Route(f"/api/{page}", answer, name=f"api_{page}", methods=methods),
    ]


async def api_page(
    web: Web,
    request: Request,
    view: Callable[..., dict[str, Any]],
    costly: Callable[[Mapping[str, str]], bool] | None = None,
) -> Response:
    """A page's answer as JSON (the same view; its drawings as SVG text)."""
    try:
        q = await fields(request)
        if request.method != "POST" and costly is not None and costly(q):
            return JSONResponse(
                {"error": POST_ONLY}, status_code=405, headers={"Allow": "GET, POST"}
            )
        async with web.busy.hold():
            ctx = await run_in_threadpool(view, q)
    except CpwordsError as exc:
        return JSONResponse({"error": page_error(exc)}, status_code=400)
    return JSONResponse(views.as_json(ctx))
