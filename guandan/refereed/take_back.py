"""GD-4.2.2: the take-back of plays made since an unreported play. Only this round's plays
since the wrong report may be taken back; their seats are asked in play order, each for its
own play, and the first that takes back sets the point: the deal is rebuilt as it was before
that play (``rebuild``), so every later play of the round goes with it."""

from __future__ import annotations

import functools
from collections import Counter
from typing import TYPE_CHECKING, Any

from guandan import events as ev
from guandan.refereed import information, rebuild, reporting, state
from guandan.refereed.state import table_of
from tabletop import refereed
from tabletop.cards import Card, codes
from tabletop.rulings import refuse
from tabletop.seats import NUM_SEATS, partner

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal

REPLAY_OPTIONS = ("take_back", "stand")
PURPOSES = ("replay", "partner_replay")
"""The choice asked of a seat of the non-offending side, and of the offender's partner."""


def on_replay(deal: Deal, effect: Any, plan: Any) -> None:
    """GD-4.2.2: the plays of this round since the unreported play whose seats are among
    ``seats`` may be taken back; ``chooser``, the first of them to have played, is asked
    first, the others after it in play order (no chooser: nobody is asked, the plays stand)."""
    if effect.chooser is None:
        return
    t = table_of(deal)
    lr = t.latent_report
    if lr is None or lr.seq != plan.answers:
        raise refuse(effect, "no unreported play awaits this ruling: nothing to take back")
    asked = [p for p in lr.plays if p.round == t.lead_count and p.seat in effect.seats]
    if not asked:
        raise refuse(effect, f"none of seats {list(effect.seats)} played in this round since the unreported play")
    if asked[0].seat != effect.chooser:
        raise refuse(effect, f"seat {effect.chooser} is not the first of seats {list(effect.seats)} to have played "
                              f"in this round since the unreported play (seat {asked[0].seat} is)")
    lr.asking = asked
    lr.cited = plan.reason
    ask(deal, lr)


def purpose_of(lr: reporting.LatentReport, seat: int) -> str:
    return PURPOSES[1] if seat == partner(lr.seat) else PURPOSES[0]


def ask(deal: Deal, lr: reporting.LatentReport) -> None:
    """The seat of the next play in ``lr.asking`` chooses whether to take it back."""
    seat = lr.asking[0].seat
    refereed.offer_choice(deal, seat, purpose_of(lr, seat), REPLAY_OPTIONS, then=CHOSEN)


def chosen(deal: Deal, choice: Any, option: str) -> None:
    """A seat chose: take back its play (and every later play of the round), or let it stand
    (the next seat that played is asked; after the last, all stand)."""
    lr = table_of(deal).latent_report
    assert lr is not None, "the latent report stays on the table while its plays are asked about"
    play = lr.asking.pop(0)
    if option == "take_back":
        take_back(deal, lr, play)
    elif lr.asking:
        ask(deal, lr)
    else:
        table_of(deal).latent_report = None


CHOSEN = state.STEPS.register(chosen, "take_back_chosen")


def take_back(deal: Deal, lr: reporting.LatentReport, play: reporting.PlaySince) -> None:
    """The deal rebuilt as it was before ``play``; then what the take-back itself does
    (``taken_back``), which the record keeps in place of the actions it undid."""
    before = [deal.played[s] for s in range(NUM_SEATS)]
    on_table = table_of(deal).on_table
    laid = [Counter(on_table.get(s, ())) for s in range(NUM_SEATS)]
    since = rebuild.restore(deal, play.point)
    # back in the hands: not what lies on the table again (an out-of-turn play that stood
    # by the ruling on the play taken back, its 下家 to answer it anew); the restored deal has a table of its own
    on_table = table_of(deal).on_table
    taken = tuple(codes(list((Counter(before[s][len(deal.played[s]):])
                              - (Counter(on_table.get(s, ())) - laid[s])).elements()))
                  for s in range(NUM_SEATS))
    done = functools.partial(taken_back, chooser=play.seat, offender=lr.seat, since=since, taken=taken,
                             cited=lr.cited)
    rebuild.replace_undone(deal, play.point, rebuild.Step(done, deal.stream.next_seq))
    done(deal)


def taken_back(deal: Deal, *, chooser: int, offender: int, since: int, taken: tuple[tuple[str, ...], ...],
               cited: str) -> None:
    """After the table is restored: the 报牌 irregularity is ruled on (no longer latent); the
    offender's report made again stands (announced anew); what the offender's partner took back
    is unauthorised information to the offender. ``cited``: the clause of the ruling that
    offered the take-back, which the take-back's events cite."""
    table_of(deal).latent_report = None
    seats = tuple(s for s in range(NUM_SEATS) if taken[s])
    deal.stream.emit(ev.PlaysTakenBack, seat=chooser, since=since, seats=seats, cards=taken, reason=cited)
    reporting.report_again(deal, offender)
    p = partner(offender)
    if taken[p]:
        information.mark_unauthorised(deal, (offender,), p, [Card(c) for c in taken[p]],
                                      f"partner took back ({cited})")
    deal.legal_cache = None

