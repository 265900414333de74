"""shengji.md §1–2 through the engine: the card-by-card draw, declarations, overcalls,
the last-chance round, no-bid handling and the banker of the first deal."""

import pytest

from shengji.actions import Declare, NoDeclare
from shengji.deal import Deal, Phase, stacked_deck
from shengji.events import (
    CardDrawn, DealStarted, DeclarationDeclined, Declared, DeckCut, DeckShuffled, KittyFlipped,
    KittyTaken, Redealt, TrumpSet,
)
from shengji.rules import ShengjiRules
from shengji.declare import why_not_overcall
from tabletop.cards import Card
from tabletop.errors import IllegalAction
from tabletop.rng import FIRST_BANKER, generator


def drive(deal, script=()):
    """Answer declaration decisions: the first matching (seat, cards) of ``script`` that is
    legal now is declared (each once); otherwise NoDeclare. Returns all events."""
    events = deal.take_events()
    todo = [(seat, tuple(sorted(cards.split()))) for seat, cards in script]
    while deal.phase in (Phase.DRAW, Phase.DECLARE):
        seat = deal.to_act
        action = NoDeclare(seat)
        for i, (who, cards) in enumerate(todo):
            if who == seat and deal.why_illegal(Declare(seat, cards)) is None:
                action = Declare(seat, cards)
                del todo[i]
                break
        events += deal.apply(action)
    return events


def kinds(events):
    return [e.KIND for e in events]


def test_draw_is_one_event_per_card_and_leaves_8_in_the_kitty():
    deal = Deal(5, banker=1, rules=ShengjiRules(no_bid="no_trump"))
    events = drive(deal)
    drawn = [e for e in events if isinstance(e, CardDrawn)]
    assert len(drawn) == 100
    assert [e.seat for e in drawn[:5]] == [1, 2, 3, 0, 1]           # starts with the banker
    assert [e.index for e in drawn] == list(range(100))
    assert isinstance(events[0], DealStarted) and isinstance(events[1], DeckShuffled)
    assert isinstance(events[2], DeckCut) and events[2].seat == 0      # 上家 of the first drawer
    taken = next(e for e in events if isinstance(e, KittyTaken))
    assert taken.seat == 1 and len(taken.cards) == 8
    assert deal.hand_size == [25, 33, 25, 25]


def test_first_deal_draw_starts_with_a_seeded_seat():
    for seed in range(6):
        deal = Deal(seed)
        assert deal.first_drawer == int(generator(seed, FIRST_BANKER).integers(4))
        first = next(e for e in deal.take_events() if isinstance(e, CardDrawn))
        assert first.seat == deal.first_drawer


def test_decision_only_when_the_drawer_can_declare():
    deck = stacked_deck(0, {2: ["S2"]}, level="2")
    deal = Deal(0, banker=0, deck=deck)
    events = deal.take_events()
    # seat 0 and 1 draw fillers (no level cards), seat 2 draws S2: decision for seat 2
    assert deal.to_act == 2 and deal.phase is Phase.DRAW
    assert isinstance(events[-1], CardDrawn) and events[-1].seat == 2 and events[-1].card == "S2"
    assert [a for a in deal.legal_actions()] == [NoDeclare(2), Declare(2, ["S2"])]


def test_single_level_card_declares_its_suit():
    deal = Deal(0, banker=0, deck=stacked_deck(0, {2: ["H2"]}, level="2"))
    events = drive(deal, [(2, "H2")])
    declared = [e for e in events if isinstance(e, Declared)]
    assert declared[0].seat == 2 and declared[0].cards == ("H2",) and declared[0].trump == "H"
    trump = next(e for e in events if isinstance(e, TrumpSet))
    assert trump.trump == "H" and trump.how == "declared" and trump.seat == 2 and trump.banker == 0
    assert deal.trump == "H"


def test_pair_overrides_single():
    deal = Deal(0, banker=0, deck=stacked_deck(0, {1: ["H2"], 3: ["S8", "C2", "C2"]}, level="2"))
    drive(deal, [(1, "H2"), (3, "C2 C2")])
    assert [(d.seat, d.trump) for d in deal.declarations] == [(1, "H"), (3, "C")]
    assert deal.trump == "C"


@pytest.mark.parametrize("rule, trump", [("no", "H"), ("higher_suit", "S")])
def test_pair_vs_pair_of_another_suit(rule, trump):
    deck = stacked_deck(0, {1: ["H2", "H2"], 2: ["S3", "S3", "S2", "S2"]}, level="2")
    deal = Deal(0, banker=0, deck=deck, rules=ShengjiRules(pair_vs_pair=rule))
    drive(deal, [(1, "H2 H2"), (2, "S2 S2")])
    assert deal.trump == trump


