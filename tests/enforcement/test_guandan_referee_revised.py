"""The 掼蛋 rulings the revised rulebook changed (issue 11): the two scopes of 禁出一手, exposures
without a bar, penalty cards at once when no lead option can ever be asked (the ruling says
so, the table does it), GD-4.2.2 only after the 下家 played, GD-5.1 per seat, and the 下家
designating the penalty cards' type (GD-6). Each drives a real deal from explicit hands."""

import pytest

from guandan.actions import (
    Announce, CallReferee, Choose, DropCard, Draw, GiveTribute, Pass, PlayWithExtra, Report, ReturnCard,
)
from guandan.deal import Phase
from tabletop.cards import Card, parse_cards


def cards(text):
    return tuple(parse_cards(text))


def kinds_of(events):
    return [e.KIND for e in events]


# ---------------------------------------------------------------------------------------------
# 1. 禁出一手: 'next_turn' (GD-2.3.1, GD-4.2.3) and 'round' (GD-2.2)


def test_GD_2_3_1_bar_served_in_a_later_round(table, effect_kinds):
    # Seat 2 has already passed in the round when it plays out of turn: the round ends
    # before its turn comes again, and the bar costs it its turn in the next round.
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"], leader=1)
    t.play(1, "S6", "SINGLE 6")
    t.do(Pass(2))
    t.do(Pass(3))
    t.play(2, "H9 C9", "PAIR 9")                       # seat 0 was to act
    r = t.ruling(t.do(CallReferee(3)))
    assert (r.clause, r.offender) == ("GD-2.3.1", 2)
    assert effect_kinds(r) == ["Return", "RestoreOrder", "BarOnePlay", "Expose", "LeadOption"]
    assert r.rectification[2] == {"kind": "BarOnePlay", "seat": 2, "scope": "next_turn"}
    assert [(e.seat, e.scope) for e in t.of("table.barred")] == [(2, "next_turn")]
    out = t.do(Pass(0))                                # the round ends: the bar does not lapse
    assert "gd.round_over" in kinds_of(out) and not t.of("table.bar_ended")
    assert t.deal.table.bars == {2: ["next_turn"]} and t.deal.observe(3).barred == (2,)
    out = t.play(1, "S7", "SINGLE 7")                  # seat 1 leads the next round
    assert [e.seat for e in t.of("table.barred_pass", out)] == [2]   # served there
    assert t.to_act == 3 and not t.deal.table.bars


def test_GD_2_3_1_bar_on_a_lead_passes_the_lead_to_the_next_seat(table):
    # Seat 2 wins the round after its barred out-of-turn play: its barred turn is a lead,
    # which goes to its 下家 (seat 3); the bar is spent.
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK D4", "S8 D8 SQ CQ"], leader=0)
    t.play(0, "S3", "SINGLE 3")
    t.play(1, "S6", "SINGLE 6")
    t.play(2, "HK", "SINGLE K")
    t.play(2, "H9 C9", "PAIR 9")                       # seat 3 was to act
    r = t.ruling(t.do(CallReferee(3)))
    assert r.clause == "GD-2.3.1" and t.to_act == 3
    t.do(Pass(3))
    t.do(Pass(0))
    out = t.do(Pass(1))                                # seat 2 would lead
    barred = t.of("table.barred_pass", out)
    assert [(e.seat, e.lead_to) for e in barred] == [(2, 3)]
    deal = t.deal
    assert t.to_act == 3 and deal.top is None and deal.leader == 3   # seat 3 leads
    assert not deal.table.bars and not t.of("table.bar_ended")
    t.play(3, "S8", "SINGLE 8")
    assert t.to_act == 0                               # play goes on in order
    # later turns of seat 2 are its own again
    t.do(Pass(0))
    t.do(Pass(1))
    assert t.to_act == 2 and any(a.cards for a in t.legal() if hasattr(a, "cards"))


