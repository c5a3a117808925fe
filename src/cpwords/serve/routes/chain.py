"""Word chains: the page (the longest chain of a dictionary or a pasted list) and its JSON."""

from __future__ import annotations

import functools

from starlette.routing import Route

from cpwords.serve import views
from cpwords.serve.routes.common import Web, view_routes


def routes(web: Web) -> list[Route]:
    """The chain page and its JSON answer (:func:`~cpwords.serve.views.chain_view`); a solve
    runs on POST only."""
    view = functools.partial(views.chain_view, web.lexicons)
    return view_routes(web, "chain", "Word chain", view, costly=views.chain_costly)
