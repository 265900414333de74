"""The referee on the draw (GD-1): a refereed deal is drawn by one decision, ``Draw``, of the
rightful next drawer; other seats may take a card out of turn before it; a slip in the
draw shows when the hands are counted."""

from guandan.actions import Draw, DrawOutOfTurn
from guandan.deal import Phase
from tabletop.seats import next_seat, partner

SEED = 5


def drawn(table):
    t = table(drawn=True, seed=SEED, match=True)
    assert t.deal.phase is Phase.DRAW and t.deal.observe(0).situation == "draw"
    return t


def grab(t, **facts):
    """The seat after next takes the card due to the seat after the drawer (position 1)."""
    drawer = t.to_act
    rightful = next_seat(drawer)
    offender = partner(drawer)
    card = t.deal.stock[1]
    out = t.do(DrawOutOfTurn(offender, after=1, **facts))
    return out, offender, rightful, card


def test_refereed_draw_is_one_decision_of_the_rightful_drawer(table):
    t = drawn(table)
    assert [type(a) for a in t.legal()] == [Draw]
    t.do(Draw(t.to_act))
    assert t.deal.sizes == [27, 27, 27, 27] and t.deal.phase is Phase.PLAY


def test_GD_1_1_1_face_not_seen_the_card_goes_back(table, effect_kinds):
    t = drawn(table)
    out, offender, rightful, card = grab(t, face_seen=False, inserted=False)
    r = t.ruling(out)
    assert (r.clause, r.offender, r.sanctions) == ("GD-1.1.1", offender, ())
    assert effect_kinds(r) == ["Return", "RestoreOrder"]
    assert t.deal.stock[0] == card and t.to_act == rightful       # back on the stock, order restored
    assert t.deal.card_counts() == [2] * 54
    t.do(Draw(rightful))
    assert t.deal.sizes == [27, 27, 27, 27]


def test_GD_1_1_2_face_seen_not_inserted_warning(table, sanction_kinds):
    t = drawn(table)
    out, offender, rightful, card = grab(t, face_seen=True, inserted=False)
    r = t.ruling(out)
    assert (r.clause, r.offender) == ("GD-1.1.2", offender) and sanction_kinds(r) == ["Warning"]
    assert t.deal.stock[0] == card and t.to_act == rightful


def test_GD_1_1_3a_in_hand_identifiable_warning(table, sanction_kinds):
    t = drawn(table)
    out, offender, rightful, card = grab(t, face_seen=True, inserted=True, identifiable=True)
    r = t.ruling(out)
    assert (r.clause, r.offender) == ("GD-1.1.3a", offender) and sanction_kinds(r) == ["Warning"]
    assert card not in t.deal.hand(offender) and t.deal.stock[0] == card


def test_GD_1_1_3b_in_hand_not_identifiable_random_draw_and_one_level_difference(table, sanction_kinds, effect_kinds):
    t = drawn(table)
    out, offender, rightful, card = grab(t, face_seen=True, inserted=True, identifiable=False)
    r = t.ruling(out)
    assert (r.clause, r.offender, r.side) == ("GD-1.1.3b", offender, offender % 2)
    assert sanction_kinds(r) == ["LevelDiffPenalty"]
    assert effect_kinds(r) == ["RandomDraw", "RestoreOrder"]
    drawn_at_random = t.of("table.random_draw", out)[0]
    assert (drawn_at_random.seat, drawn_at_random.source) == (rightful, offender)
    assert t.deal.sizes[rightful] == 1 and t.to_act == next_seat(rightful)
    penalties = [0, 0]
    penalties[offender % 2] = 1
    assert t.engine.penalties == penalties                       # off the offending side's 级差分
    t.do(Draw(t.to_act))
    assert t.deal.sizes == [27, 27, 27, 27]
    assert t.engine.scores[offender % 2] == -1


def test_GD_1_1_the_face_up_card_can_always_be_identified(table):
    t = drawn(table)
    position = t.deal.table.draw.face_position
    drawer = t.to_act
    offender = next(s for s in range(4) if (drawer + position) % 4 != s)
    r = t.ruling(t.do(DrawOutOfTurn(offender, after=position, face_seen=False, inserted=True, identifiable=False)))
    assert r.clause == "GD-1.1.3a"


def slip(t, kind):
    n = len(t.deal.stock)
    first = t.to_act
    last = (first + n - 1) % 4
    if kind == "short":
        return t.do(Draw(first, lost=True, at=10))
    extra_by = partner(last) if kind == "one_side" else next_seat(last)
    at = next(a for a in range(3, n) if (first + a) % 4 != extra_by)
    return t.do(Draw(first, extra_by=extra_by, at=at))


def test_GD_1_2_short_deck_is_redealt_with_a_fresh_deck_without_sanction(table, effect_kinds):
    t = drawn(table)
    out = slip(t, "short")
    r = t.ruling(out)
    assert r.clause == "GD-1.2" and r.sanctions == () and effect_kinds(r) == ["Redeal"]
    assert dict(r.facts)["deck_complete"] is False
    assert t.of("gd.redeal", out)[0].fresh_deck
    assert t.deal.phase is Phase.DRAW and t.deal.card_counts() == [2] * 54
    t.do(Draw(t.to_act))
    assert t.deal.sizes == [27, 27, 27, 27]


def test_GD_1_2_1_one_side_wrong_loses_the_deal_as_a_double_last(table, sanction_kinds, effect_kinds):
    t = drawn(table)
    out = slip(t, "one_side")
    r = t.ruling(out)
    counts = dict(r.facts)["counts"]
    wrong = {s % 2 for s in range(4) if counts[s] != 27}
    assert r.clause == "GD-1.2.1" and len(wrong) == 1
    side = wrong.pop()
    assert r.side == side and sanction_kinds(r) == ["ForcedDoubleLast"]
    assert effect_kinds(r) == ["NextDealProcedure"]          # its imposed leader: no tribute
    record = t.engine.records[-1]
    assert record.team == 1 - side and record.gain == 3 and record.forced
    procedure = r.rectification[0]
    assert procedure["shuffler"] % 2 == side                          # a player of the offending side
    assert t.to_act == procedure["first_drawer"]
    assert t.of("gd.deal_started")[-1].shuffler == procedure["shuffler"]


def test_GD_1_2_2_too_many_and_too_few_warns_both_sides_then_one_level_each(table, sanction_kinds):
    t = drawn(table)
    r = t.ruling(slip(t, "both_sides"))
    assert r.clause == "GD-1.2.2" and r.offender is None and r.side is None
    assert [(s["side"], s["sanction"]["kind"]) for s in r.sanctions] == [(0, "Warning"), (1, "Warning")]
    assert t.deal.phase is Phase.DRAW and t.deal.table.draw.redeals == 1   # redeal
    r = t.ruling(slip(t, "both_sides"))
    assert [(s["side"], s["sanction"]) for s in r.sanctions] == [
        (0, {"kind": "LevelDiffPenalty", "n": 1}), (1, {"kind": "LevelDiffPenalty", "n": 1})]
    assert t.engine.penalties == [1, 1]
    t.do(Draw(t.to_act))
    assert t.deal.sizes == [27, 27, 27, 27]
