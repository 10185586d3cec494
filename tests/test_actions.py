"""The fixed action space (guandan_fast.encode.actions): layout, masks, canonical moves,
bad input.

The layout is checked against the table of the module's documentation, written out here
independently; the canonical choice against a plain-Python transcription of its three
rules; masks and concretize against every state of 1,000 random deals (tribute and
return included, through random matches).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from guandan_fast import PASS, Deal, Hand, Match, Move, MoveType
from guandan_fast.encode import _actions as native
from guandan_fast.encode import actions
from guandan_fast.engine.cards import CARD_NAMES, card_power, parse_card, wildcard

# (kind, first id, lowest key, keys in the block), as the documentation's table lists them
DOC_BLOCKS = {
    MoveType.SINGLE: (1, 2, 16),
    MoveType.PAIR: (17, 2, 16),
    MoveType.TRIPS: (33, 2, 14),
    MoveType.THREE_WITH_TWO: (47, 2, 14),
    MoveType.STRAIGHT: (61, 1, 10),
    MoveType.THREE_PAIR: (71, 1, 12),
    MoveType.TWO_TRIPS: (83, 1, 13),
    MoveType.STRAIGHT_FLUSH: (96, 1, 10),
}


def documented_id(kind: int, key: int, size: int) -> int:
    if kind == MoveType.PASS:
        return 0
    if kind == MoveType.FOUR_JOKERS:
        return 204
    if kind == MoveType.BOMB:
        return 106 + 14 * (size - 4) + key - 2
    first, low, count = DOC_BLOCKS[MoveType(kind)]
    assert low <= key < low + count
    return first + key - low


def test_layout_sizes_and_names() -> None:
    assert (actions.NUM_MOVE_ACTIONS, actions.TRIBUTE_BASE, actions.RETURN_BASE, actions.NUM_ACTIONS) == (
        205,
        205,
        259,
        313,
    )
    names = [actions.describe(i) for i in range(actions.NUM_ACTIONS)]
    assert len(set(names)) == actions.NUM_ACTIONS
    assert names[0] == "PASS" and names[204] == "FourJokers"
    assert names[1] == "Single 2" and names[14] == "Single level" and names[16] == "Single R"
    assert names[106] == "Bomb of 4 2" and names[203] == "Bomb of 10 level"
    assert names[205] == "tribute S2" and names[312] == "back HR"
    assert names[61] == "Straight A" and names[105] == "StraightFlush T"


def test_action_id_of_moves_and_triples() -> None:
    level = 5
    bomb = Move(MoveType.BOMB, 9, "S9 H9 C9 D9 S9 H5", level)  # H5 is the wildcard at level 5
    assert actions.action_id(bomb) == documented_id(MoveType.BOMB, 9, 6) == 106 + 14 * 2 + 7
    assert actions.action_id(bomb, level) == actions.action_id(bomb.to_platform(), level)
    assert actions.action_id(PASS) == 0 and actions.action_id(["PASS", "PASS", "PASS"], 2) == 0
    assert actions.action_id(["tribute", "tribute", ["HR"]]) == actions.TRIBUTE_BASE + 53
    assert actions.action_id(["back", "back", ["S3"]]) == actions.RETURN_BASE + parse_card("S3")
    level_pair = Move.from_platform(["Pair", "5", ["S5", "C5"]], level)
    assert actions.action_id(level_pair) == documented_id(MoveType.PAIR, 15, 2)


def test_masks_and_concretize_over_1000_deals() -> None:
    """Every masked-in id has a canonical action of that id; a random masked-in id,
    concretized, is always accepted by the deal (1,000 deals with tribute and return)."""
    rng = random.Random(7)
    deals = states = 0
    phases = set()
    while deals < 1000:
        match = Match(rng.getrandbits(32))
        while not match.over and deals < 1000:
            deal = match.deal
            phases.add(deal.phase)
            row_ids, mask = actions.ids_and_mask(deal)
            play = deal.phase == "play"
            assert len(row_ids) == (len(deal.legal_moves()) + deal.following if play else len(deal.legal_actions()))
            legal_ids = np.flatnonzero(mask)
            assert np.array_equal(legal_ids, np.unique(row_ids))
            rows = actions.canonical_indices(deal)
            assert np.array_equal(rows >= 0, mask)
            assert np.array_equal(row_ids[rows[legal_ids]], legal_ids)
            target = int(legal_ids[rng.randrange(len(legal_ids))])
            action = actions.concretize(deal, target)
            assert actions.action_index(deal, target) == rows[target]
            if isinstance(action, Move):
                assert action is PASS or action in deal.legal_moves()
                assert actions.action_id(action, deal.level) == target
            else:
                assert action in deal.legal_actions() and actions.action_id(action) == target
            before = len(match.records)
            match.step(action)
            states += 1
            deals += len(match.records) - before
    assert phases == {"tribute", "return", "play"}
    assert states > 100_000


def test_one_id_and_every_id_agree() -> None:
    """action_index (one id, its own kernel) and canonical_indices (every id in one pass)."""
    for seed in range(30):
        deal = Deal.random(500 + seed, level=2 + seed % 13)
        rng = random.Random(seed)
        while not deal.done:
            rows = actions.canonical_indices(deal)
            row_ids = actions.ids(deal)
            for target in np.flatnonzero(rows >= 0).tolist():
                assert actions.action_index(deal, target, row_ids=row_ids) == rows[target]
            deal.step(rng.randrange(len(row_ids)))


def test_ids_follow_the_documented_table() -> None:
    for seed in range(60):
        deal = Deal.random(seed, level=2 + seed % 13)
        while not deal.done:
            moves = deal.legal_moves()
            sizes = [once.bit_count() + twice.bit_count() for once, twice in moves.cards.tolist()]
            expected = [documented_id(k, y, z) for k, y, z in zip(moves.kinds.tolist(), moves.keys.tolist(), sizes)]
            row_ids = actions.ids(deal)
            assert row_ids.dtype == np.int16
            assert row_ids.tolist() == [0] * deal.following + expected
            deal.step(random.Random(seed).randrange(len(row_ids)) if len(row_ids) < 3 else len(row_ids) // 2)


def canonical_key(move: Move, hand: Hand, level: int) -> tuple:
    """The documented order, transcribed: wildcards, cards from bomb groups, lowest cards."""
    counts = {}
    for card in hand:
        index = parse_card(card)
        group = "jokers" if index >= 52 else index >> 2
        counts[group] = counts.get(group, 0) + 1
    bomb_groups = {g for g, n in counts.items() if n >= 4}
    cards = [parse_card(c) for c in move.cards]
    wilds = sum(c == wildcard(level) for c in cards)
    broken = sum(("jokers" if c >= 52 else c >> 2) in bomb_groups for c in cards)
    return wilds, broken, sorted((card_power(c, level), c & 3 if c < 52 else 0) for c in cards)


def test_canonical_choice_is_the_documented_minimum() -> None:
    contested = 0
    for seed in range(40):
        level = 2 + seed % 13
        deal = Deal.random(1000 + seed, level=level)
        rng = random.Random(seed)
        while not deal.done:
            row_ids = actions.ids(deal)
            moves = list(deal.legal_moves())
            hand = deal.hands[deal.to_act]
            move_ids = row_ids[deal.following :].tolist()
            by_id: dict[int, list[Move]] = {}
            for move, move_id in zip(moves, move_ids):
                by_id.setdefault(move_id, []).append(move)
            for move_id, candidates in by_id.items():
                if len(candidates) > 1:
                    contested += 1
                    best = min(candidates, key=lambda m: canonical_key(m, hand, level))
                    assert actions.concretize(deal, move_id) == best
            deal.step(rng.randrange(len(row_ids)))
    assert contested > 1000


@pytest.mark.parametrize(
    ("hand", "level", "target", "expected"),
    [
        # fewest wildcards: the natural pair, not the wildcard H2
        ("S5 C5 H2 S9", 2, ("Pair", "5"), "S5 C5"),
        # at level 2 the 2s rank above the aces: the pair of nines is lower
        ("S7 H7 C7 S2 C2 S9 H9", 2, ("ThreeWithTwo", "7"), "S7 H7 C7 S9 H9"),
        # not breaking the bomb of threes, although 33 is the lowest pair
        ("S7 H7 C7 S3 H3 C3 D3 S9 H9", 4, ("ThreeWithTwo", "7"), "S7 H7 C7 S9 H9"),
        # lowest suit: spade before diamond
        ("D6 S6 HK", 4, ("Single", "6"), "S6"),
    ],
)
def test_canonical_examples(hand: str, level: int, target: tuple[str, str], expected: str) -> None:
    deal = Deal.start([hand, "SA", "SA", "HA"], level, leader=0)
    moves = [m for m in deal.legal_moves() if (m.kind.platform_name, m.rank) == target]
    chosen = actions.concretize(deal, actions.action_id(moves[0]))
    assert isinstance(chosen, Move) and chosen.cards == Hand(expected)


# -- bad input ------------------------------------------------------------------------------
def snapshot(deal: Deal) -> tuple:
    return (deal.history, deal.hands, deal.to_act, deal.phase)


@pytest.mark.parametrize("bad", [-1, actions.NUM_ACTIONS, 10**6])
def test_ids_outside_the_space(bad: int) -> None:
    deal = Deal.random(1)
    before = snapshot(deal)
    for call in (actions.concretize, actions.action_index):
        with pytest.raises(ValueError, match="outside the action space"):
            call(deal, bad)
    with pytest.raises(ValueError, match="outside the action space"):
        actions.describe(bad)
    assert snapshot(deal) == before


@pytest.mark.parametrize("bad", [True, 1.0, "3", None])
def test_ids_of_the_wrong_type(bad: object) -> None:
    with pytest.raises(TypeError, match="action id"):
        actions.concretize(Deal.random(1), bad)  # type: ignore[arg-type]


def test_masked_out_ids_are_refused_and_change_nothing() -> None:
    deal = Deal.random(3)
    mask = actions.mask(deal)
    before = snapshot(deal)
    for target in np.flatnonzero(~mask).tolist():
        with pytest.raises(ValueError, match="not legal for seat"):
            actions.concretize(deal, target)
    assert not mask[0] and not mask[actions.TRIBUTE_BASE :].any()  # a leader may not pass
    assert snapshot(deal) == before
    deal.step(0)
    with pytest.raises(ValueError, match="not legal"):
        actions.concretize(deal, actions.TRIBUTE_BASE)


def test_finished_deal_and_wrong_objects() -> None:
    deal = Deal.start(["S3", "S4", "", "S5"], 2, leader=0, finished=[2])
    deal.step(["Single", "3", ["S3"]])
    assert deal.done
    assert not actions.mask(deal).any() and len(actions.ids(deal)) == 0
    with pytest.raises(ValueError, match="deal is over"):
        actions.concretize(deal, 0)
    with pytest.raises(TypeError, match="Deal"):
        actions.mask("not a deal")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Deal"):
        actions.ids(None)  # type: ignore[arg-type]


def test_action_id_bad_input() -> None:
    move = Move.from_platform(["Single", "9", ["S9"]], 3)
    with pytest.raises(ValueError, match="made at level 3"):
        actions.action_id(move, 4)
    with pytest.raises(ValueError, match="at a level"):
        actions.action_id(["Single", "9", ["S9"]])
    with pytest.raises(ValueError, match="do not read"):
        actions.action_id(["Pair", "9", ["S9", "H8"]], 3)
    with pytest.raises(ValueError, match="tribute"):
        actions.action_id(["tribute", "tribute", ["S9", "H9"]])
    with pytest.raises(TypeError, match="Move or a platform triple"):
        actions.action_id(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown card"):
        actions.action_id(["back", "back", ["X1"]])


def test_row_ids_of_another_state_are_refused() -> None:
    deal = Deal.random(5)
    stale = actions.ids(deal)
    deal.step(0)
    with pytest.raises(ValueError, match="row_ids has"):
        actions.action_index(deal, 1, row_ids=stale[:1])


def test_kernel_checks_its_arrays() -> None:
    moves = Deal.random(2).legal_moves()
    kinds, keys, cards = moves.kinds, moves.keys, moves.cards
    with pytest.raises(TypeError, match="kinds must be a numpy array"):
        native.move_ids(list(kinds), keys, cards, False, 0)
    with pytest.raises(TypeError, match="keys must be"):
        native.move_ids(kinds, keys.astype(np.int64), cards, False, 0)
    with pytest.raises(ValueError, match="expected"):
        native.move_ids(kinds, keys[:-1], cards, False, 0)
    with pytest.raises(ValueError, match="C-contiguous"):
        native.move_ids(kinds[::2], keys[::2], cards[::2], False, 0)
    bad_kinds = kinds.copy()
    bad_kinds[0] = 200
    with pytest.raises(ValueError, match="no id"):
        native.move_ids(bad_kinds, keys, cards, False, 0)
    small_mask_ids = native.move_ids(kinds, keys, cards, False, 0)[0]
    with pytest.raises(ValueError, match="no id"):
        native.move_ids(kinds, keys, cards, False, 5)  # a mask too small for the ids
    with pytest.raises(ValueError, match="level"):
        native.canonical_row(small_mask_ids, cards, 1, 0, 0, 1)
    with pytest.raises(ValueError, match="hand planes"):
        native.canonical_row(small_mask_ids, cards, 1, 1 << 60, 0, 2)
    with pytest.raises(ValueError, match="expected"):
        native.canonical_row(small_mask_ids[:-1], cards, 1, 0, 0, 2)


def test_card_ids_name_their_card() -> None:
    for index, name in enumerate(CARD_NAMES):
        assert actions.action_id(["tribute", "tribute", [name]]) == actions.TRIBUTE_BASE + index
        assert actions.describe(actions.RETURN_BASE + index) == f"back {name}"


@pytest.mark.parametrize("phase", ["tribute", "return"])
def test_row_ids_of_the_wrong_length_are_refused_in_every_phase(phase: str) -> None:
    """``row_ids`` was checked in the play phase only: in the tribute and return phases a
    longer array gave an index beyond the legal actions (6 for one legal action)."""
    deal = Deal.random(3, previous_finish=[0, 1, 2, 3])
    if phase == "return":
        deal.step(0)
    assert deal.phase == phase
    row_ids = actions.ids(deal)
    target = int(row_ids[0])
    padded = np.concatenate([np.full(6, -1, dtype=np.int16), row_ids])
    with pytest.raises(ValueError, match="row_ids has"):
        actions.action_index(deal, target, row_ids=padded)
    with pytest.raises(ValueError, match="row_ids has"):
        actions.action_index(deal, target, row_ids=row_ids[:0])
    with pytest.raises(TypeError, match="int16"):
        actions.action_index(deal, target, row_ids=list(row_ids))  # type: ignore[arg-type]
    assert actions.action_index(deal, target, row_ids=row_ids) == 0


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        (lambda t: ([], *t[1:]), ValueError, "first_id must have 11 entries"),
        (lambda t: (t[0][:5], *t[1:]), ValueError, "first_id must have 11 entries"),
        (lambda t: ([row[:3] for row in t[0]], *t[1:]), ValueError, "first_id row must have"),
        (lambda t: (t[0], [1, 2, 3], *t[2:]), ValueError, "size_min must have 11"),
        (lambda t: (*t[:2], t[2][:10], t[3]), ValueError, "size_max must have 11"),
        (lambda t: (*t[:3], t[3] + [1]), ValueError, "size_stride must have 11"),
        (lambda t: (*t[:3], [40000] * 11), ValueError, "outside"),
        (lambda t: (t[0], [9] * 11, [5] * 11, t[3]), ValueError, "above size_max"),
        (lambda t: ("x", *t[1:]), TypeError, "sequence"),
        (lambda t: (t[0], None, *t[2:]), TypeError, "sequence"),
        (lambda t: (t[0], ["1"] * 11, *t[2:]), TypeError, "integer"),
    ],
)
def test_set_layout_checks_everything_before_writing(change: Any, error: type[Exception], message: str) -> None:
    """The native layout tables are process-wide: bad tables (once a segfault when the size
    lists were not 11 long) are refused whole, and the installed layout keeps working."""
    tables = (actions._FIRST_ID, actions._SIZE_MIN, actions._SIZE_MAX, actions._STRIDE)
    deal = Deal.random(4)
    before = actions.ids(deal)
    with pytest.raises(error, match=message):
        native.set_layout(*change([list(t) for t in tables]))
    assert np.array_equal(actions.ids(deal), before)


def test_canonical_indices_name_their_int16_limit() -> None:
    from guandan_fast.encode.actions import INT16_ROWS, action_index, canonical_indices, ids

    many = Hand.from_counts([2] * 26 + [0] * 28)  # 52 cards, 36,917 moves: past what int16 rows index
    deal = Deal.start([many, Hand.from_counts([0] * 26 + [2] * 26 + [0, 0]), "SB", "HR"], 2, leader=0)
    assert len(deal.legal_actions()) > INT16_ROWS
    with pytest.raises(ValueError, match="at most 32,767 legal actions; this position has 36,917 .*action_index"):
        canonical_indices(deal)
    first = int(ids(deal)[0])
    assert 0 <= action_index(deal, first) < len(deal.legal_actions())  # the per-id path still answers
