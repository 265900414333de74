"""Revokes (wrong follows): seen at once, or latent (``LatentRevoke``) until the next seat
plays or the trick closes; the plays of the open trick taken back."""

from __future__ import annotations

from typing import Any

import attrs

from shengji.actions import Play, Revoke, action_to_data
from shengji.events import IrregularAttempt, PlaysTakenBack
from shengji.phase import Phase
from shengji.refereed import core, on_table, play
from tabletop.cards import Card, codes, holds
from tabletop.errors import IllegalAction
from tabletop.irregular import facts as make_facts
from tabletop.rulings import RulingPlan, refuse


@attrs.define(slots=True, eq=False)
class LatentRevoke:
    """A wrong follow nobody noticed yet: made by ``seat`` at ``position`` of trick ``trick``."""

    seq: int
    seat: int
    trick: int
    position: int
    found: str
    facts: dict

def revoke(deal: Any, a: Revoke) -> None:
    t = deal.table
    seat = a.seat
    if t.choice is not None or deal.phase is not Phase.PLAY or seat != deal.to_act or not deal.trick:
        raise IllegalAction("an unnoticed wrong follow needs the seat's turn to follow")
    if t.revoke is not None:           # one unnoticed wrong follow at a time: this one is seen at once
        play.play(deal, Play(seat, a.cards))
        return
    if len(a.cards) != len(deal.lead) or not holds(deal.hands[seat], a.cards):
        raise IllegalAction(f"a follow of {len(deal.lead)} card(s) from the hand")
    found = deal.illegality(Play(seat, a.cards))
    if found is None:
        play.play_now(deal, seat, a.cards)     # a legal follow after all: an ordinary play
        return
    info = follow_facts(deal, seat, a.cards)
    e = deal.stream.emit(IrregularAttempt, seat=seat, irregularity="wrong_follow",
                         action=action_to_data(a), latent=True,
                         facts=make_facts(requested=a.found, cards=codes(a.cards), **info))
    t.revoke = LatentRevoke(e.seq, seat, deal.trick_number, len(deal.trick), a.found,
                            dict(info, cards=codes(a.cards)))
    play.play_now(deal, seat, a.cards, stand="not noticed")


def after_play(deal: Any) -> None:
    """A latent wrong follow comes to light once the next seat has played (trick open)."""
    t = deal.table
    r = t.revoke
    if r is None or r.found != "affecting_play" or r.trick != deal.trick_number:
        return
    if len(deal.trick) > r.position + 1:
        t.revoke = None
        core.found(deal, r.seq, "wrong_follow", r.seat, found="affecting_play", **r.facts)


def trick_closed(deal: Any) -> bool:
    """Called by the deal when a trick closes; True if the table now waits."""
    t = deal.table
    r = t.revoke
    if r is not None and r.trick == deal.trick_number - 1:
        t.revoke = None
        core.found(deal, r.seq, "wrong_follow", r.seat, then=after_the_trick, found="after_trick",
                      winner=deal.tricks[-1].winner, **r.facts)
        return True
    return False


def follow_facts(deal: Any, seat: int, cards: tuple[Card, ...]) -> dict[str, Any]:
    """What kind of wrong follow: 'suit' (not followed as far as the hand could),
    'pair' or 'tractor' (the shape rule on a pair / tractor lead)."""
    ctx = deal.ctx
    lead = deal.lead
    info = deal._lead_info
    suit = ctx.suit_of[lead[0]]
    held = sum(1 for c in deal.hand(seat) if ctx.suit_of[c] == suit)
    in_suit = sum(1 for c in cards if ctx.suit_of[c] == suit)
    if in_suit != min(held, len(lead)):
        what = "suit"
    else:
        what = "tractor" if info.tractors else "pair"
    return dict(what=what, leader=deal.trick[0][0], lead=codes(lead), position=len(deal.trick),
                level=deal.level_text, trump=deal.trump)


def take_back_plays(deal: Any, seat: int, reason: str) -> None:
    """The plays of the open trick from ``seat``'s on go back: ``seat``'s exposed, the
    later ones not; ``seat`` plays again (a wrong follow found after the next seat played)."""
    position = next(i for i, (s, _) in enumerate(deal.trick) if s == seat)
    taken = deal.trick[position:]
    del deal.trick[position:]
    for s, cards in taken:
        on_table.add(deal, s, cards)
        if s == seat:
            deal.table.exposed[s].extend(cards)
    deal.stream.emit(PlaysTakenBack, seat=seat, seats=tuple(s for s, _ in taken),
                     cards=tuple(codes(c) for _, c in taken), reason=reason)
    deal.table.resume_to_act = seat


def take_back(deal: Any, effect: Any, plan: RulingPlan, seat: int, position: int) -> None:
    """A play of the open trick taken back: it comes back face up, the later plays come
    back to be played again, and ``seat`` plays again — one primitive, so the ruling must
    list all of it (Expose, Replay of the later seats, CorrectFollow)."""
    later = tuple(sorted(s for s, _ in deal.trick[position + 1:]))
    if deal.phase is not Phase.AWAITING_RULING:
        raise refuse(effect, "the table is not waiting for a ruling")
    wanted = [("Expose", dict(seat=seat, cards=effect.cards)), ("CorrectFollow", dict(seat=seat))]
    if later:
        wanted.append(("Replay", dict(seats=later)))
    done = set(plan.done)
    for kind, fields in wanted:
        if not plan.take(kind, **fields):
            plan.done = done
            shown = ", ".join(f"{k}={v}" for k, v in fields.items())
            raise refuse(effect, f"a play taken back from the open trick needs {kind}({shown}) listed with it")
    take_back_plays(deal, seat, plan.reason)


def on_replay(deal: Any, effect: Any, plan: RulingPlan) -> None:
    raise refuse(effect, "plays are taken back with the Return of the wrong follow before them "
                  "(Return, Expose, CorrectFollow, Replay)")


def after_the_trick(deal: Any) -> None:
    """A wrong follow found at the trick's end was ruled on: the deal ends if the trick was its last."""
    if deal.phase is Phase.PLAY and deal.hand_size[deal.leader] == 0:
        deal._finish()
