"""Shortest superstrings: the page (a dictionary or a pasted list) and its JSON."""

from __future__ import annotations

import functools

from starlette.routing import Route

from cpwords.serve import views
from cpwords.serve.routes.common import Web, view_routes


def routes(web: Web) -> list[Route]:
    """The superstring page and its JSON answer (:func:`~cpwords.serve.views.superstring_view`);
    a solve runs on POST only."""
    view = functools.partial(views.superstring_view, web.lexicons)
    return view_routes(web, "superstring", "Shortest string", view, costly=views.superstring_costly)
