"""What the referee layer must guarantee (docs/rules/enforcement.md), checked on a live
engine: after every batch of events, before every decision and when the unit ends.

One module for every user: `paiju fuzz`, the hypothesis state machines
(tests/enforcement/test_stateful_*.py) and the referees' property tests.

    checker = checker_for("guandan")         # or "shengji"
    players = checker.watch(engine, players)  # decision hooks (and the GD-7 spy)
    result = run(engine, players, [checker], referee=referee)
    checker.finish(engine, result)           # end-of-unit checks

A broken invariant raises ``InvariantViolation`` (an AssertionError: pytest shows it as a
failure) naming the invariant id of ``INVARIANTS``. The checker only reads the engine (every
read is pure); a batch of events may end a deal of a match and start the next.

The checker keeps no model of the table: what it knows of the table — card counts, exposed
and penalty cards and the options pending on them, lead restrictions, bars, places, the
next-deal procedure — it reads from the engine's typed view (``GameSpec.table_view``, the
referee's eye), taken after every batch of events; it checks the table in that view
(``check_state``), each decision against it (``check_decision``), and each batch's events
against the change between the view before and the view after (``check_change``), as the
replay's fold does. What it reads of the engine itself is its rules and the deal number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from enforcement.carried_out import AUTOMATIC_TURNS
from tabletop.events import Event
from tabletop.rulings import Irregular

DEAL_STEP_LIMIT = 5_000
"""Decisions (interjections included) one deal may take, redeals included, before it counts
as running away."""

INVARIANTS: dict[str, str] = {
    "cards_conserved": "after every batch of events each of the 108 cards is in exactly one place "
                       "(a hand, the stock, the kitty, a played pile or trick, laid on the table, lost "
                       "in a flawed draw), and each seat's card count equals its hand",
    "exposed_owned": "exposed and penalty cards are still their owner's: in its hand or laid on the "
                     "table by it",
    "barred_silent": "a seat barred from its next play (禁出一手) is never offered a play and never "
                     "plays while barred, and a bar costs one turn only; a 双升 seat that lost the "
                     "right to declare never declares",
    "restrictions_obeyed": "a lead restriction in force (forbid / require a type, exactly these cards) "
                           "admits only the leads it allows in legal_actions()",
    "penalty_cards_offered": "at every legal opportunity (some legal play is made only of the seat's "
                             "penalty cards) legal_actions() offers such plays and only such plays "
                             "(of the designated type once designated), plus the pass when following",
    "lead_option_first": "a pending GD-2.3.1 lead option is asked before the restricted seat leads, "
                         "never after; a lead restricted to forbid / require a type follows the "
                         "chooser's choice of it, and the restricted seat never leads while the choice "
                         "is offered",
    "followed_before_it_stands": "掼蛋 GD-2.3.2 (an out-of-turn play stands) is ruled only when the "
                                 "offender's 下家 answered it with a play of cards that beats it (跟牌), "
                                 "never after a pass, a call or an irregular attempt",
    "exposure_lapses": "掼蛋 exposed cards whose restricted partner went out or was judged 单下 are "
                       "penalty cards (罚张) from that moment on, and no lead option waits for that seat",
    "offered_actions_regular": "an action taken from legal_actions() by a well-behaved agent is never "
                               "recorded as an irregular attempt; offered plays use cards the seat holds",
    "someone_can_act": "a seat that is to act has at least one legal action",
    "ruled_once": "every irregular attempt is answered by exactly one ruling or unresolved event "
                  "(matched by `answers`), and nothing else is answered",
    "ruling_cites_clause": "every ruling cites a clause of the game's rulebook (not a heading), its "
                           "sanctions too, and names a seat 0-3 and side 0-1 when it names any",
    "effects_allowed_by_clause": "every effect kind a ruling lists in its rectification is one its clause's "
                                 "rulebook entry allows (Clause.rectification.effects)",
    "effects_carried_out": "the table effects a ruling lists are exactly the effects the table carries out "
                           "before the next decision (the primitive events after the ruling, matched effect "
                           "by effect and card by card as enforcement.carried_out documents): no listed "
                           "effect missing, no effect event the ruling does not list",
    "ruled_in_time": "an irregular attempt noticed at once is answered before the next decision; "
                     "a latent one comes to light (one `found` event) by the end of its deal and is "
                     "then answered before the next decision",
    "scoring_consistent": "掼蛋: the finishing order is a permutation, the level gain is the one of "
                          "that order, seats that went out come first in the order they went out, "
                          "seats judged last take the last places (the first judged the very last), "
                          "a forced result is the one scored; 双升: "
                          "points = raw + adjustments (own penalties floor at 0), the level change "
                          "is the level table's, the 200 points are all accounted for",
    "sanctions_carried_out": "what a ruling imposes happens: level penalties reach the match score, "
                             "point penalties reach the deal's points, a seat judged last (单下) "
                             "finishes behind every seat still playing, a side judged 双下 loses 1-2 "
                             "while each side keeps the places play settled (who went out ahead of "
                             "its partner, who was judged last behind it), a match loss ends the "
                             "match; and nothing is imposed on a deal already over",
    "next_deal_procedure": "after 单下/双下 the next deal of a match follows the ruling: no tribute "
                           "from the offending side (GD-5.1), no tribute at all and the GD-5.2 "
                           "shuffler, cutter, first drawer and leader",
    "take_back_bounded": "掼蛋 GD-4.2.2: the seats that played since a wrong 报牌 in the current round are "
                         "asked in play order whether they take their play back; a take-back goes back "
                         "from the asked seat's own play and takes exactly this round's later plays; "
                         "nothing is taken back once the deal is over, and a 报牌 irregularity found "
                         "after the deal (GD-4.2.1-4.2.3) has no table effect",
    "bounded": f"a deal ends within {DEAL_STEP_LIMIT} decisions, a match within rules.max_deals deals",
    "not_stuck": "when nobody is to act the unit is over and has a result",
    "information_flag_unread": "built-in agents never read the GD-7 `unauthorised` flag",
    "replay_exact": "`paiju replay --check` re-creates the log byte for byte",
    "crash": "no exception escapes the engine, the referee or the agents",
}


class InvariantViolation(AssertionError):
    """An invariant of ``INVARIANTS`` does not hold. ``deal``/``seq``: where (when known)."""

    def __init__(self, invariant: str, detail: str, *, deal: int | None = None, seq: int | None = None) -> None:
        where = "" if deal is None else f" (deal {deal}{'' if seq is None else f', seq {seq}'})"
        super().__init__(f"[{invariant}] {detail}{where}")
        self.invariant = invariant
        self.detail = detail
        self.deal = deal
        self.seq = seq


def violated(invariant: str, detail: str, event: Event | None = None, deal: int | None = None) -> InvariantViolation:
    assert invariant in INVARIANTS, invariant
    if event is not None:
        return InvariantViolation(invariant, detail, deal=event.deal, seq=event.seq)
    return InvariantViolation(invariant, detail, deal=deal)


def checker_for(game: str, **kw: Any) -> "Checker":
    """The game's invariant checker (from its referee part)."""
    from enforcement.games import referee_part

    return referee_part(game).checker(**kw)


