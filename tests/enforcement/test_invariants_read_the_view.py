"""The invariant checkers keep no model of the table: what they know of it is the engine's
view (``GameSpec.table_view``) before and after each batch of events, and a table that
differs from what its log says fails them. No checker module keeps a table fact of its own,
nor reads one off the engine or its deal — card counts, exposed and penalty cards, lead
restrictions and options, the next-deal procedure (AST scans, as for the replay)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from guandan.deal import Deal
from guandan.match import Match
from guandan.refereed import restrictions
from paiju.fuzz.case import draw_case, run_case
from shengji.deal import Deal as ShengjiDeal
from shengji.refereed import declaration
from tests.paiju.replay.test_no_model_of_its_own import TABLE_FACTS, _writes

ENFORCEMENT = Path(__file__).resolve().parents[2] / "enforcement"
CHECKERS = ["invariants.py", "guandan_invariants.py", "shengji_invariants.py"]
READERS = [*CHECKERS, "carried_out.py"]
CHECKER_FACTS = TABLE_FACTS | {"bars", "stale", "finished", "placed_last", "judged_last", "declare_barred",
                               "went_out", "sizes", "to_act", "offered"}
"""The replay's table facts and those the checkers used to keep (bars, who went out, who was
judged last, who may not declare, whose lead option choice is offered)."""


def _checker_writes(source: str) -> list[tuple[int, str]]:
    return [(line, attr) for line, attr in _writes(ast.parse(source)) if attr in CHECKER_FACTS] + [
        (line, attr) for line, attr in _facts_written(ast.parse(source))]


def _facts_written(tree: ast.AST) -> list[tuple[int, str]]:
    """The same scan for the names the replay's list lacks."""
    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in {
                "append", "extend", "remove", "insert", "pop", "clear", "discard", "add", "update", "setdefault"}:
            targets = [node.func.value]
        for target in targets:
            while isinstance(target, ast.Subscript):
                target = target.value
            if isinstance(target, ast.Attribute) and target.attr in CHECKER_FACTS - TABLE_FACTS:
                found.append((node.lineno, target.attr))
    return found


def test_no_checker_module_keeps_a_table_fact() -> None:
    offending = {name: _checker_writes((ENFORCEMENT / name).read_text(encoding="utf-8")) for name in CHECKERS}
    assert {name: lines for name, lines in offending.items() if lines} == {}


def test_the_scan_finds_the_checkers_old_bookkeeping() -> None:
    """Not empty-handed by construction: the old ``_DealLog``'s own moves are found."""
    old = """
self.bars: dict[int, list[str]] = {}
log.bars.setdefault(e.seat, []).append(e.scope)
log.stale |= {s for s, scopes in log.bars.items() if "round" in scopes}
log.finished.append(e.seat)
log.placed_last.append(e.seat)
log.declare_barred.add(e.seat)
"""
    assert sorted(attr for _, attr in _checker_writes(old)) == [
        "bars", "bars", "declare_barred", "finished", "placed_last", "stale"]


def _finding(game: str, count: int) -> str | None:
    """The first finding of the fuzzer's first ``count`` one-deal cases (seed 0), if any."""
    for index in range(count):
        outcome = run_case(draw_case(game, "deals", 0, index))
        if outcome.finding is not None:
            return outcome.finding.message
    return None


def test_barred_silent_a_bar_the_log_lays_but_the_table_forgets_is_caught(monkeypatch) -> None:
    """GD-2.2 / GD-2.3.1 禁出一手: the bar's event is logged, the table does not keep it — the
    view after the batch shows fewer bars than the log says."""
    bar = restrictions.bar

    def forgetful(deal, seat, reason, scope):
        bar(deal, seat, reason, scope)
        scopes = deal.table.bars[seat]
        scopes.pop()
        if not scopes:
            del deal.table.bars[seat]

    assert _finding("guandan", 30) is None
    monkeypatch.setattr(restrictions, "bar", forgetful)
    message = _finding("guandan", 30)
    assert message is not None and message.startswith("[barred_silent] the log leaves bars"), message


