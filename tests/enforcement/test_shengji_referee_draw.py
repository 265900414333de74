"""双升 rulings during the draw, one test (at least) per clause: a stacked pack drawn card by
card in refereed mode (seat 0 banks and draws first; level 2), driven into the situation;
the ruling and the table afterwards."""

from enforcement.shengji_rulings import make_shengji_referee
from shengji.actions import Choose, DeclareAtOnce, Draw, DrawKitty, DrawOutOfTurn, NoDeclare
from shengji.deal import Phase, stacked_deck
from tests.enforcement.shengji_refereed import SjTable, cards, effects, fact, kinds, points

KITTY = "S2 C3 C4 C6 C7 C8 C9 D3"


def drawn(draws: dict, kitty: str = KITTY, **kw) -> SjTable:
    return SjTable(deck=stacked_deck(0, draws, kitty=kitty), banker=0, seed=5, **kw)


# ---------------------------------------------------------------------------------------------
# SJ-1.1 / SJ-3.1.1: a card another seat should draw


def test_the_draw_waits_for_the_rightful_drawer_in_refereed_mode():
    t = drawn({0: "S3"})
    assert t.deal.phase is Phase.DRAW and t.deal.to_act == 0 and t.legal() == [Draw(0)]
    assert t.deal.observe(2).situation == "draw"


def test_SJ_1_1_took_another_seats_card_face_unseen():
    t = drawn({0: "S3"})
    t.do(DrawOutOfTurn(2, after=0))                    # latent: it happens when the draw gets there
    assert not t.of("ref.ruling")
    out = t.do(Draw(0))
    r = t.ruling(out)
    assert (r.clause, kinds(r), r.offender) == ("SJ-1.1", ["Warning"], 2)
    assert effects(r) == ["Return", "RestoreOrder"] and fact(r, "card") == "S3"
    returned = t.of("table.returned", out)[0]
    assert returned.to == "stock" and returned.cards == ("S3",)
    assert t.of("sj.drawn", out)[0].seat == 0 and t.of("sj.drawn", out)[0].card == "S3"   # 0 draws it
    t.draw_on()
    assert "S3" in t.hand(0) and [len(t.hand(s)) for s in range(4)] == [33, 25, 25, 25]


def test_SJ_1_1_a_light_card_seen_but_not_in_hand_is_warned_by_analogy():
    t = drawn({0: "S3"})
    t.do(DrawOutOfTurn(2, after=0, face_seen=True))
    r = t.ruling(t.do(Draw(0)))
    assert (r.clause, kinds(r), fact(r, "heavy")) == ("SJ-1.1", ["Warning"], ())
    assert "SJ-1.1" in fact(r, "by_analogy")


def test_SJ_3_1_1_took_another_seats_heavy_card_seen_not_in_hand():
    t = drawn({0: "SA"})
    t.do(DrawOutOfTurn(2, after=0, face_seen=True))
    r = t.ruling(t.do(Draw(0)))
    assert (r.clause, kinds(r), points(r), fact(r, "heavy")) == ("SJ-3.1.1", ["PointPenalty"], 10, ("SA",))
    assert t.attackers_delta() == 10                   # seat 2 is on the banker's side
    t.draw_on()
    assert "SA" in t.hand(0)


def test_a_card_taken_into_the_hand_is_unresolved_and_the_rightful_drawer_draws_at_random():
    t = drawn({0: "SA S7"})
    t.do(DrawOutOfTurn(3, after=4, in_hand=True))      # position 4 is seat 0's second card
    u = t.unresolved(t.do(Draw(0)))
    assert u.fallback == "SJ-3.0" and dict(u.facts)["in_hand"] is True
    assert t.of("table.random_draw")[0].seat == 0 and t.of("table.random_draw")[0].source == 3
    t.draw_on()
    assert [len(t.hand(s)) for s in range(4)] == [33, 25, 25, 25]


def test_an_out_of_turn_draw_never_names_the_rightful_drawers_own_card():
    t = drawn({0: "S3"})
    t.do(DrawOutOfTurn(0, after=0))                    # seat 0's own card is next: the next one is 1's
    assert dict(t.of("sj.irregular")[0].facts)["rightful"] == 1


# ---------------------------------------------------------------------------------------------
# SJ-1.5: the banker drew through the kitty


def test_SJ_1_5_banker_drew_through_the_kitty_loses_the_right_to_declare():
    t = drawn({0: "S3"})                               # the kitty starts with S2: a level card
    t.do(DrawKitty(0))
    out = t.draw_on(until=Phase.DECLARE)
    r = t.ruling(out)
    assert (r.clause, kinds(r), effects(r)) == ("SJ-1.5", ["Warning"], ["LoseDeclarationRight"])
    deal = t.deal
    assert 0 in deal.declare_barred and "S2" in t.hand(0) and len(t.hand(0)) == 26
    assert t.of("sj.declaration_barred", out)
    seen = []
    while deal.phase in (Phase.DRAW, Phase.DECLARE):
        seen.append(deal.to_act)
        t.do(t.legal()[0] if isinstance(t.legal()[0], Draw) else NoDeclare(deal.to_act))
    assert 0 not in seen                               # never offered a declaration
    assert deal.phase is Phase.KITTY and len(deal.picked_up) == 7 and len(t.hand(0)) == 33
    assert deal.observe(1).declare_barred == (0,)


