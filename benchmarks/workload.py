"""Speed measurement: one fixed workload and one way of timing it, for every front end.

Both ``benchmarks/`` (pytest-benchmark) and ``guandan-fast bench`` use what is here:

* :func:`make_workload` deals seeded random 27-card hands (a shuffled 108-card double
  deck cut into four hands, again and again), each deal at a random level, and gives
  every hand a move to follow drawn from the next seat's legal moves (a mix of types);
  beside them it takes the small hands of endgames (:func:`hands_in_endgames`);
* :func:`worst_hand` is the hand with the most moves we know of (both wildcards and
  all eight copies of six consecutive ranks);
* :func:`make_pass` turns a *case* (:data:`CASES`) into a callable that makes one pass
  over the workload through the public API, and :func:`measure` times such passes;
* :func:`compare` measures every case on both backends in one run, and
  :func:`format_table` / :func:`comparison_json` report it;
* :func:`endgame` cuts a position from a seeded deal played by the MinPlays rules (the
  solver's workload);
* :data:`PATHS` are the input forms users pass (platform triples, card strings, a
  :class:`~guandan_fast.engine.deal.Deal` stepped by triple, index or Move), each timed beside
  its fast form in the same run (:func:`make_path`, :func:`measure_path`) on the
  default backend.

A time "per hand" is the median over timed passes of (pass time / hands in the pass),
so it includes the Python call of the public API, as a user pays it.
"""

from __future__ import annotations

import gc
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TextIO

import numpy as np

from guandan_fast.arena.progress import ProgressBar
from guandan_fast.engine import api
from guandan_fast.engine.cards import RANKS, level_char, wildcard
from guandan_fast.engine.deal import Deal, deal_cards
from guandan_fast.engine.hand import Hand, forget_parsed
from guandan_fast.engine.moves import Move, MoveType, sort_key
from guandan_fast.engine.notation import forget_readings

#: Every case, in report order: the name used in JSON and test ids, and a title.
CASES: dict[str, str] = {
    "lead": "leading, complete",
    "lead_kept": "leading, complete, every list kept",
    "lead_strongest": "leading, strongest",
    "lead_endgame": "leading, endgame hands (at most 10 cards)",
    "follow": "following",
    "batch": "batch, a thread per core (per hand)",
    "batch_one_thread": "batch, one thread (per hand)",
    "batch_endgame": "batch of endgame hands, a thread per core (per hand)",
    "batch_endgame_one_thread": "batch of endgame hands, one thread (per hand)",
    "worst": "worst hand",
}
BACKENDS = ("native", "reference")

#: Input forms users pass, each beside its fast form (the row above it, or itself), in
#: report order: name -> (title, the fast form's name).
PATHS: dict[str, tuple[str, str]] = {
    "follow_move": ("legal_moves(hand, level, last=Move)", "follow_move"),
    "follow_triple": ("legal_moves(hand, level, last=platform triple)", "follow_move"),
    "from_platform": ("Move.from_platform(triple, level)", "from_platform"),
    "has_follow_move": ("has_legal_follow(hand, level, Move)", "has_follow_move"),
    "has_follow_triple": ("has_legal_follow(hand, level, platform triple)", "has_follow_move"),
    "lead_hand": ("legal_moves(Hand, level)", "lead_hand"),
    "lead_string": ("legal_moves(card string, level), string seen before", "lead_hand"),
    "lead_new_string": ("legal_moves(card string, level), new string", "lead_hand"),
    "lead_endgame_hand": ("legal_moves(Hand, level), an endgame hand (at most 10 cards)", "lead_endgame_hand"),
    "lead_endgame_string": ("legal_moves(card string, level), an endgame hand, string seen before", "lead_endgame_hand"),
    "lead_endgame_new_string": ("legal_moves(card string, level), an endgame hand, new string", "lead_endgame_hand"),
    "batch_planes": ("legal_moves_batch(uint64 planes, levels), per hand", "batch_planes"),
    "batch_hands": ("legal_moves_batch(list of Hand, levels), per hand", "batch_planes"),
    "batch_strings": ("legal_moves_batch(list of card strings, levels), per hand", "batch_planes"),
    "batch_deals": ("legal_moves_batch(a deal's 4 hands: planes, uint8 levels), per hand", "lead_hand"),
    "batch_endgame_planes": ("legal_moves_batch(endgame hands: planes, uint8 levels, threads=1), per hand",
                             "lead_endgame_hand"),
    "batch_endgame_hands": ("legal_moves_batch(endgame hands: list of Hand, levels, threads=1), per hand",
                            "batch_endgame_planes"),
    "batch_endgame_strings": ("legal_moves_batch(endgame hands: list of card strings, levels, threads=1), per hand",
                              "batch_endgame_planes"),
    "batch_deal_hands": ("legal_moves_batch(a deal's 4 Hands, its level), per hand", "batch_deals"),
    "step_move": ("Deal.step(Move)", "step_move"),
    "step_index": ("Deal.step(index)", "step_move"),
    "step_triple": ("Deal.step(platform triple)", "step_move"),
    "step_new_triple": ("Deal.step(platform triple), triple not seen before", "step_move"),
    "observation": ("Deal.observation(seat), leading with ~500 moves", "observation"),
}
#: Deals per pass of the Deal paths (fewer for a workload of fewer hands).
PATH_DEALS = 64

