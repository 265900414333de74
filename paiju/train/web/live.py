"""Live refereeing: a refereed simulated deal played on the server while a trainee watches;
when an irregularity awaits a ruling the deal stops until the trainee rules, goes on under
their ruling, and each of their rulings is graded at the end against the rulebook referee's
ruling on the same table.

The deal runs in its own thread (``tabletop.runner.run``) with the referee's seat filled by
``LiveSeat``, which blocks until the trainee's answer arrives (or the session is closed:
then the rulebook's ruling stands). The browser shows the events at the pace it chooses.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

import attrs

from paiju.sim import batch
from paiju.sim.batch import Batch
from paiju.train.grade import grade, parse_answer
from paiju.train.scenarios import expected_from
from paiju.train.web.ruling import CannotApply, Repeats, TableStuck, TraineeAnswer, trainee_ruling
from tabletop.events import Event, EventStream
from tabletop.games import game_spec
from tabletop.log import Log, encode_event, make_header
from tabletop.rulings import Ruling, RulingEvent, Unresolved, UnresolvedEvent, log_ruling
from tabletop.runner import run

AGENTS = "heuristic"
INFRACTIONS = 0.04
ANSWER_WAIT = 30 * 60
"""Seconds a live deal waits for a ruling before the session is given up."""
MAX_RULINGS = 30
"""Rulings a trainee gives in one live deal; after that the rulebook rules (a bound on a
deal whose rulings keep the table irregular)."""


@attrs.frozen
class Answered:
    """One ruling of a live session: what the rulebook would rule, what the trainee ruled."""

    position: int
    expected_clause: str
    answer: str
    verdict: str
    remarks: tuple[str, ...]
    carried_out: str
    """'trainee' (their ruling was carried out) or why the rulebook's was instead."""


class LiveSession:
    """One live deal (``start`` runs it in a thread)."""

    def __init__(self, game: str, seed: int, trainee: str,
                 infractions: "float | Mapping[str, float]" = INFRACTIONS) -> None:
        from paiju.games import adapter_for

        self.game = game
        self.seed = seed
        self.trainee = trainee
        adapter = adapter_for(game)
        rules = adapter.default_rules() if hasattr(adapter, "default_rules") else adapter.rules_from_dict({})
        agents = tuple(AGENTS for _ in range(game_spec(game).seating.seats))
        options = {"referee": True, "infractions": infractions}
        self.batch = Batch(game=game, unit="deals", count=1, seed=seed, rules=rules.to_dict(), agents=agents,
                           options=options)
        self.header = make_header(game, seed, rules.to_dict(), {"unit": "deals", "count": 1, "agents": list(agents),
                                                                 **options})
        self._adapter = adapter
        self._rules = rules
        self._lock = threading.Lock()
        self._answer_ready = threading.Condition(self._lock)
        self.events: list[Event] = []
        self.awaiting: dict[str, Any] | None = None
        self._answer: TraineeAnswer | None = None
        self.answered: list[Answered] = []
        self.done = False
        self.failed: str | None = None
        self.failed_zh: str | None = None
        self.closed = False
        self._thread: threading.Thread | None = None

    # -- the deal's thread --------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._play, name=f"live-{self.game}-{self.seed}", daemon=True)
        self._thread.start()

    def _play(self) -> None:
        try:
            engine, started = batch.start_unit(self._adapter, "deals", self.seed, 0, self._rules, self.batch.options)
            agents, rulebook = batch.unit_players(self._adapter, self.batch, 0)
            with self._lock:
                self.events.append(started)
            run(engine, agents, [self], referee=LiveSeat(self, rulebook), max_steps=100_000)
        except TableStuck as exc:   # a ruling left the table ruling on and on: the deal stops, said why
            with self._lock:
                self.failed, self.failed_zh = str(exc), exc.zh
        except Exception as exc:  # a live deal that fails is reported, never a hung page
            with self._lock:
                self.failed = f"{type(exc).__name__}: {exc}"
        finally:
            with self._lock:
                self.done = True
                self.awaiting = None

    def on_events(self, engine: Any, events: list[Event]) -> None:
        with self._lock:
            self.events.extend(events)

    def wait_for_answer(self, expected: dict[str, Any]) -> TraineeAnswer | None:
        with self._lock:
            self.awaiting = expected
            self._answer = None
            self._answer_ready.wait_for(lambda: self._answer is not None or self.closed, timeout=ANSWER_WAIT)
            answer, self._answer, self.awaiting = self._answer, None, None
            return answer

    # -- requests -----------------------------------------------------------------------------

    def give_answer(self, answer: TraineeAnswer) -> None:
        with self._lock:
            if self.awaiting is None:
                raise LookupError("no ruling is awaited now")
            self._answer = answer
            self.awaiting = None      # answered: a second answer to the same ruling is refused
            self._answer_ready.notify_all()

    def close(self) -> None:
        with self._lock:
            self.closed = True
            self._answer_ready.notify_all()

    def log(self) -> Log:
        with self._lock:
            events = tuple(self.events)
        return Log(header=self.header, events=events, lines=tuple(encode_event(e) for e in events))

    def state(self) -> dict[str, Any]:
        with self._lock:
            return {"events": len(self.events), "awaiting": self.awaiting is not None, "done": self.done,
                    "failed": self.failed, "failed_zh": self.failed_zh,
                    "answered": [attrs.asdict(a) for a in self.answered]}


class LiveSeat:
    """The referee's seat of a live deal: the trainee rules; the rulebook referee rules too,
    unseen, for the grade (and stands when the trainee's ruling cannot be carried out)."""

    def __init__(self, session: LiveSession, rulebook: Any) -> None:
        self.session = session
        self.rulebook = rulebook
        self.seating = game_spec(session.game).seating
        self.repeats = Repeats(session.game)

    def rule(self, engine: Any) -> Ruling | Unresolved:
        self.repeats.see(engine)
        own = self.rulebook.rule(engine)
        if len(self.session.answered) >= MAX_RULINGS:
            return own
        awaited = engine.awaiting_ruling[0]
        logged = log_ruling(EventStream(), own)
        assert isinstance(logged, (RulingEvent, UnresolvedEvent))   # what log_ruling emits
        expected = expected_from(logged, awaited.event, str(awaited.event.seq), self.session.game)
        answer = self.session.wait_for_answer({"position": len(self.session.events), "seq": awaited.event.seq,
                                               "expected": expected})
        if answer is None:
            self.session.answered.append(Answered(len(self.session.events), expected.clause, "", "unanswered",
                                                  ("no answer",), "the rulebook's ruling (no answer came)"))
            return own
        graded = grade(expected, parse_answer(answer.answer_line(), lenient=True))
        try:
            mine: Ruling | Unresolved = trainee_ruling(answer, own, engine.stream.deal, self.seating)
            carried = "trainee"
        except CannotApply as exc:
            mine, carried = own, f"the rulebook's ruling: {exc}"
        self.session.answered.append(Answered(len(self.session.events), expected.clause, answer.answer_line(),
                                              graded.verdict, graded.remarks, carried))
        return mine

    def on_events(self, engine: Any, events: list[Event]) -> None:
        self.rulebook.on_events(engine, events)
