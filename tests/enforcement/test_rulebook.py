"""The rulebook covers the clause catalogue (/work/shared/rules/enforcement.md where the workspace mounts it) clause by clause, with the seed texts."""

import inspect
import json
import re
from pathlib import Path

import attrs
import pytest

import enforcement.rulebook as rulebook_module
from enforcement import (
    FALLBACK, RULEBOOK, AdjustedScore, Choice, LevelDiffPenalty, PointPenalty,
    RandomDraw, Redeal, Sanction, SanctionRule, TableEffect, UnknownClause, WarningSanction,
    children, clause, clauses_for, fallback_clause, matching, rules_table, triggered_by,
)
from enforcement.rulebook import key_source
from tabletop.effects import kinds
from tabletop.games import table_effect_kinds
from tabletop.errors import OptionError, PaijuError

SHARED = Path("/work/shared")
CATALOGUE = SHARED / "rules" / "enforcement.md"
SEEDS = {"guandan": SHARED / "seeds" / "000_579f032823037ada.txt",
         "shengji": SHARED / "seeds" / "001_19b0fbd0e8771a9b.txt"}

ID = r"(?:GD|SJ)-\d+(?:\.\d+)*[a-z]?"
RANGE = re.compile(r"\b((?:GD|SJ)-(?:\d+\.)*)(\d+)\s*–\s*(?:(?:GD|SJ)-)?(?:\d+\.)*(\d+)\b")
ENUMERATED = re.compile(r"[:;] (\d) ")

needs_catalogue = pytest.mark.skipif(not CATALOGUE.exists(), reason="the clause catalogue /work/shared/rules is not mounted")


def catalogue_ids() -> set[str]:
    """Every clause id enforcement.md names: plain ids, ranges ('SJ-2.3 – SJ-2.11',
    'SJ-3.1.8 – 3.1.9') and numbered sub-items of a bullet ('SJ-3.1.10 …: 1 …; 2 …')."""
    text = CATALOGUE.read_text(encoding="utf-8")
    ids = set(re.findall(rf"\b{ID}\b", text))
    for prefix, first, last in RANGE.findall(text):
        ids.update(f"{prefix}{n}" for n in range(int(first), int(last) + 1))
    for item in _bullets(text):
        head = re.match(rf"(?:\*\*)?({ID})\b", item)
        if head:
            numbers = ENUMERATED.findall(item)
            if numbers and numbers[0] == "1":
                ids.update(f"{head.group(1)}.{n}" for n in numbers)
    return ids


def _bullets(text: str) -> list[str]:
    items: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("- "):
            items.append(stripped[2:])
        elif stripped and items and line.startswith(" ") and not stripped.startswith("#"):
            items[-1] += " " + stripped
        elif not stripped or stripped.startswith("#"):
            items.append("")
    return items


@needs_catalogue
def test_every_catalogue_id_is_a_rulebook_entry_and_nothing_else():
    expected = catalogue_ids()
    assert set(RULEBOOK) == expected, (
        f"missing: {sorted(expected - set(RULEBOOK))}; extra: {sorted(set(RULEBOOK) - expected)}")


@needs_catalogue
def test_catalogue_parsing_handles_ranges_and_enumerated_sub_items():
    ids = catalogue_ids()
    assert {f"SJ-2.{n}" for n in range(3, 12)} <= ids
    assert {"SJ-3.1.8", "SJ-3.1.9", "SJ-3.0", "GD-1.1.3a", "GD-1.1.3b"} <= ids
    assert {"SJ-3.1.10.1", "SJ-3.1.10.4", "SJ-3.1.11.3", "SJ-3.1.12.1", "SJ-3.1.12.3"} <= ids
    assert "SJ-3.1.10.5" not in ids and "SJ-3.1.11.4" not in ids


def test_clause_counts_per_game():
    assert len(clauses_for("guandan")) == 43
    assert len(clauses_for("shengji")) == 57
    assert len(RULEBOOK) == 100


