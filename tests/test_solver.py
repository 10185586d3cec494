"""min_plays: exact against two independent searches, and every decomposition checked.

* Small hands (<= 12 cards, jokers and wildcards forced in often): a plain-Python
  exhaustive search over the hand's partitions **at card level** (not on the rank counts
  the native solver uses, so the solver's suit-blindness is tested too), branching on the
  moves holding the lowest card, with a memo. Its move lists come from the pure-Python
  reference generator for part of the hands and from the native one for the rest.
* Full hands: an iterative-deepening search in Python over rank-count vectors ("can the
  hand be emptied in d plays?", d = 1, 2, ...), a memo of the failed (counts, d) pairs and
  no other pruning, branching on the *highest* non-empty lane — a different order, a
  different search scheme and no lower bound, sharing nothing with the native code but the
  leading move list of the hand.
* Tie-breaks (``prefer``): the same card-level exhaustive search, minimising the
  documented (plays, major, minor) cost, on small hands.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

import guandan_fast as gf
from guandan_fast import Hand, MoveType, legal_moves
from guandan_fast.engine.cards import NUM_CARDS, card_power, wildcard
from guandan_fast.engine.deal import deal_cards
from guandan_fast.search.minplays import MAX_CARDS, decomposition_cost, min_plays

BOMB_KINDS = {MoveType.BOMB, MoveType.FOUR_JOKERS}


def check_decomposition(hand: Hand, level: int, count: int, plays: list[gf.Move]) -> None:
    """The plays are legal leading moves of what is left before each, using exactly the hand."""
    assert len(plays) == count
    left = hand
    for move in plays:
        assert move in legal_moves(left, level), move
        left = left.remove(move.cards)
    assert not left


def small_hand(rng: random.Random, level: int) -> Hand:
    """Up to 12 cards of a double deck, with the jokers and the wildcards often forced in."""
    deck = [card for card in range(NUM_CARDS) for _ in range(2)]
    forced = []
    if rng.random() < 0.5:
        forced += [wildcard(level)] * rng.randint(1, 2)
    if rng.random() < 0.4:
        forced += rng.sample([52, 52, 53, 53], rng.randint(1, 4))
    for card in forced:
        deck.remove(card)
    size = rng.randint(1, 12)
    # a narrow window of ranks makes sequences and bombs likely
    low = rng.randint(0, 8)
    window = [c for c in deck if low * 4 <= c < (low + 6) * 4 or c >= 52]
    pool = window if rng.random() < 0.7 else deck
    cards = forced[:size] + rng.sample(pool, size - len(forced[:size]))
    return Hand.from_indices(cards)


def brute_force(hand: Hand, level: int, backend: str) -> int:
    """Fewest plays by exhaustive search over card-level partitions (memoised)."""
    moves = [(m.cards.once, m.cards.twice) for m in legal_moves(hand, level, backend=backend)]

    @cache
    def best(once: int, twice: int) -> int:
        if not once:
            return 0
        low = once & -once
        result = 10**9
        for mo, mt in moves:
            if mo & low and not (mo & ~once) and not (mt & ~twice):
                result = min(result, 1 + best((once & ~mo) | (twice & ~mt), twice & ~mo))
        return result

    return best(hand.once, hand.twice)


def test_small_hands_equal_brute_force() -> None:
    rng = random.Random(20261201)
    for i in range(2000):
        level = rng.randint(2, 14)
        hand = small_hand(rng, level)
        expected = brute_force(hand, level, "reference" if i % 10 == 0 else "native")
        count, plays = min_plays(hand, level)
        assert count == expected, (str(hand), level)
        check_decomposition(hand, level, count, plays)


def lanes(hand: Hand, level: int) -> int:
    """Rank counts (wildcards apart), then SB, HR, then the wildcards: 16 counts of 5 bits."""
    wild = wildcard(level)
    packed = 0
    for card in hand.indices():
        packed += 1 << 5 * (15 if card == wild else 13 + card - 52 if card >= 52 else card >> 2)
    return packed


GUARDS = sum(16 << 5 * lane for lane in range(16))  # a count is at most 8 < 16: no borrow


def iterative_deepening(hand: Hand, level: int) -> int:
    """Fewest plays by 'd plays enough?' for d = 1, 2, ... over rank-count vectors."""
    patterns = {lanes(m.cards, level) for m in legal_moves(hand, level, strongest=True)}
    by_top: dict[int, list[int]] = {}
    for pattern in patterns:
        by_top.setdefault(pattern.bit_length() - 1, []).append(pattern)
    failed: set[tuple[int, int]] = set()

    def enough(counts: int, plays: int) -> bool:
        if not counts:
            return True
        if plays == 0 or (counts, plays) in failed:
            return False
        top = (counts.bit_length() - 1) // 5  # the highest non-empty lane
        for pattern in (p for bit in range(5 * top, 5 * top + 4) for p in by_top.get(bit, ())):
            if ((counts | GUARDS) - pattern) & GUARDS == GUARDS and enough(counts - pattern, plays - 1):
                return True
        failed.add((counts, plays))
        return False

    start = lanes(hand, level)
    return next(d for d in range(len(hand) + 1) if enough(start, d))


def test_full_hands_equal_an_independent_search() -> None:
    rng = random.Random(7)
    for _ in range(50):
        hands = deal_cards(rng)
        level = rng.randint(2, 14)
        hand = hands[rng.randrange(4)]
        count, plays = min_plays(hand, level)
        assert count == iterative_deepening(hand, level), (str(hand), level)
        check_decomposition(hand, level, count, plays)


def test_a_solver_remembers_other_hands_without_changing_an_answer() -> None:
    """The native solver keeps its memo across hands of one level and tie-break (a sub-hand's
    cost does not depend on the hand it was cut from): one solver fed hands that share
    sub-hands — each hand, then the hand less one of its decomposition's plays, as a rollout
    plays them — at mixed levels and tie-breaks gives every decomposition a fresh solver
    gives, play for play."""
    from guandan_fast.search._minplays import MinPlays

    rng = random.Random(23)
    kept, checked = MinPlays(), 0
    for _ in range(60):
        hand = deal_cards(rng)[0]
        level, prefer = rng.randint(2, 14), rng.randrange(4)
        once, twice = hand.once, hand.twice
        while once:
            answer = kept.solve(once, twice, level, prefer)
            fresh = MinPlays().solve(once, twice, level, prefer)
            assert answer[0] == fresh[0] and all((a == b).all() for a, b in zip(answer[1:], fresh[1:])), (
                str(Hand.from_bits(once, twice)), level, prefer)
            checked += 1
            mo, mt = (int(x) for x in answer[3][rng.randrange(answer[0])])
            once, twice = (once & ~mo) | (twice & ~mt), twice & ~mo
            if rng.random() < 0.5:  # between two hands of a chain: an unrelated hand, mostly
                other = deal_cards(rng)[1]  # of the same level (its entries stay), any tie-break
                kept.solve(other.once, other.twice, level if rng.random() < 0.75 else rng.randint(2, 14),
                           rng.randrange(4))
    assert checked > 300


@pytest.mark.parametrize("prefer", ["bombs", "singles", "high"])
def test_tie_breaks_keep_the_count_and_improve_their_criterion(prefer: str) -> None:
    rng = random.Random(11)
    for _ in range(40):
        level = rng.randint(2, 14)
        hand = deal_cards(rng)[0]
        count, plays = min_plays(hand, level)
        tied_count, tied = min_plays(hand, level, prefer=prefer)  # type: ignore[arg-type]
        assert tied_count == count
        check_decomposition(hand, level, count, tied)
        if prefer in ("bombs", "high"):
            assert sum(m.kind in BOMB_KINDS for m in tied) >= sum(m.kind in BOMB_KINDS for m in plays)
        if prefer == "high":  # as many bombs as "bombs" keeps, and singles and pairs no lower
            _, kept = min_plays(hand, level, prefer="bombs")
            assert sum(m.kind in BOMB_KINDS for m in tied) == sum(m.kind in BOMB_KINDS for m in kept)
            low = [sum(tie_break_cost("high", m.kind, m)[2] for m in d) for d in (tied, kept)]
            assert low[0] <= low[1]
        elif prefer == "singles":
            assert sum(m.kind is MoveType.SINGLE for m in tied) <= sum(m.kind is MoveType.SINGLE for m in plays)


def tie_break_cost(prefer: str, kind: MoveType, move: gf.Move) -> tuple[int, int, int]:
    """(plays, major, minor) of one play under a tie-break, as documented in solver.PREFER
    (``kind``: the move's, but a straight flush counts as a straight, as the search sees
    counts, not suits)."""
    if prefer == "bombs":
        return (1, int(kind not in BOMB_KINDS), int(kind is MoveType.SINGLE))
    if prefer == "high":
        low = max(0, 14 - move.key)
        minor = 2 + 2 * low if kind is MoveType.SINGLE else low if kind is MoveType.PAIR else 0
        if kind is MoveType.THREE_WITH_TWO:  # a pair of aces or higher carried: 4 a step above a king
            minor += 4 * max(0, carried_pair_key(move) - 13)
        return (1, int(kind not in BOMB_KINDS), minor)
    return (1, int(kind is MoveType.SINGLE), int(kind is MoveType.PAIR))


def carried_pair_key(move: gf.Move) -> int:
    """The key of the pair a full house carries: its natural cards off the triple's key (the
    level rank's 15), or 15 when the pair is wildcards alone."""
    wild = wildcard(move.level)
    pair = [card for card in move.cards.indices() if card != wild and card_power(card, move.level) != move.key]
    return card_power(pair[0], move.level) if pair else 15


