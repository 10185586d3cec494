"""A match: deals from level 2 until a team wins at A (RULES.md §7-8), scored by
:func:`~guandan_fast.engine.scoring.score_deal`."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from .cards import level_char, seeded_random
from .deal import Action, Deal, check_replayed_turn, deal_cards
from .observation import Observation
from .rules import Rules, check_rules
from .scoring import check_team_levels, finish_outcome, score_deal
from .subclassing import copy_extra_state, extra_state, set_extra_state

__all__ = ["Match"]

#: A match's own attributes (``__init__`` and ``_begin`` set them; a test keeps this in step):
#: a subclass's pickle carries every other attribute, and never these.
_MATCH_FIELDS = frozenset(
    {"rules", "_rng", "_first_stream", "_levels", "_over", "winner", "deals_played", "records", "_deals_before", "deal"}
)


@dataclass
class _DealRecord:
    level: int
    finish_order: list[int]
    levels_after: tuple[int, int]
    tribute: dict[str, Any] = field(default_factory=dict)

    @property
    def outcome(self) -> tuple[int, int]:
        """``(winning team, levels up)``, as :attr:`Deal.outcome`."""
        return finish_outcome(self.finish_order)


class Match:
    """A match: deals from level 2 until a team wins at A (RULES.md §7-8).

    Team 0 is seats 0 and 2, team 1 seats 1 and 3. The first deal is played at level 2
    with a random leader; each later deal at the level of the team that finished first in
    the previous one, beginning with the tribute. Hands and first leader come from
    ``seed``. :meth:`step` plays one action of the current deal and starts the next deal
    when it ends.
    """

    def __init__(self, seed: int | str | bytes | None = None, rules: Rules | None = None) -> None:
        self.rules = check_rules(rules)
        self._rng = seeded_random(seed)
        self._begin()

    def _begin(self) -> None:
        """The first deal, dealt from the random stream as it stands (kept for pickling)."""
        self._first_stream = self._rng.getstate()
        self._levels = [2, 2]
        self._over = False
        self.winner: int | None = None
        self.deals_played = 0
        self.records: list[_DealRecord] = []
        self._deals_before: list[Deal] = []  # the deals played before this one, done
        hands = deal_cards(self._rng)
        leader = self._rng.randrange(4)  # drawn with first_leader too: later deals stay the same
        if self.rules.first_leader is not None:
            leader = self.rules.first_leader
        self.deal = Deal.start(hands, 2, leader=leader, rules=self.rules, team_levels=(2, 2))

    def clone(self) -> Match:
        """An independent copy: its own deal, random stream and records, so both go on
        identically and neither changes the other. ``copy.copy`` and ``copy.deepcopy``
        make the same; a match pickles by value. A subclass's copy is of that subclass, with
        its own attributes (shallow copies here and in ``copy.copy``, deep ones in
        ``copy.deepcopy``)."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        if type(self) is not Match:
            copy_extra_state(self, other, Match, frozenset(self.__dict__))  # its slots (the dict is copied above)
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other._levels = list(self._levels)
        other.records = [
            _DealRecord(r.level, list(r.finish_order), r.levels_after, copy.deepcopy(r.tribute)) for r in self.records
        ]
        other._deals_before = list(self._deals_before)
        other.deal = self.deal.clone()
        return other

    def __copy__(self) -> Match:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        other = self.clone()
        if type(self) is not Match:  # a subclass's own attributes, deeply
            memo[id(self)] = other
            copy_extra_state(self, other, Match, _MATCH_FIELDS, memo)
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        """A match pickles as its rules, its random stream as the first deal was dealt, every
        action of every deal and its deal's team levels (a public setting); unpickling
        replays them through :meth:`step`, so a damaged pickle is refused with the ValueError
        or TypeError a step gives, and what it makes is a match :meth:`step` reaches. A
        subclass's match is replayed into that subclass (whose ``__init__`` is not called,
        as pickle does) and given back its own attributes."""
        if self.deal.rules != self.rules or self.deal._replaced or (self.deal.done and not self.over):
            raise ValueError(
                "a Match whose deal has other rules, replaced hands, or ended outside Match.step cannot be pickled: "
                "it is no replay"
            )
        actions = [deal.history for deal in (*self._deals_before, self.deal)]
        replay = (self.rules, self._first_stream, actions, self.deal.team_levels)
        if type(self) is Match:
            return (_replay_match, replay)
        return (_replay_match, (*replay, type(self)), extra_state(self, Match, _MATCH_FIELDS))

    def __setstate__(self, state: object) -> None:
        """A subclass's own attributes, after its replay; a Match's own state is refused."""
        if type(self) is Match:
            raise TypeError("a Match is unpickled by replaying its actions, never from raw state")
        set_extra_state(self, state, Match, _MATCH_FIELDS)

    @property
    def levels(self) -> tuple[int, int]:
        """The two teams' levels (2..14, 14 = A)."""
        return (self._levels[0], self._levels[1])

    @property
    def over(self) -> bool:
        """Whether the match has ended: won by :attr:`winner`, or a draw (winner None)
        when :attr:`Rules.deal_cap` deals ended with equal levels."""
        return self._over

    @property
    def to_act(self) -> int | None:
        """The seat whose action is awaited (None once the match is over)."""
        return None if self.over else self.deal.to_act

    @property
    def current_seat(self) -> int:
        """The seat whose action is awaited as an ``int`` (:attr:`Deal.current_seat`):
        ValueError once the match is over."""
        if self.over:
            raise ValueError(f"the match is over: {self._result()}")
        return self.deal.current_seat

    def legal_actions(self) -> list[list[Any]]:
        return [] if self.over else self.deal.legal_actions()

    def observation(self, seat: int) -> Observation:
        return self.deal.observation(seat)

    def step(self, action: Action) -> None:
        """Play ``action`` in the current deal; when the deal ends, score it and deal the next."""
        if self.over:
            raise ValueError(f"the match is over: {self._result()}")
        self.deal.step(action)
        if self.deal.phase == "done":
            self._score(self.deal)

    def _score(self, deal: Deal) -> None:
        finish = deal.finish_order
        result = score_deal(
            self.levels, deal.level, finish, rules=self.rules, failures=deal.failures_at_a, deal_team=deal.deal_team
        )
        self._levels = list(result.levels)
        self.winner = result.winner
        self.deals_played += 1
        self.records.append(_DealRecord(deal.level, finish, self.levels, deal.tribute))
        cap = self.rules.deal_cap
        if self.winner is None and cap is not None and self.deals_played >= cap:
            low, high = self._levels
            self.winner = None if low == high else int(high > low)
            self._over = True
        if self.winner is not None:
            self._over = True
        if self._over:
            return
        self._deals_before.append(deal)
        self.deal = Deal.start(
            deal_cards(self._rng),
            self._levels[result.team],
            previous_finish=finish,
            rules=self.rules,
            team_levels=self.levels,
            failures_at_a=result.failures,
        )

    def _result(self) -> str:
        return "a draw" if self.winner is None else f"team {self.winner} won"

    def __repr__(self) -> str:
        state = self._result() if self.over else f"deal {self.deals_played + 1} {self.deal.phase}"
        return f"<Match levels {level_char(self._levels[0])}/{level_char(self._levels[1])}, {state}>"


