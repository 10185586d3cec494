"""The mirror replayed over the real OpenGuanDan recordings (``tests/data/platform/``, copied
from the shared folder), and fed malformed or doctored messages.

Each recorded seat's messages go through a :class:`~guandan_fast.platform.Mirror`: every
``act``'s list must equal the mirror's legal actions up to the three documented classes,
every finishing order the server's, levels and tribute the server's messages, and every
known departure must be detected without crashing, none unexplained."""

from __future__ import annotations

import copy
import gzip
import json
import logging
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from guandan_fast import Deal, Rules, classify, legal_moves
from guandan_fast.agents import make_agent
from guandan_fast.engine.cards import CARD_NAMES, parse_level
from guandan_fast.engine.hand import Hand
from guandan_fast.engine.notation import parse
from guandan_fast.platform import DEPARTURES, Mirror, ProtocolError, act_message, answer_index, placeholders

RECORDINGS = Path(__file__).resolve().parent / "data" / "platform"
SESSIONS = sorted(RECORDINGS.glob("session-*.jsonl.gz"))

#: What the two recorded sessions hold, summed over the four seats (each departure is
#: counted once per seat that sees it; the move-list classes once per act and class): with
#: the platform preset only the server's bugs and the three move-list classes; with the
#: national rules also the preset's rule choices.
SERVER_BUGS = {
    "session-1": {
        "pair_of_wildcards": 4, "straight_of_one_suit": 19, "full_house_of_one_rank": 1,
        "tribute_one_suit": 2, "lost_wake_up": 1,
    },
    "session-2": {"pair_of_wildcards": 1, "straight_of_one_suit": 11, "tribute_one_suit": 2},
}
RULE_CHOICES = {
    "session-1": {"return_without_level_cards": 13, "both_teams_at_a": 4},
    "session-2": {"return_without_level_cards": 3},
}

_cache: dict[Path, list[dict[str, Any]]] = {}


def recording(path: Path) -> list[dict[str, Any]]:
    if path not in _cache:
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            _cache[path] = [json.loads(line) for line in lines]
    return _cache[path]


def received(path: Path, seat: int) -> Iterator[dict[str, Any]]:
    """The messages ``seat`` received, in order (the mirror never changes a message)."""
    return (row["msg"] for row in recording(path) if row["seat"] == seat and row["dir"] == "recv")


def server_moves(msg: dict[str, Any]) -> set[tuple[int, int, int, int]]:
    """The legal actions of an ``act`` computed from its own fields alone (hand, level,
    move to beat), independently of the mirror."""
    level = parse_level(msg["curRank"])
    last = msg["greaterAction"]
    if last:  # the move to beat, read by the native classifier (Move.from_platform checks in Python)
        kind, key, once, twice = parse(last, level)
        last = next(m for m in classify(Hand.from_bits(once, twice), level) if m.kind == kind and m.key == key)
    moves = legal_moves(Hand(msg["handCards"]), level, last)
    keys = set(moves.rows())
    return keys | {(0, 0, 0, 0)} if msg["greaterAction"] else keys


def mirror_moves(mirror: Mirror) -> set[tuple[int, int, int, int]]:
    deal = mirror.deal
    assert deal is not None
    keys = set(deal.legal_moves().rows())
    return keys | {(0, 0, 0, 0)} if deal.following else keys


