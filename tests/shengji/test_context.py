"""§4 Trumps and order (shengji.context) and the ruleset options (shengji.rules)."""

import pickle

import pytest

from tabletop.cards import CARDS, Card, parse_cards
from tabletop.errors import OptionError
from shengji.context import Context, card_order, effective_suit, is_trump
from shengji.rules import ShengjiRules


def orders(ctx, text):
    return [ctx.order(c) for c in parse_cards(text)]


# -- §4 trump membership ---------------------------------------------------------------------

def test_rule_4_trumps_are_jokers_level_cards_and_trump_suit():
    ctx = Context("7", "C")
    trumps = {str(c) for c in CARDS if is_trump(c, ctx)}
    clubs = {"C" + r for r in "23456789TJQKA"}
    assert trumps == clubs | {"S7", "H7", "D7", "BJ", "RJ"}
    assert len(trumps) == 18


def test_rule_4_no_trump_trumps_are_jokers_and_level_cards_only():
    ctx = Context("7", None)
    trumps = {str(c) for c in CARDS if is_trump(c, ctx)}
    assert trumps == {"S7", "H7", "C7", "D7", "BJ", "RJ"}


def test_rule_4_effective_suit_of_level_card_is_trump():
    ctx = Context("7", "C")
    assert effective_suit("H7", ctx) == "T"
    assert effective_suit("H8", ctx) == "H"
    assert effective_suit("C2", ctx) == "T"
    assert effective_suit("RJ", ctx) == "T"
    assert ctx.effective_suit(Card("SA")) == "S"
    assert ctx.is_trump("BJ") and not ctx.is_trump("SA")


def test_rule_4_trump_order_big_joker_small_joker_trump_level_offsuit_level_trump_ace():
    ctx = Context("7", "C")
    rj, bj, c7, h7, ca, ck = orders(ctx, "RJ BJ C7 H7 CA CK")
    assert rj > bj > c7 > h7 > ca > ck


def test_rule_4_off_suit_level_cards_all_equal():
    ctx = Context("7", "C")
    assert len(set(orders(ctx, "S7 H7 D7"))) == 1
    assert card_order("S7", ctx) < card_order("C7", ctx)


def test_rule_4_trump_suit_below_ace_skips_level_rank():
    ctx = Context("7", "C")
    assert orders(ctx, "C2 C3 C4 C5 C6 C8 C9 CT CJ CQ CK CA") == list(range(12))


def test_rule_4_side_suit_ace_high_level_rank_removed():
    ctx = Context("7", "C")
    assert orders(ctx, "S2 S3 S4 S5 S6 S8 S9 ST SJ SQ SK SA") == list(range(12))
    assert is_trump("S7", ctx)


def test_rule_4_no_trump_order_jokers_over_level_cards_all_equal():
    ctx = Context("T", None)
    st, ht, ct, dt, bj, rj = orders(ctx, "ST HT CT DT BJ RJ")
    assert st == ht == ct == dt < bj < rj
    assert orders(ctx, "H2 H9 HJ HA") == [0, 7, 8, 11]


def test_every_card_in_exactly_one_slot():
    for level in range(13):
        for trump in (None, "S", "H", "C", "D"):
            for twos in (False, True):
                ctx = Context(level, trump, ShengjiRules(permanent_twos=twos))
                seen = sorted(c for ladder in ctx.slots for rung in ladder for c in rung)
                assert seen == list(range(54))


# -- permanent twos (常主) -----------------------------------------------------------------------

def test_rule_4_permanent_twos_rank_just_below_offsuit_level_trump_suit_two_above_other_twos():
    ctx = Context("7", "C", ShengjiRules(permanent_twos=True))
    assert all(is_trump(c, ctx) for c in parse_cards("S2 H2 C2 D2"))
    h7, c2, s2, ca, ck = orders(ctx, "H7 C2 S2 CA CK")
    assert h7 > c2 > s2 > ca > ck
    assert len(set(orders(ctx, "S2 H2 D2"))) == 1
    # Side suits lose their 2s: 3 is the lowest side card.
    assert card_order("S3", ctx) == 0


def test_permanent_twos_change_nothing_at_level_two():
    plain = Context("2", "H")
    twos = Context("2", "H", ShengjiRules(permanent_twos=True))
    assert plain.order_of == twos.order_of and plain.suit_of == twos.suit_of


def test_permanent_twos_in_no_trump_sit_below_level_cards():
    ctx = Context("9", None, ShengjiRules(permanent_twos=True))
    s2, h2, s9, bj = orders(ctx, "S2 H2 S9 BJ")
    assert s2 == h2 and s9 == s2 + 1 and bj == s9 + 1


# -- construction -----------------------------------------------------------------------------

def test_context_level_as_text_or_index():
    assert Context("10", "S") == Context("T", "S") == Context(8, "S")
    assert Context("a", None).level == 12
    assert Context("7", "C").level_rank == "7"


@pytest.mark.parametrize("level", ["1", "BJ", 13, -1, "X", True])
def test_context_rejects_bad_level(level):
    with pytest.raises(ValueError):
        Context(level, "S")


def test_context_rejects_bad_trump():
    with pytest.raises(ValueError):
        Context("7", "T")


def test_context_is_immutable_hashable_and_picklable():
    ctx = Context("7", "C")
    with pytest.raises(AttributeError):
        ctx.level = 3
    assert hash(ctx) == hash(Context("7", "C"))
    assert ctx != Context("7", "C", ShengjiRules(permanent_twos=True))
    assert pickle.loads(pickle.dumps(ctx)) == ctx
    assert repr(ctx) == "Context('7', 'C')"


def test_cards_of_effective_suit_lowest_first():
    ctx = Context("7", None)
    assert [str(c) for c in ctx.cards_of("T")] == ["S7", "H7", "C7", "D7", "BJ", "RJ"]
    assert len(ctx.cards_of("S")) == 12


# -- ShengjiRules ------------------------------------------------------------------------------

def test_rules_defaults_are_the_competition_form():
    r = ShengjiRules()
    assert (r.pair_vs_pair, r.no_bid, r.permanent_twos, r.throw_penalty, r.throw_compare,
            r.kitty_multiplier, r.must_defend, r.max_deals) == (
        "no", "flip_kitty", False, 10, "largest_unit", "times", frozenset({"A"}), 300)


def test_rules_round_trip_through_dict():
    r = ShengjiRules(pair_vs_pair="higher_suit", no_bid="no_trump", permanent_twos=True,
                     throw_penalty=0, throw_compare="all_units", kitty_multiplier="power",
                     must_defend=frozenset({"A", "K", "5", "T"}), max_deals=50)
    d = r.to_dict()
    assert d["must_defend"] == ["5", "A", "K", "T"]
    assert ShengjiRules.from_dict(d) == r


@pytest.mark.parametrize("bad", [
    {"pair_vs_pair": "yes"}, {"no_bid": "pass"}, {"throw_penalty": 5},
    {"throw_compare": "sum"}, {"kitty_multiplier": "double"}, {"permanent_twos": 1},
    {"must_defend": ["K"]}, {"must_defend": ["A", "Q"]}, {"max_deals": 0}, {"colour": "red"},
])
def test_rules_reject_bad_options(bad):
    with pytest.raises(OptionError):
        ShengjiRules.from_dict(bad)


def test_rules_must_defend_accepts_10_for_T():
    assert ShengjiRules(must_defend=["A", "10"]).must_defend == frozenset({"A", "T"})
