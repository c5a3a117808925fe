"""The web application: Starlette routes over the public API, pages from Jinja2 templates.

Every answer comes from the same calls a Python user makes (``cpwords.solve_letterboxed``,
``cpwords.generate_boxes``, ``cpwords.solve_wordsnake`` in a child process) and every drawing
from the wings' renderers (:mod:`cpwords.letterboxed.draw`, :mod:`cpwords.wordsnake.draw`).
An error cpwords raises on purpose is shown as the CLI's one line (``error: ...``); anything
else is a plain "internal error" page, never a traceback.

The routes live in :mod:`cpwords.serve.routes`, one module per page family; this module
assembles them around one shared state (:class:`~cpwords.serve.routes.common.Web`).
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

import cpwords
from cpwords.serve import views
from cpwords.serve.guard import (
    BodyDeadlineMiddleware,
    RequestLimitMiddleware,
    SameOriginMiddleware,
    SecurityHeadersMiddleware,
)
from cpwords.serve.jobs import JobManager
from cpwords.serve.routes import (
    chain,
    exports,
    grid,
    home,
    letterboxed,
    letterpress,
    snake,
    superstring,
    truncate,
)
from cpwords.serve.routes.common import LetterBoxedDefault, Slots, Web
from cpwords.serve.routes.letterboxed import DIFFICULTIES as DIFFICULTIES
from cpwords.serve.routes.letterboxed import LB_DEFAULT_DICT as LB_DEFAULT_DICT
from cpwords.serve.routes.snake import SNAKE_METHODS as SNAKE_METHODS
from cpwords.serve.settings import DEFAULT_TIME_LIMIT as DEFAULT_TIME_LIMIT
from cpwords.serve.settings import MAX_TIME_LIMIT as MAX_TIME_LIMIT
from cpwords.serve.settings import MAX_UPLOAD as MAX_UPLOAD
from cpwords.serve.settings import Settings as Settings

_HERE = resources.files("cpwords.serve")


def create_app(settings: Settings | None = None) -> Starlette:
    """The cpwords web application.

    Parameters
    ----------
    settings : Settings, optional
        Limits (concurrent and queued solves, upload size, time limit, stop grace) and the
        Host names requests may be addressed to (default: this machine's loopback names).

    Returns
    -------
    starlette.applications.Starlette
        An ASGI application; ``app.state.jobs`` is its :class:`~cpwords.serve.jobs.JobManager`.
    """
    settings = settings or Settings()
    web = _web(settings)
    routes = [
        *home.routes(web),
        *letterboxed.routes(web),
        *letterpress.routes(web),
        *truncate.routes(web),
        *grid.routes(web),
        *snake.routes(web),
        *chain.routes(web),
        *superstring.routes(web),
        *exports.routes(web),
        Mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=_guards(settings),
        exception_handlers=home.exception_handlers(web),
        lifespan=functools.partial(_lifespan, web.jobs),
    )
    app.state.jobs = web.jobs
    app.state.settings = settings
    return app


def _guards(settings: Settings) -> list[Middleware]:
    """The checks around every route (:mod:`cpwords.serve.guard`), outermost first: the
    security headers of every answer, the requests served at once, the Host header (DNS
    rebinding), the sending page's origin (cross-site requests), the body's deadline (slow
    clients)."""
    return [
        Middleware(SecurityHeadersMiddleware),
        Middleware(RequestLimitMiddleware, limit=settings.max_connections),
        Middleware(
            TrustedHostMiddleware, allowed_hosts=list(settings.allowed_hosts), www_redirect=False
        ),
        Middleware(SameOriginMiddleware),
        Middleware(BodyDeadlineMiddleware, timeout=settings.request_timeout),
    ]


def _web(settings: Settings) -> Web:
    """The server's shared state: templates, the solve queue, the lexicons, the page limit."""
    templates = Jinja2Templates(directory=str(_HERE / "templates"))
    templates.env.globals["version"] = cpwords.__version__
    templates.env.filters["command_json"] = command_json  # a page's JSON download
    jobs = JobManager(
        max_running=settings.max_solves, grace=settings.grace, max_queued=settings.max_queue
    )
    lb = LetterBoxedDefault()
    lexicons = views.Lexicons()
    # The pages' own solves (a Letterpress move, a grid fill or design: up to 20 s each) run
    # at most max_solves at once; at most max_queue others wait their turn.
    busy = Slots(settings.max_solves, settings.max_queue)
    return Web(settings, templates, jobs, lb, lexicons, busy)


def command_json(row: Any) -> str:
    """``row`` as the command line prints it with ``--json``: strict JSON (non-finite numbers
    as null), its keys in their order (a page's JSON download).

    Examples
    --------
    >>> command_json({"status": "OPTIMAL", "gap": float("inf"), "solution": ("a", "b")})
    '{"status": "OPTIMAL", "gap": null, "solution": ["a", "b"]}'
    """
    return json.dumps(views.command_row(row))


@contextlib.asynccontextmanager
async def _lifespan(jobs: JobManager, app: Starlette) -> AsyncIterator[None]:
    """The server's life: at its end, no solve outlives it."""
    yield
    await run_in_threadpool(jobs.shutdown)  # no solve outlives the server
