"""§6 (revised): trumping a throw. An all-trump play beats a throw when it *covers* the
throw's shape (its cards arranged into units standing one for one for the throw's units, a
longer structure broken to fill smaller ones) and its best arrangement's largest unit beats
the throw's (or the current winning cover's) largest unit (shengji.tricks)."""

from collections import Counter
from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.context import TRUMP, Context
from shengji.rules import ShengjiRules
from shengji.tricks import arrangements, throw_cover, trick_winner
from shengji.units import is_tractor, shape_of
from tabletop.cards import parse_cards

L7C = Context("7", "C")
ALL_UNITS = ShengjiRules(throw_compare="all_units")


def winner(*plays, ctx=L7C, rules=None):
    return trick_winner(list(plays), ctx, rules)


def order(card, ctx):
    return ctx.order_of[parse_cards(card)[0]]


# -- the examples of §6 ------------------------------------------------------------------------

def test_trump_cover_pair_broken_into_two_singles():
    # L5, spades trump, lead H9H9 HQ HK: S3S3 S5S5 covers it (S5S5 as the pair, S3S3 broken
    # into the two singles) and its pair S5S5 beats S4S4 of S4S4 SA D5.
    ctx = Context("5", "S")
    plays = ["H9H9 HQ HK", "S4S4 SA D5", "S3S3 S5S5", "H2 H3 H4 H6"]
    assert trick_winner(plays[:2], ctx) == 1
    assert throw_cover("S3S3 S5S5", plays[0], ctx) == (order("S5", ctx), order("S3", ctx), order("S3", ctx))
    assert throw_cover("S4S4 SA D5", plays[0], ctx)[0] == order("S4", ctx)
    assert trick_winner(plays, ctx) == 2
    # the other order: S4S4 cannot over-trump S5S5
    assert trick_winner([plays[0], plays[2], plays[1], plays[3]], ctx) == 1


def test_trump_cover_tractor_stands_for_two_pairs():
    # L9, diamonds trump, lead SKSK S7S7 S4S4 (three pairs): D9D9 BJBJ DKDK covers it (its
    # tractor D9D9BJBJ stands for two pairs) and its highest pair BJBJ beats DADA of DADA DQDQ D3D3.
    ctx = Context("9", "D")
    plays = ["SKSK S7S7 S4S4", "DADA DQDQ D3D3", "D9D9 BJBJ DKDK", "S2 S3 S5 S6 S8 SA"]
    assert throw_cover(plays[2], plays[0], ctx)[0] == order("BJ", ctx)
    assert trick_winner(plays, ctx) == 2


# -- our own -------------------------------------------------------------------------------------

def test_trump_cover_of_a_tractor_of_three_throw():
    lead = "S3S3S4S4S5S5 SKSK"                       # 3-pair tractor + pair
    assert winner(lead, "C2C2C3C3C4C4 C9C9", "H2 H3 H4 H5 H6 H8 H9 HT") == 1
    # a 4-pair trump tractor covers it: a 3-pair tractor + a pair, best tractor on top
    assert throw_cover("C2C2C3C3C4C4C5C5", lead, L7C)[0] == order("C5", L7C)
    assert winner(lead, "C2C2C3C3C4C4C5C5", "C6C6C8C8C9C9 C3C3", "H2 H3 H4 H5 H6 H8 H9 HT") == 2
    # three separate trump pairs and a pair do not make a tractor of three
    assert throw_cover("C2C2C4C4C6C6 CKCK", lead, L7C) is None
    assert winner(lead, "C2C2C4C4C6C6 CKCK", "H2 H3 H4 H5 H6 H8 H9 HT") == 0


def test_trump_cover_fails_for_a_missing_pair():
    lead = "SASA SQSQ SK"                            # two pairs (SK between: no tractor) + single
    assert throw_cover("C2C2 C3 C4 C5", lead, L7C) is None
    assert winner(lead, "C2C2 C3 C4 C5", "S2 S3 S4 S5 S6") == 0
    assert winner(lead, "C2C2 C3 C4 C5", "C8C8 C9C9 C3") == 2


def test_trump_cover_ties_go_to_the_earlier_play():
    # H7H7 and D7D7 are equal pairs (off-suit level cards): the first cover keeps the trick
    assert winner("SASA SK", "H7H7 C3", "D7D7 CA", "S3 S4 S5") == 1
    assert winner("SASA SK", "H7H7 C3", "D7D7 CA", "S3 S4 S5", rules=ALL_UNITS) == 1


