"""The deal rebuilt from its own record: how it was made (``Record.make``) and every action
and ruling applied to it since, in order — what its log holds, but for the actions a take-back
undid, which the record replaces by what the take-back did (a ``Step``). ``restore(deal,
point)`` puts the whole deal back as it was before action ``point``, by making it again and
re-applying the record before that action (as ``paiju replay --check`` re-applies a log), so
that no field can be left out of the restore (GD-4.2.2's take-back). A rebuild never meets an
earlier take-back's choice again, only its ``Step``: its cost is one pass over the record."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from guandan import events as ev
from guandan.refereed.state import table_of
from tabletop.errors import IllegalAction
from tabletop.events import EventStream

if TYPE_CHECKING:  # the deal's type only: the deal imports the features
    from guandan.deal import Deal


@attrs.define(slots=True, eq=False)
class InMatch:
    """A ruling carried out with a match around the deal (its level penalties and next-deal
    procedure went to the match)."""

    ruling: Any


@attrs.define(slots=True, eq=False)
class Step:
    """What a take-back did after restoring the table (in the record in place of the actions
    it undid, its own choice included): ``redo(deal)`` does it again. A rebuild applies it as
    an action (``engine.ACTION_HANDLERS``), so the turn is settled after it."""

    redo: Callable[[Any], None]
    at_seq: int
    """The sequence number its first event had (the undone actions' events lie before it)."""


@attrs.define(slots=True, eq=False)
class Record:
    """How the deal was made and what was applied to it since (never rebuilt itself)."""

    make: Callable[..., Any] | None
    """``make(stream=…)`` makes the deal again, as it was before its first action (None: a deal
    not made by ``Deal.drawn`` or ``Deal.from_hands``, which cannot be rebuilt)."""
    first_seq: int
    """The sequence number of the deal's first event."""
    actions: list[Any] = attrs.Factory(list)
    """Every action and ruling applied, in order (a ruling with a match around it as ``InMatch``;
    what a take-back undid replaced by its ``Step``). An action is added as it starts."""


def rebuilt(deal: Deal, upto: int) -> Any:
    """A new deal made as ``deal`` was and given the first ``upto`` entries of its record, on a
    stream of its own numbered as the deal's (so every sequence number it holds is the same);
    the match around it is not touched again (``_MatchAround``)."""
    record = table_of(deal).record
    if record.make is None:
        raise IllegalAction("this deal was not made by Deal.drawn or Deal.from_hands: it cannot be rebuilt")
    fresh = record.make(stream=EventStream(deal=deal.deal_number, next_seq=record.first_seq))
    around = _MatchAround(fresh)
    for entry in record.actions[:upto]:
        kind = type(entry)
        if kind is InMatch:
            fresh.apply_ruling(entry.ruling, match=around)
        else:
            if kind is Step:   # applied as an action (the turn is settled after it, as after the choice)
                fresh.stream.next_seq = entry.at_seq
            fresh.apply(entry)
        fresh.stream.take()
    return fresh


def restore(deal: Deal, upto: int) -> int:
    """Put ``deal`` back exactly as it was before entry ``upto`` of its record (everything but
    its event stream and the record itself, which go on); returns the sequence number of the
    first event of the action now undone."""
    stream, record = deal.stream, table_of(deal).record
    fresh = rebuilt(deal, upto)
    since = fresh.stream.next_seq
    state = vars(deal)
    state.clear()
    state.update(vars(fresh))
    deal.stream = stream
    table_of(deal).record = record
    return since


def replace_undone(deal: Deal, upto: int, step: Step) -> None:
    """The record from entry ``upto`` on (what a take-back undid, its own choice last) becomes
    ``step``, what the take-back did instead."""
    table_of(deal).record.actions[upto:] = [step]


class _MatchAround:
    """The match around a deal being rebuilt: level penalties and the next deal's procedure
    were carried out on the real match when the rulings were first applied, and stand; the
    rebuild emits the same events (so the numbering stays the same) and does nothing else."""

    ended = None

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.scheduled: Any = None

    def impose_level_penalty(self, team: int, levels: int, reason: str = "") -> None:
        self.deal.stream.emit(ev.LevelPenalty, team=team, levels=levels, reason=reason)

    def set_next_deal(self, *, no_tribute_seats: Any = (), no_tribute: bool = False, shuffler: Any = None,
                      cutter: Any = None, first_drawer: Any = None, leader: Any = None) -> None:
        seats = tuple(sorted(set(no_tribute_seats)))
        self.scheduled = _Scheduled(seats, no_tribute or leader is not None, shuffler, cutter, first_drawer, leader)
        self.deal.stream.emit(ev.NextDealScheduled, no_tribute_seats=seats, no_tribute=self.scheduled.no_tribute,
                              shuffler=shuffler, cutter=cutter, first_drawer=first_drawer, leader=leader)

    def impose_result(self, finish_order: Any, reason: str = "") -> None:
        self.deal.impose_result(finish_order, reason)


@attrs.frozen
class _Scheduled:
    no_tribute_seats: tuple[int, ...]
    no_tribute: bool
    shuffler: int | None
    cutter: int | None
    first_drawer: int | None
    leader: int | None
