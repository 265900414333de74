"""GD-4.2.2: the take-back of the plays made since an unreported play (back to a ``snapshot``)."""

from __future__ import annotations

from typing import Any

from guandan import events as ev
from guandan.refereed import core, information, reporting, snapshot
from tabletop.cards import codes
from tabletop.rulings import refuse
from tabletop.seats import NUM_SEATS, partner

REPLAY_OPTIONS = ("take_back", "stand")


def offer_replay(deal: Any, chooser: int) -> None:
    """GD-4.2.2: the non-offending side (``chooser``) may take back the plays made since
    the unreported play; if it does not, the offender's partner may take back its own."""
    core.offer_choice(deal, chooser, "replay", REPLAY_OPTIONS, on_chosen=replay_chosen)


def replay_chosen(deal: Any, choice: Any, option: str) -> None:
    """The non-offending side chose: take back the plays, or let them stand (the offender's
    partner may then take back its own)."""
    replay(deal, option, partner_only=False)


def partner_replay_chosen(deal: Any, choice: Any, option: str) -> None:
    """The offender's partner chose: take back its own plays, or let them stand."""
    replay(deal, option, partner_only=True)


def replay(deal: Any, option: str, *, partner_only: bool) -> None:
    t = deal.table
    lr = t.latent_report
    offender = lr.seat
    p = partner(offender)
    if option == "take_back":
        snap = lr.snap_partner if partner_only else lr.snap0
        take_back(deal, snap, lr)
        t.latent_report = None
        return
    if not partner_only and p in lr.played and lr.snap_partner is not None:
        core.offer_choice(deal, p, "partner_replay", REPLAY_OPTIONS, on_chosen=partner_replay_chosen)
        return
    t.latent_report = None


def take_back(deal: Any, snap: dict, lr: reporting.LatentReport) -> None:
    before = [list(deal.played[s]) for s in range(NUM_SEATS)]
    true_count = deal.announced[lr.seat]
    snapshot.restore(deal, snap)
    deal.announced[lr.seat] = true_count
    taken = [tuple(before[s][len(deal.played[s]):]) for s in range(NUM_SEATS)]
    seats = tuple(s for s in range(NUM_SEATS) if taken[s] or (s in lr.acted and s != lr.seat))
    deal.stream.emit(ev.PlaysTakenBack, since=lr.seq, seats=seats, cards=tuple(codes(c) for c in taken),
                     reason="GD-4.2.2")
    p = partner(lr.seat)
    if taken[p]:
        information.mark_unauthorised(deal, (lr.seat,), p, taken[p], "partner took back (GD-4.2.2)")


def on_replay(deal: Any, effect: Any, plan: Any) -> None:
    """GD-4.2.2: ``chooser`` is offered to take back the plays since the unreported play
    ('replay'), or the offender's partner its own ('partner_replay'); no chooser: nobody is
    offered it (the plays stand)."""
    if effect.chooser is None:
        return
    lr = deal.table.latent_report
    if lr is None or lr.seq != plan.answers:
        raise refuse(effect, "no unreported play awaits this ruling: nothing to take back")
    if effect.chooser not in effect.seats:
        raise refuse(effect, f"seat {effect.chooser} is not one of the seats whose plays may be replayed")
    if effect.purpose == "partner_replay":
        core.offer_choice(deal, effect.chooser, "partner_replay", REPLAY_OPTIONS, on_chosen=partner_replay_chosen)
    else:
        offer_replay(deal, effect.chooser)
