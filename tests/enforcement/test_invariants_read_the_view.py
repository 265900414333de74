"""The invariant checkers keep no model of the table: what they know of it is the engine's
view (``GameSpec.table_view``) before and after each batch of events, and a table that
differs from what its log says fails them. No checker module keeps a table fact of its own
(an AST scan, as for the replay)."""

from __future__ import annotations

import ast
from pathlib import Path

from guandan.refereed import restrictions
from paiju.fuzz.case import draw_case, run_case
from shengji.refereed import declaration
from tests.paiju.replay.test_no_model_of_its_own import TABLE_FACTS, _writes

ENFORCEMENT = Path(__file__).resolve().parents[2] / "enforcement"
CHECKERS = ["invariants.py", "guandan_invariants.py", "shengji_invariants.py"]
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