def test_GD_2_3_1_barred_lead_with_the_xiajia_out_goes_to_its_partner(table):
    # Seat 3 (the offender's 下家) has gone out: the lead goes to seat 3's partner, seat 1
    # (接风), so it stays with the non-offending side rather than passing to seat 0.
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK D4", "SA"], leader=3)
    t.play(3, "SA", "SINGLE A")                        # seat 3 goes out: 上游
    t.do(Pass(0))
    t.do(Pass(1))
    t.do(Pass(2))                                      # 接风: seat 1 leads
    t.play(1, "S6", "SINGLE 6")
    t.play(2, "HK", "SINGLE K")
    t.play(2, "H9 C9", "PAIR 9")                       # out of turn: seat 0 was to act
    assert t.ruling(t.do(CallReferee(0))).clause == "GD-2.3.1"
    t.do(Pass(0))
    out = t.do(Pass(1))                                # seat 2 would lead
    assert [(e.seat, e.lead_to) for e in t.of("table.barred_pass", out)] == [(2, 1)]
    assert t.to_act == 1 and t.deal.top is None


def test_GD_2_2_1_bar_lapses_at_round_end(table, effect_kinds):
    # Seat 2 holds the top play and announces "pass" out of turn: the round ends before its
    # turn comes, and the GD-2.2 bar ('round', 在该圈) lapses with it.
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK D4", "S8 D8 SQ CQ"], leader=0)
    t.play(0, "S3", "SINGLE 3")
    t.play(1, "S6", "SINGLE 6")
    t.play(2, "HK", "SINGLE K")
    r = t.ruling(t.do(Announce(2, "pass")))            # seat 3 is to act
    assert r.clause == "GD-2.2.1" and effect_kinds(r) == ["BarOnePlay"]
    assert r.rectification[0] == {"kind": "BarOnePlay", "seat": 2, "scope": "round"}
    assert [(e.seat, e.scope) for e in t.of("table.barred")] == [(2, "round")]
    t.do(Pass(3))
    t.do(Pass(0))
    out = t.do(Pass(1))
    assert [(e.seat, e.how) for e in t.of("table.bar_ended", out)] == [(2, "lapsed")]
    assert not t.of("table.barred_pass") and not t.deal.table.bars
    assert t.to_act == 2 and t.deal.top is None        # it leads, unbarred


# ---------------------------------------------------------------------------------------------
# 2. Exposures carry no bar


def test_GD_2_5_exposure_not_barred(table, effect_kinds):
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"])
    t.play(0, "S3", "SINGLE 3")
    r = t.ruling(t.do(DropCard(2, Card("HK"))))
    assert r.clause == "GD-2.5" and effect_kinds(r) == ["Expose", "LeadOption"]
    assert not t.of("table.barred") and not t.deal.table.bars
    t.play(1, "S6", "SINGLE 6")
    assert t.to_act == 2 and not t.of("table.barred_pass")
    t.play(2, "HK", "SINGLE K")                        # its next turn is its own
    assert t.deal.top.seat == 2


def test_GD_2_4_2_exposure_of_unused_cards_not_barred(table):
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"])
    t.play(0, "D9", "SINGLE 9")
    assert t.ruling(t.play(1, "S7", "SINGLE 7")).clause == "GD-2.4.2"
    t.do(Pass(1))
    assert t.of("table.exposed")[-1].cards == ("S7",) and not t.of("table.barred")


# ---------------------------------------------------------------------------------------------
# 3. No lead option that can never be asked: penalty cards at once, and the ruling says so

PARTNER_OUT = ["S3 D9 SJ DJ C5", "S6 S7 C8", "", "S8 D8 SQ CQ"]


def test_GD_2_5_partner_out_the_dropped_card_is_a_penalty_card_at_once(table, effect_kinds):
    t = table(PARTNER_OUT, leader=1, finished=[2])
    t.play(1, "S6", "SINGLE 6")
    out = t.do(DropCard(0, Card("SJ")))                # seat 3 is to act
    r = t.ruling(out)
    assert r.clause == "GD-2.5" and effect_kinds(r) == ["Expose", "PenaltyCards"]
    assert r.rectification[1] == {"kind": "PenaltyCards", "cards": ("SJ",), "seat": 0}
    assert [e.cards for e in t.of("table.penalty_cards", out)] == [("SJ",)]
    assert not t.of("gd.lead_option")
    assert t.deal.observe(1).penalty[0] == cards("SJ")