def brute_force_tie_break(hand: Hand, level: int, prefer: str) -> tuple[int, int, int]:
    """The lexicographically smallest (plays, major, minor) over card-level partitions."""
    cheapest: dict[tuple[int, int], tuple[int, int, int]] = {}
    for move in legal_moves(hand, level):
        cost = tie_break_cost(prefer, move.kind, move)
        key = (move.cards.once, move.cards.twice)
        cheapest[key] = min(cheapest.get(key, cost), cost)

    @cache
    def best(once: int, twice: int) -> tuple[int, int, int]:
        if not once:
            return (0, 0, 0)
        low = once & -once
        result = (10**9, 0, 0)
        for (mo, mt), cost in cheapest.items():
            if mo & low and not (mo & ~once) and not (mt & ~twice):
                rest = best((once & ~mo) | (twice & ~mt), twice & ~mo)
                result = min(result, (cost[0] + rest[0], cost[1] + rest[1], cost[2] + rest[2]))
        return result

    return best(hand.once, hand.twice)


@pytest.mark.parametrize("prefer", ["bombs", "singles", "high"])
def test_tie_breaks_equal_brute_force_on_small_hands(prefer: str) -> None:
    rng = random.Random(prefer)
    for _ in range(300):
        level = rng.randint(2, 14)
        hand = small_hand(rng, level)
        count, plays = min_plays(hand, level, prefer=prefer)  # type: ignore[arg-type]
        check_decomposition(hand, level, count, plays)
        kinds = [MoveType.STRAIGHT if m.kind is MoveType.STRAIGHT_FLUSH else m.kind for m in plays]
        costs = (tie_break_cost(prefer, kind, m) for kind, m in zip(kinds, plays))
        total = tuple(map(sum, zip((0, 0, 0), *costs)))
        assert total == brute_force_tie_break(hand, level, prefer), (str(hand), level)


