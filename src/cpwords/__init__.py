"""cpwords: exact solving of word puzzles with constraint programming and optimisation."""

from .errors import CheckError as CheckError
from .errors import CpwordsError as CpwordsError
from .errors import InputError as InputError
from .errors import ModelError as ModelError
from .lexicon import load_lexicon as load_lexicon
from .lexicon import read_word_list as read_word_list
from .result import SolveResult as SolveResult
from .result import Status as Status
from .result import TracePoint as TracePoint

__version__ = "0.1.0"