def replay(path: Path, seat: int, rules: Rules | None = None, *, check: bool = True) -> tuple[Mirror, Counter[str]]:
    """Feed one seat's messages, checking the mirror against each message on the way
    (``check=False``: only the mirror's own checks)."""
    mirror = Mirror(seat, rules)
    checks: Counter[str] = Counter()
    for msg in received(path, seat):
        kind, stage = msg.get("type"), msg.get("stage")
        if kind == "act" and "selfRank" in msg:
            mine, theirs = parse_level(msg["selfRank"]), parse_level(msg["oppoRank"])
            checks["levels differ"] += mirror.levels != ((mine, theirs) if seat % 2 == 0 else (theirs, mine))
        mirror.feed(msg)
        if check and kind == "act" and stage == "play" and msg["handCards"] and msg["greaterPos"] != seat:
            # in step: the mirror's legal actions are those of the server's own hand and move to beat
            assert mirror_moves(mirror) == server_moves(msg)
            checks["plays checked"] += 1
        elif kind == "notify" and stage in ("tribute", "back"):
            key = "payments" if stage == "tribute" else "returns"
            assert [list(t) for t in mirror.tribute[key]] == [[a, b, _index(c)] for a, b, c in msg["result"]]
        elif kind == "notify" and stage == "anti-tribute":
            assert mirror.deal is not None and mirror.deal.tribute["kind"] == "anti"
    return mirror, checks


def _index(card: str) -> int:
    return next(Hand([card]).indices())


@pytest.mark.parametrize("path", SESSIONS, ids=[p.name.split(".")[0] for p in SESSIONS])
def test_recorded_session_mirrors_without_unexplained_departures(path: Path) -> None:
    totals: Counter[str] = Counter()
    rows = recording(path)
    for seat in range(4):
        mirror, checks = replay(path, seat)
        acts = sum(1 for r in rows if r["seat"] == seat and r["dir"] == "recv" and r["msg"].get("type") == "act")
        assert mirror.acts == acts and checks["plays checked"] > acts // 2
        assert checks["levels differ"] == 0
        assert mirror.departures["unexplained"] == 0, mirror.departures
        assert set(mirror.departures) <= set(DEPARTURES)
        episodes = [r["msg"] for r in rows if r["seat"] == seat and r["msg"].get("stage") == "episodeOver"]
        assert [server for server, _ in mirror.finish_orders] == [e["order"] for e in episodes]
        for server, ours in mirror.finish_orders:
            double_down = server[1] == server[0] ^ 2
            assert ours[:2] == server[:2] if double_down else ours == server
        result = next(r["msg"] for r in rows if r["seat"] == seat and r["msg"].get("stage") == "gameResult")
        assert mirror.levels == tuple(parse_level(rank) for rank in result["victoryRank"])
        totals.update(mirror.departures)
    assert dict(totals) == SERVER_BUGS[path.name.split(".")[0]]


@pytest.mark.parametrize("path", SESSIONS, ids=[p.name.split(".")[0] for p in SESSIONS])
def test_national_rules_count_the_servers_rule_choices_too(path: Path) -> None:
    totals: Counter[str] = Counter()
    for seat in range(4):
        mirror, checks = replay(path, seat, Rules(), check=False)
        assert checks["levels differ"] == 0 or "both_teams_at_a" in mirror.departures
        totals.update(mirror.departures)
    name = path.name.split(".")[0]
    assert dict(totals) == {**SERVER_BUGS[name], **RULE_CHOICES[name]}


def _session(name: str) -> Path:
    return RECORDINGS / f"{name}.jsonl.gz"


def _replay_with(path: Path, seat: int, doctor: Any) -> Mirror:
    """Replay with ``doctor(mirror, msg) -> list of messages`` choosing what is fed instead."""
    mirror = Mirror(seat)
    for msg in received(path, seat):
        for fed in doctor(mirror, msg):
            mirror.feed(fed)
    return mirror


def test_an_act_to_a_seat_that_is_out_is_counted_and_ignored(caplog: pytest.LogCaptureFixture) -> None:
    injected = []

    def doctor(mirror: Mirror, msg: dict[str, Any]) -> list[dict[str, Any]]:
        deal = mirror.deal
        if not injected and deal is not None and deal.phase == "play" and len(deal.finish_order) == 1 and deal.following:
            out = deal.finish_order[0]
            injected.append(out)
            passing = {"type": "notify", "stage": "play", "curPos": out, "curAction": ["PASS", "PASS", "PASS"],
                       "greaterPos": deal.last_seat, "greaterAction": deal.last_move.to_platform()}  # type: ignore[union-attr]
            return [passing, msg]
        return [msg]

    with caplog.at_level(logging.INFO, logger="guandan_fast.platform"):
        mirror = _replay_with(_session("session-2"), 1, doctor)
    assert injected and mirror.departures["act_to_out_seat"] == 1 and mirror.departures["unexplained"] == 0
    assert any("act_to_out_seat" in record.message for record in caplog.records)


