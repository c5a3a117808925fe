"""What every route shares: the server's state (:class:`Web`) and the heavy pages' steps."""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

import cpwords
from cpwords.core.errors import CpwordsError
from cpwords.serve import views
from cpwords.serve.jobs import JobManager
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
    busy : asyncio.Semaphore
        The pages' own solves (a Letterpress move, a grid fill or design: up to 20 s each)
        run at most ``settings.max_solves`` at once; the rest wait their turn.
    """

    settings: Settings
    templates: Jinja2Templates
    jobs: JobManager
    lb: LetterBoxedDefault
    lexicons: views.Lexicons
    busy: asyncio.Semaphore

    def page(self, request: Request, name: str, code: int = 200, **context: Any) -> Response:
        """Render template ``name`` with ``context`` and status ``code``."""
        return self.templates.TemplateResponse(request, name, context, status_code=code)


def route(path: str, handler: Handler, web: Web, methods: list[str] | None = None) -> Route:
    """A route calling ``handler(web, request)``, named after the handler."""
    return Route(path, functools.partial(handler, web), methods=methods, name=handler.__name__)


async def heavy_page(
    web: Web,
    request: Request,
    name: str,
    title: str,
    view: Callable[[Any], dict[str, Any]],
    *,
    form: Callable[[Any], dict[str, Any]] | None = None,
) -> Response:
    """A page whose view may solve for seconds: the form alone, or the view's answer.

    The view runs in the thread pool, at most ``max_solves`` at once (``web.busy``). With
    ``form``, the empty page is the view's answer to no query (its defaults), and a refused
    query shows ``form(query)`` (the form keeps what was typed).
    """
    q = request.query_params
    ctx: dict[str, Any] = {"title": title, "q": q, "dicts": views.dictionary_choices()}
    if not q:
        ctx |= await run_in_threadpool(view, {}) if form is not None else {}
        return web.page(request, name, **ctx)
    try:
        async with web.busy:
            ctx |= await run_in_threadpool(view, q)
    except CpwordsError as exc:
        if form is not None:
            ctx |= form(q)
        return web.page(request, name, code=400, error=str(exc), **ctx)
    return web.page(request, name, **ctx)


def view_routes(
    web: Web,
    page: str,
    title: str,
    view: Callable[[Any], dict[str, Any]],
    form: Callable[[Any], dict[str, Any]] | None = None,
) -> list[Route]:
    """A page at ``/page`` (template ``page.html``) whose view may solve for seconds, and the
    same view's answer as JSON at ``/api/page`` (routes named ``page`` and ``api_page``)."""

    async def show(request: Request) -> Response:
        return await heavy_page(web, request, f"{page}.html", title, view, form=form)

    async def answer(request: Request) -> Response:
        return await api_page(web, request, view)

    return [Route(f"/{page}", show, name=page), Route(f"/api/{page}", answer, name=f"api_{page}")]


async def api_page(web: Web, request: Request, view: Callable[[Any], dict[str, Any]]) -> Response:
    """A page's answer as JSON (the same view; its drawings as SVG text)."""
    try:
        async with web.busy:
            ctx = await run_in_threadpool(view, request.query_params)
    except CpwordsError as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    return JSONResponse(views.as_json(ctx))
