"""The restriction to lead the exposed cards (GD-4.2.3: after the pass sequence the offender
leads them) ends whenever those cards leave its hand, not only when it leads them: here the
offender plays them on an out-of-turn play that stands (GD-2.3.2)."""

from collections import Counter

from guandan.actions import Choose, Pass, Play
from guandan.deal import Deal
from guandan.match import Match
from tabletop.cards import parse_cards
from tabletop.events import EventStream
from tests.enforcement.test_guandan_referee_report import HANDS, round_to_the_offender, unreported_lead


def cards(text):
    return tuple(parse_cards(text))


def _match_from(hands):
    stream = EventStream()
    deal = Deal.from_hands(hands, "2", 0, stream=stream, mode="refereed")
    return Match(1, stream=stream, mode="refereed", first_deal=deal)


def restricted_to_lead_its_exposed_eight(table):
    """GD-4.2.3: seat 0 played again unreported; its 8 is taken back and exposed, the three
    others pass, and seat 0 must lead its exposed 8 (penalty cards after choice c)."""
    t = unreported_lead(table, stage=3)
    round_to_the_offender(t)
    t.play(0, "S8", "SINGLE 8")
    t.do(Pass(1))
    t.do(Choose(3, "free"))
    t.do(Pass(2))
    t.do(Pass(3))
    assert t.to_act == 0 and t.legal_plays() == [("S8", "SINGLE 8")]
    return t


def test_GD_4_2_3_the_exposed_cards_played_on_an_out_of_turn_play_that_stands_end_the_restriction(table):
    t = restricted_to_lead_its_exposed_eight(table)
    t.do(Play(3, cards("S5"), "SINGLE 5"))               # seat 3 plays before seat 0 leads
    assert t.to_act == 0 and t.legal_plays() == [("S8", "SINGLE 8")]   # 罚张: play them or pass
    out = t.play(0, "S8", "SINGLE 8")                    # 跟牌 on the out-of-turn 5
    r = t.ruling(out)
    assert r.clause == "GD-2.3.2"
    assert [(e.seat, e.cards) for e in t.of("gd.play_stands", out)] == [(3, ("S5",)), (0, ("S8",))]
    deal = t.deal
    assert deal.table.restriction is None and deal.table.exposures == []
    assert deal.observe(1).exposed == ((), (), (), ())
    assert cards("S8")[0] not in deal.hand(0) and deal.played[0][-1:] == cards("S8")
    t.do(Pass(1))
    t.do(Pass(2))
    t.do(Pass(3))                                        # seat 0 won the round: it leads again
    assert t.to_act == 0 and deal.top is None
    offered = t.legal_plays()
    assert ("S8", "SINGLE 8") not in offered             # it no longer holds the 8
    held = Counter(deal.hand(0))
    assert all(not Counter(cards(c)) - held for c, _ in offered)
    assert ("H9 CT DJ SQ HK", "STRAIGHT 9") in offered and ("S3", "SINGLE 3") in offered   # it leads freely
    assert t.replay_matches(lambda: _match_from(HANDS))   # the log re-creates the table


def test_GD_4_2_3_the_exposed_cards_led_end_the_restriction_as_before(table):
    t = restricted_to_lead_its_exposed_eight(table)
    t.play(0, "S8", "SINGLE 8")
    assert t.deal.table.restriction is None and t.deal.table.exposures == []
