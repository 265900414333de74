"""The sanctions ledger of one match: every clause that fired (an ``Incident``) and every
sanction it imposed (an ``Imposed`` row), per player (seat) and side (team = seat % 2).

``Ledger.record`` picks the sanctions from the clause's escalation ladder by how often the
clause already fired in this match (per player, per side or for the whole table, as the clause
says) and adds the automatic escalations of the game:

- 双升 SJ-2.1: every Warning from the second on for the same offender → RecordedViolation (PD:
  not only the second one). The offender is the seat; a sanction given to a side with no seat
  named counts for the side apart from its players.

RecordedViolations do not escalate: the seed names 判负 (MatchLoss) and 停赛 (Suspension) but
gives neither a trigger, so only a human referee's ruling imposes them (``sanctions=``).

An escalation is an incident of its own clause (SJ-2.1) whose ``cause`` is the clause that set
it off. 掼蛋 has no automatic escalation beyond its ladders (GD-2.1, GD-1.2.2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from enforcement.rulebook import GAMES, Clause, clause
from tabletop.effects import (
    Imposed, LevelDiffPenalty, MatchLoss, PointPenalty, RecordedViolation, Sanction, WarningSanction,
)
from tabletop.errors import OptionError
from tabletop.games import game_spec

SECOND_WARNING = "SJ-2.1"


@attrs.frozen
class Incident:
    """One firing of a clause. ``side`` is None when it concerns both sides alike."""

    seq: int
    deal: int
    clause: str
    seat: int | None
    side: int | None
    cause: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


def _offender_key(seat: int | None, side: int | None) -> tuple[str, int | None]:
    return ("seat", seat) if seat is not None else ("side", side)


def _sanction_kind(kind: str | type[Sanction]) -> str:
    return kind if isinstance(kind, str) else kind.KIND


class Ledger:
    """Sanctions of one match. Deterministic: same records in, same ledger out."""

    def __init__(self, game: str) -> None:
        if game not in GAMES:
            raise OptionError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
        self.game = game
        self.seating = game_spec(game).seating
        self.escalates = clause(SECOND_WARNING).game == game
        """Whether warnings escalate by count (the rulebook's SJ-2.1 belongs to this game)."""
        self.incidents: list[Incident] = []
        self.imposed: list[Imposed] = []

    # -----------------------------------------------------------------------------------------
    # Recording

    def record(
        self,
        clause_id: str,
        seat: int | None = None,
        *,
        deal: int,
        side: int | None = None,
        sanctions: Iterable[Sanction] | None = None,
    ) -> list[Imposed]:
        """Record that ``clause_id`` fired against ``seat`` (or ``side``, when no single player
        is the offender; neither for a clause whose sanction goes to both sides) and return
        the sanctions actually imposed, automatic escalations included, each tagged with its
        clause. ``sanctions`` overrides the clause's ladder (a referee's discretion: an
        AdjustedScore with amounts, a Suspension from a human referee, …)."""
        c = self._clause(clause_id)
        both = c.sanction.to == "both_sides"
        inc_side = None if both else self._offender_side(c, seat, side)
        occurrence = self._prior(c, seat, inc_side) + 1
        steps = c.sanction.for_occurrence(occurrence) if sanctions is None else tuple(sanctions)
        for s in steps:
            if not isinstance(s, Sanction):
                raise TypeError(f"not a sanction: {s!r}")
        incident = self._new_incident(deal, c.id, seat, inc_side, None)
        bearers = (0, 1) if inc_side is None else (inc_side,)  # None: both sides
        out = [self._impose(incident, s, b, None if both else seat)
               for b in bearers for s in steps]
        if self.escalates:
            out.extend(self._escalate(list(out)))
        return out

    def _clause(self, clause_id: str) -> Clause:
        c = clause(clause_id)
        if c.game != self.game:
            raise ValueError(f"clause {c.id} is a {c.game} clause; this ledger is for {self.game}")
        if c.heading:
            raise ValueError(f"clause {c.id} is a section heading; record one of its sub-clauses")
        return c

    def _offender_side(self, c: Clause, seat: int | None, side: int | None) -> int:
        seating = self.seating
        if seat is not None:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seating.seats:
                raise ValueError(f"not a seat (0-{seating.seats - 1}): {seat!r}")
            if side is not None and side != seating.side(seat):
                raise ValueError(f"seat {seat} is not on side {side}")
            return seating.side(seat)
        if side is None or isinstance(side, bool) or side not in range(len(seating.sides)):
            raise ValueError(f"clause {c.id}: name the offending seat, or its side (0 or 1)")
        return side

    def _prior(self, c: Clause, seat: int | None, side: int | None) -> int:
        same = [i for i in self.incidents if i.clause == c.id]
        if c.sanction.per == "table" or side is None:
            return len(same)
        if c.sanction.per == "side":
            return sum(1 for i in same if i.side == side)
        key = _offender_key(seat, side)
        return sum(1 for i in same if _offender_key(i.seat, i.side) == key)

    def _new_incident(self, deal: int, clause_id: str, seat: int | None, side: int | None,
                      cause: str | None) -> Incident:
        incident = Incident(len(self.incidents), deal, clause_id, seat, side, cause)
        self.incidents.append(incident)
        return incident

    def _impose(self, incident: Incident, sanction: Sanction, side: int, seat: int | None) -> Imposed:
        row = Imposed(incident.seq, incident.deal, incident.clause, seat, side, sanction, incident.cause)
        self.imposed.append(row)
        return row

    def _escalate(self, rows: list[Imposed]) -> list[Imposed]:
        """SJ-2.1: each Warning from the second on for the same offender adds a
        RecordedViolation (which escalates no further)."""
        added: list[Imposed] = []
        for row in rows:
            if isinstance(row.sanction, WarningSanction):
                key = _offender_key(row.seat, row.side)
                if self._count(WarningSanction, key) >= 2:
                    inc = self._new_incident(row.deal, SECOND_WARNING, row.seat, row.side, row.clause)
                    added.append(self._impose(inc, RecordedViolation(), row.side, row.seat))
        return added

    def _count(self, kind: type[Sanction], key: tuple[str, int | None]) -> int:
        return sum(1 for r in self.imposed
                   if isinstance(r.sanction, kind) and _offender_key(r.seat, r.side) == key)

    # -----------------------------------------------------------------------------------------
    # Queries

    def occurrences(self, clause_id: str, seat: int | None = None, *, side: int | None = None) -> int:
        """How often the clause fired in this match: in all, for one seat, or for one side
        (a seat's incidents count for its side; both-sides incidents count for each side)."""
        cid = clause(clause_id).id
        out = 0
        for i in self.incidents:
            if i.clause != cid or (seat is not None and i.seat != seat):
                continue
            if side is not None and i.side not in (side, None):
                continue
            out += 1
        return out

    def sanctions(
        self,
        *,
        seat: int | None = None,
        side: int | None = None,
        deal: int | None = None,
        kind: str | type[Sanction] | None = None,
        clause_id: str | None = None,
    ) -> list[Imposed]:
        """Imposed sanctions, filtered; in the order they were imposed."""
        want = None if kind is None else _sanction_kind(kind)
        cid = None if clause_id is None else clause(clause_id).id
        return [r for r in self.imposed
                if (seat is None or r.seat == seat) and (side is None or r.side == side)
                and (deal is None or r.deal == deal) and (want is None or r.sanction.KIND == want)
                and (cid is None or r.clause == cid)]

    def level_penalty(self, side: int) -> int:
        """掼蛋: level differences to deduct from the side's match score."""
        return sum(r.sanction.n for r in self.imposed
                   if r.side == side and isinstance(r.sanction, LevelDiffPenalty))

    def point_penalty(self, side: int, deal: int) -> int:
        """双升: penalty points charged to the side in one deal."""
        return sum(r.sanction.n for r in self.imposed
                   if r.side == side and r.deal == deal and isinstance(r.sanction, PointPenalty))

    def point_penalties(self, deal: int) -> dict[int, int]:
        return {0: self.point_penalty(0, deal), 1: self.point_penalty(1, deal)}

    def match_loser(self) -> int | None:
        """The side that lost the match by a referee's MatchLoss (判负), if any (the first)."""
        for r in self.imposed:
            if isinstance(r.sanction, MatchLoss):
                return r.side
        return None

    # -----------------------------------------------------------------------------------------
    # Plain data

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "incidents": tuple(i.to_dict() for i in self.incidents),
            "imposed": tuple(r.to_dict() for r in self.imposed),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Ledger":
        ledger = cls(data["game"])
        ledger.incidents = [Incident(**i) for i in data["incidents"]]
        ledger.imposed = [Imposed.from_dict(r) for r in data["imposed"]]
        return ledger


def adjusted_attacker_points(raw: int, attackers: int, penalties: Mapping[int, int]) -> int:
    """双升 PD: a point penalty moves points towards the non-offending side. The attackers'
    own penalties lower their captured points (never below 0); the defenders' penalties
    raise them. ``penalties`` maps side → points, e.g. ``ledger.point_penalties(deal)``."""
    defenders = 1 - attackers
    return max(0, raw - penalties.get(attackers, 0)) + penalties.get(defenders, 0)