def test_the_trick_end_skip_is_counted_and_the_turn_taken_from_the_server() -> None:
    injected = []

    def doctor(mirror: Mirror, msg: dict[str, Any]) -> list[dict[str, Any]]:
        deal = mirror.deal
        if (
            not injected and msg.get("stage") == "play" and msg.get("type") == "notify" and deal is not None
            and deal.phase == "play" and not deal.following and len(deal.plays) > 4 and msg["curPos"] == deal.to_act
        ):
            # the trick just ended; the server first asks its winner to beat its own play
            seat, own = deal.to_act, deal.plays[-4]
            last = next(a for s, a in reversed(deal.history) if s == seat and a[0] != "PASS")
            injected.append((seat, own))
            skip = {"type": "notify", "stage": "play", "curPos": seat, "curAction": ["PASS", "PASS", "PASS"],
                    "greaterPos": seat, "greaterAction": last}
            return [skip, msg]
        return [msg]

    mirror = _replay_with(_session("session-2"), 2, doctor)
    assert injected and mirror.departures["trick_end_skip"] == 1 and mirror.departures["unexplained"] == 0


def test_a_tie_given_by_arrival_order_is_adopted() -> None:
    """Session 1 has a double tribute of equal cards paired as the rules pair it; the
    server pairs such a tie by arrival order, so here the other payer's card reached the
    first player first. The mirror takes the server's pairing (the deal goes on to the
    returns with it) and counts the departure; the rest of the recording was played under
    the other pairing, and the mirror rebuilds its deal from the server's next request."""
    path = _session("session-1")
    swapped: list[Any] = []
    adopted: list[Any] = []

    def doctor(mirror: Mirror, msg: dict[str, Any]) -> list[dict[str, Any]]:
        if swapped and not adopted:
            deal = mirror.deal
            assert deal is not None
            adopted.append((deal.phase, sorted(deal.tribute["payments"])))
        result = msg.get("result")
        if msg.get("stage") == "tribute" and msg["type"] == "notify" and len(result) == 2 and result[0][2] == result[1][2] and not swapped:
            (p, r, c), (q, s, d) = result
            msg = {**msg, "result": [[p, s, c], [q, r, d]]}
            swapped.append(msg["result"])
        return [msg]

    mirror = _replay_with(path, 1, doctor)
    assert swapped and mirror.departures["tribute_tie_arrival_order"] == 1
    assert adopted == [("return", sorted((p, r, _index(c)) for p, r, c in swapped[0]))]
    assert mirror.lost is None and mirror.resyncs >= 1
    episodes = [r["msg"]["order"] for r in recording(path) if r["seat"] == 1 and r["msg"].get("stage") == "episodeOver"]
    assert [server for server, _ in mirror.finish_orders] == episodes


def test_the_recorded_tie_game_replays_without_unexplained_departures() -> None:
    """The real server paired a double tribute of two ST at level T by arrival order (the
    client of that day kept its own pairing, answered the return from the play list and
    exited; the recording ends there). Every seat now follows the server's pairing, the
    returns and the leader, and the lists it offers."""
    path = _session("tribute-tie-game")
    for seat in range(4):
        mirror, checks = replay(path, seat)
        assert mirror.departures["tribute_tie_arrival_order"] == 1, seat
        assert mirror.departures["unexplained"] == 0 and mirror.lost is None and mirror.resyncs == 0
        assert checks["levels differ"] == 0 and checks["plays checked"] > 100
        episodes = [r["msg"]["order"] for r in recording(path) if r["seat"] == seat and r["msg"].get("stage") == "episodeOver"]
        assert [server for server, _ in mirror.finish_orders] == episodes and len(episodes) == 8