def test_joker_pairs_small_no_trump_then_big_overcalls():
    deck = stacked_deck(0, {1: ["H2", "H2"], 2: ["BJ", "BJ"], 3: ["S3", "RJ", "RJ"]}, level="2")
    deal = Deal(0, banker=0, deck=deck)
    drive(deal, [(1, "H2 H2"), (2, "BJ BJ"), (3, "RJ RJ")])
    assert [d.seat for d in deal.declarations] == [1, 2, 3]
    assert deal.trump is None and deal.declaration.seat == 3


def test_single_joker_cannot_declare():
    deal = Deal(0, banker=0, deck=stacked_deck(0, {1: ["BJ", "S3", "H2"], 2: ["RJ"]}, level="2"))
    deal.take_events()
    assert deal.drawn > 3                              # no decision after drawing a lone joker
    while deal.to_act != 1:
        deal.apply(NoDeclare(deal.to_act))
    with pytest.raises(IllegalAction, match="a declaration shows"):
        deal.apply(Declare(1, ["BJ"]))


def test_reinforce_own_single():
    deck = stacked_deck(0, {1: ["D2", "S3", "D2"]}, level="2")
    deal = Deal(0, banker=0, deck=deck)
    events = drive(deal, [(1, "D2"), (1, "D2 D2")])
    declared = [e for e in events if isinstance(e, Declared)]
    assert [(e.seat, e.cards) for e in declared] == [(1, ("D2",)), (1, ("D2", "D2"))]
    assert deal.trump == "D"


def test_reinforced_pair_cannot_be_overcalled_by_a_level_pair():
    deck = stacked_deck(0, {1: ["D2", "D2"], 3: ["S3", "S3", "S2", "S2"]}, level="2")
    deal = Deal(0, banker=0, deck=deck)
    drive(deal, [(1, "D2"), (1, "D2 D2"), (3, "S2 S2")])
    assert [d.seat for d in deal.declarations] == [1, 1]


def test_partner_overcall():
    deck = stacked_deck(0, {1: ["D2", "S3"], 3: ["S4", "H2", "H2"]}, level="2")
    deal = Deal(0, banker=0, deck=deck)
    drive(deal, [(1, "D2"), (3, "H2 H2")])
    assert [(d.seat, d.trump) for d in deal.declarations] == [(1, "D"), (3, "H")]


def test_seat_cannot_overcall_itself_in_another_suit():
    deck = stacked_deck(0, {1: ["D2", "S2", "S2"]}, level="2")
    deal = Deal(0, banker=0, deck=deck)
    deal.take_events()
    deal.apply(Declare(1, ["D2"]))
    asked = []
    while deal.phase in (Phase.DRAW, Phase.DECLARE):
        asked.append(deal.to_act)
        deal.apply(NoDeclare(deal.to_act))
    # seat 1 holds S2 S2 but its own single stands: only 加固 would be allowed, so it is never asked
    assert deal.hands[1][Card("S2")] == 2 and 1 not in asked
    assert [(d.seat, d.trump) for d in deal.declarations] == [(1, "D")]
    assert "reinforce" in why_not_overcall(1, [Card("S2"), Card("S2")], 0, deal.declaration)


def test_last_chance_round_runs_from_the_banker_after_the_last_card():
    # every seat draws one level card early and declines; after the last card each seat
    # gets one more chance, in play order from the banker (seat 2)
    deck = stacked_deck(2, {0: ["S2"], 1: ["H2"], 2: ["C2"], 3: ["D2"]}, level="2")
    deal = Deal(0, banker=2, deck=deck)
    events = deal.take_events()
    seen = []
    while deal.phase in (Phase.DRAW, Phase.DECLARE):
        seen.append((deal.phase, deal.to_act, deal.drawn))
        events += deal.apply(NoDeclare(deal.to_act))
    last_round = [seat for phase, seat, _ in seen if phase is Phase.DECLARE]
    assert last_round == [2, 3, 0, 1]
    assert all(drawn == 100 for phase, _, drawn in seen if phase is Phase.DECLARE)
    assert sum(isinstance(e, DeclarationDeclined) for e in events) == len(seen)


