"""A plain-Python transcription of DanZero's 513-dim state and 54-dim action vector.

Written from the published client (facts only, no code copied):
AltmanD/guandan_mcc at commit e816ca3, ``rl-frame/actor_n/game.py`` (``MyClient``:
``received_message``, ``proc_universal``, ``prepare``) and ``rl-frame/actor_n/utils/utils.py``
(``CardToNum``, ``card2num``, ``card2array``). It is the oracle the native ``"danzero"``
layout of :mod:`guandan_fast.encode` is compared with, bit for bit.

Facts of their layout (``x_no_action``, float32, in this order):

* 54 own hand, 12 wildcard flags, 54 cards not yet seen (2 - own hand at the first play
  request - cards the other seats played), 54 latest recorded action, 54 partner's latest
  recorded action, 54 + 54 + 54 cards played by the next seat, the partner and the previous
  seat, 28 + 28 + 28 cards left of the same three (one-hot of 0..27), 13 + 13 + 13 level
  one-hots (own team, opponents, the deal's level; index = rank - 2).
* A 54-vector holds counts 0/1/2 in one plane at ``4 * (rank - 2) + suit`` with suits in
  the order H S C D (their card number is ``13 * suit + rank - 2`` and the 4x13 matrix is
  flattened column-major), then SB at 52 and HR at 53. An empty card list is all zeros and
  the one-element list ``[-1]`` is all -1.
* The client keeps one action list for the table and one per seat; a PASS is recorded as
  the empty list. Once seats are out it inserts markers: ``[-1]`` for an out seat and ``[]``
  for a seat it believes was skipped, at the places listed in :class:`DanZeroClient`.
* Latest action: the last entry of the table list (``[-1]``, i.e. all -1, before any action).
  Partner's: the last entry of the partner's list, all -1 when the partner is out or has
  no entry yet.
* Cards played per seat: counts over the concatenation of its list (markers add nothing).
* Wildcard flags: see :func:`wildcard_flags`.
* The action vector of a legal action is the 54-vector of its cards (PASS: zeros).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from guandan_fast import Deal
from guandan_fast.engine.cards import RANKS

STATE_SIZE = 513
#: Offsets of the two "latest action" fields in the 513 numbers.
DZ_LATEST = 54 + 12 + 54
DZ_PARTNER = DZ_LATEST + 54
# Their suit order inside a rank's column of four.
DANZERO_SUITS = "HSCD"
#: One-hot of a level: index = rank - 2 (their RANK table minus one).
LEVEL_INDEX = {rank: i for i, rank in enumerate(RANKS)}


def danzero_number(card: str) -> int | None:
    """Their card number (0..53) of a platform card name; None for anything else
    (so the characters of the string ``"PASS"`` map to nothing, as in their client)."""
    if card == "SB":
        return 52
    if card == "HR":
        return 53
    if len(card) != 2 or card[0] not in DANZERO_SUITS or card[1] not in RANKS:
        return None
    return 13 * DANZERO_SUITS.index(card[0]) + RANKS.index(card[1])


def numbers(cards: Any) -> list[int]:
    """The card numbers of a triple's card field (a list of names, or the string PASS)."""
    if cards is None:
        return []
    return [n for n in (danzero_number(c) for c in cards) if n is not None]


def card_vector(entry: Sequence[int]) -> np.ndarray:
    """54 counts of a card-number list; zeros when empty, all -1 for exactly ``[-1]``."""
    if len(entry) == 0:
        return np.zeros(54, dtype=np.int8)
    if list(entry) == [-1]:
        return -np.ones(54, dtype=np.int8)
    out = np.zeros(54, dtype=np.int8)
    for number, times in Counter(entry).items():
        if number == -1:
            continue
        if number < 52:
            suit, rank = divmod(number, 13)
            out[4 * rank + suit] = times
        else:
            out[number] = times
    return out