def test_failing_at_a_is_taken_from_the_server() -> None:
    """Session 2: team 0 fails a deal at A; had the server sent it back to 2 (its
    three-failures rule), the mirror takes that level and counts the departure."""
    mirror = Mirror(0)
    failed = False
    for msg in received(_session("session-2"), 0):
        if msg.get("stage") == "episodeOver" and msg["curRank"] == "A" and msg["order"][0] % 2 == 1:
            failed = True
        elif failed and msg.get("type") == "act":
            mirror.feed({**msg, "selfRank": "2"})
            break
        mirror.feed(msg)
    assert failed and mirror.levels[0] == 2
    assert mirror.departures["failing_at_a"] == 1 and mirror.departures["unexplained"] == 0


def test_unseen_observation_and_placeholders_stay_consistent() -> None:
    mirror = Mirror()
    for count, msg in enumerate(received(_session("session-2"), 3)):
        mirror.feed(msg)
        deal = mirror.deal
        if msg.get("type") == "act" and msg["stage"] == "play":
            unseen = mirror.unseen()
            own = deal.hands[3]  # type: ignore[union-attr]
            assert own == Hand(msg["handCards"]) and unseen.seat == 3
            rest = [info["rest"] for info in msg["publicInfo"]]
            assert [unseen.counts[s] + len(unseen.known[s]) for s in range(3)] == rest[:3]
            hidden = [h for s, h in enumerate(deal.hands) if s != 3]  # type: ignore[union-attr]
            union = hidden[0].add(hidden[1]).add(hidden[2])
            known = unseen.known[0].add(unseen.known[1]).add(unseen.known[2]).add(unseen.pooled)
            assert union == unseen.cards.add(known)  # the placeholders hold exactly the cards not seen
            assert len(unseen.cards) + len(unseen.pooled) == sum(unseen.counts)
            observation = mirror.observation()
            assert observation["actionList"] == msg["actionList"] and observation["myPos"] == 3
        if count > 400:
            break
    assert mirror.seat == 3


@pytest.mark.parametrize("seat", range(4))
def test_the_mirror_deal_agrees_with_what_the_seat_knows(seat: int) -> None:
    """Placeholder swaps keep the tribute, return and anti-tribute cards where the seat knows
    them to be, so search on the mirror's deal (unseen cards, sampled worlds) always works."""
    mirror, checked = Mirror(), 0
    for msg in received(_session("session-2"), seat):
        mirror.feed(msg)
        if msg.get("type") == "act" and msg["stage"] == "play":
            deal = mirror.deal
            knowledge = deal.unseen(seat)  # type: ignore[union-attr]
            world = deal.sample_world(seat, checked)  # type: ignore[union-attr]
            assert world.hands[seat] == deal.hands[seat]  # type: ignore[union-attr]
            assert all(world.hands[s].count(card) for s in range(4) for card in knowledge.known[s].distinct())
            checked += 1
    assert checked > 300


def test_messages_the_mirror_cannot_read_raise_protocol_errors() -> None:
    mirror = Mirror(0)
    with pytest.raises(ProtocolError, match="JSON object"):
        mirror.feed(["not", "a", "mapping"])  # type: ignore[arg-type]
    with pytest.raises(ProtocolError, match="unknown message type"):
        mirror.feed({"type": "SHUFFLE"})
    with pytest.raises(ProtocolError, match="unknown stage"):
        mirror.feed({"type": "notify", "stage": "halftime"})
    with pytest.raises(ProtocolError, match="handCards"):
        mirror.feed({"type": "notify", "stage": "beginning", "myPos": 0, "levelCard": "2"})
    with pytest.raises(ProtocolError, match="seat 0-3"):
        mirror.feed({"type": "notify", "stage": "beginning", "myPos": 7, "levelCard": "2", "handCards": []})
    with pytest.raises(ProtocolError, match="dealt to seat 1"):
        mirror.feed({"type": "notify", "stage": "beginning", "myPos": 1, "levelCard": "2", "handCards": []})
    hand = ["S2", "H3"] * 1 + ["D4"] * 2 + [f"{s}{r}" for s in "SHCD" for r in "56789"] + ["HK", "SK", "CK"]
    mirror.feed({"type": "notify", "stage": "beginning", "myPos": 0, "levelCard": "2", "handCards": hand})
    with pytest.raises(ProtocolError, match="actionList"):
        mirror.feed({"type": "act", "stage": "play", "handCards": hand})
    with pytest.raises(ProtocolError, match="curAction"):
        mirror.feed({"type": "notify", "stage": "play", "curPos": 0, "curAction": "PASS", "greaterPos": -1})
    # nothing was applied by the refused messages: the deal still waits for seat 0's lead
    assert mirror.deal is not None and mirror.deal.to_act == 0 and len(mirror.deal.hands[0]) == 27
    assert mirror.departures["unexplained"] == 0


