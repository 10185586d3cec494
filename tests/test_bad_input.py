"""Bad input gets a ValueError or TypeError that names the problem, and changes nothing."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from guandan_fast import Deal, Hand, Move, MoveType, legal_moves, legal_moves_batch, parse_level
from guandan_fast.engine.movelist import MoveList


@pytest.mark.parametrize(
    "cards, error, words",
    [
        ("S2 X9", ValueError, "unknown card 'X9'"),
        ("S2 S11", ValueError, "unknown card 'S11'"),
        ("ſ3", ValueError, "unknown card 'ſ3'"),  # the long s, which str.upper makes an S
        ("ﬅ", ValueError, "unknown card 'ﬅ'"),  # the ligature st, which str.upper makes ST
        ("HJ HJ HJ", ValueError, "three copies of card HJ"),
        (["S2", 5], TypeError, "a card must be a string"),
        (42, TypeError, "not int"),
    ],
)
def test_bad_cards(cards: object, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        Hand(cards)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "level, error",
    [(1, ValueError), (15, ValueError), ("Z", ValueError), ("", ValueError), (True, TypeError), (2.0, TypeError), (None, TypeError)],
)
def test_bad_levels(level: object, error: type, backend: str) -> None:
    with pytest.raises(error, match="level"):
        parse_level(level)
    with pytest.raises(error, match="level"):
        legal_moves("S3 S4", level, backend=backend)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "once, twice, words",
    [(1 << 54, 0, "bits 0..53"), (-1, 0, "bits 0..53"), (1, 2, "'twice'"), (2**64, 0, "bits 0..53")],
)
def test_bad_planes(once: int, twice: int, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Hand.from_bits(once, twice)


def test_bad_counts_and_arrays() -> None:
    with pytest.raises(ValueError, match="shape"):
        Hand.from_counts(np.zeros(53, dtype=np.uint8))
    counts = np.zeros(54, dtype=np.int64)
    counts[7] = 3
    with pytest.raises(ValueError, match="card D3 has count 3"):
        Hand.from_counts(counts)
    with pytest.raises(TypeError, match="integers"):
        Hand.from_counts(np.zeros(54, dtype=np.float64))
    with pytest.raises(ValueError, match="uint64"):
        Hand.from_numpy(np.zeros(2, dtype=np.int64))


def test_removing_cards_not_held_changes_nothing() -> None:
    hand = Hand.parse("S5 D5 HR")
    with pytest.raises(ValueError, match="does not hold S5"):
        hand.remove("S5 S5")
    with pytest.raises(ValueError, match="three copies of HR"):
        hand.add("HR HR")
    assert hand == Hand.parse("S5 D5 HR")


@pytest.mark.parametrize(
    "action, error, words",
    [
        ("Pair", TypeError, "list"),
        (["Pair", "3"], ValueError, "3 fields"),
        (["Pair", "3", "S3 D3"], TypeError, "list of card strings"),
        (["Pair", 3, ["S3", "D3"]], TypeError, "strings"),
        (["Quad", "3", ["S3", "D3"]], ValueError, "unknown action type 'Quad'"),
        (["tribute", "tribute", ["S3"]], ValueError, "tribute and back are not moves"),
        (["Pair", "X", ["S3", "D3"]], ValueError, "bad rank 'X'"),
        (["Pair", "4", ["S3", "D3"]], ValueError, "do not read as Pair"),
        (["Pair", "3", ["S3", "D4"]], ValueError, "do not read as Pair"),
        (["Straight", "3", ["S3", "S4", "S5", "S6"]], ValueError, "do not read as Straight"),
        (["Bomb", "JOKER", ["SB", "SB", "HR", "S2"]], ValueError, "do not read"),
        (["Pair", "3", ["S3", "S3", "S3"]], ValueError, "three copies"),
        (["PASS", "PASS", ["S3"]], ValueError, "malformed pass"),
    ],
)
def test_malformed_or_lying_platform_actions(action: object, error: type, words: str, backend: str) -> None:
    with pytest.raises(error, match=words):
        Move.from_platform(action, 3)
    with pytest.raises(error, match=words):
        legal_moves("S4 S4", 3, action, backend=backend)


def test_wrong_types_and_backends() -> None:
    with pytest.raises(TypeError, match="Hand.parse takes a string"):
        Hand.parse(["S2"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown backend 'gpu'"):
        legal_moves("S2", 2, backend="gpu")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="can only beat a Move"):
        Move.from_platform(["Single", "3", ["S3"]], 2).beats(["Single", "2", ["S2"]])  # type: ignore[arg-type]
    with pytest.raises(AttributeError, match="immutable"):
        Move.from_platform(["Single", "3", ["S3"]], 2).key = 9  # type: ignore[misc]


def test_last_move_of_another_level_is_refused(backend: str) -> None:
    last = Move.from_platform(["Single", "3", ["S3"]], 2)
    with pytest.raises(ValueError, match="level"):
        legal_moves("S4", 5, last, backend=backend)


def test_move_constructor_checks_the_reading() -> None:
    assert Move(MoveType.SINGLE, 3, "S3", 2) == Move.from_platform(["Single", "3", ["S3"]], 2)
    with pytest.raises(ValueError, match="do not read as Single with key 4"):
        Move(MoveType.SINGLE, 4, "S3", 2)
    with pytest.raises(TypeError, match="a move's kind must be a MoveType or its integer code, not str"):
        Move("Single", 3, "S3", 2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a valid MoveType"):
        Move(99, 3, "S3", 2)
    with pytest.raises(ValueError, match="a pass has no cards"):
        Move(MoveType.PASS, 0, "S3", 2)


@pytest.mark.parametrize("level", [np.bool_(True), np.float64(5.0), np.int64(15)])
def test_numpy_values_that_are_no_level(level: object) -> None:
    with pytest.raises((TypeError, ValueError), match="level"):
        parse_level(level)


# -- found by a fuzzing round: each a wrong exception type or an answer that depended on history


def test_a_moves_kind_is_a_movetype_or_its_integer_code() -> None:
    assert Move(np.int64(1), 3, "S3", 2) == Move(MoveType.SINGLE, 3, "S3", 2)
    for kind in (True, 1.0, np.float64(1.0)):
        with pytest.raises(TypeError, match="a move's kind must be a MoveType or its integer code"):
            Move(kind, 3, "S3", 2)  # type: ignore[arg-type]


def test_a_batch_is_indexed_by_integers_or_slices() -> None:
    batch = legal_moves_batch([Hand.parse("S3 S4"), Hand.parse("S5")], 2)
    assert list(batch[np.int64(1)].rows()) == list(legal_moves("S5", 2).rows())
    for index in (0.5, "a", None, True):
        with pytest.raises(TypeError, match="batch indices must be integers or slices, not"):
            batch[index]  # type: ignore[call-overload]


def test_a_move_list_index_out_of_range_is_an_index_error_whatever_its_type() -> None:
    moves = legal_moves("S3 S4", 2)
    assert moves[np.uint64(1)] == moves[1] and moves[np.int8(-1)] == moves[1]
    for index in (np.uint64(2**64 - 1), np.int64(-3), 2**64):
        with pytest.raises(IndexError):
            moves[index]


def test_a_batch_of_hands_in_a_memoryview_is_read_as_its_array() -> None:
    planes = np.array([Hand.parse("S3 S4").to_numpy(), Hand.parse("S5").to_numpy()])
    batch = legal_moves_batch(memoryview(planes), 2)
    assert [list(batch[i].rows()) for i in range(2)] == [list(legal_moves(h, 2).rows()) for h in ("S3 S4", "S5")]


def test_hand_planes_in_either_byte_order() -> None:
    hand = Hand.parse("S3 S3 HR")
    assert Hand.from_numpy(hand.to_numpy().astype(">u8")) == hand
    with pytest.raises(ValueError, match="hand planes must be a uint64 array"):
        Hand.from_numpy(hand.to_numpy().astype(np.int64))


def test_a_move_list_is_made_from_arrays_only() -> None:
    with pytest.raises(TypeError, match="a MoveList is made from an object with kinds, keys and cards"):
        MoveList(None, 2)  # type: ignore[arg-type]


def test_a_triple_is_read_the_same_whatever_was_read_before() -> None:
    def fresh_deal() -> Deal:
        return Deal.start(["S3 H3 S9", "S8 D8", "C9 H9", "SK"], level=2, leader=0)

    forms: list[object] = [iter(["S3"]), "S3", [["S3"]]]
    refusals = []
    for cards in forms:
        with pytest.raises(TypeError) as refused:
            fresh_deal().step(["Single", "3", cards])
        refusals.append(str(refused.value))
    fresh_deal().step(["Single", "3", ["S3"]])  # the spelling read (and remembered) with a list
    for cards, refusal in zip(forms, refusals):
        deal = fresh_deal()
        with pytest.raises(TypeError) as refused:
            deal.step(["Single", "3", cards])
        assert str(refused.value) == refusal and deal.history == []
    assert refusals[2] == "a card must be a string such as 'S2', not list"


def test_world_playouts_name_bad_worlds() -> None:
    deal = Deal.random(seed=1)
    for worlds, error, words in [
        ([[[-1, 0]] * 4], ValueError, "worlds holds integers outside 0..18446744073709551615"),
        (2**64, ValueError, "worlds holds integers outside"),
        (np.zeros((1, 4, 2)), TypeError, "worlds must be an array of integers, not of float64"),
        (np.zeros((1, 4, 2), dtype=bool), TypeError, "worlds must be an array of integers, not of bool"),
        (np.zeros((1, 4), dtype=np.uint64), ValueError, r"worlds must be hand planes of shape \(w, 4, 2\)"),
    ]:
        with pytest.raises(error, match=words):
            deal.world_playouts(worlds, [0])  # type: ignore[arg-type]


def test_sampling_needs_a_deal() -> None:
    from guandan_fast.search.infoset import sample_hands

    with pytest.raises(TypeError, match="expected a guandan_fast Deal, not NoneType"):
        sample_hands(None, 0, 1, 0)  # type: ignore[arg-type]


def test_integer_arrays_refuse_floats_bools_and_out_of_range_values() -> None:
    from guandan_fast.engine.arrays import integer_array

    assert integer_array([1, 2], np.uint8, "x").dtype == np.uint8
    assert integer_array(np.array([1, 2], dtype=object), np.uint8, "x").tolist() == [1, 2]
    assert integer_array([], np.int64, "x").shape == (0,)
    same = np.arange(3, dtype=np.int64)
    assert integer_array(same, np.int64, "x") is same
    assert integer_array(same[::2], np.int64, "x").flags.c_contiguous
    for value, error, words in [
        ([1.5], TypeError, "x must be an array of integers, not of float"),
        ([True], TypeError, "not of bool"),
        ([256], ValueError, "x holds integers outside 0..255"),
        ([-1], ValueError, "outside 0..255"),
        ([2**70], ValueError, "outside 0..255"),
        ([[1], [1, 2]], TypeError, "x must be an array of integers, not of list"),
        (["1"], TypeError, "not of str"),
        ([2**63, -1], ValueError, "outside 0..255"),  # (numpy alone reads it as floats)
        (np.array([1.0]), TypeError, "not of float64"),
    ]:
        with pytest.raises(error, match=words):
            integer_array(value, np.uint8, "x")


def test_the_native_search_entry_points_name_bad_numbers() -> None:
    """The search layer's native classes (private, but reachable): no OverflowError and no
    float silently truncated to an integer."""
    from guandan_fast.search import _infoset
    from guandan_fast.search._minplays import MinPlays
    from guandan_fast.search._worldsolve import WorldSolver
    from guandan_fast.search.infoset import sample_hands

    deal = Deal.start(["S3 H3", "S8 D8", "C9 H9", "SK SA"], level=2, leader=0)
    worlds = sample_hands(deal, 0, 2, 0)
    solver = WorldSolver()
    assert solver.solve_worlds(deal, worlds, [0, 1], 1, 100, 0.0)[0].shape == (2, 2)
    for rows, objective, nodes, error, words in [
        (np.array([2**63], dtype=np.uint64), 1, 100, ValueError, "rows holds integers outside"),
        ([1.9], 1, 100, TypeError, "rows must be an array of integers"),
        ([True], 1, 100, TypeError, "rows must be an array of integers, not of bool"),
        ([0], 1.5, 100, TypeError, "objective must be an integer, not float"),
        ([0], 1, 2**63, ValueError, "max_nodes is out of range"),
        ([0], 1, 1.5, TypeError, "max_nodes must be an integer, not float"),
    ]:
        with pytest.raises(error, match=words):
            solver.solve_worlds(deal, worlds, rows, objective, nodes, 0.0)
    with pytest.raises(TypeError, match="worlds must be an array of integers"):
        solver.solve_worlds(deal, worlds.astype(float), [0], 1, 100, 0.0)

    assert MinPlays().solve(1, 0, 2, 0)[0] == 1
    solver = MinPlays()
    with pytest.raises(ValueError, match="no decomposition to weigh"):
        solver.penalties  # noqa: B018 (nothing solved yet)
    singles = Hand.parse("S3 H4 C5")  # at level 2, three singles: 3 non-bombs, (2 + 22) + (2 + 20) + (2 + 18)
    solver.solve(singles.once, singles.twice, 2, 3)
    assert solver.penalties == (3, 66)
    with pytest.raises(ValueError, match="bad prefer code"):
        solver.solve(singles.once, singles.twice, 2, 8)
    with pytest.raises(ValueError, match="no decomposition to weigh"):  # not the last good solve's
        solver.penalties  # noqa: B018
    for args, error, words in [
        ((-1, 0, 2, 0), ValueError, "hand plane 'once' may only use bits 0..53"),
        ((1.5, 0, 2, 0), TypeError, "once must be an integer, not float"),
        ((1, 0, 2**31, 0), ValueError, "level is out of range"),
        ((1, 0, 2, 2.0), TypeError, "prefer must be an integer, not float"),
        ((1, 0, 2, 8), ValueError, "bad prefer code 8"),
        ((1, 0, 2, -1), ValueError, "bad prefer code -1"),
    ]:
        with pytest.raises(error, match=words):
            MinPlays().solve(*args)

    class TwoFaced:  # an integer whose __index__ and __int__ disagree: read once, as __index__
        def __index__(self) -> int:
            return 0

        def __int__(self) -> int:
            return 2**64 - 1

    with pytest.raises(ValueError, match="128 free slots for 0 unseen"):  # (read twice: 128 cards, past the table)
        _infoset.sample_hands([(0, 0)] * 4, TwoFaced(), TwoFaced(), [32] * 4, 0, 0, 0, 2, 0)
    base, free = [(0, 0)] * 4, [1, 1, 0, 0]
    assert _infoset.sample_hands(base, 3, 0, free, 53, 0, 0, 1, 0).shape == (1, 4, 2)
    for changed, error, words in [
        ({"seed": 2**64}, ValueError, "seed must be 0..18446744073709551615"),
        ({"seed": -1}, ValueError, "seed must be 0.."),
        ({"n": 2**63}, ValueError, "the number of worlds must be 0..2147483647"),
        ({"n": 1.0}, TypeError, "the number of worlds must be an integer, not float"),
        ({"free": [2**64, 0, 0, 0]}, ValueError, "a seat's free slots must be 0..108"),
        ({"pooled_card": 54}, ValueError, "the pooled card must be 0..53"),
        ({"unseen_once": 2**60}, ValueError, "hand plane 'unseen_once' may only use bits 0..53"),
        ({"unseen_once": True}, TypeError, "unseen_once must be an integer, not bool"),
        ({"base": [(1.0, 0)] + [(0, 0)] * 3}, TypeError, "base once must be an integer, not float"),
    ]:
        args = {"base": base, "unseen_once": 3, "unseen_twice": 0, "free": free, "pooled_card": 53,
                "pooled_count": 0, "pooled_mask": 0, "n": 1, "seed": 0, **changed}
        with pytest.raises(error, match=words):
            _infoset.sample_hands(**args)


@pytest.mark.parametrize("seed", [float("nan"), 1.0, True, (1, 2)])
def test_seeds_are_integers_strings_or_bytes(seed: object) -> None:
    # Random(nan) hashes the object, so a NaN seed gave another deal on every run
    from guandan_fast import Match
    from guandan_fast.arena.matches import build_agent

    for make in (
        lambda: Deal.random(seed),  # type: ignore[arg-type]
        lambda: Deal.start(["S3", "S4", "S5", "S6"], 2, seed=seed),  # type: ignore[arg-type]
        lambda: Deal.start(["S3", "S4", "S5", "S6"], 2, seed=seed, leader=0),  # type: ignore[arg-type]
        lambda: Match(seed=seed),  # type: ignore[arg-type]
        lambda: build_agent(("search", {"seed": seed}), 0),
        lambda: build_agent(("pimc", {"seed": seed}), 0),
        lambda: build_agent(("random", {"seed": seed}), 0),
    ):
        with pytest.raises(TypeError, match="seed must be an integer, a str, bytes or None"):
            make()
    assert Deal.random(np.int64(7)).hands == Deal.random(7).hands == Deal.random(7).hands
    assert Deal.random("seven").hands == Deal.random(b"seven").hands


def test_the_minplays_rules_refuse_hands_they_cannot_decompose() -> None:
    # their exact decomposition grows exponentially: a 60-card hand ran for minutes
    from guandan_fast import min_plays
    from guandan_fast.agents import MinPlaysAgent
    from guandan_fast.engine.cards import CARD_NAMES
    from guandan_fast.search.infoset import sample_hands
    from guandan_fast.search.minplays import MAX_CARDS
    from guandan_fast.search.playout import POLICIES, native_playout, native_playouts

    with pytest.raises(TypeError, match="whole must be True or False, not str"):
        min_plays("S3 S4", 2, whole="no")  # type: ignore[arg-type]
    # numpy's bool reads as the bool it is (a mask's element)
    assert min_plays("S3 S3 H3 H3", 2, whole=np.bool_(True)) == min_plays("S3 S3 H3 H3", 2, whole=True)
    assert min_plays("S3 S3 H3 H3", 2, whole=np.bool_(False)) == min_plays("S3 S3 H3 H3", 2)
    deck = [CARD_NAMES[card] for card in range(54) for _ in range(2)]
    for held, refused in ((MAX_CARDS, False), (MAX_CARDS + 1, True)):
        deal = Deal.start([" ".join(deck[:held]), deck[-1], deck[-3], deck[-5]], 2, leader=0)
        calls = [
            partial(MinPlaysAgent().act, deal, 0),
            partial(MinPlaysAgent(tactics=True).act, deal, 0),
            partial(deal.playouts, 1, policy="minplays"),
            partial(deal.playout, policy="tactics"),
            partial(deal.world_playouts, sample_hands(deal, 0, 2, 1), [0], policy="tactics"),
            partial(native_playouts, deal._state, 0, 1, POLICIES["minplays"]),  # the search layer's own entry
            partial(native_playout, deal._state, 0, False, POLICIES["tactics"]),
        ]
        for call in calls:
            if refused:
                with pytest.raises(ValueError, match=f"at most {MAX_CARDS} cards.*seat 0 holds {held}"):
                    call()
            else:
                call()
        assert deal.playouts(1, policy="greedy").shape == (1, 4)  # no decomposition: any size


@pytest.mark.parametrize(
    "failures, error, words",
    [
        ((-100, "1"), ValueError, "failures at A must be an integer 0..2147483647, not -100"),
        ((0, "1"), TypeError, "failures at A must be an integer .*not str"),
        ((2.9, 0), TypeError, "failures at A must be an integer .*not float"),
        ((True, 0), TypeError, "not a bool"),
        ((0,), ValueError, "failures must be two counts .*not 1"),
        ((0, 0, 0), ValueError, "failures must be two counts .*not 3"),
        ("00", TypeError, "failures must be two counts .*not a str"),
        (None, TypeError, "failures must be two counts .*not a NoneType"),
    ],
)
def test_score_deal_checks_the_failures_as_deal_start_does(failures: object, error: type, words: str) -> None:
    # score_deal once read failures with int(): (-100, "1") gave (-99, 2), 2.9 was truncated
    # and (0,) an IndexError
    import guandan_fast as gf

    rules = gf.Rules(fail_at_a_limit=3)
    with pytest.raises(error, match=words):
        gf.score_deal([14, 14], 14, [1, 0, 2, 3], rules=rules, failures=failures)  # type: ignore[arg-type]
    with pytest.raises(error, match=words.replace("failures must", "failures_at_a must")):
        Deal.start(["S3", "S4", "S5", "S6"], 14, leader=0, rules=rules, failures_at_a=failures)  # type: ignore[arg-type]
    # numpy integers are counts
    score = gf.score_deal([14, 14], 14, [1, 0, 2, 3], rules=rules, failures=(np.int64(1), np.uint8(0)))
    assert score.failures == (2, 1) and all(type(count) is int for count in score.failures)


@pytest.mark.parametrize(
    "levels, error, words",
    [
        ("2A", TypeError, "levels must be two levels .*not a str"),
        (b"2A", TypeError, "levels must be two levels .*not a bytes"),
        ([2, 14, 99], ValueError, "levels must be two levels"),
        ([2], ValueError, "levels must be two levels"),
        ([], ValueError, "levels must be two levels"),
        (None, TypeError, "levels must be two levels .*not a NoneType"),
        (np.array([[2, 3]]), ValueError, r"levels must be two levels .*not an array of shape \(1, 2\)"),
        ([2, 15], ValueError, "bad level 15"),
        ([2, "Z"], ValueError, "bad level 'Z'"),
        ([2.0, 3], TypeError, "not float"),
        ([True, 3], TypeError, "not a bool"),
    ],
)
def test_score_deal_checks_the_levels_as_deal_start_does(levels: object, error: type, words: str) -> None:
    # score_deal once read levels[0] and levels[1] only: "2A" scored as levels (2, 14), a
    # third level was ignored and [2] was an IndexError
    import guandan_fast as gf

    with pytest.raises(error, match=words):
        gf.score_deal(levels, 14, [0, 2])  # type: ignore[arg-type]
    if levels is not None:  # Deal.start's None: both teams at the deal's level
        with pytest.raises(error, match=words.replace("levels must", "team_levels must")):
            Deal.start(["S3", "S4", "S5", "S6"], 2, leader=0, team_levels=levels)  # type: ignore[arg-type]
    # levels as Deal.start takes them: ints, numpy integers, rank strings
    assert gf.score_deal(("2", np.int64(14)), 14, [0, 2]).levels == (5, 14)
    assert gf.score_deal(["10", "K"], 10, [1, 3]).levels == (10, 14)
    # numpy arrays of two, as they were taken before these checks
    by_arrays = gf.score_deal(np.array([2, 14]), 2, [0, 2, 1, 3], failures=np.array([0, 0]))
    assert by_arrays == gf.score_deal((2, 14), 2, [0, 2, 1, 3], failures=(0, 0))
    from guandan_fast.search.match_equity import outcome_equity

    with pytest.raises(TypeError, match="team_levels must be two levels .*not a str"):
        outcome_equity(gf.Rules(), "2A", 2, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="team_levels must be two levels .*not 3"):
        outcome_equity(gf.Rules(), [2, 14, 9], 2, 0)


def test_the_solve_command_takes_fractional_milliseconds_and_refuses_a_pass_to_beat(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from guandan_fast.cli.main import main

    # --time-ms was a positive integer, though solve(time_ms=...) takes float milliseconds
    assert main(["solve", "S2", "S3", "S4", "S5", "--time-ms", "0.5", "--json"]) == 0
    capsys.readouterr()
    for bad in ("0", "-1", "nan", "inf", "x"):
        with pytest.raises(SystemExit) as exit_:
            main(["solve", "S2", "S3", "S4", "S5", "--time-ms", bad])
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and "argument --time-ms" in err and "integer" not in err, (bad, err)
    # a pass as the move to beat was refused as "seat 2 leads and may not pass"
    assert main(["solve", "S2", "S3", "S4", "S5", "--last", '["PASS","PASS","PASS"]', "--last-seat", "2"]) == 2
    err = capsys.readouterr().err
    assert "--last must be the move to beat (a play of cards), not a pass" in err and "may not pass" not in err
    # JSON null was read as "leading" and then refused as "--last-seat needs --last"
    assert main(["solve", "S2", "S3", "S4", "S5", "--last", "null", "--last-seat", "2"]) == 2
    err = capsys.readouterr().err
    assert "--last must be the move to beat, a platform triple, not null" in err and "needs --last" not in err


def test_strongest_is_an_on_off_flag() -> None:
    # "yes", 1 and None were read by their truth: strongest="no" gave the strongest list
    hand = "H2 H2 S3 S3 C3 D4 D4"
    plain, strongest = legal_moves(hand, 2), legal_moves(hand, 2, strongest=True)
    assert len(strongest) < len(plain)
    for flag, expected in ((np.bool_(True), strongest), (np.bool_(False), plain)):
        assert legal_moves(hand, 2, strongest=flag) == expected  # type: ignore[arg-type]
        assert list(legal_moves_batch([hand], 2, strongest=flag)[0]) == list(expected)  # type: ignore[arg-type]
    for bad in ("no", "yes", 1, 0, None):
        with pytest.raises(TypeError, match="strongest must be True or False"):
            legal_moves(hand, 2, strongest=bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="strongest must be True or False"):
            legal_moves_batch([hand], 2, strongest=bad)  # type: ignore[arg-type]


def test_solve_takes_numpy_bool_for_table() -> None:
    # np.bool_ is also named bool: "table must be True or False, not bool"
    from guandan_fast import solve

    deal = Deal.start(["HR HR S3 S3", "D4 D5", "C9 C9", "DK"], 2, leader=0)
    expected = solve(deal, table=True)
    for flag in (np.bool_(True), np.bool_(False)):
        solution = solve(deal, table=flag)  # type: ignore[arg-type]
        assert (solution.value, solution.lowers, solution.uppers, solution.line) == (
            expected.value, expected.lowers, expected.uppers, expected.line
        )
    for bad in (1, 0, "yes", None, np.int64(1)):
        with pytest.raises(TypeError, match="table must be True or False"):
            solve(deal, table=bad)  # type: ignore[arg-type]


def test_batch_threads_take_numpy_integers() -> None:
    hands = np.array([[1, 0]], np.uint64)
    assert list(legal_moves_batch(hands, 2, threads=np.int64(2))) == list(legal_moves_batch(hands, 2, threads=2))
    assert list(legal_moves_batch(hands, 2, threads=np.uint8(1))) == list(legal_moves_batch(hands, 2))
    for bad, words in ((1.5, "not float"), ("2", "not str"), (True, "not a bool"), (np.float64(2.0), "not float64")):
        with pytest.raises(TypeError, match=f"threads must be a positive integer, {words}"):
            legal_moves_batch(hands, 2, threads=bad)  # type: ignore[arg-type]
    for bad in (0, -1, np.int64(-3)):
        with pytest.raises(ValueError, match=f"threads must be a positive integer, not {int(bad)}"):
            legal_moves_batch(hands, 2, threads=bad)