def test_trump_cover_over_trumped_by_a_better_cover():
    # C4C4 C6C6 stands as pair C6C6 + singles: beats C5C5's cover of the pair
    assert winner("SASA SK SQ", "C5C5 C3 C4", "C4C4 C6C6", "S3 S4 S5 S6") == 2
    assert winner("SASA SK SQ", "C6C6 C3 C4", "C4C4 C5C5", "S3 S4 S5 S6") == 1


def test_trump_cover_all_units_reading():
    # all_units: some arrangement of the cover beats every unit of the winner's standing
    # arrangement. C4C4 C6C6 beats C3C3 C4 C5 only as pair C4C4 + singles C6 C6, and then
    # stands as that: C5C5 C8 C9 beats it (in largest_unit C6C6 stands and 5 < 6).
    plays = ["SASA SK SQ", "C3C3 C4 C5", "C4C4 C6C6", "C5C5 C8 C9"]
    assert trick_winner(plays[:3], L7C, ALL_UNITS) == 2
    assert trick_winner(plays, L7C, ALL_UNITS) == 3
    assert trick_winner(plays, L7C) == 2
    # a unit not beaten: the earlier cover keeps the trick
    assert trick_winner(["SASA SK SQ", "C3C3 C9 C8", "C5C5 CA C2"], L7C, ALL_UNITS) == 1


def test_trump_cover_in_no_trump():
    ctx = Context("7", None)
    # two off-suit level pairs (one slot, never a tractor) stand as a pair + two singles
    assert winner("SASA SK SQ", "H7H7 S7 D7", "BJBJ C7 D7", "S2 S3 S4 S5", ctx=ctx) == 2
    # a level pair and a small-joker pair are a tractor in no-trump: it stands for two pairs
    assert winner("SASA SQSQ", "H7H7BJBJ", "S2 S3 S4 S5", ctx=ctx) == 1
    assert throw_cover("H7H7BJBJ", "SASA SQSQ", ctx) == (order("BJ", ctx), order("H7", ctx))


def test_trump_cover_with_permanent_twos():
    ctx = Context("7", "C", ShengjiRules(permanent_twos=True))
    # off-suit 2 pair → trump-suit 2 pair is a tractor under 常主; it stands for two pairs
    assert winner("SASA SQSQ", "S2S2C2C2", "S3 S4 S5 S6", ctx=ctx) == 1
    # H7H7C7C7 (off-suit level → trump level) over-trumps it
    assert winner("SASA SQSQ", "S2S2C2C2", "H7H7C7C7", "S3 S4 S5 S6", ctx=ctx) == 2
    # a 2 of the led suit is a trump here, so a play holding S2 is all trumps
    assert winner("HAHA HK", "S2S2 CA", "H3 H4 H5", ctx=ctx) == 1


def test_trump_throw_is_beaten_only_by_a_higher_trump_cover():
    assert winner("CACA CK", "BJBJ C2", "C3 C4 C5") == 1
    # a trump throw of two pairs: a trump tractor covers it and must beat its largest pair
    assert winner("CKCK C9C9", "C2C2C3C3", "C4C4C5C5", "RJRJ BJ H7") == 0
    assert winner("CKCK C9C9", "C2C2C3C3", "H7H7C7C7", "RJ BJ H2 H3") == 2


def test_side_suit_plays_never_win_a_throw_and_mixed_plays_never_cover():
    assert winner("SKSK SQ", "SASA S3", "C2C2 S4", "S5 S6 S8") == 0


# -- properties ----------------------------------------------------------------------------------

def _ctx(rng):
    return Context(int(rng.integers(13)), [None, "S", "H", "C", "D"][int(rng.integers(5))],
                   ShengjiRules(permanent_twos=bool(rng.integers(2))))


def _trumps(rng, ctx, n):
    """n trump cards, at most two copies of each."""
    pool = [c for c in ctx.kinds[TRUMP] for _ in range(2)]
    return [pool[i] for i in sorted(rng.choice(len(pool), size=n, replace=False))]


