"""Revokes (wrong follows): what kind of wrong follow, and a latent one (``LatentRevoke``)
coming to light when the next seat plays or the trick closes. The ``Revoke`` action is
``play``'s; the plays of the open trick are taken back by ``on_table``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from shengji.phase import Phase
from shengji.refereed import state
from shengji.refereed.state import table_of
from tabletop import refereed
from tabletop.cards import Card, codes
from tabletop.rulings import RulingPlan, refuse

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from shengji.deal import Deal


@attrs.define(slots=True, eq=False)
class LatentRevoke:
    """A wrong follow nobody noticed yet: made by ``seat`` at ``position`` of trick ``trick``."""

    seq: int
    seat: int
    trick: int
    position: int
    found: str
    facts: dict

def after_play(deal: Deal) -> None:
    """A latent wrong follow comes to light once the next seat has played (trick open)."""
    t = table_of(deal)
    r = t.revoke
    if r is None or r.found != "affecting_play" or r.trick != deal.trick_number:
        return
    if len(deal.trick) > r.position + 1:
        t.revoke = None
        refereed.found(deal, r.seq, "wrong_follow", r.seat, found="affecting_play", **r.facts)


def trick_closed(deal: Deal) -> bool:
    """Called by the deal when a trick closes; True if the table now waits."""
    t = table_of(deal)
    r = t.revoke
    if r is not None and r.trick == deal.trick_number - 1:
        t.revoke = None
        refereed.found(deal, r.seq, "wrong_follow", r.seat, then=AFTER_THE_TRICK, found="after_trick",
                      winner=deal.tricks[-1].winner, **r.facts)
        return True
    return False


def follow_facts(deal: Deal, seat: int, cards: tuple[Card, ...]) -> dict[str, Any]:
    """What kind of wrong follow: 'suit' (not followed as far as the hand could),
    'pair' or 'tractor' (the shape rule on a pair / tractor lead)."""
    ctx = deal.ctx
    lead = deal.lead
    info = deal.lead_info
    assert ctx is not None and lead is not None and info is not None, "a follow: trump is set, the trick has a lead"
    suit = ctx.suit_of[lead[0]]
    held = sum(1 for c in deal.hand(seat) if ctx.suit_of[c] == suit)
    in_suit = sum(1 for c in cards if ctx.suit_of[c] == suit)
    if in_suit != min(held, len(lead)):
        what = "suit"
    else:
        what = "tractor" if info.tractors else "pair"
    return dict(what=what, leader=deal.trick[0][0], lead=codes(lead), position=len(deal.trick),
                level=deal.level_text, trump=deal.trump)


def on_replay(deal: Deal, effect: Any, plan: RulingPlan) -> None:
    raise refuse(effect, "plays are taken back with the Return of the wrong follow before them "
                  "(Return, Expose, CorrectFollow, Replay)")


def after_the_trick(deal: Deal) -> None:
    """A wrong follow found at the trick's end was ruled on: the deal ends if the trick was its last."""
    leader = deal.leader  # set all through the play phase
    if deal.phase is Phase.PLAY and leader is not None and deal.hand_size[leader] == 0:
        deal.finish_deal()


AFTER_THE_TRICK = state.STEPS.register(after_the_trick)
