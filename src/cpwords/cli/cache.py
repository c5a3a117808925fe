"""``cpwords cache``: see and clear the on-disk Letterpress index cache."""

from __future__ import annotations

import click

from ._common import echo_json


@click.group("cache")
def cache() -> None:
    """The Letterpress index cache ($CPWORDS_CACHE_DIR or the user cache dir).

    One index file per dictionary, keyed by a hash of its content; when the cache grows past
    its cap ($CPWORDS_CACHE_MAX_MB, default 512 MB) the least recently used files are deleted.
    """


@cache.command("info")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def info(as_json: bool) -> None:
    """Where the cache is, how many index files it holds and their size."""
    from ..models.letterpress import cache_info

    d = cache_info()
    if as_json:
        echo_json(d)
        return
    click.echo(f"dir    {d['dir']}")
    click.echo(f"files  {d['files']} ({d['bytes'] / 1e6:.1f} MB of {d['max_bytes'] / 1e6:.0f} MB)")
    for e in d["entries"]:
        click.echo(f"  {e['file']}  {e['bytes'] / 1e6:.1f} MB")


@cache.command("clear")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def clear(as_json: bool) -> None:
    """Delete every cached index (they are rebuilt when needed)."""
    from ..models.letterpress import cache_clear, cache_dir

    n = cache_clear()
    if as_json:
        echo_json({"removed": n, "dir": str(cache_dir() / "letterpress")})
    else:
        click.echo(f"removed {n} cached index file(s) from {cache_dir() / 'letterpress'}")
