"""``cpwords snake`` (work in progress)."""

import click


@click.command("snake")
def snake() -> None:
    """Wordsnake (being built)."""
