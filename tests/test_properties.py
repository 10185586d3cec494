"""Properties every move list must have, on hypothesis-generated hands, for both backends."""

from __future__ import annotations

from collections import defaultdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guandan_fast import Hand, Move, classify, legal_moves
from guandan_fast.engine.cards import wildcard

SETTINGS = settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@st.composite
def hands(draw: st.DrawFn, max_size: int = 27) -> tuple[Hand, int]:
    """A random sub-multiset of the double deck and a level, often holding wildcards."""
    level = draw(st.integers(2, 14))
    positions = draw(st.lists(st.integers(0, 107), unique=True, max_size=max_size))
    hand = Hand.from_indices(p % 54 for p in positions)
    for _ in range(draw(st.integers(0, 2))):
        if hand.count(wildcard(level)) < 2:
            hand = hand.add(Hand.from_indices([wildcard(level)]))
    return hand, level


@SETTINGS
@given(hands())
def test_moves_are_distinct_and_drawn_from_the_hand(backend: str, hand_level: tuple[Hand, int]) -> None:
    hand, level = hand_level
    moves = list(legal_moves(hand, level, backend=backend))
    assert len(set(moves)) == len(moves)
    assert all(move.cards in hand and move.level == level for move in moves)
    assert sum(1 for m in moves if len(m.cards) == 1) == len(set(hand.indices()))


@SETTINGS
@given(hands())
def test_strongest_keeps_the_best_reading_of_each_card_set(backend: str, hand_level: tuple[Hand, int]) -> None:
    hand, level = hand_level
    complete = list(legal_moves(hand, level, backend=backend))
    strongest = list(legal_moves(hand, level, strongest=True, backend=backend))
    best: dict[tuple[int, Hand], int] = defaultdict(int)
    for move in complete:
        best[(move.kind, move.cards)] = max(best[(move.kind, move.cards)], move.key)
    assert set(strongest) <= set(complete)
    assert sorted((m.kind, m.cards.packed, m.key) for m in strongest) == sorted(
        (kind, cards.packed, key) for (kind, cards), key in best.items()
    )


@SETTINGS
@given(hands(), hands(max_size=12), st.data())
def test_following_equals_leading_moves_that_beat(
    backend: str, hand_level: tuple[Hand, int], other: tuple[Hand, int], data: st.DataObject
) -> None:
    hand, level = hand_level
    table = list(legal_moves(other[0], level, backend=backend))
    if not table:
        return
    last = data.draw(st.sampled_from(table))
    leading = legal_moves(hand, level, backend=backend)
    following = legal_moves(hand, level, last, backend=backend)
    assert set(following) == {move for move in leading if move.beats(last)}
    assert set(legal_moves(hand, level, last.to_platform(), strongest=True, backend=backend)) == {
        move for move in legal_moves(hand, level, strongest=True, backend=backend) if move.beats(last)
    }


@SETTINGS
@given(hands(max_size=16), st.data())
def test_every_move_classifies_and_round_trips(backend: str, hand_level: tuple[Hand, int], data: st.DataObject) -> None:
    hand, level = hand_level
    moves = list(legal_moves(hand, level, backend=backend))
    if not moves:
        return
    for move in data.draw(st.lists(st.sampled_from(moves), max_size=8)):
        assert move in classify(move.cards, level, backend=backend)
        assert Move.from_platform(move.to_platform(), level) == move


@given(hands(), hands())
def test_common_cards_are_the_multiset_intersection(first: tuple[Hand, int], second: tuple[Hand, int]) -> None:
    a, b = first[0], second[0]
    both = a.common(b)
    assert both == b.common(a) and a.contains(both) and b.contains(both)
    assert all(both.count(card) == min(a.count(card), b.count(card)) for card in range(54))
    assert a.remove(both).common(b.remove(both)) == Hand()  # nothing left in common