def _shape(rng, n):
    """A random throw shape (unit lengths in decomposition order) of n cards."""
    units = []
    left = n
    while left:
        k = int(rng.integers(0, min(4, left // 2 + 1)))
        if k >= 2 and 2 * k > left:
            k = 1
        units.append(k)
        left -= 2 * k if k else 1
    return tuple(sorted(units, reverse=True))


def _normalise(shape, tops):
    out = []
    i = 0
    while i < len(shape):
        j = i
        while j < len(shape) and shape[j] == shape[i]:
            j += 1
        out += sorted(tops[i:j], reverse=True)
        i = j
    return tuple(out)


def _brute(cards, shape, ctx):
    """Every arrangement by trying every sub-multiset for every unit."""
    out = set()

    def go(i, rest, tops):
        if i == len(shape):
            out.add(_normalise(shape, tops))
            return
        k = shape[i]
        size = 2 * k if k else 1
        seen = set()
        for pick in combinations(range(len(rest)), size):
            unit = tuple(sorted(rest[p] for p in pick))
            if unit in seen:
                continue
            seen.add(unit)
            if k == 1 and unit[0] != unit[1]:
                continue
            if k >= 2 and not is_tractor(list(unit), ctx):
                continue
            left = [rest[p] for p in range(len(rest)) if p not in pick]
            go(i + 1, left, tops + [max(ctx.order_of[c] for c in unit)])

    go(0, list(cards), [])
    return out


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=150, deadline=None)
def test_property_cover_search_agrees_with_brute_force(seed):
    rng = np.random.default_rng(seed)
    ctx = _ctx(rng)
    n = int(rng.integers(2, 8))
    cards = _trumps(rng, ctx, n)
    shape = _shape(rng, n)
    if len(shape) < 2:
        return
    assert set(arrangements(cards, shape, ctx)) == _brute(cards, shape, ctx)


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=200)
def test_property_a_play_of_exactly_the_throws_units_is_always_a_cover(seed):
    rng = np.random.default_rng(seed)
    ctx = _ctx(rng)
    cards = _trumps(rng, ctx, int(rng.integers(2, 13)))
    shape, tops = shape_of(cards, ctx)
    assert _normalise(shape, tops) == tops
    assert tops in set(arrangements(cards, shape, ctx))


def _broken(shape, i):
    k = shape[i]
    parts = (k - 1, 1) if k > 2 else (1, 1) if k == 2 else (0, 0)
    return tuple(sorted(shape[:i] + parts + shape[i + 1:], reverse=True))


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=200)
def test_property_covering_is_monotone_in_breaking_the_throws_units(seed):
    # A cover of a shape covers every shape obtained by breaking one of its units one step
    # (k-tractor → (k-1)-tractor + pair, 2-tractor → two pairs, pair → two singles), and its
    # best arrangement's values only go up as the first unit's kind does not change.
    rng = np.random.default_rng(seed)
    ctx = _ctx(rng)
    n = int(rng.integers(2, 11))
    cards = _trumps(rng, ctx, n)
    shape = _shape(rng, n)
    values = set(arrangements(cards, shape, ctx))
    for i, k in enumerate(shape):
        if k == 0:
            continue
        finer = _broken(shape, i)
        finer_values = set(arrangements(cards, finer, ctx))
        assert not values or finer_values
        if values and finer[0] == shape[0] and Counter(finer) != Counter(shape):
            assert max(v[0] for v in finer_values) >= max(v[0] for v in values)


def test_trump_cover_wins_the_trick_in_a_real_deal():
    # §6's first example played: L5, spades trump, seat 0 banks and throws H9H9 HQ HK (it
    # stands: nobody holds a higher heart or heart pair); seats 1 and 2 are void in hearts.
    from shengji.actions import Play
    from shengji.deal import Deal

    deal = Deal.from_hands(["H9 H9 HQ HK", "S4 S4 SA D5", "S3 S3 S5 S5", "H2 H3 H4 H6"], "5", "S", 0)
    events = deal.take_events()
    for seat, cards in ((0, "H9 H9 HQ HK"), (1, "S4 S4 SA D5"), (2, "S3 S3 S5 S5"), (3, "H2 H3 H4 H6")):
        events += deal.apply(Play(seat, parse_cards(cards))) + deal.take_events()
    won = [e for e in events if e.KIND == "sj.trick_won"]
    assert [(e.seat, e.points) for e in won] == [(2, 25)]      # HK, D5, S5 S5
    assert deal.tricks[0].winner == 2 and deal.result is not None


def test_heuristic_agent_sees_that_a_trump_cover_wins_a_throw():
    # The agents ask trick_winner too: last to play, void in hearts, with 10 on the table,
    # the heuristic agent trumps the throw with S3S3 S5S5 (two pairs for a pair + two singles).
    from shengji.actions import Play
    from shengji.agents import HeuristicAgent
    from shengji.deal import Deal

    deal = Deal.from_hands(["H9 H9 HQ HK D2", "H2 H3 H4 H6 D7", "H7 H8 HJ HT C7", "S3 S3 S5 S5 C2"], "5", "S", 0)
    for seat, cards in ((0, "H9 H9 HQ HK"), (1, "H2 H3 H4 H6"), (2, "H7 H8 HJ HT")):
        deal.apply(Play(seat, parse_cards(cards)))
    for seed in range(5):
        play = HeuristicAgent(np.random.default_rng(seed)).act(deal.observe(3), list(deal.legal_actions()))
        assert sorted(map(str, play.cards)) == ["S3", "S3", "S5", "S5"]
