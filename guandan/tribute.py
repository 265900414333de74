"""Tribute (进贡), return (还贡) and resisting (抗贡): guandan.md §6, as pure functions.

Hands are anything ``tabletop.cards.as_cards`` accepts (text, cards, a numpy count
vector); levels are rank text ('7', '10', 'T') or an index. ``finish_order`` is the
PREVIOUS deal's finishing order (上游, 二游, 三游, 下游); ``hands`` and ``level`` are the
NEW deal's, after the draw.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import attrs
import numpy as np

from tabletop.cards import (
    BIG_JOKER, CARDS, NUM_CARD_KINDS, Card, CardsLike, as_cards, count_list, sort_cards,
)
from tabletop.seats import NUM_SEATS, next_seat, partner, prev_seat, team
from guandan.ranks import level_index, power_of_rank, wild_card

RETURN_RANK_LIMIT = 8
"""The highest natural rank a return may have: 'T' (index 8). Level cards are excluded,
so at level 10 the limit is effectively 9."""


# ---------------------------------------------------------------------------------------------
# Which cards may be given

def tribute_choices(hand: CardsLike, level: "str | int") -> list[Card]:
    """The cards the payer may give: every distinct card of its highest power, ranked at
    ``level``, leaving out the heart level card (the wild). Power order is RJ > BJ > any
    non-heart level card > A > K > … > 2, so a held big joker is forced. Canonical order
    (suit S H C D within the rank); empty only if the hand holds nothing but wilds."""
    lv = level_index(level)
    counts = _counts(hand)
    counts[wild_card(lv)] = 0
    return _cards_of_power(counts, lv, _top_power(counts, lv))


def return_choices(hand: CardsLike, level: "str | int") -> list[Card]:
    """The cards the receiver may return: every distinct card of natural rank 2–10 that is
    not a level card (so at level 10 only 2–9; at level A all of 2–10). If it holds none,
    its lowest card: every distinct card of the lowest power at ``level`` (the heart level
    card has the level power, so it is lowest only when the hand holds nothing below the
    level rank). ``hand`` is the receiver's hand at return time (tribute received).
    Canonical order."""
    lv = level_index(level)
    counts = _counts(hand)
    allowed = [
        CARDS[c] for c in range(NUM_CARD_KINDS)
        if counts[c] and CARDS[c].rank_index <= RETURN_RANK_LIMIT and CARDS[c].rank_index != lv
    ]
    if allowed:
        return sort_cards(allowed)
    held = [c for c in range(NUM_CARD_KINDS) if counts[c]]
    if not held:
        return []
    lowest = min(power_of_rank(CARDS[c].rank_index, lv) for c in held)
    return _cards_of_power(counts, lv, lowest)


def why_illegal_tribute(
    hand: CardsLike, card: "Card | str | int", level: "str | int",
) -> str | None:
    """The reason ``card`` may not be given as tribute from ``hand``, or None if it may."""
    card = Card(card)
    choices = tribute_choices(hand, level)
    if card in choices:
        return None
    if not _counts(hand)[card]:
        return f"{card} is not in the payer's hand"
    if card == wild_card(level_index(level)):
        return f"{card} is the heart level card (wild), which is never given as tribute"
    return f"tribute must be the highest card: one of {_listing(choices)}, not {card}"


def why_illegal_return(
    hand: CardsLike, card: "Card | str | int", level: "str | int",
) -> str | None:
    """The reason ``card`` may not be returned from ``hand``, or None if it may."""
    card = Card(card)
    choices = return_choices(hand, level)
    if card in choices:
        return None
    if not _counts(hand)[card]:
        return f"{card} is not in the receiver's hand"
    return (f"return must be a non-level card of rank 2-10 (else the lowest card): "
            f"one of {_listing(choices)}, not {card}")


# ---------------------------------------------------------------------------------------------
# Who pays whom

@attrs.frozen(kw_only=True)
class TributePlan:
    """Who pays whom in a deal and who leads it.

    ``payments``: (payer, receiver) pairs; in a double tribute the payment to the 上游
    comes first. Each receiver returns one card to its payer (``returns``). Empty when
    resisted (抗贡) or waived by a referee ruling. ``double``: the previous winners
    finished 1-2, so double tribute was due (also when it was resisted, waived or cut to a
    single tribute by an excused seat). ``resisted``: 抗贡 (the payers hold both big
    jokers). ``waived``: a referee ruling (GD-5) cancelled it. ``excused``: seats that owed
    tribute but give none (GD-5.1: judged 单下). ``liable``: the seats that owe tribute
    after the excused ones are left out (the ones whose big jokers resist)."""

    payments: tuple[tuple[int, int], ...]
    leader: int
    resisted: bool = False
    double: bool = False
    waived: bool = False
    excused: tuple[int, ...] = ()
    liable: tuple[int, ...] = attrs.field(default=(), eq=False)

    @property
    def returns(self) -> tuple[tuple[int, int], ...]:
        """(returner, recipient) pairs: each receiver returns to its own payer."""
        return tuple((receiver, payer) for payer, receiver in self.payments)

    @property
    def payers(self) -> tuple[int, ...]:
        return tuple(payer for payer, _ in self.payments)

    @property
    def receivers(self) -> tuple[int, ...]:
        return tuple(receiver for _, receiver in self.payments)


def plan_tribute(
    finish_order: Sequence[int],
    hands: "Sequence[CardsLike] | Mapping[int, CardsLike]",
    level: "str | int",
    *,
    no_tribute_seats: Collection[int] = frozenset(),
    no_tribute: bool = False,
    leader: int | None = None,
    tie_to_top: str = "next_seat",
) -> TributePlan:
    """The tribute of a deal (guandan.md §6, enforcement.md GD-5).

    Single tribute (the 上游's side did not finish 1-2): the 下游 pays the 上游, even in a
    1-4 finish where the 下游 is the 上游's own partner; the payer leads. Double tribute
    (1-2): both losers pay; the one whose forced tribute rank is higher pays the 上游 and
    leads, the other pays the 二游; on equal ranks the 上游's 下家 pays the 上游 and leads,
    the 上游's 上家 pays the 二游. 抗贡: the payer(s) hold both big jokers between them →
    no payments, the 上游 leads.

    Referee rulings: ``no_tribute_seats`` are SEATS excused from paying (GD-5.1: 判单下者下副牌
    不进贡); only a seat that owes tribute is affected. When one of the two payers of a double
    tribute is excused, the other still pays, as a single tribute: to the 上游, and it leads
    (as any single payer); 抗贡 then needs both big jokers in its own hand (the excused seat
    pays nothing, so its jokers resist nothing). When every payer is excused there is no
    tribute and the 上游 leads. ``no_tribute=True`` cancels the tribute outright (GD-5.2). A
    waived tribute has no payments and no return; the 上游 leads unless ``leader`` names
    the seat fixed by the referee's procedure (GD-5.2: the shuffler's 上家). ``leader`` is
    refused unless the tribute is waived: otherwise the rules fix the leader.

    ``tie_to_top``: which payer of an equal double tribute pays the 上游 (and leads):
    'next_seat' the 上游's 下家 (the rule), 'prev_seat' its 上家 (a rules option's draw).

    ``hands`` is indexable by seat (only the payers' hands are read)."""
    order = finishing_order(finish_order)
    lv = level_index(level)
    top, second = order[0], order[1]
    double = second == partner(top)
    due = (next_seat(top), prev_seat(top)) if double else (order[3],)
    excused_seats = {_seat(s) for s in no_tribute_seats}
    excused = tuple(p for p in due if p in excused_seats)
    payers = tuple(p for p in due if p not in excused_seats)

    if no_tribute or not payers:
        return TributePlan(payments=(), leader=top if leader is None else _seat(leader),
                           double=double, waived=True, excused=excused)
    if leader is not None:
        raise ValueError("a leader can only be imposed when the tribute is waived "
                         "(no_tribute / every payer excused)")

    payer_counts = {p: _counts(hands[p]) for p in payers}
    if sum(c[BIG_JOKER] for c in payer_counts.values()) >= 2:
        return TributePlan(payments=(), leader=top, resisted=True, double=double, excused=excused,
                           liable=payers)

    powers = {}
    for p, counts in payer_counts.items():
        counts[wild_card(lv)] = 0
        powers[p] = _top_power(counts, lv)
        if powers[p] < 0:
            raise ValueError(f"seat {p} holds no card it may give as tribute")

    if len(payers) == 1:
        return TributePlan(payments=((payers[0], top),), leader=payers[0], double=double, excused=excused,
                           liable=payers)
    xiajia, shangjia = payers  # the 上游's 下家 and 上家; the 下家 wins a tie unless told otherwise
    if powers[shangjia] > powers[xiajia] or powers[shangjia] == powers[xiajia] and tie_to_top == "prev_seat":
        to_top, to_second = shangjia, xiajia
    else:
        to_top, to_second = xiajia, shangjia
    return TributePlan(payments=((to_top, top), (to_second, second)), leader=to_top, double=True,
                       liable=payers)


def level_gain(finish_order: Sequence[int]) -> tuple[int, int]:
    """(team, levels): the 上游's team goes up 3 for a 1-2 finish, 2 for 1-3, 1 for 1-4."""
    order = finishing_order(finish_order)
    return team(order[0]), 4 - order.index(partner(order[0]))


def finishing_order(finish_order: Sequence[int]) -> tuple[int, int, int, int]:
    """The full finishing order (上游, 二游, 三游, 下游) from a finished deal's order.

    Accepts all four seats, the first three (the last is implied), or two partners (a 1-2
    finish ends the deal with the other two still holding cards: their order is immaterial
    and is filled in as the 上游's 下家 then 上家). Raises ValueError otherwise."""
    order = tuple(int(s) for s in finish_order)
    if len(set(order)) != len(order) or any(not 0 <= s < NUM_SEATS for s in order):
        raise ValueError(f"a finishing order lists distinct seats 0-3, got {list(finish_order)}")
    if len(order) == 2:
        if order[1] != partner(order[0]):
            raise ValueError(f"the deal is not over after {list(order)}: "
                             "only partners finishing 1-2 end it early")
        order += (next_seat(order[0]), prev_seat(order[0]))
    elif len(order) == 3:
        order += tuple(s for s in range(NUM_SEATS) if s not in order)
    elif len(order) != NUM_SEATS:
        raise ValueError(f"a finishing order lists 2, 3 or 4 seats, got {list(finish_order)}")
    return order  # type: ignore[return-value]  # all four seats by now


# ---------------------------------------------------------------------------------------------
# Helpers

def _counts(hand: CardsLike) -> list[int]:
    """A fresh plain-list count vector (callers may modify it)."""
    if isinstance(hand, np.ndarray) and hand.shape == (NUM_CARD_KINDS,):
        return [int(n) for n in hand]
    return count_list(as_cards(hand))


def _top_power(counts: list[int], lv: int) -> int:
    """The highest power held (-1 for no cards)."""
    return max((power_of_rank(CARDS[c].rank_index, lv) for c in range(NUM_CARD_KINDS) if counts[c]),
               default=-1)


def _cards_of_power(counts: list[int], lv: int, power: int) -> list[Card]:
    return sort_cards(CARDS[c] for c in range(NUM_CARD_KINDS)
                   if counts[c] and power_of_rank(CARDS[c].rank_index, lv) == power)


def _listing(cards: list[Card]) -> str:
    return " ".join(map(str, cards)) if cards else "(none)"


def _seat(value: int) -> int:
    if not 0 <= value < NUM_SEATS:
        raise ValueError(f"not a seat: {value!r}")
    return int(value)