def test_each_id_is_written_exactly_once_as_data():
    source = inspect.getsource(rulebook_module)
    for cid in RULEBOOK:
        assert source.count(f'id="{cid}"') == 1, cid
    assert source.count("Clause(\n        id=") == len(RULEBOOK)


def test_ids_are_unique_and_keys_match():
    ids = [c.id for c in rulebook_module._CLAUSES]
    assert len(ids) == len(set(ids))
    assert all(RULEBOOK[k].id == k for k in RULEBOOK)
    with pytest.raises(ValueError, match="twice"):
        rulebook_module._index([RULEBOOK["GD-6"], RULEBOOK["GD-6"]])


@pytest.mark.parametrize("cid", list(RULEBOOK))
def test_entry_is_complete(cid):
    c = RULEBOOK[cid]
    assert c.game == ("guandan" if cid.startswith("GD-") else "shengji")
    assert c.title.strip() and c.summary.strip()
    assert c.text_zh.strip() or c.project_default
    assert c.trigger.key and c.trigger.text.strip()
    assert {key_source(k) for k in c.trigger.keys} <= {"irregularity", "report", "ruling", "ledger", "standing",
                                                       "unresolved", "section"}
    assert len(set(c.trigger.keys)) == len(c.trigger.keys)
    assert c.heading == (c.trigger.key == "section")
    assert isinstance(c.sanction, SanctionRule) and c.sanction.describe()
    for step in c.sanction.steps:
        assert all(isinstance(s, Sanction) for s in step)
    assert set(c.rectification.effects) <= set(table_effect_kinds())
    assert c.rectification.text.strip()
    if c.heavy is not None:
        assert c.game == "shengji"


@needs_catalogue
@pytest.mark.parametrize("cid", [cid for cid, c in RULEBOOK.items() if c.text_zh])
def test_text_zh_is_copied_from_the_seed(cid):
    c = RULEBOOK[cid]
    seed = SEEDS[c.game].read_text(encoding="utf-8")
    for piece in re.split(r"……|\n", c.text_zh):
        assert piece and piece in seed, f"{cid}: {piece!r} is not in the seed"


def test_parents_and_refs_name_existing_clauses_of_the_same_game():
    for c in RULEBOOK.values():
        if c.parent is not None:
            parent = RULEBOOK[c.parent]
            assert parent.game == c.game
            assert c.id.startswith(parent.id + ".") or c.id.startswith(parent.id), c.id
        else:
            assert re.fullmatch(r"(GD|SJ)-\d+", c.id), c.id
        for ref in c.refs:
            assert RULEBOOK[ref].game == c.game and ref != c.id


def test_clauses_are_in_catalogue_order_with_parents_first():
    seen: set[str] = set()
    for c in RULEBOOK.values():
        assert c.parent is None or c.parent in seen, c.id
        seen.add(c.id)


def test_headings_only_group():
    headings = {c.id for c in RULEBOOK.values() if c.heading}
    assert headings == {"GD-1", "GD-2", "GD-3", "GD-4", "GD-5", "SJ-3"}
    for cid in headings:
        assert children(cid) and not RULEBOOK[cid].sanction.steps


def test_GD_2_1_ladder_warning_then_one_then_two_levels():
    rule = clause("GD-2.1").sanction
    assert rule.per == "player" and rule.escalates
    assert rule.for_occurrence(1) == (WarningSanction(),)
    assert rule.for_occurrence(2) == (LevelDiffPenalty(1),)
    assert rule.for_occurrence(3) == rule.for_occurrence(7) == (LevelDiffPenalty(2),)
    assert rule.describe() == ("1st: Warning; 2nd: LevelDiffPenalty(1); 3rd+: LevelDiffPenalty(2) "
                               "(per player, per match)")
    with pytest.raises(ValueError):
        rule.for_occurrence(0)


