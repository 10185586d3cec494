"""The rule options as command-line flags, one set for ``play``, ``arena`` and ``selfplay``:
:func:`add_rules_options` declares them and :func:`rules_from_args` builds the
:class:`~guandan_fast.Rules` they name (validated by ``Rules`` itself)."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable
from typing import Any, Final

from ..engine.cards import check_seat
from ..engine.rules import Rules
from ._args import positive

#: The presets ``--rules`` starts from; the other flags change single options of it.
PRESETS: Final[dict[str, Callable[[], Rules]]] = {"national": Rules, "openguandan": Rules.openguandan}


def _seat(text: str) -> int:
    try:
        return check_seat(int(text))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


#: ``(Rules field, flag, value type, metavar, help)``; a ``bool`` field is a pair of flags
#: ``--flag``/``--no-flag``; ``no_tribute_between_partners`` reads as ``--no-partner-tribute``.
_VALUED: Final = (
    ("fail_at_a_limit", "--fail-at-a", positive, "N", "N failed deals at A send a team back"),
    ("fail_at_a_level", "--fail-at-a-level", str, "LEVEL", "where --fail-at-a sends a team (2..A, default 2)"),
    ("deal_cap", "--deal-cap", positive, "N", "end each match after N deals, the higher level winning"),
    ("first_leader", "--first-leader", _seat, "SEAT", "the seat that leads a match's first deal"),
)
_SWITCHES: Final = (
    ("fail_at_a_then_up", "--fail-at-a-then-up", "a failure at A that is a first place falls back, then goes up"),
    ("at_a_only_own_deal", "--at-a-only-own-deal", "a team plays at A only in a deal at its own level"),
    ("a_needs_double_up", "--a-needs-double-up", "winning at A needs a 1-2 finish"),
    ("reaching_a_wins", "--reaching-a-wins", "reaching level A wins the match"),
    ("return_level_rank", "--return-level-rank", "level-rank cards of rank 2-10 may be returned (default on)"),
    ("return_received_card", "--return-received-card", "the card just received may be returned (default on)"),
    ("double_tribute_by_rank", "--double-tribute-by-rank", "a double tribute's cards compared by natural rank"),
)
_PARTNER_TRIBUTE: Final = "partner_tribute"


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """The rule flags (RULES.md §10, :class:`~guandan_fast.Rules`), in their own group."""
    group = parser.add_argument_group("rules", "the national rules unless changed here (RULES.md §10)")
    group.add_argument(
        "--rules", choices=sorted(PRESETS), default="national",
        help="the preset the flags below change (default national; openguandan: the competition server's)",
    )
    for name, flag, kind, metavar, text in _VALUED:
        group.add_argument(flag, dest=f"rule_{name}", type=kind, default=None, metavar=metavar, help=text)
    for name, flag, text in _SWITCHES:
        group.add_argument(flag, dest=f"rule_{name}", action=argparse.BooleanOptionalAction, default=None, help=text)
    group.add_argument(
        "--partner-tribute", dest=f"rule_{_PARTNER_TRIBUTE}", action=argparse.BooleanOptionalAction, default=None,
        help="--no-partner-tribute: no tribute between partners after a 1-4 finish",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The :class:`~guandan_fast.Rules` of the parsed flags: the preset, then each flag
    given. ValueError/TypeError from ``Rules`` for a bad value (a level, say)."""
    changes: dict[str, Any] = {}
    for name, *_ in (*_VALUED, *_SWITCHES):
        value = getattr(args, f"rule_{name}")
        if value is not None:
            changes[name] = value
    partner = getattr(args, f"rule_{_PARTNER_TRIBUTE}")
    if partner is not None:
        changes["no_tribute_between_partners"] = not partner
    return dataclasses.replace(PRESETS[args.rules](), **changes)
