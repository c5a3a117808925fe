"""The default method's import footprint: solver libraries load only when a method needs them."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = (
    "ortools.sat.python.cp_model",
    "ortools.linear_solver.pywraplp",
    "scipy.optimize",
    "scipy.sparse",
    "networkx",
    "pandas",
    "ortools.graph.python.min_cost_flow",
)


def _loaded_after(imports: list[str], watched: tuple[str, ...]) -> list[str]:
    """The ``watched`` modules a fresh interpreter holds after importing ``imports``."""
    code = (
        f"import sys; import {', '.join(imports)};"
        f"print(','.join(m for m in {watched!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return [m for m in out.stdout.strip().split(",") if m]


def test_the_default_method_imports_no_solver_it_may_not_need() -> None:
    # A whole dictionary proven by the greedy's potentials never touches CP-SAT, the MIP
    # wrapper or SciPy: importing them cost 0.6 s and 80 MB of the ENABLE command's 0.5 GB.
    assert (
        _loaded_after(
            ["cpwords.cli.snake", "cpwords.wordsnake.spec", "cpwords.wordsnake.exact.methods"],
            HEAVY,
        )
        == []
    )


@pytest.mark.parametrize(
    ("name", "module"),
    [
        ("solve_hub_cpsat", "cpsat"),
        ("solve_naive_circuit", "cpsat"),
        ("solve_routes_cpsat", "routes"),
        ("solve_hub_mip", "mip"),
    ],
)
def test_the_formulations_are_still_reexported_by_auto(name: str, module: str) -> None:
    import importlib

    from cpwords.wordsnake.exact import methods as auto

    assert getattr(auto, name) is getattr(
        importlib.import_module(f"cpwords.wordsnake.formulations.{module}"), name
    )
    with pytest.raises(AttributeError):
        auto.no_such_method  # noqa: B018


#: Standard and third-party modules only a drawing or an OR-Tools run needs.
DRAWING_ONLY = (
    "xml.sax.saxutils",
    "urllib.request",
    "http.client",
    "email.parser",
    "ssl",
    "wcwidth",
)


def test_the_snake_command_loads_no_drawing_module_until_it_draws() -> None:
    # xml.sax.saxutils pulled urllib.request, http.client, email and ssl (40 ms of each start),
    # wcwidth 20 ms more: core.svg imports them when it escapes or measures a drawing's text.
    assert (
        _loaded_after(
            ["cpwords.cli.snake", "cpwords.cli._snake_interop", "cpwords.wordsnake.draw"],
            DRAWING_ONLY,
        )
        == []
    )


#: The modules of the stages that run only when the greedy proof leaves a gap.
GAP_ONLY = (
    "cpwords.wordsnake.closure.core",
    "cpwords.wordsnake.closure.core_mip",
    "cpwords.wordsnake.primal.lns",
    "cpwords.wordsnake.primal.local_search",
    "cpwords.wordsnake.exact.stages.additive_bound",
    "cpwords.wordsnake.exact.stages.neighbourhood_search",
)


def test_the_default_method_loads_the_gap_stages_when_a_gap_is_left() -> None:
    # All of ENABLE is settled by the greedy proof: the closure, the neighbourhood search and
    # the additive bound are imported by the stages that use them, when they run.
    assert _loaded_after(["cpwords.cli.snake", "cpwords.wordsnake.exact.methods"], GAP_ONLY) == []


def test_the_solver_info_names_the_installed_or_tools_version() -> None:
    # Read off the package (importing it loads no solver), not its metadata (15 to 30 ms).
    from importlib.metadata import version

    from cpwords.wordsnake.formulations.common import backend_info

    assert backend_info("x", seed=1) == {"ortools": version("ortools"), "backend": "x", "seed": 1}
    assert _loaded_after(["ortools"], HEAVY) == []
