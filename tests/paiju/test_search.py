"""The search baseline (paiju.search): it plays legal actions in both games, the same seed
gives the same play, a determinisation deals exactly the cards the seat cannot see into
hands of the right sizes and keeps what the seat knows (tribute cards, 双升 voids, the
kitty for the banker), and ``--agents search:N`` plays in simulate and tournament. Its
strength is measured in benchmarks/README.md, not here (CI plays a few deals only)."""

from __future__ import annotations

import numpy as np
import pytest

from guandan.deal import Deal as GdDeal
from paiju.agent_specs import AgentSpecError, agent_factory, parse_agents
from paiju.cli import main
from paiju.search import SearchAgent
from paiju.search import guandan as gd_search
from paiju.search import shengji as sj_search
from shengji.agents import HeuristicAgent as SjHeuristic
from shengji.deal import Deal as SjDeal
from tabletop.cards import NUM_CARD_KINDS, count_list
from tabletop.rng import generator
from tabletop.runner import run

DEALS = {"guandan": lambda seed: GdDeal.drawn(seed, "2"), "shengji": lambda seed: SjDeal(seed, banker=0)}


class _Recorder:
    """An observer keeping every event of the deal (what was played, in order)."""

    def __init__(self) -> None:
        self.events: list = []

    def on_events(self, engine, events) -> None:
        self.events.extend(repr(e) for e in events)


def _play(game: str, seed: int) -> tuple[list, list]:
    """A deal with the search (a small budget) in seats 0 and 2; its events."""
    deal = DEALS[game](seed)
    agents = [SearchAgent(generator(seed, s), game, rollouts=4, candidates=2) if s % 2 == 0 else
              agent_factory("heuristic", game)(generator(seed, s), s) for s in range(4)]
    recorder = _Recorder()
    assert run(deal, agents, [recorder]) is not None   # strict: an illegal action would raise IllegalAction
    return recorder.events, agents


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_the_search_agent_plays_legal_actions_and_the_same_seed_plays_the_same(game):
    actions, agents = _play(game, 3)
    assert sum(a.decisions for a in agents[0::2]) > 0   # it did search
    again, _ = _play(game, 3)
    assert again == actions


def test_a_guandan_determinisation_deals_the_unseen_cards_keeping_sizes_and_tribute_cards():
    heuristic = agent_factory("heuristic", "guandan")
    for seed in range(5, 20):   # the first deal with a tribute paid (not resisted)
        deal = GdDeal.drawn(seed, "2", previous_order=(0, 1, 2, 3))   # seat 3 pays seat 0, who returns a card
        if not deal.observe(0).tribute_resisted:
            break
    agents = [heuristic(generator(5, s), s) for s in range(4)]
    for _ in range(30):   # the tribute, the return and a few plays
        seat = deal.to_act
        deal.apply(agents[seat].act(deal.observe(seat), deal.legal_actions()))
    seat = deal.to_act
    obs = deal.observe(seat)
    assert len(obs.tributes) == 2
    knowledge = gd_search.Knowledge(obs, None)
    rng = np.random.default_rng(0)
    unseen = np.array([2] * NUM_CARD_KINDS) - count_list(obs.hand) - np.sum([count_list(p) for p in obs.played], axis=0)
    moved = False
    for _ in range(10):
        world = knowledge.sample(rng)
        assert world.hands[seat] == list(obs.hand)
        assert [len(h) for h in world.hands] == deal.sizes
        others = np.sum([count_list(world.hands[s]) for s in range(4) if s != seat], axis=0)
        assert others.tolist() == unseen.tolist()
        for record in obs.tributes:   # a received card not played since is still its taker's
            if record.taker != seat and record.card not in obs.played[record.taker]:
                assert record.card in world.hands[record.taker]
        moved |= any(world.hands[s] != list(deal.hand(s)) for s in range(4) if s != seat)
        copy = world.deal()   # the deal rebuilt from the determinisation: same turn, same table
        assert copy.to_act == seat and copy.top == deal.top and copy.played == deal.played
    assert moved


def test_a_shengji_determinisation_keeps_voids_sizes_and_the_bankers_kitty():
    """Along a real deal, at every play decision: the hidden hands keep their sizes, hold
    exactly the cards the seat cannot see (with the kitty: the banker's own buried cards, the
    others' a sample), and no seat is dealt a card of a suit it showed it lacks."""
    deal = SjDeal(7, banker=0)
    agents = [SjHeuristic(generator(7, s)) for s in range(4)]
    rng = np.random.default_rng(7)
    voids_seen = checked = 0
    while deal.to_act is not None:
        seat = deal.to_act
        obs = deal.observe(seat)
        action = agents[seat].act(obs, deal.legal_actions())
        if obs.phase == "play" and deal.trick_number >= 2:
            knowledge = sj_search.Knowledge(obs, agents[seat])
            world = knowledge.sample(rng)
            hidden = sorted(c for s in range(4) if s != seat for c in deal.hand(s))
            assert [len(h) for h in world.hands] == list(deal.hand_size)
            assert sorted(world.hands[seat]) == sorted(obs.hand)
            if seat == deal.banker:
                assert sorted(world.kitty) == sorted(deal.kitty)
                assert sorted(c for s in range(4) if s != seat for c in world.hands[s]) == hidden
            else:
                dealt = sorted(c for s in range(4) if s != seat for c in world.hands[s]) + list(world.kitty)
                assert sorted(dealt) == sorted(hidden + list(deal.kitty))
            suit_of = obs.context.suit_of
            for other in range(4):
                if other != seat:
                    voids = agents[seat].memory.voids[other]
                    voids_seen += len(voids)
                    assert not any(suit_of[c] in voids for c in world.hands[other])
            assert world.deal().to_act == seat
            checked += 1
        deal.apply(action)
    assert checked > 20 and voids_seen


def test_search_specs_parse_and_bad_ones_are_one_line_errors():
    assert parse_agents("search,search:6", "guandan") == ("search", "search:6", "search", "search:6")
    assert main(["simulate", "guandan", "--deals", "1", "--agents", "search:zz"]) == 2
    agent = agent_factory("search:6", "shengji")(1, 0)
    assert isinstance(agent, SearchAgent) and agent.rollouts == 6 and agent.game == "shengji"
    assert agent_factory("search:8:2:5", "guandan")(1, 0).horizon == 5
    for bad, why in (("search:x", "whole numbers"), ("search:1", "at least 2"), ("search:4:0", "at least 1"),
                     ("search:1:2:3:4", "whole numbers")):
        with pytest.raises(AgentSpecError, match=why):
            agent_factory(bad, "guandan")


@pytest.mark.parametrize("game", ["guandan", "shengji"])
def test_search_plays_in_a_duplicate_tournament(game, tmp_path):
    """The CI smoke test: two deals of a duplicate tournament, the search at its smallest
    budget (the figures are benchmarks/README.md's)."""
    import json

    out = tmp_path / "run"
    assert main(["tournament", game, "--agents", "search:2:1:6,heuristic", "--deals", "2", "--duplicate",
                 "--quiet", "--out", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["pairings"][0]["deals_played"] == 2