# ---------------------------------------------------------------------------------------------
# SJ-1.10 / SJ-3.1.7: counts wrong at the end of the draw


def test_SJ_1_10_one_card_too_many_the_non_offending_side_decides_to_draw():
    t = drawn({0: "S3"})
    t.do(Draw(0, extra_by=1, of=2, count=1, at=0))     # seat 1 takes the card due to seat 2
    out = t.draw_on()
    r = t.ruling(out)
    assert (r.clause, kinds(r), r.offender) == ("SJ-1.10", ["Warning"], 1)
    assert fact(r, "counts") == (25, 26, 24, 25) and fact(r, "chooser") == 2
    assert r.rectification[0]["kind"] == "Choice" and r.rectification[0]["may_decline"] is True
    deal = t.deal
    assert deal.to_act == 2 and [a.option for a in t.legal()] == ["random_draw", "decline"]
    assert deal.observe(2).choice == ("miscount_draw", ("random_draw", "decline"))
    t.do(Choose(2, "random_draw"))
    assert t.of("table.random_draw")[0].source == 1 and list(deal.hand_size) == [25, 25, 25, 25]
    t.draw_on()
    assert deal.phase is Phase.KITTY


def test_SJ_1_10_declined_the_seat_with_one_too_many_hands_a_card_of_its_choice_over():
    t = drawn({0: "S3"})
    t.do(Draw(0, extra_by=1, of=2, count=1, at=0))
    t.draw_on()
    t.do(Choose(2, "decline"))
    deal = t.deal
    assert deal.to_act == 1 and deal.table.choice.purpose == "hand_over"
    card = t.legal()[0].option
    t.do(Choose(1, card))
    assert card in t.hand(2) and list(deal.hand_size) == [25, 25, 25, 25]
    assert t.of("sj.handed_over")[0].card == card


def test_SJ_3_1_7_two_cards_off_choice_of_random_draw_or_redeal_and_ten():
    t = drawn({0: "S3"})
    t.do(Draw(0, extra_by=1, of=2, count=2, at=0, fault="taker"))
    r = t.ruling(t.draw_on())
    assert (r.clause, points(r), r.side) == ("SJ-3.1.7", 10, 1)
    options = r.rectification[0]["options"]
    assert [o["kind"] for o in options] == ["RandomDraw", "Redeal"] and options[0]["count"] == 2
    assert t.attackers_delta() == -10                  # seat 1 attacks
    assert [a.option for a in t.legal()] == ["random_draw", "redeal"]
    t.do(Choose(2, "random_draw"))
    assert list(t.deal.hand_size) == [25, 25, 25, 25] and len(t.of("table.random_draw")[0].cards) == 2


def test_SJ_3_1_7_redeal_draws_again_and_the_ten_points_stand():
    t = drawn({0: "S3"})
    t.do(Draw(0, extra_by=3, of=0, count=3, at=0, fault="short"))   # seat 0's side drew too few
    r = t.ruling(t.draw_on())
    assert (r.clause, r.offender, fact(r, "chooser")) == ("SJ-3.1.7", 0, 3)
    t.do(Choose(3, "redeal"))
    deal = t.deal
    assert t.of("sj.redeal") and deal.attempt == 1 and deal.phase is Phase.DRAW and deal.to_act == 0
    assert t.legal() == [Draw(0)] and t.attackers_delta() == 10      # the banker's side offended
    t.draw_on()
    assert list(deal.hand_size) == [33, 25, 25, 25]


def test_a_point_penalty_before_the_banker_is_known_waits_for_the_banker():
    deck = stacked_deck(0, {0: "S3"}, kitty=KITTY)
    t = SjTable(deck=deck, banker=None, seed=5)        # a first deal: the declaration decides
    seat = t.deal.to_act
    t.do(Draw(seat, extra_by=1, of=2, count=2, at=0))
    r = t.ruling(t.draw_on())
    assert r.clause == "SJ-3.1.7" and t.deal.adjustments == () and t.deal.banker is None
    t.do(Choose(r.rectification[0]["chooser"], "random_draw"))
    t.draw_on()
    assert t.deal.banker is not None and [e.reason for e in t.of("sj.points_adjusted")] == ["PointPenalty SJ-3.1.7"]


# ---------------------------------------------------------------------------------------------
# SJ-1.6 / SJ-3.1.4: partners declaring at the same moment