def test_last_chance_declaration_stands():
    deck = stacked_deck(0, {}, level="2")
    deal = Deal(0, banker=0, deck=deck)
    deal.take_events()
    while deal.phase is Phase.DRAW:
        deal.apply(NoDeclare(deal.to_act))
    assert deal.phase is Phase.DECLARE
    seat = deal.to_act
    option = [a for a in deal.legal_actions() if isinstance(a, Declare)][0]
    deal.apply(option)
    while deal.phase is Phase.DECLARE:
        deal.apply(NoDeclare(deal.to_act))
    assert deal.phase is Phase.KITTY and deal.declaration.seat == seat


def test_first_deal_banker_is_the_declarer():
    deal = Deal(3)
    first = deal.first_drawer
    declarer = (first + 1) % 4
    events = deal.take_events()
    while deal.phase in (Phase.DRAW, Phase.DECLARE):
        seat = deal.to_act
        options = [a for a in deal.legal_actions() if isinstance(a, Declare)]
        action = options[0] if seat == declarer and not deal.declarations else NoDeclare(seat)
        events += deal.apply(action)
    assert [d.seat for d in deal.declarations] == [declarer]
    assert deal.banker == declarer
    assert next(e for e in events if isinstance(e, TrumpSet)).banker == declarer
    assert deal.to_act == declarer and deal.hand_size[declarer] == 33


def test_no_bid_in_first_deal_redeals_with_the_next_seed():
    deal = Deal(11)
    events = deal.take_events()
    while deal.attempt == 0:
        events += deal.apply(NoDeclare(deal.to_act))
    redeal = [e for e in events if isinstance(e, Redealt)]
    assert len(redeal) == 1 and redeal[0].attempt == 1
    shuffles = [e for e in events if isinstance(e, DeckShuffled)]
    assert [s.attempt for s in shuffles] == [0, 1] and shuffles[0].deck != shuffles[1].deck
    assert shuffles[1].seed == redeal[0].seed != 11
    assert deal.first_deal and deal.banker is None


def test_no_bid_redeal_option_in_later_deal():
    deal = Deal(2, banker=1, rules=ShengjiRules(no_bid="redeal"))
    deal.take_events()
    while deal.attempt == 0:
        deal.apply(NoDeclare(deal.to_act))
    assert deal.banker == 1 and deal.phase in (Phase.DRAW, Phase.DECLARE, Phase.KITTY)


def test_flip_kitty_first_level_card_sets_trump():
    deck = stacked_deck(0, {}, kitty=["SA", "HK", "D2", "C2", "S3", "S4", "S5", "S6"], level="2")
    deal = Deal(0, banker=0, deck=deck)
    events = drive(deal)
    flipped = [e.card for e in events if isinstance(e, KittyFlipped)]
    assert flipped == ["SA", "HK", "D2"]
    trump = next(e for e in events if isinstance(e, TrumpSet))
    assert trump.trump == "D" and trump.how == "flip_kitty" and trump.seat is None
    assert deal.observe(1).flipped == tuple(deal.flipped)


def test_flip_kitty_highest_card_sets_trump():
    deck = stacked_deck(0, {}, kitty=["S3", "HK", "CA", "DA", "S4", "S5", "S6", "S7"], level="2")
    deal = Deal(0, banker=0, deck=deck)
    drive(deal)
    assert deal.trump == "C" and len(deal.flipped) == 8


def test_flip_kitty_joker_highest_is_no_trump():
    deck = stacked_deck(0, {}, kitty=["S3", "HK", "BJ", "DA", "S4", "S5", "S6", "S7"], level="2")
    deal = Deal(0, banker=0, deck=deck)
    events = drive(deal)
    assert deal.trump is None and deal.trump_known
    assert next(e for e in events if isinstance(e, TrumpSet)).how == "flip_kitty"


def test_no_bid_option_no_trump():
    deal = Deal(0, banker=0, deck=stacked_deck(0, {}, level="2"), rules=ShengjiRules(no_bid="no_trump"))
    events = drive(deal)
    trump = next(e for e in events if isinstance(e, TrumpSet))
    assert trump.trump is None and trump.how == "no_trump"
    assert not any(isinstance(e, KittyFlipped) for e in events)


def test_declare_out_of_turn_is_refused():
    deal = Deal(0, banker=0, deck=stacked_deck(0, {2: ["S2"]}, level="2"))
    deal.take_events()
    with pytest.raises(IllegalAction, match=r"not your turn \(seat 2 is to act\)"):
        deal.apply(Declare(1, ["S2"]))


def test_declare_cards_not_in_hand_is_refused():
    deal = Deal(0, banker=0, deck=stacked_deck(0, {2: ["S2"]}, level="2"))
    deal.take_events()
    with pytest.raises(IllegalAction, match="cards not in hand"):
        deal.apply(Declare(2, ["H2"]))
