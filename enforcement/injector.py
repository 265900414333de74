"""The infraction injector: wraps any agent and, seeded and at configurable rates per kind,
commits irregularities, so that tests, simulation, training and fuzzing can drive every
clause of the rulebook.

The generic part is game-agnostic: ``Injector(agent, rng, rates, catalogue)``. ``act`` (the
seat's own decision) sometimes returns an irregular action instead of asking the agent;
``interject`` (called by ``tabletop.runner`` for every other seat before each decision) lets
the seat act out of turn; ``interject_on_demand`` does the same with the same draws, but is
handed the engine's ``observe`` and builds the seat's observation only when the seat acts
(three chances a decision, almost all declined); ``act_on_demand`` likewise for ``act``. A game supplies an ``InfractionCatalogue``: which kinds can be
committed in a situation (``in_turn`` / ``out_of_turn``) and how (``commit``).

Rates: a float ``r`` is the chance of one infraction per decision, the kind drawn uniformly
among those possible there; an out-of-turn opportunity (three per decision) gets
``r * interject_share``. A dict gives each kind its own rate (unlisted kinds: 0). The
randomness is the injector's own stream (``tabletop.rng`` INJECTOR + seat), so the wrapped
agent decides exactly as it would unwrapped.

The 掼蛋 catalogue is ``GuandanInfractions`` (kinds in ``GUANDAN_KINDS``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, cast

import numpy as np

from tabletop.errors import OptionError

INTERJECT_SHARE = 1 / 3
"""An out-of-turn chance per other seat and decision, relative to the in-turn rate."""
MAX_IRREGULAR_IN_A_ROW = 5
"""Irregular attempts a seat makes in a row, at its own turns, before it decides as its
agent would: an attempt the referee takes back leaves the seat to act again, so without a
bound a high rate (1.0) repeats the attempt forever. Counted from the seat's last regular
decision; the next one (its agent's own) starts the count again."""


class InfractionCatalogue(Protocol):
    game: str
    kinds: tuple[str, ...]
    commits: Mapping[str, tuple[str, ...]]
    """Kind → the engine irregularities committing it records (in the engine's ids)."""
    few_chances: frozenset[str]
    """Kinds with one or a few chances per deal (the draw, the burial, tribute, a declaration)."""
    second_deal: tuple[str, ...]
    """Kinds only a match's later deal gives a chance to (tribute, a banker known in the draw)."""
    short_match: Mapping[str, Any]
    """Rules options of a short match that gives them that chance."""
    uncovered: tuple[str, ...]
    """Kinds that lead to situations the rulebook does not cover (→ the fallback clause)."""
    practice_rates: Mapping[str, float]
    """Rates at which to commit kinds whose clauses are rare outcomes, to practise them."""

    def in_turn(self, observation: Any, legal: Sequence[Any]) -> list[str]:
        """Kinds the seat to act could commit now instead of deciding."""

    def out_of_turn(self, observation: Any, seat: int) -> list[str]:
        """Kinds ``seat`` (not to act) could commit now."""

    def in_turn_from_legal(self, legal: Sequence[Any]) -> list[str] | None:
        """Optional: ``in_turn``'s kinds when the legal actions alone tell them (the seat's
        observation then need not be built), else None."""

    def may_interject(self, observation: Any, seat: int) -> bool:
        """Optional: ``bool(self.out_of_turn(observation, seat))``, cheaper (the injector
        then lists the kinds only when its draw says the seat acts)."""

    def could_interject(self, seat: int) -> bool:
        """Optional, with ``may_interject``: asked without an observation, at a moment a seat
        (not the referee) is to act. False if ``seat`` can commit no out-of-turn kind
        whatever the table shows; True promises ``may_interject`` is True at such a moment
        (so the injector may draw before it observes: ``interject_on_demand``)."""

    def commit(self, kind: str, observation: Any, legal: Sequence[Any] | None, seat: int,
               rng: np.random.Generator) -> Any | None:
        """The irregular action, or None if it cannot be made after all."""


def normalise_rates(rates: "float | Mapping[str, float]", kinds: Sequence[str]) -> "float | dict[str, float]":
    if isinstance(rates, Mapping):
        unknown = sorted(set(rates) - set(kinds))
        if unknown:
            raise OptionError(f"unknown infraction kind(s) {', '.join(unknown)} (known: {', '.join(kinds)})")
        out = {}
        for k, v in rates.items():
            v = float(v)
            if not 0.0 <= v <= 1.0:
                raise OptionError(f"infraction rate for {k} must be within 0-1, got {v}")
            out[k] = v
        return out
    r = float(rates)
    if not 0.0 <= r <= 1.0:
        raise OptionError(f"infraction rate must be within 0-1, got {r}")
    return r


class Injector:
    """An agent that sometimes breaks the rules (see the module doc)."""

    def __init__(self, agent: Any, rng: np.random.Generator, rates: "float | Mapping[str, float]",
                 catalogue: InfractionCatalogue, *, seat: int | None = None,
                 interject_share: float = INTERJECT_SHARE) -> None:
        self.agent = agent
        self.rng = rng
        self.catalogue = catalogue
        self.rates = normalise_rates(rates, catalogue.kinds)
        self.seat = seat
        self.interject_share = interject_share
        self.committed: list[str] = []
        """Kinds committed so far (for tests and statistics)."""
        self.irregular_in_a_row = 0
        """In-turn irregular attempts since the seat's last regular decision."""

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        if self.irregular_in_a_row < MAX_IRREGULAR_IN_A_ROW:   # past it: no draw, the agent decides
            kinds = self.catalogue.in_turn(observation, legal_actions)
            kind = self._draw(kinds, 1.0)
            if kind is not None:
                attempt = self._commit(kind, observation, legal_actions)
                if attempt is not None:
                    return attempt
        self.irregular_in_a_row = 0
        return self.agent.act(observation, legal_actions)

    def _commit(self, kind: str, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """The catalogue's irregular attempt of ``kind`` now, counted as committed; or None."""
        attempt = self.catalogue.commit(kind, observation, legal_actions, observation.seat, self.rng)
        if attempt is not None:
            self.committed.append(kind)
            self.irregular_in_a_row += 1
        return attempt

    def act_on_demand(self, observe: Callable[[int], Any], seat: int, legal_actions: Sequence[Any]) -> Any:
        """``act(observe(seat), legal_actions)``, for a caller that hands over the engine's
        ``observe``, as ``tabletop.runner`` does: when the catalogue can tell the kinds from
        the legal actions alone (``in_turn_from_legal``: a 双升 lead or follow), the seat
        observes only if it errs or its agent reads observations. The same draws, so the
        same play."""
        observation = None
        if self.irregular_in_a_row < MAX_IRREGULAR_IN_A_ROW:   # past it: no draw, the agent decides
            kinds = self._in_turn_from_legal(legal_actions) if self._in_turn_from_legal is not None else None
            if kinds is None:
                observation = observe(seat)
                kinds = self.catalogue.in_turn(observation, legal_actions)
            kind = self._draw(kinds, 1.0)
            if kind is not None:
                if observation is None:
                    observation = observe(seat)
                attempt = self._commit(kind, observation, legal_actions)
                if attempt is not None:
                    return attempt
        self.irregular_in_a_row = 0
        if observation is None and self._agent_observes:
            observation = observe(seat)
        return self.agent.act(observation, legal_actions)

    @functools.cached_property
    def _in_turn_from_legal(self) -> Callable[[Sequence[Any]], list[str] | None] | None:
        return getattr(self.catalogue, "in_turn_from_legal", None)

    @functools.cached_property
    def _agent_observes(self) -> bool:
        return getattr(self.agent, "observes", True) is not False

    def interject(self, observation: Any, seat: int) -> Any | None:
        rates = self.rates
        may_interject = getattr(self.catalogue, "may_interject", None)
        if may_interject is not None and not isinstance(rates, dict):
            # One draw decides, whatever the kinds, whether the seat acts (three chances a
            # decision, most of them declined): list the kinds only when it does. The same
            # draws as listing them first, since the list is empty exactly when
            # ``may_interject`` says no.
            if rates <= 0.0 or not may_interject(observation, seat) or self.rng.random() >= rates * self.interject_share:
                return None
            kinds = self.catalogue.out_of_turn(observation, seat)
            kind: str | None = kinds[int(self.rng.integers(len(kinds)))]
        else:
            kind = self._draw(self.catalogue.out_of_turn(observation, seat), self.interject_share)
        if kind is None:
            return None
        attempt = self.catalogue.commit(kind, observation, None, seat, self.rng)
        if attempt is not None:
            self.committed.append(kind)
        return attempt

    def interject_on_demand(self, observe: Callable[[int], Any], seat: int) -> Any | None:
        """``interject(observe(seat), seat)``, for a caller that asks only while a seat (not
        the referee) is to act, as ``tabletop.runner`` does: with one rate for all kinds and
        a catalogue that knows ``could_interject``, the chance is drawn first and the
        observation built only when the seat acts. The same draws, so the same play."""
        rates = self.rates
        could_interject = self._could_interject
        if could_interject is None or isinstance(rates, dict):
            return self.interject(observe(seat), seat)
        if rates <= 0.0 or not could_interject(seat) or self.rng.random() >= rates * self.interject_share:
            return None
        observation = observe(seat)
        kinds = self.catalogue.out_of_turn(observation, seat)
        if not kinds:   # ``could_interject`` broke its promise: the draw above was one too many
            raise RuntimeError(f"{type(self.catalogue).__name__}.could_interject({seat}) said yes, "
                               f"but the seat can commit no out-of-turn kind now")
        kind = kinds[int(self.rng.integers(len(kinds)))]
        attempt = self.catalogue.commit(kind, observation, None, seat, self.rng)
        if attempt is not None:
            self.committed.append(kind)
        return attempt

    @functools.cached_property
    def _could_interject(self) -> Callable[[int], bool] | None:
        catalogue = self.catalogue
        if getattr(catalogue, "may_interject", None) is None:
            return None
        return getattr(catalogue, "could_interject", None)

    def _draw(self, kinds: list[str], scale: float) -> str | None:
        if not kinds:
            return None
        rates = self.rates
        if isinstance(rates, dict):
            for k in kinds:
                r = rates.get(k, 0.0) * scale
                if r > 0.0 and self.rng.random() < r:
                    return k
            return None
        if rates <= 0.0 or self.rng.random() >= rates * scale:
            return None
        return kinds[int(self.rng.integers(len(kinds)))]


# =============================================================================================
# 掼蛋

GUANDAN_KINDS = (
    # in turn (act)
    "draw_slip", "wrong_kind", "does_not_beat", "extra_cards", "pass_on_lead", "wrong_tribute",
    "wrong_return", "report_missing", "report_wrong",
    # out of turn (interject)
    "draw_out_of_turn", "announce_out_of_turn", "play_out_of_turn", "retract_play", "ask_count",
    "report_repeated", "exposed_card", "incident",
)
_NORMAL_PLAY = (None, "correction", "pass_sequence")


class GuandanInfractions:
    """What a 掼蛋 player can get wrong, and how the injector commits it."""

    game = "guandan"
    kinds = GUANDAN_KINDS
    commits = {
        "draw_slip": ("wrong_counts_after_draw",), "wrong_kind": ("wrong_kind", "does_not_beat"),
        "does_not_beat": ("does_not_beat",), "extra_cards": ("extra_cards",), "pass_on_lead": ("pass_on_lead",),
        "wrong_tribute": ("wrong_tribute",), "wrong_return": ("wrong_return",),
        "report_missing": ("report_missing",), "report_wrong": ("report_wrong",),
        "draw_out_of_turn": ("draw_out_of_turn",), "announce_out_of_turn": ("announce_out_of_turn",),
        "play_out_of_turn": ("play_out_of_turn",), "retract_play": ("retract_play",), "ask_count": ("ask_count",),
        "report_repeated": ("report_repeated",), "exposed_card": ("exposed_card",), "incident": ("incident",),
    }
    few_chances = frozenset({"draw_slip", "draw_out_of_turn", "wrong_tribute", "wrong_return"})
    second_deal = ("wrong_tribute", "wrong_return")
    short_match = {"match_end": "deals", "match_deals": 2}
    uncovered = ("pass_on_lead", "incident")
    practice_rates = {"draw_slip": 0.5, "draw_out_of_turn": 1.0, "wrong_tribute": 0.5, "wrong_return": 0.5,
                      "report_missing": 0.1, "report_wrong": 0.1}

    def in_turn(self, obs: Any, legal: Sequence[Any]) -> list[str]:
        Draw, GiveTribute, Pass, Play, Report, ReturnCard, LegalActions = _guandan_types()
        if not len(legal):
            return []
        if type(legal) is LegalActions:   # a play: Pass (when legal) first, then Plays; told without making one
            first = Pass if cast(Any, legal).can_pass else Play
        else:
            first = type(legal[0])
        if first is Draw:
            return ["draw_slip"] if obs.stock_left >= 2 else []
        if first is GiveTribute:
            return ["wrong_tribute"]
        if first is ReturnCard:
            return ["wrong_return"]
        if first is Report:
            return ["report_missing", "report_wrong"]
        if obs.choice is not None or obs.situation == "choice":
            return []
        if type(legal) is LegalActions:   # every action after the pass (if any) is a Play
            plays = len(legal) > cast(Any, legal).can_pass
        else:
            plays = any(type(a) is Play for a in legal)
        if not plays and first.__name__ not in ("Pass", "CallReferee"):
            return []
        leading = obs.top is None or obs.top.seat == obs.seat
        out = ["wrong_kind"]
        if not leading:
            out.append("does_not_beat")
        elif obs.situation != "pass_sequence":
            out.append("pass_on_lead")
        if plays and obs.situation != "out_of_turn" and len(obs.hand) >= 2:
            out.append("extra_cards")
        return out

    def in_turn_from_legal(self, legal: Sequence[Any]) -> list[str] | None:
        LegalActions = _guandan_types()[-1]
        if type(legal) is not LegalActions:
            return None
        hand_size = cast(Any, legal).ordinary_hand_size
        if hand_size < 0:
            return None
        # A play in turn, no pass sequence: no choice, no situation but a correction, the
        # top the table's; the seat leads exactly when it may not pass. ``in_turn`` without
        # the observation.
        can_pass = cast(Any, legal).can_pass
        plays = len(legal) > can_pass
        if not plays and not can_pass:
            return []
        out = ["wrong_kind", "does_not_beat" if can_pass else "pass_on_lead"]
        if plays and hand_size >= 2:
            out.append("extra_cards")
        return out

    def may_interject(self, obs: Any, seat: int) -> bool:
        return obs.situation != "awaiting_ruling"

    def could_interject(self, seat: int) -> bool:
        # a seat to act means no ruling is awaited: ``may_interject`` says yes
        return True

    def out_of_turn(self, obs: Any, seat: int) -> list[str]:
        from guandan.observation import Phase

        situation = obs.situation
        if situation == "awaiting_ruling":
            return []
        if obs.phase is Phase.DRAW:
            return ["draw_out_of_turn", "incident"] if obs.stock_left else ["incident"]
        if obs.phase is not Phase.PLAY:
            return ["incident"]
        if not obs.hand or seat in obs.placed_last:
            return ["incident"]
        out = ["announce_out_of_turn", "ask_count", "exposed_card", "incident"]
        if situation in _NORMAL_PLAY:
            out.append("play_out_of_turn")
        if obs.top is not None and obs.top.seat == seat:
            out.append("retract_play")
        if obs.announced[seat] is not None:
            out.append("report_repeated")
        return out

    def commit(self, kind: str, obs: Any, legal: Sequence[Any] | None, seat: int,
               rng: np.random.Generator) -> Any | None:
        return getattr(self, "_" + kind)(obs, legal, seat, rng)

    # ---- in turn

    @staticmethod
    def _draw_slip(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        from guandan.actions import Draw

        n = obs.stock_left
        first = obs.to_act
        last = (first + n - 1) % 4
        variant = ("one_side", "both_sides", "short")[int(rng.integers(3))]
        at = int(rng.integers(n))
        if variant == "short":
            return Draw(seat, lost=True, at=at)
        extra_by = (last + 2) % 4 if variant == "one_side" else (last + (1 if rng.random() < 0.5 else 3)) % 4
        if (first + at) % 4 == extra_by:
            at = (at + 1) % n if n > 1 else at
            if (first + at) % 4 == extra_by:
                return None
        return Draw(seat, extra_by=extra_by, at=at)

    @staticmethod
    def _plays(obs: Any, top: Any):
        from guandan.movegen import legal_plays

        return legal_plays(obs.hand, top, obs.level)

    @classmethod
    def _wrong_kind(cls, obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        from guandan.actions import Play
        from guandan.combos import BOMB_KINDS, Kind, Reading
        from guandan.ranks import wild_card

        leading = obs.top is None or obs.top.seat == seat
        if leading:  # two cards of different ranks are no combination
            wild = wild_card(obs.level)
            plain = [c for c in obs.hand if not c.is_joker and c != wild]
            ranks = sorted({c.rank_index for c in plain})
            if len(ranks) < 2:
                return None
            a, b = rng.choice(len(ranks), 2, replace=False)
            first = next(c for c in plain if c.rank_index == ranks[a])
            second = next(c for c in plain if c.rank_index == ranks[b])
            return Play(seat, [first, second], Reading(Kind.PAIR, first.rank))
        top = obs.top.reading
        others = [m for m in cls._plays(obs, None)
                  if m.reading.comparison_class != top.comparison_class and m.reading.kind not in BOMB_KINDS]
        if not others:
            return None
        m = others[int(rng.integers(len(others)))]
        return Play(seat, m.cards, m.reading)

    @classmethod
    def _does_not_beat(cls, obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        from guandan.actions import Play
        from guandan.combos import beats

        top = obs.top.reading
        lower = [m for m in cls._plays(obs, None)
                 if m.reading.comparison_class == top.comparison_class and not beats(m.reading, top, obs.level)]
        if not lower:
            return None
        m = lower[int(rng.integers(len(lower)))]
        return Play(seat, m.cards, m.reading)

    @staticmethod
    def _extra_cards(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        from guandan.actions import Play, PlayWithExtra

        plays = [a for a in legal if type(a) is Play and len(a.cards) < len(obs.hand)]
        if not plays:
            return None
        play = plays[int(rng.integers(len(plays)))]
        rest = list(obs.hand)
        for c in play.cards:
            rest.remove(c)
        extra = rest[int(rng.integers(len(rest)))]
        return PlayWithExtra(seat, play.cards, play.reading, [extra])

    @staticmethod
    def _pass_on_lead(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        from guandan.actions import Pass

        return Pass(seat)

    @staticmethod
    def _discovered(rng: np.random.Generator) -> str:
        return "after_first_play" if rng.random() < 0.5 else "before_first_play"

    @classmethod
    def _wrong_tribute(cls, obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        from guandan.actions import GiveTribute

        allowed = {a.card for a in legal}
        wrong = sorted({c for c in obs.hand if c not in allowed})
        if not wrong:
            return None
        return GiveTribute(seat, wrong[int(rng.integers(len(wrong)))], discovered=cls._discovered(rng))

    @classmethod
    def _wrong_return(cls, obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        from guandan.actions import ReturnCard

        allowed = {a.card for a in legal}
        wrong = sorted({c for c in obs.hand if c not in allowed})
        if wrong and rng.random() < 0.8:
            return ReturnCard(seat, wrong[int(rng.integers(len(wrong)))], discovered=cls._discovered(rng))
        payer = next(t.giver for t in reversed(obs.tributes) if t.kind == "tribute" and t.taker == seat)
        others = [s for s in range(4) if s not in (seat, payer)]
        card = legal[0].card
        return ReturnCard(seat, card, to=others[int(rng.integers(len(others)))], discovered=cls._discovered(rng))

    @staticmethod
    def _report(obs: Any, legal: Any, seat: int, rng: np.random.Generator, missing: bool):
        from guandan.actions import REPORT_ROUNDS_LATER, Report

        true = legal[0].count
        stage = int(rng.integers(1, 6))
        # stage 2 may come to light only rounds later (GD-4.2.2): draw how many
        later = int(rng.choice(REPORT_ROUNDS_LATER)) if stage == 2 else 0
        if missing:
            return Report(seat, None, discovered=stage, rounds_later=later)
        wrong = true + (1 if true == 1 or rng.random() < 0.5 else -1)
        return Report(seat, wrong, discovered=stage, rounds_later=later)

    @classmethod
    def _report_missing(cls, obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        return cls._report(obs, legal, seat, rng, True)

    @classmethod
    def _report_wrong(cls, obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        return cls._report(obs, legal, seat, rng, False)

    # ---- out of turn

    @staticmethod
    def _draw_out_of_turn(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        from guandan.actions import DrawOutOfTurn

        n = obs.stock_left
        positions = [k for k in range(n) if (obs.to_act + k) % 4 != seat]
        if not positions:
            return None
        after = positions[int(rng.integers(len(positions)))]
        inserted = bool(rng.random() < 0.4)
        face_seen = inserted or bool(rng.random() < 0.5)
        identifiable = bool(rng.random() < 0.5)
        return DrawOutOfTurn(seat, after=after, face_seen=face_seen, inserted=inserted, identifiable=identifiable)

    @staticmethod
    def _announce_out_of_turn(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        from guandan.actions import Announce

        return Announce(seat, "pass" if rng.random() < 0.5 else "beat")

    @classmethod
    def _play_out_of_turn(cls, obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        from guandan.actions import Play

        top = obs.top
        moves = cls._plays(obs, None if top is None or top.seat == seat else top.reading)
        if not moves:
            moves = cls._plays(obs, None)
        m = moves[int(rng.integers(len(moves)))]
        return Play(seat, m.cards, m.reading)

    @staticmethod
    def _retract_play(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        from guandan.actions import Retract

        return Retract(seat)

    @staticmethod
    def _ask_count(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        from guandan.actions import AskCount

        return AskCount(seat, (seat + (1 if rng.random() < 0.5 else 3)) % 4)

    @staticmethod
    def _report_repeated(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        from guandan.actions import Report

        return Report(seat, len(obs.hand))

    @staticmethod
    def _exposed_card(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        from guandan.actions import DropCard

        free = list(obs.hand)
        for c in obs.exposed[seat]:
            if c in free:
                free.remove(c)
        if not free:
            return None
        return DropCard(seat, free[int(rng.integers(len(free)))])

    @staticmethod
    def _incident(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        from guandan.actions import Incident

        if rng.random() < 0.5:
            return Incident(seat, "manner_of_play", note="cards not laid face up in one motion")
        damaged = bool(rng.random() < 0.3)
        return Incident(seat, "information", damaged=damaged, note="a pause before passing")


@functools.cache
def _guandan_types() -> tuple[type, ...]:
    """The 掼蛋 types ``GuandanInfractions.in_turn`` tells apart, imported once (this module
    does not import a game at load time; an import statement costs microseconds at every
    decision)."""
    from guandan.actions import Draw, GiveTribute, Pass, Play, Report, ReturnCard
    from guandan.legal import LegalActions

    return Draw, GiveTribute, Pass, Play, Report, ReturnCard, LegalActions


def catalogue_for(game: str) -> InfractionCatalogue:
    """The game's infraction catalogue (from its referee part)."""
    from enforcement.games import referee_part

    return referee_part(game).catalogue()
