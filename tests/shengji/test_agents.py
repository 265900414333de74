"""The built-in agents: they only ever choose legal actions, are deterministic given their
rng, and the heuristic one beats random play; the lead generators they share with the
engine's Choices."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.actions import Bury, Choices, Declare, NoDeclare, Play
from shengji.actions import lead_units, random_lead
from shengji.agents import HeuristicAgent, RandomAgent
from shengji.context import Context
from shengji.deal import Deal
from shengji.units import decompose, is_valid_lead
from tabletop.cards import full_deck, parse_cards, sort_cards
from tabletop.rng import AGENT, generator
from tabletop.runner import run


def test_lead_units_lists_singles_pairs_and_every_tractor():
    ctx = Context("7", "C")
    hand = sort_cards(parse_cards("S6 S6 S8 S8 C7 C7 H7 H7 D7 D7 CA CA BJ"))
    units = {tuple(sort_cards(u)) for u in lead_units(hand, ctx)}
    assert tuple(parse_cards("BJ")) in units
    assert tuple(sort_cards(parse_cards("S6 S6 S8 S8"))) in units           # level rank skipped
    assert tuple(sort_cards(parse_cards("H7 H7 C7 C7"))) in units           # off-suit → trump level
    assert tuple(sort_cards(parse_cards("CA CA D7 D7 C7 C7"))) in units     # tractor of 3
    assert tuple(sort_cards(parse_cards("H7 H7 D7 D7"))) not in units       # two off-suit levels
    for unit in units:
        assert is_valid_lead(list(unit), ctx) and len(decompose(list(unit), ctx)) == 1


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), trump=st.sampled_from(["S", "H", "C", "D", None]),
       level=st.sampled_from(["2", "7", "A"]))
def test_random_leads_are_valid_leads(seed, trump, level):
    rng = np.random.default_rng(seed)
    deck = full_deck(2)
    hand = sort_cards(deck[i] for i in rng.choice(len(deck), size=25, replace=False))
    ctx = Context(level, trump)
    for _ in range(10):
        assert is_valid_lead(random_lead(hand, ctx, rng), ctx)


def play_deal(seed, kinds, banker):
    deal = Deal(seed, banker=banker)
    players = [kind(generator(seed, AGENT + s)) for s, kind in enumerate(kinds)]
    deal.take_events()
    actions = []
    while deal.to_act is not None:
        seat = deal.to_act
        legal = deal.legal_actions()
        action = players[seat].act(deal.observe(seat), legal)
        assert deal.why_illegal(action) is None, (action, deal.why_illegal(action))
        if isinstance(legal, Choices) and legal.complete:
            assert action in legal
        actions.append(action)
        deal.apply(action)
    return deal, actions


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), banker=st.sampled_from([None, 0, 3]))
def test_agents_only_choose_legal_actions(seed, banker):
    play_deal(seed, [RandomAgent, HeuristicAgent, RandomAgent, HeuristicAgent], banker)
    play_deal(seed, [HeuristicAgent] * 4, banker)


def test_agents_are_deterministic_given_their_rng():
    _, first = play_deal(42, [HeuristicAgent, RandomAgent] * 2, 1)
    _, second = play_deal(42, [HeuristicAgent, RandomAgent] * 2, 1)
    assert first == second


def test_random_agent_covers_every_decision_kind():
    _, actions = play_deal(8, [RandomAgent] * 4, None)
    kinds = {type(a) for a in actions}
    assert {Bury, Play} <= kinds and kinds & {Declare, NoDeclare}


def test_heuristic_agent_buries_8_and_declares_with_length():
    deal, actions = play_deal(5, [HeuristicAgent] * 4, 2)
    bury = next(a for a in actions if isinstance(a, Bury))
    assert len(bury.cards) == 8 and bury.seat == 2


def test_heuristic_team_beats_random_team():
    gained = [0, 0]
    for seed in range(12):
        kinds = [HeuristicAgent, RandomAgent] * 2 if seed % 2 == 0 else [RandomAgent, HeuristicAgent] * 2
        heuristic_team = 0 if seed % 2 == 0 else 1
        deal = Deal(seed, banker=seed % 4)
        result = run(deal, [kind(generator(seed, AGENT + s)) for s, kind in enumerate(kinds)])
        gained[0 if result.team == heuristic_team else 1] += result.levels + (result.side == "attackers")
    assert gained[0] > gained[1]
