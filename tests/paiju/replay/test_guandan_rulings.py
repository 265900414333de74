"""The replay views say what the revised 掼蛋 rulings did (issue 11): a bar's scope, a barred
lead passing to the 下家, the seat excused from tribute (never "as usual"), and the 下家's
designation of the penalty cards' type (GD-6)."""

from __future__ import annotations

import re

from guandan import events as ev
from tests.paiju.replay.test_view import GD_LOG, GOLDEN, run, with_events


def flat(text: str) -> str:
    return re.sub(r"[┃│\s]+", "", text)


def _insert(tmp_path, make):
    return with_events(GD_LOG, tmp_path / "ruled.jsonl", 135, make)


def test_next_deal_without_the_tribute_of_a_seat_is_not_as_usual(tmp_path, capsys):
    def scheduled(event):
        return [ev.NextDealScheduled(deal=event.deal, seq=0, seat=None, no_tribute_seats=(1,), no_tribute=False,
                                     shuffler=None, cutter=None, first_drawer=None, leader=None)]
    code, out, _ = run(capsys, _insert(tmp_path, scheduled))
    assert code == 0
    assert flat("next deal: no tribute from seat 1 (judged 单下; a tribute its partner owes stands)") in flat(out)
    assert "as usual" not in out


def test_tribute_due_and_waived_name_the_excused_seat(tmp_path, capsys):
    def tribute(event):
        return [ev.TributeDue(deal=event.deal, seq=0, seat=None, payments=((3, 2),), double=True, excused=(1,)),
                ev.TributeWaived(deal=event.deal, seq=0, seat=None, double=False, excused=(1,))]
    _, out, _ = run(capsys, _insert(tmp_path, tribute))
    assert flat("double tribute due: seat 3 → seat 2 (seat 1 judged 单下: no tribute from it)") in flat(out)
    assert flat("tribute waived by a ruling (seat 1 judged 单下: no tribute from it)") in flat(out)


def test_the_bar_scope_shows_in_the_listing_and_the_seat_flags(capsys):
    """A real refereed deal (the golden log): a GD-2.3.1 bar (next turn) and a GD-2.2.2 bar
    (this round), told in the listing and shown among the barred seat's flags, where the
    engine's table has them."""
    log = GOLDEN / "golden_guandan_deal_refereed_seed3.jsonl"
    _, out, _ = run(capsys, log)
    assert flat("seat 1 barred 禁出一手: next turn, this round or later (GD-2.3.1)") in flat(out)
    assert flat("seat 2 barred 禁出一手: this round only (GD-2.2.2)") in flat(out)
    _, at, _ = run(capsys, log, "--at", 140)
    assert "[barred 禁出一手 (next" in at               # (next turn), wrapped in its column
    _, at, _ = run(capsys, log, "--at", 179)
    assert "[barred 禁出一手 (this" in at                 # (this round), wrapped in its column


def test_a_barred_lead_and_a_designation_are_told(tmp_path, capsys):
    def events(event):
        return [ev.SeatBarred(deal=event.deal, seq=0, seat=2, reason="GD-2.3.1", scope="next_turn"),
                ev.BarredPass(deal=event.deal, seq=0, seat=2, lead_to=3),
                ev.PenaltyKindDesignated(deal=event.deal, seq=0, seat=3, holder=2, combination="PAIR")]
    log = _insert(tmp_path, events)
    _, out, _ = run(capsys, log)
    assert flat("seat 2 passes (barred) its lead: seat 3 leads") in flat(out)
    assert flat("seat 3 designates 对子 pair for seat 2's penalty cards 罚张 (GD-6)") in flat(out)
    _, at, _ = run(capsys, log, "--at", 138)
    assert "[barred" not in at                           # the bar was spent: no flag on the seat