def test_GD_1_2_2_ladder_is_per_table_and_to_both_sides():
    rule = clause("GD-1.2.2").sanction
    assert (rule.per, rule.to) == ("table", "both_sides")
    assert rule.for_occurrence(1) == (WarningSanction(),)
    assert rule.for_occurrence(2) == rule.for_occurrence(5) == (LevelDiffPenalty(1),)


def test_SJ_1_6_warning_from_the_second_time_on():
    rule = clause("SJ-1.6").sanction
    assert rule.for_occurrence(1) == () and rule.for_occurrence(2) == (WarningSanction(),)
    assert clause("SJ-1.6").rectification.effects == ("LotsDraw",)


def test_SJ_point_penalty_clauses_cost_ten():
    for c in clauses_for("shengji"):
        if c.id.startswith("SJ-3.1"):
            assert c.sanction.for_occurrence(1) == (PointPenalty(10),), c.id


def test_SJ_heavy_and_light_pairs_of_clauses():
    assert clause("SJ-1.3").heavy is False and clause("SJ-3.1.3").heavy is True
    assert clause("SJ-1.8").heavy is False and clause("SJ-3.1.6").heavy is True
    assert clause("SJ-1.4").heavy is False and clause("SJ-3.1.12.1").heavy is True
    assert "SJ-3.1.3" in clause("SJ-3.1.10.4").refs and "SJ-3.1.3" in clause("SJ-3.1.11.3").refs


def test_SJ_2_3_to_2_11_follow_the_seed_items_in_order():
    seed_items = ["（三）", "（四）", "（五）", "（六）", "（七）", "（八）", "（九）", "（十）", "（十一）"]
    for n, label in zip(range(3, 12), seed_items):
        assert clause(f"SJ-2.{n}").text_zh.startswith(label)


def test_project_default_clauses():
    pd_only = {c.id for c in RULEBOOK.values() if c.project_default}
    assert pd_only == {"SJ-3.0", "SJ-3.1.12.3", "SJ-3.2"}
    assert all(RULEBOOK[cid].pd for cid in pd_only)


def test_reported_clauses_come_only_from_reports():
    assert clause("GD-2.1").reported and clause("SJ-1.2").reported and clause("SJ-2.6").reported
    assert not clause("GD-2.3.1").reported and not clause("SJ-2.1").reported
    assert clause("SJ-2.1").trigger.source == "ledger"


def test_fallback_clauses_give_an_adjusted_score():
    assert dict(FALLBACK) == {"guandan": "GD-2.5", "shengji": "SJ-3.0"}
    for game in ("guandan", "shengji"):
        assert fallback_clause(game).sanction.for_occurrence(1) == (AdjustedScore(),)
    assert triggered_by("unresolved") == [clause("GD-2.5"), clause("SJ-3.0")]


def test_clause_lookup_errors_name_the_id_and_suggest():
    with pytest.raises(KeyError) as info:
        clause("GD-2.3.9")
    assert isinstance(info.value, PaijuError)
    assert "GD-2.3.9" in str(info.value) and "GD-2.3.1" in str(info.value)
    assert clause("gd-2.3.1") is RULEBOOK["GD-2.3.1"]


def test_matching_globs_and_lists():
    assert [c.id for c in matching("GD-4.2.*")] == [f"GD-4.2.{n}" for n in range(1, 6)]
    assert [c.id for c in matching("GD-2.3.1,GD-4.2.*")][0] == "GD-2.3.1"
    assert [c.id for c in matching(["SJ-3.1.1?.*"])][:1] == ["SJ-3.1.10.1"]
    assert len(matching("SJ-*")) == 57
    assert [c.id for c in matching("GD-4.2.1, GD-4.2.1")] == ["GD-4.2.1"]
    with pytest.raises(UnknownClause, match="GD-9"):
        matching("GD-2.3.1,GD-9.*")


