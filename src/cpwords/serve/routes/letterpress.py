"""Letterpress: the page (a board's best moves) and its JSON answer."""

from __future__ import annotations

import functools

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cpwords.serve import views
from cpwords.serve.routes.common import Web, api_page, heavy_page, route


def routes(web: Web) -> list[Route]:
    """The Letterpress page and its JSON answer."""
    return [
        route("/letterpress", letterpress, web),
        route("/api/letterpress", api_letterpress, web),
    ]


async def letterpress(web: Web, request: Request) -> Response:
    """The page: the form, or the board's moves (:func:`~cpwords.serve.views.letterpress_view`)."""
    view = functools.partial(views.letterpress_view, web.lexicons)
    return await heavy_page(web, request, "letterpress.html", "Letterpress", view)


async def api_letterpress(web: Web, request: Request) -> Response:
    """The page's answer as JSON."""
    return await api_page(web, request, functools.partial(views.letterpress_view, web.lexicons))
