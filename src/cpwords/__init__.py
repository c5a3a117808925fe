"""cpwords: exact solving of word puzzles with constraint programming and optimisation.

``cpwords.solve(puzzle, instance, method)`` runs any puzzle's method and re-checks the answer
with the puzzle's independent checker (see :mod:`cpwords.core.spec`).
The puzzles' entry points are re-exported here, each imported when it is first used, so
``import cpwords`` (and every CLI start) loads no NumPy, SciPy, OR-Tools or HiGHS
(tests/core/test_light_start.py).
"""

# First of all: on the command line, a Ctrl-C during the imports below waits for cli.main
# (then exit 130, no traceback).
from cpwords import _startup  # noqa: F401

# isort: split
from typing import TYPE_CHECKING, Any

from cpwords.core.errors import CheckError as CheckError
from cpwords.core.errors import CpwordsError as CpwordsError
from cpwords.core.errors import InputError as InputError
from cpwords.core.errors import ModelError as ModelError
from cpwords.core.result import SolveResult as SolveResult
from cpwords.core.result import Status as Status
from cpwords.core.result import TracePoint as TracePoint

__version__ = "0.1.0"

#: The lazy re-exports: each name and the module that defines it.
_LAZY = {
    "load_lexicon": "cpwords.core.lexicon",
    "read_word_list": "cpwords.core.lexicon",
    "read_certificate": "cpwords.wordsnake.certificate",
    "verify_certificate": "cpwords.wordsnake.certificate",
    "WordsnakeInstance": "cpwords.wordsnake.spec",
    "compare_wordsnake": "cpwords.wordsnake.spec",
    "solve_wordsnake": "cpwords.wordsnake.spec",
    "check_wordsnake": "cpwords.wordsnake.modes",
    "verify_wordsnake": "cpwords.wordsnake.modes",
    "solve": "cpwords.core.spec",
    "get_spec": "cpwords.core.spec",
    "solve_letterboxed": "cpwords.letterboxed.spec",
    "count_letterboxed": "cpwords.letterboxed.models.dp",
    "LetterBoxedSolver": "cpwords.letterboxed.models.dp",
    "generate_boxes": "cpwords.letterboxed.models.design",
    "box_difficulty": "cpwords.letterboxed.models.design",
    "solve_truncate": "cpwords.truncate.spec",
    "find_letterpress_words": "cpwords.letterpress.spec",
    "random_letterpress_board": "cpwords.letterpress.spec",
    "best_letterpress_move": "cpwords.letterpress.board_spec",
    "lookahead_letterpress_move": "cpwords.letterpress.board_spec",
    "letterpress_words": "cpwords.letterpress.spec",
    "letterpress_move": "cpwords.letterpress.board_spec",
    "find_grid_quadruples": "cpwords.grid.models.cpsat",
    "solve_grid": "cpwords.grid.fill_spec",
    "count_completions": "cpwords.grid.models.cpsat",
    "grid_conflict": "cpwords.grid.models.conflict",
    "design_grid_puzzles": "cpwords.grid.models.design",
    "load_grid": "cpwords.grid.modes",
    "check_grid": "cpwords.grid.modes",
    "count_grid": "cpwords.grid.modes",
    "list_grid": "cpwords.grid.modes",
    "complete_board": "cpwords.grid.spec",
    "unique_grid_puzzles": "cpwords.grid.spec",
    "solve_chain": "cpwords.chain.spec",
    "compare_chain": "cpwords.chain.spec",
    "check_chain": "cpwords.chain.spec",
    "verify_chain": "cpwords.chain.spec",
    "solve_superstring": "cpwords.superstring.spec",
    "compare_superstring": "cpwords.superstring.spec",
    "verify_superstring_certificate": "cpwords.superstring.spec",
    "superstring_instance": "cpwords.superstring.spec",
    "SuperstringInstance": "cpwords.superstring.spec",
}

if TYPE_CHECKING:  # static view of the lazy re-exports
    from cpwords.chain.spec import check_chain as check_chain
    from cpwords.chain.spec import compare_chain as compare_chain
    from cpwords.chain.spec import solve_chain as solve_chain
    from cpwords.chain.spec import verify_chain as verify_chain
    from cpwords.core.lexicon import load_lexicon as load_lexicon
    from cpwords.core.lexicon import read_word_list as read_word_list
    from cpwords.core.spec import get_spec as get_spec
    from cpwords.core.spec import solve as solve
    from cpwords.grid.fill_spec import solve_grid as solve_grid
    from cpwords.grid.models.conflict import grid_conflict as grid_conflict
    from cpwords.grid.models.cpsat import count_completions as count_completions
    from cpwords.grid.models.cpsat import find_grid_quadruples as find_grid_quadruples
    from cpwords.grid.models.design import design_grid_puzzles as design_grid_puzzles
    from cpwords.grid.modes import check_grid as check_grid
    from cpwords.grid.modes import count_grid as count_grid
    from cpwords.grid.modes import list_grid as list_grid
    from cpwords.grid.modes import load_grid as load_grid
    from cpwords.grid.spec import complete_board as complete_board
    from cpwords.grid.spec import unique_grid_puzzles as unique_grid_puzzles
    from cpwords.letterboxed.models.design import box_difficulty as box_difficulty
    from cpwords.letterboxed.models.design import generate_boxes as generate_boxes
    from cpwords.letterboxed.models.dp import LetterBoxedSolver as LetterBoxedSolver
    from cpwords.letterboxed.models.dp import count_letterboxed as count_letterboxed
    from cpwords.letterboxed.spec import solve_letterboxed as solve_letterboxed
    from cpwords.letterpress.board_spec import best_letterpress_move as best_letterpress_move
    from cpwords.letterpress.board_spec import letterpress_move as letterpress_move
    from cpwords.letterpress.board_spec import (
        lookahead_letterpress_move as lookahead_letterpress_move,
    )
    from cpwords.letterpress.spec import find_letterpress_words as find_letterpress_words
    from cpwords.letterpress.spec import letterpress_words as letterpress_words
    from cpwords.letterpress.spec import random_letterpress_board as random_letterpress_board
    from cpwords.superstring.spec import SuperstringInstance as SuperstringInstance
    from cpwords.superstring.spec import compare_superstring as compare_superstring
    from cpwords.superstring.spec import solve_superstring as solve_superstring
    from cpwords.superstring.spec import superstring_instance as superstring_instance
    from cpwords.superstring.spec import (
        verify_superstring_certificate as verify_superstring_certificate,
    )
    from cpwords.truncate.spec import solve_truncate as solve_truncate
    from cpwords.wordsnake.certificate import read_certificate as read_certificate
    from cpwords.wordsnake.certificate import verify_certificate as verify_certificate
    from cpwords.wordsnake.modes import check_wordsnake as check_wordsnake
    from cpwords.wordsnake.modes import verify_wordsnake as verify_wordsnake
    from cpwords.wordsnake.spec import WordsnakeInstance as WordsnakeInstance
    from cpwords.wordsnake.spec import compare_wordsnake as compare_wordsnake
    from cpwords.wordsnake.spec import solve_wordsnake as solve_wordsnake


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'cpwords' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = [
    "CheckError",
    "CpwordsError",
    "InputError",
    "ModelError",
    "SolveResult",
    "Status",
    "TracePoint",
    "__version__",
    *_LAZY,
]