def test_clauses_for_unknown_game_is_an_option_error():
    with pytest.raises(OptionError, match="bridge"):
        clauses_for("bridge")


def test_triggers_of_leaves_are_distinct_within_a_game():
    for game in ("guandan", "shengji"):
        keys = [k for c in clauses_for(game) if not c.heading and not children(c.id) for k in c.trigger.keys]
        assert len(keys) == len(set(keys)), game


def test_clause_to_dict_is_plain_json():
    for c in RULEBOOK.values():
        data = json.loads(json.dumps(c.to_dict(), ensure_ascii=False))
        assert data["id"] == c.id and data["sanction"]["describe"] == c.sanction.describe()


def test_rules_table_lists_every_clause_in_order():
    for game in ("guandan", "shengji"):
        rows = rules_table(game)
        assert [r[0] for r in rows] == [c.id for c in clauses_for(game)]
        assert all(len(r) == 3 and all(isinstance(x, str) and x for x in r) for r in rows)
    row = dict((r[0], r) for r in rules_table("guandan"))["GD-2.1"]
    assert "[reported]" in row[1] and row[2].startswith("1st: Warning")



def test_every_clause_can_fire_automatically_or_says_why_not():
    for c in RULEBOOK.values():
        assert c.not_automatic is None or (isinstance(c.not_automatic, str) and c.not_automatic.strip()), c.id
        assert c.to_dict()["not_automatic"] == c.not_automatic
    # Reported incidents are injected too (enforcement.injector, shengji_infractions): today no
    # clause needs a reason; the fuzzer's coverage table and the README say so.
    assert [c.id for c in RULEBOOK.values() if c.not_automatic] == []


def _with_reason(monkeypatch, cid, reason):
    import enforcement.listing as listing

    real = clauses_for("guandan")
    monkeypatch.setattr(listing, "clauses_for",
                        lambda game: [attrs.evolve(c, not_automatic=reason if c.id == cid else None) for c in real])


def test_rules_table_marks_a_clause_that_cannot_fire_automatically(monkeypatch):
    _with_reason(monkeypatch, "GD-7", "only a human sees it")
    rows = {r[0]: r for r in rules_table("guandan")}
    assert rows["GD-7"][1].endswith("[not automatic]")
    assert not any("[not automatic]" in r[1] for cid, r in rows.items() if cid != "GD-7")


def test_paiju_rules_lists_every_clause_with_its_marks_and_reasons(monkeypatch, capsys):
    from paiju.cli import main

    assert main(["rules", "guandan"]) == 0
    out = capsys.readouterr().out
    assert "guandan: 43 clauses" in out and "[reported]" in out and "not automatic" not in out
    _with_reason(monkeypatch, "GD-7", "only a human sees it")
    assert main(["rules", "guandan"]) == 0
    out = capsys.readouterr().out
    assert "[not automatic]" in out and "[not automatic] GD-7: only a human sees it" in out


