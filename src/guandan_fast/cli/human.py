"""A person at the terminal as an agent (``guandan-fast play --human SEAT``): on each turn
the table, the hand grouped by rank and the legal actions numbered; the answer is a
number, the cards of a move, a type name (to list those moves) or ``q``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TextIO

from ..engine.cards import CARD_NAMES, card_power, level_char, parse_card, power_char, wildcard
from ..engine.deal import Deal
from ..platform.playlog import _describe

#: Up to this many legal actions are listed at once; more are summarised by type.
LIST_LIMIT = 40
_PLACES = ("1st", "2nd", "3rd", "4th")
_RELATIVE = ("you", "next", "partner", "previous")
HELP = "a number, the cards (e.g. S8 H8), a type name to list (e.g. pair), ? to list all, q to quit"


class QuitGame(Exception):
    """The person quit (``q``) or the input ended: the game stops."""


class TerminalPlayer:
    """An agent whose ``act`` asks a person: reads ``stdin``, writes to ``stdout``."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self._in = stdin
        self._out = stdout

    def act(self, deal: Deal, seat: int) -> int:
        actions = deal.legal_actions()
        self._say(*table_lines(deal, seat))
        self._say(*(action_lines(actions, range(len(actions))) if len(actions) <= LIST_LIMIT else summary_lines(actions)))
        self._say(f"  your action: {HELP}")
        while True:
            self._out.write(f"seat {seat}> ")
            self._out.flush()
            line = self._in.readline()
            if not line:
                raise QuitGame("the input ended before the game did")
            answer = line.strip()
            if answer.lower() in ("q", "quit", "exit"):
                raise QuitGame("you quit the game")
            choice = self._read(answer, actions)
            if choice is not None:
                return choice

    def _read(self, answer: str, actions: Sequence[Sequence[Any]]) -> int | None:
        """The index ``answer`` names, or None after printing what it matches instead."""
        if not answer:
            return None
        if answer.isdecimal():  # (isdigit would take "²", which int refuses)
            if len(answer) <= 9 and int(answer) < len(actions):  # (int refuses 4,300 digits and more)
                return int(answer)
            shown = answer if len(answer) <= 12 else answer[:12] + "…"
            self._say(f"  no action {shown}: they are numbered 0 to {len(actions) - 1}")
            return None
        if answer in ("?", "l", "list"):
            self._say(*action_lines(actions, range(len(actions))))
            return None
        words = answer.split()
        kind = answer.replace(" ", "").lower()
        if kind in ("p", "pass"):
            kind = "pass"
        by_type = [i for i, action in enumerate(actions) if action[0].lower() == kind]
        if kind == "pass" and by_type:
            return by_type[0]
        if by_type:
            self._say(*action_lines(actions, by_type))
            return None
        try:
            cards = sorted(parse_card(word) for word in words)
        except ValueError:
            self._say(f"  not understood: {answer!r}; type {HELP}")
            return None
        matching = [i for i, action in enumerate(actions) if _cards_of(action) == cards]
        if len(matching) == 1:
            return matching[0]
        if not matching:
            self._say(f"  no legal action plays exactly {' '.join(words)}")
        else:
            self._say("  these cards read several ways; choose one:", *action_lines(actions, matching))
        return None

    def _say(self, *lines: str) -> None:
        for line in lines:
            self._out.write(line + "\n")
        self._out.flush()


def _cards_of(action: Sequence[Any]) -> list[int]:
    cards = action[2]
    return [] if isinstance(cards, str) else sorted(parse_card(card) for card in cards)


def table_lines(deal: Deal, seat: int) -> list[str]:
    """What the person sees of the table: phase, levels, the others' cards left and places,
    the move to beat, the own hand grouped."""
    team = seat & 1
    levels = deal.team_levels
    lines = [
        (
            f"== your turn: seat {seat}, deal at level {level_char(deal.level)} "
            f"(your team at {level_char(levels[team])}, the other team at {level_char(levels[1 - team])}) =="
        )
    ]
    left = deal.cards_left()
    finish = deal.finish_order
    others = []
    for step in (1, 2, 3):
        other = (seat + step) % 4
        state = f"out {_PLACES[finish.index(other)]}" if other in finish else f"{left[other]} cards"
        others.append(f"seat {other} ({_RELATIVE[step]}) {state}")
    lines.append("  table: " + ", ".join(others))
    if deal.phase == "tribute":
        lines.append("  you pay tribute: one of the cards below")
    elif deal.phase == "return":
        lines.append("  you give a card back to the seat that paid you tribute")
    elif deal.following:
        move = deal.last_move
        assert move is not None  # following: there is a move to beat
        lines.append(f"  to beat: seat {deal.last_seat}'s {_describe(move.to_platform())}")
    else:
        lines.append("  you lead")
    lines.append(f"  your hand ({len(deal.hands[seat])}): {grouped_hand(deal, seat)}")
    return lines


def grouped_hand(deal: Deal, seat: int) -> str:
    """The hand by rank, weakest first at the deal's level; the wildcard marked ``*``."""
    groups: dict[int, list[str]] = {}
    wild = wildcard(deal.level)
    for card in deal.hands[seat].indices():
        groups.setdefault(card_power(card, deal.level), []).append(CARD_NAMES[card] + ("*" if card == wild else ""))
    return "  ".join(
        f"{power_char(power, deal.level)}: {' '.join(cards)}" for power, cards in sorted(groups.items())
    )


def action_lines(actions: Sequence[Sequence[Any]], indices: Sequence[int] | range) -> list[str]:
    """The actions at ``indices``, one a line, numbered by index."""
    return [f"  [{i}] {describe_action(actions[i])}" for i in indices]


def describe_action(action: Sequence[Any]) -> str:
    if action[0] == "tribute":
        return f"pay {action[2][0]}"
    if action[0] == "back":
        return f"give back {action[2][0]}"
    return _describe(action)


def summary_lines(actions: Sequence[Sequence[Any]]) -> list[str]:
    counts: dict[str, int] = {}
    for action in actions:
        counts[action[0]] = counts.get(action[0], 0) + 1
    kinds = ", ".join(f"{kind} {count}" for kind, count in counts.items())
    return [f"  {len(actions)} legal actions: {kinds}"]