def _at_seat_0s_declaration(referee=None, deal_number=None) -> SjTable:
    # seat 2 draws H2 first (position 2) and passes; seat 0 draws S2 (position 4): its chance
    t = drawn({0: "S3 S2", 2: "H2"}, kitty="C3 C4 C6 C7 C8 C9 D3 D4", referee=referee, deal_number=deal_number)
    t.do(Draw(0))
    assert t.deal.to_act == 2
    t.do(NoDeclare(2))
    t.do(Draw(3))                                      # the draw runs on from seat 3
    assert t.deal.to_act == 0 and t.deal.drawn == 5
    return t


def test_SJ_1_6_partners_declare_at_once_lots_decide_warning_from_the_second_time():
    referee = make_shengji_referee()
    t = _at_seat_0s_declaration(referee)
    r = t.ruling(t.do(DeclareAtOnce(2, cards("H2"))))
    assert (r.clause, kinds(r), r.offender, r.side) == ("SJ-1.6", [], None, 0)
    assert effects(r) == ["LotsDraw"] and fact(r, "declarations") == ((2, ("H2",)), (0, ("S2",)))
    winner = fact(r, "lots_winner")
    stands = t.of("sj.declaration_stands")[0]
    assert stands.seat == winner and stands.how == "lots"
    assert t.deal.declaration.seat == winner and t.deal.to_act == 1 and t.legal() == [Draw(1)]
    again = _at_seat_0s_declaration(referee, deal_number=1)   # same match (same ledger), next deal
    r2 = again.ruling(again.do(DeclareAtOnce(2, cards("H2"))))
    assert (r2.clause, kinds(r2)) == ("SJ-1.6", ["Warning"])


def test_SJ_1_6_lots_are_drawn_from_the_referee_stream_deterministically():
    a = _at_seat_0s_declaration()
    b = _at_seat_0s_declaration()
    ra = a.ruling(a.do(DeclareAtOnce(2, cards("H2"))))
    rb = b.ruling(b.do(DeclareAtOnce(2, cards("H2"))))
    assert fact(ra, "lots_winner") == fact(rb, "lots_winner")


def test_SJ_3_1_4_partners_settle_a_simultaneous_declaration_themselves():
    t = _at_seat_0s_declaration()
    r = t.ruling(t.do(DeclareAtOnce(2, cards("H2"), chose=True)))
    assert (r.clause, points(r), r.offender, fact(r, "stands")) == ("SJ-3.1.4", 10, 2, 2)
    assert t.deal.declaration.seat == 2 and t.deal.declaration.trump == "H"
    assert t.of("sj.declaration_stands")[0].how == "chosen" and t.attackers_delta() == 10


def test_SJ_1_3_light_card_exposed_during_the_draw_and_SJ_3_1_3_heavy_while_sorting():
    from shengji.actions import DropCard

    t = drawn({0: "S3", 1: "S4", 2: "S5 SK"})
    t.do(Draw(0))
    t.draw_on(until=Phase.KITTY)
    deal = t.deal
    assert deal.phase is Phase.KITTY
    r = t.ruling(t.do(DropCard(1, cards("S4"))))
    assert (r.clause, fact(r, "during")) == ("SJ-1.3", "burial")
    r = t.ruling(t.do(DropCard(2, cards("SK"), sorting=True)))
    assert (r.clause, fact(r, "during"), points(r)) == ("SJ-3.1.3", "sorting", 10)


def test_exposure_during_the_draw_is_ruled_with_the_standing_trump():
    from shengji.actions import DropCard

    t = drawn({0: "S3", 1: "S4"})
    t.do(Draw(0))
    r = t.ruling(t.do(DropCard(1, cards("S4"))))
    assert (r.clause, fact(r, "during")) == ("SJ-1.3", "draw")
    assert t.deal.phase is Phase.DRAW and t.exposed(1) == ["S4"]


def test_a_redeal_because_nobody_declared_gathers_the_cards_exposed_in_the_draw():
    """A card shown by accident during the draw (SJ: exposed card) lies face up; when nobody
    declares and the deal is redealt, it is gathered up with everything else."""
    from shengji.actions import DropCard
    from shengji.deal import Deal, Phase
    from tests.enforcement.shengji_refereed import SjTable

    # a deal in which nobody ever declares: every seat declines each chance
    t = SjTable.__new__(SjTable)
    t.referee = make_shengji_referee()
    t.engine = Deal(3, banker=None, mode="refereed")   # the first deal: nobody declaring means a redeal
    t.events = []
    t._deliver(t.engine.take_events())
    deal = t.deal
    while deal.hand_size[1] == 0:
        t.do(Draw(deal.to_act) if isinstance(t.legal()[0], Draw) else NoDeclare(deal.to_act))
    shown = deal.hand(1)[:1]
    t.do(DropCard(1, shown))
    assert deal.table.exposed[1] == list(shown)
    while not any(e.KIND == "sj.redeal" for e in t.events):
        assert deal.phase in (Phase.DRAW, Phase.DECLARE) and deal.to_act is not None
        t.do(Draw(deal.to_act) if isinstance(t.legal()[0], Draw) else NoDeclare(deal.to_act))
    assert deal.table.exposed == [[], [], [], []] and not deal.table.on_table
