"""Built-in 掼蛋 agents: uniform random, and a heuristic that plans its hand into combinations
and plays by the plan like a club player (``HeuristicAgent``).

Both are seeded with a numpy Generator (for a match: ``tabletop.rng.generator(S, 0,
AGENT + seat)``) and only read the observation and the legal actions. They never read
``Observation.unauthorised`` (GD-7: the information their side may not use).

In refereed mode the table offers choices (``Choose``): the random agent picks uniformly
like any decision; the heuristic chooses as a sensible player of the non-offending side
(see ``HeuristicAgent.choose``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from guandan.actions import CallReferee, Choose, GiveTribute, Pass, Play, ReturnCard
from guandan.combos import BOMB_KINDS, Kind
from guandan.hand_plan import plays_needed
from guandan.observation import Observation
from guandan.ranks import power_of_rank, wild_card
from tabletop.cards import RANKS, count_list

SEQUENCE_KINDS = frozenset({Kind.STRAIGHT, Kind.TUBE, Kind.PLATE, Kind.STRAIGHT_FLUSH})
DANGER_COUNT = 6
"""An opponent that announced this many cards or fewer is about to go out: bomb it."""
FEED_COUNT = 4
"""A partner that announced this many cards or fewer is fed low singles (pairs for two)."""
_RANK_INDEX = {r: i for i, r in enumerate(RANKS)} | {"BJ": 13, "RJ": 14}


class RandomAgent:
    """Uniform over the legal actions: the pick at n actions is ``rng.integers(n)``.

    With numpy's PCG64 generator (``tabletop.rng``'s) the picks are made here from its 64-bit
    outputs drawn ahead in blocks, the way ``Generator.integers`` makes them (Lemire's method
    on 32-bit halves, the low half first): the same picks at a fifth of the cost of a numpy
    call each. Reading ``rng`` winds the generator back to where one-call-per-pick would have
    left it, so whoever reads it sees the same stream."""

    BLOCK = 64
    """64-bit outputs drawn ahead at a time (each gives two picks, rejections aside)."""

    observes = False
    """It never reads its observation: the runner passes None (``tabletop.protocol.Agent``)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    @property
    def rng(self) -> np.random.Generator:
        """The agent's generator, at the state one ``integers`` call per pick leaves."""
        self._wind_back()
        return self._rng

    @rng.setter
    def rng(self, rng: np.random.Generator) -> None:
        self._rng = rng
        self._bits = rng.bit_generator if type(rng.bit_generator) is np.random.PCG64 else None
        self._ahead: list[int] = []  # outputs drawn ahead, the next one last
        self._half: int | None = None  # the unused high half of the last output
        self._high = 0  # the high half of the last output (numpy keeps it once used, too)
        self._started = False  # whether _half holds the generator's own buffered half

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        n = len(legal_actions)
        if self._bits is None or not 1 < n < 0xFFFFFFFF:
            if n == 1:  # numpy draws nothing for one choice
                return legal_actions[0]
            return legal_actions[int(self.rng.integers(n))]  # (and raises for none)
        m = self._next32() * n
        low = m & 0xFFFFFFFF
        if low < n:  # Lemire's rejection, as numpy's buffered_bounded_lemire_uint32
            threshold = (0x100000000 - n) % n
            while low < threshold:
                m = self._next32() * n
                low = m & 0xFFFFFFFF
        return legal_actions[m >> 32]

    def _next32(self) -> int:
        """The next 32 bits, as PCG64's ``next_uint32``: an output's low half, then its high half."""
        half = self._half
        if half is not None:
            self._half = None
            return half
        if not self._started:
            self._started = True
            state = self._bits.state  # type: ignore[union-attr]  # only called with PCG64 bits
            self._high = state["uinteger"]
            if state["has_uint32"]:
                return state["uinteger"]
        ahead = self._ahead
        if not ahead:
            ahead += reversed(self._bits.random_raw(self.BLOCK).tolist())  # type: ignore[union-attr]
        x = ahead.pop()
        self._half = self._high = x >> 32
        return x & 0xFFFFFFFF

    def _wind_back(self) -> None:
        """Put the generator where one ``integers`` call per pick would have left it."""
        if not self._started:
            return
        bits = self._bits
        assert bits is not None  # _started is only set with PCG64 bits
        if self._ahead:
            bits.advance((1 << 128) - len(self._ahead))  # PCG64's period is 2**128: this goes back
        state = bits.state
        state["has_uint32"], state["uinteger"] = int(self._half is not None), self._high
        bits.state = state
        self._ahead = []
        self._half = None
        self._started = False