def test_GD_2_3_1_partner_out_exposed_cards_are_penalty_cards_and_still_barred(table, effect_kinds):
    t = table(PARTNER_OUT, leader=1, finished=[2])
    t.play(1, "S6", "SINGLE 6")
    t.play(0, "SJ DJ", "PAIR J")                       # seat 3 was to act
    r = t.ruling(t.do(CallReferee(1)))                 # the offender's next seat in play answers
    assert r.clause == "GD-2.3.1"
    assert effect_kinds(r) == ["Return", "RestoreOrder", "BarOnePlay", "Expose", "PenaltyCards"]
    assert not t.of("gd.lead_option") and t.of("table.penalty_cards")[-1].cards == ("SJ", "DJ")
    assert t.deal.observe(1).penalty[0] == cards("SJ DJ")


def test_GD_2_4_2_partner_out_the_correction_leaves_penalty_cards(table, effect_kinds):
    t = table(PARTNER_OUT, leader=1, finished=[2])
    t.play(1, "S6", "SINGLE 6")
    t.do(Pass(3))
    r = t.ruling(t.play(0, "S3", "SINGLE 3"))          # does not beat the 6
    assert r.clause == "GD-2.4.2"
    assert r.rectification[-1] == {"kind": "CorrectPlay", "seat": 0, "unused": "penalty", "cards": ("S3",)}
    out = t.do(Pass(0))                                # the correction: a pass
    assert [e.cards for e in t.of("table.exposed", out)] == [("S3",)]
    assert [e.cards for e in t.of("table.penalty_cards", out)] == [("S3",)] and not t.of("gd.lead_option")


def test_GD_2_4_3_extra_cards_forming_no_combination_are_penalty_cards_at_once(table, effect_kinds):
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8 D4", "H9 C9 HK", "S8 D8 SQ CQ"])
    t.play(0, "S3", "SINGLE 3")
    r = t.ruling(t.do(PlayWithExtra(1, parse_cards("S6"), "SINGLE 6", parse_cards("C8 D4"))))
    assert r.clause == "GD-2.4.3"
    assert effect_kinds(r) == ["Return", "Expose", "PenaltyCards", "PlayStands"]   # no type to choose about
    assert t.of("table.penalty_cards")[-1].cards == ("D4", "C8") and not t.of("gd.lead_option")


def test_GD_2_4_1_unused_cards_forming_no_combination_are_penalty_cards(table):
    # the ruling announced it (CorrectPlay unused='lead_option': the option needs a type)
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8 D4", "H9 C9 HK", "S8 D8 SQ CQ"])
    t.play(0, "S3", "SINGLE 3")
    r = t.ruling(t.do(PlayWithExtra(1, parse_cards("S6 S7"), "PAIR 6", parse_cards("C8"))))
    assert r.rectification[-1] == {"kind": "CorrectPlay", "seat": 1, "unused": "lead_option",
                                     "cards": ("S6", "S7")}
    out = t.do(Pass(1))
    assert t.of("table.exposed", out)[-1].cards == ("S6", "S7")
    assert t.of("table.penalty_cards", out)[-1].cards == ("S6", "S7") and not t.of("gd.lead_option", out)


def test_GD_3_1_1_the_returned_tribute_card_gets_the_lead_option_the_ruling_lists(table, effect_kinds):
    hands = ["SA S3 S4", "S6 S7 C8", "H9 C9 HK", "S5 D8 SQ DA"]
    t = table(hands, leader=None, previous_order=(0, 1, 2, 3))
    r = t.ruling(t.do(GiveTribute(3, Card("S5"))))
    assert r.clause == "GD-3.1.1"
    assert effect_kinds(r) == ["Return", "Expose", "LeadOption", "RedoTribute"]
    assert r.rectification[2] == {"kind": "LeadOption", "chooser": 2, "restricted_seat": 1, "exposed_kind": "SINGLE"}
    assert [(e.chooser, e.restricted) for e in t.of("gd.lead_option")] == [(2, 1)]