def test_paiju_rules_clause_shows_its_trigger_keys_and_allowed_effects(capsys):
    from paiju.cli import main

    assert main(["rules", "shengji", "--clause", "sj-3.1.10.4"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "SJ-3.1.10.4" in out and "irregularity:lead_before_trick_complete/heavy_on_partners_lead" in out
    assert "allowed effects: Return, Expose, RestoreOrder" in out and "罚分 10 (10 points to the other side)" in out
    assert main(["rules", "shengji", "--clause", "GD-2.3.1"]) == 2
    assert "a guandan clause" in capsys.readouterr().err

SAMPLES = [
    PointPenalty(10), LevelDiffPenalty(2), WarningSanction(), AdjustedScore(levels=1, note="x"),
    RandomDraw(0, 1, count=2),
    Choice(1, (RandomDraw(0, 1), Redeal())),
]


@pytest.mark.parametrize("record", SAMPLES, ids=str)
def test_sanctions_and_effects_round_trip_through_json(record):
    family = Sanction if isinstance(record, Sanction) else TableEffect
    data = json.loads(json.dumps(record.to_dict()))
    assert family.from_dict(data) == record
    assert type(record).from_dict(data) == record


def test_point_penalty_plain_form():
    assert PointPenalty(10).to_dict() == {"kind": "PointPenalty", "n": 10}
    assert str(PointPenalty(10)) == "PointPenalty(10)" and str(WarningSanction()) == "Warning"
    with pytest.raises(ValueError, match="not a PointPenalty kind"):
        PointPenalty.from_dict({"kind": "Warning"})
    with pytest.raises(ValueError, match="positive"):
        PointPenalty(0)


def test_every_registered_kind_builds_and_round_trips():
    from types import SimpleNamespace

    from guandan.refereed import effects as gd
    from shengji.refereed import effects as sj
    from tabletop import effects as shared
    s = SimpleNamespace(**{**vars(shared), **{n: getattr(m, n) for m in (gd, sj) for n in dir(m) if n[:1].isupper()}})
    examples = {
        "Return": s.Return("SA H3", seat=1), "Expose": s.Expose(["BJ"], seat=0),
        "PenaltyCards": s.PenaltyCards("S3 S3", seat=2), "BarOnePlay": s.BarOnePlay(3),
        "LeadOption": s.LeadOption(1, 2, "PAIR"), "RandomDraw": s.RandomDraw(None, 2),
        "Redeal": s.Redeal(fresh_deck=True), "NextDealProcedure": s.NextDealProcedure.after_double_last(1),
        "NoTributeNextDeal": s.NoTributeNextDeal(0), "Replay": s.Replay([3, 1]),
        "RestoreOrder": s.RestoreOrder(2), "CorrectPlay": s.CorrectPlay(0),
        "CorrectFollow": s.CorrectFollow(1), "RedoTribute": s.RedoTribute(2),
        "RedoReturn": s.RedoReturn(3), "RedoBury": s.RedoBury(0), "ReportAgain": s.ReportAgain(1),
        "LotsDraw": s.LotsDraw([2, 0]), "DeclarationStands": s.DeclarationStands(2), "PlayStands": s.PlayStands(1), "PassSequence": s.PassSequence(0, (1, 2, 3), "offender_leads"), "LoseDeclarationRight": s.LoseDeclarationRight(0),
        "UnauthorisedInformation": s.UnauthorisedInformation([1], "SK"),
        "Choice": s.Choice(0, [{"kind": "Redeal", "fresh_deck": False}], may_decline=True),
        "Warning": s.WarningSanction(), "RecordedViolation": s.RecordedViolation(),
        "PointPenalty": s.PointPenalty(10), "LevelDiffPenalty": s.LevelDiffPenalty(1),
        "ForcedLast": s.ForcedLast(), "ForcedDoubleLast": s.ForcedDoubleLast(),
        "MatchLoss": s.MatchLoss(), "Suspension": s.Suspension(note="reported"),
        "AdjustedScore": s.AdjustedScore(),
    }
    assert set(examples) == set(kinds(Sanction)) | set(table_effect_kinds())
    for kind, record in examples.items():
        assert record.KIND == kind
        family = Sanction if isinstance(record, Sanction) else TableEffect
        assert family.from_dict(json.loads(json.dumps(record.to_dict()))) == record


def test_card_fields_are_canonical_multisets():
    from tabletop.effects import Expose, Return
    from guandan.refereed.effects import NextDealProcedure
    assert Return("SA H3 SA", seat=1) == Return(["H3", "SA", "SA"], seat=1)
    assert Expose("HA BJ").cards == ("HA", "BJ")
    assert NextDealProcedure.after_double_last(3) == NextDealProcedure(3, 0, 1, 2)
    with pytest.raises(ValueError):
        Return("S1")
    with pytest.raises(ValueError, match="seat"):
        Return("SA", seat=4)
