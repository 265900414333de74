"""The ceiling of interaction coverage (issue 17 item 2): the pairs marked impossible, each
kind of reason checked on fuzzed deals, and the pairs left possible but unseen shown to be
within the injectors' reach.

Three kinds of reason mark a pair impossible: a rule of the game's order written out by hand
(``IMPOSSIBLE`` of ``enforcement.guandan_interactions`` / ``shengji_interactions``: "tribute is done before the first
play"), the stages of a condition and of one of the game's own happenings that never meet
(``condition_stages``, ``happening_stages``), and the stages of a condition and of the
irregularities a clause rules on that never meet (the irregularity records' ``stages``, the
clause's triggers). The deals below record, batch by batch, the stage each condition was in force in
and each happening and irregularity arose in, and check the tables against them."""

from __future__ import annotations

from collections import defaultdict

import attrs
import pytest

from enforcement.injector import catalogue_for
from enforcement.rulebook import clauses_for
from paiju.fuzz.case import Case, draw_case, run_case
from paiju.fuzz.interactions import RULING, Matrix, Recorder, ruling_stages, stage_impossible

GAMES = ("guandan", "shengji")
CASES = 60


class StageRecorder(Recorder):
    """A ``Recorder`` that also notes the stage (``Interactions.phase``) each condition was in
    force in, and the stage read before the batch each happening and irregularity arose in."""

    def __init__(self, game: str) -> None:
        super().__init__(game)
        self.condition_stages: dict[str, set[str]] = defaultdict(set)
        self.happening_stages: dict[str, set[str]] = defaultdict(set)
        self.irregularity_stages: dict[str, set[str]] = defaultdict(set)
        self._stage: str | None = None

    def on_events(self, engine, events):
        for e in events:
            if e.KIND.endswith(".deal_started"):
                self._stage = None                  # what follows in this batch meets no condition
                continue
            if self._stage is None:
                continue
            if e.KIND.endswith(".irregular"):
                self.irregularity_stages[e.irregularity].add(self._stage)
            happening = RULING + e.clause if e.KIND == "ref.ruling" else self.spec.happening_of(e)
            if happening is not None:
                self.happening_stages[happening].add(self._stage)
        super().on_events(engine, events)
        self._stage = self.spec.phase(engine)
        for condition in self._in_force:
            self.condition_stages[condition].add(self._stage)


def _hot(case: Case, index: int) -> Case:
    """Every kind of the catalogue at once (the few-chances ones often), and one case in two
    the first two deals of a match (tribute, a known banker): many conditions together."""
    catalogue = catalogue_for(case.game)
    rates = tuple((k, 0.5 if k in catalogue.few_chances else 0.06) for k in catalogue.kinds)
    if index % 2:
        return attrs.evolve(case, rates=rates, unit="matches", max_deals=2)
    return attrs.evolve(case, rates=rates)


@pytest.fixture(scope="module")
def played():
    """Per game: the recorders of CASES fuzzed cases, drawn and hot (played without the
    invariant checker, which plays the same deals: these tests read only the stages recorded)."""
    out = {}
    for game in GAMES:
        recorders = []
        for index in range(CASES):
            case = draw_case(game, "deals", 23, index)
            recorder = StageRecorder(game)
            run_case(_hot(case, index) if index % 3 else case, [recorder], checked=False)
            recorders.append(recorder)
        out[game] = recorders
    return out


def _union(recorders, attribute):
    out: dict[str, set[str]] = defaultdict(set)
    for recorder in recorders:
        for key, stages in getattr(recorder, attribute).items():
            out[key] |= stages
    return out


def _pairs(recorders):
    return set().union(*(r.pairs for r in recorders))


@pytest.mark.parametrize("game", GAMES)
def test_pairs_marked_by_the_games_order_never_arise(game, played):
    matrix = Matrix(game)
    hand_marked = set(matrix.spec.impossible)
    assert hand_marked and hand_marked <= set(matrix.impossible)
    assert not hand_marked & _pairs(played[game])
    assert len(_pairs(played[game])) > 150


@pytest.mark.parametrize("game", GAMES)
def test_conditions_and_happenings_arise_only_in_their_stages(game, played):
    spec = Matrix(game).spec
    held = _union(played[game], "condition_stages")
    arose = _union(played[game], "happening_stages")
    assert {c: s for c, s in held.items() if c in spec.condition_stages and not s <= set(spec.condition_stages[c])} == {}
    assert {h: s for h, s in arose.items()
            if h in spec.happening_stages and not s <= set(spec.happening_stages[h])} == {}
    # the tables are not vacuous: most stage-bound conditions and happenings were met, in a stage they name
    assert len(set(held) & set(spec.condition_stages)) >= len(spec.condition_stages) // 2
    assert len(set(arose) & set(spec.happening_stages)) >= len(spec.happening_stages) // 2
    marked = {pair for pair in stage_impossible(spec, ()) if pair not in spec.impossible}
    assert marked and not marked & _pairs(played[game])