def test_barred_silent_a_declaration_bar_the_table_forgets_is_caught(monkeypatch) -> None:
    """双升: the loss of the right to declare is logged, the table does not keep it."""
    bar_declaration = declaration.bar_declaration

    def forgetful(deal, seat, reason):
        bar_declaration(deal, seat, reason)
        deal.declare_barred.discard(seat)

    assert _finding("shengji", 40) is None
    monkeypatch.setattr(declaration, "bar_declaration", forgetful)
    message = _finding("shengji", 40)
    assert message is not None and message.startswith("[barred_silent]"), message


ENGINE_READS = frozenset({"rules", "stream"})
"""What a checker may read of the engine itself (its configuration and the deal number)."""
DEAL_FACTS = frozenset({
    "table", "hands", "sizes", "hand_size", "hand", "card_locations", "card_counts", "stock", "drawn", "played",
    "tricks", "current_deal", "deal_numbered", "previous_deal", "lead_options", "option_asked", "lead_count",
    "designation", "oot", "turns", "scheduled", "procedure_of", "tribute_plan", "awaiting_ruling",
    "game_phase", "attackers_points", "declaration", "level_texts"})
"""Attributes of a deal, a match or the refereed state that hold the facts the view shows (no
view field has these names)."""
DEAL_HELPERS = frozenset({"deal_of", "deal_of_event", "table_of", "census", "_census"})
"""Functions that hand a checker the deal or its state, or count its cards, outside the view."""
PROCEDURE_EVENTS = frozenset({"gd.next_deal_scheduled", "gd.tribute_due", "gd.play_started"})
"""Events a checker would follow the next-deal procedure by (it reads ``procedure``, ``setup``,
``tribute`` and ``round.first_leader`` of the view); the effects' correspondence
(``carried_out``, and the window it is handed) matches a ruling's listed effects to the events
that carried them out, which is what that invariant is about."""


def _engine_reads(source: str, *, procedure_events: bool = True) -> list[tuple[int, str]]:
    """Where the source reads the table off the engine or its deal."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute):
            base = node.value
            on_engine = (isinstance(base, ast.Name) and base.id == "engine") or (
                isinstance(base, ast.Attribute) and base.attr == "engine")
            if on_engine and node.attr not in ENGINE_READS:
                found.append((node.lineno, f"engine.{node.attr}"))
            elif node.attr in DEAL_FACTS:
                found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Name) and node.id in DEAL_HELPERS:
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.ImportFrom) and any(a.name in DEAL_HELPERS for a in node.names):
            found.append((node.lineno, f"import {node.module}"))
        elif isinstance(node, ast.FunctionDef) and node.name in DEAL_HELPERS:
            found.append((node.lineno, f"def {node.name}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" and (
                isinstance(node.args[0], ast.Name) and node.args[0].id == "engine"):
            found.append((node.lineno, "getattr(engine, ...)"))
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id == "engine" and (
                any(isinstance(t, ast.Name) for t in node.targets)):
            found.append((node.lineno, "engine under another name"))
        elif procedure_events and isinstance(node, ast.Constant) and node.value in PROCEDURE_EVENTS:
            found.append((node.lineno, node.value))
    return sorted(found)


def test_no_checker_reads_the_table_off_the_engine() -> None:
    offending = {name: _engine_reads((ENFORCEMENT / name).read_text(encoding="utf-8"),
                                     procedure_events=name == "guandan_invariants.py")
                 for name in READERS}
    assert {name: lines for name, lines in offending.items() if lines} == {}


def test_the_scan_finds_the_checkers_old_reads_of_the_engine() -> None:
    """Not empty-handed by construction: the checkers' old reads (before they asked the view)
    are found, each."""
    old = """