def _replay_match(rules: object, first_stream: object, deals: object, team_levels: object, kind: object = None) -> Match:
    """A pickled :class:`Match` (of the subclass ``kind``, if any): dealt from
    ``first_stream`` under ``rules``, then every action of every deal through
    :meth:`Match.step`, each deal ending where the next begins."""
    if kind is None:
        kind = Match
    elif not (isinstance(kind, type) and issubclass(kind, Match)):
        raise TypeError(f"not a pickled Match: its class must be Match or a subclass, not {kind!r}")
    match = kind.__new__(kind)
    match.rules = check_rules(rules)
    match._rng = random.Random()
    try:
        match._rng.setstate(first_stream)  # type: ignore[arg-type]
    except (TypeError, ValueError, IndexError, KeyError, OverflowError) as error:  # what setstate raises on junk
        raise ValueError(f"not a pickled Match: a bad random state ({type(error).__name__}: {error})") from None
    Match._begin(match)  # the base's methods: a subclass's may read attributes given back later
    if not isinstance(deals, list) or not deals:
        raise TypeError("not a pickled Match: its deals must be a non-empty list of action lists")
    for number, actions in enumerate(deals):
        if not isinstance(actions, list):
            raise TypeError(f"not a pickled Match: deal {number + 1}'s actions must be a list, not {type(actions).__name__}")
        if len(match._deals_before) != number:
            raise ValueError(f"not a pickled Match: deal {number + 1} begins before deal {number} ended")
        for entry in actions:
            if not isinstance(entry, tuple) or len(entry) != 2:
                raise TypeError("not a pickled Match: an action must be a (seat, action) pair")
            seat, action = entry
            check_replayed_turn(match.deal, seat, "Match")  # (a match over has a deal done: no seat acts)
            Match.step(match, action)
    if len(match._deals_before) != len(deals) - 1:
        raise ValueError("not a pickled Match: its last deal ended, and no deal follows")
    match.deal.team_levels = check_team_levels(team_levels, "a pickled Match's team levels")
    return match