@pytest.mark.parametrize("prefer", ["none", "bombs", "singles", "high"])
def test_decomposition_cost_is_the_brute_force_optimum(prefer: str) -> None:
    rng = random.Random(f"cost {prefer}")
    for _ in range(150):
        level = rng.randint(2, 14)
        hand = small_hand(rng, level)
        cost = decomposition_cost(hand, level, prefer=prefer)  # type: ignore[arg-type]
        if prefer == "none":
            assert cost == (min_plays(hand, level)[0], 0, 0) == decomposition_cost(hand, level)
        else:
            assert cost == brute_force_tie_break(hand, level, prefer), (str(hand), level)


def test_decomposition_cost_checks_its_arguments_as_min_plays() -> None:
    with pytest.raises(ValueError, match="unknown prefer 'low'"):
        decomposition_cost("S3 S4", 2, prefer="low")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        decomposition_cost("S3 S4", 2, "high")  # type: ignore[misc]  # prefer is keyword-only, as min_plays'


def test_bombs_tie_break_keeps_both_bombs() -> None:
    # 8888 99 JJJJ at level A: three plays either as 888+99, 8, JJJJ or as 8888, 99, JJJJ;
    # only the second keeps both bombs.
    hand = Hand.parse("S8 H8 C8 D8 H9 D9 CJ CJ DJ DJ")
    count, plays = min_plays(hand, "A", prefer="bombs")
    assert count == 3
    assert sorted(m.kind for m in plays) == [MoveType.PAIR, MoveType.BOMB, MoveType.BOMB]
    check_decomposition(hand, 14, count, plays)