DEFAULT_SEED = 20240503
DEFAULT_HANDS = 1000
DEFAULT_REFERENCE_HANDS = 40
#: Reference time of the worst hand in dealt hands (about 40x one), for the progress bar.
WORST_PROGRESS_WEIGHT = 40
SEATS = 4

#: How often each type is drawn as the move to follow (a type the next seat cannot play
#: falls back to a single, which every non-empty hand has).
FOLLOW_MIX: dict[MoveType, int] = {
    MoveType.SINGLE: 4,
    MoveType.PAIR: 3,
    MoveType.TRIPS: 1,
    MoveType.THREE_WITH_TWO: 1,
    MoveType.STRAIGHT: 2,
    MoveType.THREE_PAIR: 1,
    MoveType.TWO_TRIPS: 1,
    MoveType.BOMB: 2,
    MoveType.STRAIGHT_FLUSH: 1,
}


# -- the workload -------------------------------------------------------------------------


@dataclass(frozen=True)
class Workload:
    """Hands to time, each with its level and the move it follows in the ``follow`` case,
    and as many endgame hands with their levels (the ``lead_endgame`` case)."""

    seed: int
    hands: tuple[Hand, ...]
    levels: tuple[int, ...]
    lasts: tuple[Move, ...]
    endgame_hands: tuple[Hand, ...]
    endgame_levels: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.hands)

    def head(self, n: int) -> Workload:
        """The first ``n`` hands (the reference backend is timed on fewer)."""
        return Workload(
            self.seed, self.hands[:n], self.levels[:n], self.lasts[:n], self.endgame_hands[:n], self.endgame_levels[:n]
        )


def deal_hands(n: int, seed: int) -> tuple[list[Hand], list[int]]:
    """``n`` random 27-card hands and their levels, the same for the same ``seed``.

    Each deal shuffles the 108-card double deck with ``random.Random(seed)`` and cuts it
    into four hands of 27; the four hands of a deal share one random level 2..14.
    """
    if n < 0:
        raise ValueError("the number of hands cannot be negative")
    rng = random.Random(seed)
    hands: list[Hand] = []
    levels: list[int] = []
    while len(hands) < n:
        hands += deal_cards(rng)
        levels += [rng.randint(2, 14)] * SEATS
    return hands[:n], levels[:n]


def _move_to_follow(rng: random.Random, moves: api.MoveList) -> Move:
    """A move of ``moves`` of a type drawn from :data:`FOLLOW_MIX` (a single if it has none)."""
    kinds = list(FOLLOW_MIX)
    kind = rng.choices(kinds, weights=[FOLLOW_MIX[k] for k in kinds])[0]
    rows = np.flatnonzero(moves.kinds == int(kind))
    if len(rows) == 0:
        rows = np.flatnonzero(moves.kinds == int(MoveType.SINGLE))
    # Sorted, so that the choice does not depend on the order a backend lists moves in.
    candidates = sorted((moves[int(i)] for i in rows), key=sort_key)
    return rng.choice(candidates)