def test_a_play_the_rules_refuse_is_logged_and_taken_as_played(caplog: pytest.LogCaptureFixture) -> None:
    """The server does not check what clients send: a 'pair' of two ranks by seat 0 is
    counted, its cards leave the hand, and the next seat leads."""
    hand = Deal.random(seed=4).hands[0]
    cards = [card for card in hand if card[1] != hand.to_platform()[0][1]][:1] + hand.to_platform()[:1]
    mirror = Mirror(1)
    mirror.feed({"type": "notify", "stage": "beginning", "myPos": 1, "levelCard": "2", "handCards": Deal.random(seed=4).hands[1].to_platform()})
    with caplog.at_level(logging.WARNING, logger="guandan_fast.platform"):
        mirror.feed({"type": "notify", "stage": "play", "curPos": 0, "curAction": ["Pair", "5", cards], "greaterPos": -1})
    assert mirror.departures["unexplained"] == 1 and "which the rules refuse" in caplog.text
    assert mirror.deal is not None and mirror.deal.to_act == 1 and mirror.deal.cards_left() == [25, 27, 27, 27]
    assert len(mirror.unseen().cards) == 108 - 27 - 2 and mirror.unseen().counts == (25, 0, 27, 27)


def test_damaged_messages_raise_only_protocol_errors() -> None:
    """Recorded messages with a field removed or of the wrong type, each fed to a copy of
    the mirror as it stood: it either reads them or raises ProtocolError naming the fault,
    never anything else."""
    rng = random.Random(0)
    mirror, damaged = Mirror(0), 0
    for msg in list(received(_session("session-2"), 0))[:200]:
        for _ in range(2):
            broken = dict(msg)
            key = rng.choice(sorted(broken))
            if rng.random() < 0.5:
                del broken[key]
            else:
                broken[key] = rng.choice([None, 7, "x", [], {}, [[1, 2]], ["PASS"]])
            try:
                copy.deepcopy(mirror).feed(broken)
            except ProtocolError as error:
                damaged += 1
                assert str(error)
        mirror.feed(msg)
    assert damaged > 60 and mirror.departures["unexplained"] == 0


def test_the_recordings_travel_with_the_tests() -> None:
    """A fresh clone replays every recording: none of the tests above may be skipped."""
    names = sorted(path.name for path in RECORDINGS.glob("*.jsonl.gz"))
    assert names == ["session-1.jsonl.gz", "session-2.jsonl.gz", "tribute-tie-game.jsonl.gz"]


def _beginning(seat: int, hand: Hand, level: str = "2") -> dict[str, Any]:
    return {"type": "notify", "stage": "beginning", "myPos": seat, "levelCard": level, "handCards": hand.to_platform()}