def test_high_tie_break_leaves_the_high_single() -> None:
    # H2 C2 D3 555 7 J at level 2 (H2 the wildcard): four plays either as 555+22 and the
    # singles 3, 7, J ("bombs": as few singles as any) or as 555+3 and the wildcard, the
    # single 2 (a level card, high), 7, J; "high" leaves the 3 out of the singles.
    hand = Hand.parse("H2 C2 D3 S5 H5 C5 S7 SJ")
    singles = {
        prefer: sorted(m.key for m in min_plays(hand, 2, prefer=prefer)[1] if m.kind is MoveType.SINGLE)
        for prefer in ("bombs", "high")
    }
    assert singles == {"bombs": [3, 7, 11], "high": [7, 11, 15]}


def test_high_tie_break_carries_the_aces_and_keeps_the_level_pair() -> None:
    # 333, 77 and AA at level 7: both pairs cost nothing alone; carrying the level pair costs
    # 8, the aces 4 (the tie order before the rule carried the 77)
    count, plays = min_plays("S3 D3 C3 S7 D7 SA DA", 7, prefer="high")
    assert count == 2
    assert {(m.kind, m.cards) for m in plays} == {
        (MoveType.THREE_WITH_TWO, Hand("S3 D3 C3 SA DA")),
        (MoveType.PAIR, Hand("S7 D7")),
    }


@pytest.mark.parametrize(
    ("pair", "level", "minor"),
    [("SK DK", 2, 0), ("SA DA", 2, 4), ("S2 D2", 2, 8), ("S5 D5", 5, 8), ("S5 H2", 2, 0), ("SB SB", 2, 12),
     ("HR HR", 2, 16), ("SA DA", 14, 8), ("SK DK", 13, 8)],
)
def test_a_full_house_costs_4_a_step_its_pair_stands_above_a_king(pair: str, level: int, minor: int) -> None:
    # one play, 333 with the pair: its minor penalty is the carried pair's alone (H2 is the
    # wildcard at level 2: S5 H2 is a pair of fives; two wildcards would make a bomb of 3s)
    assert decomposition_cost(f"S3 D3 C3 {pair}", level, prefer="high") == (1, 1, minor)


@pytest.mark.parametrize("whole", [False, True])
def test_high_tie_break_carries_no_high_pair_another_pair_could_replace(whole: bool) -> None:
    # A dealt hand at level 2 (H2 the wildcard): three triples (444, 666, 999), the pairs
    # 55, 77, AA and the small jokers, a tube and a bomb of eights: six plays whichever pair
    # stays alone. "high" used to let a full house carry the jokers (444 + SB SB, and AA
    # alone: neither pair cost anything); a carried pair above a king now costs 4 a step,
    # so the jokers stay a play of their own and no full house carries a pair of aces or
    # higher either.
    hand = Hand.parse("H2 C4 C4 D4 S5 D5 S6 S6 D6 S7 C7 S8 H8 C8 D8 S9 H9 D9 DJ SQ CQ SK CK SA HA SB SB")
    count, plays = min_plays(hand, 2, prefer="high", whole=whole)
    assert count == 6
    check_decomposition(hand, 2, count, plays)
    carried = [carried_pair_key(m) for m in plays if m.kind is MoveType.THREE_WITH_TWO]
    assert len(carried) == 3 and max(carried) < 14
    assert [m.cards for m in plays if m.kind is MoveType.PAIR] == [Hand("SB SB")]
    assert decomposition_cost(hand, 2, prefer="high", whole=whole)[2] == 0  # no low single or pair left either


def test_singles_tie_break_leaves_only_the_forced_single() -> None:
    # 9 TT JJ QQQ at level A: three plays either as 9, TTJJQQ, Q or as 9, QQQTT, JJ; the
    # 9 is a single whatever the split (no straight reaches it), the second has no other.
    hand = Hand.parse("D9 DT DT SJ DJ HQ HQ CQ")
    count, plays = min_plays(hand, "A", prefer="singles")
    assert count == 3
    assert [m.cards for m in plays if m.kind is MoveType.SINGLE] == [Hand("D9")]
    check_decomposition(hand, 14, count, plays)


