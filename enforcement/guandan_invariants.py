"""The 掼蛋 part of ``enforcement.invariants``: checks on a refereed ``guandan.deal.Deal`` or
``guandan.match.Match`` (strict engines get the card and scoring checks only).

Each check reads the engine's typed view (``guandan.view``: card counts and the census,
exposed and penalty cards with the lead options pending on them, lead restrictions, bars,
places, the procedure a deal was drawn under) or the log's events, and, where it can,
recomputes what the rules say independently of the code that enforces them (a
restriction's allowed leads, the plays made only of penalty cards, the level gain of a
finishing order, the GD-5.2 procedure of the next deal)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from enforcement.invariants import Checker, violated
from guandan.combos import BOMB_KINDS, Reading, readings, why_not_beats
from guandan.movegen import legal_plays
from guandan.ranks import level_index
from guandan.table import kind_key
from guandan.tribute import level_gain
from tabletop.cards import CARDS, count_list, sort_cards
from tabletop.seats import partner, prev_seat
from tabletop.view import held as cards_held

if TYPE_CHECKING:
    from guandan.view import GuandanSeat, GuandanView, LeadRestriction, NextDeal

FULL = (2,) * 54


def _contains(counts: Sequence[int], cards: Any) -> bool:
    """Whether a count list holds the multiset ``cards``."""
    if len(cards) == 1:
        return counts[cards[0]] > 0
    need: dict[int, int] = {}   # (a Counter costs more than the check, which runs after every batch)
    for c in cards:
        n = need[c] = need.get(c, 0) + 1
        if counts[c] < n:
            return False
    return True


class _DealLog:
    """What the events of one deal said so far."""

    def __init__(self, number: int, started: Any) -> None:
        self.number = number
        self.started = started
        self.forced_order: tuple[int, ...] | None = None
        self.scored: Any = None
        self.forced_last: list[int] = []
        self.double_last: list[int] = []
        self.procedure_checked = False
        """The procedure this deal was drawn under was checked against the previous deal's sanctions."""
        self.expected_counts: tuple[int, ...] | None = FULL if started.source == "draw" else None
        self.out_of_turn: dict[int, tuple[Any, Any]] = {}
        """Out-of-turn play (its seq) → its 下家 and reading, until its ruling."""
        self.answers: dict[int, Any] = {}
        """Out-of-turn play (its seq) → the 下家's first answer to it (its event)."""
        self.chosen: tuple[int, str] | None = None
        """The last lead option chosen: (restricted seat, option), until its restriction."""
        self.report: _LatentReport | None = None
        """A wrong or missing 报牌 nobody noticed yet, or whose take-back is being asked."""


class _LatentReport:
    """What the events said since a latent 报牌 irregularity (GD-4.2.2's take-back)."""

    def __init__(self, seq: int, seat: int) -> None:
        self.seq = seq
        self.seat = seat
        self.plays: list[Any] = []
        """This round's plays by the other seats since, in play order (``gd.played``; a play held
        on the table, ``gd.play_stands`` when it stands)."""
        self.all_plays: list[Any] = []
        """The same with the offender's own (an out-of-turn play of its that stood): a take-back
        takes every later play of the round, the offender's too, but asks only the others."""
        self.asked = 0

    def made(self, e: Any) -> None:
        self.all_plays.append(e)
        if e.seat != self.seat:
            self.plays.append(e)