def _mirror_until(seed: int, stop: Any) -> tuple[Mirror, Deal, list[Any]]:
    """Seat 0's mirror fed a first deal played by random legal actions (the server's first
    deal is led by seat 0) until ``stop(deal, actions)`` holds after a play; ``actions``
    are the (seat, triple) played so far."""
    rng = random.Random(seed)
    deal = Deal.random(seed, leader=0)
    mirror = Mirror(0)
    mirror.feed(_beginning(0, deal.hands[0]))
    played: list[Any] = []
    while deal.phase == "play":
        seat, last_seat, last = deal.to_act, deal.last_seat, deal.last_move
        beat = last.to_platform() if last is not None else ["PASS", "PASS", "PASS"]
        action = rng.choice(deal.legal_actions())
        deal.step(action)
        mirror.feed({"type": "notify", "stage": "play", "curPos": seat, "curAction": action, "greaterPos": last_seat, "greaterAction": beat})
        played.append((seat, action))
        if stop(deal, played):
            return mirror, deal, played
    raise AssertionError("the deal ended first")


def _trick_won_by_3_with_1_and_2_out(also: Any) -> tuple[Mirror, Deal, list[Any]]:
    """The first seeded position (of 400) where seats 1 and 2 are out, seat 3 played, seat 0
    passed (so by the rules seat 3 leads) and ``also(deal, seat 3's play)`` holds."""

    def stop(deal: Deal, played: list[Any]) -> bool:
        return (
            sorted(deal.finish_order) == [1, 2] and len(played) >= 2 and played[-1] == (0, ["PASS", "PASS", "PASS"])
            and played[-2][0] == 3 and played[-2][1][0] != "PASS" and also(deal, played[-2][1])
        )

    for seed in range(400):
        try:
            return _mirror_until(seed, stop)
        except AssertionError:
            continue
    raise AssertionError("no seed gives the position")


def test_an_act_out_of_turn_with_only_pass_offered_is_a_server_departure() -> None:
    """Seats 1 and 2 out, seat 3 plays, seat 0 passes: by the rules seat 3 leads. The server
    asks seat 3 to beat its own play, then seat 0 again with nothing but PASS offered ("act
    to seat 0, the deal waits for seat 3" was an unexplained departure): both are the
    server's turn order with seats out, answered with its PASS and counted when notified."""

    mirror, deal, played = _trick_won_by_3_with_1_and_2_out(lambda deal, play: True)
    assert deal.to_act == 3 and not deal.following and mirror.departures["unexplained"] == 0
    bomb = played[-2][1]
    mirror.feed({"type": "notify", "stage": "play", "curPos": 3, "curAction": ["PASS", "PASS", "PASS"], "greaterPos": 3, "greaterAction": bomb})
    request = {**act_message(deal, 0), "actionList": [["PASS", "PASS", "PASS"]], "indexRange": 0,
               "greaterPos": 3, "greaterAction": bomb, "curPos": 3, "curAction": ["PASS", "PASS", "PASS"]}
    mirror.feed(request)
    assert mirror.off_rules(request) and mirror.departures["unexplained"] == 0
    assert answer_index(mirror, make_agent("random"), request) == (0, True)
    mirror.feed({"type": "notify", "stage": "play", "curPos": 0, "curAction": ["PASS", "PASS", "PASS"], "greaterPos": 3, "greaterAction": bomb})
    assert mirror.departures["trick_end_skip"] == 2 and mirror.departures["unexplained"] == 0
    assert mirror.deal is not None and mirror.deal.to_act == 3 and not mirror.deal.following and mirror.lost is None