# ---------------------------------------------------------------------------------------------
# The game-independent part


class Checker:
    """An observer (tabletop.protocol.Observer) checking the invariants; see the module doc.
    A game supplies its event kinds and the per-event, state and decision checks."""

    game = ""
    IRREGULAR = ""
    FOUND = ""
    SPY = False
    """Wrap the agents' observations so that reading the GD-7 flag fails."""
    CONSEQUENTIAL: frozenset[str] = frozenset()
    """Irregularities an offered action may carry because of the seat's own earlier,
    unnoticed one (exempt from ``offered_actions_regular``)."""

    VIEW_KINDS: frozenset[str] = frozenset()
    """Event kinds whose batch ``check_change`` must follow event by event (none: the checker
    takes no view; a game that registers a ``table_view`` names at least one). Every change
    of what that check follows comes with one of them (the log says what happened)."""

    def __init__(self, *, deal_step_limit: int = DEAL_STEP_LIMIT, effects: bool = True) -> None:
        """``effects``: check ``effects_carried_out`` after every ruling."""
        self.deal_step_limit = deal_step_limit
        self.view: Any = None
        """The omniscient view of the table after the last batch (None: none taken yet)."""
        self.table_view: Callable[..., Any] | None = None
        if self.VIEW_KINDS:
            from tabletop.games import game_spec

            self.table_view = game_spec(self.game).table_view
        self.irregular: dict[int, Irregular] = {}
        self.latent: set[int] = set()
        self.found: Counter[int] = Counter()
        self.answers: Counter[int] = Counter()
        self.unanswered: set[int] = set()
        """Sequence numbers (attempts noticed at once, and discoveries) still to be answered."""
        self.undiscovered: dict[int, int] = {}
        """Latent attempts not yet come to light: seq → the deal they belong to."""
        self.came_to_light: dict[int, int] = {}
        self.ruled_at: dict[int, int] = {}
        """Attempt seq → the seq of its discovery / of its ruling (``undo_since``)."""
        self.steps: Counter[int] = Counter()
        self.decision: tuple[int, bool] | None = None
        """(seat, injected) of the decision whose events come next."""
        self.events_seen = 0
        self.decisions = 0
        from enforcement.carried_out import effect_events

        self.effect_kinds = effect_events(self.game).kinds if effects else frozenset()
        self.rulings_checked = 0
        self.window: Any = None
        """The ruling whose effects are being collected (enforcement.carried_out.Window)."""
        self.scheduling: Any = None
        """The last ``gd.next_deal_scheduled`` event of this deal (掼蛋) before the window's
        ruling: the window's effects are matched against the events that carried them out
        (``enforcement.carried_out``), so this is the log's, not the table's."""

    # ---- the observer

    def on_events(self, engine: Any, events: list[Event]) -> None:
        decision, self.decision = self.decision, None
        for event in events:
            self.events_seen += 1
            kind = event.KIND
            if kind in self.effect_kinds:
                if self.window is not None:
                    self.window.events.append(event)
                if kind == "gd.next_deal_scheduled":
                    self.scheduling = event
            elif kind == self.IRREGULAR:
                self._close_window()
                self._irregular(event, decision)
            elif kind == self.FOUND:
                self._close_window()
                self._found(event)
            elif kind == "ref.ruling" or kind == "ref.unresolved":
                self._close_window()
                self._answer(event)
                if self.effect_kinds:
                    from enforcement.carried_out import Window

                    self.window = Window(event, self.scheduling)
            elif kind.endswith(".deal_started"):
                self._close_window()
                self.scheduling = None
            elif self.window is not None and (event.ACTION or kind in AUTOMATIC_TURNS):
                self._close_window()   # a turn taken: what follows is that turn's
            self.on_event(engine, event)
        if self.table_view is None:
            self.check_state(engine)
            return
        before = self.view
        self.view = self.table_view(engine)
        self.check_state(engine)
        kinds = self.VIEW_KINDS
        changed = before is None or any(e.KIND in kinds for e in events)
        self.check_change(engine, events, before, self.view, changed)

    def _irregular(self, event: Any, decision: tuple[int, bool] | None) -> None:
        if (decision is not None and not decision[1] and event.seat == decision[0]
                and event.irregularity not in self.CONSEQUENTIAL):
            raise violated("offered_actions_regular",
                           f"seat {event.seat} took an action offered by legal_actions() and it was "
                           f"recorded as irregular ({event.irregularity}: {dict(event.facts)})", event)
        self.irregular[event.seq] = event
        if getattr(event, "latent", False):
            self.latent.add(event.seq)
            self.undiscovered[event.seq] = event.deal
        else:
            self.unanswered.add(event.seq)

    def _found(self, event: Any) -> None:
        seq = event.answers
        if seq not in self.latent:
            raise violated("ruled_in_time", f"a discovery of seq {seq}, which is no latent irregular attempt", event)
        self.found[seq] += 1
        if self.found[seq] > 1:
            raise violated("ruled_in_time", f"latent attempt {seq} came to light twice", event)
        self.undiscovered.pop(seq, None)
        self.unanswered.add(seq)
        self.came_to_light[seq] = event.seq

    def _answer(self, event: Any) -> None:
        seq = event.answers
        if seq < 0:  # a reported incident ruled at once (no attempt event)
            return
        if seq not in self.irregular:
            raise violated("ruled_once", f"{event.KIND} answers seq {seq}, which is no irregular attempt", event)
        self.answers[seq] += 1
        if self.answers[seq] > 1:
            raise violated("ruled_once", f"{self.irregular[seq].irregularity} (seq {seq}) answered twice", event)
        if seq in self.latent and not self.found[seq]:
            raise violated("ruled_in_time", f"latent attempt {seq} answered before it came to light", event)
        self.unanswered.discard(seq)
        self.ruled_at[seq] = event.seq
        if event.KIND == "ref.ruling":
            self._cites(event)

    def undo_since(self, since: int, deal: int, keep: int) -> None:
        """The table went back to before event ``since`` (a take-back rebuilds it): attempts made
        since never were; discoveries and rulings made since are undone (their attempts come to
        light and are ruled again), but for attempt ``keep``'s, whose ruling went back."""
        for seq in [q for q in self.irregular if q >= since]:
            del self.irregular[seq]
            self.latent.discard(seq)
            self.unanswered.discard(seq)
            self.undiscovered.pop(seq, None)
            for book in (self.found, self.answers, self.came_to_light, self.ruled_at):
                book.pop(seq, None)
        for seq in list(self.irregular):
            if seq == keep:
                continue
            if self.ruled_at.get(seq, -1) >= since:
                del self.ruled_at[seq]
                self.answers[seq] -= 1
                self.unanswered.add(seq)
            if self.came_to_light.get(seq, -1) >= since:
                del self.came_to_light[seq]
                self.found[seq] -= 1
                self.unanswered.discard(seq)
                self.undiscovered[seq] = deal

    def _cites(self, event: Any) -> None:
        from enforcement.rulebook import UnknownClause, clause

        for cited in [event.clause] + [row["clause"] for row in event.sanctions]:
            try:
                c = clause(cited)
            except UnknownClause:
                raise violated("ruling_cites_clause", f"a ruling cites {cited!r}, which is no clause", event) from None
            if c.game != self.game or c.heading:
                raise violated("ruling_cites_clause", f"a ruling cites {cited} "
                               f"({'a heading' if c.heading else 'a ' + c.game + ' clause'})", event)
        if event.offender not in (None, 0, 1, 2, 3) or event.side not in (None, 0, 1):
            raise violated("ruling_cites_clause", f"a ruling names seat {event.offender!r}, side {event.side!r}", event)
        listed = [row["kind"] for row in event.rectification]
        allowed = clause(event.clause).allowed_effects
        if not allowed.issuperset(listed):
            raise violated("effects_allowed_by_clause", f"a {event.clause} ruling lists "
                           f"{', '.join(k for k in listed if k not in allowed)}, which its clause does not allow "
                           f"(allowed: {', '.join(clause(event.clause).rectification.effects) or 'none'})", event)

    def _close_window(self) -> None:
        """The ruling's window ends: what it lists must be what the table did."""
        w, self.window = self.window, None
        if w is None:
            return
        from enforcement.carried_out import mismatches, ruled_under

        self.rulings_checked += 1
        problems = mismatches(self.game, w.ruling, w.events, w.standing)
        if problems:
            r = w.ruling
            what = "ruling" if r.KIND == "ref.ruling" else "fallback (unresolved)"
            raise violated("effects_carried_out", f"{ruled_under(r)} {what} (seq {r.seq}, answers {r.answers}, "
                           f"offender {getattr(r, 'offender', r.seat)}): " + "; ".join(problems), r)

    def settled(self, engine: Any) -> None:
        """Checks for when an action's events have all been shown (before any seat acts
        again, in turn or out of turn): every attempt noticed, and every discovery, answered;
        the last ruling's effects carried out."""
        self._close_window()
        if self.unanswered:
            seq = min(self.unanswered)
            e = self.irregular[seq]
            raise violated("ruled_in_time", f"{e.irregularity} (seq {seq}) not answered before the next decision",
                           e)

    # ---- decisions (through ``watch``)

    def watch(self, engine: Any, players: Sequence[Any]) -> list[Any]:
        """The players wrapped so that every decision is checked first; an out-of-turn
        capable player (``interject``) stays one."""
        out = []
        for seat, player in enumerate(players):
            cls = _WatchedInterjecting if hasattr(player, "interject") else _Watched
            out.append(cls(player, self, engine, seat))
        return out

    def before_decision(self, engine: Any, seat: int, legal: Any) -> None:
        self.settled(engine)
        if not len(legal):
            raise violated("someone_can_act", f"seat {seat} is to act with no legal action", deal=self.deal_number(engine))
        self.check_decision(engine, seat, legal)

    def decided(self, engine: Any, seat: int, injected: bool) -> None:
        self.decision = (seat, injected)
        self.decisions += 1
        deal = self.deal_number(engine)
        self.steps[deal] += 1
        if self.steps[deal] > self.deal_step_limit:
            raise violated("bounded", f"deal {deal} still running after {self.deal_step_limit} decisions", deal=deal)

    # ---- the end

    def finish(self, engine: Any, result: Any) -> None:
        """End-of-unit checks: not stuck, every attempt ruled once and in time, game checks."""
        if result is None:
            raise violated("not_stuck", "nobody is to act but the unit has no result"
                           f"{self.stuck_detail(engine)}", deal=self.deal_number(engine))
        forgiven = self.forgiven(engine)
        if forgiven:   # the match ended at once: nothing more is ruled on
            self._close_window()
        else:
            self.settled(engine)
        for seq, deal in sorted(self.undiscovered.items()):
            if not forgiven:
                e = self.irregular[seq]
                raise violated("ruled_in_time", f"latent {e.irregularity} (seq {seq}) never came to light", e)
        for seq, e in self.irregular.items():
            if self.answers[seq] != 1 and not (forgiven and (seq in self.undiscovered or seq in self.unanswered)):
                raise violated("ruled_once", f"{e.irregularity} (seq {seq}) answered {self.answers[seq]} times", e)
        self.finish_game(engine, result)

    # ---- per game

    def deal_number(self, engine: Any) -> int:
        return engine.stream.deal

    def on_event(self, engine: Any, event: Event) -> None:
        pass

    def check_state(self, engine: Any) -> None:
        """The table after a batch (in ``self.view`` when the game has a view)."""

    @staticmethod
    def check_hand_counts(seats: Any, deal: int) -> None:
        """Each seat's cards, as the referee's view shows them, agree with its count."""
        for seat in seats:
            hand = seat.holding
            assert hand is not None  # the referee's eye sees every hand
            if sum(hand) != seat.count or min(hand) < 0:
                raise violated("cards_conserved", f"seat {seat.seat} holds {sum(hand)} cards, its count says "
                               f"{seat.count}", deal=deal)

    def check_change(self, engine: Any, events: list[Event], before: Any, after: Any, changed: bool) -> None:
        """The batch's events against the change between the table's view ``before`` them
        (None: the first batch) and ``after`` them; ``changed``: an event of ``VIEW_KINDS``
        came (or this is the first batch)."""

    def check_decision(self, engine: Any, seat: int, legal: Any) -> None:
        pass

    def finish_game(self, engine: Any, result: Any) -> None:
        pass

    def forgiven(self, engine: Any) -> bool:
        """Whether attempts may stay unanswered (a match lost by sanction ends at once)."""
        return False

    def stuck_detail(self, engine: Any) -> str:
        return ""

    def deal_changed(self, deal: int) -> None:
        """A new deal began: latent attempts of earlier deals must have come to light."""
        for seq, number in sorted(self.undiscovered.items()):
            if number < deal:
                e = self.irregular[seq]
                raise violated("ruled_in_time", f"latent {e.irregularity} (seq {seq}) of deal {number} "
                               f"never came to light before deal {deal}", e)