class GuandanChecker(Checker):
    game = "guandan"
    IRREGULAR = "gd.irregular"
    FOUND = "gd.found"
    SPY = True
    VIEW_KINDS = frozenset({"gd.deal_started", "gd.redeal", "gd.taken_back", "table.barred", "table.barred_pass",
                            "table.bar_ended", "gd.finished", "gd.placed_last",
                            "gd.result_forced", "gd.scored",
                            "table.choice", "table.chose", "gd.play_stands", "table.penalty_cards"})
    """What changes the bars, the seats out, the seats judged last and the choice offered
    (``check_change`` follows them through the batch's events)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.log: _DealLog | None = None
        self.deals: list[_DealLog] = []
        self.imposed_penalties: Counter[tuple[int, int]] = Counter()
        self.applied_penalties: Counter[tuple[int, int]] = Counter()

    # -----------------------------------------------------------------------------------------
    # Events

    def on_event(self, engine: Any, e: Any) -> None:
        kind = e.KIND
        if kind == "gd.deal_started":
            self._deal_started(e)
            return
        log = self.log
        if log is None:
            return
        if kind == "gd.played":
            if log.report is not None and not self._answering(log, e):
                log.report.made(e)
        elif kind == "gd.play_stands":
            # a play that stands by a ruling (an out-of-turn play, then the play held on it;
            # the rest of a play with extra cards) is made as it stands, in that order
            if log.report is not None:
                log.report.made(e)
        elif kind in ("table.choice", "table.chose") and e.purpose in ("replay", "partner_replay"):
            self._take_back_asked(log, e)
        elif kind == "gd.round_over":
            if log.report is not None:
                log.report.plays = []   # plays of a round over stand (GD-4.2.2)
                log.report.all_plays = []
        elif kind == "gd.taken_back":
            self.undo_since(e.since, e.deal, -1 if log.report is None else log.report.seq)
            self._taken_back(log, e)
            oot = self._view_of(engine, e.deal).out_of_turn   # the table as it was before the play taken back
            # an out-of-turn play may lie on the table again, its 下家 to answer it anew
            log.out_of_turn = {} if oot is None else {oot.seq: (oot.responder, oot.reading)}
            log.answers = {}
        elif kind == "gd.irregular" and e.irregularity in ("report_missing", "report_wrong") and e.latent:
            log.report = _LatentReport(e.seq, e.seat)
        elif kind == "gd.result_forced":
            log.forced_order = tuple(e.finish_order)
        elif kind == "gd.scored":
            self._scored(log, e)
        elif kind == "gd.level_penalty":
            self.applied_penalties[(e.team, e.levels)] += 1
        elif kind == "ref.ruling":
            self._ruling(log, e)
            self._followed(log, e, lambda: self._view_of(engine, e.deal))
        if kind in _ANSWERS or kind in _CHOICE_EVENTS:
            self._answers_and_choices(log, e)

    @staticmethod
    def _answering(log: _DealLog, e: Any) -> bool:
        """``e`` (a play) answers an out-of-turn play: held on the table until the ruling."""
        return any(e.seat == responder and seq not in log.answers for seq, (responder, _) in log.out_of_turn.items())

    def _deal_started(self, e: Any) -> None:
        self.deal_changed(e.deal)
        log = _DealLog(e.deal, e)
        self.log = log
        self.deals.append(log)

    def _view_of(self, engine: Any, number: int) -> GuandanView:
        """The table of deal ``number`` now (the current deal or the one just over)."""
        assert self.table_view is not None
        view: GuandanView = self.table_view(engine, None, number)
        return view

    @staticmethod
    def _answers_and_choices(log: _DealLog, e: Any) -> None:
        """What the log says about out-of-turn plays and their answers, and lead option
        choices and the leads they restrict (``followed_before_it_stands``, ``lead_option_first``)."""
        kind = e.KIND
        if kind == "gd.irregular" and e.irregularity == "play_out_of_turn":
            facts = dict(e.facts)
            log.out_of_turn[e.seq] = (facts.get("responder"), facts.get("reading"))
        elif kind in _ANSWERS:
            is_play = kind != "gd.irregular" or dict(e.action).get("type") == "Play"
            for seq, (responder, _) in log.out_of_turn.items():
                if e.seat == responder and seq not in log.answers and e.seq > seq and is_play:
                    log.answers[seq] = e
        if kind == "table.chose" and e.purpose == "lead_option":
            log.chosen = (prev_seat(e.seat), e.option)
        elif kind == "gd.lead_restricted" and e.rule in ("forbid", "require"):
            if log.chosen != (e.seat, e.rule):
                raise violated("lead_option_first", f"seat {e.seat}'s lead is restricted ({e.rule} "
                               f"{e.combination}) without its chooser's choice of it", e)
            log.chosen = None

    @staticmethod
    def _followed(log: _DealLog, e: Any, view: Any) -> None:
        """GD-2.3.2 only after 跟牌: the 下家's first answer was a play that beats the
        out-of-turn cards (read from the log, not from the ruling's facts)."""
        if e.answers not in log.out_of_turn:
            return
        responder, reading = log.out_of_turn.pop(e.answers)
        answer = log.answers.pop(e.answers, None)
        if e.clause != "GD-2.3.2":
            return
        if answer is None or answer.KIND != "gd.played":
            did = "nothing" if answer is None else f"{answer.KIND} seq {answer.seq}"
            raise violated("followed_before_it_stands", f"GD-2.3.2 on the out-of-turn play at seq {e.answers}, "
                           f"but its 下家 (seat {responder}) did not play on it ({did})", e)
        level = level_index(view().level)
        why = why_not_beats(Reading.from_code(answer.reading), Reading.from_code(reading), level)
        if why is not None:
            raise violated("followed_before_it_stands", f"GD-2.3.2 on the out-of-turn play at seq {e.answers}: "
                           f"seat {responder}'s {answer.reading} is no play on {reading} ({why})", e)

    def _take_back_asked(self, log: _DealLog, e: Any) -> None:
        """GD-4.2.2: each seat that played since in this round is asked, in play order."""
        r = log.report
        if r is None:
            raise violated("take_back_bounded", f"seat {e.seat} is asked to take back a play with no 报牌 "
                           "irregularity found", e)
        if e.KIND == "table.choice":
            due = r.plays[r.asked].seat if r.asked < len(r.plays) else None
            if e.seat != due:
                raise violated("take_back_bounded", f"seat {e.seat} is asked to take back its play; the next "
                               f"play of this round since the wrong report is seat {due}'s", e)
            r.asked += 1
        elif e.option == "stand" and r.asked == len(r.plays):
            log.report = None   # every play since stands

    def _taken_back(self, log: _DealLog, e: Any) -> None:
        r = log.report
        if r is None or not r.asked or log.scored is not None:
            raise violated("take_back_bounded", "plays are taken back with no take-back asked"
                           + (" after the deal is over" if log.scored is not None else ""), e)
        first = r.plays[r.asked - 1]
        if e.seat != first.seat or not e.since <= first.seq:
            raise violated("take_back_bounded", f"seat {first.seat} took back its play (seq {first.seq}), the "
                           f"table went back from seat {e.seat}'s, before seq {e.since}", e)
        taken: list[list[str]] = [[], [], [], []]
        for p in r.all_plays[next(k for k, p in enumerate(r.all_plays) if p is first):]:
            taken[p.seat] += p.cards
        if [sorted(c) for c in taken] != [sorted(c) for c in e.cards]:
            raise violated("take_back_bounded", f"cards taken back {e.cards}, this round's plays from seat "
                           f"{first.seat}'s on were {taken}", e)
        log.report = None

    def _ruling(self, log: _DealLog, e: Any) -> None:
        r = log.report
        if r is not None and e.answers == r.seq:
            facts = dict(e.facts)
            if facts.get("at_deal_end") and e.clause in ("GD-4.2.1", "GD-4.2.2", "GD-4.2.3") and e.rectification:
                raise violated("take_back_bounded", f"{e.clause} found after the deal lists table effects "
                               f"{[x['kind'] for x in e.rectification]}", e)
            if not any(x["kind"] == "Replay" and x.get("chooser") is not None for x in e.rectification):
                log.report = None
        for row in e.sanctions:
            s = row["sanction"]
            kind = s["kind"]
            if kind == "LevelDiffPenalty":
                self.imposed_penalties[(row["side"], s["n"])] += 1
            elif kind in ("ForcedLast", "ForcedDoubleLast"):
                if log.scored is not None:
                    raise violated("sanctions_carried_out", f"{e.clause} imposes {kind} on deal {log.number}, "
                                   "which is already over: it cannot be carried out", e)
                if kind == "ForcedLast":
                    log.forced_last.append(row["seat"])
                else:
                    log.double_last.append(row["side"])

    # -----------------------------------------------------------------------------------------
    # Scoring

    def _scored(self, log: _DealLog, e: Any) -> None:
        order = tuple(e.finish_order)
        if sorted(order) != [0, 1, 2, 3]:
            raise violated("scoring_consistent", f"finishing order {order} is not the four seats", e)
        if (e.team, e.levels) != level_gain(order):
            raise violated("scoring_consistent", f"order {order} gives {level_gain(order)}, "
                           f"scored as team {e.team} +{e.levels}", e)
        log.scored = e
        if log.forced_order is not None:
            if order != log.forced_order:
                raise violated("scoring_consistent", f"scored {order}, the forced result was {log.forced_order}", e)
            return

    def _settled_places(self, e: Any, finished: list[int], judged: list[int]) -> None:
        """At the score ``e``: the places it gives against the places the table settled —
        ``finished`` went out in this order, ``judged`` were judged 单下 in this order — and
        the deal's forced sanctions shown in it."""
        log = next(log for log in reversed(self.deals) if log.scored is e)
        order = tuple(e.finish_order)
        for side in log.double_last:
            if order[0] % 2 != 1 - side or order[1] % 2 != 1 - side:
                raise violated("sanctions_carried_out", f"side {side} was judged 双下 but the deal scored {order}", e)
        if log.forced_order is not None:
            self._forced_keeps_places(e, order, finished, judged)
            return
        k = len(finished)
        if list(order[:k]) != finished:
            raise violated("scoring_consistent", f"scored {order}, but seats went out in the order {finished}", e)
        if judged and list(order[4 - len(judged):]) != judged[::-1]:
            raise violated("scoring_consistent", f"scored {order}, but {judged} were judged last in this order "
                           "(the first judged takes the very last place)", e)
        if set(judged) & set(finished):
            raise violated("scoring_consistent", f"seats {sorted(set(judged) & set(finished))} both went out "
                           "and were judged last", e)
        partners_out = k >= 2 and finished[1] == partner(finished[0])
        if not partners_out and 4 - k - len(judged) > 1:
            raise violated("scoring_consistent", f"the deal ended with {4 - k - len(judged)} seats still playing "
                           f"(went out {finished}, judged last {judged})", e)
        for seat in log.forced_last:
            if seat not in judged:
                raise violated("sanctions_carried_out", f"seat {seat} was judged 下游 (单下) but not placed last", e)

    @staticmethod
    def _forced_keeps_places(e: Any, order: tuple[int, ...], finished: list[int], judged: list[int]) -> None:
        """A forced result keeps, within each side, the places play settled: a seat that went
        out ahead of its partner, a seat judged 下游 behind it."""
        for seat in range(4):
            mate = partner(seat)
            ahead = order.index(seat) < order.index(mate)
            if seat in finished and (mate not in finished or finished.index(seat) < finished.index(mate)):
                settled = True
            elif seat in judged and mate not in judged:
                settled = False
            else:
                continue
            if ahead != settled:
                raise violated("sanctions_carried_out", f"the forced result {order} puts seat {seat} "
                               f"{'behind' if settled else 'ahead of'} its partner, but seat {seat} "
                               f"{'went out first' if settled else 'was judged 下游'}", e)

    # -----------------------------------------------------------------------------------------
    # Each batch against the change of the table's view

    def check_change(self, engine: Any, events: list[Any], before: Any, after: Any, changed: bool) -> None:
        """``barred_silent`` and the places at the score, from the view before the batch and
        the batch's events: no seat plays while barred, a bar costs one turn, a GD-2.2 bar ends
        with its round; and after the batch the bars, the seats out and the seats judged last
        the events say are the table's."""
        if not changed and (not any(seat.bars for seat in before.seats) and _lead_option_offered(before) is None):
            return   # no bar, place or choice changed in this batch, nobody barred, no lead option offered
        offered = _lead_option_offered(before)
        """The seat whose lead the choice offered is about (``lead_option_first``)."""
        bars: dict[int, list[str]] = {}
        went_out: list[int] = []
        judged: list[int] = []
        if before is not None:
            bars = {seat.seat: list(seat.bars) for seat in before.seats if seat.bars}
            went_out, judged = list(before.finish), list(before.judged_last)
        outlived: Counter[int] = Counter()
        """Seat → its GD-2.2 bars that outlived their round in this batch (they must lapse)."""
        rebuilt = ended = False
        for e in events:
            kind = e.KIND
            if kind == "table.choice" and e.purpose == "lead_option":
                offered = prev_seat(e.seat)
            elif kind in ("table.chose", "gd.deal_started", "gd.redeal", "gd.taken_back") or (
                    kind == "table.penalty_cards" and e.cause is not None and partner(e.seat) == offered) or (
                    kind == "gd.play_stands" and e.seat == offered):   # made, or withdrawn (stood / lapsed)
                offered = None
            if kind == "gd.deal_started":
                bars, went_out, judged, outlived, ended = {}, [], [], Counter(), False
            elif kind == "gd.played":
                if e.seat == offered:
                    raise violated("lead_option_first", f"seat {e.seat} plays {' '.join(e.cards)} while the choice "
                                   "about its lead is still offered", e)
                if e.seat in bars:
                    raise violated("barred_silent", f"seat {e.seat} played {' '.join(e.cards)} while barred", e)
            elif kind == "table.barred":
                bars.setdefault(e.seat, []).append(e.scope)
            elif kind == "table.barred_pass":
                scopes = bars.get(e.seat)
                if not scopes or (scopes[0] == "round" and outlived[e.seat]):
                    raise violated("barred_silent", f"seat {e.seat} passes automatically, but "
                                   + ("its bar was for a round that has ended (GD-2.2)" if scopes
                                      else "it is not barred"), e)
                if e.lead_to is not None and scopes[0] == "round":
                    raise violated("barred_silent", f"seat {e.seat}'s GD-2.2 bar (this round only) cost it a lead", e)
                _spend_bar(bars, outlived, e.seat, None)
            elif kind == "table.bar_ended":
                _spend_bar(bars, outlived, e.seat, {"lapsed": "round", "lifted": "next_turn"}.get(e.how))
            elif kind == "gd.round_over":
                outlived = Counter({s: scopes.count("round") for s, scopes in bars.items() if "round" in scopes})
            elif kind == "gd.redeal":
                bars, went_out, outlived = {}, [], Counter()
            elif kind == "gd.finished":
                went_out.append(e.seat)
            elif kind == "gd.placed_last":   # it plays no more: its bars ended first, each logged
                if bars.get(e.seat):
                    raise violated("barred_silent", f"seat {e.seat} is judged last with its bars "
                                   f"({', '.join(bars[e.seat])}) not ended in the log", e)
                judged.append(e.seat)
                outlived.pop(e.seat, None)
            elif kind == "gd.taken_back":   # the table rebuilt as it was before the play taken back
                table = self.table_view(engine, None, e.deal) if self.table_view is not None else after
                bars = {seat.seat: list(seat.bars) for seat in table.seats if seat.bars}
                went_out, judged, outlived, rebuilt = list(table.finish), list(table.judged_last), Counter(), True
            elif kind in ("gd.result_forced", "gd.scored"):
                ended = True
                if kind == "gd.scored":
                    self._settled_places(e, went_out, judged)
        if rebuilt:
            return
        if +outlived:
            seat = min(+outlived)
            raise violated("barred_silent", f"seat {seat}'s GD-2.2 bar outlived its round", deal=after.deal)
        shown = {seat.seat: list(seat.bars) for seat in after.seats if seat.bars}
        if bars != shown:
            raise violated("barred_silent", f"the log leaves bars {bars}, the table shows {shown}", deal=after.deal)
        if not ended and (went_out, judged) != (list(after.finish), list(after.judged_last)):
            raise violated("scoring_consistent", f"the log has seats {went_out} out and {judged} judged last, the "
                           f"table {list(after.finish)} and {list(after.judged_last)}", deal=after.deal)

    # -----------------------------------------------------------------------------------------
    # The next deal's procedure (GD-5.1 / GD-5.2)

    def _next_deal_procedure(self, view: GuandanView) -> None:
        """The deal on the table follows the procedure it was drawn under (``view.procedure``),
        and that procedure is what the previous deal's 单下/双下 sanctions call for."""
        log = self.log
        if log is None or view.deal != log.number:
            return
        p = view.procedure
        if not log.procedure_checked:
            log.procedure_checked = True
            previous = next((d for d in reversed(self.deals) if d.number != log.number), None)
            if previous is not None:
                self._procedure_called_for(previous, log, p)
        if p is None:
            return
        setup = view.setup
        if setup is not None:
            for name in ("shuffler", "cutter", "first_drawer"):
                want = getattr(p, name)
                if want is not None and getattr(setup, name) != want:
                    raise violated("next_deal_procedure", f"{name} is seat {getattr(setup, name)}, the ruling's "
                                   f"procedure names seat {want}", deal=view.deal)
        tribute = view.tribute
        if tribute is not None and tribute.payments:
            if p.no_tribute:
                raise violated("next_deal_procedure", f"tribute {tribute.payments} is due, the ruling waived it",
                               deal=view.deal)
            excused = set(p.no_tribute_seats)
            if any(payer in excused for payer, _ in tribute.payments):
                raise violated("next_deal_procedure", f"seats {sorted(excused)} pay tribute {tribute.payments}, "
                               "the ruling excused them (GD-5.1)", deal=view.deal)
        leader = view.round.first_leader
        if leader is not None and p.leader is not None and leader != p.leader:
            raise violated("next_deal_procedure", f"seat {leader} leads, the ruling's procedure names "
                           f"seat {p.leader}", deal=view.deal)

    @staticmethod
    def _procedure_called_for(previous: _DealLog, log: _DealLog, p: NextDeal | None) -> None:
        if previous.double_last:
            side = previous.double_last[-1]
            if p is None or not p.no_tribute or p.shuffler is None or p.shuffler % 2 != side or (
                    (p.cutter, p.first_drawer, p.leader) != tuple((p.shuffler + k) % 4 for k in (1, 2, 3))):
                raise violated("next_deal_procedure", f"side {side} was judged 双下 in deal {previous.number}; "
                               f"deal {log.number} is drawn {_procedure_text(p)}", log.started)
        elif previous.forced_last:
            if p is None or not (p.no_tribute or set(previous.forced_last) <= set(p.no_tribute_seats)):
                raise violated("next_deal_procedure", f"seats {previous.forced_last} were judged 单下 in deal "
                               f"{previous.number}; deal {log.number} is drawn {_procedure_text(p)}",
                               log.started)

    # -----------------------------------------------------------------------------------------
    # State after every batch

    def check_state(self, engine: Any) -> None:
        view: GuandanView = self.view
        log = self.log
        counts = view.census
        if log is not None:
            if log.expected_counts is None:
                log.expected_counts = counts
            if counts != log.expected_counts:
                off = [f"{CARDS[i]}×{counts[i]}" for i in range(54) if counts[i] != log.expected_counts[i]]
                raise violated("cards_conserved", f"cards off after the last events: {' '.join(off)} "
                               f"({_places(view, off)})", deal=view.deal)
            self._next_deal_procedure(view)
        seats = view.seats
        self.check_hand_counts(seats, view.deal)
        exposures = view.exposures
        # (mid-ruling a seat may hold no cards before it is placed; a deal over has no leads left)
        if (view.finish or view.judged_last) and not view.awaiting and view.phase != "scored":
            gone = (*view.finish, *view.judged_last)
            for x in exposures:
                if not x.penalty and partner(x.seat) in gone and x.cards:
                    raise violated("exposure_lapses", f"seat {x.seat}'s exposed {' '.join(map(str, x.cards))} "
                                   f"are no penalty cards, but its partner seat {partner(x.seat)} can never "
                                   "lead again", deal=view.deal)
            waiting = [s.seat for s in seats if s.options and s.seat in gone]
            if waiting:
                raise violated("exposure_lapses", f"a lead option waits for seat {waiting[0]}, which can "
                               "never lead again", deal=view.deal)
        for x in exposures:
            owner = seats[x.seat]
            assert owner.holding is not None
            held = list(owner.holding)
            for c in owner.on_table:
                held[c] += 1
            if not _contains(held, x.cards):
                raise violated("exposed_owned", f"seat {x.seat}'s exposed {' '.join(map(str, x.cards))} are not "
                               "all in its hand", deal=view.deal)

    # -----------------------------------------------------------------------------------------
    # Before every decision

    def check_decision(self, engine: Any, seat: int, legal: Any) -> None:
        view: GuandanView = self.view
        number = view.deal
        if view.to_act != seat:
            raise violated("not_stuck", f"seat {seat} asked to decide, the deal says seat {view.to_act} is to act",
                           deal=number)
        moves = getattr(legal, "moves", None) or [a for a in legal if hasattr(a, "reading")]
        mine = view.seats[seat]
        hand = mine.holding
        assert hand is not None  # the referee's eye sees every hand
        for m in moves:
            if not _contains(hand, m.cards):
                raise violated("offered_actions_regular", f"seat {seat} is offered {' '.join(map(str, m.cards))}, "
                               "cards it does not hold", deal=number)
        if mine.bars:
            if moves:
                raise violated("barred_silent", f"barred seat {seat} is offered {len(moves)} plays", deal=number)
            return
        if view.phase != "play" or view.choice is not None or view.report_due is not None:
            return
        oot = view.out_of_turn
        if oot is not None and not view.seats[oot.seat].count:
            return  # only the referee call or a pass
        top = view.round.top
        leading = oot is None and (top is None or top.seat == seat)
        on = oot.reading if oot is not None else None if leading or top is None else top.reading
        restriction = None
        if leading:
            restriction = self._restriction(mine, level_index(view.level), engine.rules)
            if restriction is not None:
                for m in moves:
                    if not _allows(restriction, m):
                        raise violated("restrictions_obeyed", f"seat {seat} may lead "
                                       f"{' '.join(map(str, m.cards))} ({m.reading.code}) against "
                                       f"{(seat, restriction.rule, restriction.kind)}", deal=number)
            asked = mine.option_answered_at == view.leads
            if not asked and any(o.asked_at < view.leads for o in mine.options):
                raise violated("lead_option_first", f"seat {seat} is to lead before its pending lead option "
                               "is asked", deal=number)
        if mine.penalty:
            self._penalty_cards(view, mine, on, restriction, moves, engine.rules)

    @staticmethod
    def _restriction(mine: GuandanSeat, level: int, rules: Any) -> LeadRestriction | None:
        """The lead restriction on the seat ``mine`` when it is in force for its hand now."""
        r = mine.restriction
        if r is None:
            return None
        hand = mine.holding
        assert hand is not None
        if r.rule == "cards":  # exactly these cards, in any reading they have
            held = _contains(hand, r.cards)
            return r if held and readings(list(r.cards), level, rules) else None
        every = legal_plays(cards_held(list(hand)), None, level, rules=rules)
        allowed = [m for m in every if _allows(r, m)]
        if not allowed or (r.rule == "require" and all(m.reading.kind in BOMB_KINDS for m in allowed)):
            return None  # nothing (or only bombs) satisfies it: the seat leads freely
        return r

    @staticmethod
    def _penalty_cards(view: GuandanView, mine: GuandanSeat, on: str | None, restriction: Any, moves: list,
                       rules: Any) -> None:
        """At a legal opportunity to play ``mine``'s penalty cards (on the play ``on``, a
        reading's code; None: a lead), the plays offered are such plays only."""
        penalty = list(mine.penalty)
        seat = mine.seat
        chances = legal_plays(penalty, Reading.from_code(on) if on is not None else None, level_index(view.level),
                              rules=rules)
        if restriction is not None:
            chances = [m for m in chances if _allows(restriction, m)]
        if not chances:
            return
        if mine.designated is not None:
            chances = [m for m in chances if kind_key(m.reading) == mine.designated] or chances
        kinds = {kind_key(m.reading) for m in chances}
        number = view.deal
        if not moves:
            raise violated("penalty_cards_offered", f"seat {seat} may play its penalty cards "
                           f"{' '.join(map(str, sort_cards(penalty)))} but is offered no play", deal=number)
        held = count_list(penalty)
        for m in moves:
            if not _contains(held, m.cards) or kind_key(m.reading) not in kinds:
                raise violated("penalty_cards_offered", f"seat {seat} holds penalty cards "
                               f"{' '.join(map(str, sort_cards(penalty)))} ({sorted(kinds)}) and is offered "
                               f"{' '.join(map(str, m.cards))} ({m.reading.code})", deal=number)

    # -----------------------------------------------------------------------------------------
    # The end

    def finish_game(self, engine: Any, result: Any) -> None:
        if self.imposed_penalties != self.applied_penalties:
            raise violated("sanctions_carried_out", f"level penalties imposed {dict(self.imposed_penalties)}, "
                           f"applied {dict(self.applied_penalties)}", deal=self.deal_number(engine))
        if not hasattr(result, "deals"):
            return
        rules = engine.rules
        numbers = {log.number for log in self.deals}
        if len(numbers) > rules.max_deals or len(result.deals) > rules.max_deals:
            raise violated("bounded", f"{len(numbers)} deals played, rules.max_deals is {rules.max_deals}")
        applied = [0, 0]
        for (team, n), times in self.applied_penalties.items():
            applied[team] += n * times
        if list(result.penalties) != applied:
            raise violated("sanctions_carried_out", f"match penalties {result.penalties}, the rulings applied {applied}")
        last = {log.number: log.scored for log in self.deals if log.scored is not None}
        for record in result.deals:
            scored = last.get(record.number)
            if scored is None or tuple(scored.finish_order) != tuple(record.finish_order):
                raise violated("scoring_consistent", f"deal {record.number} is recorded as {record.finish_order}, "
                               f"scored {None if scored is None else scored.finish_order}", deal=record.number)

    def stuck_detail(self, engine: Any) -> str:
        assert self.table_view is not None
        view = self.table_view(engine)
        return f" (phase {view.phase}, awaiting {list(view.awaiting)})"


_ANSWERS = frozenset({"gd.played", "gd.passed", "gd.irregular", "gd.referee_called"})
"""What a seat can do about an out-of-turn play lying on the table (an irregular attempt
counts only when it is a play)."""
_CHOICE_EVENTS = frozenset({"table.choice", "table.chose", "gd.lead_restricted", "gd.play_stands",
                            "table.penalty_cards", "gd.taken_back", "gd.redeal"})


def _lead_option_offered(view: Any) -> int | None:
    """The seat whose lead the table's offered lead option choice is about (its chooser's
    上家), if one is offered."""
    choice = None if view is None else view.choice
    return prev_seat(choice.seat) if choice is not None and choice.purpose == "lead_option" else None


def _spend_bar(bars: dict[int, list[str]], outlived: Counter[int], seat: int, scope: str | None) -> None:
    """One of ``seat``'s bars is spent: its first (``scope`` None) or its first of ``scope``;
    a GD-2.2 bar spent is one less that outlived its round."""
    scopes = bars.get(seat, [])
    if scope in scopes:
        scopes.remove(scope)
    elif scopes and scope is None:
        scope = scopes.pop(0)
    if scope == "round" and outlived[seat]:
        outlived[seat] -= 1
    if not scopes:
        bars.pop(seat, None)


def _allows(r: Any, m: Any) -> bool:
    """Whether a lead (a Move or Play) satisfies the lead restriction ``r`` (rule, kind, cards)."""
    rule = r.rule
    if rule == "cards":
        return list(sort_cards(m.cards)) == list(r.cards)
    return (kind_key(m.reading) == r.kind) == (rule == "require")


def _procedure_text(p: Any) -> str:
    if p is None:
        return "as usual"
    return (f"no_tribute={p.no_tribute} no_tribute_seats={p.no_tribute_seats} shuffler={p.shuffler} "
            f"cutter={p.cutter} first_drawer={p.first_drawer} leader={p.leader}")


def _places(view: GuandanView, off: list[str]) -> str:
    """Where the seats have the cards whose count is off (the stock and played piles are
    in the census only)."""
    names = {text.split("×")[0] for text in off}
    where = []
    for seat in view.seats:
        assert seat.holding is not None
        for place, cards in ((f"hand {seat.seat}", cards_held(list(seat.holding))), (f"table {seat.seat}", seat.on_table)):
            hits = [str(c) for c in cards if str(c) in names]
            if hits:
                where.append(f"{place}: {' '.join(hits)}")
    return "; ".join(where) or "in no hand, nor on the table"