def test_a_trick_reopened_with_a_real_choice_is_a_server_departure_and_followed() -> None:
    """As above, but seat 0 passed although it could beat seat 3's play: after seat 3 passes
    on its own play, the server asks seat 0 again with its moves that beat offered (seen on
    the real server; it was an unexplained departure). The mirror counts it as the server's
    turn order, follows the request (seat 0 to beat seat 3's play), and takes its answer."""

    mirror, deal, played = _trick_won_by_3_with_1_and_2_out(lambda deal, play: len(legal_moves(deal.hands[0], deal.level, play)) > 0)
    assert deal.to_act == 3 and not deal.following and mirror.departures["unexplained"] == 0
    standing = played[-2][1]
    mirror.feed({"type": "notify", "stage": "play", "curPos": 3, "curAction": ["PASS", "PASS", "PASS"], "greaterPos": 3, "greaterAction": standing})
    beating = [move.to_platform() for move in legal_moves(deal.hands[0], deal.level, standing)]
    request = {**act_message(deal, 0), "actionList": [["PASS", "PASS", "PASS"], *beating], "indexRange": len(beating),
               "greaterPos": 3, "greaterAction": standing, "curPos": 3, "curAction": ["PASS", "PASS", "PASS"]}
    # the same request with another hand, or a move to beat not read as one, is not this case
    other_hand = [*request["handCards"][1:], next(c for c in CARD_NAMES if c not in request["handCards"])]
    for doctored in ({**request, "handCards": other_hand}, {**request, "greaterAction": [None, None, standing[2]]}):
        other = copy.deepcopy(mirror)
        other.feed(doctored)
        assert other.departures["trick_end_skip"] == 1 and other.departures["unexplained"] >= 1
    mirror.feed(request)
    assert not mirror.off_rules(request)
    assert mirror.departures["trick_end_skip"] == 2 and mirror.departures["unexplained"] == 0 and mirror.lost is None
    followed = mirror.deal
    assert followed is not None and followed.to_act == 0 and followed.following and followed.last_seat == 3
    assert sorted(map(str, followed.legal_actions()[1:])) == sorted(map(str, beating))
    mirror.feed({"type": "notify", "stage": "play", "curPos": 0, "curAction": beating[0], "greaterPos": 3, "greaterAction": standing})
    assert mirror.departures["unexplained"] == 0 and mirror.deal is not None and mirror.deal.last_seat == 0


def test_a_known_card_played_frees_the_other_copy_for_a_placeholder_swap() -> None:
    """The partner (seat 2) played HT DJ CQ CK SA; its placeholder hand held SA SA, one SA
    known (the tribute it received), and no CK. The known SA is the one played, so the other
    SA may be swapped for the CK (once: "no hidden hand can hold CK for seat 2")."""
    hands = [Hand("S3 S4"), Hand("CK H4 H5"), Hand("SA SA HT DJ CQ"), Hand("D3 D4")]
    played = Hand("HT DJ CQ CK SA")
    swapped = placeholders.swapped_in(hands, 0, 2, played, {2: Hand("SA")})
    assert swapped[2] == played and swapped[1] == Hand("SA H4 H5") and swapped[0] == hands[0]
    # a known card the play does not use stays where it is
    with pytest.raises(ValueError, match="no hidden hand can hold"):
        placeholders.swapped_in([Hand("S3"), Hand("CK"), Hand("SA HT DJ CQ D9"), Hand("D3")], 0, 2, played, {2: Hand("D9")})


def test_a_short_beginning_hand_is_a_protocol_error_and_the_next_request_resyncs() -> None:
    """A ``beginning`` with fewer than 27 cards raised a bare StopIteration (placeholder split);
    now a ProtocolError, the mirror lost for that deal, and rebuilt from the next request."""
    mirror = Mirror(1)
    with pytest.raises(ProtocolError, match="27 cards"):
        mirror.feed({"type": "notify", "stage": "beginning", "myPos": 1, "levelCard": "2", "handCards": ["S3", "H4"]})
    assert mirror.lost is not None and mirror.deal is None
    deal = Deal.random(seed=8, leader=1)
    request = {**act_message(deal, 1), "type": "act", "stage": "play"}
    mirror.feed(request)
    assert mirror.lost is None and mirror.resyncs == 1 and mirror.in_step(request)
    assert mirror.deal is not None and mirror.deal.hands[1] == deal.hands[1] and mirror.deal.to_act == 1
    assert answer_index(mirror, make_agent("random", seed=1), request)[1]


