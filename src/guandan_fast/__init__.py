"""guandan_fast: fast, rules-exact legal-move generation for Guandan (掼蛋).

The engine's layers, each depending only on those above it: the cards and hands
(:mod:`.engine.cards`, :mod:`.engine.hand`), the move vocabulary (:mod:`.engine.kinds`), the
two move generators with one interface — the native Cython core (``_movegen``) and the
pure-Python reference, the tests' oracle (:mod:`.engine.reference`) —, the one place that
chooses between them (:mod:`.engine.backend`), the :class:`Move` value (:mod:`.engine.moves`),
move lists (:mod:`.engine.movelist`) and the entry points (:mod:`.engine.api`).
"""

from .engine.api import (
    MoveBatch,
    MoveList,
    classify,
    has_legal_follow,
    legal_moves,
    legal_moves_batch,
    resolve_backend,
    set_default_backend,
)
from .engine.cards import parse_card, parse_level
from .engine.deal import Deal, perft
from .engine.hand import Hand
from .engine.match import Match
from .engine.moves import PASS, Move, MoveType
from .engine.rules import Rules
from .engine.scoring import DealScore, score_deal
from .search.minplays import min_plays
from .search.solve import Solution, solve

__all__ = [
    "PASS",
    "Deal",
    "DealScore",
    "Hand",
    "Match",
    "Move",
    "MoveBatch",
    "MoveList",
    "MoveType",
    "Rules",
    "Solution",
    "classify",
    "get_include",
    "has_legal_follow",
    "legal_moves",
    "legal_moves_batch",
    "min_plays",
    "parse_card",
    "parse_level",
    "perft",
    "resolve_backend",
    "score_deal",
    "set_default_backend",
    "solve",
]
__version__ = "0.2.0"


def get_include() -> str:
    """The directory to add to a C compiler's and Cython's include path (like
    ``numpy.get_include()``) to build an extension that cimports the package's C API,
    ``guandan_fast.engine.state`` (see docs/c-api.md): the folder that holds the
    ``guandan_fast`` package, whose ``.pxd`` files ship with it."""
    from pathlib import Path

    return str(Path(__file__).resolve().parent.parent)
