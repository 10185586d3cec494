"""guandan_fast: fast, rules-exact legal-move generation for Guandan (掼蛋).

Three rooms: the model (:mod:`.cards`, :mod:`.hand`, :mod:`.moves`), the pure-Python
reference generator (:mod:`.reference`) and the native Cython core (``_movegen``),
chosen by :mod:`.api`.
"""

from .api import (
    NATIVE_AVAILABLE,
    MoveBatch,
    MoveList,
    classify,
    has_legal_follow,
    legal_moves,
    legal_moves_batch,
    resolve_backend,
    set_default_backend,
)
from .cards import parse_card, parse_level
from .game import Deal, DealScore, Match, Rules, score_deal
from .hand import Hand
from .moves import PASS, Move, MoveType
from .solver import min_plays

__all__ = [
    "NATIVE_AVAILABLE",
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
    "classify",
    "has_legal_follow",
    "legal_moves",
    "legal_moves_batch",
    "min_plays",
    "parse_card",
    "parse_level",
    "resolve_backend",
    "score_deal",
    "set_default_backend",
]
__version__ = "0.1.0"
