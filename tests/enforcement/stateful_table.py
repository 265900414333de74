"""A hypothesis state machine driving a refereed engine and its referee with arbitrary legal
and irregular actions, the shared invariants (enforcement.invariants) checked after every
step. The irregular actions are the injector's catalogue (``enforcement.injector``): what
a seat to act can get wrong instead of deciding, and what any other seat can do out of
turn, each committed with a hypothesis-chosen seed. A game's module subclasses
``RefereedTableMachine`` with its engines.

Settings follow the hypothesis profile (tests/conftest.py): ``ci`` keeps a few short runs,
``nightly`` (HYPOTHESIS_PROFILE=nightly) a tenth of its examples with longer runs.

After every step (and so after every ruling) the checker closes the last ruling's window:
the table effects it lists must be the effects carried out (``effects_carried_out``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from enforcement.injector import catalogue_for
from enforcement.invariants import checker_for
from enforcement.setup import make_referee
from tests.enforcement.conftest import deliver_ruled

CI_EXAMPLES = 8
CI_STEPS = 50


def machine_settings() -> settings:
    """The current profile with a state machine's example count and run length."""
    current = settings()
    if current.max_examples <= 100:  # ci
        return settings(current, max_examples=CI_EXAMPLES, stateful_step_count=CI_STEPS, deadline=None)
    return settings(current, max_examples=max(CI_EXAMPLES, current.max_examples // 10), deadline=None)


seeds = st.integers(0, 2**32 - 1)
picks = st.integers(0, 2**16)


class RefereedTableMachine(RuleBasedStateMachine):
    GAME = ""
    def new_engine(self, seed: int, match: bool) -> Any:
        raise NotImplementedError

    # ---- set-up

    @initialize(seed=seeds, match=st.booleans())
    def setup(self, seed: int, match: bool) -> None:
        self._start(seed, match)

    @precondition(lambda self: self.over)
    @rule(seed=seeds, match=st.booleans())
    def next_unit(self, seed: int, match: bool) -> None:
        """The deal or match is over: play another (a fresh referee and checker)."""
        self._start(seed, match)

    def _start(self, seed: int, match: bool) -> None:
        self.engine = self.new_engine(seed, match)
        self.referee = make_referee(self.GAME)
        self.checker = checker_for(self.GAME)
        self.catalogue = catalogue_for(self.GAME)
        self.events: list = []
        self.over = False
        self._deliver(self.engine.take_events())

    def _deliver(self, events: list) -> None:
        keep = self.events

        class _Keep:
            def on_events(self, engine: Any, shown: list) -> None:
                keep.extend(shown)

        deliver_ruled(self.engine, events, self.referee, [_Keep(), self.checker])

    def _to_act(self) -> int | None:
        """Who is to act; the end is checked once."""
        seat = self.engine.to_act
        if seat is None and not self.over:
            self.over = True
            self.checker.finish(self.engine, self.engine.result)
        return seat

    def _apply(self, action: Any) -> None:
        events = self.engine.apply(action)
        events.extend(self.engine.take_events())
        self._deliver(events)

    # ---- rules

    def _decide(self, pick: int) -> None:
        seat = self._to_act()
        if seat is None:
            return
        legal = self.engine.legal_actions()
        self.checker.before_decision(self.engine, seat, legal)
        if hasattr(legal, "sample") and not legal.complete:
            action = legal.sample(np.random.default_rng(pick))
        else:
            action = legal[pick % len(legal)]
        self.checker.decided(self.engine, seat, False)
        self._apply(action)

    @precondition(lambda self: not self.over)
    @rule(pick=picks)
    def legal_action(self, pick: int) -> None:
        self._decide(pick)

    @precondition(lambda self: not self.over)
    @rule(count=st.integers(1, 150), pick=picks)
    def play_on(self, count: int, pick: int) -> None:
        """Several legal decisions (so that deals get to their end within a run)."""
        rng = np.random.default_rng(pick)
        for _ in range(count):
            if self.over:
                return
            self._decide(int(rng.integers(2**16)))

    @precondition(lambda self: not self.over)
    @rule(kind=picks, seed=seeds)
    def irregular_in_turn(self, kind: int, seed: int) -> None:
        """The seat to act gets something wrong instead of deciding."""
        seat = self._to_act()
        if seat is None:
            return
        legal = self.engine.legal_actions()
        obs = self.engine.observe(seat)
        kinds = self.catalogue.in_turn(obs, legal)
        if not kinds:
            return
        action = self.catalogue.commit(kinds[kind % len(kinds)], obs, legal, seat, np.random.default_rng(seed))
        if action is None:
            return
        self.checker.before_decision(self.engine, seat, legal)
        self.checker.decided(self.engine, seat, True)
        self._apply(action)

    @precondition(lambda self: not self.over)
    @rule(offset=st.integers(1, 3), kind=picks, seed=seeds)
    def irregular_out_of_turn(self, offset: int, kind: int, seed: int) -> None:
        """Another seat acts out of turn (as the runner lets an injector interject)."""
        to_act = self._to_act()
        if to_act is None:
            return
        seat = (to_act + offset) % 4
        obs = self.engine.observe(seat)
        kinds = self.catalogue.out_of_turn(obs, seat)
        if not kinds:
            return
        action = self.catalogue.commit(kinds[kind % len(kinds)], obs, None, seat, np.random.default_rng(seed))
        if action is None:
            return
        self.checker.settled(self.engine)
        self.checker.decided(self.engine, seat, True)
        self._apply(action)

    # ---- after every step

    @invariant()
    def every_irregularity_answered_before_anyone_acts(self) -> None:
        """Also closes the last ruling's window: its listed effects must be the ones carried
        out (effects_carried_out)."""
        if hasattr(self, "checker"):
            self.checker.settled(self.engine)
