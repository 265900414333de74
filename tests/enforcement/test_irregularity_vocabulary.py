"""One vocabulary for irregularity ids: the engines declare the ids they emit
(``guandan.table.IRREGULARITIES``, ``shengji.table.IRREGULARITIES``), the rulebook's
triggers name exactly those ids, every id has a rulings family and a clause (or is left to
the fallback by the rulebook itself), and the clause-per-irregularity maps are derived from
the rulebook."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import guandan
import shengji
from enforcement import guandan_rulings, shengji_rulings
from enforcement.irregularities import irregularities_of
from enforcement.rulebook import (
    INCIDENT, clause, clauses_by_irregularity, clauses_for, key_irregularity, trigger_irregularities,
    unresolved_irregularities,
)
from guandan.table import IRREGULARITIES as GD_IRREGULARITIES
from shengji.table import IRREGULARITIES as SJ_IRREGULARITIES

GAMES = {
    "guandan": (GD_IRREGULARITIES, guandan_rulings, Path(guandan.__file__).parent, ("table.py", "refereed")),
    "shengji": (SJ_IRREGULARITIES, shengji_rulings, Path(shengji.__file__).parent, ("table.py", "refereed")),
}
_EMITTERS = {"attempt", "await_ruling", "found"}
"""The feature modules' helpers that record an irregularity (the deal first, the id second)."""


def _strings(node: ast.AST) -> set[str]:
    """The string constants an expression can evaluate to (a constant or a conditional of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _strings(node.body) | _strings(node.orelse)
    return set()


def emitted_ids(path: Path) -> set[str]:
    """Irregularity ids written as literals where the engine records an irregularity: an
    ``irregularity=`` keyword, the id argument of its emit/await helpers, an assignment to
    ``irregularity``. (The codes of ``illegality()`` that a refereed table records are
    declared apart, in ``guandan.legal.RECORDED``.)"""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg == "irregularity":
                    out |= _strings(kw.value)
            name = getattr(node.func, "attr", getattr(node.func, "id", None))
            if name in _EMITTERS and len(node.args) >= 3:
                out |= _strings(node.args[2])
        elif isinstance(node, ast.Assign):
            if any(isinstance(t, ast.Name) and t.id == "irregularity" for t in node.targets):
                out |= _strings(node.value)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_declares_every_irregularity_id_it_emits(game):
    declared, _, package, files = GAMES[game]
    paths = [p for f in files for p in ((package / f).rglob("*.py") if (package / f).is_dir() else [package / f])]
    emitted = set().union(*(emitted_ids(p) for p in paths))
    if game == "guandan":   # illegality() codes recorded as they are (found.code)
        from guandan.legal import RECORDED

        emitted |= RECORDED
    assert len(declared) == len(set(declared))
    assert emitted == set(declared), (sorted(emitted - set(declared)), sorted(set(declared) - emitted))


@pytest.mark.parametrize("game", GAMES)
def test_every_irregularity_id_has_a_family_and_a_clause(game):
    declared, rulings, _, _ = GAMES[game]
    assert set(rulings._FAMILIES) == set(declared)
    unresolved = set(unresolved_irregularities(game))
    for irregularity in declared:
        ruled = irregularities_of(game)[irregularity].clauses
        # a clause rules on it, or the rulebook's fallback clause names it (unresolved:ID): one or the other
        assert bool(ruled) != (irregularity in unresolved), irregularity
        assert all(clause(cid).game == game and not clause(cid).heading for cid in ruled)


@pytest.mark.parametrize("game", GAMES)
def test_every_trigger_key_names_an_id_the_engine_emits(game):
    declared, _, _, _ = GAMES[game]
    named = trigger_irregularities(game)
    assert set(named) <= set(declared), {i: named[i] for i in set(named) - set(declared)}
    for c in clauses_for(game):
        for key in c.trigger.keys:
            if key.startswith(("irregularity:", "unresolved:")):
                assert key.split(":", 1)[1].split("/", 1)[0] in declared, (c.id, key)
    assert INCIDENT in declared


@pytest.mark.parametrize("game", GAMES)
def test_the_clause_maps_are_derived_from_the_rulebook(game):
    declared, _, _, _ = GAMES[game]
    records = irregularities_of(game)
    assert {i: r.clauses for i, r in records.items()} == clauses_by_irregularity(game, declared)
    assert list(records) == list(declared)


def test_the_rulebook_speaks_the_engines_ids():
    assert clause("GD-2.3").trigger.key == "irregularity:play_out_of_turn"
    assert clause("GD-2.4.3").trigger.key == "irregularity:extra_cards"
    assert clause("GD-2.4.4").trigger.key == "irregularity:retract_play"
    assert clause("SJ-1.8").trigger.key == "irregularity:extra_card/light"
    assert key_irregularity("report:improper_manner_of_play") == INCIDENT
    assert key_irregularity("ruling:ForcedLast") is None
    # several ids set one clause off; a sub-clause with the same key takes the ruling
    assert clause("SJ-3.1.10.4").trigger.keys == ("irregularity:lead_out_of_turn/heavy_on_partners_lead",
                                                  "irregularity:lead_before_trick_complete/heavy_on_partners_lead")
    assert irregularities_of("guandan")["wrong_counts_after_draw"].clauses == ("GD-1.2", "GD-1.2.1", "GD-1.2.2")
    assert irregularities_of("guandan")["draw_out_of_turn"].clauses == ("GD-1.1.1", "GD-1.1.2", "GD-1.1.3a", "GD-1.1.3b")
    assert irregularities_of("shengji")["lead_out_of_turn"].clauses == ("SJ-3.1.10.2", "SJ-3.1.10.4")
    assert irregularities_of("shengji")["simultaneous_declaration"].clauses == ("SJ-1.6", "SJ-3.1.4")
    assert irregularities_of("guandan")[INCIDENT].clauses == ("GD-2.1", "GD-7")
    assert unresolved_irregularities("guandan") == ("pass_on_lead",)


def test_the_trainers_kinds_commit_engine_ids():
    from enforcement.injector import catalogue_for

    for game in GAMES:
        by_kind = catalogue_for(game).commits
        assert set(by_kind) == set(catalogue_for(game).kinds), game
        declared = GAMES[game][0]
        assert {i for ids in by_kind.values() for i in ids} <= set(declared), game
