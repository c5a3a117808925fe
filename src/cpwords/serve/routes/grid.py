"""Grid puzzles: the page (fill or design a grid) and its JSON answer."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cpwords.serve import views
from cpwords.serve.routes.common import Web, api_page, heavy_page, route


def routes(web: Web) -> list[Route]:
    """The grid page and its JSON answer."""
    return [route("/grid", grid, web), route("/api/grid", api_grid, web)]


async def grid(web: Web, request: Request) -> Response:
    """The page: the form (with its defaults), or the grid filled.

    The answer is :func:`~cpwords.serve.views.grid_view`'s.
    """
    return await heavy_page(web, request, "grid.html", "Grid", views.grid_view)


async def api_grid(web: Web, request: Request) -> Response:
    """The page's answer as JSON."""
    return await api_page(web, request, views.grid_view)
