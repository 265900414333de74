"""Out-of-turn play (抢出 / 抢跟): which irregularity it is follows from the trick on the table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shengji.actions import Play
from shengji.refereed import on_table
from shengji.tricks import trick_winner
from tabletop.seats import prev_seat

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from shengji.deal import Deal


def out_of_turn(deal: Deal, a: Play) -> None:
    """抢出 / 抢跟: which one it is follows from the trick on the table."""
    seat = a.seat
    rightful = deal.to_act
    if not deal.trick:
        on_table.attempt(deal, a, "lead_out_of_turn", rightful=rightful, leader=None, kitty_buried=True)
        return
    leader = deal.trick[0][0]
    played = [s for s, _ in deal.trick]
    if seat in played:
        winner = current_winner(deal)
        on_table.attempt(deal, a, "lead_before_trick_complete", rightful=rightful, leader=leader,
                        winning=winner, played=len(played))
    elif prev_seat(seat) == rightful:
        on_table.attempt(deal, a, "show_before_upper", rightful=rightful, leader=leader)
    else:
        on_table.attempt(deal, a, "play_before_turn", rightful=rightful, leader=leader)


def current_winner(deal: Deal) -> int:
    plays = deal.trick
    assert deal.ctx is not None, "a trick is under way: trump is set"
    return plays[trick_winner([list(c) for _, c in plays], deal.ctx, deal.rules)][0]
