"""Grid puzzles: the page (fill or design a grid) and its JSON answer."""

from __future__ import annotations

from starlette.routing import Route

from cpwords.serve import views
from cpwords.serve.routes.common import Web, view_routes


def routes(web: Web) -> list[Route]:
    """The grid page (the form with its defaults, or the grid filled: the answer of
    :func:`~cpwords.serve.views.grid_view`) and its JSON answer; a completion or a design
    runs on POST only."""
    return view_routes(
        web, "grid", "Word grid", views.grid_view, form=views.grid_form, costly=views.grid_costly
    )
