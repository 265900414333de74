"""Built-in 双升 agents.

``RandomAgent`` asks each decision's ``Choices.sample``: uniform over the listed options for
declarations, the decision's own sampler for burying, leads and follows. ``HeuristicAgent``
plays like a club player, from its observation and its own memory of the tricks it saw:

- declares with length in the suit (trumps it would hold against the cards held so far),
  overcalls an opponent only with more length, a partner only with much more, declares
  no-trump with a joker pair and many level cards, and declines with a short hand — so a deal
  where nobody has the length goes to the ``no_bid`` rule;
- buries to void its shortest side suits, keeps trumps, aces and pairs, and buries side-suit
  point cards it would likely lose when its trumps are long (the kitty then carries points:
  a bonus for the attackers if they take the last trick);
- throws (甩牌) every unit of a suit at once when no unseen card could beat any of them, and
  never an unsafe throw; as banker side with long trumps leads trumps to pull them;
  otherwise leads its top units, else low cards from short suits;
- follows to keep points from the opponents: feeds points to a partner whose play cannot be
  beaten any more, wins with the cheapest play that takes points or the last trick, and
  otherwise plays its cheapest cards, points last.

Both read only their observation. Refereed mode adds two kinds of decision: the draw step
(``Draw``: both draw on) and the choices a ruling offers (``Choose``): RandomAgent picks
uniformly; HeuristicAgent takes the random draw over the offender's own pick or a decline,
redeals a miscount only when its own hand is weak, and hands over its cheapest card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shengji.actions import Bury, Choices, Choose, Declare, Draw, NoDeclare, Play, lead_units, pick_index
from shengji.choices import FollowChoices, LeadChoices
from shengji.context import TRUMP, Context
from shengji.observation import Observation
from shengji.scoring import POINTS, card_points
from shengji.tricks import trick_winner
from shengji.units import pair_profile, runs, suit_units
from tabletop.cards import CARDS, RANKS, SMALL_JOKER, Card, count_list


# ---------------------------------------------------------------------------------------------
# Agents


_CHOICES = (FollowChoices, LeadChoices, Choices)
"""The classes of a deal's ``legal_actions``."""


