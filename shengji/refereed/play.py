"""Play, refereed: the legal play, an irregular attempt laid on the table, a wrong follow
nobody notices (``Revoke``), and cards on the table standing as a play."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shengji.actions import Incident, Play, PlayWithExtra, Revoke, action_to_data
from shengji.events import IrregularAttempt
from shengji.follow import lead_info
from shengji.phase import Phase
from shengji.refereed import on_table, out_of_turn, revoke
from shengji.refereed.state import table_of
from tabletop import refereed
from tabletop.cards import Card, codes, holds, sort_cards
from tabletop.errors import IllegalAction
from tabletop.rulings import facts as make_facts
from tabletop.rulings import RulingPlan, refuse
from tabletop.seats import team

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from shengji.deal import Deal


def play(deal: Deal, a: Play) -> None:
    t = table_of(deal)
    seat, cards = a.seat, a.cards
    if t.choice is not None or t.draw.step or deal.phase not in (Phase.PLAY, Phase.KITTY):
        raise IllegalAction("no play now")
    if not cards:
        raise IllegalAction("a play needs at least one card")
    if not holds(deal.hands[seat], cards):
        raise IllegalAction("cards not in hand")
    if deal.phase is Phase.KITTY:
        if seat == deal.banker:
            on_table.attempt(deal, a, "lead_before_burial", rightful=seat, buried=0)
        else:
            on_table.attempt(deal, a, "lead_out_of_turn", rightful=deal.banker, leader=None, kitty_buried=False)
        return
    if seat != deal.to_act:
        out_of_turn.out_of_turn(deal, a)
        return
    if t.bad_burial is not None and not deal.trick and not deal.tricks:
        on_table.attempt(deal, a, "lead_wrong_bury_count", rightful=seat, buried=t.bad_burial)
        return
    found = deal.illegality(a)
    if found is None:
        play_now(deal, seat, cards)
        return
    code = found[0]
    if code == "wrong_follow":
        on_table.attempt(deal, a, "wrong_follow", found="at_once", **revoke.follow_facts(deal, seat, cards))
    elif code in ("extra_card", "missing_card"):
        lead = deal.lead
        assert lead is not None, "a wrong card count is a follow's: the trick has a lead"
        on_table.attempt(deal, a, "wrong_card_count", led=len(lead), played=len(cards))
    elif code == "lead_mixed_suits":
        on_table.attempt(deal, a, "invalid_lead", message=found[1])
    else:
        raise IllegalAction(found[1])


def play_extra(deal: Deal, a: PlayWithExtra) -> None:
    t = table_of(deal)
    seat = a.seat
    if t.choice is not None or t.draw.step or deal.phase is not Phase.PLAY or seat != deal.to_act:
        raise IllegalAction("a play with an extra card needs the seat's turn to play")
    if len(a.extra) != 1 or not a.cards:
        raise IllegalAction("one extra card carried along with a play of at least one card")
    if not holds(deal.hands[seat], a.cards + a.extra):
        raise IllegalAction("cards not in hand")
    if t.bad_burial is not None and not deal.trick and not deal.tricks:
        on_table.attempt(deal, a, "lead_wrong_bury_count", cards=a.cards + a.extra, rightful=seat, buried=t.bad_burial)
        return
    rest_legal = deal.illegality(Play(seat, a.cards)) is None
    if deal.trick:
        kind = "follow"
    else:
        assert deal.ctx is not None, "the play phase: trump is set"
        kind = "throw" if rest_legal and lead_info(list(a.cards), deal.ctx).is_throw else "lead"
    on_table.attempt(deal, a, "extra_card", cards=a.cards + a.extra, extra=a.extra, kind=kind,
                    rest_legal=rest_legal, rest=codes(a.cards))


def play_now(deal: Deal, seat: int, cards: tuple[Card, ...], stand: str | None = None, *,
             action: Play | None = None) -> None:
    played = deal.play_cards(Play(seat, cards) if action is None else action, stand=stand)
    t = table_of(deal)
    if t.exposed[seat]:
        on_table.unexpose(deal, seat, played)
    if t.revoke is not None:
        revoke.after_play(deal)


def play_revoke(deal: Deal, a: Revoke) -> None:
    """A ``Revoke``: a wrong follow nobody notices yet (it comes to light later, ``revoke``),
    or seen at once when one is already latent."""
    t = table_of(deal)
    seat = a.seat
    if t.choice is not None or deal.phase is not Phase.PLAY or seat != deal.to_act or not deal.trick:
        raise IllegalAction("an unnoticed wrong follow needs the seat's turn to follow")
    if t.revoke is not None:           # one unnoticed wrong follow at a time: this one is seen at once
        play(deal, Play(seat, a.cards))
        return
    lead = deal.lead
    assert lead is not None, "the trick is under way (checked above)"
    if len(a.cards) != len(lead) or not holds(deal.hands[seat], a.cards):
        raise IllegalAction(f"a follow of {len(lead)} card(s) from the hand")
    found = deal.illegality(Play(seat, a.cards))
    if found is None:
        play_now(deal, seat, a.cards)     # a legal follow after all: an ordinary play
        return
    info = revoke.follow_facts(deal, seat, a.cards)
    e = deal.stream.emit(IrregularAttempt, seat=seat, irregularity="wrong_follow",
                         action=action_to_data(a), latent=True,
                         facts=make_facts(requested=a.found, cards=codes(a.cards), **info))
    t.revoke = revoke.LatentRevoke(e.seq, seat, deal.trick_number, len(deal.trick), a.found,
                            dict(info, cards=codes(a.cards)))
    play_now(deal, seat, a.cards, stand="not noticed")


def stand_play(deal: Deal, seat: int, reason: str) -> None:
    """The cards ``seat`` laid on the table go on the trick as if played in turn."""
    t = table_of(deal)
    cards = tuple(sort_cards(t.on_table.pick_up(seat)))
    deal.add_cards(seat, cards)
    unpaused(deal, lambda: play_now(deal, seat, cards, stand=reason))


def on_play_stands(deal: Deal, effect: Any, plan: RulingPlan) -> None:
    """The cards left lying on the table are played as if in turn."""
    t = table_of(deal)
    seat = effect.seat
    if not t.on_table.get(seat):
        raise refuse(effect, f"no cards of seat {seat} lie on the table")
    if t.resume_phase is not Phase.PLAY or deal.turn != seat:
        raise refuse(effect, f"it is not seat {seat}'s turn to play")
    stand_play(deal, seat, plan.reason + ": the rest stands")


def unpaused(deal: Deal, step: Any) -> None:
    """Run ``step`` (a play a ruling lets stand) as if the table were not waiting; what
    it leads to becomes what the table resumes with."""
    t = table_of(deal)
    held = t.awaiting
    t.awaiting = []
    deal.phase = t.resume_phase
    step()
    if t.awaiting:                               # the step itself came to a wait
        t.awaiting = held + t.awaiting
        return
    t.awaiting = held
    t.resume_phase = deal.phase
    if held:
        deal.phase = Phase.AWAITING_RULING


def incident(deal: Deal, a: Incident) -> None:
    """A reported incident; its minutes are a fact only of a side's lateness."""
    late = {"minutes": a.minutes} if a.incident == "late" else {}
    refereed.attempt(deal, a, "incident", incident=a.incident, severity=a.severity, damaged=a.damaged,
                     note=a.note, side=team(a.seat), **late)
