"""A refereed 掼蛋 table for the clause tests: a deal (or a match starting with it) from
explicit hands, a referee observing it, and helpers to act and to read what happened."""

from __future__ import annotations

from typing import Any

import pytest

from enforcement.setup import make_guandan_referee
from guandan.actions import Play, Report
from guandan.deal import Deal
from guandan.match import Match
from guandan.logged_actions import action_from_event
from tabletop.cards import parse_cards
from tabletop.events import EventStream
from tabletop.runner import deliver, settle


def deliver_ruled(engine: Any, events: list, referee: Any, observers: list) -> None:
    """Show ``events`` to ``observers`` (the referee first: it keeps the rulings logged),
    then let the referee rule on every irregularity awaited, showing those events too.
    ``referee`` None: the referee's seat is left empty (the table waits)."""
    if referee is None:
        deliver(engine, events, observers)
        return
    watchers = [referee, *observers]
    deliver(engine, events, watchers)
    settle(engine, referee, watchers)


class _Collect:
    def __init__(self, out: list) -> None:
        self.out = out

    def on_events(self, engine: Any, events: list) -> None:
        self.out.extend(events)


class RefTable:
    """``engine`` is the Match when ``match=True`` (level penalties, next deal), else the deal."""

    def __init__(self, hands: list[str] | None = None, level: str = "2", leader: int | None = 0, *,
                 match: bool = False, seed: int = 1, drawn: bool = False, **kw: Any) -> None:
        self.referee = make_guandan_referee()
        stream = EventStream()
        if drawn:
            deal = Deal.drawn(seed, level, stream=stream, mode="refereed", **kw)
        else:
            deal = Deal.from_hands(hands, level, leader, stream=stream, mode="refereed", **kw)
        self.engine = Match(seed, stream=stream, mode="refereed", first_deal=deal) if match else deal
        self.events: list = []
        self._deliver(self.engine.take_events())

    @property
    def deal(self) -> Deal:
        return getattr(self.engine, "current_deal", self.engine)

    def _deliver(self, events: list) -> list:
        out: list = []
        deliver_ruled(self.engine, events, self.referee, [_Collect(out)])
        self.events += out
        return out

    @property
    def to_act(self) -> int | None:
        return self.engine.to_act

    def do(self, action: Any) -> list:
        events = self.engine.apply(action)
        events.extend(self.engine.take_events())
        return self._deliver(events)

    def play(self, seat: int, cards: str, reading: str, *, report: bool = True) -> list:
        """Play; then, if 报牌 is due (10 cards or fewer left), report correctly."""
        out = self.do(Play(seat, parse_cards(cards), reading))
        if report:
            out += self.report_if_due(seat)
        return out

    def report_if_due(self, seat: int) -> list:
        deal = self.deal
        if deal.table.report_due == seat and deal.to_act == seat:
            return self.do(Report(seat, deal.sizes[seat]))
        return []

    # ---- reading the log

    def of(self, kind: str, events: list | None = None) -> list:
        return [e for e in (self.events if events is None else events) if e.KIND == kind]

    def rulings(self) -> list:
        return self.of("ref.ruling")

    def ruling(self, events: list | None = None) -> Any:
        found = self.of("ref.ruling", events)
        assert len(found) == 1, f"expected one ruling, got {[r.clause for r in found]}"
        return found[0]

    def legal(self) -> list:
        return list(self.engine.legal_actions())

    def legal_plays(self) -> list[tuple[str, str]]:
        return sorted((" ".join(map(str, a.cards)), a.reading.code) for a in self.legal() if type(a) is Play)

    def replay_matches(self, make_engine) -> bool:
        """Re-apply the log's actions to a fresh engine with a fresh referee: same events?"""
        fresh = RefTable.__new__(RefTable)
        fresh.referee = make_guandan_referee()
        fresh.engine = make_engine()
        fresh.events = []
        fresh._deliver(fresh.engine.take_events())
        for event in self.events:
            if event.ACTION and not event.KIND.startswith("ref."):   # the fresh referee rules again
                fresh.do(action_from_event(event))
        return fresh.events == self.events


def kinds(ruling: Any) -> list[str]:
    return [s["sanction"]["kind"] for s in ruling.sanctions]


def effects(ruling: Any) -> list[str]:
    return [e["kind"] for e in ruling.rectification]


@pytest.fixture
def table():
    return RefTable


@pytest.fixture
def sanction_kinds():
    return kinds


@pytest.fixture
def effect_kinds():
    return effects
