"""``cpwords snake`` interoperability: --export-tsplib, --export-model, --check of a tour, peers.

Kept apart from :mod:`~cpwords.cli.snake` so the solving command stays short; the logic lives in
:mod:`cpwords.interop` and :mod:`cpwords.wordsnake.heuristics.peers`.
"""

from __future__ import annotations

from typing import Any

import click

from cpwords.cli._common import echo_json
from cpwords.core.files import check_output, staged_output
from cpwords.wordsnake.heuristics.tsplib import read_ordering as read_ordering
from cpwords.wordsnake.rules import WordsnakeInstance
from cpwords.wordsnake.spec import PEER_METHODS


def available_peers(quiet: bool) -> list[str]:
    """The peers that can run here (lkh needs elkai); a note on stderr when lkh is skipped."""
    from cpwords.wordsnake.heuristics.peers import elkai_available

    if elkai_available():
        return list(PEER_METHODS)
    if not quiet:
        click.echo(
            "cpwords: note: lkh skipped (pip install -e '.[peers]' in the cpwords checkout, "
            "for elkai)",
            err=True,
        )
    return [m for m in PEER_METHODS if m != "lkh"]


def export_files(
    instance: WordsnakeInstance,
    tsplib: str | None,
    model: str | None,
    connectivity: str,
    force: bool,
    as_json: bool,
) -> None:
    """Write the TSPLIB file and/or the model file; one line (or JSON object) per file."""
    from cpwords.wordsnake.formulations.export import export_model
    from cpwords.wordsnake.heuristics.tsplib import write_atsp
    from cpwords.wordsnake.spec import check_explicit_memory

    out: dict[str, Any] = {"n": instance.n, "cyclic": instance.cyclic}
    if tsplib is not None:
        sm = write_atsp(instance, tsplib, force=force)
        out["tsplib"] = {
            "path": tsplib,
            "dimension": sm.dimension,
            "big_m": sm.big_m,
            "dummy_node": None if sm.dummy is None else sm.dummy + 1,
            "word_edges": sm.word_edges,
        }
        if not as_json:
            dummy = "no dummy" if sm.dummy is None else f"dummy node {sm.dummy + 1}"
            click.echo(
                f"wrote {tsplib}: ATSP, {sm.dimension} nodes, {dummy}, "
                f"score = {sm.word_edges} * {sm.big_m} - tour length"
            )
    if model is not None:
        # The exported models are the letter-hub MIP and CP-SAT models: refuse what cannot fit.
        check_explicit_memory(instance, "mip" if not model.endswith((".pb", ".pbtxt")) else "cpsat")
        # The exporter needs a file name: a fresh one beside the target, then moved into place
        # as every output is (renamed over a file, copied into a device or pipe).
        check_output(model, "--export-model", force)
        with staged_output(model, "--export-model") as staged:
            fmt = export_model(instance, staged, force=True, connectivity=connectivity)
        out["model"] = {"path": model, "format": fmt, "connectivity": connectivity}
        if not as_json:
            exact = fmt.startswith("cpsat") or connectivity == "flow"
            what = "exact" if exact else "relaxation without connectivity"
            click.echo(f"wrote {model}: {fmt} model ({what}; see its header)")
    if as_json:
        echo_json(out)
