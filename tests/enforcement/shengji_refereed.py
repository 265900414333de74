"""A refereed 双升 table for the clause tests: a deal from explicit hands (or a stacked pack
drawn card by card), optionally inside a match, a referee observing it, and helpers to act
and to read what happened. (Not a conftest: the 掼蛋 tests own the fixtures there.)"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from enforcement.referee import Referee
from enforcement.shengji_rulings import make_shengji_referee
from shengji.actions import Choose, Declare, Draw, NoDeclare, Play
from shengji.deal import Deal, Phase
from shengji.match import Match
from shengji.logged_actions import action_from_event
from tabletop.cards import Card, parse_cards
from tabletop.effects import Sanction
from tabletop.events import EventStream
from tabletop.rulings import Ruling, Unresolved
from tests.enforcement.conftest import deliver_ruled


class _Collect:
    def __init__(self, out: list) -> None:
        self.out = out

    def on_events(self, engine: Any, events: list) -> None:
        self.out.extend(events)


class HumanReferee(Referee):
    """A human referee in the referee's seat: it rules as the rulebook does, and where
    ``judge(ledger, ruling)`` returns sanctions it imposes them on top, under SJ-3.2 (判负,
    停赛: the seed names them but gives no trigger, so only a human referee imposes them)."""

    def __init__(self, judge: Callable[[Any, Ruling], Sequence[Sanction]]) -> None:
        book = make_shengji_referee()
        super().__init__(book.rulings, book.ledger, book.fallback)
        self.judge = judge

    def rule(self, engine: Any) -> Ruling | Unresolved:
        answer = super().rule(engine)
        if isinstance(answer, Ruling):
            extra = tuple(self.judge(self.ledger, answer))
            if extra:
                rows = self.ledger.record("SJ-3.2", answer.offender, deal=engine.stream.deal, side=answer.side,
                                          sanctions=extra)
                answer = attrs.evolve(answer, sanctions=answer.sanctions + tuple(rows))
        return answer


class SjTable:
    """``engine`` is the Match when ``match=True`` (forfeits, later deals), else the deal."""

    def __init__(self, hands: list[str] | None = None, level: str = "2", trump: str | None = "H",
                 banker: int = 0, kitty: str | None = None, *, at: str = "play", match: bool = False,
                 seed: int = 1, deck: list | None = None, referee: Any = None, deal_number: int | None = None,
                 **kw: Any) -> None:
        self.referee = referee if referee is not None else make_shengji_referee()
        stream = EventStream()
        if deck is not None:
            deal = Deal(seed, deck=deck, banker=banker, levels=(level, level), stream=stream, mode="refereed",
                        deal_number=deal_number, **kw)
        else:
            deal = Deal.from_hands([parse_cards(h) for h in hands], level, trump, banker,
                                   None if kitty is None else parse_cards(kitty), at=at, stream=stream,
                                   mode="refereed", deal_number=deal_number, **kw)
        self.engine = (Match(seed, stream=stream, mode="refereed", levels=(level, level), first_deal=deal)
                       if match else deal)
        self.events: list = []
        self._deliver(self.engine.take_events())

    @property
    def deal(self) -> Deal:
        return getattr(self.engine, "deal", self.engine)

    def _deliver(self, events: list) -> list:
        out: list = []
        deliver_ruled(self.engine, events, self.referee, [_Collect(out)])
        self.events += out
        return out

    def do(self, action: Any) -> list:
        events = self.engine.apply(action)
        events.extend(self.engine.take_events())
        return self._deliver(events)

    def play(self, seat: int, cards: str) -> list:
        return self.do(Play(seat, parse_cards(cards)))

    def draw_on(self, until: Phase = Phase.KITTY) -> list:
        """Answer draw steps with Draw and declaration chances with NoDeclare until the deal
        reaches ``until`` (or someone must choose)."""
        out: list = []
        deal = self.deal
        while deal.to_act is not None and deal.phase in (Phase.DRAW, Phase.DECLARE) and deal.phase is not until:
            if deal.table.choice is not None:
                break
            seat = deal.to_act
            first = self.legal()[0]
            out += self.do(first if isinstance(first, Draw) else NoDeclare(seat))
        return out

    def finish(self) -> list:
        """Play on with the first legal action until the deal is over."""
        out: list = []
        deal = self.deal
        while deal.to_act is not None and deal.result is None:
            out += self.do(self.legal()[0])
        return out

    # ---- reading the log

    def of(self, kind: str, events: list | None = None) -> list:
        return [e for e in (self.events if events is None else events) if e.KIND == kind]

    def ruling(self, events: list | None = None) -> Any:
        found = self.of("ref.ruling", events)
        assert len(found) == 1, f"expected one ruling, got {[r.clause for r in found]}"
        return found[0]

    def unresolved(self, events: list | None = None) -> Any:
        found = self.of("ref.unresolved", events)
        assert len(found) == 1, f"expected one unresolved event, got {found}"
        return found[0]

    def legal(self) -> list:
        return list(self.engine.legal_actions())

    def hand(self, seat: int) -> list[str]:
        return [str(c) for c in self.deal.hand(seat)]

    def exposed(self, seat: int) -> list[str]:
        return sorted(str(c) for c in self.deal.table.exposed[seat])

    def attackers_delta(self) -> int:
        return sum(delta for _, delta in self.deal.adjustments)

    def replay_matches(self, make: Any) -> bool:
        """Re-apply the log's actions to a fresh table (``make()``) with a fresh referee:
        the same events?"""
        fresh = make()
        for event in self.events:
            if event.ACTION:
                fresh.do(action_from_event(event))
        return fresh.events == self.events


def kinds(ruling: Any) -> list[str]:
    return [s["sanction"]["kind"] for s in ruling.sanctions]


def points(ruling: Any) -> int:
    return sum(s["sanction"]["n"] for s in ruling.sanctions if s["sanction"]["kind"] == "PointPenalty")


def effects(ruling: Any) -> list[str]:
    return [e["kind"] for e in ruling.rectification]


def fact(ruling: Any, name: str) -> Any:
    return dict(ruling.facts).get(name)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


__all__ = ["SjTable", "HumanReferee", "kinds", "points", "effects", "fact", "cards", "Choose", "Declare", "Draw", "NoDeclare",
           "Play", "Phase"]
