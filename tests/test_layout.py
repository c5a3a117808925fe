"""The package's layout: no import cycle, the package read as ``ruff format`` writes it (``# fmt:
skip`` only on tables), and the Wordsnake wing's modules of at most 800 lines, functions of at
most 80 (the functions of :data:`SHORT_FUNCTIONS` too)."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import networkx as nx
import pytest

import cpwords
import cpwords.wordsnake

#: The package's source.
PACKAGE = Path(cpwords.__file__).parent

#: The Wordsnake wing's source.
WING = Path(cpwords.wordsnake.__file__).parent

#: Being rewritten as arrays: exempt from the function and ``# fmt: skip`` rules until then.
EXEMPT: set[str] = set()

#: The most lines of a module of the wing.
MAX_MODULE_LINES = 800

#: The most lines of a function of the wing, from its ``def`` line to its last line.
MAX_FUNCTION_LINES = 80

#: Modules outside the wing (paths from the package) that keep the wing's function rule too
#: (issue 47 item 2: a command line only parses, calls its puzzle's library and shows the
#: result); a module joins once its functions are split.
SHORT_FUNCTIONS = {
    "cli/letterboxed.py",
    "cli/truncate.py",
    "cli/superstring.py",
    "cli/grid.py",
    "cli/chain.py",
    "chain/spec.py",
    "chain/certificate.py",
    "chain/models/trail.py",
    "cli/letterpress.py",
    "letterpress/spec.py",
    "letterpress/board_spec.py",
    "grid/modes.py",
    "grid/spec.py",
    "grid/models/design.py",
    "letterpress/models/index.py",
    "cli/snake.py",
}

#: The most ``# fmt: skip`` comments in the wing, and in the whole package (each on a table).
MAX_FMT_SKIPS = 20

#: Modules (paths from the package) still being edited elsewhere, which hold ``# fmt: skip`` on
#: code: left out of the package's ``# fmt: skip`` rule until they read as ``ruff format``
#: writes them (then drop them from this set).
FMT_SKIP_PENDING: set[str] = set()


def _modules(exempt: bool = True) -> list[tuple[str, str]]:
    """The wing's modules as (path from the wing, source), less :data:`EXEMPT` when asked."""
    out = []
    for path in sorted(WING.rglob("*.py")):
        rel = path.relative_to(WING).as_posix()
        if not (exempt and rel in EXEMPT):
            out.append((rel, path.read_text(encoding="utf-8")))
    return out


def _package_modules() -> list[tuple[str, str]]:
    """The package's modules as (path from the package, source), less :data:`FMT_SKIP_PENDING`."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel not in FMT_SKIP_PENDING:
            out.append((rel, path.read_text(encoding="utf-8")))
    return out


def _skips_and_code(modules: list[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """The ``# fmt: skip`` comments of ``modules`` (``path:line``), and those not on a table."""
    skips = []
    not_tables = []
    for rel, source in modules:
        tree = ast.parse(source)
        for line in _fmt_skips(source):
            skips.append(f"{rel}:{line}")
            if not _is_table(tree, line):
                not_tables.append(f"{rel}:{line}")
    return skips, not_tables


def _fmt_skips(source: str) -> list[int]:
    """The lines holding a ``# fmt: skip`` comment (a comment, not a string that says so)."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return [
        tok.start[0]
        for tok in tokens
        if tok.type == tokenize.COMMENT and tok.string[1:].strip().replace(" ", "") == "fmt:skip"
    ]


def _is_table(tree: ast.Module, line: int) -> bool:
    """Whether the statement ending on ``line`` binds a literal table of data: a dict, tuple,
    list or set of constants (a call, or a dict of keyword arguments, is not one)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.end_lineno == line:
            value = node.value
            if not isinstance(value, ast.Dict | ast.Tuple | ast.List | ast.Set):
                return False
            try:
                ast.literal_eval(value)
            except ValueError:
                return False
            return True
    return False


def test_no_import_cycle_in_the_package() -> None:
    grimp = pytest.importorskip("grimp")  # installed with import-linter (the test extra)
    graph = grimp.build_graph("cpwords", exclude_type_checking_imports=True)
    imports = nx.DiGraph()
    for module in graph.modules:
        imports.add_node(module)
        imports.add_edges_from((module, m) for m in graph.find_modules_directly_imported_by(module))
    cycles = [sorted(c) for c in nx.strongly_connected_components(imports) if len(c) > 1]
    cycles += [[a] for a, _ in nx.selfloop_edges(imports)]
    assert not cycles, f"modules that import one another: {cycles}"


def test_no_module_of_the_wordsnake_wing_is_over_800_lines() -> None:
    long = {
        rel: n
        for rel, source in _modules(exempt=False)
        if (n := len(source.splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def _long_functions(modules: list[tuple[str, str]]) -> list[str]:
    """The functions of ``modules`` over :data:`MAX_FUNCTION_LINES` (``path:line name (n
    lines)``), from the ``def`` line to the last line."""
    long = []
    for rel, source in modules:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{rel}:{node.lineno} {node.name} ({lines} lines)")
    return long


def test_no_function_of_the_wordsnake_wing_is_over_80_lines() -> None:
    long = _long_functions(_modules())
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_no_function_of_the_split_modules_is_over_80_lines() -> None:
    modules = [
        (rel, (PACKAGE / rel).read_text(encoding="utf-8")) for rel in sorted(SHORT_FUNCTIONS)
    ]
    long = _long_functions(modules)
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_the_length_rule_finds_a_long_function() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    source = f"def short():\n    return 1\n\n\ndef long():\n{body}"
    assert _long_functions([("m.py", source)]) == [f"m.py:5 long ({MAX_FUNCTION_LINES + 1} lines)"]


def test_fmt_skip_in_the_wordsnake_wing_only_on_tables() -> None:
    skips, not_tables = _skips_and_code(_modules())
    assert not not_tables, (
        f"# fmt: skip on code, not on a table (let ruff format lay it out): {not_tables}"
    )
    assert len(skips) <= MAX_FMT_SKIPS, (
        f"{len(skips)} # fmt: skip (at most {MAX_FMT_SKIPS}): {skips}"
    )


def test_fmt_skip_in_the_package_only_on_tables() -> None:
    skips, not_tables = _skips_and_code(_package_modules())
    assert not not_tables, (
        f"# fmt: skip on code, not on a table (let ruff format lay it out): {not_tables}"
    )
    assert len(skips) <= MAX_FMT_SKIPS, (
        f"{len(skips)} # fmt: skip (at most {MAX_FMT_SKIPS}): {skips}"
    )


def test_the_table_rule_tells_a_table_from_packed_code() -> None:
    source = (
        'TABLE = {\n    "a": (1, 2.5), "b": (2, 16.0),\n}  # fmt: skip\n'
        "x = f(\n    1, 2,\n)  # fmt: skip\n"
        'KW = {\n    "seed": seed, "hint": hint,\n}  # fmt: skip\n'
        'text = "# fmt: skip"\n'
    )
    tree = ast.parse(source)
    assert _fmt_skips(source) == [3, 6, 9]
    assert [_is_table(tree, line) for line in (3, 6, 9)] == [True, False, False]
