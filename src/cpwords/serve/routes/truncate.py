"""Truncate: the page (the longest chains of a dictionary) and its JSON answer."""

from __future__ import annotations

import functools

from starlette.routing import Route

from cpwords.serve import views
from cpwords.serve.routes.common import Web, view_routes


def routes(web: Web) -> list[Route]:
    """The Truncate page and its JSON answer (:func:`~cpwords.serve.views.truncate_view`)."""
    view = functools.partial(views.truncate_view, web.lexicons)
    return view_routes(web, "truncate", "Truncate", view)
