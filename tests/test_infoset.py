"""World sampling: the exact distribution on small endgames, and consistency on many positions.

The exact tests enumerate every arrangement of the hidden *physical* cards (copies of a
card labelled apart) into the other seats' slots, keep those that agree with what the
seat knows — written here from the rules, not read from :func:`infoset.unseen` — and
compare the sampler's frequencies of each deal with a chi-square test at fixed seeds.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from guandan_fast import Deal, Hand
from guandan_fast.engine.cards import CARD_NAMES, parse_card
from guandan_fast.search import infoset

WORLDS = 30_000


def chi_square_limit(df: int) -> float:
    """The chi-square value exceeded with probability 0.001 (Wilson-Hilferty)."""
    z = 3.09
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def exact_distribution(
    deal: Deal, seat: int, must: list[tuple[str, int, set[int]]]
) -> dict[tuple[Hand, ...], float]:
    """Probability of each world (the four hands) when the hidden physical cards are
    arranged uniformly into the other seats' slots, given that each labelled copy of
    ``must`` — (card, copy, seats) — lies in one of its seats.

    Every split of the labelled cards into the seats' slot sets has the same number of
    arrangements, so the splits are counted."""
    others = [s for s in range(4) if s != seat]
    names = [name for s in others for name in deal.hands[s].to_platform()]
    hidden = [(name, names[:i].count(name)) for i, name in enumerate(names)]
    weights: Counter[tuple[Hand, ...]] = Counter()

    def split(left: list[tuple[str, int]], index: int, taken: list[list[tuple[str, int]]]) -> None:
        if index == len(others):
            place = {card: others[k] for k, cards in enumerate(taken) for card in cards}
            if all(place[(card, copy)] in seats for card, copy, seats in must):
                hands = [Hand() for _ in range(4)]
                hands[seat] = deal.hands[seat]
                for k, cards in enumerate(taken):
                    hands[others[k]] = Hand([card for card, _ in cards])
                weights[tuple(hands)] += 1
            return
        for chosen in combinations(left, len(deal.hands[others[index]])):
            rest = [card for card in left if card not in chosen]
            split(rest, index + 1, [*taken, list(chosen)])

    split(hidden, 0, [])
    total = sum(weights.values())
    return {world: count / total for world, count in weights.items()}


def assert_sampler_matches(deal: Deal, seat: int, expected: dict[tuple[Hand, ...], float], seed: int) -> None:
    planes = infoset.sample_hands(deal, seat, WORLDS, seed).tolist()
    seen = Counter(tuple(Hand.from_bits(o, t) for o, t in world) for world in planes)
    assert set(seen) <= set(expected), "a world outside the consistent ones"
    statistic = sum((seen[w] - WORLDS * p) ** 2 / (WORLDS * p) for w, p in expected.items())
    assert statistic < chi_square_limit(len(expected) - 1), (statistic, len(expected))


def test_endgame_distribution_with_repeated_cards() -> None:
    # Seat 0 sees its hand; seats 1-3 hide 7 cards, with two copies of S5 and of H9.
    hands = ["S2 S3", "S5 H9", "S5 C7", "H9 D8 SB"]
    deal = Deal.start(hands, 2, leader=0)
    deal.step(["Single", "2", ["S2"]])  # seat 0 plays a card: it is no longer hidden
    expected = exact_distribution(deal, 0, [])
    assert len(expected) > 50
    assert_sampler_matches(deal, 0, expected, seed=1)


def tribute_endgame() -> Deal:
    """Seat 3 pays its highest card (SA) to seat 0, who returns S4; play begins."""
    hands = ["S4 S6 SK", "S7 D7 SQ", "C6 SA S8", "SA S9 S3"]  # seat 2 hides the other SA
    deal = Deal.start(hands, 2, previous_finish=[0, 1, 2, 3])
    deal.step(["tribute", "tribute", ["SA"]])
    deal.step(["back", "back", ["S4"]])
    assert deal.phase == "play"
    return deal


def test_tribute_and_return_cards_are_known() -> None:
    deal = tribute_endgame()
    view = deal.unseen(1)
    assert view.known[0] == Hand("SA") and view.known[3] == Hand("S4")
    assert view.counts == (2, 0, 3, 2)  # cards of each hand the seat cannot name
    # Rules: the receiver (0) holds the tribute SA, the payer (3) the returned S4.
    expected = exact_distribution(deal, 1, [("SA", 0, {0}), ("S4", 0, {3})])
    assert_sampler_matches(deal, 1, expected, seed=2)
    # Once the receiver plays the card, nothing is known of it any more.
    deal.step(["Single", "9", ["S9"]])  # the payer leads after a single tribute
    deal.step(["Single", "A", ["SA"]])
    assert deal.unseen(1).known[0] == Hand()


def test_a_payer_holds_no_card_above_its_tribute() -> None:
    # Seat 3 pays its highest card, the 9: the red joker, the king and a level card it cannot hold.
    hands = ["S4 S6 D5", "S7 D7 SQ", "HR SK D2", "S9 S3 C3"]  # D2: a level card, not the wildcard
    deal = Deal.start(hands, 2, previous_finish=[0, 1, 2, 3])
    deal.step(["tribute", "tribute", ["S9"]])
    deal.step(["back", "back", ["S4"]])
    view = deal.unseen(1)
    assert view.barred == (Hand(), Hand(), Hand(), Hand("HR SK D2"))
    must = [("S9", 0, {0}), ("S4", 0, {3}), ("HR", 0, {0, 2}), ("SK", 0, {0, 2}), ("D2", 0, {0, 2})]
    expected = exact_distribution(deal, 1, must)
    assert_sampler_matches(deal, 1, expected, seed=4)
    assert deal.unseen(3).barred == (Hand(),) * 4  # the payer knows its own hand
    # The wildcard (the heart of the level rank) is no tribute and may stay with the payer.
    wild = Deal.start(["S4 S6 D5", "S7 D7 SQ", "HR SK S8", "S9 H2 C3"], 2, previous_finish=[0, 1, 2, 3])
    wild.step(["tribute", "tribute", ["S9"]])
    assert wild.unseen(1).barred[3] == Hand("HR SK")  # H2 is not barred: it is the wildcard


def test_two_payers_bar_nested_sets() -> None:
    # A double down at level 2: seat 1 pays its 9 (to seat 2), seat 3 its queen (to seat 0,
    # who sees). Seat 1 holds nothing above 9 (the king, both jacks, the 10), seat 3 nothing
    # above the queen (the king): two nested sets, with both copies of a card.
    deal = Deal.start(["S6 D5 C7", "S9 S3 C3", "SK SJ SJ", "SQ ST D4"], 2, previous_finish=[0, 2, 1, 3])
    deal.step(["tribute", "tribute", ["S9"]])
    deal.step(["tribute", "tribute", ["SQ"]])
    deal.step(["back", "back", ["D5"]])  # seat 0 to seat 3
    deal.step(["back", "back", ["S9"]])  # seat 2 gives the 9 back to seat 1
    assert deal.phase == "play"
    view = deal.unseen(0)
    assert view.barred == (Hand(), Hand("SK SJ SJ ST"), Hand(), Hand("SK"))
    must = [("S9", 0, {1}), ("D5", 0, {3}), ("SK", 0, {2}), ("SJ", 0, {2, 3}), ("SJ", 1, {2, 3}), ("ST", 0, {2, 3})]
    expected = exact_distribution(deal, 0, must)
    assert len(expected) > 5
    assert_sampler_matches(deal, 0, expected, seed=5)
    # Seen by a payer: only the other payer is barred.
    assert deal.unseen(1).barred == (Hand(), Hand(), Hand(), Hand("SK"))


def test_a_payer_who_paid_a_big_joker_holds_no_other() -> None:
    # Two big jokers among the payers would have been an anti-tribute: once one is paid,
    # the other is in no payer's hand, though nothing is above it.
    deal = Deal.start(["S6 D5 C7", "HR S3 C3", "HR SJ D8", "SQ ST D4"], 2, previous_finish=[0, 1, 2, 3])
    deal.step(["tribute", "tribute", ["SQ"]])  # seat 3 pays its queen: by power it holds no joker
    assert deal.unseen(1).barred[3] == Hand("HR")
    single = Deal.start(["S6 D5 C7", "S7 S3 C3", "HR SJ D8", "HR ST D4"], 2, previous_finish=[0, 1, 2, 3])
    single.step(["tribute", "tribute", ["HR"]])
    assert single.unseen(1).barred[3] == Hand("HR")  # the other big joker is seat 2's, never seat 3's
    double = Deal.start(["S6 D5 C7", "HR S3 C3", "SB SJ D8", "HR ST D4"], 2, previous_finish=[0, 2, 1, 3])
    assert double.tribute["kind"] == "anti"  # both big jokers with the payers: no tribute, nothing barred
    assert double.unseen(0).barred == (Hand(),) * 4


def test_barred_cards_in_real_tribute_deals() -> None:
    # Deals after a tribute, played on by the MinPlays rules: the true payers never hold a
    # barred card (the rule read right), and no sampled world gives them one.
    from guandan_fast.agents import MinPlaysAgent

    rules, barred_seen = MinPlaysAgent(), 0
    for seed in range(30):
        first = seed % 4  # a single tribute, or a double down (the partners first and second) every third deal
        finish = [first, first ^ 2, first ^ 1, first ^ 3] if seed % 3 == 0 else [first, first ^ 1, first ^ 2, first ^ 3]
        deal = Deal.random(seed, level=2 + seed % 13, previous_finish=finish)
        while deal.phase in ("tribute", "return") or (not deal.done and len(deal.history) < 2 + seed % 40):
            deal.step(rules.act(deal, deal.current_seat))
        for seat in range(4):
            view = deal.unseen(seat)
            worlds = infoset.sample_hands(deal, seat, 64, seed)
            for payer in range(4):
                mask = view.barred[payer]
                barred_seen += len(mask) > 0
                assert not (deal.hands[payer].once & mask.once)
                assert not np.any(worlds[:, payer, 0] & np.uint64(mask.once))
    assert barred_seen > 20


def test_a_tribute_chosen_but_not_handed_over_bars_too() -> None:
    # A double down: seats 1 and 3 pay; seat 1 has chosen its ace, seat 3 not yet.
    hands = ["S2 S3", "SA C4", "S5 S6", "HR D9"]
    deal = Deal.start(hands, 2, previous_finish=[0, 2])
    assert deal.phase == "tribute" and deal.current_seat == 1
    deal.step(["tribute", "tribute", ["SA"]])
    assert deal.phase == "tribute"
    view = deal.unseen(0)
    assert view.barred[1] == Hand("HR") and view.barred[3] == Hand()


def test_anti_tribute_jokers_pooled_between_two_payers() -> None:
    # A double down: seats 1 and 3 pay, but they hold both big jokers between them (抗贡).
    hands = ["S2 S3", "HR C4", "S5 S6", "HR D9"]
    deal = Deal.start(hands, 2, previous_finish=[0, 2])
    assert deal.tribute["kind"] == "anti"
    view = deal.unseen(0)
    assert view.pooled == Hand("HR HR") and view.pooled_seats == (1, 3)
    expected = exact_distribution(deal, 0, [("HR", 0, {1, 3}), ("HR", 1, {1, 3})])
    both = exact_distribution(Deal.start(hands, 2, leader=0), 0, [])
    assert len(expected) < len(both)
    assert_sampler_matches(deal, 0, expected, seed=3)
    # Seen by a payer: its partner-payer surely holds the other joker.
    assert deal.unseen(1).known[3] == Hand("HR")


def random_position(rng: random.Random) -> Deal:
    previous = rng.choice([None, [0, 1, 2, 3], [1, 3], [2, 0, 3, 1]])
    deal = Deal.random(rng.randrange(1 << 30), rng.randint(2, 14), previous_finish=previous)
    for _ in range(rng.randrange(90)):
        if deal.done:
            break
        actions = deal.legal_actions()
        deal.step(rng.randrange(len(actions)))
    return deal


def test_worlds_are_consistent_on_many_positions() -> None:
    rng = random.Random(99)
    for _ in range(1000):
        deal = random_position(rng)
        seat = rng.randrange(4)
        view = deal.unseen(seat)
        # What the seat "knows" is true, and the counts add up.
        for s in range(4):
            assert deal.hands[s].contains(view.known[s])
        assert sum(view.counts) == len(view.cards) + len(view.pooled)
        world = deal.sample_world(seat, rng.randrange(1 << 64))
        assert world.hands[seat] == deal.hands[seat]
        assert world.cards_left() == deal.cards_left()
        assert np.array_equal(world.played, deal.played)
        assert (world.phase, world.to_act, world.last_move, world.history) == (
            deal.phase, deal.to_act, deal.last_move, deal.history
        )
        table = Hand()
        for s in range(4):
            assert world.hands[s].contains(view.known[s])
            table = table.add(world.hands[s])
        assert table == sum((deal.hands[s] for s in range(1, 4)), deal.hands[0])
        if view.pooled:
            held = sum(world.hands[s].count("HR") for s in view.pooled_seats)
            assert held >= len(view.pooled) + sum(view.known[s].count("HR") for s in view.pooled_seats)
        if not world.done:
            assert world.legal_actions()


def test_batches_are_single_worlds_with_consecutive_seeds() -> None:
    deal = random_position(random.Random(5))
    worlds = deal.sample_worlds(2, 4, seed=10)
    for i, world in enumerate(worlds):
        assert world.hands == deal.sample_world(2, 10 + i).hands
    assert infoset.sample_hands(deal, 2, 0).shape == (0, 4, 2)


def test_a_seat_that_is_out_may_sample() -> None:
    deal = Deal.start(["", "S2 S3", "S4", "S5 S6"], 2, leader=1)
    world = deal.sample_world(0, 1)
    assert world.hands[0] == Hand() and world.cards_left() == deal.cards_left()


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda d: d.unseen(4), ValueError),
        (lambda d: d.unseen(-1), ValueError),
        (lambda d: d.unseen("1"), TypeError),
        (lambda d: d.sample_world(0, -1), ValueError),
        (lambda d: d.sample_world(0, 1 << 64), ValueError),
        (lambda d: d.sample_world(0, 1.5), TypeError),
        (lambda d: d.sample_worlds(0, -2, 1), ValueError),
        (lambda d: d.sample_worlds(True, 2, 1), TypeError),
    ],
)
def test_bad_input(call: object, error: type[Exception]) -> None:
    deal = Deal.random(1)
    with pytest.raises(error):
        call(deal)  # type: ignore[operator]


def test_unseen_cards_are_the_complement_of_what_the_seat_sees() -> None:
    deal = random_position(random.Random(8))
    view = deal.unseen(1)
    everything = view.cards.add(deal.hands[1]).add(view.pooled)
    for s in (0, 2, 3):
        everything = everything.add(view.known[s])
    for once, twice in deal.played.tolist():
        everything = everything.add(Hand.from_bits(once, twice))
    assert len(everything) == 108 and all(everything.count(name) == 2 for name in CARD_NAMES)
    assert parse_card("HR") == 53


def test_native_sampler_refuses_slot_counts_that_would_overflow() -> None:
    """Slot counts summing past a C int used to wrap to a matching total and read past the
    card buffer (a crash); any count above 108 is a ValueError now."""
    native = pytest.importorskip("guandan_fast.search._infoset")
    huge = (1 << 31) - 1
    with pytest.raises(ValueError, match="a seat's free slots must be 0..108"):
        native.sample_hands([(0, 0)] * 4, 0, 0, [huge, huge, 2, 0], 0, 0, 0, 1, 0)
    with pytest.raises(ValueError, match="a seat's free slots must be 0..108"):
        native.sample_hands([(0, 0)] * 4, 0, 0, [-1, 0, 0, 0], 0, 0, 0, 1, 0)


@pytest.mark.parametrize(
    ("barred", "free", "words"),
    [
        ((0, 0b01, 0b10, 0), (0, 1, 1, 0), "nested"),  # seat 1 barred from card 0, seat 2 from card 1
        ((0, 0b11, 0, 0), (0, 1, 1, 0), "fit only the 1 free slots"),  # two cards for seat 2's one slot
        ((0, 0b11, 0b11, 0), (0, 1, 1, 0), "barred from every seat"),
        ((0, 0, 0, 1 << 60), (0, 1, 1, 0), "bad barred card masks"),
        ((0, -1, 0, 0), (0, 1, 1, 0), "bad barred card masks"),
        ((0, 1.0, 0, 0), (0, 1, 1, 0), "bad barred card masks"),
        ((0, 1 << 64, 0, 0), (0, 1, 1, 0), "bad barred card masks"),
        ((0, 0), (0, 1, 1, 0), "one card mask per seat"),
    ],
)
def test_native_sampler_refuses_barred_sets_that_do_not_fit(barred: tuple[int, ...], free: tuple[int, ...], words: str) -> None:
    native = pytest.importorskip("guandan_fast.search._infoset")
    with pytest.raises(ValueError, match=words):
        native.sample_hands([(0, 0)] * 4, 0b11, 0, list(free), 0, 0, 0, 1, 0, barred)


def test_barred_and_pooled_cards_are_not_drawn_together() -> None:
    native = pytest.importorskip("guandan_fast.search._infoset")
    with pytest.raises(ValueError, match="barred cards and pooled cards"):
        native.sample_hands([(0, 0)] * 4, 0b11, 0, [0, 2, 1, 1], 53, 2, 0b1010, 1, 0, (0, 0b1, 0, 0))


@pytest.mark.parametrize("n", [2**31, 2**40, 2**70])
def test_an_absurd_number_of_worlds_is_refused_by_name(n: int) -> None:
    """Not a MemoryError (2**40 worlds: 64 TiB) or an OverflowError (2**70) from below."""
    from guandan_fast.search.infoset import sample_hands

    deal = Deal.random(seed=3)
    with pytest.raises(ValueError, match="the number of worlds"):
        sample_hands(deal, 0, n)
    with pytest.raises(ValueError, match="the number of worlds"):
        deal.sample_worlds(0, n)


def test_a_payer_still_to_choose_is_never_dealt_wildcards_alone() -> None:
    # seat 1 pays and holds one card: a world giving it the wildcard H2 alone is impossible
    # (with_hands refused it: 54 of 800 draws failed before)
    deal = Deal.start(["S3 S4 S5 H2", "D9", "C6 C7", "D8 D8"], 2, previous_finish=[0, 2, 1, 3])
    assert deal.phase == "tribute"
    for seat in range(4):
        for seed in range(100):
            deal.sample_world(seat, seed)  # with_hands checks the tribute rule
    worlds = deal.sample_worlds(2, 3000, 5)
    singles = Counter(str(world.hands[1]) for world in worlds)
    assert set(singles) == {"S3", "S4", "S5", "D9", "D8"}  # every other card; D8 held twice
    assert singles["D8"] > max(singles[card] for card in ("S3", "S4", "S5", "D9"))
    again = deal.sample_worlds(2, 3000, 5)
    assert [world.hands for world in again] == [world.hands for world in worlds]


def test_the_payers_are_never_dealt_both_big_jokers_before_they_pay() -> None:
    # two big jokers among the payers would have been an anti-tribute, not a tribute
    deal = Deal.start(["S3 S4 S5", "D9 C9", "HR HR", "D8 D7"], 2, previous_finish=[0, 2, 1, 3])
    assert deal.phase == "tribute" and deal.tribute["kind"] == "double"
    planes = infoset.sample_hands(deal, 0, 400, 1)
    big = 1 << 53
    jokers = [sum(bool(int(planes[i, p, k]) & big) for p in (1, 3) for k in (0, 1)) for i in range(400)]
    assert max(jokers) == 1 and 0 in jokers  # at most one, and sometimes none