def wildcard_flags(hand: np.ndarray, level: int) -> np.ndarray:
    """Their 12 flags about the heart of the level rank (``proc_universal``).

    ``hand`` is the 54-vector of counts, ``level`` 2..14. All zero without a wildcard;
    else flag 0 is set and:

    * flag 1: some suit has five consecutive ranks among 2..K, the window starting at
      rank 2..9 (their sliding loop stops before testing T-J-Q-K-A), with at most one
      rank missing (the wildcard's own slot counts as missing);
    * flags 2..7: a ladder from ``c``, the most suits held of one rank (the wildcard's slot
      not counted): ``c >= 6`` sets 2..7, 5 sets 3..7, 4 sets 4..7, 3 sets 5..7, 2 sets
      6..7, otherwise 7 alone (``c`` counts suits, not cards, so it never exceeds 4);
    * flag 8: the run of consecutive held ranks that ends at A is at least 4 long;
    * flag 9: two neighbouring ranks with suit counts (2, >=3) or (>=3, 2);
    * flag 10: three neighbouring ranks whose suit counts are (1, >=2, >=2),
      (>=2, 1, >=2) or (>=2, >=2, 1);
    * flag 11: two neighbouring ranks with two suits each, tested only where flag 9's
      test fails.
    """
    flags = np.zeros(12, dtype=np.int8)
    wild = 4 * (level - 2)  # heart is their first suit
    if hand[wild] == 0:
        return flags
    flags[0] = 1

    def held(position: int) -> int:
        return 0 if position == wild else int(hand[position])

    for suit in range(4):
        for start in range(8):
            missing = sum(1 for r in range(start, start + 5) if held(suit + 4 * r) == 0)
            if missing <= 1:
                flags[1] = 1
    suits_held = [sum(1 for s in range(4) if held(s + 4 * r) != 0) for r in range(13)]
    most = max(suits_held)
    first = 7 if most <= 1 else max(2, 8 - most)
    flags[first:8] = 1
    run = 0
    for r, count in enumerate(suits_held):
        if count == 0:
            run = 0
            continue
        run += 1
        if r >= 1:
            before = suits_held[r - 1]
            if (count == 2 and before >= 3) or (count >= 3 and before == 2):
                flags[9] = 1
            elif count == 2 and before == 2:
                flags[11] = 1
        if r >= 2:
            a, b, c = suits_held[r - 2], suits_held[r - 1], count
            if (a == 1 and b >= 2 and c >= 2) or (a >= 2 and b == 1 and c >= 2) or (a >= 2 and b >= 2 and c == 1):
                flags[10] = 1
    if run >= 4:
        flags[8] = 1
    return flags


def _one_hot(size: int, index: int) -> np.ndarray:
    out = np.zeros(size, dtype=np.int8)
    out[index] = 1
    return out