def make_workload(
    n_hands: int = DEFAULT_HANDS, seed: int = DEFAULT_SEED, *, backend: api.Backend | None = None
) -> Workload:
    """The fixed workload: :func:`deal_hands`, and for hand ``i`` a move to follow taken
    from the legal leading moves of the next seat of its deal (seat ``i + 1`` mod 4); and
    ``min(n_hands, ENDGAME_HANDS)`` endgame hands (:func:`hands_in_endgames`, the same seed).

    ``backend`` only lists those moves; any correct backend gives the same workload.
    """
    # Whole deals, so that every hand has a next seat; cut to n_hands afterwards.
    hands, levels = deal_hands(-(-n_hands // SEATS) * SEATS, seed)
    rng = random.Random(f"{seed}/follow")
    lasts = []
    for i in range(n_hands):
        nxt = i - i % SEATS + (i + 1) % SEATS
        lasts.append(_move_to_follow(rng, api.legal_moves(hands[nxt], levels[nxt], backend=backend)))
    endgame_hands, endgame_levels = hands_in_endgames(min(n_hands, ENDGAME_HANDS), seed)
    return Workload(
        seed, tuple(hands[:n_hands]), tuple(levels[:n_hands]), tuple(lasts), tuple(endgame_hands), tuple(endgame_levels)
    )


#: The ``lead_endgame`` case's hands: those of positions where no seat holds more cards.
ENDGAME_CARDS = 10
#: The most endgame hands a workload holds: each deal played gives three or four, at about
#: 2 ms a deal, so a workload of many dealt hands does not wait on playing their endgames.
ENDGAME_HANDS = 1000


def hands_in_endgames(n: int, seed: int, cards: int = ENDGAME_CARDS) -> tuple[list[Hand], list[int]]:
    """``n`` hands of at most ``cards`` cards, as a solver or a rollout meets them: the hands
    still in play at :func:`endgame` positions of ``Deal.random(seed)``, ``seed + 1``, ...,
    with their deal's level."""
    hands: list[Hand] = []
    levels: list[int] = []
    for deal_seed in range(seed, seed + 10 * n + 100):  # bounded: few deals reach a tiny ``cards``
        if len(hands) >= n:
            break
        deal = endgame(deal_seed, cards)
        if deal is not None:
            held = [hand for hand in deal.hands if len(hand)]
            hands += held
            levels += [deal.level] * len(held)
    if len(hands) < n:
        raise ValueError(f"too few positions with at most {cards} cards a seat for {n} hands")
    return hands[:n], levels[:n]


WORST_LEVEL = 2
WORST_LOW = 3


def endgame(seed: int, cards: int) -> Deal | None:
    """The first position of ``Deal.random(seed)`` played by the MinPlays rules (its
    recorded playout replayed) where no seat holds more than ``cards`` cards; None when
    the deal ends first."""
    deal = Deal.random(seed=seed)
    _, actions = deal.playout(seed, record=True, policy="minplays")
    for _, action in actions:
        if max(deal.cards_left()) <= cards:
            return deal
        deal.step(action)
    return None


def worst_hand(level: int = WORST_LEVEL, low: int = WORST_LOW) -> tuple[Hand, int]:
    """Both wildcards of ``level`` and all eight copies of the six ranks ``low .. low+5``.

    At level 2 with ranks 3..8 (50 cards) this hand has over 37,000 complete moves.
    """
    if not 2 <= low <= 9:
        raise ValueError("the six ranks must lie within 2..A")
    if level in range(low, low + 6):
        raise ValueError("the level rank must not be one of the six ranks")
    indices = [wildcard(level)] * 2
    indices += [4 * (rank - 2) + suit for rank in range(low, low + 6) for suit in range(4) for _ in range(2)]
    return Hand.from_indices(indices), level


WORST_HAND_LABEL = (
    f"worst hand: both wildcards and all 8 copies of {RANKS[WORST_LOW - 2]}..{RANKS[WORST_LOW + 3]} "
    f"at level {level_char(WORST_LEVEL)} ({len(worst_hand()[0])} cards)"
)


# -- one pass per case ----------------------------------------------------------------------


def case_hands(case: str, workload: Workload) -> int:
    """How many hands one pass of ``case`` covers (the worst-hand case is one hand)."""
    if case == "worst":
        return 1
    return len(workload.endgame_hands) if case in ENDGAME_CASES else len(workload)


#: The cases over the workload's endgame hands (the others: its dealt hands).
ENDGAME_CASES = frozenset({"lead_endgame", "batch_endgame", "batch_endgame_one_thread"})


def make_pass(
    case: str, workload: Workload, backend: api.Backend, *, tick: Callable[[], None] | None = None
) -> Callable[[], int]:
    """A callable that makes one pass of ``case`` over ``workload`` on ``backend`` and
    returns the number of moves it produced. ``tick`` (if given) is called after each hand."""
    if case not in CASES:
        raise ValueError(f"unknown case {case!r}: one of {', '.join(CASES)}")
    api.resolve_backend(backend)  # fail now, with advice, rather than inside the timing
    if case.startswith("batch"):
        hands, levels = (workload.endgame_hands, workload.endgame_levels) if case in ENDGAME_CASES else (
            workload.hands, workload.levels)
        return _batch_pass(hands, levels, backend, tick, threads=1 if case.endswith("one_thread") else None)
    hands: Sequence[Hand]
    levels: Sequence[int]
    follows: Sequence[Move | None]
    if case == "worst":
        hand, level = worst_hand()
        hands, levels, follows = (hand,), (level,), (None,)
    elif case == "lead_endgame":
        hands, levels = workload.endgame_hands, workload.endgame_levels
        follows = (None,) * len(hands)
    else:
        hands, levels = workload.hands, workload.levels
        follows = workload.lasts if case == "follow" else (None,) * len(hands)
    strongest = case == "lead_strongest"
    keep = case == "lead_kept"
    legal_moves = api.legal_moves

    def run() -> int:
        n = 0
        kept = []  # lead_kept: every hand's list held to the end of the pass, as a batch holds them
        for hand, level, last in zip(hands, levels, follows):
            moves = legal_moves(hand, level, last, strongest=strongest, backend=backend)
            n += len(moves)
            if keep:
                kept.append(moves)
            if tick is not None:
                tick()
        return n

    return run


def _batch_pass(
    hands: Sequence[Hand],
    hand_levels: Sequence[int],
    backend: api.Backend,
    tick: Callable[[], None] | None,
    *,
    threads: int | None,
) -> Callable[[], int]:
    """One ``legal_moves_batch`` call over ``hands`` (the workload's dealt or endgame
    hands), as an array user makes it: hands as a ``uint64[n, 2]`` array and one level per
    hand (built once, not timed), on ``threads`` threads (None: the default, one per core)."""
    planes = np.array([(hand.once, hand.twice) for hand in hands], dtype=np.uint64).reshape(-1, 2)
    levels = np.array(hand_levels, dtype=np.uint8)
    batch = api.legal_moves_batch

    def run() -> int:
        n = int(batch(planes, levels, backend=backend, threads=threads).offsets[-1])
        if tick is not None:
            for _ in range(len(planes)):
                tick()
        return n

    return run


# -- the input forms users pass -------------------------------------------------------------


def _deals_to_step(seed: int, n: int) -> list[tuple[Deal, list[Any], int, Move]]:
    """``n`` deals in their play phase, each a few random actions in, with one legal action
    drawn for it as a platform triple, an index into ``legal_actions()`` and a Move."""
    rng = random.Random(f"{seed}/step")
    deals = []
    for number in range(n):
        deal = Deal.random(seed=seed + number, level=rng.randint(2, 14))
        for _ in range(rng.randrange(40)):
            if deal.phase != "play":
                break
            deal.step(rng.choice(deal.legal_actions()))
        if deal.phase != "play":
            deal = Deal.random(seed=seed + number)
        actions = deal.legal_actions()
        index = rng.randrange(len(actions))
        deals.append((deal, actions[index], index, Move.from_platform(actions[index], deal.level)))
    return deals


def _deals_to_observe(seed: int, n: int, moves: range = range(400, 601)) -> list[Deal]:
    """``n`` fresh deals whose leader has a number of legal moves in ``moves`` (~500)."""
    deals: list[Deal] = []
    number = seed
    while len(deals) < n:
        deal = Deal.random(seed=number)
        number += 1
        if len(deal.legal_moves()) in moves:
            deals.append(deal)
    return deals


def make_path(path: str, workload: Workload) -> tuple[Callable[[], Any], Callable[[Any], int]]:
    """``(setup, run)`` for one pass of an input form: ``run(setup())`` makes the calls
    (timed) and returns how many it made; ``setup`` prepares what must be fresh (untimed)."""
    if path not in PATHS:
        raise ValueError(f"unknown path {path!r}: one of {', '.join(PATHS)}")
    hands, levels, lasts = workload.hands, workload.levels, workload.lasts
    legal_moves, has_legal_follow = api.legal_moves, api.has_legal_follow

    def nothing() -> None:
        return None

    n_deals = max(1, min(PATH_DEALS, len(workload)))
    if path.startswith("step_"):
        deals = _deals_to_step(workload.seed, n_deals)
        column = {"step_triple": 1, "step_new_triple": 1, "step_index": 2, "step_move": 3}[path]
        actions = [entry[column] for entry in deals]

        def fresh_deals() -> list[Deal]:
            if path == "step_new_triple":
                forget_readings()  # each triple read and checked, as by a client's first sight of it
            clones = [entry[0].clone() for entry in deals]
            for deal in clones:
                deal.legal_moves()  # the list a user chose from is known: step pays no generation
            return clones

        def step(clones: list[Deal]) -> int:
            for deal, action in zip(clones, actions):
                deal.step(action)
            return len(clones)

        return fresh_deals, step
    if path == "observation":
        observed = _deals_to_observe(workload.seed, n_deals)

        def observe(clones: list[Deal]) -> int:
            for deal in clones:
                deal.observation(deal.to_act)  # type: ignore[arg-type]
            return len(clones)

        return lambda: [deal.clone() for deal in observed], observe
    triples = [last.to_platform() for last in lasts]
    strings = [str(hand) for hand in hands]
    endgame_strings = [str(hand) for hand in workload.endgame_hands]
    planes = np.array([(hand.once, hand.twice) for hand in hands], dtype=np.uint64).reshape(-1, 2)
    levels_array = np.array(levels, dtype=np.uint8)
    deal_starts = range(0, len(hands), SEATS)
    batch = api.legal_moves_batch
    endgame_hands, endgame_levels = list(workload.endgame_hands), list(workload.endgame_levels)
    endgame_planes = np.array([(hand.once, hand.twice) for hand in endgame_hands], dtype=np.uint64).reshape(-1, 2)
    endgame_levels_array = np.array(endgame_levels, dtype=np.uint8)

    calls: dict[str, Callable[[Any], int]] = {
        "follow_move": lambda _: _each(legal_moves, hands, levels, lasts),
        "follow_triple": lambda _: _each(legal_moves, hands, levels, triples),
        "from_platform": lambda _: _each(Move.from_platform, triples, levels),
        "has_follow_move": lambda _: _each(has_legal_follow, hands, levels, lasts),
        "has_follow_triple": lambda _: _each(has_legal_follow, hands, levels, triples),
        "lead_hand": lambda _: _each(legal_moves, hands, levels),
        "lead_string": lambda _: _each(legal_moves, strings, levels),
        "lead_new_string": lambda _: _each(legal_moves, strings, levels),
        "lead_endgame_hand": lambda _: _each(legal_moves, workload.endgame_hands, workload.endgame_levels),
        "lead_endgame_string": lambda _: _each(legal_moves, endgame_strings, workload.endgame_levels),
        "lead_endgame_new_string": lambda _: _each(legal_moves, endgame_strings, workload.endgame_levels),
        "batch_planes": lambda _: len(batch(planes, levels)),
        "batch_hands": lambda _: len(batch(hands, levels)),
        "batch_strings": lambda _: len(batch(strings, levels)),
        "batch_deals": lambda _: sum(len(batch(planes[i : i + SEATS], levels_array[i : i + SEATS])) for i in deal_starts),
        "batch_deal_hands": lambda _: sum(len(batch(hands[i : i + SEATS], levels[i])) for i in deal_starts),
        "batch_endgame_planes": lambda _: len(batch(endgame_planes, endgame_levels_array, threads=1)),
        "batch_endgame_hands": lambda _: len(batch(endgame_hands, endgame_levels, threads=1)),
        "batch_endgame_strings": lambda _: len(batch(endgame_strings, endgame_levels, threads=1)),
    }
    call = calls[path]
    return (forget_parsed if path in ("lead_new_string", "lead_endgame_new_string", "batch_strings") else nothing), call


def _each(call: Callable[..., Any], *columns: Sequence[Any]) -> int:
    """``call(*row)`` for each row of ``columns``, each result dropped at once, as a loop over
    hands drops it; the number of calls. (A pass that kept its thousand move lists would
    time, in its next pass, how the C library hands their pages back to the system and
    faults them in again: up to 6 µs a list on this machine, depending on the process's
    allocation history and not on this package.)"""
    calls = 0
    for row in zip(*columns):
        call(*row)
        calls += 1
    return calls


def measure_path(path: str, workload: Workload, *, min_rounds: int = 5, min_time: float = 0.2) -> Measurement:
    """Time passes of one input form (see :func:`make_path`); ``hands`` is calls per pass."""
    setup, run = make_path(path, workload)
    calls, seconds = measure(run, setup=setup, min_rounds=min_rounds, min_time=min_time)
    return Measurement(path, api.resolve_backend(), calls, calls, seconds)


# -- timing ---------------------------------------------------------------------------------


@dataclass
class Measurement:
    """Timed passes of one case on one backend."""

    case: str
    backend: str
    hands: int  # hands per pass
    moves: int  # moves produced per pass
    seconds: list[float] = field(default_factory=list)  # one per timed pass

    @property
    def median_seconds(self) -> float:
        return statistics.median(self.seconds)

    @property
    def us_per_hand(self) -> float:
        """Median µs per hand: the median pass time divided by the hands in a pass."""
        return self.median_seconds / self.hands * 1e6

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.median_seconds

    @property
    def moves_per_hand(self) -> float:
        return self.moves / self.hands

    def as_dict(self) -> dict[str, Any]:
        return {
            "us_per_hand": self.us_per_hand,
            "moves_per_second": self.moves_per_second,
            "moves_per_hand": self.moves_per_hand,
            "hands": self.hands,
            "rounds": len(self.seconds),
            "min_us_per_hand": min(self.seconds) / self.hands * 1e6,
        }


def measure(
    run: Callable[..., int],
    *,
    setup: Callable[[], Any] | None = None,
    min_rounds: int = 5,
    min_time: float = 0.2,
    max_rounds: int = 10_000,
    warmup: int = 1,
) -> tuple[int, list[float]]:
    """Time passes of ``run`` until ``min_rounds`` passes and ``min_time`` seconds are
    done (at most ``max_rounds``); returns (what a pass returned, seconds of each pass).
    With ``setup``, each pass is ``run(setup())`` and only ``run`` is timed (a pass that
    changes its input, such as stepping deals, starts from a fresh one)."""
    clock = time.perf_counter

    def timed_pass() -> tuple[int, float]:
        args = () if setup is None else (setup(),)
        t0 = clock()
        moves = run(*args)
        return moves, clock() - t0

    moves = 0
    for _ in range(warmup):
        moves, _ = timed_pass()
    seconds: list[float] = []
    gc.collect()
    start = clock()
    while len(seconds) < max_rounds and (len(seconds) < min_rounds or clock() - start < min_time):
        moves, elapsed = timed_pass()
        seconds.append(elapsed)
    return moves, seconds


def measure_case(
    case: str,
    workload: Workload,
    backend: api.Backend,
    *,
    min_rounds: int = 5,
    min_time: float = 0.2,
    max_rounds: int = 10_000,
    warmup: int = 1,
    tick: Callable[[], None] | None = None,
) -> Measurement:
    """Time ``case`` over ``workload`` on ``backend`` (see :func:`measure`)."""
    run = make_pass(case, workload, backend, tick=tick)
    moves, seconds = measure(run, min_rounds=min_rounds, min_time=min_time, max_rounds=max_rounds, warmup=warmup)
    return Measurement(case, backend, case_hands(case, workload), moves, seconds)


# -- the comparison -------------------------------------------------------------------------


def batch_threads(hands: int) -> int:
    """The threads ``legal_moves_batch`` uses by default for ``hands`` hands."""
    return api.batch_thread_count(hands, None)


@dataclass
class Row:
    case: str
    native: Measurement | None
    reference: Measurement | None

    @property
    def ratio(self) -> float | None:
        """How many times faster native is than reference (same run)."""
        if self.native is None or self.reference is None:
            return None
        return self.reference.us_per_hand / self.native.us_per_hand


@dataclass
class Comparison:
    seed: int
    hands: int
    reference_hands: int
    rows: list[Row]
    #: The input forms (:data:`PATHS`) on the default backend, in :data:`PATHS` order.
    paths: list[Measurement] = field(default_factory=list)

    def row(self, case: str) -> Row:
        return next(r for r in self.rows if r.case == case)

    def batch_time_ratio(self, case: str = "batch", loop: str = "lead") -> float | None:
        """Native batch time per hand (``case``: ``"batch"`` or ``"batch_one_thread"``, or
        the same over the endgame hands, ``"batch_endgame"`` ...) over the time per hand of a
        loop of single ``legal_moves`` calls over the same hands (``loop``: ``"lead"``, each
        list dropped before the next call, or ``"lead_kept"``, every list kept as the batch
        keeps them; ``"lead_endgame"`` for the endgame hands): below 1, the batch is
        faster."""
        rows = {row.case: row.native for row in self.rows}
        lead, batch = rows.get(loop), rows.get(case)
        if lead is None or batch is None:
            return None
        return batch.us_per_hand / lead.us_per_hand


def compare(
    hands: int = DEFAULT_HANDS,
    seed: int = DEFAULT_SEED,
    *,
    reference_hands: int = DEFAULT_REFERENCE_HANDS,
    reference_rounds: int = 3,
    min_time: float = 0.3,
    cases: Sequence[str] = tuple(CASES),
    paths: Sequence[str] = tuple(PATHS),
    progress: TextIO | None = None,
    show_progress: bool = True,
) -> Comparison:
    """Every case on both backends in one run: native on ``hands`` hands (passes until
    ``min_time`` seconds), reference on the first ``reference_hands`` of them
    (``reference_rounds`` timed passes after one untimed, with a progress bar); then the
    input forms ``paths`` on the native backend."""
    if hands < 1 or reference_hands < 0 or reference_rounds < 1:
        raise ValueError("need at least one hand, and at least one reference round")
    reference_hands = min(reference_hands, hands)
    workload = make_workload(hands, seed)
    reference_workload = workload.head(reference_hands)

    native: dict[str, Measurement] = {}
    path_measurements: list[Measurement] = []
    for case in cases:
        native[case] = measure_case(case, workload, "native", min_time=min_time)
    previous = api.resolve_backend()
    api.set_default_backend("native")
    try:
        path_measurements = [measure_path(path, workload, min_time=min_time) for path in paths]
    finally:
        api.set_default_backend(previous)

    reference: dict[str, Measurement] = {}
    if reference_hands:
        # The bar counts hands, the worst hand as the dealt hands it takes as long as.
        weight = {case: WORST_PROGRESS_WEIGHT if case == "worst" else 1 for case in cases}
        passes = reference_rounds + 1  # the untimed warm-up pass is shown too
        total = sum(case_hands(case, reference_workload) * passes * weight[case] for case in cases)
        bar = ProgressBar(total, progress) if show_progress else None
        for case in cases:
            tick = None
            if bar is not None:
                bar.set_label(f"reference: {CASES[case]}")
                tick = partial(bar.tick, weight[case])
            reference[case] = measure_case(
                case,
                reference_workload,
                "reference",
                min_rounds=reference_rounds,
                max_rounds=reference_rounds,
                min_time=0.0,
                tick=tick,
            )
        if bar is not None:
            bar.close()

    rows = [Row(case, native.get(case), reference.get(case)) for case in cases]
    return Comparison(seed, hands, reference_hands, rows, path_measurements)


def _number(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "-"
    return f"{value:,.{digits}f}"


def format_table(comparison: Comparison) -> str:
    """The summary table: case, native and reference median µs per hand, ratio, moves/s."""
    header = ("case", "native µs/hand", "reference µs/hand", "ratio", "native moves/s", "reference moves/s")
    lines = [header]
    for row in comparison.rows:
        n, r = row.native, row.reference
        lines.append(
            (
                CASES[row.case],
                _number(n.us_per_hand if n else None, 2),
                _number(r.us_per_hand if r else None, 0),
                f"{row.ratio:,.0f}x" if row.ratio is not None else "-",
                _number(n.moves_per_second if n else None, 0),
                _number(r.moves_per_second if r else None, 0),
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    text = [
        "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths)))
        for line in lines
    ]
    text.insert(1, "  ".join("-" * w for w in widths))
    notes = [
        (
            f"{comparison.hands} hands (seed {comparison.seed}); reference on the first "
            f"{comparison.reference_hands}; {WORST_HAND_LABEL}."
        ),
    ]
    notes += _batch_notes(comparison)
    return "\n".join(text + [""] + notes + format_paths(comparison.paths))


def _batch_notes(comparison: Comparison) -> list[str]:
    """The batch's time per hand as a share of the two loops' (what the README quotes)."""
    notes = []
    for loop, which in (
        ("lead_kept", "a legal_moves loop that keeps every hand's list, as the batch does"),
        ("lead", "a legal_moves loop that drops each list before the next call (one warm buffer reused)"),
    ):
        one, all_cores = comparison.batch_time_ratio("batch_one_thread", loop), comparison.batch_time_ratio("batch", loop)
        if one is not None and all_cores is not None:
            notes.append(
                f"legal_moves_batch takes {one:.2f} (one thread) and {all_cores:.2f} (a thread per core, "
                f"{batch_threads(comparison.hands)} here) of the time per hand of {which} "
                "(native, leading, the same hands; below 1 the batch is faster)."
            )
    one = comparison.batch_time_ratio("batch_endgame_one_thread", "lead_endgame")
    all_cores = comparison.batch_time_ratio("batch_endgame", "lead_endgame")
    endgame = next((r.native for r in comparison.rows if r.case == "lead_endgame" and r.native), None)
    if one is not None and all_cores is not None and endgame is not None:
        notes.append(
            f"On the {endgame.hands} endgame hands, where a call's own cost weighs more, legal_moves_batch takes "
            f"{one:.2f} (one thread) and {all_cores:.2f} (a thread per core, {batch_threads(endgame.hands)} here) "
            "of the time per hand of a legal_moves loop that drops each list."
        )
    return notes


def format_paths(paths: Sequence[Measurement]) -> list[str]:
    """The input-forms table (native µs per call, each beside its fast form), as lines."""
    if not paths:
        return []
    by_name = {m.case: m for m in paths}
    lines = [("input form (native)", "µs/call", "fast form µs/call")]
    for m in paths:
        fast = by_name.get(PATHS[m.case][1])
        beside = "" if fast is None or fast is m else _number(fast.us_per_hand, 2)
        lines.append((PATHS[m.case][0], _number(m.us_per_hand, 2), beside))
    widths = [max(len(line[i]) for line in lines) for i in range(3)]
    text = [
        "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths)))
        for line in lines
    ]
    text.insert(1, "  ".join("-" * w for w in widths))
    deals = next((m.hands for m in paths if m.case.startswith("step_")), 0)
    return ["", *text, "", f"{paths[0].hands} calls a pass for the move paths; Deal paths on {deals} deals."]


def comparison_json(comparison: Comparison) -> dict[str, Any]:
    """The comparison as a JSON-ready document."""
    return {
        "seed": comparison.seed,
        "hands": comparison.hands,
        "reference_hands": comparison.reference_hands,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "batch_time_ratio": {  # over the loop that drops each list; "lists_kept": over the one that keeps them
            "one_thread": comparison.batch_time_ratio("batch_one_thread"),
            "thread_per_core": comparison.batch_time_ratio("batch"),
            "threads": batch_threads(comparison.hands),
            "lists_kept": {
                "one_thread": comparison.batch_time_ratio("batch_one_thread", "lead_kept"),
                "thread_per_core": comparison.batch_time_ratio("batch", "lead_kept"),
            },
            "endgame": {  # over the loop of legal_moves over the endgame hands, each list dropped
                "one_thread": comparison.batch_time_ratio("batch_endgame_one_thread", "lead_endgame"),
                "thread_per_core": comparison.batch_time_ratio("batch_endgame", "lead_endgame"),
                "threads": batch_threads(min(comparison.hands, ENDGAME_HANDS)),
            },
        },
        "paths": [
            {"path": m.case, "title": PATHS[m.case][0], "fast_form": PATHS[m.case][1], **m.as_dict()}
            for m in comparison.paths
        ],
        "cases": [
            {
                "case": row.case,
                "title": CASES[row.case],
                "native": row.native.as_dict() if row.native else None,
                "reference": row.reference.as_dict() if row.reference else None,
                "ratio": row.ratio,
            }
            for row in comparison.rows
        ],
    }


__all__ = [
    "BACKENDS",
    "CASES",
    "PATHS",
    "Comparison",
    "Measurement",
    "ProgressBar",
    "Row",
    "Workload",
    "compare",
    "comparison_json",
    "deal_hands",
    "format_paths",
    "format_table",
    "make_pass",
    "make_path",
    "make_workload",
    "measure",
    "measure_case",
    "measure_path",
    "worst_hand",
]
