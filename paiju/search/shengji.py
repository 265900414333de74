"""双升 for ``paiju.search``: which decisions are searched, the candidates, the
determinisation and the rollout.

What the seat knows of the hidden hands: each seat's card count (public), every card of
every trick it saw (the heuristic's own memory: older tricks are face down, SJ-1.12, but a
seat plays in every trick and so sees each one close), the suits a seat showed it no longer
holds (a follow with a card of another suit), and — for the banker — the buried kitty. For
everyone else the kitty is hidden cards like a hand, and is dealt with them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from shengji.actions import Choices, Play
from shengji.agents import HeuristicAgent
from shengji.context import TRUMP
from shengji.deal import KITTY_SIZE, Deal
from shengji.scoring import POINTS
from tabletop.cards import CARDS, NUM_CARD_KINDS
from tabletop.seats import NUM_SEATS

FOLLOW_SAMPLES = 24
"""Follows drawn from a decision whose legal plays are not all listed."""
KITTY = NUM_SEATS
"""The kitty's place among the hidden holders."""
TRIES = 20
"""Determinisations tried with every void kept before the voids are dropped."""
HORIZON = 12
"""Searched once the seat holds this many cards or fewer (of 25): the second half of a deal."""


def heuristic(rng: np.random.Generator) -> HeuristicAgent:
    return HeuristicAgent(rng)


def searchable(obs: Any, legal: Sequence[Any]) -> bool:
    """An ordinary lead or follow at a table with nothing irregular on it."""
    if obs.phase != "play" or obs.to_act != obs.seat or obs.situation is not None or obs.context is None:
        return False
    return not (any(obs.exposed) or obs.on_table)


def candidates(obs: Any, legal: Sequence[Any], prior: Any, k: int) -> list[Any]:
    """The prior first, then ``k`` other plays spread from the cheapest to the dearest (trump
    and points dear), drawn from the listed units and, for a follow, sampled completions."""
    ctx = obs.context
    found = set(legal)
    if isinstance(legal, Choices) and not legal.complete and obs.trick:
        rng = np.random.default_rng(len(obs.hand))   # fixed: the candidates depend on the position only
        found.update(legal.sample(rng) for _ in range(FOLLOW_SAMPLES))
    found.discard(prior)

    def cheapness(play: Play) -> tuple:
        return sum(ctx.order_of[c] + (30 if ctx.suit_of[c] == TRUMP else 0) + 6 * POINTS[c]
                   for c in play.cards), -len(play.cards), play.cards

    ordered = sorted((a for a in found if type(a) is Play), key=cheapness)
    if len(ordered) > k:
        ordered = [ordered[int(i)] for i in np.unique(np.linspace(0, len(ordered) - 1, k).round())]
    return [prior, *ordered]


class Knowledge:
    """What ``obs``'s seat knows of the hidden cards: ``sample`` deals them."""

    def __init__(self, obs: Any, prior: HeuristicAgent) -> None:
        self.obs = obs
        memory = prior.memory   # brought up to date by the prior's act on this observation
        self.memory = memory
        me = obs.seat
        unseen = memory.unseen(obs)
        self.cards = np.repeat(np.arange(NUM_CARD_KINDS), unseen)
        self.capacity = {s: obs.hand_sizes[s] for s in range(NUM_SEATS) if s != me and obs.hand_sizes[s]}
        kitty_known = obs.seat == obs.banker and obs.kitty is not None
        if not kitty_known:
            self.capacity[KITTY] = KITTY_SIZE
        self.kitty = list(obs.kitty) if kitty_known else None
        suit_of = obs.context.suit_of
        self.allowed = {s: np.array([suit_of[c] not in memory.voids[s] for c in range(NUM_CARD_KINDS)])
                        for s in self.capacity if s != KITTY}
        self.consistent = len(self.cards) == sum(self.capacity.values())

    def sample(self, rng: np.random.Generator) -> "World | None":
        if not self.consistent:
            return None
        for attempt in range(TRIES + 1):
            dealt = self._deal(rng, voids=attempt < TRIES)
            if dealt is not None:
                return World(self.obs, dealt, self.memory)
        return None

    def _deal(self, rng: np.random.Generator, voids: bool) -> "dict[int, list[int]] | None":
        """The unseen cards dealt to the holders, the most constrained cards first, each to a
        holder that may hold it, chosen in proportion to the room it has left."""
        holders = list(self.capacity)
        room = np.array([self.capacity[h] for h in holders])
        may = np.array([self.allowed[h] if h in self.allowed and voids else np.ones(NUM_CARD_KINDS, bool)
                        for h in holders])
        cards = rng.permutation(self.cards)
        cards = cards[np.argsort(may[:, cards].sum(axis=0), kind="stable")]
        out: dict[int, list[int]] = {h: [] for h in holders}
        for c in cards:
            weights = room * may[:, c]
            total = weights.sum()
            if total == 0:
                return None
            i = int(rng.choice(len(holders), p=weights / total))
            out[holders[i]].append(int(c))
            room[i] -= 1
        return out


class World:
    """One determinisation: the hidden hands and the kitty, and how to play a candidate to
    the deal's end."""

    def __init__(self, obs: Any, dealt: dict[int, list[int]], memory: Any) -> None:
        self.obs = obs
        self.memory = memory
        hands = [list(obs.hand) if s == obs.seat else [CARDS[c] for c in dealt.get(s, [])] for s in range(NUM_SEATS)]
        kitty = list(obs.kitty) if obs.seat == obs.banker and obs.kitty is not None else [CARDS[c] for c in dealt[KITTY]]
        self.hands = hands
        self.kitty = kitty

    def deal(self) -> Deal:
        """A strict deal at the observed point of play, with these hands and kitty."""
        return Deal.from_observation(self.obs, self.hands, self.kitty)

    def rollout(self, action: Any, rng: np.random.Generator) -> float:
        deal = self.deal()
        players = [HeuristicAgent(rng) for _ in range(NUM_SEATS)]
        memory = self.memory
        for seat, player in enumerate(players):   # every seat saw the same tricks
            player.memory.played = list(memory.played)
            player.memory.voids = [set(v) for v in memory.voids]
            player.memory.trick = obs_trick = self.obs.trick_number
            player.memory.recorded = obs_trick - 1
            player.memory.hand_size = deal.hand_size[seat]
        deal.apply(action)
        while deal.to_act is not None:
            seat = cast(int, deal.to_act)   # a strict deal: a seat or nobody
            deal.apply(players[seat].act(deal.observe(seat), deal.legal_actions()))
        result = deal.result
        assert result is not None   # a strict deal ends when nobody is to act
        mine = self.obs.seat % 2
        levels = result.levels if result.team == mine else -result.levels
        attacking = (self.obs.seat - self.obs.banker) % 2 == 1
        return float(levels) + (result.points if attacking else -result.points) / 400
