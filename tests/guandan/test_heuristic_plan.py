"""The 掼蛋 heuristic plans its hand into combinations and plays by the plan: the plan
itself (``guandan.hand_plan``), then behaviour on explicit hands — it leads by the plan,
beats with a plain play rather than a bomb, keeps a bomb until it wins the round or an
opponent is about to go out, keeps its wild card, feeds a partner with few cards — and a
clear margin over random play."""

import pytest

from guandan.actions import Pass, Play
from guandan.agents import HeuristicAgent, RandomAgent
from guandan.deal import Deal
from guandan.hand_plan import bombs_in, plays_needed
from tabletop import rng as streams
from tabletop.cards import parse_cards
from tabletop.runner import run


def counts(text):
    out = [0] * 15
    for c in parse_cards(text):
        out[c.rank_index] += 1
    return tuple(out)


@pytest.mark.parametrize("hand, plays", [
    ("", 0),
    ("S3 S4 S5 S6 S7", 1),                             # a straight
    ("S3 H3 C3 S9 H9", 1),                             # a full house
    ("S3 S4 S5 S6 S7 D9 D9 CK", 3),                    # straight, pair, single
    ("SA S2 S3 S4 S5", 1),                             # A is also low
    ("S5 H5 C5 D5 S9", 2),                             # the bomb stays whole
    ("S3 S3 S4 S4 S5 S5 SK", 2),                       # a tube absorbs three pairs
    ("S3 S3 S3 S4 S4 S4", 1),                          # a plate
    ("BJ BJ RJ RJ S3", 2),                             # the joker bomb
])
def test_plays_needed(hand, plays):
    assert plays_needed(counts(hand)) == plays


def test_bombs_in_counts_ranks_of_four_and_the_jokers():
    assert bombs_in(counts("S5 H5 C5 D5 S9 H9 C9 D9 S9 BJ BJ RJ RJ")) == 3


def decide(deal, seat=None):
    seat = deal.to_act if seat is None else seat
    action = HeuristicAgent(streams.generator(0, 0, streams.AGENT)).act(deal.observe(seat), deal.legal_actions())
    assert deal.why_illegal(action) is None
    return action


def test_leads_by_the_plan_rather_than_break_a_straight():
    deal = Deal.from_hands(["S3 S4 S5 C6 S7 D9 D9 CK", "H8 H9", "DJ DQ", "CJ CQ"], "2", leader=0)
    assert decide(deal) == Play(0, parse_cards("S3 S4 S5 C6 S7"), "STRAIGHT 3")


def test_beats_a_single_with_a_single_and_keeps_the_bomb():
    deal = Deal.from_hands(["S9 H9 C9 D9 SK D3 D4 C6 C6 H8 H8 DJ", "S7 S8", "H3 H4", "C3 C4"], "2", leader=1)
    deal.apply(Play(1, parse_cards("S7"), "SINGLE 7"))
    deal.apply(Pass(2))
    deal.apply(Pass(3))
    assert decide(deal) == Play(0, parse_cards("DJ"), "SINGLE J")     # the lowest loose single that beats


def test_keeps_the_bomb_when_it_would_not_win_the_round_and_bombs_when_it_does():
    # 12 cards left, the opponent still holds many, and unseen cards could make bigger bombs:
    # pass on the ace
    hands = ["S9 H9 C9 D9 D3 D4 C6 C6 H8 H8 DJ S5", "SA S8 S3 S4 ST SJ SQ C7 C8 CT CJ CQ", "H3 H4", "C3 C4"]
    deal = Deal.from_hands(hands, "2", leader=1)
    deal.apply(Play(1, parse_cards("SA"), "SINGLE A"))
    deal.apply(Pass(2))
    deal.apply(Pass(3))
    assert decide(deal) == Pass(0)
    # the joker bomb wins any round, and two plays are left after it: bomb
    hands = ["BJ BJ RJ RJ S3 S3 D5", "SA S8 S9", "H3 H4 H5", "C3 C4 C5"]
    deal = Deal.from_hands(hands, "2", leader=1)
    deal.apply(Play(1, parse_cards("SA"), "SINGLE A"))
    deal.apply(Pass(2))
    deal.apply(Pass(3))
    assert decide(deal) == Play(0, parse_cards("BJ BJ RJ RJ"), "JOKER_BOMB")


def test_bombs_when_an_opponent_is_about_to_go_out():
    hands = ["S9 H9 C9 D9 D3 D4 C6 C6 H8 H8 DJ S5", "SA S8", "H3 H4", "C3 C4"]
    deal = Deal.from_hands(hands, "2", leader=1)
    deal.apply(Play(1, parse_cards("SA"), "SINGLE A"))       # seat 1 reports one card left
    deal.apply(Pass(2))
    deal.apply(Pass(3))
    assert decide(deal) == Play(0, parse_cards("S9 H9 C9 D9"), "BOMB 4x9")


def test_keeps_the_wild_card_when_a_plain_card_beats():
    deal = Deal.from_hands(["H2 SK D3 D4 C8 C8 S6 S6 H9 H9 DJ DJ", "SQ S8", "H3 H4", "C3 C4"], "2", leader=1)
    deal.apply(Play(1, parse_cards("SQ"), "SINGLE Q"))
    deal.apply(Pass(2))
    deal.apply(Pass(3))
    assert decide(deal) == Play(0, parse_cards("SK"), "SINGLE K")


def test_feeds_a_partner_down_to_two_cards_a_low_pair():
    hands = ["SA S3 S4 S5 C6 S7 D9 D9 C4 C4", "H8 H9 HT HJ HQ HK", "H3 H5 D5", "CJ CQ CK DK DQ DJ"]
    deal = Deal.from_hands(hands, "2", leader=2)
    deal.apply(Play(2, parse_cards("H3"), "SINGLE 3"))       # the partner reports two cards left
    deal.apply(Pass(3))
    deal.apply(Play(0, parse_cards("SA"), "SINGLE A"))
    for seat in (1, 2, 3):
        deal.apply(Pass(seat))
    assert deal.observe(0).announced[2] == 2
    fed = decide(deal)
    assert fed.reading.code == "PAIR 4"          # either pair of fours: the straight 3-7 stays


def test_heuristic_side_beats_random_by_a_clear_margin_in_both_seat_orders():
    gained = []
    for seed in range(16):
        heuristic_team = seed % 2
        kinds = [HeuristicAgent, RandomAgent] * 2 if heuristic_team == 0 else [RandomAgent, HeuristicAgent] * 2
        result = run(Deal.drawn(seed, "2"), [kind(streams.generator(seed, 0, streams.AGENT + s))
                                             for s, kind in enumerate(kinds)])
        gained.append(result.levels if result.team == heuristic_team else -result.levels)
    assert sum(gained) / len(gained) > 2.0, gained      # random against random: 0 on average


def test_the_same_seed_gives_the_same_decisions_over_a_match():
    from guandan.match import Match
    from tabletop.events import EventStream
    from tabletop.log import encode_event

    def log(seed):
        lines = []

        class Keep:
            def on_events(self, engine, events):
                lines.extend(encode_event(e) for e in events)

        stream = EventStream()
        run(Match(seed, stream=stream), [HeuristicAgent(streams.generator(seed, 0, streams.AGENT + s))
                                         for s in range(4)], [Keep()])
        return lines

    assert log(3) == log(3)
