"""The start page, the server's status, and the error pages (HTML, or JSON under /api/)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cpwords.core.errors import short_message
from cpwords.serve.guard import SECURITY_HEADERS
from cpwords.serve.routes.common import Web, route


async def index(web: Web, request: Request) -> Response:
    """The start page."""
    return web.page(request, "index.html", title="cpwords")


async def status(web: Web, request: Request) -> Response:
    """Running Wordsnake solves and the limit, as JSON."""
    return JSONResponse({"running": web.jobs.running(), "max_solves": web.settings.max_solves})


async def not_found(web: Web, request: Request, exc: Exception) -> Response:
    """An HTTP error (404 and the like): the error page, or ``{"error": ...}`` under /api/."""
    code = getattr(exc, "status_code", 404)
    detail = short_message(str(getattr(exc, "detail", "not found")))
    headers = getattr(exc, "headers", None) or {}
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": detail}, status_code=code, headers=headers)
    page = web.page(request, "error.html", code=code, title="cpwords", error=detail)
    page.headers.update(headers)
    return page


async def server_error(web: Web, request: Request, exc: Exception) -> Response:
    """An unexpected exception: a plain "internal error", never a traceback."""
    msg = "internal error (a bug in cpwords: the server log has the details)"
    # Starlette answers it outside the middleware: the security headers are added here.
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": msg}, status_code=500, headers=SECURITY_HEADERS)
    page = web.page(request, "error.html", code=500, title="cpwords", error=msg)
    page.headers.update(SECURITY_HEADERS)
    return page


def routes(web: Web) -> list[Route]:
    """The start page and the status (``/api/status``)."""
    return [route("/", index, web), route("/api/status", status, web)]


def exception_handlers(web: Web) -> dict[Any, Callable[..., Any]]:
    """The application's handlers of HTTP errors and of unexpected exceptions (500)."""
    return {
        HTTPException: functools.partial(not_found, web),
        500: functools.partial(server_error, web),
    }
