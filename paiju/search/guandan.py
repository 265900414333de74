"""掼蛋 for ``paiju.search``: which decisions are searched, the candidates, the
determinisation and the rollout.

What the seat knows of the hidden hands: how many cards each seat holds (27, less what it
played, plus or minus tribute and return cards; its 报牌 when it announced one), every card
played, and the tribute and return cards each seat received and has not played since."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from guandan.actions import Pass, Play
from guandan.agents import HeuristicAgent, _after, _damage, _plan_counts, _power, _rank_counts
from guandan.deal import HAND_SIZE, Deal
from guandan.hand_plan import plays_needed
from guandan.observation import Phase
from guandan.ranks import wild_card
from tabletop.cards import CARDS, NUM_CARD_KINDS, count_list
from tabletop.seats import NUM_SEATS

HORIZON = 10
"""Searched from the point the seat holds this many cards (it then announces them: 报牌)."""


def heuristic(rng: np.random.Generator) -> HeuristicAgent:
    return HeuristicAgent(rng)


def searchable(obs: Any, legal: Sequence[Any]) -> bool:
    """An ordinary play decision of a table with nothing irregular on it."""
    if obs.phase is not Phase.PLAY or len(legal) < 2 or obs.to_act != obs.seat:
        return False
    if any(type(a) not in (Play, Pass) for a in legal):
        return False
    return not (any(obs.exposed) or obs.barred or obs.placed_last or obs.on_table or obs.situation)


def candidates(obs: Any, legal: Sequence[Any], prior: Any, k: int) -> list[Any]:
    """The prior first, then passing (when allowed) and the ``k`` plays that spoil the hand
    least (no bomb broken, no wild card spent, fewest plays left, lowest)."""
    out = [prior]
    if any(type(a) is Pass for a in legal) and type(prior) is not Pass:
        out.append(next(a for a in legal if type(a) is Pass))
    wild = wild_card(obs.level)
    counts = _plan_counts(obs.hand, wild)
    rank_counts = _rank_counts(count_list(obs.hand))

    def cost(play: Play) -> tuple:
        broken, wilds, _split = _damage(play, rank_counts, wild)
        return broken, wilds, plays_needed(_after(counts, play, wild)), _power(play, obs.level), -len(play.cards)

    plays = sorted((a for a in legal if type(a) is Play and a != prior), key=lambda p: (cost(p), p.cards))
    out.extend(plays[:k])
    return out


class Knowledge:
    """What ``obs``'s seat knows of the other hands: ``sample`` deals them."""

    def __init__(self, obs: Any, prior: Any) -> None:
        self.obs = obs
        me = obs.seat
        played = [count_list(cards) for cards in obs.played]
        received = [[0] * NUM_CARD_KINDS for _ in range(NUM_SEATS)]
        sizes = [HAND_SIZE - len(cards) for cards in obs.played]
        for record in obs.tributes:
            sizes[record.giver] -= 1
            sizes[record.taker] += 1
            received[record.taker][record.card] += 1
        for seat in range(NUM_SEATS):
            if obs.announced[seat] is not None:
                sizes[seat] = obs.announced[seat]
        mine = count_list(obs.hand)
        sizes[me] = len(obs.hand)
        pool = [2 - mine[c] - sum(p[c] for p in played) for c in range(NUM_CARD_KINDS)]
        self.others = [s for s in range(NUM_SEATS) if s != me and sizes[s] > 0]
        self.known = {s: [max(0, received[s][c] - played[s][c]) for c in range(NUM_CARD_KINDS)] for s in self.others}
        for s in self.others:
            for c, n in enumerate(self.known[s]):
                pool[c] -= n
        self.sizes = sizes
        self.free = {s: sizes[s] - sum(self.known[s]) for s in self.others}
        self.pool = np.repeat(np.arange(NUM_CARD_KINDS), np.maximum(pool, 0))
        self.consistent = (min(pool) >= 0 and min(self.free.values(), default=0) >= 0
                           and len(self.pool) == sum(self.free.values()))
        self.hands = {me: list(obs.hand)}

    def sample(self, rng: np.random.Generator) -> "World | None":
        if not self.consistent:
            return None
        pool = rng.permutation(self.pool)
        hands = dict(self.hands)
        at = 0
        for s in self.others:
            cards = [CARDS[c] for c, n in enumerate(self.known[s]) for _ in range(n)]
            cards.extend(CARDS[int(c)] for c in pool[at:at + self.free[s]])
            at += self.free[s]
            hands[s] = cards
        return World(self.obs, [hands.get(s, []) for s in range(NUM_SEATS)])


class World:
    """One determinisation: the hands, and how to play a candidate to the deal's end."""

    def __init__(self, obs: Any, hands: list[list[Any]]) -> None:
        self.obs = obs
        self.hands = hands

    def deal(self) -> Deal:
        """A strict deal at the observed point of play, with these hands."""
        return Deal.from_observation(self.obs, self.hands)

    def rollout(self, action: Any, rng: np.random.Generator) -> float:
        deal = self.deal()
        deal.apply(action)
        players = [HeuristicAgent(rng) for _ in range(NUM_SEATS)]
        while deal.to_act is not None:
            seat = cast(int, deal.to_act)   # a strict deal: a seat or nobody
            deal.apply(players[seat].act(deal.observe(seat), deal.legal_actions()))
        result = deal.result
        assert result is not None   # a strict deal ends when nobody is to act
        return float(result.levels if result.team == self.obs.seat % 2 else -result.levels)
