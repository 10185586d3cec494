"""The rule options (:class:`Rules`, RULES.md §10), below the game and the tribute rules."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .cards import bounded, check_flag, check_seat, parse_level

__all__ = ["DEFAULT_RULES", "Rules", "check_rules"]


@dataclass(frozen=True)
class Rules:
    """Rule options for regional variants (RULES.md §10) and for the OpenGuanDan server
    (:meth:`openguandan`); every option is off by default (the national rules).

    Match and levels:

    ``fail_at_a_limit``
        ``None`` (national rules: a team may fail at A forever) or N ≥ 1: after N failed
        deals at A — the team played at A and either did not finish first, or finished
        first with its partner last — the team's level goes back to ``fail_at_a_level``
        (with ``a_needs_double_up`` a 1-3 finish at A is neither a win nor a failure).
    ``fail_at_a_level``
        the level a team falls back to (2 in one seed text, J in another); a rank
        character or an integer 2-14. Only used with ``fail_at_a_limit``.
    ``fail_at_a_then_up``
        when the failure that reaches the limit is a first place (the team goes up in that
        deal), the team falls back first and then goes up: 2 + 1 = level 3 after a first
        place with the partner last (the server's order). Off: the fall back stands.
    ``at_a_only_own_deal``
        a team plays at A — may win, or fail at A — only in a deal played at its own level,
        i.e. when it finished first in the previous deal; when both teams are at A the
        other team's first place only counts as a first place. Off: every team at A plays
        at A in any deal played at A.
    ``a_needs_double_up``
        a team playing at A wins only by finishing first and second (1-2). Off: first with
        the partner not last (1-2 or 1-3).
    ``reaching_a_wins``
        the match ends as soon as a team's level reaches A; that team wins.
    ``deal_cap``
        ``None`` or N ≥ 1: after N deals the team with the higher level wins the match;
        equal levels are a draw (:attr:`Match.over` with :attr:`Match.winner` None).
    ``first_leader``
        the seat that leads the first deal of a :class:`Match` (``None``: random from the
        match's seed).

    Tribute and return:

    ``no_tribute_between_partners``
        in a 1-4 finish (the last player is the first player's partner) there is no
        tribute and the first player leads. Off: the partner pays, as in the national rules.
    ``return_level_rank``
        cards of the level rank (the wildcards too) may be returned when their natural
        rank is 2-10 (RULES.md §9 Choice). Off: never.
    ``return_received_card``
        the card just received as tribute may be returned if it qualifies. Off: not that
        card (another copy of it held before may be).
        With either of these two off, a receiver left with no card to return falls back to
        the national choice over its whole hand (rank 2-10, else the lowest power).
    ``double_tribute_by_rank``
        a double tribute's two cards are compared by natural rank (2 … A, then ``SB``,
        ``HR``; a level card counts at its natural place) to decide who receives which,
        and the leader is the payer of the stronger card by power — with two level cards
        the payer who paid the second player. Off: compared by power, and the payer of the
        first player leads.
    """

    fail_at_a_limit: int | None = None
    fail_at_a_level: int | str = 2
    fail_at_a_then_up: bool = False
    at_a_only_own_deal: bool = False
    a_needs_double_up: bool = False
    reaching_a_wins: bool = False
    deal_cap: int | None = None
    first_leader: int | None = None
    no_tribute_between_partners: bool = False
    return_level_rank: bool = True
    return_received_card: bool = True
    double_tribute_by_rank: bool = False

    def __post_init__(self) -> None:
        for name in ("fail_at_a_limit", "deal_cap"):
            limit = getattr(self, name)
            if limit is not None:  # a numpy integer counts as the int it equals
                object.__setattr__(self, name, bounded(limit, f"Rules.{name}, when set,", 1))
        object.__setattr__(self, "fail_at_a_level", parse_level(self.fail_at_a_level))
        if self.first_leader is not None:
            object.__setattr__(self, "first_leader", check_seat(self.first_leader, "Rules.first_leader"))
        for name in (
            "fail_at_a_then_up",
            "at_a_only_own_deal",
            "a_needs_double_up",
            "reaching_a_wins",
            "no_tribute_between_partners",
            "return_level_rank",
            "return_received_card",
            "double_tribute_by_rank",
        ):
            object.__setattr__(self, name, check_flag(getattr(self, name), f"Rules.{name}"))

    def __reduce__(self) -> tuple[Any, ...]:
        """Rules pickle as their options and unpickle through the constructor, so a damaged
        pickle is refused with the TypeError or ValueError the options' checks give."""
        return (type(self), tuple(getattr(self, option.name) for option in fields(self)))

    def __setstate__(self, state: object) -> None:
        raise TypeError("Rules are unpickled from their options, through Rules(...), never from raw state")

    @classmethod
    def openguandan(cls) -> Rules:
        """The OpenGuanDan competition server's rules, where it departs from the national
        rules in a way a simulator can reproduce (its code and 1,000 recorded deals): the
        first deal led by seat 0; three failures at A send a team back to 2, counted as
        the server counts them (only in a deal played at the team's own level; a third
        failure that is a first place with the partner last gives level 3); return lists
        without level-rank cards and without the card just received; a double tribute
        compared by natural rank, with the server's leader. The server's plain bugs (ties
        decided by arrival order, one suit offered in tribute lists, lost messages) are
        not rules and are not reproduced."""
        return cls(
            fail_at_a_limit=3,
            fail_at_a_level=2,
            fail_at_a_then_up=True,
            at_a_only_own_deal=True,
            first_leader=0,
            return_level_rank=False,
            return_received_card=False,
            double_tribute_by_rank=True,
        )


DEFAULT_RULES = Rules()


def check_rules(rules: object) -> Rules:
    """The rules a deal or match uses: ``None`` means the national rules."""
    if rules is None:
        return DEFAULT_RULES
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a guandan_fast.Rules, not {type(rules).__name__}")
    return rules
