"""cpwords: exact solving of word puzzles with constraint programming and optimisation.

``cpwords.solve(puzzle, instance, method)`` runs any puzzle's method and re-checks the answer
with the puzzle's independent checker (see :mod:`cpwords.spec`).
The puzzles' entry points are re-exported here; those that need OR-Tools are imported lazily, so
``import cpwords`` (and every CLI start) stays light.
"""

from typing import TYPE_CHECKING, Any

from .errors import CheckError as CheckError
from .errors import CpwordsError as CpwordsError
from .errors import InputError as InputError
from .errors import ModelError as ModelError
from .lexicon import load_lexicon as load_lexicon
from .lexicon import read_word_list as read_word_list
from .result import SolveResult as SolveResult
from .result import Status as Status
from .result import TracePoint as TracePoint
from .wordsnake import WordsnakeInstance as WordsnakeInstance
from .wordsnake import compare_wordsnake as compare_wordsnake
from .wordsnake import solve_wordsnake as solve_wordsnake

__version__ = "0.1.0"

_LAZY = {
    "solve": "cpwords.spec",
    "get_spec": "cpwords.spec",
    "solve_letterboxed": "cpwords.specs.letterboxed",
    "count_letterboxed": "cpwords.models.letterboxed",
    "LetterBoxedSolver": "cpwords.models.letterboxed",
    "generate_boxes": "cpwords.models.letterboxed_design",
    "box_difficulty": "cpwords.models.letterboxed_design",
    "solve_truncate": "cpwords.specs.truncate",
    "find_letterpress_words": "cpwords.specs.letterpress",
    "best_letterpress_move": "cpwords.specs.letterpress_board",
    "find_grid_quadruples": "cpwords.models.grid",
    "solve_grid": "cpwords.specs.grid_fill",
    "count_completions": "cpwords.models.grid",
    "design_grid_puzzles": "cpwords.models.grid_design",
}

if TYPE_CHECKING:  # static view of the lazy re-exports
    from .models.grid import count_completions as count_completions
    from .models.grid import find_grid_quadruples as find_grid_quadruples
    from .models.grid_design import design_grid_puzzles as design_grid_puzzles
    from .models.letterboxed import LetterBoxedSolver as LetterBoxedSolver
    from .models.letterboxed import count_letterboxed as count_letterboxed
    from .models.letterboxed_design import box_difficulty as box_difficulty
    from .models.letterboxed_design import generate_boxes as generate_boxes
    from .spec import get_spec as get_spec
    from .spec import solve as solve
    from .specs.grid_fill import solve_grid as solve_grid
    from .specs.letterboxed import solve_letterboxed as solve_letterboxed
    from .specs.letterpress import find_letterpress_words as find_letterpress_words
    from .specs.letterpress_board import best_letterpress_move as best_letterpress_move
    from .specs.truncate import solve_truncate as solve_truncate


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
    "WordsnakeInstance",
    "__version__",
    "compare_wordsnake",
    "load_lexicon",
    "read_word_list",
    "solve_wordsnake",
    *_LAZY,
]