class RandomAgent:
    """``Choices.sample`` at every decision (a plain list of actions: uniform)."""

    observes = False
    """It never reads its observation: the runner passes None (``tabletop.protocol.Agent``)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def act(self, observation: Observation | None, legal_actions: Sequence[Any]) -> Any:
        # the class, not isinstance: Choices is a Sequence, whose ABC check costs more than a decision's sampling
        if type(legal_actions) in _CHOICES:
            return legal_actions.sample(self.rng)  # type: ignore[attr-defined]  # a Choices
        if isinstance(legal_actions, Choices):
            return legal_actions.sample(self.rng)
        return legal_actions[pick_index(self.rng, len(legal_actions))]


class HeuristicAgent:
    """A club player's simple game (see the module docstring). Deterministic given its rng."""

    FOLLOW_SAMPLES = 12

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.memory = TrickMemory()

    def act(self, obs: Observation, legal_actions: Sequence[Any]) -> Any:
        if obs.phase == "play" and obs.situation is None and obs.to_act == obs.seat:
            # an ordinary lead or follow: no need to list a lead's Choices (it is built lazily)
            self.memory.update(obs)
            return self._lead(obs) if obs.lead is None else self._follow(obs, legal_actions)
        first = legal_actions[0]
        if isinstance(first, Draw):
            return first
        if isinstance(first, Choose):
            return self._choose(obs, legal_actions)
        if isinstance(first, (Declare, NoDeclare)):
            return self._declare(obs, legal_actions)
        if isinstance(first, Bury):
            return self._bury(obs)
        self.memory.update(obs)
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
        """Declare the suit that gives the most trumps when they are clearly more than a fair
        share of the cards held; overcall an opponent with more, a partner with much more."""
        options = [a for a in legal if isinstance(a, Declare)]
        if not options:
            return legal[0]
        standing = obs.declaration
        if standing is not None and standing.seat == obs.seat:
            return options[0]                                   # 加固 costs nothing
        held = len(obs.hand)
        level = RANKS.index(obs.level)
        jokers = sum(1 for c in obs.hand if c >= SMALL_JOKER)
        levels = sum(1 for c in obs.hand if c < SMALL_JOKER and c % 13 == level)
        per_suit = [0] * 4
        for c in obs.hand:
            if c < SMALL_JOKER and c % 13 != level:
                per_suit[c // 13] += 1
        best, best_score = options[0], -1.0
        for action in options:
            card = action.cards[0]
            score: float
            if card >= SMALL_JOKER:                             # no-trump: jokers and level cards only
                score = 1.6 * (jokers + levels)
            else:
                score = float(jokers + levels + per_suit[card // 13])
            if score > best_score:
                best, best_score = action, score
        if obs.banker is None:          # the first deal: the declarer takes the bank, so bid for it
            need = max(3.0, TRUMP_SHARE * held)
            if standing is None and obs.stock_left <= 8:
                need = 0.0                                      # some trump of ours rather than a redeal
        else:                           # the bank is fixed: only a suit better than chance helps
            need = TRUMP_SHARE * held + 2.0
        if standing is not None and (standing.seat - obs.seat) % 2 == 0:
            need += 3.0
        return best if best_score >= need else NoDeclare(obs.seat)

    # -- burying --------------------------------------------------------------------------------
    def _bury(self, obs: Observation) -> Bury:
        """Void the shortest side suits; keep trumps, aces, kings under an ace and pairs;
        with long trumps also bury side-suit point cards that would likely be lost."""
        ctx = obs.context
        assert ctx is not None  # trump is known from the burial on
        hand = list(obs.hand)
        size = len(hand) - obs.hand_sizes[(obs.seat + 1) % 4]
        counts = count_list(hand)
        by_suit = [0] * 5
        for c in hand:
            by_suit[ctx.suit_of[c]] += 1
        strong = by_suit[TRUMP] >= STRONG_TRUMPS

        def keep(c: Card) -> bool:
            suit = ctx.suit_of[c]
            top = len(ctx.slots[suit]) - 1 - ctx.order_of[c]   # 0: an ace
            return top == 0 or (top == 1 and any(counts[x] for x in ctx.slots[suit][-1])) or counts[c] >= 2

        kept = {c for c in hand if keep(c)}
        keeper = [False] * 5                                    # a suit that cannot be voided
        for c in kept:
            keeper[ctx.suit_of[c]] = True

        def cost(c: Card) -> tuple:
            suit = ctx.suit_of[c]
            points = POINTS[c] > 0 and not (strong and c not in kept)
            return (suit == TRUMP, c in kept, points, keeper[suit], by_suit[suit], suit, ctx.order_of[c])

        return Bury(obs.seat, sorted(hand, key=cost)[:size])

    # -- leading --------------------------------------------------------------------------------
    def _lead(self, obs: Observation) -> Play:
        ctx = obs.context
        assert ctx is not None  # trump is known from the burial on
        memory = self.memory
        unseen = memory.unseen(obs)
        counts = count_list(obs.hand)
        opponents = ((obs.seat + 1) % 4, (obs.seat + 3) % 4)
        throw = self._safe_throw(obs, counts, unseen, opponents)
        if throw is not None:
            return Play(obs.seat, throw)
        trumps = [c for c in obs.hand if ctx.suit_of[c] == TRUMP]
        if obs.is_banker_side and trumps and len(trumps) >= PULL_SHARE * len(obs.hand) \
                and sum(unseen[c] for c in ctx.kinds[TRUMP]) > 0:
            pull = self._trump_pull(ctx, counts, unseen)
            if pull is not None:
                return Play(obs.seat, pull)
        units = lead_units(obs.hand, ctx)
        by_suit = [0] * 5
        for c in obs.hand:
            by_suit[ctx.suit_of[c]] += 1
        holdings = {}
        banker_side = obs.is_banker_side

        def strength(unit: tuple[Card, ...]) -> tuple:
            c = unit[0]
            suit = ctx.suit_of[c]
            if suit not in holdings:
                holdings[suit] = _holding(unseen, ctx, suit)
            safe = not _beaten(holdings[suit], _unit_shape(unit, ctx))
            ruffed = suit != TRUMP and any(suit in memory.voids[o] for o in opponents)
            points = sum(POINTS[x] for x in unit)
            top = max(ctx.order_of[x] for x in unit)
            if safe and not ruffed and (suit != TRUMP or banker_side):   # cash a winner, points first
                return (3, len(unit), points, suit != TRUMP, -top)
            # otherwise a low card of a short side suit, no points
            return (0 if suit == TRUMP else 1, -points, -len(unit) if len(unit) > 1 else 0,
                    -by_suit[suit], -top)

        return Play(obs.seat, max(units, key=strength))

    def _safe_throw(self, obs: Observation, counts: list[int], unseen: list[int],
                    opponents: tuple[int, int]) -> tuple[Card, ...] | None:
        """The cards of the best throw of two or more units that no unseen card can beat
        (a side suit where no opponent is known to be void), or None."""
        ctx = obs.context
        assert ctx is not None  # trump is known from the burial on
        best: tuple[Card, ...] | None = None
        best_key: tuple = ()
        held = [0] * 5
        for c in obs.hand:
            held[ctx.suit_of[c]] += 1
        for suit in range(5):
            if held[suit] < 2:
                continue
            if suit != TRUMP and any(suit in self.memory.voids[o] for o in opponents):
                continue
            holding = _holding(unseen, ctx, suit)
            safe = [kinds for length, top, kinds in suit_units(counts, ctx, suit)
                    if not _beaten(holding, (length, top))]
            if len(safe) < 2:
                continue
            cards = tuple(CARDS[c] for kinds in safe for c in kinds)
            key = (sum(POINTS[c] for c in cards), len(cards))
            if best is None or key > best_key:
                best, best_key = cards, key
        return best

    @staticmethod
    def _trump_pull(ctx: Context, counts: list[int], unseen: list[int]) -> tuple[Card, ...] | None:
        """A trump lead that draws the opponents' trumps: a tractor or pair, the highest
        first; else a single no unseen trump beats; else the lowest trump without points."""
        units = suit_units(counts, ctx, TRUMP)
        holding = _holding(unseen, ctx, TRUMP)
        multiple = [kinds for length, top, kinds in units if length >= 1]
        if multiple:
            return tuple(CARDS[c] for c in multiple[0])
        singles = [(top, kinds) for length, top, kinds in units if length == 0]
        if not singles:
            return None
        top, kinds = singles[0]
        if not _beaten(holding, (0, top)):
            return (CARDS[kinds[0]],)
        plain = [k for t, k in singles if not POINTS[k[0]]] or [k for t, k in singles]
        return (CARDS[plain[-1][0]],)

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
        winning = trick_winner(plays, ctx, obs.rules)
        current = seats[winning]
        partner_wins = (current - obs.seat) % 2 == 0
        last_to_play = len(plays) == 3
        last_trick = len(obs.hand) == len(plays[0])
        unseen = self.memory.unseen(obs)

        def cheapness(play: Play) -> int:
            return sum(ctx.order_of[c] + (30 if ctx.suit_of[c] == TRUMP else 0) + 6 * POINTS[c]
                       for c in play.cards)

        ordered = sorted(candidates, key=lambda p: (cheapness(p), p.cards))
        if partner_wins and (last_to_play or self._stands(plays[winning], plays[0], unseen, obs, ctx)):
            return max(ordered, key=lambda p: (card_points(list(p.cards)), -cheapness(p)))
        if not partner_wins or last_trick:
            winners = [p for p in ordered if trick_winner(plays + [list(p.cards)], ctx, obs.rules) == len(plays)]
            if winners:
                if last_to_play:
                    return max(winners, key=lambda p: (card_points(list(p.cards)), -cheapness(p)))
                standing = [p for p in winners if self._stands(list(p.cards), plays[0], unseen, obs, ctx)]
                if standing and (on_table >= 5 or last_trick or not partner_wins):
                    return standing[0]
                if on_table >= 10 and not partner_wins:
                    return winners[0]
        return ordered[0]

    def _stands(self, play: list[Card], lead: list[Card], unseen: list[int], obs: Observation, ctx: Context) -> bool:
        """Whether a single or pair that wins the trick now cannot be beaten by an unseen
        card (a side-suit card also needs every player still to play to follow suit)."""
        if len(play) > 2 or len(set(play)) != 1 and len(play) == 2:
            return False
        suit = ctx.suit_of[play[0]]
        if any(ctx.suit_of[c] != suit for c in play):
            return False
        if _beaten(_holding(unseen, ctx, suit), (len(play) - 1, ctx.order_of[play[0]])):
            return False
        if suit == TRUMP:
            return True
        to_play = [(obs.seat + k) % 4 for k in range(1, 4 - len(obs.trick))]
        return not any(suit in self.memory.voids[s] for s in to_play) and ctx.suit_of[lead[0]] == suit


TRUMP_SHARE = 0.36
"""Declare when the trumps held are above this share of the cards held (a fair share is
about a third: 36 trumps in 108 cards), by a margin."""
STRONG_TRUMPS = 10
"""Trumps held after taking the kitty from which the banker buries side-suit points."""
PULL_SHARE = 0.4
"""The banker side leads trumps to pull them when at least this share of its hand is trump."""


class TrickMemory:
    """What a seat remembers of the deal: the cards of every trick it saw (the current and
    the last completed trick are in each observation; older tricks are face down) and the
    seats that showed a void. Forgotten when a new deal starts."""

    __slots__ = ("played", "voids", "trick", "hand_size", "recorded")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.played = [0] * len(CARDS)
        self.voids: list[set[int]] = [set(), set(), set(), set()]
        self.trick = -1
        self.hand_size = 0
        self.recorded = -1

    def update(self, obs: Observation) -> None:
        n, size = obs.trick_number, len(obs.hand)
        if n < self.trick or (n == self.trick and size > self.hand_size):
            self.reset()
        self.trick, self.hand_size = n, size
        if obs.last_trick and n - 1 > self.recorded:
            self.recorded = n - 1
            for _, cards in obs.last_trick:
                for c in cards:
                    self.played[c] += 1
            assert obs.context is not None  # tricks are played after the burial
            self._voids(obs.last_trick, obs.context)
        if obs.trick:
            assert obs.context is not None
            self._voids(obs.trick, obs.context)

    def _voids(self, trick: Any, ctx: Context) -> None:
        suit_of = ctx.suit_of
        led = suit_of[trick[0][1][0]]
        for seat, cards in trick[1:]:
            if any(suit_of[c] != led for c in cards):
                self.voids[seat].add(led)

    def unseen(self, obs: Observation) -> list[int]:
        """Copies of each card that may still be in another seat's hand."""
        out = [2 - p for p in self.played]
        for c in obs.hand:
            out[c] -= 1
        for _, cards in obs.trick:
            for c in cards:
                out[c] -= 1
        if obs.kitty is not None and obs.seat == obs.banker:
            for c in obs.kitty:
                out[c] -= 1
        return [n if n > 0 else 0 for n in out]


def _holding(counts: list[int], ctx: Context, suit: int) -> tuple[int, list[int], list[tuple[int, int]]]:
    """(highest single order or -1, pairs per slot, runs of pairs) of ``counts`` in ``suit``."""
    order_of = ctx.order_of
    high = max((order_of[c] for c in ctx.kinds[suit] if counts[c]), default=-1)
    avail = pair_profile(counts, ctx, suit)
    return high, avail, runs(avail)


def _beaten(holding: tuple[int, list[int], list[tuple[int, int]]], unit: tuple[int, int]) -> bool:
    """Whether the holding has a higher unit of the kind of ``unit`` = (pairs, top order):
    a higher card for a single, a higher pair for a pair, a tractor as long and higher."""
    high, avail, pair_runs = holding
    length, top = unit
    if length == 0:
        return high > top
    if length == 1:
        return any(avail[i] for i in range(top + 1, len(avail)))
    return any(end > top and end - start + 1 >= length for start, end in pair_runs)


def _unit_shape(unit: tuple[Card, ...], ctx: Context) -> tuple[int, int]:
    """(pairs, top order) of a single, pair or tractor from ``lead_units``."""
    return len(unit) // 2, max(ctx.order_of[c] for c in unit)
