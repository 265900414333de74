"""The 双升 heuristic plays like a club player: behaviour on explicit hands (throws only
what no unseen card can beat, pulls trumps as banker, feeds a partner whose card stands,
keeps points from the opponents, buries to void a suit), declarations that let ``no_bid``
happen, and a clear margin over random play."""

import numpy as np
import pytest

from shengji.actions import Bury, Play
from shengji.agents import HeuristicAgent, RandomAgent
from shengji.deal import Deal
from shengji.units import decompose
from tabletop.cards import parse_cards, sort_cards
from tabletop.rng import AGENT, generator
from tabletop.runner import run


def decide(deal, seat=None):
    seat = deal.to_act if seat is None else seat
    agent = HeuristicAgent(np.random.default_rng(0))
    action = agent.act(deal.observe(seat), deal.legal_actions())
    assert deal.why_illegal(action) is None, deal.why_illegal(action)
    return action


def cards(text):
    return tuple(sort_cards(parse_cards(text)))


# The other hands of these puzzles hold no spades above the ten: everything a seat has not
# seen (the other hands and the rest of the pack) counts as unseen, so the agent must not
# rely on them either way.
FILLER = ("D3 D4 D6 C3 C4", "D7 D8 D9 C6 C7", "DT DJ DQ C8 C9")


def test_throws_when_every_unit_is_safe():
    # SA SA (no higher pair exists) and SK (both aces are in this hand): nothing can beat either
    deal = Deal.from_hands(["SA SA SK D5 C5", *FILLER], "2", "H", banker=0)
    assert decide(deal) == Play(0, cards("SA SA SK"))
    deal.apply(Play(0, cards("SA SA SK")))
    assert deal.failed_throws == 0 and deal.throws == 1


def test_does_not_throw_when_a_unit_can_be_beaten():
    # SQ SQ could be beaten by the unseen SK SK: lead the ace alone, never the throw
    deal = Deal.from_hands(["SA SQ SQ D5 C5", *FILLER], "2", "H", banker=0)
    play = decide(deal)
    assert len(decompose(list(play.cards), deal.ctx)) == 1
    assert play == Play(0, cards("SA"))


def test_banker_with_long_trumps_leads_trumps_to_pull_them():
    deal = Deal.from_hands(["H3 H3 H5 H9 SA", *FILLER], "2", "H", banker=0)
    assert all(deal.ctx.is_trump(c) for c in decide(deal).cards)


def test_an_attacker_cashes_its_winner_rather_than_lead_trumps():
    # seat 0 (attacker, banker 1) wins trick 1 with CA, then leads from the same hand as above
    deal = Deal.from_hands(["CA H3 H3 H5 H9 SA", "C3 D3 D4 D6 C5 D5", "C4 D7 D8 D9 C7 DT", "C6 DJ DQ DK C8 C9"],
                           "2", "H", banker=1)
    for seat, card in ((1, "C3"), (2, "C4"), (3, "C6"), (0, "CA")):
        deal.apply(Play(seat, cards(card)))
    assert deal.to_act == 0 and deal.trick == []
    assert decide(deal) == Play(0, cards("SA"))


def test_feeds_points_to_a_partner_whose_card_stands_and_keeps_them_from_opponents():
    # seat 0 leads SA (the other SA is in seat 2's hand: nothing beats it); seat 2 may play ST or S4
    deal = Deal.from_hands(["SA D3 D4 D6 C3", "S3 D7 D8 C6 C7", "ST S4 SA D9 C4", "S5 DT DJ C8 C9"],
                           "2", "H", banker=0)
    deal.apply(Play(0, cards("SA")))
    deal.apply(Play(1, cards("S3")))
    assert decide(deal) == Play(2, cards("ST"))           # partner wins for sure: the ten goes to it
    # the same choice when an opponent (the banker, seat 1) wins: the four, the ten stays home
    deal = Deal.from_hands(["S3 D3 D4 D6 C3", "SA D7 D8 C6 C7", "ST S4 SA D9 C4", "S5 DT DJ C8 C9"],
                           "2", "H", banker=1)
    deal.apply(Play(1, cards("SA")))
    assert decide(deal) == Play(2, cards("S4"))


