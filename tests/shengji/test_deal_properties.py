"""Invariants of whole random deals (hypothesis picks seeds, bankers and rule options):
every deal ends; the 108 cards are all somewhere after every step; the 200 points are
accounted for; the same seed gives the same bytes; observations never show hidden cards;
replaying the logged actions gives the same events."""

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.agents import HeuristicAgent, RandomAgent
from shengji.deal import Deal, Phase
from shengji.logged_actions import action_from_event, replay
from shengji.rules import ShengjiRules
from shengji.scoring import POINTS
from tabletop.cards import full_deck
from tabletop.log import LogWriter, make_header
from tabletop.rng import AGENT, generator
from tabletop.runner import run

rules_strategy = st.builds(
    ShengjiRules,
    pair_vs_pair=st.sampled_from(["no", "higher_suit"]),
    no_bid=st.sampled_from(["flip_kitty", "redeal", "no_trump"]),
    permanent_twos=st.booleans(),
    throw_penalty=st.sampled_from([10, 0]),
    throw_compare=st.sampled_from(["largest_unit", "all_units"]),
    kitty_multiplier=st.sampled_from(["times", "power"]),
)
banker_strategy = st.sampled_from([None, 0, 1, 2, 3])
level_strategy = st.sampled_from(["2", "5", "T", "A"])


def agents(seed, heuristic=False):
    kind = HeuristicAgent if heuristic else RandomAgent
    return [kind(generator(seed, AGENT + s)) for s in range(4)]


def census(deal):
    """Count of every card kind over all the places a card can be."""
    counts = [0] * 54
    for hand in deal.hands:
        for i, n in enumerate(hand):
            counts[i] += n
    places = [deal.stock[deal.drawn:], deal.kitty]
    places += [cards for _, cards in deal.trick]
    places += [cards for trick in deal.tricks for _, cards in trick.plays]
    for place in places:
        for c in place:
            counts[c] += 1
    return counts


FULL = [2] * 54


def steps(deal, players):
    """Play to the end, yielding after every step (set-up included)."""
    deal.take_events()
    yield
    while deal.to_act is not None:
        seat = deal.to_act
        deal.apply(players[seat].act(deal.observe(seat), deal.legal_actions()))
        yield


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), banker=banker_strategy, level=level_strategy, rules=rules_strategy,
       heuristic=st.booleans())
def test_random_deals_end_and_conserve_cards_and_points(seed, banker, level, rules, heuristic):
    levels = (level, level)
    deal = Deal(seed, banker=banker, levels=levels, rules=rules)
    for _ in steps(deal, agents(seed, heuristic)):
        assert census(deal) == FULL
        if deal.phase is Phase.PLAY or deal.phase is Phase.SCORED:
            in_play = sum(POINTS[c] for hand in (deal.hand(s) for s in range(4)) for c in hand)
            in_play += sum(POINTS[c] for _, cards in deal.trick for c in cards)
            kitty = sum(POINTS[c] for c in deal.kitty)
            bonus = deal.result.kitty_bonus if deal.result else 0
            assert deal.attackers_points - bonus + deal.banker_points + in_play + kitty == 200
    r = deal.result
    assert deal.phase is Phase.SCORED and r is not None
    assert all(size == 0 for size in deal.hand_size) and len(deal.kitty) == 8
    # enforcement PD: the attackers' own penalties never take them below 0; the banker side's add
    lower = sum(d for _, d in r.adjustments if d < 0)
    assert r.points == max(0, r.raw_points + lower) + sum(d for _, d in r.adjustments if d > 0)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), banker=banker_strategy)
def test_same_seed_gives_byte_identical_log(seed, banker):
    def log_text():
        out = io.StringIO()
        writer = LogWriter(out, make_header("shengji", seed, ShengjiRules().to_dict()))
        run(Deal(seed, banker=banker), agents(seed), [writer])
        return out.getvalue()

    assert log_text() == log_text()


def visible_cards(obs):
    """Every card the observation shows apart from the own hand and the kitty field."""
    shown = []
    for d in obs.declarations:
        shown += d.cards
    shown += obs.flipped
    for _, cards in obs.trick + obs.last_trick:
        shown += cards
    return shown


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), banker=banker_strategy)
def test_observations_never_show_hidden_cards(seed, banker):
    deal = Deal(seed, banker=banker)
    for _ in steps(deal, agents(seed)):
        for seat in range(4):
            obs = deal.observe(seat)
            assert obs.hand == deal.hand(seat)
            if obs.kitty is not None:
                assert seat == deal.banker or deal.phase is Phase.SCORED
                assert list(obs.kitty) == list(deal.kitty)
            # public cards: declarations (still owned), flipped kitty, the current and last trick
            public = [0] * 54
            for d in deal.declarations:
                for c in d.cards:
                    public[c] += 1
            for c in deal.flipped:
                public[c] += 1
            plays = deal.trick + (list(deal.tricks[-1].plays) if deal.tricks else [])
            for _, cards in plays:
                for c in cards:
                    public[c] += 1
            seen = [0] * 54
            for c in visible_cards(obs):
                seen[c] += 1
            assert all(seen[i] <= public[i] for i in range(54))
            assert len(obs.last_trick) in (0, 4) and len(obs.trick) <= 3


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), banker=banker_strategy, rules=rules_strategy)
def test_replaying_logged_actions_reproduces_the_events(seed, banker, rules):
    deal = Deal(seed, banker=banker, rules=rules)
    events = deal.take_events()
    players = agents(seed)
    while deal.to_act is not None:
        seat = deal.to_act
        events += deal.apply(players[seat].act(deal.observe(seat), deal.legal_actions()))
    actions = [e for e in events if e.ACTION]
    assert actions and all(action_from_event(e) is not None for e in actions)
    assert all(action_from_event(e) is None for e in events if not e.ACTION)
    again = replay(Deal(seed, banker=banker, rules=rules), events)
    assert again == events


def test_full_deck_is_108_cards():
    assert len(full_deck(2)) == 108 and sum(FULL) == 108
    assert sum(POINTS[c] for c in full_deck(2)) == 200
