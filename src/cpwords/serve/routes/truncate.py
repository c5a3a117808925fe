"""Truncate: the page (a board's best moves) and its JSON answer."""

from __future__ import annotations

import functools

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cpwords.serve import views
from cpwords.serve.routes.common import Web, api_page, heavy_page, route


def routes(web: Web) -> list[Route]:
    """The Truncate page and its JSON answer."""
    return [
        route("/truncate", truncate, web),
        route("/api/truncate", api_truncate, web),
    ]


async def truncate(web: Web, request: Request) -> Response:
    """The page: the form, or the board's moves (:func:`~cpwords.serve.views.truncate_view`)."""
    view = functools.partial(views.truncate_view, web.lexicons)
    return await heavy_page(web, request, "truncate.html", "Truncate", view)


async def api_truncate(web: Web, request: Request) -> Response:
    """The page's answer as JSON."""
    return await api_page(web, request, functools.partial(views.truncate_view, web.lexicons))