def test_the_own_hand_is_resynced_from_each_play_request() -> None:
    """The server's word on the own hand wins: a request whose handCards differ from the
    mirrored hand is counted and the deal rebuilt from it (the mirror never answers from a
    hand the server does not show). Here the doctored hand took a card another seat then
    plays: the mirror cannot follow that play (a ProtocolError, which the client logs),
    and the next request puts it back in step for the rest of the game."""
    path = _session("session-2")
    mirror, doctored, faults = Mirror(2), [], []
    for msg in received(path, 2):
        if not doctored and msg.get("type") == "act" and msg["stage"] == "play" and len(msg["handCards"]) > 20 and mirror.deal is not None:
            unseen = mirror.unseen().cards.distinct()
            swap = next(c for c in unseen if CARD_NAMES[c] not in msg["handCards"])
            hand = [*msg["handCards"][1:], CARD_NAMES[swap]]
            msg = {**msg, "handCards": hand}
            doctored.append(hand)
            mirror.feed(msg, check=False)  # its actionList is of the real hand
            assert mirror.deal is not None and mirror.deal.hands[2] == Hand(hand) and mirror.in_step(msg)
            assert mirror.departures["unexplained"] == 1 and mirror.resyncs == 1
            continue
        try:
            mirror.feed(msg)
        except ProtocolError as error:
            faults.append(str(error))
    assert doctored and mirror.lost is None and mirror.resyncs == 2  # the next request restores the real hand
    assert faults == [] or all("no hidden hand can hold" in fault for fault in faults)
    episodes = [r["msg"]["order"] for r in recording(path) if r["seat"] == 2 and r["msg"].get("stage") == "episodeOver"]
    assert [server for server, _ in mirror.finish_orders] == episodes


def test_a_deal_restarted_from_the_servers_turn_order_keeps_its_match() -> None:
    """The mirror restarts its deal where the server's turn order leaves the rules; the
    restarted deal keeps whose level it is played at and the failures at A (the search
    agent's match objective reads them: both at A, only the deal's team can win)."""
    mirror = Mirror(0)
    deal = Deal.start(["S3 S4", "S5 S6", "S7 S8", "S9 ST"], 14, leader=0, rules=Rules.openguandan(),
                      team_levels=(14, 14), deal_team=1, failures_at_a=(2, 1))
    deal.step(["Single", "3", ["S3"]])
    led = mirror._led_by(deal, 2)
    refused = mirror._after_refused_play(deal, 1, Hand("S5"))
    for restarted in (led, refused):
        assert (restarted.deal_team, restarted.failures_at_a, restarted.team_levels) == (1, (2, 1), (14, 14))
    assert led.to_act == 2 and not led.following and refused.hands[1] == Hand("S6")


def test_the_mirror_keeps_the_match_across_real_deals_at_a() -> None:
    """A recorded game with many deals at A: every mirrored deal (and a stand-in built from
    its request) is played at the level of the team that went out first in the deal
    before, and carries the failures at A, which are counted for teams at A only."""
    seen: dict[int, tuple[int, int | None, tuple[int, int], tuple[int, int]]] = {}  # by deal, its first request
    previous: list[int] = []

    def doctor(mirror: Mirror, msg: dict[str, Any]) -> list[dict[str, Any]]:
        if msg.get("stage") == "episodeOver":
            previous[:] = msg["order"]
        deal, index = mirror.deal, len(mirror.finish_orders)
        if msg.get("type") == "act" and msg.get("stage") == "play" and deal is not None and index not in seen:
            expected = previous[0] % 2 if previous and deal.level != 2 else None  # a new game starts at 2
            assert deal.deal_team == expected
            lost = copy.deepcopy(mirror)
            lost.lost = "a test"  # out of step: the request alone gives the deal
            stand_in = lost.answer_deal(msg)
            assert stand_in is not None and stand_in is not deal
            assert (stand_in.deal_team, stand_in.failures_at_a) == (deal.deal_team, deal.failures_at_a)
            seen[index] = (deal.level, deal.deal_team, deal.team_levels, deal.failures_at_a)
        return [msg]

    mirror = _replay_with(_session("session-1"), 0, doctor)
    assert mirror.departures["unexplained"] == 0 and len(seen) > 20
    assert all(failures[t] == 0 or levels[t] == 14 for _, _, levels, failures in seen.values() for t in (0, 1))
    assert any(level == 14 and sum(failures) > 0 for level, _, _, failures in seen.values())  # failures at A, carried
