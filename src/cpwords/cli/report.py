"""``cpwords report``: the study report (markdown + PNG plots) from results files, a report
template's table, the comparison of two commits, and the README's generated tables."""

from __future__ import annotations

from pathlib import Path

import click

from cpwords.cli._common import echo_json, force_option, json_option
from cpwords.core.errors import InputError

#: The report templates (cpwords.bench.tables.TABLES, and the one that reads two runs).
TABLE_NAMES = (
    "peers",
    "certificates",
    "wordsnake-dictionary",
    "wordsnake-languages",
    "wordsnake-languages-compare",
    "superstring",
)


@click.command("report")
@click.argument("results", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    help="Folder to write the study report into (the study report only).",
)
@click.option("--title", default=None, help="The report's heading.")
@click.option(
    "--table",
    "table_name",
    type=click.Choice(TABLE_NAMES),
    default=None,
    help="Print a report template's markdown table of RESULTS instead of the study report "
    "(wordsnake-languages-compare: two files, OLD NEW).",
)
@click.option(
    "--compare",
    is_flag=True,
    help="Print the report of old code against new code: RESULTS are OLD NEW, two runs of "
    "one suite (with --old-commit and --new-commit).",
)
@click.option("--old-commit", default=None, help="With --compare: the commit of the old run.")
@click.option("--new-commit", default=None, help="With --compare: the commit of the new run.")
@click.option(
    "--readme",
    is_flag=True,
    help="Rewrite the generated results tables of README.md and docs/guides/wordsnake.md from "
    "the recorded rows (run in a checkout of the repository; no RESULTS).",
)
@click.option("--check", is_flag=True, help="With --readme: only say whether they are current.")
@force_option()
@json_option()
def report(
    results: tuple[Path, ...],
    out_dir: Path | None,
    title: str | None,
    table_name: str | None,
    compare: bool,
    old_commit: str | None,
    new_commit: str | None,
    readme: bool,
    check: bool,
    force: bool,
    as_json: bool,
) -> None:
    """Write the study report from results files.

    Writes OUT/report.md, OUT/summary.json and PNG plots from one or more RESULTS files ('-':
    stdin). OUT must be new, empty, or a folder of an earlier cpwords report (it holds a
    .cpwords-report marker); any other folder is refused (exit 2) unless --force.

    --table NAME prints one report template's table of RESULTS (the tables the reports of
    benchmarks/results/ quote); --compare OLD NEW --old-commit X --new-commit Y prints the
    dated report of old code against new code; --readme rewrites the README's and the
    Wordsnake guide's generated tables from the recorded rows (--check: exit 1 when one is
    out of date, nothing written).

    JSON: the summary (summary.json) and report, its path. Exit status 0 written, 1 out of
    date (--readme --check), 2 bad input.
    """
    modes = sum([table_name is not None, compare, readme])
    if modes > 1:
        raise InputError("give one of --table, --compare and --readme")
    if modes and (out_dir is not None or force or as_json):
        raise InputError("--out, --force and --json go with the study report only")
    if check and not readme:
        raise InputError("--check goes with --readme")
    if (old_commit or new_commit) and not compare:
        raise InputError("--old-commit and --new-commit go with --compare")
    if readme:
        _readme(results, check)
    elif compare:
        _compare(results, old_commit, new_commit, title)
    elif table_name is not None:
        _table(table_name, results, title)
    else:
        _study(results, out_dir, title, force, as_json)


def _study(
    results: tuple[Path, ...], out_dir: Path | None, title: str | None, force: bool, as_json: bool
) -> None:
    import json

    from cpwords.bench.report import write_report

    if not results:
        raise InputError("no RESULTS file given")
    if out_dir is None:
        raise InputError("the study report needs --out DIR")
    path = write_report(
        list(results), out_dir, title=title or "Heuristics versus optima", force=force
    )
    if as_json:
        summary = json.loads((path.parent / "summary.json").read_text(encoding="utf-8"))
        summary["report"] = str(path)
        echo_json(summary)
    else:
        pngs = sorted(p.name for p in path.parent.glob("*.png"))
        click.echo(f"report: {path}" + (f" (plots: {', '.join(pngs)})" if pngs else ""))


def _table(name: str, results: tuple[Path, ...], title: str | None) -> None:
    from cpwords.bench import tables
    from cpwords.bench.results import read_rows

    if not results:
        raise InputError("no RESULTS file given")
    if name == "wordsnake-languages-compare":
        if len(results) != 2:
            raise InputError("--table wordsnake-languages-compare reads two files: OLD NEW")
        text = tables.wordsnake_languages_compare(read_rows(results[0]), read_rows(results[1]))
    else:
        text = tables.table(name, list(results))
    click.echo((f"# {title}\n\n" if title else "") + text)


def _compare(
    results: tuple[Path, ...], old_commit: str | None, new_commit: str | None, title: str | None
) -> None:
    from cpwords.bench.tables import compare_report

    if len(results) != 2:
        raise InputError("--compare reads two results files: OLD NEW")
    if not old_commit or not new_commit:
        raise InputError("--compare needs --old-commit and --new-commit")
    click.echo(compare_report(results[0], results[1], old_commit, new_commit, title), nl=False)


def _readme(results: tuple[Path, ...], check: bool) -> None:
    from cpwords.bench.generated import PAGES

    if results:
        raise InputError("--readme reads the recorded rows of the checkout; give no RESULTS")
    root = Path.cwd()
    if not all((root / page.path).is_file() for page in PAGES):
        raise InputError(f"{root} is not a checkout of cpwords (no README.md and docs/guides/)")
    stale = 0
    for page in PAGES:
        try:
            if check:
                ok = page.current(root)
                stale += not ok
                click.echo(f"{page.path}: {'up to date' if ok else 'out of date'}")
            else:
                changed = page.rewrite(root)
                click.echo(f"{page.path}: {'updated' if changed else 'already up to date'}")
        except ValueError as exc:
            raise InputError(str(exc)) from None
    if stale:
        raise SystemExit(1)
