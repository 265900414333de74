"""Built-in 双升 agents.

``RandomAgent`` asks each decision's ``Choices.sample``: uniform over the listed options for
declarations, the decision's own sampler for burying, leads and follows. ``HeuristicAgent`` plays a
simple sound game: declares with length in the suit, buries low non-point side cards,
leads its strong units, follows cheaply, feeds points to a winning partner and trumps
or overtakes when points are on the table. Both read only their observation.

Refereed mode adds two kinds of decision: the draw step (``Draw``: both draw on) and the
choices a ruling offers (``Choose``): RandomAgent picks uniformly; HeuristicAgent takes the
random draw over the offender's own pick or a decline, redeals a miscount only when its own
hand is weak, and hands over its cheapest card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shengji.actions import Bury, Choices, Choose, Declare, Draw, NoDeclare, Play, lead_units, pick_index
from shengji.context import TRUMP
from shengji.observation import Observation
from shengji.scoring import POINTS, card_points
from shengji.tricks import trick_winner
from tabletop.cards import RANKS, SMALL_JOKER, Card, count_list


# ---------------------------------------------------------------------------------------------
# Agents


class RandomAgent:
    """``Choices.sample`` at every decision (a plain list of actions: uniform)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> Any:
        if isinstance(legal_actions, Choices):
            return legal_actions.sample(self.rng)
        return legal_actions[pick_index(self.rng, len(legal_actions))]


class HeuristicAgent:
    """A simple sound player (see the module docstring). Deterministic given its rng."""

    FOLLOW_SAMPLES = 12

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def act(self, obs: Observation, legal_actions: Sequence[Any]) -> Any:
        first = legal_actions[0]
        if isinstance(first, Draw):
            return first
        if isinstance(first, Choose):
            return self._choose(obs, legal_actions)
        if isinstance(first, (Declare, NoDeclare)):
            return self._declare(obs, legal_actions)
        if isinstance(first, Bury):
            return self._bury(obs)
        if obs.lead is None:
            return self._lead(obs)
        return self._follow(obs, legal_actions)

    # -- choices a ruling offers ----------------------------------------------------------------
    def _choose(self, obs: Observation, legal: Sequence[Any]) -> Any:
        options = {a.option: a for a in legal}
        if "random_draw" in options and "redeal" in options:
            return options["redeal" if self._weak(obs) else "random_draw"]
        if "random_draw" in options:
            return options["random_draw"]
        level = RANKS.index(obs.level)

        def value(action: Choose) -> tuple:
            card = Card(action.option)
            strong = card >= SMALL_JOKER or card % 13 == level or (obs.trump is not None and card.suit == obs.trump)
            return (strong, POINTS[card] > 0, card % 13 if card < SMALL_JOKER else 13)

        return min(legal, key=value)

    @staticmethod
    def _weak(obs: Observation) -> bool:
        """Fewer strong cards (jokers, level cards, aces) than an average hand holds."""
        level = RANKS.index(obs.level)
        strong = sum(1 for c in obs.hand if c >= SMALL_JOKER or c % 13 == level or c % 13 == 12)
        return strong < 0.25 * len(obs.hand)

    # -- declaring ------------------------------------------------------------------------------
    def _declare(self, obs: Observation, legal: Sequence[Any]) -> Any:
        options = [a for a in legal if isinstance(a, Declare)]
        if not options:
            return legal[0]
        standing = obs.declaration
        if standing is not None and standing.seat == obs.seat:
            return options[0]                                   # 加固 costs nothing
        held = len(obs.hand)
        level = RANKS.index(obs.level)
        strong = sum(1 for c in obs.hand if c >= SMALL_JOKER or c % 13 == level)
        best, best_score = options[0], -1.0
        for action in options:
            card = action.cards[0]
            if card >= SMALL_JOKER:
                score = strong + 1.0                            # no-trump: only jokers and levels
            else:
                suit = card // 13
                score = strong + sum(1 for c in obs.hand if c < SMALL_JOKER and c // 13 == suit
                                     and c % 13 != level)
            if score > best_score:
                best, best_score = action, score
        partner_stands = standing is not None and (standing.seat - obs.seat) % 2 == 0
        need = max(3.0, 0.36 * held + (3 if partner_stands else 0))
        if obs.stock_left <= 8 and standing is None:
            need = 0.0                                          # better some trump than none
        return best if best_score >= need else NoDeclare(obs.seat)

    # -- burying --------------------------------------------------------------------------------
    def _bury(self, obs: Observation) -> Bury:
        ctx = obs.context
        assert ctx is not None  # trump is known from the burial on
        hand = list(obs.hand)
        size = len(hand) - obs.hand_sizes[(obs.seat + 1) % 4]
        by_suit = {s: sum(1 for c in hand if ctx.suit_of[c] == s) for s in range(5)}
        counts = count_list(hand)

        def cost(c: Card) -> tuple:
            trump = ctx.suit_of[c] == TRUMP
            return (trump, POINTS[c] > 0, counts[c] >= 2, ctx.order_of[c] >= len(ctx.slots[ctx.suit_of[c]]) - 2,
                    by_suit[ctx.suit_of[c]], ctx.order_of[c])

        return Bury(obs.seat, sorted(hand, key=cost)[:size])

    # -- leading --------------------------------------------------------------------------------
    def _lead(self, obs: Observation) -> Play:
        ctx = obs.context
        assert ctx is not None  # trump is known from the burial on
        units = lead_units(obs.hand, ctx)

        def strength(unit: tuple[Card, ...]) -> tuple:
            c = unit[0]
            suit = ctx.suit_of[c]
            top = max(ctx.order_of[x] for x in unit)
            is_top = top >= len(ctx.slots[suit]) - 1
            return (len(unit) >= 4, len(unit) == 2 and top >= len(ctx.slots[suit]) - 3,
                    suit != TRUMP and is_top, suit != TRUMP, -POINTS[c], -top if len(unit) == 1 else top)

        return Play(obs.seat, max(units, key=strength))

    # -- following ------------------------------------------------------------------------------
    def _follow(self, obs: Observation, legal: Sequence[Any]) -> Play:
        ctx = obs.context
        assert ctx is not None  # trump is known from the burial on
        if isinstance(legal, Choices) and not legal.complete:
            candidates = {legal.sample(self.rng) for _ in range(self.FOLLOW_SAMPLES)}
            candidates.update(legal)
        else:
            candidates = set(legal)
        plays = [list(cards) for _, cards in obs.trick]
        seats = [seat for seat, _ in obs.trick]
        on_table = sum(card_points(p) for p in plays)
        current = seats[trick_winner(plays, ctx, obs.rules)]
        partner_wins = (current - obs.seat) % 2 == 0
        last_to_play = len(plays) == 3

        def cheapness(play: Play) -> int:
            return sum(ctx.order_of[c] + (30 if ctx.suit_of[c] == TRUMP else 0) + 4 * POINTS[c]
                       for c in play.cards)

        ordered = sorted(candidates, key=lambda p: (cheapness(p), p.cards))
        if partner_wins and (last_to_play or obs.trick[0][0] == (obs.seat + 2) % 4):
            return max(ordered, key=lambda p: (card_points(list(p.cards)), -cheapness(p)))
        winners = [p for p in ordered
                   if trick_winner(plays + [list(p.cards)], ctx, obs.rules) == len(plays)]
        if winners and (on_table >= 10 or last_to_play) and not partner_wins:
            best = winners[0]
            if last_to_play:
                return max(winners, key=lambda p: (card_points(list(p.cards)), -cheapness(p)))
            return best
        return ordered[0]
