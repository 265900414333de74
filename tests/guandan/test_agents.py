"""The built-in 掼蛋 agents: legal, seeded, and the heuristic plays like a person."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from guandan.actions import GiveTribute, Pass, Play, ReturnCard
from guandan.agents import HeuristicAgent, RandomAgent
from guandan.deal import Deal
from tabletop import rng as streams
from tabletop.cards import Card, parse_cards
from tabletop.runner import run


def rng(seed=0):
    return streams.generator(seed, 0, streams.AGENT)


def decide(agent, deal):
    return agent.act(deal.observe(deal.to_act), deal.legal_actions())


def test_random_agent_picks_a_legal_action_reproducibly():
    deal = Deal.drawn(3)
    picks = [decide(RandomAgent(rng(5)), deal) for _ in range(2)]
    assert picks[0] == picks[1]
    assert picks[0] in list(deal.legal_actions())


class _Indices:
    """n choices whose i-th is i: what a pick returns is the index drawn."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i


# sizes of a real decision, and sizes where Lemire's rejection and numpy's other paths matter
_SIZES = st.one_of(st.integers(1, 300), st.sampled_from([2**31 + 7, 3 * 2**30, 2**32 - 5, 2**32 - 1, 2**32, 2**40]))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), warm=st.sampled_from(["none", "integers", "random"]),
       sizes=st.lists(st.tuples(_SIZES, st.booleans()), max_size=300))
def test_random_agent_picks_what_one_integers_call_per_pick_gives(seed, warm, sizes):
    # the agent draws ahead from its PCG64 generator: its picks, and its generator once read,
    # are those of one rng.integers(n) per pick
    reference = np.random.Generator(np.random.PCG64(seed))
    agent = RandomAgent(np.random.Generator(np.random.PCG64(seed)))
    for generator in (reference, agent.rng):
        if warm == "integers":
            generator.integers(9)  # leaves the high half of an output buffered
        elif warm == "random":
            generator.random()
    for n, read_rng in sizes:
        assert agent.act(None, _Indices(n)) == int(reference.integers(n))
        if read_rng:
            assert agent.rng.bit_generator.state == reference.bit_generator.state
    assert agent.rng.bit_generator.state == reference.bit_generator.state
    assert agent.act(None, _Indices(1000)) == int(reference.integers(1000))


def test_random_agent_with_another_bit_generator_calls_integers():
    reference = np.random.Generator(np.random.MT19937(4))
    agent = RandomAgent(np.random.Generator(np.random.MT19937(4)))
    assert [agent.act(None, _Indices(n)) for n in range(1, 50)] == [int(reference.integers(n)) for n in range(1, 50)]


def test_heuristic_goes_out_when_it_can():
    deal = Deal.from_hands(["S5 D5", "S3 S4", "S6 S7", "S8 S9"], "2", leader=0)
    assert decide(HeuristicAgent(rng()), deal) == Play(0, parse_cards("S5 D5"), "PAIR 5")


def test_heuristic_lets_its_partners_play_stand():
    deal = Deal.from_hands(["S3 S4 S5", "S6 S7", "SA SK SQ", "S8 S9"], "2", leader=0)
    deal.apply(Play(0, parse_cards("S3"), "SINGLE 3"))
    deal.apply(Pass(1))
    assert decide(HeuristicAgent(rng()), deal) == Pass(2)


def test_heuristic_beats_with_the_smallest_play_without_breaking_a_bomb():
    deal = Deal.from_hands(["S5 S6 S7", "S8 H8 C8 D8 S9 SK C3", "S3 S4", "SJ SQ"], "2", leader=0)
    deal.apply(Play(0, parse_cards("S7"), "SINGLE 7"))
    assert decide(HeuristicAgent(rng()), deal) == Play(1, parse_cards("S9"), "SINGLE 9")


def test_heuristic_keeps_bombs_until_an_opponent_is_about_to_go_out():
    hands = ["SA HA CA DA S3 S4 S5 S9 C9 D9 CJ DJ", "SK S6 S7 S8 H3 H4 H5 H6 H7 H8 H9 HT HJ",
             "C4 C5", "D3 D4 D5 D6 D7 D8 D9 DT DJ DQ DK C6 C7"]
    deal = Deal.from_hands(hands, "2", leader=1)
    deal.apply(Play(1, parse_cards("SK"), "SINGLE K"))  # 12 cards left: count not announced
    deal.apply(Pass(2))
    deal.apply(Pass(3))
    assert decide(HeuristicAgent(rng()), deal) == Pass(0)
    danger = ["SA HA CA DA S3 S4 S5 S9 C9 D9 CJ DJ", "SK S6 S7", "C4 C5",
              "D3 D4 D5 D6 D7 D8 D9 DT DJ DQ DK C6 C7"]
    deal = Deal.from_hands(danger, "2", leader=1)
    deal.apply(Play(1, parse_cards("SK"), "SINGLE K"))  # reports 2 cards
    deal.apply(Pass(2))
    deal.apply(Pass(3))
    choice = decide(HeuristicAgent(rng()), deal)
    assert choice == Play(0, parse_cards("SA HA CA DA"), "BOMB 4xA")


def test_heuristic_leads_its_lowest_combination_the_longer_the_better():
    deal = Deal.from_hands(["S3 H4 C5 D6 S7 SK", "S8", "S9", "ST"], "A", leader=0)
    choice = decide(HeuristicAgent(rng()), deal)
    assert choice.reading.code == "STRAIGHT 3" and len(choice.cards) == 5


def test_heuristic_tribute_keeps_a_straight_flush_together():
    hands = ["S3 S4", "S5", "S6", "SA DA SK SQ SJ ST"]
    deal = Deal.from_hands(hands, "2", None, previous_order=(0, 1, 2, 3))
    assert decide(HeuristicAgent(rng()), deal) == GiveTribute(3, Card("DA"))


def test_heuristic_returns_a_lone_low_card():
    hands = ["S3 H3 S5 S6 S7 D9 SK", "S8", "S9", "SA"]
    deal = Deal.from_hands(hands, "2", None, previous_order=(0, 1, 2, 3))
    deal.apply(GiveTribute(3, Card("SA")))
    assert decide(HeuristicAgent(rng()), deal) == ReturnCard(0, Card("D9"))


def test_heuristic_team_beats_a_random_team():
    wins = 0
    for seed in range(20):
        players = [HeuristicAgent(streams.generator(seed, 0, streams.AGENT + s)) if s % 2 == 0
                   else RandomAgent(streams.generator(seed, 0, streams.AGENT + s)) for s in range(4)]
        wins += run(Deal.drawn(seed), players).team == 0
    assert wins >= 16
