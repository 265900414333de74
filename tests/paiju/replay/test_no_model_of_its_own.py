"""The replay has no model of the table of its own: every card, bar, flag, level and point
of a frame is the engine's view (``GameSpec.table_view``) after the step's action, and no
module of ``paiju.replay`` moves a card or keeps a table fact from the events."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from paiju.replay.fold import Fold
from paiju.replay.html import page_data
from paiju.replay.rerun import views
from tabletop.cards import Card
from tabletop.games import game_spec
from tabletop.log import read_log
from tests.paiju.replay.test_html import merge
from tests.paiju.replay.test_view import GOLDEN

REPLAY = Path(__file__).resolve().parents[3] / "paiju" / "replay"
TABLE_FACTS = {"hand", "hands", "exposed", "penalty", "on_table", "announced", "place", "finish", "barred",
               "restriction", "lead_options", "exposures", "choosing", "kitty", "kitty_owner", "kitty_public",
               "trump", "trump_known", "banker", "points", "adjustment", "levels", "phase", "seats"}
"""Names a model of the table would keep (the old replay table's)."""
MOVES = {"append", "extend", "remove", "insert", "pop", "clear", "discard", "add", "update"}

LOGS = ["golden_guandan_deal_refereed_seed3.jsonl", "golden_guandan_match_refereed_seed48.jsonl",
        "golden_shengji_deal_refereed_seed12.jsonl", "golden_shengji_match_refereed_seed10.jsonl",
        "replay_guandan_deal_seed3.jsonl", "replay_shengji_deal_seed4.jsonl"]


def _writes(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, attribute) of every write to, or in-place change of, an attribute named like a
    table fact: ``x.hand = …``, ``x.hand += …``, ``x.hand.append(…)``, ``x.seats[0] = …``."""
    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MOVES:
            targets = [node.func.value]
        for target in targets:
            while isinstance(target, ast.Subscript):
                target = target.value
            if isinstance(target, ast.Attribute) and target.attr in TABLE_FACTS:
                found.append((node.lineno, target.attr))
    return found


def test_no_module_of_the_replay_keeps_or_moves_a_table_fact() -> None:
    modules = sorted(REPLAY.glob("*.py"))
    assert len(modules) > 10
    offending = {path.name: _writes(ast.parse(path.read_text(encoding="utf-8"))) for path in modules}
    assert {name: lines for name, lines in offending.items() if lines} == {}


def test_the_check_finds_a_model_where_there_is_one() -> None:
    """The scan above is not empty-handed by construction: the old table's own moves are found."""
    old = """
seat.hand.append(c)
table.seats[s].hand = cards(hand)
table.levels = list(e.levels)
seat.exposed.extend(cs)
table.points += e.bonus
"""
    assert sorted(attr for _, attr in _writes(ast.parse(old))) == ["exposed", "hand", "hand", "levels", "points"]


def test_a_fold_keeps_no_table_fact() -> None:
    fold = Fold(read_log(GOLDEN / LOGS[0]))
    for step in fold.steps():
        pass
    kept = {name for name in vars(fold.table) if name in TABLE_FACTS}
    assert kept == set()


def _seat_part(view: Any, seat: int) -> tuple[Any, ...]:
    s = view.seats[seat]
    codes = (lambda cs: " ".join(str(Card(c)) for c in cs))
    hand = None if s.hand is None else sorted(str(c) for c in s.hand)
    return hand, s.count, codes(s.exposed), codes(s.penalty), codes(s.on_table)


@pytest.mark.parametrize("name", LOGS)
@pytest.mark.parametrize("viewer", [None, 1])
def test_every_frame_shows_the_engines_cards(name: str, viewer: int | None) -> None:
    """Each step of the page shows, seat by seat, the hand, count, exposed and penalty cards
    and the cards on the table of the engine's view after that step's action."""
    log = read_log(GOLDEN / name)
    data = page_data(log, viewer)
    after = views(log, viewer, game_spec(log.game).table_view)
    state: dict[str, Any] = {}
    checked = 0
    for frame in data["frames"]:
        state = merge(state, frame["x"])
        index = frame["n"] - 2                # the step's last event (line 1 is the header)
        event = log.events[index]
        view = after[index]
        if view is None or view.deal != event.deal:
            continue                          # the deal just over, in a match: see below
        for seat, shown in enumerate(state["seats"]):
            hand = None if shown["hand"] is None else sorted(c for _, cs in shown["hand"] for c in cs.split())
            assert (hand, shown["count"], shown["exposed"], shown["penalty"], shown["on_table"]) == \
                _seat_part(view, seat), (name, frame["l"], seat)
        checked += 1
    assert checked > len(data["frames"]) // 2
