"""The web application's routes, one module per page family.

Each module exposes ``routes(web)``: its Starlette routes, given the server's shared state
(:class:`~cpwords.serve.routes.common.Web`). A route parses the request, calls the public
API (in the thread pool, or the job queue for a Wordsnake solve) and renders a template or
answers JSON. :func:`cpwords.serve.app.create_app` assembles them.
"""