from guandan.refereed.state import table_of
deal = deal_of(engine)
counts = _census(deal)
hand = deal.hands[seat]
if sum(hand) != deal.sizes[seat]: pass
t = deal.table
held = list(deal.hands[e.seat])
r = table_of(deal).restriction
asked = t.option_asked.get(seat) == t.lead_count
d = t.designation
oot = t.oot
waiting = [o.restricted for o in t.lead_options]
result = engine.deal.result
numbered = getattr(engine, "deal_numbered", None)
if kind == "gd.next_deal_scheduled": log.scheduled = e
if kind == "gd.tribute_due": self._tribute_due(log, e)
"""
    found = [what for _, what in _engine_reads(old)]
    assert found == [
        "import guandan.refereed.state", "deal_of", "_census", "hands", "sizes", "table", "hands", "table_of",
        "lead_count", "option_asked", "designation", "oot", "lead_options", "engine.deal",
        "getattr(engine, ...)", "gd.next_deal_scheduled", "scheduled", "gd.tribute_due"], found
    assert _engine_reads("x = view.seats[seat].holding\nn = engine.stream.deal\nr = engine.rules") == []


def test_GD_2_3_1_a_lead_the_restriction_forbids_offered_is_caught(monkeypatch) -> None:
    """GD-2.3.1: the table offers every lead although a lead restriction is in force — the
    restriction the checker reads off the view (``GuandanSeat.restriction``) catches it."""
    monkeypatch.setattr(restrictions, "lead_filter", lambda deal, seat, moves: moves)
    message = _finding("guandan", 5)
    assert message is not None and message.startswith("[restrictions_obeyed] seat 1 may lead H7 D7 (PAIR 7) "
                                                      "against (1, 'require', 'SINGLE')"), message


def test_GD_6_penalty_cards_not_offered_are_caught(monkeypatch) -> None:
    """GD-6: the table never offers the penalty cards (罚张) — the penalty cards in the view catch it."""
    monkeypatch.setattr(restrictions, "penalty_moves", lambda deal, seat, top: [])
    message = _finding("guandan", 5)
    assert message is not None and message.startswith("[penalty_cards_offered] seat 0 holds penalty cards "
                                                      "H2 S7 H7 C7"), message


def test_GD_5_a_procedure_the_table_forgets_is_caught(monkeypatch) -> None:
    """GD-5.1 / 5.2: the ruling schedules the next deal's procedure (the log says so), the
    match forgets it and draws the next deal the usual way — the procedure the view says the
    deal was drawn under (none) is not what the 单下 or 双下 calls for."""
    schedule = Match.set_next_deal

    def forgetful(self, **kw):
        schedule(self, **kw)
        self.scheduled = None

    monkeypatch.setattr(Match, "set_next_deal", forgetful)
    message = _finding("guandan", 7)
    # the first such case of these: a 单下 (GD-5.1) — a 双下 (GD-5.2) is caught alike
    assert message is not None and re.match(
        r"\[next_deal_procedure\] (side \d was judged 双下|seats \[\d(, \d)*\] were judged 单下) in deal 1; "
        r"deal 2 is drawn as usual", message), message


def test_GD_5_2_a_procedure_the_draw_ignores_is_caught(monkeypatch) -> None:
    """GD-5.2: the match keeps the procedure, the draw ignores its cutter and first drawer —
    the deal's set-up in the view differs from the procedure it was drawn under."""
    drawn = Deal.drawn.__func__

    def careless(cls, *args, **kw):
        kw["cutter"] = kw["first_drawer"] = None
        return drawn(cls, *args, **kw)

    monkeypatch.setattr(Deal, "drawn", classmethod(careless))
    message = _finding("guandan", 7)
    assert message is not None and message.startswith("[next_deal_procedure] cutter is seat "), message


def test_a_card_the_shengji_table_loses_is_caught(monkeypatch) -> None:
    """双升: a play loses one more card of the seat's hand (its count follows) — the census
    in the view is short of it."""
    apply = ShengjiDeal.apply

    def leaky(self, action):
        out = apply(self, action)
        if type(action).__name__ == "Play" and self.hand_size[action.seat] > 3:
            hand = self.hands[action.seat]
            hand[next(i for i, n in enumerate(hand) if n)] -= 1
            self.hand_size[action.seat] -= 1
        return out

    monkeypatch.setattr(ShengjiDeal, "apply", leaky)
    message = _finding("shengji", 2)
    assert message is not None and message.startswith("[cards_conserved] cards off after the last events:"), message