@pytest.mark.parametrize("game", GAMES)
def test_rulings_follow_only_the_stages_of_their_clauses_irregularities(game, played):
    spec = Matrix(game).spec
    clauses = {c.id: c for c in clauses_for(game) if not c.heading}
    arose = _union(played[game], "irregularity_stages")
    records = spec.irregularities
    assert {i: s for i, s in arose.items()
            if i in records and records[i].stages and not s <= set(records[i].stages)} == {}
    ruled = {h: s for h, s in _union(played[game], "happening_stages").items() if h.startswith(RULING)}
    wrong = {}
    for happening, stages in ruled.items():
        allowed = ruling_stages(spec, clauses[happening[len(RULING):]])
        if allowed is not None and not stages <= set(allowed):
            wrong[happening] = stages
    assert wrong == {}
    assert len(ruled) > 15
    by_rulings = {pair for pair in stage_impossible(spec, list(clauses.values()))
                  if pair[1].startswith(RULING) and pair not in spec.impossible}
    assert by_rulings and not by_rulings & _pairs(played[game])


@pytest.mark.parametrize("game", GAMES)
def test_unseen_pairs_left_possible_are_within_reach(game, played):
    """A pair neither seen nor marked is plausible: its condition was in force, in the deals
    above, in a stage where its happening can arise — by the stage tables the tests above
    check, a ruling by the stages of what its clause rules on (a reported incident, which an
    injector may report whenever a seat may act: any stage) — and the injectors commit what
    its clause rules on."""
    matrix = Matrix(game)
    spec = matrix.spec
    matrix.add(_pairs(played[game]))
    unseen = matrix.unseen()
    assert unseen and len(unseen) < matrix.possible
    held = _union(played[game], "condition_stages")
    clauses = {RULING + c.id: c for c in clauses_for(game) if not c.heading}
    committed = {i for kinds in catalogue_for(game).commits.values() for i in kinds}
    everywhere = set(spec.stages)
    sample = [pair for i, pair in enumerate(unseen) if i % 5 == 0 and pair[0] in held]
    assert len(sample) >= 10
    implausible = []
    for condition, happening in sample:
        clause = clauses.get(happening)
        if clause is None:
            stages = set(spec.happening_stages.get(happening, everywhere))
        else:
            stages = set(ruling_stages(spec, clause) or everywhere)
            named = {k.partition(":")[2].split("/")[0] for k in clause.trigger.keys if k.startswith("irregularity:")}
            if named and not named & committed:
                stages = set()                      # no injector commits what the clause rules on
        if not stages & held[condition]:
            implausible.append((condition, happening, sorted(held[condition]), sorted(stages)))
    assert len(implausible) <= len(sample) // 4, implausible


def test_guandan_marks_by_hand_are_not_vacuous(played):
    """掼蛋's hand-written marks (but those of the clauses no ruling cites, below) pair
    conditions and happenings that both arise in the deals above, only never together: most
    marked pairs' condition was in force, and their happening arose, under some other condition."""
    from enforcement.guandan_interactions import _DECIDED_BY_SUB_CLAUSES

    matrix = Matrix("guandan")
    pairs = _pairs(played["guandan"])
    held = {c for c, _ in pairs}
    arose = {h for _, h in pairs}
    uncited = {RULING + c for c in _DECIDED_BY_SUB_CLAUSES}
    hand_marked = {(c, h) for c, h in matrix.spec.impossible if h not in uncited}
    both_met = {(c, h) for c, h in hand_marked if c in held and h in arose}
    assert len(both_met) >= len(hand_marked) // 2
    assert not both_met & pairs


def test_guandan_clauses_divided_by_sub_clauses_are_never_cited(played):
    """The clauses marked as decided by their sub-clauses have sub-clauses in the rulebook,
    and no ruling of the deals above cites them, while their sub-clauses are cited."""
    from enforcement.guandan_interactions import _DECIDED_BY_SUB_CLAUSES

    ids = {c.id for c in clauses_for("guandan") if not c.heading}
    arose = {h for _, h in _pairs(played["guandan"])}
    for clause in _DECIDED_BY_SUB_CLAUSES:
        subs = {i for i in ids if i.startswith(clause + ".")}
        assert len(subs) >= 2, clause
        assert RULING + clause not in arose
    cited = {h[len(RULING):] for h in arose if h.startswith(RULING)}
    assert {"GD-2.2.1", "GD-2.3.1", "GD-2.4.1", "GD-4.2.1"} <= cited


def test_penalty_cards_count_as_gd6(played):
    """GD-6 fires through the table's events (no ruling cites it): the matrix pairs it with
    the conditions in force when cards become penalty cards or their play is designated."""
    pairs = _pairs(played["guandan"])
    marked = {c for c, h in pairs if h == "penalty_cards_marked"}
    gd6 = {c for c, h in pairs if h == RULING + "GD-6"}
    assert marked and marked <= gd6
    assert not any(h == RULING + "GD-6" for _, h in _pairs(played["shengji"]))
