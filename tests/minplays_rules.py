"""MinPlaysAgent's play rules written in Python over the public API: the test oracle of
the native policies (``search/_policies.pyx``, which MinPlaysAgent and
``Deal.playouts(policy="minplays" | "tactics")`` play). See guandan_fast.agents.minplays for
the rules; ``tactics`` decomposes with ``prefer="high"`` and counts keeping every rank of four
or more natural cards whole (``whole=True``), follows an opponent with a play of
the decomposition first and never with a plain move that breaks one of its bombs, leads the
plays nobody can beat first when at most one other is
left, follows (a partner too) with a move nobody can beat when the rest then leads out the
same way, follows a partner's low play with a low play of the decomposition while the partner
holds more than DANGER_CARDS cards, changes the lead when an opponent is close to going out, holds a trick the next
seat could go out on, and bombs only when an opponent is about to finish (for a bomb, the
seat to beat holding at most BOMB_THREAT_LAST cards, SPARE_BOMB_CARDS more per bomb of the
decomposition beyond the first)."""

from __future__ import annotations

from guandan_fast import Deal, Hand, has_legal_follow, min_plays
from guandan_fast.agents.minplays import BOMB_KINDS, row_tier
from guandan_fast.engine.cards import wildcard

THREAT_LAST = 6
THREAT_ANY = 3
BOMB_TO_FINISH = 2
BOMB_THREAT_LAST = 6  # the tactics' bombs: the seat to beat holds at most this many cards ...
SPARE_BOMB_CARDS = 6  # ... and this many more per bomb of the decomposition beyond the first
DANGER_CARDS = 6
OVER_PARTNER_KEY = 12  # the tactics: over a partner's play, a play of the decomposition up to this key


def count(hand: Hand, level: int, tactics: bool = False) -> int:
    return min_plays(hand, level, whole=tactics)[0]


def unseen(deal: Deal, seat: int) -> Hand:
    """The cards ``seat`` cannot see (every other hand: what is neither its own nor played)."""
    cards = Hand()
    for other in range(4):
        if other != seat:
            cards = cards.add(deal.hands[other])
    return cards


def lead(deal: Deal, seat: int, tactics: bool = False) -> int:
    _, plays = min_plays(deal.hands[seat], deal.level, prefer="high" if tactics else "bombs", whole=tactics)
    rows = list(deal.legal_moves().rows())
    plain = [p for p in plays if p.kind not in BOMB_KINDS]
    left = deal.cards_left()
    danger = {left[o] for o in ((seat + 1) % 4, (seat + 3) % 4) if 0 < left[o] <= DANGER_CARDS}
    hidden = unseen(deal, seat)
    sure = [p for p in plays if not has_legal_follow(hidden, deal.level, p)]
    if tactics and len(plays) >= 2 and len(plays) - len(sure) <= 1:  # nobody beats these: keep the lead
        best = min(sure, key=lambda p: (p.kind in BOMB_KINDS, p.key, -len(p.cards)))
    elif tactics and danger and plain:
        safe = [p for p in plain if len(p.cards) not in danger]
        best = min(safe, key=lambda p: (p.key, -len(p.cards))) if safe else max(plain, key=lambda p: p.key)
    else:
        best = min(plain or plays, key=lambda p: (p.key, -len(p.cards)))
    return rows.index((int(best.kind), best.key, best.cards.once, best.cards.twice))


def follow(deal: Deal, seat: int, tactics: bool = False) -> int:
    hand, level = deal.hands[seat], deal.level
    rows = list(deal.legal_moves().rows())
    rest = [count(hand.remove(Hand.from_bits(once, twice)), level, tactics) for _, _, once, twice in rows]
    if 0 in rest:
        return rest.index(0) + 1
    if tactics:  # a move nobody can beat that leaves at most one beatable play: going out is sure
        hidden, moves = unseen(deal, seat), deal.legal_moves()
        sure = []
        for i, (_, _, once, twice) in enumerate(rows):
            if has_legal_follow(hidden, level, moves[i]):
                continue
            _, plays = min_plays(hand.remove(Hand.from_bits(once, twice)), level, prefer="high", whole=True)
            if sum(has_legal_follow(hidden, level, p) for p in plays) <= 1:
                sure.append(i)
        if sure:  # plain moves first (row_tier -1), by key; bombs by tier, then key
            return min(sure, key=lambda i: (row_tier(rows[i]), rows[i][1], i)) + 1
    n = count(hand, level, tactics)
    plan = min_plays(hand, level, prefer="high", whole=True)[1] if tactics else []  # the tactics' decomposition
    plain = [i for i, (kind, *_) in enumerate(rows) if kind not in BOMB_KINDS]
    if tactics:  # a plain move that breaks a bomb of the plan is never played (the wildcards apart)
        kept = Hand()
        for p in plan:
            if p.kind in BOMB_KINDS:
                kept = kept.add(p.cards)
        kept = kept.remove(kept.common(Hand.from_indices([wildcard(level)] * 2)))
        plain = [i for i in plain if hand.remove(Hand.from_bits(rows[i][2], rows[i][3])).contains(kept)]
    bombs = [i for i, (kind, *_) in enumerate(rows) if kind in BOMB_KINDS]
    keeping = [i for i in plain if rest[i] <= n - 1]
    last = deal.last_move
    assert last is not None
    after = deal.cards_left()[(seat + 1) % 4]
    if tactics and 0 < after == len(last.cards) <= DANGER_CARDS:  # the next seat could go out
        if keeping:
            return max(keeping, key=lambda i: rows[i][1]) + 1
        if deal.last_seat == seat ^ 2:
            return 0
    cards = {(p.cards.once, p.cards.twice) for p in plan}
    if deal.last_seat == seat ^ 2:  # the tactics: over a partner not close to going out, a low play of the plan
        if tactics and deal.cards_left()[seat ^ 2] > DANGER_CARDS:
            over = [i for i in plain if rows[i][1] <= OVER_PARTNER_KEY and (rows[i][2], rows[i][3]) in cards]
            if over:
                return min(over, key=lambda i: (rows[i][1], i)) + 1
        return 0
    if tactics:  # a play of the decomposition first, when one beats
        planned = [i for i in plain if (rows[i][2], rows[i][3]) in cards]
        if planned:
            return min(planned, key=lambda i: (rows[i][1], i)) + 1
    if keeping:  # the weakest (the first listed of the lowest key)
        return min(keeping, key=lambda i: (rows[i][1], i)) + 1
    left = deal.cards_left()
    near = any(0 < left[o] <= THREAT_ANY for o in ((seat + 1) % 4, (seat + 3) % 4))
    threat = left[deal.last_seat] <= THREAT_LAST or near
    if threat and plain:
        return min(plain, key=lambda i: (rest[i], rows[i][1])) + 1
    if tactics:  # a bomb when the seat to beat is nearer finishing than a plain break needs
        spare = max(sum(p.kind in BOMB_KINDS for p in plan) - 1, 0)
        usable = [i for i in bombs if left[deal.last_seat] <= BOMB_THREAT_LAST + SPARE_BOMB_CARDS * spare or near]
    else:
        usable = [i for i in bombs if threat or rest[i] <= BOMB_TO_FINISH]
    if usable:
        return min(usable, key=lambda i: (rest[i], row_tier(rows[i]), rows[i][1])) + 1
    return 0


def play(deal: Deal, tactics: bool = False) -> int:
    """The rules' action (an index into ``deal.legal_actions()``) for the seat to act."""
    seat = deal.to_act
    assert seat is not None and deal.phase == "play"
    return follow(deal, seat, tactics) if deal.following else lead(deal, seat, tactics)