class HeuristicAgent:
    """Plans its hand into combinations (``guandan.hand_plan``) and plays by the plan: leads
    the lowest combination of the plan, the longer the better; follows an opponent with the
    play that fits the plan best, never one that costs more than ``FOLLOW_EXTRA`` plays
    more (then it passes); keeps bombs whole and wild cards back, bombing only when
    an opponent is about to go out or when the bomb wins the round (no unseen cards could
    make a bigger one) and leaves at most three plays; lets its partner's plays stand and,
    when the partner is down to a few cards, leads the low single or pair it can beat; goes
    out whenever it can. Tribute: the copy that least breaks a straight flush; return: the
    least useful card. Ties are broken by the seeded generator."""

    FOLLOW_EXTRA = 2
    """A follow may leave the hand needing this many plays more than the plan (measured: 0
    passes too often, 2 beats 1 against random and against the previous heuristic)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> Any:
        first = legal_actions[0]
        kind = type(first)
        if kind is Choose:
            return self.choose(observation, legal_actions)
        if kind is CallReferee:  # an out-of-turn play: calling the referee helps our side
            return first
        if kind not in (Play, Pass, GiveTribute, ReturnCard):  # a table step (draw, 报牌)
            return first
        if type(first) is GiveTribute:
            return self._pick(legal_actions, lambda a: _flush_neighbours(observation.hand, a.card))
        if type(first) is ReturnCard:
            return self._pick(legal_actions, lambda a: _return_cost(observation, a.card))
        return self._play(observation, legal_actions)

    def _play(self, obs: Observation, legal: Sequence[Any]) -> Any:
        hand_size = len(obs.hand)
        plays = [a for a in legal if type(a) is Play]
        can_pass = any(type(a) is Pass for a in legal)
        out = [p for p in plays if len(p.cards) == hand_size]
        if out:
            return out[0]
        wild = wild_card(obs.level)
        counts = _plan_counts(obs.hand, wild)
        rank_counts = _rank_counts(count_list(obs.hand))
        plain = [p for p in plays if p.reading.kind not in BOMB_KINDS]
        bombs = [p for p in plays if p.reading.kind in BOMB_KINDS]
        if not can_pass or obs.top is None or obs.top.seat == obs.seat:  # leading
            pool = plain or bombs
            if not pool:
                return Pass(obs.seat)
            fed = self._feed_partner(obs, pool, counts, rank_counts, wild)
            if fed is not None:
                return fed
            # break no bomb, spend no wild card (cheap to check: first), keep to the plan,
            # then the lowest, the longer
            damage = [(_damage(p, rank_counts, wild)[:2], p) for p in pool]
            least = min(d for d, _ in damage)
            return self._pick([p for d, p in damage if d == least],
                              lambda p: (plays_needed(_after(counts, p, wild)), _power(p, obs.level), -len(p.cards)))
        top = obs.top
        if top.seat == obs.partner:
            return Pass(obs.seat)
        danger = self._danger(obs)
        now = plays_needed(counts)
        fitting = []
        for p in plain:
            broken, wilds, _ = _damage(p, rank_counts, wild)
            if broken or (wilds and not danger):
                continue
            extra = plays_needed(_after(counts, p, wild)) - (now - 1)
            if extra <= self.FOLLOW_EXTRA and wilds == 0 or extra <= 1:   # a wild card only in danger
                fitting.append((extra, wilds, _power(p, obs.level), p))
        if fitting:
            best = min(f[:3] for f in fitting)
            return self._pick([f[3] for f in fitting if f[:3] == best], lambda p: 0)
        if bombs:
            winning = [b for b in bombs if danger or (_bomb_stands(b, obs, wild)
                                                      and plays_needed(_after(counts, b, wild)) <= 3)]
            if winning:
                return self._pick(winning, lambda p: _bomb_cost(p, obs.level))
        return Pass(obs.seat)

    def _feed_partner(self, obs: Observation, pool: Sequence[Play], counts: tuple[int, ...], rank_counts: list[int],
                      wild: Any) -> Play | None:
        """When the partner is down to a few cards (and no opponent is as close): the
        lowest single, or pair for a partner holding two, that breaks nothing."""
        left = obs.announced[obs.partner]
        if left is None or not 0 < left <= FEED_COUNT or obs.partner in obs.finish_order:
            return None
        for seat in ((obs.seat + 1) % 4, (obs.seat + 3) % 4):
            count = obs.announced[seat]
            if count is not None and 0 < count < left:
                return None
        wanted = (Kind.PAIR, Kind.SINGLE) if left == 2 else (Kind.SINGLE,)
        for kind in wanted:
            low = [p for p in pool if p.reading.kind is kind and _damage(p, rank_counts, wild)[:2] == (0, 0)]
            if low:
                return self._pick(low, lambda p: (_power(p, obs.level), plays_needed(_after(counts, p, wild))))
        return None

    def choose(self, obs: Observation, legal: Sequence[Any]) -> Any:
        """The non-offending side's choices: the lead option 'free' when the exposed cards
        are strong (they become penalty cards the offender must squander), else 'forbid'
        (its partner may not lead into them); designate bombs first (play a bomb or pass),
        else the biggest kind; take plays back after a missing 报牌; as the offender's
        partner let its own play stand."""
        purpose = obs.choice[0] if obs.choice else ""
        options = [a.option for a in legal]
        pick = options[0]
        if purpose == "lead_option":
            offender = (obs.seat + 1) % 4
            exposed = obs.exposed[offender]
            strong = any(power_of_rank(c.rank_index, obs.level) >= 12 for c in exposed) or len(exposed) >= 4
            pick = "free" if strong and "free" in options else "forbid" if "forbid" in options else pick
        elif purpose == "designate":
            bombs = [o for o in options if o.startswith(("BOMB", "STRAIGHT_FLUSH", "JOKER"))]
            pick = bombs[0] if bombs else options[-1]
        elif purpose == "replay":
            pick = "take_back" if "take_back" in options else pick
        elif purpose == "partner_replay":
            pick = "stand" if "stand" in options else pick
        return next(a for a in legal if a.option == pick)

    @staticmethod
    def _danger(obs: Observation) -> bool:
        """An opponent announced so few cards that it is about to go out."""
        for seat in ((obs.seat + 1) % 4, (obs.seat + 3) % 4):
            count = obs.announced[seat]
            if count is not None and 0 < count <= DANGER_COUNT:
                return True
        return False

    def _pick(self, actions: Sequence[Any], cost: Any) -> Any:
        best: list[Any] = []
        best_cost = None
        for a in actions:
            c = cost(a)
            if best_cost is None or c < best_cost:
                best, best_cost = [a], c
            elif c == best_cost:
                best.append(a)
        return best[int(self.rng.integers(len(best)))] if len(best) > 1 else best[0]


def _rank_counts(counts: list[int]) -> list[int]:
    """Cards held per rank index 0–14 (suits merged)."""
    out = [0] * 15
    for i in range(52):
        out[i % 13] += counts[i]
    out[13], out[14] = counts[52], counts[53]
    return out


def _damage(play: Play, rank_counts: list[int], wild: int) -> tuple[int, int, int]:
    """(bombs broken, wild cards spent, ranks split) by playing ``play``."""
    used = [0] * 15
    wilds = 0
    for c in play.cards:
        if c == wild:
            wilds += 1
        else:
            used[c.rank_index] += 1
    broken = split = 0
    for r, n in enumerate(used):
        if n and n < rank_counts[r]:
            split += 1
            if rank_counts[r] >= 4:
                broken += 1
    if rank_counts[13] == 2 and rank_counts[14] == 2 and 0 < used[13] + used[14] < 4:
        broken += 1                                     # the joker bomb
    return broken, wilds, split


def _power(play: Play, level: int) -> int:
    """How high the play ranks within its kind (a sequence by its lowest rank, A low = -1)."""
    reading = play.reading
    rank = _RANK_INDEX.get(reading.rank, 0) if reading.rank else 0
    if reading.kind in SEQUENCE_KINDS:
        return -1 if rank == 12 else rank
    return power_of_rank(rank, level)


def _plan_counts(hand: Sequence[Any], wild: Any) -> tuple[int, ...]:
    """The hand as ``hand_plan`` counts: cards per rank index 0–14, the wild cards left out."""
    out = [0] * 15
    for c in hand:
        if c != wild:
            out[c.rank_index] += 1
    return tuple(out)


def _after(counts: tuple[int, ...], play: Play, wild: Any) -> tuple[int, ...]:
    out = list(counts)
    for c in play.cards:
        if c != wild:
            out[c.rank_index] -= 1
    return tuple(out)


def _bomb_stands(bomb: Play, obs: Observation, wild: Any) -> bool:
    """No bigger bomb can be made from the cards this seat has not seen (its partner's
    included; straight flushes left aside): a bomb played now wins the round."""
    kind = bomb.reading.kind
    if kind is Kind.JOKER_BOMB:
        return True
    unseen = [8] * 13 + [2, 2]
    wilds = 2
    for cards in (obs.hand, *obs.played):
        for c in cards:
            if c == wild:
                wilds -= 1
            else:
                unseen[c.rank_index] -= 1
    if unseen[13] == 2 and unseen[14] == 2:
        return False                                    # the joker bomb is still out
    size = len(bomb.cards)
    power = _power(bomb, obs.level)
    for r in range(13):
        most = unseen[r] + wilds
        if most > size or (most == size and power_of_rank(r, obs.level) > power and kind is Kind.BOMB):
            return False
    return True


def _bomb_cost(play: Play, level: int) -> tuple:
    kind = play.reading.kind
    ladder = {Kind.BOMB: len(play.cards) + (0.5 if len(play.cards) > 5 else 0),
              Kind.STRAIGHT_FLUSH: 5.5, Kind.JOKER_BOMB: 11}[kind]
    return ladder, _power(play, level)


def _flush_neighbours(hand: Sequence[Any], card: Any) -> int:
    """Same-suit cards within four ranks of ``card``: what a straight flush would need."""
    if card.is_joker:
        return 0
    suit, rank = card.suit_index, card.rank_index
    return sum(1 for c in hand if c != card and c.suit_index == suit and abs(c.rank_index - rank) <= 4)


def _return_cost(obs: Observation, card: Any) -> tuple:
    """Return a low card that is alone in its rank and does not help a straight."""
    counts = _rank_counts(count_list(obs.hand))
    r = card.rank_index
    neighbours = sum(1 for d in (-2, -1, 1, 2) if 0 <= r + d < 13 and counts[r + d])
    return counts[r] > 1, neighbours, power_of_rank(r, obs.level)
