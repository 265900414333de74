"""Out-of-turn play (抢出 / 抢跟): which irregularity it is follows from the trick on the table."""

from __future__ import annotations

from typing import Any

from shengji.actions import Play
from shengji.refereed import on_table
from shengji.tricks import trick_winner
from tabletop.seats import prev_seat


def out_of_turn(deal: Any, a: Play) -> None:
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


def current_winner(deal: Any) -> int:
    plays = deal.trick
    return plays[trick_winner([list(c) for _, c in plays], deal.ctx, deal.rules)][0]