# ---------------------------------------------------------------------------------------------
# 4. GD-4.2.2 needs the 下家 to have played (出牌); a pass is not a play

REPORT_HANDS = ["S3 H4 C5 D6 S8 H9 CT DJ SQ HK D3", "S4 S6 H8 C9", "C7 D8 SJ CA", "S5 D7 DT HQ"]


def test_GD_4_2_1_after_a_pass(table, effect_kinds):
    t = table(REPORT_HANDS, match=True)
    t.play(0, "D3", "SINGLE 3", report=False)
    t.do(Report(0, None, discovered=2))                # to come to light after the 下家 acts
    assert not t.rulings()
    out = t.do(Pass(1))                                # the 下家 passes: no 出牌
    r = t.ruling(out)
    assert (r.clause, r.offender) == ("GD-4.2.1", 0)
    assert effect_kinds(r) == ["ReportAgain"]          # report again, no take-back
    assert dict(r.facts)["stage"] == 1 and dict(r.facts)["played"] == ()
    assert t.deal.announced[0] == 10 and not t.of("table.choice")
    assert t.to_act == 2


def test_GD_4_2_2_after_the_xiajia_played(table, effect_kinds):
    t = table(REPORT_HANDS, match=True)
    t.play(0, "D3", "SINGLE 3", report=False)
    t.do(Report(0, None, discovered=2))
    t.play(1, "S4", "SINGLE 4")                        # the 下家 plays
    t.do(Pass(2))
    out = t.do(Pass(3))
    r = t.ruling(out)
    assert (r.clause, r.offender) == ("GD-4.2.2", 0)
    assert effect_kinds(r) == ["ReportAgain", "Replay"]   # the partner only passed: nothing to take back
    assert dict(r.facts)["played"] == (1,)
    assert t.deal.observe(1).choice == ("replay", ("take_back", "stand"))


# ---------------------------------------------------------------------------------------------
# 5. GD-5.1 per seat, over two deals of a real match


def _seat_1_judged_last(table, hands):
    """Seat 1 plays twice more without its 报牌 (GD-4.2.4: judged 单下)."""
    t = table(hands, leader=1, match=True)
    t.play(1, "S4", "SINGLE 4", report=False)
    t.do(Report(1, None, discovered=4))
    t.play(2, "C7", "SINGLE 7")
    t.do(Pass(3))
    t.do(Pass(0))
    t.play(1, "H8", "SINGLE 8", report=False)          # the first further play goes through
    t.play(2, "CA", "SINGLE A")                        # seat 2 goes out: 上游
    t.do(Pass(3))
    t.do(Pass(0))
    t.do(Pass(1))                                      # 接风: seat 0 leads
    t.play(0, "S3", "SINGLE 3")
    r = t.ruling(t.play(1, "S6", "SINGLE 6", report=False))
    assert r.clause == "GD-4.2.4" and r.rectification[1:] == (
        {"kind": "NoTributeNextDeal", "seat": 1},
        {"kind": "PassSequence", "offender": 1, "seats": (3,), "then": "play_on"})   # the 下家 is out
    assert t.of("gd.next_deal_scheduled")[-1].no_tribute_seats == (1,)
    return t


def test_GD_5_1_partner_still_pays(table):
    # Side 1 finishes 3rd and 4th (double tribute due from seats 3 and 1); seat 1 was judged
    # 单下: seat 3 still pays, a single tribute to the 上游, and leads.
    t = _seat_1_judged_last(table, ["S3 SK", "S4 S6 H8 C9", "C7 CA", "S5 D7 DT HQ"])
    t.do(Pass(3))                                      # GD-4.2.4's sequence: seat 3 may pass
    t.play(0, "SK", "SINGLE K")                        # seat 0 out: 1-2 for side 0
    assert t.engine.records[-1].finish_order == (2, 0, 3, 1)
    t.do(Draw(t.to_act))                               # deal 2
    due = [e for e in t.of("gd.tribute_due") if e.deal == 2]
    assert [(e.payments, e.double, e.excused) for e in due] == [(((3, 2),), True, (1,))]
    assert t.deal.phase is Phase.TRIBUTE and t.to_act == 3
    card = next(a.card for a in t.legal())
    t.do(GiveTribute(3, card))
    back = next(a.card for a in t.legal())
    t.do(ReturnCard(2, back))
    assert t.deal.phase is Phase.PLAY and t.to_act == 3    # the payer leads
    assert t.deal.tribute_plan.payments == ((3, 2),)


