"""Invariants of whole 掼蛋 deals played by random agents, for random seeds."""

import copy
import io

from hypothesis import given, settings
from hypothesis import strategies as st

from guandan.actions import Play
from guandan.agents import RandomAgent
from guandan.deal import Deal, Phase
from guandan.movegen import clear_cache, legal_plays
from guandan.observation import Observation, TopPlay, TributeRecord
from tabletop import rng as streams
from tabletop.cards import Card, count_list
from tabletop.log import LogWriter, make_header
from tabletop.runner import run

seeds = st.integers(min_value=0, max_value=2**32 - 1)
FULL = [2] * 54


def agents(seed):
    return [RandomAgent(streams.generator(seed, 0, streams.AGENT + s)) for s in range(4)]


def play_out(deal, seed, check=None):
    players = agents(seed)
    steps = 0
    while deal.to_act is not None:
        seat = deal.to_act
        action = players[seat].act(deal.observe(seat), deal.legal_actions())
        deal.apply(action)
        steps += 1
        assert steps < 2000, "runaway deal"
        if check:
            check(deal)
    return steps


@settings(max_examples=40)
@given(seeds)
def test_random_deals_end_and_conserve_all_108_cards_after_every_action(seed):
    deal = Deal.drawn(seed)
    assert deal.card_counts() == FULL

    def conserved(d):
        assert d.card_counts() == FULL
        assert sum(d.sizes) + sum(len(p) for p in d.played) == 108
        assert all(d.sizes[s] == len(d.hand(s)) for s in range(4))

    play_out(deal, seed, conserved)
    assert deal.phase is Phase.SCORED
    order = deal.result.finish_order
    assert sorted(order) == [0, 1, 2, 3]
    # the deal stops exactly when the rules say: 1-2 partners, or three players out
    out = [s for s in range(4) if deal.sizes[s] == 0]
    assert out == sorted(order[:2]) or len(out) == 3


@settings(max_examples=20)
@given(seeds)
def test_same_seed_gives_a_byte_identical_log(seed):
    def log_of():
        buffer = io.StringIO()
        writer = LogWriter(buffer, make_header("guandan", seed, {}))
        run(Deal.drawn(seed), agents(seed), [writer])
        return buffer.getvalue()

    assert log_of() == log_of()


def _cards_in(value, out):
    """Every Card reachable from an observation field."""
    if isinstance(value, Card):
        out.append(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _cards_in(v, out)
    elif isinstance(value, (TopPlay, TributeRecord)):
        _cards_in(value.cards if isinstance(value, TopPlay) else value.card, out)
    return out


@settings(max_examples=25)
@given(seeds)
def test_observations_never_contain_other_seats_hidden_cards(seed):
    def check(deal):
        public = count_list(c for p in deal.played for c in p)
        for r in deal.tributes:
            public[r.card] += 1
        if deal.face_up:
            public[deal.face_up[1]] += 1
        for seat in range(4):
            obs = deal.observe(seat)
            assert obs.hand == deal.hand(seat)
            for field in Observation.__attrs_attrs__:
                if field.name == "hand":
                    continue
                # every card a field shows (outside one's own hand) is a public card
                seen = count_list(_cards_in(getattr(obs, field.name), []))
                assert all(seen[i] <= public[i] for i in range(54)), field.name
            for other in range(4):
                if other != seat and obs.announced[other] is not None:
                    assert obs.announced[other] <= 10

    deal = Deal.drawn(seed)
    check(deal)
    play_out(deal, seed, check)


@settings(max_examples=10)
@given(seeds)
def test_every_legal_action_is_accepted_on_a_copy_of_the_state(seed):
    deal = Deal.drawn(seed)
    players = agents(seed)
    step = 0
    while deal.to_act is not None:
        legal = deal.legal_actions()
        if step % 15 == 0:
            for action in legal:
                if type(action) is Play:  # cards come in canonical order, as Play makes them
                    assert Play(action.seat, action.cards, action.reading.code) == action
                twin = copy.deepcopy(deal)
                assert twin.why_illegal(action) is None
                twin.apply(action)
        deal.apply(players[deal.to_act].act(deal.observe(deal.to_act), legal))
        step += 1


@settings(max_examples=15)
@given(seeds, st.sampled_from([None, (0, 1, 2, 3), (1, 3, 0, 2)]))
def test_legal_plays_at_every_decision_are_those_of_the_hand_analysed_afresh(seed, previous_order):
    # The deal keeps each seat's analysed hand while it is unchanged, and after a play remembers
    # the hand it shrank from (movegen skips the classes that hand could not play); tribute and
    # return move cards into hands too. The plays offered must be those of the hand as it is.
    deal = Deal.drawn(seed, previous_order=previous_order)

    def offered_as_analysed_afresh(d):
        seat = d.to_act
        if seat is None or d.phase is not Phase.PLAY:
            return
        top = d.top_for(seat)
        legal = d.legal_actions()
        offered = [(a.cards, a.reading) for a in legal if type(a) is Play]
        clear_cache()
        assert offered == [(m.cards, m.reading) for m in legal_plays(d.hand(seat), top, d.level, rules=d.rules)]

    play_out(deal, seed, offered_as_analysed_afresh)
    assert deal.phase is Phase.SCORED
