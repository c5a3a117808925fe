"""Letterpress: the page (a board's best moves) and its JSON answer."""

from __future__ import annotations

import functools

from starlette.routing import Route

from cpwords.serve import views
from cpwords.serve.routes.common import Web, view_routes


def routes(web: Web) -> list[Route]:
    """The Letterpress page and its JSON answer (:func:`~cpwords.serve.views.letterpress_view`);
    the best move of a coloured board is found on POST only."""
    view = functools.partial(views.letterpress_view, web.lexicons)
    return view_routes(web, "letterpress", "Letterpress", view, costly=views.letterpress_costly)
