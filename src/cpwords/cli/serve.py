"""``cpwords serve``: the puzzles as local web pages (needs the ``web`` extra)."""

from __future__ import annotations

import click

from cpwords.serve.settings import MAX_QUEUE


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="TCP port."
)
@click.option("--open", "open_browser", is_flag=True, help="Open the start page in a browser.")
@click.option(
    "--max-solves",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="Wordsnake solves at once (each in its own process); the others wait in a queue.",
)
@click.option(
    "--max-queue",
    type=click.IntRange(min=0),
    default=MAX_QUEUE,
    show_default=True,
    help="Solves that may wait for a slot; one more is refused (429) until one ends.",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Also answer requests addressed to NAME (a name this machine is reached by; "
    "repeatable). 127.0.0.1, localhost, [::1] and --host are always accepted; other names are "
    "refused (400), which keeps rebound names (DNS rebinding) out. '*' accepts any.",
)
def serve(
    host: str,
    port: int,
    open_browser: bool,
    max_solves: int,
    max_queue: int,
    allow_hosts: tuple[str, ...],
) -> None:
    """Serve the puzzles as web pages on this machine.

    Seven pages: Letter Boxed (type or generate a box: the solution drawn on the square, every
    optimal solution, the counts, a hint mode), Wordsnake (paste a list, watch the incumbent and
    the bound live, stop the solve, see the snake and download its JSON), Letterpress (every
    word a bag of letters spells; the best move on a coloured board), Truncate (the longest
    chains to or from a word), the prefix/suffix grid (check, solve or design a board), word
    chains (the longest chain of a dictionary or of your words, proven and drawn) and the
    shortest superstring (of a dictionary or of your words, proven, each word underlined). The
    dictionary menus offer the curated dictionaries installed here. The server binds
    127.0.0.1 unless --host says otherwise, and warns when it does. Requests addressed to
    another name, and requests that start work sent by another site's page, are refused; a
    solve of seconds runs only when the page's own form sends it (POST). Ctrl-C stops the
    server and every solve it started.
    """
    from cpwords.serve import run

    run(
        host,
        port,
        open_browser=open_browser,
        max_solves=max_solves,
        max_queue=max_queue,
        allow_hosts=allow_hosts,
        warn=lambda m: click.echo(f"cpwords: warning: {m}", err=True),
    )
