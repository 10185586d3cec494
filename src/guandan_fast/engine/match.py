"""A match: deals from level 2 until a team wins at A (RULES.md §7-8), scored by
:func:`~guandan_fast.engine.scoring.score_deal`."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from .cards import bounded, check_flag, level_char, parse_level, seeded_random
from .deal import Action, Deal, deal_cards
from .observation import Observation
from .rules import Rules, check_rules
from .scoring import check_finish_order, check_team_levels, finish_outcome, score_deal

__all__ = ["Match"]


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
        self._levels = [2, 2]
        self._over = False
        self.winner: int | None = None
        self.deals_played = 0
        self.records: list[_DealRecord] = []
        hands = deal_cards(self._rng)
        leader = self._rng.randrange(4)  # drawn with first_leader too: later deals stay the same
        if self.rules.first_leader is not None:
            leader = self.rules.first_leader
        self.deal = Deal.start(hands, 2, leader=leader, rules=self.rules, team_levels=(2, 2))

    def clone(self) -> Match:
        """An independent copy: its own deal, random stream and records, so both go on
        identically and neither changes the other. ``copy.copy`` and ``copy.deepcopy``
        make the same; a match pickles by value."""
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other._levels = list(self._levels)
        other.records = [
            _DealRecord(r.level, list(r.finish_order), r.levels_after, copy.deepcopy(r.tribute)) for r in self.records
        ]
        other.deal = self.deal.clone()
        return other

    def __copy__(self) -> Match:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        """A match pickles as its rules, random stream, levels, result, records and current
        deal (which pickles as its own replay); unpickling checks each and that they agree,
        so a damaged pickle is refused with a ValueError or TypeError."""
        records = [(r.level, list(r.finish_order), r.levels_after, copy.deepcopy(r.tribute)) for r in self.records]
        state = (self._rng.getstate(), self.levels, self._over, self.winner, self.deals_played, records)
        return (_restore_match, (self.rules, *state, self.deal))

    def __setstate__(self, state: object) -> None:
        raise TypeError("a Match is unpickled from its checked parts, never from raw state")

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return self.clone()

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


def _restore_match(
    rules: object,
    random_state: object,
    levels: object,
    over: object,
    winner: object,
    deals_played: object,
    records: object,
    deal: object,
) -> Match:
    """A pickled :class:`Match`, each part checked and the parts checked against each other."""
    match = Match.__new__(Match)
    match.rules = check_rules(rules)
    match._rng = random.Random()
    try:
        match._rng.setstate(random_state)  # type: ignore[arg-type]
    except (TypeError, ValueError) as error:
        raise ValueError(f"a pickled Match holds a bad random state ({error})") from None
    match._levels = list(check_team_levels(levels, "a pickled Match's levels"))
    match._over = check_flag(over, "a pickled Match's over")
    match.winner = None if winner is None else bounded(winner, "a pickled Match's winner", 0, 1)
    match.deals_played = bounded(deals_played, "a pickled Match's deals played", 0, 2**31 - 1)
    match.records = _check_records(records, match.deals_played)
    if not isinstance(deal, Deal):
        raise TypeError(f"a pickled Match's deal must be a Deal, not {type(deal).__name__}")
    match.deal = deal
    fault = _disagreement(match)
    if fault:
        raise ValueError(f"a pickled Match does not hold together: {fault}")
    return match


def _check_records(records: object, deals_played: int) -> list[_DealRecord]:
    if not isinstance(records, list):
        raise TypeError(f"a pickled Match's records must be a list, not {type(records).__name__}")
    if len(records) != deals_played:
        raise ValueError(f"a pickled Match records {len(records)} deals of the {deals_played} it played")
    checked = []
    for entry in records:
        if not isinstance(entry, tuple) or len(entry) != 4 or not isinstance(entry[3], dict):
            raise TypeError("a pickled Match's record must be (level, finish order, levels after, tribute dict)")
        level, finish, after, tribute = entry
        checked.append(_DealRecord(parse_level(level), check_finish_order(finish), check_team_levels(after), tribute))
    return checked


def _disagreement(match: Match) -> str | None:
    """What makes a match's parts inconsistent, or None: the deal's rules, its levels, the
    result and the deal cap must tell the same story as the match played through
    :meth:`Match.step` would."""
    deal, cap = match.deal, match.rules.deal_cap
    if deal.rules != match.rules:
        return "its deal plays by other rules"
    if match.records and match.records[-1].levels_after != match.levels:
        return f"its levels {match.levels} are not those after its last deal {match.records[-1].levels_after}"
    if match.winner is not None and not match.over:
        return f"team {match.winner} won a match that is not over"
    if match.over:
        if not deal.done or not match.records:
            return "it is over before its deal ended"
        if match.winner is None and not (cap is not None and match.deals_played >= cap and match._levels[0] == match._levels[1]):
            return "it ended in a draw without reaching its deal cap at equal levels"
        return None
    if deal.done:
        return "its deal is done but the next deal was not dealt"
    if deal.team_levels != match.levels:
        return f"its deal is played with team levels {deal.team_levels}, the match's are {match.levels}"
    if cap is not None and match.deals_played >= cap:
        return f"it played {match.deals_played} deals with a cap of {cap} and is not over"
    return None
