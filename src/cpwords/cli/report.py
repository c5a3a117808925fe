"""``cpwords report``: the study report (markdown + PNG plots) from results files."""

from __future__ import annotations

from pathlib import Path

import click

from cpwords.cli._common import echo_json, force_option, json_option


@click.command("report")
@click.argument("results", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--out", "out_dir", required=True, type=click.Path(path_type=Path), help="Folder to write."
)
@click.option("--title", default="Heuristics versus optima", show_default=True)
@force_option()
@json_option()
def report(
    results: tuple[Path, ...], out_dir: Path, title: str, force: bool, as_json: bool
) -> None:
    """Write the study report from results files.

    Writes OUT/report.md, OUT/summary.json and PNG plots from one or more RESULTS files ('-':
    stdin). OUT
    must be new, empty, or a folder of an earlier cpwords report (it holds a .cpwords-report
    marker); any other folder is refused (exit 2) unless --force.

    JSON: the summary (summary.json) and report, its path. Exit status 0 written, 2 bad
    input.
    """
    import json

    from cpwords.bench.report import write_report

    path = write_report(list(results), out_dir, title=title, force=force)
    if as_json:
        summary = json.loads((path.parent / "summary.json").read_text(encoding="utf-8"))
        summary["report"] = str(path)
        echo_json(summary)
    else:
        pngs = sorted(p.name for p in path.parent.glob("*.png"))
        click.echo(f"report: {path}" + (f" (plots: {', '.join(pngs)})" if pngs else ""))