class _Watched:
    """A player whose decisions the checker sees first."""

    def __init__(self, player: Any, checker: Checker, engine: Any, seat: int) -> None:
        self.player = player
        self.checker = checker
        self.engine = engine
        self.seat = seat

    @property
    def committed(self) -> list[str]:
        return getattr(self.player, "committed", [])

    def act(self, observation: Any, legal: Any) -> Any:
        checker = self.checker
        checker.before_decision(self.engine, self.seat, legal)
        committed = getattr(self.player, "committed", None)
        before = len(committed) if committed is not None else 0
        if checker.SPY:
            observation = NoPeeking(observation)
        action = self.player.act(observation, legal)
        checker.decided(self.engine, self.seat, committed is not None and len(committed) > before)
        return action


class _WatchedInterjecting(_Watched):
    def interject(self, observation: Any, seat: int) -> Any:
        self.checker.settled(self.engine)
        action = self.player.interject(observation, seat)
        if action is not None:
            self.checker.decided(self.engine, seat, True)
        return action

    def interject_on_demand(self, observe: Callable[[int], Any], seat: int) -> Any:
        """As ``interject``; the player observes only if it acts, when it can."""
        self.checker.settled(self.engine)
        on_demand = getattr(self.player, "interject_on_demand", None)
        action = on_demand(observe, seat) if on_demand is not None else self.player.interject(observe(seat), seat)
        if action is not None:
            self.checker.decided(self.engine, seat, True)
        return action


class NoPeeking:
    """An observation through which reading the GD-7 ``unauthorised`` flag is a violation."""

    __slots__ = ("_obs",)

    def __init__(self, obs: Any) -> None:
        object.__setattr__(self, "_obs", obs)

    def __getattr__(self, name: str) -> Any:
        if name == "unauthorised":
            raise violated("information_flag_unread", "an agent read the GD-7 information flag")
        return getattr(object.__getattribute__(self, "_obs"), name)
