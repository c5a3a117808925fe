"""``cpwords cache``: see and clear the on-disk Letterpress index cache."""

from __future__ import annotations

import click

from cpwords.cli._common import echo_json, json_option
from cpwords.core.result import counted


@click.group("cache")
def cache() -> None:
    """See or clear the Letterpress index cache.

    The cache is $CPWORDS_CACHE_DIR or the user cache dir: one index file per dictionary,
    keyed by a hash of its content; when it grows past its cap ($CPWORDS_CACHE_MAX_MB,
    default 512 MiB, 2^20 bytes each) the least recently used files are deleted.
    """


@cache.command("info")
@json_option()
def info(as_json: bool) -> None:
    """Show where the cache is, its files and their size."""
    from cpwords.letterpress.models.index import cache_info

    d = cache_info()
    if as_json:
        echo_json(d)
        return
    click.echo(f"dir    {d['dir']}")
    mib = 2**20
    click.echo(
        f"files  {d['files']} ({d['bytes'] / mib:.1f} MiB of {d['max_bytes'] / mib:.0f} MiB)"
    )
    for e in d["entries"]:
        click.echo(f"  {e['file']}  {e['bytes'] / mib:.1f} MiB")


@cache.command("clear")
@json_option()
def clear(as_json: bool) -> None:
    """Delete every cached index.

    The indexes are rebuilt when needed.
    """
    from cpwords.letterpress.models.index import cache_clear, cache_dir

    n = cache_clear()
    if as_json:
        echo_json({"removed": n, "dir": str(cache_dir() / "letterpress")})
    else:
        click.echo(f"removed {counted(n, 'cached index file')} from {cache_dir() / 'letterpress'}")
