"""The package's layout: no import cycle, the package read as ``ruff format`` writes it (``# fmt:
skip`` only on tables), modules of at most 800 lines and functions of at most 80, in every wing,
the core, the harness, the pages and the command line (the Wordsnake wing first kept these rules;
since round 9 all of ``src/`` does)."""

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

#: The most lines of a module of the package.
MAX_MODULE_LINES = 800

#: The most lines of a function of the package, from its ``def`` line to its last line.
MAX_FUNCTION_LINES = 80

#: Functions (``path from the package:name``) over :data:`MAX_FUNCTION_LINES` only by their
#: docstring, which documents many keyword options (numpydoc, one entry each): their code after
#: the docstring keeps the limit. ``generate_boxes``: 16 options documented in about 100 lines,
#: 9 lines of code (it hands them to the generator, ``_BoxGenerator``).
LONG_DOCSTRINGS = {"letterboxed/models/design.py:generate_boxes"}

#: The most ``# fmt: skip`` comments in the wing, and in the whole package (each on a table).
MAX_FMT_SKIPS = 20

#: Modules (paths from the package) still being edited elsewhere, which hold ``# fmt: skip`` on
#: code: left out of the package's ``# fmt: skip`` rule until they read as ``ruff format``
#: writes them (then drop them from this set).
FMT_SKIP_PENDING: set[str] = set()


def _modules() -> list[tuple[str, str]]:
    """The wing's modules as (path from the wing, source), less :data:`EXEMPT`."""
    out = []
    for path in sorted(WING.rglob("*.py")):
        rel = path.relative_to(WING).as_posix()
        if rel not in EXEMPT:
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


def _all_modules() -> list[tuple[str, str]]:
    """Every module of the package as (path from the package, source)."""
    return [
        (path.relative_to(PACKAGE).as_posix(), path.read_text(encoding="utf-8"))
        for path in sorted(PACKAGE.rglob("*.py"))
    ]


def test_no_module_of_the_package_is_over_800_lines() -> None:
    long = {
        rel: n
        for rel, source in _all_modules()
        if (n := len(source.splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def _functions(
    modules: list[tuple[str, str]],
) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """The functions (methods and nested ones too) of ``modules``, with their module's path."""
    found = []
    for rel, source in modules:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found.append((rel, node))
    return found


def _lines(node: ast.FunctionDef | ast.AsyncFunctionDef, docstring: bool = True) -> int:
    """The lines of a function from its ``def`` line to its last line, less its docstring's
    when not ``docstring``."""
    assert node.end_lineno is not None
    lines = node.end_lineno - node.lineno + 1
    first = node.body[0]
    if not docstring and ast.get_docstring(node) is not None:
        assert first.end_lineno is not None
        lines -= first.end_lineno - first.lineno + 1
    return lines


def _long_functions(
    modules: list[tuple[str, str]], allowed: frozenset[str] = frozenset()
) -> list[str]:
    """The functions of ``modules`` over :data:`MAX_FUNCTION_LINES` (``path:line name (n
    lines)``), from the ``def`` line to the last line; those of ``allowed`` (``path:name``) by
    their code only (their docstring left out)."""
    long = []
    for rel, node in _functions(modules):
        lines = _lines(node, docstring=f"{rel}:{node.name}" not in allowed)
        if lines > MAX_FUNCTION_LINES:
            long.append(f"{rel}:{node.lineno} {node.name} ({lines} lines)")
    return long


def test_no_function_of_the_package_is_over_80_lines() -> None:
    exempt = {f"wordsnake/{rel}" for rel in EXEMPT}
    modules = [(rel, source) for rel, source in _all_modules() if rel not in exempt]
    long = _long_functions(modules, frozenset(LONG_DOCSTRINGS))
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_the_long_docstrings_are_still_long() -> None:
    """Each allowance of :data:`LONG_DOCSTRINGS` still names a function over the limit (drop it
    once the function is short)."""
    lengths = {f"{rel}:{node.name}": _lines(node) for rel, node in _functions(_all_modules())}
    stale = {f: lengths.get(f) for f in LONG_DOCSTRINGS if lengths.get(f, 0) <= MAX_FUNCTION_LINES}
    assert not stale, f"no longer over {MAX_FUNCTION_LINES} lines (or gone): {stale}"


def test_the_length_rule_finds_a_long_function() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    source = f"def short():\n    return 1\n\n\ndef long():\n{body}"
    assert _long_functions([("m.py", source)]) == [f"m.py:5 long ({MAX_FUNCTION_LINES + 1} lines)"]


def test_an_allowed_long_docstring_leaves_the_code_to_the_rule() -> None:
    code = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES - 1))
    documented = f'def long():\n    """Its\n    options."""\n{code}'
    allowed = frozenset({"m.py:long"})
    assert _long_functions([("m.py", documented)]) == [
        f"m.py:1 long ({MAX_FUNCTION_LINES + 2} lines)"
    ]
    assert _long_functions([("m.py", documented)], allowed) == []
    longer = documented + "    y = 1\n"
    assert _long_functions([("m.py", longer)], allowed) == [
        f"m.py:1 long ({MAX_FUNCTION_LINES + 1} lines)"
    ]


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
