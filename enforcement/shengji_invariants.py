"""The 双升 part of ``enforcement.invariants``: checks on a refereed ``shengji.deal.Deal`` or
``shengji.match.Match`` (the 双升 referee: ``enforcement.shengji_rulings``). What a check
knows of the table it reads from the engine's typed view (``shengji.view``: the census,
hands and card counts, exposed cards, points, who may declare)."""

from __future__ import annotations

from collections import Counter
from operator import gt, mul
from typing import TYPE_CHECKING, Any

from enforcement.invariants import Checker, violated
from shengji.scoring import POINTS, level_result
from tabletop.cards import CARDS, count_list
from tabletop.seats import next_seat, partner, team

if TYPE_CHECKING:
    from shengji.view import ShengjiView

FULL = (2,) * 54
TOTAL_POINTS = 200


class _DealLog:
    def __init__(self, number: int) -> None:
        self.number = number
        self.deltas: list[int] = []
        self.imposed: Counter[tuple[str, int]] = Counter()
        self.applied: Counter[tuple[str, int]] = Counter()
        self.scored: Any = None


class ShengjiChecker(Checker):
    game = "shengji"
    IRREGULAR = "sj.irregular"
    FOUND = "sj.found"
    CONSEQUENTIAL = frozenset({"lead_wrong_bury_count"})
    """The banker's first lead after burying the wrong number is the irregularity SJ-3.1.10.1
    rules on (the burial itself went unnoticed): any lead it makes then is one."""
    VIEW_KINDS = frozenset({"sj.deal_started", "sj.declaration_barred"})
    """What changes who may declare (``barred_silent``, followed through the batch; a redeal
    keeps the bar: same deal)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.log: _DealLog | None = None
        self.numbers: set[int] = set()
        self.match_loss: list[int] = []

    def on_event(self, engine: Any, e: Any) -> None:
        kind = e.KIND
        if kind == "sj.deal_started":
            if self.log is not None:
                self._close(self.log)
            self.deal_changed(e.deal)
            self.log = _DealLog(e.deal)
            self.numbers.add(e.deal)
            return
        log = self.log
        if log is None:
            return
        if kind in ("sj.points_adjusted", "sj.throw_penalty"):
            log.deltas.append(e.attackers_delta)
            if kind == "sj.points_adjusted":
                log.applied[(e.reason, e.points)] += 1
        elif kind == "sj.scored":
            self._scored(engine, log, e)
        elif kind == "ref.ruling":
            for row in e.sanctions:
                s = row["sanction"]
                if s["kind"] == "PointPenalty":
                    if log.scored is not None and not self.match_loss:
                        raise violated("sanctions_carried_out", f"{e.clause} imposes PointPenalty({s['n']}) on "
                                       f"deal {log.number}, which is already over: it cannot be carried out", e)
                    log.imposed[(f"PointPenalty {row['clause']}", s["n"])] += 1
                elif s["kind"] == "MatchLoss":
                    self.match_loss.append(row["side"])

    def _scored(self, engine: Any, log: _DealLog, e: Any) -> None:
        log.scored = e
        lower = sum(d for d in log.deltas if d < 0)
        higher = sum(d for d in log.deltas if d > 0)
        if e.points != max(0, e.raw + lower) + higher:
            raise violated("scoring_consistent", f"points {e.points} from raw {e.raw} and adjustments {log.deltas}", e)
        assert self.table_view is not None   # a batch may end one deal and start the next: the view of e's
        scored: ShengjiView = self.table_view(engine, None, e.deal)
        result = scored.result
        if result is not None and sum(d for _, d in result.adjustments) != sum(log.deltas):
            raise violated("scoring_consistent", f"the result's adjustments {result.adjustments} are not the "
                           f"announced ones {log.deltas}", e)
        side, levels = level_result(e.points)
        if (e.side, e.levels) != (side, levels):
            raise violated("scoring_consistent", f"{e.points} points give {side} +{levels}, scored "
                           f"{e.side} +{e.levels}", e)
        banker = e.seat
        want = (team(banker), partner(banker)) if side == "banker" else (1 - team(banker), next_seat(banker))
        if (e.team, e.next_banker) != want:
            raise violated("scoring_consistent", f"{side} wins: team {want[0]}, next banker {want[1]}; scored "
                           f"team {e.team}, next banker {e.next_banker}", e)

    def _close(self, log: _DealLog) -> None:
        if log.scored is None or self.match_loss:
            return
        if log.imposed != log.applied:
            raise violated("sanctions_carried_out", f"deal {log.number}: point penalties imposed "
                           f"{dict(log.imposed)}, applied {dict(log.applied)}", log.scored)

    # -----------------------------------------------------------------------------------------

    def check_state(self, engine: Any) -> None:
        view: ShengjiView = self.view
        number = engine.stream.deal
        counts = view.census
        if counts != FULL:
            off = [f"{CARDS[i]}×{counts[i]}" for i in range(54) if counts[i] != 2]
            raise violated("cards_conserved", f"cards off after the last events: {' '.join(off)}", deal=number)
        seats = view.seats
        self.check_hand_counts(seats, number)
        for seat in seats:
            if seat.exposed:
                assert seat.holding is not None
                held = list(seat.holding)
                for c in seat.on_table:
                    held[c] += 1
                need = count_list(seat.exposed)
                if any(map(gt, need, held)):
                    raise violated("exposed_owned", f"seat {seat.seat}'s exposed {' '.join(map(str, seat.exposed))} "
                                   "are not all in its hand", deal=number)
        phase = view.resume_phase if view.phase == "awaiting_ruling" else view.phase
        if phase in ("play", "scored"):
            points = sum(sum(map(mul, seat.holding or (), POINTS)) for seat in seats)
            points += sum(POINTS[c] for _, cards in view.trick.plays for c in cards)
            points += sum(POINTS[c] for seat in seats for c in seat.on_table)
            bonus = view.result.kitty_bonus if view.result else 0
            kitty = sum(POINTS[c] for c in view.kitty or ())
            total = view.points - bonus + view.banker_points + points + kitty
            if total != TOTAL_POINTS:
                raise violated("scoring_consistent", f"{total} points accounted for, not {TOTAL_POINTS}", deal=number)

    def check_change(self, engine: Any, events: list[Any], before: Any, after: Any, changed: bool) -> None:
        """``barred_silent``: no seat declares while the table says it may not, counting from
        the view before the batch and the bars the batch's events lay; and the seats barred
        after the batch are the table's (the log says every bar)."""
        if not changed and not before.declare_barred:
            return   # nobody barred, and no bar laid in this batch
        barred = set(before.declare_barred) if before is not None else set()
        for e in events:
            kind = e.KIND
            if kind == "sj.deal_started":
                barred = set()
            elif kind == "sj.declaration_barred":
                barred.add(e.seat)
            elif kind == "sj.declared" and e.seat in barred:
                raise violated("barred_silent", f"seat {e.seat} declared after losing the right to", e)
        if changed and barred != set(after.declare_barred):
            raise violated("barred_silent", f"the log bars seats {sorted(barred)} from declaring, the table "
                           f"{list(after.declare_barred)}", deal=after.deal)

    def check_decision(self, engine: Any, seat: int, legal: Any) -> None:
        view: ShengjiView = self.view
        if view.to_act != seat:
            raise violated("not_stuck", f"seat {seat} asked to decide, the deal says seat {view.to_act} is to act",
                           deal=engine.stream.deal)
        if seat in view.declare_barred and view.phase in ("draw", "declare"):
            if any(type(a).__name__ == "Declare" for a in legal):
                raise violated("barred_silent", f"seat {seat} lost the right to declare and is offered a declaration",
                               deal=engine.stream.deal)

    def forgiven(self, engine: Any) -> bool:
        return bool(self.match_loss)

    def finish_game(self, engine: Any, result: Any) -> None:
        if self.log is not None:
            self._close(self.log)
        if not hasattr(result, "how"):
            return
        if self.match_loss:
            side = self.match_loss[0]
            if result.how != "match_loss" or result.winner != 1 - side:
                raise violated("sanctions_carried_out", f"side {side} lost the match by sanction; the match "
                               f"ended {result.how}, winner {result.winner}")
            return
        if len(self.numbers) > engine.rules.max_deals:
            raise violated("bounded", f"{len(self.numbers)} deals played, rules.max_deals is {engine.rules.max_deals}")

    def stuck_detail(self, engine: Any) -> str:
        assert self.table_view is not None
        view = self.table_view(engine)
        return f" (phase {view.phase}, awaiting {list(view.awaiting)})"
