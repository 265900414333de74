"""The shortcuts refereed play without irregularities takes (issue 19, refereed-clean
speed) against the straightforward computations they replace: the refereed 掼蛋 draw in one
loop against ``Deal.draw_next`` card by card, and against the strict draw."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from enforcement.setup import engine_options
from guandan.actions import Draw
from guandan.deal import Deal
from guandan.refereed import draw
from tabletop.seats import NUM_SEATS

REFEREED = engine_options({"referee": True, "infractions": 0.0})


def _card_by_card(deal: Any, count: int) -> None:
    """The draw as it was written before the one-loop path: ``draw_next`` for each card."""
    t = deal.table
    seat = deal.turn
    for _ in range(count):
        if t.draw.taken == t.draw.face_position:
            t.draw.face_drawer = seat
        t.draw.taken += 1
        deal.draw_next(seat)
        seat = (seat + 1) % NUM_SEATS
    deal.turn = seat


def _state(deal: Any) -> tuple[Any, ...]:
    t = deal.table
    return (deal.hands, deal.sizes, deal.stock, deal.turn, t.draw.taken, t.draw.face_drawer,
            [deal.hand(s) for s in range(NUM_SEATS)], deal.take_events())


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), first=st.integers(0, 108), second=st.integers(0, 108),
       face_up=st.booleans())
def test_the_draw_in_one_loop_is_the_draw_card_by_card(seed: int, first: int, second: int, face_up: bool) -> None:
    # two stretches (a draw out of turn stops the draw part-way): the face-up card may fall in
    # either, before, between or after them
    second = min(second, 108 - first)
    leader = None if face_up else 0
    fast = Deal.drawn(seed, face_up=face_up, leader=leader, **REFEREED)
    slow = Deal.drawn(seed, face_up=face_up, leader=leader, **REFEREED)
    assert _state(fast) == _state(slow)
    for count in (first, second):
        for s in range(NUM_SEATS):
            fast.hand(s), slow.hand(s)  # cached hands must be dropped by the draw
        draw.run_draw(fast, count)
        _card_by_card(slow, count)
        assert _state(fast) == _state(slow)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_clean_refereed_draw_deals_what_the_strict_draw_deals(seed: int) -> None:
    strict = Deal.drawn(seed)
    refereed = Deal.drawn(seed, **REFEREED)
    events = refereed.take_events() + refereed.apply(Draw(refereed.to_act))
    assert refereed.hands == strict.hands and refereed.sizes == strict.sizes
    assert refereed.face_up == strict.face_up and refereed.turn == strict.turn
    assert refereed.table.draw.face_drawer == strict.face_up[0]
    drawn = [(e.seat, e.card) for e in strict.take_events() if e.KIND == "gd.drawn"]
    assert [(e.seat, e.card) for e in events if e.KIND == "gd.drawn"] == drawn