def test_GD_5_1_only_payer_excused(table):
    # Seat 1, judged 单下, is the 下游 and the only payer: no tribute; the 上游 leads.
    t = _seat_1_judged_last(table, ["S3 SK", "S4 S6 H8 C9", "C7 CA", "S5 HQ"])
    t.play(3, "HQ", "SINGLE Q")                        # seat 3 plays on in the sequence
    t.do(Pass(0))
    t.play(3, "S5", "SINGLE 5")                        # seat 3 out: 二游
    assert t.engine.records[-1].finish_order == (2, 3, 0, 1)
    t.do(Draw(t.to_act))
    waived = [e for e in t.of("gd.tribute_waived") if e.deal == 2]
    assert [(e.double, e.excused) for e in waived] == [(False, (1,))]
    assert not [e for e in t.of("gd.tribute_due") if e.deal == 2]
    assert t.deal.phase is Phase.PLAY and t.to_act == 2     # the 上游 leads


# ---------------------------------------------------------------------------------------------
# GD-6: the holder's 下家 designates the type


def test_GD_6_the_holders_xiajia_designates_the_penalty_cards_type(table):
    # Seat 2's exposed pair 9 becomes penalty cards after choice c; when seat 2 leads, a pair
    # and a single can be made of them: its 下家 (seat 3) designates which.
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK D4 HA SA", "S8 D8 SQ CQ"], leader=0)
    t.play(0, "S3", "SINGLE 3")
    t.play(2, "H9 C9", "PAIR 9")                       # out of turn: seat 1 was to act
    assert t.ruling(t.do(CallReferee(3))).clause == "GD-2.3.1"
    t.play(1, "S6", "SINGLE 6")                        # seat 2's barred turn follows
    t.do(Pass(3))
    t.play(0, "D9", "SINGLE 9")
    t.do(Pass(1))
    t.do(Pass(2))
    t.do(Pass(3))                                      # seat 0 (the partner) leads next
    assert t.to_act == 1 and t.deal.observe(1).choice == ("lead_option", ("forbid", "require", "free"))
    t.do(Choose(1, "free"))                            # c: the pair stays, as penalty cards
    assert t.of("table.penalty_cards")[-1].cards == ("H9", "C9")
    t.play(0, "SJ DJ", "PAIR J")
    t.do(Pass(1))
    t.play(2, "HA SA", "PAIR A")                       # no penalty play beats a pair J: free
    t.do(Pass(3))
    t.do(Pass(0))
    out = t.do(Pass(1))                                # seat 2 leads: pair or single 9?
    offered = t.of("table.choice", out)
    assert [(e.seat, e.purpose, e.about, e.options) for e in offered] == [
        (3, "designate", 2, ("PAIR", "SINGLE"))]
    assert t.to_act == 3
    out = t.do(Choose(3, "SINGLE"))
    assert [(e.seat, e.holder, e.combination) for e in t.of("gd.designated", out)] == [(3, 2, "SINGLE")]
    assert t.to_act == 2 and {r for _, r in t.legal_plays()} == {"SINGLE 9"}


# ---------------------------------------------------------------------------------------------
# What the log says is what happened: under random infractions, the bars, exposures, lead
# options, penalty cards and pass sequences a ruling lists are exactly the ones the table
# carries out before anything else happens; the unused cards of a correction follow CorrectPlay.


