"""The 掼蛋 rulings of issue 26, each driven through a real deal from explicit hands: GD-2.3.2
only after a play of cards on the out-of-turn play (a pass or an irregular attempt brings
GD-2.3.1 at once, the attempt ruled on its own after it); exposed cards whose restricted
partner goes out, or is judged 单下, become 罚张 at that moment, logged with the cause and the
ruling that set the lead option; two bars on one seat cost two turns; the lead option's type
read again from the exposed cards that remain. Then a property over refereed random deals:
the three log checks hold on every deal."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from enforcement.injector import GUANDAN_KINDS
from guandan.actions import Announce, CallReferee, Choose, DropCard, Pass, Report
from guandan.agents import HeuristicAgent, RandomAgent
from tabletop.cards import Card, parse_cards
from tabletop.seats import partner
from tests.enforcement.test_guandan_referee_properties import refereed_deal


def cards(text):
    return tuple(parse_cards(text))


OOT_HANDS = ["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"]


# ---------------------------------------------------------------------------------------------
# GD-2.3.1 / GD-2.3.2: what the 下家 did, reported by the engine, decided by the referee


def test_GD_2_3_1_an_irregular_attempt_on_it_is_ruled_after_it_and_corrected_in_order(table, effect_kinds):
    t = table(OOT_HANDS)
    t.play(0, "S3", "SINGLE 3")
    t.play(2, "H9 C9", "PAIR 9")                       # out of turn: seat 1 was to act
    out = t.play(3, "S8 D8", "PAIR 8")                 # seat 3's pair of 8s does not beat the 9s
    found = t.of("gd.found", out)
    attempt = t.of("gd.irregular", out)[0]
    assert attempt.irregularity == "does_not_beat" and attempt.seat == 3
    assert dict(found[0].facts)["answer"] == "irregular_attempt"
    assert dict(found[0].facts)["answer_attempt"] == attempt.seq
    rulings = t.rulings()
    assert [(r.clause, r.offender, r.answers) for r in rulings] == [
        ("GD-2.3.1", 2, found[0].answers), ("GD-2.4.2", 3, attempt.seq)]   # the out-of-turn play first
    assert effect_kinds(rulings[1]) == ["Return", "CorrectPlay"]
    deal = t.deal
    assert t.to_act == 1 and deal.top.seat == 0                            # order restored
    assert deal.hand(3).count(Card("S8")) == 1 and not deal.table.on_table.get(3)
    t.play(1, "S6", "SINGLE 6")
    assert t.of("table.barred_pass")[-1].seat == 2                         # seat 2's bar served
    assert t.to_act == 3                                                   # the correction, in its turn
    out = t.play(3, "SQ", "SINGLE Q")
    assert [(e.seat, e.cards) for e in t.of("table.exposed", out)] == [(3, ("S8", "D8"))]  # unused: exposed
    assert t.of("gd.lead_option", out)[0].restricted == 1


def test_GD_2_3_2_needs_a_play_and_a_pass_is_void(table):
    # the same out-of-turn pair: answered by a play it stands (GD-2.3.2), answered by a pass it
    # is taken back (GD-2.3.1) and the pass never counts
    played = table(OOT_HANDS)
    played.play(0, "S3", "SINGLE 3")
    played.play(2, "H9 C9", "PAIR 9")
    assert played.ruling(played.play(3, "SQ CQ", "PAIR Q")).clause == "GD-2.3.2"
    assert played.to_act == 0 and played.deal.top.seat == 3
    passed = table(OOT_HANDS)
    passed.play(0, "S3", "SINGLE 3")
    passed.play(2, "H9 C9", "PAIR 9")
    assert passed.ruling(passed.do(Pass(3))).clause == "GD-2.3.1"
    assert passed.to_act == 1 and passed.deal.passed == [] and passed.deal.top.cards == cards("S3")
    assert passed.replay_matches(lambda: type(passed.deal).from_hands(OOT_HANDS, "2", 0, mode="refereed"))


# ---------------------------------------------------------------------------------------------
# Seed 六: 暴露张未能按照第（二）款收回，则成为罚张 — also when the partner goes out later


def test_GD_6_partner_going_out_with_a_live_option_makes_the_exposed_cards_penalty_cards(table):
    t = table(["S3 SA", "S6 S7 C8 D4", "H9 C9 HK D5", "S8 D8 SQ CQ"])
    t.play(0, "S3", "SINGLE 3")
    exposure = t.ruling(t.do(DropCard(2, Card("HK"))))          # GD-2.5: the option for seat 0's lead
    assert exposure.clause == "GD-2.5" and t.deal.table.lead_options
    t.play(1, "S6", "SINGLE 6")
    t.do(Pass(2))
    t.do(Pass(3))
    out = t.play(0, "SA", "SINGLE A")                          # seat 0 goes out: it can never lead again
    lapsed = t.of("table.penalty_cards", out)
    assert [(e.seat, e.cards, e.cause, e.ruling) for e in lapsed] == [(2, ("HK",), "partner_out", exposure.seq)]
    assert not t.rulings()[1:]                                 # no new ruling: the LeadOption's own lapse
    # the clause the referee part has the table cite for penalty cards, the cause in words
    assert lapsed[0].reason == ("GD-6: its partner went out: the lead option can never be asked "
                                "(暴露张未能收回，成为罚张)")
    deal = t.deal
    assert not deal.table.lead_options and deal.table.exposures[0].penalty
    t.do(Pass(1))
    t.do(Pass(2))                                              # K does not beat A: no chance yet
    t.do(Pass(3))                                              # 接风: seat 2 leads
    assert t.to_act == 2 and t.legal_plays() == [("HK", "SINGLE K")]   # its first legal opportunity


def test_GD_6_partner_judged_单下_with_a_live_option_makes_the_exposed_cards_penalty_cards(table, sanction_kinds):
    t = table(["S3 D9 SK H5 C7", "S6 CT DA D4 C3", "H9 C9 HK D5", "S8 SQ DJ H6"])
    t.play(0, "S3", "SINGLE 3", report=False)
    t.do(Report(0, None, discovered=4))                        # seat 0 does not report (4 cards)
    exposure = t.ruling(t.do(DropCard(2, Card("HK"))))         # GD-2.5: the option for seat 0's lead
    t.play(1, "S6", "SINGLE 6")
    t.do(Pass(2))
    t.play(3, "S8", "SINGLE 8")
    t.play(0, "D9", "SINGLE 9")                                # the first further play goes through
    t.play(1, "CT", "SINGLE T")
    t.do(Pass(2))
    t.play(3, "SQ", "SINGLE Q")
    out = t.play(0, "SK", "SINGLE K")                          # the second: GD-4.2.4, 单下
    r = t.ruling(out)
    assert (r.clause, r.offender, sanction_kinds(r)) == ("GD-4.2.4", 0, ["ForcedLast"])
    lapsed = t.of("table.penalty_cards", out)
    assert [(e.seat, e.cards, e.cause, e.ruling) for e in lapsed] == [
        (2, ("HK",), "partner_judged_last", exposure.seq)]
    assert not t.deal.table.lead_options and t.deal.table.exposures[0].penalty


# ---------------------------------------------------------------------------------------------
# Two bars, two turns


def test_GD_2_3_1_and_GD_2_2_1_two_bars_cost_two_turns(table):
    t = table(["S3 D9 SJ DJ C5 H4", "S6 S7 C8 HA", "H9 C9 HK D4", "S8 D8 SQ CQ DT"])
    t.play(0, "S3", "SINGLE 3")
    t.play(2, "H9 C9", "PAIR 9")                               # out of turn: seat 1 was to act
    assert t.ruling(t.do(CallReferee(3))).clause == "GD-2.3.1"
    assert t.ruling(t.do(Announce(2, "pass"))).clause == "GD-2.2.1"
    assert t.deal.table.bars == {2: ["next_turn", "round"]}
    out = t.play(1, "S6", "SINGLE 6")
    assert [e.seat for e in t.of("table.barred_pass", out)] == [2]    # the first bar, one turn
    t.play(3, "S8", "SINGLE 8")
    t.play(0, "D9", "SINGLE 9")
    out = t.do(Pass(1))
    assert [e.seat for e in t.of("table.barred_pass", out)] == [2]    # the second, its next turn
    assert t.to_act == 3 and not t.deal.table.bars
    assert len(t.of("table.barred_pass")) == 2 and not t.of("table.bar_ended")


def test_GD_2_2_1_round_bar_lapses_at_the_round_end_while_the_next_turn_bar_stays(table):
    t = table(["S3 D9 SJ DJ C5", "S6 S7 C8", "H9 C9 HK", "S8 D8 SQ CQ"], leader=1)
    t.play(1, "S6", "SINGLE 6")
    t.do(Pass(2))
    t.do(Pass(3))
    t.play(2, "H9 C9", "PAIR 9")                               # out of turn: seat 0 was to act
    assert t.ruling(t.do(CallReferee(3))).clause == "GD-2.3.1"
    assert t.ruling(t.do(Announce(2, "pass"))).clause == "GD-2.2.1"
    out = t.do(Pass(0))                                        # the round ends before seat 2's turn
    assert [(e.seat, e.how) for e in t.of("table.bar_ended", out)] == [(2, "lapsed")]
    assert t.deal.table.bars == {2: ["next_turn"]}             # the GD-2.3.1 bar stays
    out = t.play(1, "S7", "SINGLE 7")
    assert [e.seat for e in t.of("table.barred_pass", out)] == [2] and not t.deal.table.bars


# ---------------------------------------------------------------------------------------------
# The lead option's type, read again from what remains (PD)


def test_GD_2_3_1_lead_option_type_is_read_again_from_the_exposed_cards_that_remain(table):
    t = table(["S3 D9 SJ DJ C5 H3", "S6 S7 C8 HA", "H9 C9 HK DT", "S8 D8 SQ CQ"])
    t.play(0, "S3", "SINGLE 3")
    t.play(2, "H9 C9", "PAIR 9")                               # out of turn: seat 1 was to act
    t.do(CallReferee(3))
    assert [o.kind for o in t.deal.table.lead_options] == ["PAIR"]
    t.play(1, "S6", "SINGLE 6")                                # seat 2's bar is served
    t.play(3, "S8", "SINGLE 8")
    t.do(Pass(0))
    t.do(Pass(1))
    t.play(2, "H9", "SINGLE 9")                                # one of the exposed pair
    table_ = t.deal.table
    assert [(e.cards, e.kind, e.penalty) for e in table_.exposures] == [([Card("C9")], "SINGLE", False)]
    assert [o.kind for o in table_.lead_options] == ["SINGLE"]
    t.do(Pass(3))
    t.do(Pass(0))
    t.do(Pass(1))                                              # seat 2 leads; then seat 0's lead comes
    t.play(2, "DT", "SINGLE T")
    t.play(3, "SQ", "SINGLE Q")
    t.do(Pass(0))
    t.do(Pass(1))
    t.do(Pass(2))
    t.play(3, "D8", "SINGLE 8")
    t.play(0, "D9", "SINGLE 9")
    t.do(Pass(1))
    t.do(Pass(2))
    t.do(Pass(3))                                              # seat 0 leads: the option is asked
    assert t.to_act == 1
    out = t.do(Choose(1, "forbid"))
    assert [(e.seat, e.rule, e.combination) for e in t.of("gd.lead_restricted", out)] == [(0, "forbid", "SINGLE")]


def test_GD_2_3_1_exposed_cards_that_no_longer_form_a_combination_become_penalty_cards(table):
    t = table(["S3 D9 SJ DJ C5", "D6 H7 C8 HA", "S5 S6 S7 S8 S9 HK", "D8 SQ CQ H4"])
    t.play(0, "S3", "SINGLE 3")
    t.play(2, "S5 S6 S7 S8 S9", "STRAIGHT 5")                 # out of turn: seat 1 was to act
    r = t.ruling(t.do(CallReferee(3)))
    assert r.clause == "GD-2.3.1" and [o.kind for o in t.deal.table.lead_options] == ["STRAIGHT"]
    t.play(1, "D6", "SINGLE 6")                                # seat 2's bar is served
    t.play(3, "D8", "SINGLE 8")
    t.do(Pass(0))
    t.do(Pass(1))
    out = t.play(2, "S9", "SINGLE 9")                          # S5-S8 form no combination
    lapsed = t.of("table.penalty_cards", out)
    assert [(e.seat, e.cards, e.cause, e.ruling) for e in lapsed] == [
        (2, ("S5", "S6", "S7", "S8"), "no_combination_left", r.seq)]
    assert not t.deal.table.lead_options and t.deal.table.exposures[0].penalty


# ---------------------------------------------------------------------------------------------
# The three log checks, on refereed random deals at a high infraction rate


def log_check_violations(events):
    """The three log checks, read from the events alone (independently of the checker): every
    GD-2.3.2 ruling follows a play of cards by the offender's 下家; no exposure stays plain once
    its restricted partner went out or was judged 单下 (by the next action); every forbid /
    require lead restriction follows its choice."""
    wrong, oot, first_answer = [], {}, {}
    plain = {s: Counter() for s in range(4)}            # owner -> exposed cards, not penalty cards
    gone, chosen = set(), None
    for e in events:
        kind = e.KIND
        if kind == "gd.deal_started" or kind == "gd.redeal":
            plain, gone, chosen = {s: Counter() for s in range(4)}, set(), None
        if kind == "gd.irregular" and e.irregularity == "play_out_of_turn":
            oot[e.seq] = dict(e.facts)["responder"]
        elif kind in ("gd.played", "gd.passed", "gd.irregular", "gd.referee_called"):
            for seq, responder in oot.items():
                if e.seat == responder and seq not in first_answer and e.seq > seq:
                    first_answer[seq] = kind
        if kind == "ref.ruling" and e.clause == "GD-2.3.2" and first_answer.get(e.answers) != "gd.played":
            wrong.append(f"GD-2.3.2 at seq {e.seq} after {first_answer.get(e.answers)}")
        if kind == "table.exposed":
            plain[e.seat].update(e.cards)
        elif kind in ("table.penalty_cards", "table.exposure_lifted", "gd.played", "gd.play_stands"):
            plain[e.seat] -= Counter(e.cards)
        elif kind in ("gd.finished", "gd.placed_last"):
            gone.add(e.seat)
        elif kind == "gd.taken_back":
            gone = set()
        if e.ACTION:
            for seat in gone:
                if +plain[partner(seat)]:
                    wrong.append(f"seat {partner(seat)}'s {sorted(plain[partner(seat)])} plain at seq {e.seq}")
                    plain[partner(seat)] = Counter()
        if kind == "table.chose" and e.purpose == "lead_option":
            chosen = ((e.seat + 3) % 4, e.option)
        elif kind == "gd.lead_restricted" and e.rule in ("forbid", "require"):
            if chosen != (e.seat, e.rule):
                wrong.append(f"restriction at seq {e.seq} without its choice")
            chosen = None
    return wrong, Counter(k for k in first_answer.values())


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), rate=st.sampled_from([0.2, 0.3]), heuristic=st.booleans())
def test_GD_2_3_and_GD_6_the_three_log_checks_hold_on_refereed_random_deals(seed, rate, heuristic):
    _, check = refereed_deal(seed, HeuristicAgent if heuristic else RandomAgent, rate)  # the checker runs too
    wrong, _ = log_check_violations(check.events)
    assert not wrong, wrong


def test_the_log_checks_see_what_they_check():
    # over a few fixed deals the situations the checks are about do occur
    rates = {kind: 0.05 for kind in GUANDAN_KINDS} | {"play_out_of_turn": 0.2, "exposed_card": 0.1}
    answers, lapses, rulings = Counter(), Counter(), Counter()
    for seed in range(8):
        _, check = refereed_deal(seed, rates=rates)
        wrong, seen = log_check_violations(check.events)
        assert not wrong, wrong
        answers.update(seen)
        lapses.update(e.cause for e in check.events if e.KIND == "table.penalty_cards" and e.cause)
        rulings.update(e.clause for e in check.events if e.KIND == "ref.ruling")
    assert answers["gd.played"] and answers["gd.passed"] and rulings["GD-2.3.2"] and rulings["GD-2.3.1"]
    assert lapses