def test_buries_to_void_short_suits_and_keeps_trumps_and_aces():
    hands = ["H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA BJ RJ C3 C4 SA",
             "S6 S7 S8 S9 ST SJ SQ SK D5 D6 D7 D8 DT DJ DQ DK DA",
             "C7 C8 C9 CT CJ CQ CK CA S6 S7 S8 S9 ST SJ SQ SK SA",
             "C7 C8 C9 CT CJ CQ CK CA D5 D6 D7 D8 DT DJ DQ DK DA"]
    deal = Deal.from_hands(hands, "2", "H", banker=0, kitty="D3 D4 C5 C6 S3 S4 S5 D9", at="kitty")
    bury = decide(deal)
    assert isinstance(bury, Bury) and len(bury.cards) == 8
    kept = list(deal.observe(0).hand)
    for c in bury.cards:
        kept.remove(c)
    assert not any(deal.ctx.is_trump(c) for c in bury.cards)
    assert parse_cards("SA")[0] in kept
    assert {c.suit for c in kept if not deal.ctx.is_trump(c)} == {"S"}     # clubs and diamonds voided


@pytest.mark.parametrize("no_bid, sign", [("flip_kitty", "sj.kitty_flipped"), ("no_trump", '"how":"no_trump"'),
                                          ("redeal", '"reason":"nobody declared"')])
def test_with_the_bank_fixed_a_short_hand_declines_so_no_bid_happens(no_bid, sign):
    from shengji.match import Match
    from shengji.rules import ShengjiRules
    from tabletop.events import EventStream
    from tabletop.log import encode_event

    seen = 0
    for seed in range(3):
        stream = EventStream()
        match = Match(seed, ShengjiRules(no_bid=no_bid, max_deals=6), stream=stream)
        lines = []

        class Keep:
            def on_events(self, engine, events):
                lines.extend(encode_event(e) for e in events)

        run(match, [HeuristicAgent(generator(seed, AGENT + s)) for s in range(4)], [Keep()])
        seen += sum(sign in line for line in lines)
    assert seen > 0


def test_heuristic_side_beats_random_by_a_clear_margin_in_both_seat_orders():
    gained = []
    for seed in range(40):
        heuristic_team = seed % 2
        kinds = [HeuristicAgent, RandomAgent] * 2 if heuristic_team == 0 else [RandomAgent, HeuristicAgent] * 2
        result = run(Deal(seed, banker=seed % 4), [kind(generator(seed, AGENT + s)) for s, kind in enumerate(kinds)])
        gained.append(result.levels if result.team == heuristic_team else -result.levels)
    mean = sum(gained) / len(gained)
    assert mean > 1.0, gained          # random play against random play: 0 on average


def test_heuristic_throws_and_wins_kitty_bonuses_between_equals():
    throws = failed = bonuses = 0
    for seed in range(12):
        result = run(Deal(seed, banker=seed % 4), [HeuristicAgent(generator(seed, AGENT + s)) for s in range(4)])
        throws += result.throws
        failed += result.failed_throws
        bonuses += result.kitty_bonus > 0
    assert throws > 5 and failed == 0 and bonuses > 0


def test_the_same_seed_gives_the_same_decisions_over_a_match():
    from shengji.match import Match
    from shengji.rules import ShengjiRules
    from tabletop.events import EventStream
    from tabletop.log import encode_event

    def log(seed):
        lines = []

        class Keep:
            def on_events(self, engine, events):
                lines.extend(encode_event(e) for e in events)

        run(Match(seed, ShengjiRules(max_deals=4), stream=EventStream()),
            [HeuristicAgent(generator(seed, AGENT + s)) for s in range(4)], [Keep()])
        return lines

    assert log(5) == log(5)