def test_known_hands() -> None:
    assert min_plays("", 2) == (0, [])
    # A straight flush, four jokers and a pair: three plays.
    count, plays = min_plays("S2 S3 S4 S5 S6 H7 H7 SB SB HR HR", 2)
    assert count == 3
    assert {m.kind for m in plays} == {MoveType.STRAIGHT_FLUSH, MoveType.FOUR_JOKERS, MoveType.PAIR}
    # Two wildcards complete a ten-card bomb of eights at level 2.
    count, plays = min_plays(["S8", "H8", "C8", "D8"] * 2 + ["H2", "H2"], 2)
    assert (count, plays[0].kind, len(plays[0].cards)) == (1, MoveType.BOMB, 10)


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="prefer"):
        min_plays("S2", 2, prefer="most")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="prefer"):
        min_plays("S2", 2, prefer=["bombs"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="level"):
        min_plays("S2", 15)
    with pytest.raises(ValueError, match="unknown card"):
        min_plays("S2 X9", 2)
    with pytest.raises(TypeError):
        min_plays(42, 2)
    big = Hand.from_indices([c for c in range(NUM_CARDS)][: MAX_CARDS + 1])
    with pytest.raises(ValueError, match="at most"):
        min_plays(big, 2)


def natural_counts(once: int, twice: int, level: int) -> list[int]:
    """Cards of each rank 2..A, the wildcards apart (the ranks a whole-bombs decomposition locks)."""
    wild = wildcard(level)
    return [
        sum(((plane >> card) & 1) for plane in (once, twice) for card in range(4 * rank, 4 * rank + 4) if card != wild)
        for rank in range(13)
    ]


def brute_force_whole(hand: Hand, level: int, prefer: str) -> tuple[int, int, int]:
    """As :func:`brute_force_tie_break`, over the partitions in which every rank of four or
    more natural cards (in what is left) is played as one move holding all of them."""
    cheapest: dict[tuple[int, int], tuple[int, int, int]] = {}
    for move in legal_moves(hand, level):
        cost = tie_break_cost(prefer, move.kind, move) if prefer != "none" else (1, 0, 0)
        key = (move.cards.once, move.cards.twice)
        cheapest[key] = min(cheapest.get(key, cost), cost)
    taken = {key: natural_counts(*key, level) for key in cheapest}

    @cache
    def best(once: int, twice: int) -> tuple[int, int, int]:
        if not once:
            return (0, 0, 0)
        held = natural_counts(once, twice, level)
        low = once & -once
        result = (10**9, 0, 0)
        for (mo, mt), cost in cheapest.items():
            if not (mo & low) or mo & ~once or mt & ~twice:
                continue
            if any(count >= 4 and taken[(mo, mt)][rank] not in (0, count) for rank, count in enumerate(held)):
                continue  # breaks a rank kept whole
            rest = best((once & ~mo) | (twice & ~mt), twice & ~mo)
            result = min(result, (cost[0] + rest[0], cost[1] + rest[1], cost[2] + rest[2]))
        return result

    return best(hand.once, hand.twice)


@pytest.mark.parametrize("prefer", ["none", "high"])
def test_whole_bombs_equal_brute_force_on_small_hands(prefer: str) -> None:
    # the tactics' decompositions: a rank of four natural cards or more is one bomb
    rng = random.Random(f"whole {prefer}")
    locked = 0
    for _ in range(300):
        level = rng.randint(2, 14)
        hand = small_hand(rng, level)
        if rng.random() < 0.6:  # four to six copies of one rank, often beside the others
            rank = rng.randrange(13)
            copies = [4 * rank + suit for suit in range(4) for _ in range(2) if 4 * rank + suit != wildcard(level)]
            extra = Hand.from_indices(rng.sample(copies, min(len(copies), rng.randint(4, 6))))
            hand = Hand.from_indices(list(extra.indices()) + [c for c in hand.indices() if not extra.count(c)][:8])
        locked += any(count >= 4 for count in natural_counts(hand.once, hand.twice, level))
        count, plays = min_plays(hand, level, prefer=prefer, whole=True)  # type: ignore[arg-type]
        check_decomposition(hand, level, count, plays)
        expected = brute_force_whole(hand, level, prefer)
        if prefer == "none":
            assert count == expected[0] >= min_plays(hand, level)[0], (str(hand), level)
        else:
            kinds = [MoveType.STRAIGHT if m.kind is MoveType.STRAIGHT_FLUSH else m.kind for m in plays]
            costs = (tie_break_cost(prefer, kind, m) for kind, m in zip(kinds, plays))
            assert tuple(map(sum, zip((0, 0, 0), *costs))) == expected, (str(hand), level)
            assert decomposition_cost(hand, level, prefer=prefer, whole=True) == expected  # type: ignore[arg-type]
        held = natural_counts(hand.once, hand.twice, level)
        for rank, copies_held in enumerate(held):  # each such rank in one play
            if copies_held >= 4:
                assert sum(natural_counts(m.cards.once, m.cards.twice, level)[rank] > 0 for m in plays) == 1
    assert locked > 100