class DanZeroClient:
    """One seat's bookkeeping, fed the platform's play notifications in order.

    Marker rules (``over`` = seats out before the action, ``F`` the first out, ``S`` the
    second; ``stage`` starts at 1 at the seat's first play request):

    * nobody out: record the action;
    * one out: an action of the seat before F (F+3) is followed by ``[-1]`` for F; if it
      is a pass while every action since F went out was a pass, ``[]`` for F+1 follows too.
      The first non-pass (or that pass of F+3) moves ``stage`` to 2;
    * two out (adjacent seats): an action of the seat whose next seat is out is followed by
      ``[-1]`` for that seat and ``[-1]`` for the one after; if it is a pass while every
      action since S went out was a pass and the seat is S's partner, ``[]`` for the seat
      after those two follows. The first non-pass or that pass moves ``stage`` to 3.

    Cards left start at 27 and drop by the cards of each action; a seat at 0 is out.
    """

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.table: list[list[int]] = []
        self.per_seat: dict[int, list[list[int]]] = {s: [] for s in range(4)}
        self.remaining = dict.fromkeys(range(4), 27)
        self.unseen = [2] * 54
        self.over: list[int] = []
        self.stage = 0

    def _add(self, seat: int, entry: list[int]) -> None:
        self.table.append(entry)
        self.per_seat[seat].append(entry)

    def notify_play(self, seat: int, cards: Any) -> None:
        action = numbers(cards)
        if seat != self.seat:
            for number in action:
                self.unseen[number] -= 1
        self._record(seat, action)
        self.remaining[seat] -= len(action)
        if self.remaining[seat] == 0:
            self.over.append(seat)

    def _record(self, seat: int, action: list[int]) -> None:
        over = self.over
        self._add(seat, action)
        if len(over) == 1:
            first = over[0]
            if action and self.stage == 1:
                self.stage = 2
                if seat == (first + 3) % 4:
                    self._add(first, [-1])
            elif not action and self.stage == 1 and (seat + 1) % 4 == first:
                self.stage = 2
                self._add(first, [-1])
                self._add((seat + 2) % 4, [])
            elif self.stage == 2 and seat == (first + 3) % 4:
                self._add(first, [-1])
        elif len(over) == 2:
            next_out = (seat + 1) % 4 in over
            if action and self.stage <= 2:
                self.stage = 3
                if next_out:
                    self._add((seat + 1) % 4, [-1])
                    self._add((seat + 2) % 4, [-1])
            elif not action and self.stage <= 2 and next_out:
                self.stage = 3
                self._add((seat + 1) % 4, [-1])
                self._add((seat + 2) % 4, [-1])
                if seat == (over[-1] + 2) % 4:
                    self._add((seat + 3) % 4, [])
            elif self.stage == 3 and next_out:
                self._add((seat + 1) % 4, [-1])
                self._add((seat + 2) % 4, [-1])

    def play_request(self, hand_cards: Iterable[str]) -> None:
        """A play request reached the seat: at the first, its hand leaves the unseen count."""
        if self.stage == 0:
            for number in numbers(list(hand_cards)):
                self.unseen[number] -= 1
            self.stage = 1

    def prepare(self, hand_cards: Sequence[str], self_rank: str, oppo_rank: str, cur_rank: str) -> np.ndarray:
        """The 513 numbers of their ``x_no_action`` (float32)."""
        seat, partner = self.seat, (self.seat + 2) % 4
        hand = card_vector(numbers(hand_cards))
        unseen = card_vector([n for n in range(54) for _ in range(self.unseen[n])])
        latest = card_vector(self.table[-1] if self.table else [-1])
        mine = self.per_seat[partner]
        partner_latest = card_vector(mine[-1] if mine and partner not in self.over else [-1])
        played = [card_vector([n for entry in self.per_seat[(seat + k) % 4] for n in entry]) for k in (1, 2, 3)]
        left = [_one_hot(28, self.remaining[(seat + k) % 4]) for k in (1, 2, 3)]
        levels = [_one_hot(13, LEVEL_INDEX[r]) for r in (self_rank, oppo_rank, cur_rank)]
        parts = [hand, wildcard_flags(hand, LEVEL_INDEX[cur_rank] + 2), unseen, latest, partner_latest]
        return np.concatenate(parts + played + left + levels).astype(np.float32)


def action_vectors(action_list: Sequence[Sequence[Any]]) -> np.ndarray:
    """Their per-action 54-vectors (``my_action_batch``), as int8."""
    out = np.zeros((len(action_list), 54), dtype=np.int8)
    for row, triple in enumerate(action_list):
        out[row] = card_vector(numbers(triple[2]))
    return out


def reference_state(deal: Deal, seat: int) -> np.ndarray:
    """What their ``prepare`` computes for ``seat`` now, from the deal's public record.

    The client is replayed: every play-phase action is notified in order, and the seat's
    first play request arrives just before its first action (its hand then is its hand
    now plus every card it has played since).
    """
    observation = deal.observation(seat)
    plays = [(s, triple) for s, triple in observation["history"] if triple[0] not in ("tribute", "back")]
    client = DanZeroClient(seat)
    first_hand = list(observation["handCards"]) + [c for s, t in plays if s == seat and t[0] != "PASS" for c in t[2]]
    for actor, triple in plays:
        if actor == seat:
            client.play_request(first_hand)
        client.notify_play(actor, triple[2])
    client.play_request(first_hand)
    return client.prepare(
        observation["handCards"], observation["selfRank"], observation["oppoRank"], observation["curRank"]
    )