def _windows(events):
    """Each ruling with the events it caused (up to the next action or referee event)."""
    out, current = [], None
    for e in events:
        if e.KIND == "ref.ruling":
            current = (e, [])
            out.append(current)
        elif e.ACTION or e.KIND.startswith("ref."):
            current = None
        elif current is not None:
            current[1].append(e)
    return out


_LISTED = {
    "BarOnePlay": ("table.barred", lambda f: (f["seat"], f["scope"]), lambda e: (e.seat, e.scope)),
    "Expose": ("table.exposed", lambda f: (f["seat"], tuple(sorted(f["cards"]))), lambda e: (e.seat, tuple(sorted(e.cards)))),
    "LeadOption": ("gd.lead_option", lambda f: (f["chooser"], f["restricted_seat"], f["exposed_kind"]),
                   lambda e: (e.chooser, e.restricted, e.combination)),
    "PenaltyCards": ("table.penalty_cards", lambda f: (f["seat"], tuple(sorted(f["cards"]))),
                     lambda e: (e.seat, tuple(sorted(e.cards)))),
    "PassSequence": ("gd.pass_sequence", lambda f: (f["offender"], tuple(f["seats"]), f["then"]),
                     lambda e: (e.seat, tuple(e.seats), e.then)),
}


def _own(ruling, caused):
    """The events of ``caused`` that are this ruling's: an exposure of another clause's cards
    (the unused cards of an earlier correction, which this ruling's play completed) is that
    earlier ruling's CorrectPlay at work, with the lead option or penalty cards after it; penalty
    cards with a cause are an earlier ruling's lead option lapsing (its partner out or 单下)."""
    own, foreign = [], []
    target = own
    for e in caused:
        if e.KIND == "table.penalty_cards" and e.cause is not None:
            foreign.append(e)
            continue
        if e.KIND == "table.exposed":
            target = own if e.reason == ruling.clause else foreign
        elif e.KIND not in ("gd.lead_option", "table.penalty_cards"):
            target = own
        target.append(e)
    return own, foreign


def _corrections_follow_correct_play(events):
    """The unused cards of a correction are exposed as the ruling's CorrectPlay said."""
    pending, seen = {}, 0
    for k, e in enumerate(events):
        if e.KIND == "ref.ruling":
            for f in e.rectification:
                if f["kind"] == "CorrectPlay":
                    pending[f["seat"]] = (e.clause, f["unused"])
        elif e.KIND == "table.exposed" and e.seat in pending and e.reason == pending[e.seat][0]:
            _, unused = pending.pop(e.seat)
            after = events[k + 1].KIND
            assert after == ("table.penalty_cards" if unused == "penalty" or e.combination is None
                             else "gd.lead_option"), (unused, e, events[k + 1])
            seen += 1
    return seen


def check_listed_effects_happen(events):
    checked = _corrections_follow_correct_play(events)
    for ruling, caused in _windows(events):
        caused, _ = _own(ruling, caused)
        for kind, (event_kind, of_effect, of_event) in _LISTED.items():
            listed = sorted(of_effect(f) for f in ruling.rectification if f["kind"] == kind)
            done = sorted(of_event(e) for e in caused if e.KIND == event_kind)
            assert listed == done, f"{ruling.clause} (seq {ruling.seq}) lists {kind} {listed}, the table did {done}"
            checked += len(listed)
        for f in ruling.rectification:
            if f["kind"] == "NoTributeNextDeal":
                scheduled = [e for e in caused if e.KIND == "gd.next_deal_scheduled"]
                assert scheduled and f["seat"] in scheduled[-1].no_tribute_seats, ruling
    return checked


@pytest.mark.parametrize("seed", range(6))
def test_a_rulings_listed_effects_are_what_the_table_does(seed):
    from enforcement.injector import GUANDAN_KINDS
    from tests.enforcement.test_guandan_referee_properties import refereed_deal

    rates = {kind: 0.05 for kind in GUANDAN_KINDS} | {"play_out_of_turn": 0.15, "exposed_card": 0.1,
                                                      "extra_cards": 0.1, "report_missing": 0.1}
    _, check = refereed_deal(seed, rates=rates)
    assert check_listed_effects_happen(check.events) > 0

