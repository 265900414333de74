"""What the 掼蛋 replay says is what the table did (issue 26 item 6): real refereed deals
played from given hands (``tests.enforcement.conftest.RefTable``), their events written as a
log and replayed; each text is asserted against the events the engine emitted."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from guandan.actions import Choose, DropCard, Pass
from paiju.cli import main
from paiju.replay.fold import Fold
from tabletop.cards import Card
from tabletop.events import Event
from tabletop.log import encode, encode_event, read_log
from tests.enforcement.conftest import RefTable
from tests.paiju.replay.test_view import GD_LOG

TWO_EXPOSURES = ["S3 D6 D8 SK", "HT C5 S4 S9 H7", "S5 D7 CA HA", "S6 C8 DQ H9 HQ"]


def replayed(t: RefTable, path: Path) -> dict[int, str]:
    """The replay's text of each event of ``t``'s deal, by seq."""
    header = read_log(GD_LOG).header
    header = {**header, "options": {**header["options"], "referee": True, "report_step": True}}   # as RefTable makes its deals
    lines = [encode(header)]
    lines += [encode_event(e) for e in t.events]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    fold = Fold(read_log(path))
    return {fold.log.events[s.first].seq: s.text for s in fold.steps() if s.first == s.last}


def two_exposures_of_seat_1() -> RefTable:
    """Seat 1 drops ♥T, then ♣5 (GD-2.5 twice): two lead options of seat 0 about seat 3's
    next lead; seat 3 wins the round and leads."""
    t = RefTable(TWO_EXPOSURES)
    t.play(0, "S3", "SINGLE 3")
    t.do(DropCard(1, Card("HT")))
    t.do(DropCard(1, Card("C5")))
    t.do(Pass(1))
    t.do(Pass(2))
    t.play(3, "S6", "SINGLE 6")
    t.do(Pass(0))
    t.do(Pass(1))
    t.do(Pass(2))
    return t


def test_GD_2_3_1_the_prompt_names_the_exposure_its_choice_is_about(tmp_path: Path) -> None:
    t = two_exposures_of_seat_1()
    first = t.of("table.choice")[-1]
    assert (first.seat, first.about) == (0, 0)            # the engine asks about ♥T first
    t.do(Choose(0, "forbid"))                             # a): ♥T goes back, seat 3 may not lead a single
    t.play(3, "HQ DQ", "PAIR Q")
    t.do(Pass(0))
    t.do(Pass(1))
    t.do(Pass(2))
    second = t.of("table.choice")[-1]
    assert (second.seat, second.about) == (0, 1)          # … then about ♣5, the other exposure
    text = replayed(t, tmp_path / "two.jsonl")
    assert text[first.seq] == ("seat 0 (下家) chooses how seat 3 leads next: a) forbid 禁出: it may not lead a "
                               "单张 single (♥T); b) require 要求出: it must lead a 单张 single (♥T); "
                               "c) free 自由: it leads as it likes")
    assert text[first.seq + 1] == "seat 0 (下家) chooses forbid 禁出: it may not lead a 单张 single (♥T)"
    assert "(♣5)" in text[second.seq] and "♥T" not in text[second.seq]
    assert text[second.seq].startswith("seat 0 (下家) chooses how seat 3 leads next: a) forbid 禁出: it may not "
                                       "lead a 单张 single (♣5)")


def test_GD_2_3_1_after_c_the_prompt_at_the_next_lead_still_names_the_cards(tmp_path: Path) -> None:
    t = two_exposures_of_seat_1()
    first = t.of("table.choice")[-1]
    t.do(Choose(0, "free"))                               # c): the exposed cards stay, asked again next lead
    assert t.of("table.penalty_cards")[-1].cards == ("HT",)
    t.play(3, "HQ DQ", "PAIR Q")
    t.do(Pass(0))
    t.do(Pass(1))
    t.do(Pass(2))
    again = t.of("table.choice")[-1]
    assert again.seq > first.seq and again.about == first.about == 0
    text = replayed(t, tmp_path / "free.jsonl")
    assert text[first.seq + 1] == "seat 0 (下家) chooses free 自由: it leads as it likes"
    assert text[again.seq] == text[first.seq]             # the same question, with its cards
    assert not re.search(r"lead a ;|lead a $|how a seat leads", text[again.seq])


# ---------------------------------------------------------------------------------------------
# Who leads, and why: a refereed simulation's every play start and round end


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Event], dict[int, str]]:
    """Four refereed matches (seed 13, 5 % infractions): its events and the replay's text of each."""
    log = tmp_path_factory.mktemp("words") / "gd.jsonl"
    assert main(["simulate", "guandan", "--matches", "4", "--seed", "13", "--referee", "--infractions", "0.05",
                 "--log", str(log), "--quiet"]) == 0
    fold = Fold(read_log(log))
    events = list(fold.log.events)
    text = {}
    for step in fold.steps():
        text[step.first] = step.text
        if step.kind == "gd.tribute_waived":                  # what the HTML page's tribute box heads
            HEADS[step.first] = fold.table.view()["tribute"]["head"]
        if step.kind == "ref.ruling":                         # the ruling panel: its rectification's words
            PANELS[step.first] = "; ".join(fold.table.rulings[-1]["rectification"])
    return events, text


HEADS: dict[int, str] = {}
PANELS: dict[int, str] = {}


def test_tribute_the_seat_that_paid_it_leads_and_is_said_to_have_paid(simulated) -> None:
    events, text = simulated
    seen = set()
    for i, e in enumerate(events):
        if e.KIND != "gd.play_started" or e.reason != "tribute":
            continue
        due = [d for d in _this_deal(events, i) if d.KIND == "gd.tribute_due"][-1]
        assert e.seat == due.payments[0][0]                       # the leader paid (the 上游, when double)
        if len(due.payments) == 2:                                # double: it paid the 上游 the larger card
            assert text[i] == (f"play starts: seat {e.seat} leads (进贡给上游者领出: it paid the larger tribute, "
                               f"to the 上游 seat {due.payments[0][1]})")
            seen.add("double")
        else:
            assert text[i] == f"play starts: seat {e.seat} leads (进贡者领出: it paid the tribute)"
            seen.add("single")
        assert "received" not in text[i]
    assert seen == {"single", "double"}


def _this_deal(events: list[Event], i: int) -> list[Event]:
    """The events of the deal of ``events[i]`` before it."""
    start = max(k for k in range(i) if events[k].KIND == "gd.deal_started")
    return events[start:i]


def test_jiefeng_only_for_the_partner_of_the_seat_that_went_out(simulated) -> None:
    events, text = simulated
    seen = set()
    for i, e in enumerate(events):
        if e.KIND != "gd.round_over" or e.leader == e.seat or not e.partner_leads:
            continue
        went_out = any(f.KIND == "gd.finished" and f.seat == e.seat for f in _this_deal(events, i))
        if e.leader == (e.seat + 2) % 4 and not went_out:         # the winner was judged 单下: no 接风
            assert text[i].endswith(f"seat {e.seat} is judged 单下 (placed last): its partner seat {e.leader} leads")
        elif e.leader == (e.seat + 2) % 4:
            assert text[i] == f"round over: all passed on seat {e.seat}; seat {e.seat} went out: 接风: its partner " \
                              f"seat {e.leader} leads"
            seen.add("jiefeng")
        else:                                                     # its partner is out too: the next seat in play
            assert "接风" not in text[i] and "partner seat" not in text[i]
            assert text[i].endswith(f"its partner is out of play: the next seat in play, seat {e.leader}, leads")
            seen.add("next")
    assert seen == {"jiefeng", "next"}


RAW = re.compile(r"\b(SINGLE|PAIR|TRIPLE|FULL_HOUSE|STRAIGHT|TUBE|PLATE|BOMB|STRAIGHT_FLUSH|JOKER_BOMB)\b"
                 r"|play_on|offender_leads|'s - |— up$|LevelDiffPenalty|ForcedDoubleLast|ForcedLast")
"""Internal spellings a trainee must never read: combination codes, effect parameters, sanction kinds."""


def test_no_step_of_a_refereed_run_says_an_internal_code(simulated) -> None:
    events, text = simulated
    said = [t for t in text.values() if RAW.search(t)]
    assert not said, said[:5]


def test_what_the_table_did_is_said_in_its_terms(simulated) -> None:
    events, text = simulated
    kinds = Counter()
    for i, e in enumerate(events):
        if e.KIND == "gd.level_penalty":
            assert text[i].startswith(f"扣 {e.levels} 个级差分: team {e.team} loses {e.levels} level")
        elif e.KIND == "gd.lead_restricted" and e.rule != "cards":
            assert re.search(r"(must|may not) lead a \S+ [a-z ]+", text[i]), text[i]
        elif e.KIND == "table.exposed" and e.combination:
            assert ", a " in text[i] and e.combination not in text[i]
        elif e.KIND == "gd.placed_last":
            assert text[i].startswith(f"判单下 seat {e.seat} is placed last")
        elif e.KIND == "gd.tribute_waived" and not e.excused:
            before = [x for x in events[:i] if x.KIND == "gd.next_deal_scheduled"][-1]
            assert before.leader is not None and before.no_tribute    # the GD-5.2 procedure
            assert text[i] == HEADS[i] == "不进贡 no tribute: the last deal was judged 双下 (判双下, GD-5.2)"
        else:
            continue
        kinds[e.KIND] += 1
    assert set(kinds) == {"gd.level_penalty", "gd.lead_restricted", "table.exposed", "gd.placed_last",
                          "gd.tribute_waived"}


def test_GD_3_a_wrong_tribute_or_return_is_told_in_words(simulated) -> None:
    events, text = simulated
    seen = set()
    for i, e in enumerate(events):
        if e.KIND == "gd.irregular" and e.irregularity in ("wrong_tribute", "wrong_return"):
            facts = dict(e.facts)
            when = {"before_first_play": "before the first play 尚未出牌",
                    "after_first_play": "after the first play 已经出牌"}[facts["discovered"]]
            assert f"found 发现时: {when}" in text[i]
            assert not re.search(r"discovered|_first_play|payer: \d|receiver: \d|required: ", text[i]), text[i]
            seen.add(e.irregularity)
    assert seen == {"wrong_tribute", "wrong_return"}


def test_GD_1_1_and_GD_7_rectifications_say_what_the_table_did(simulated) -> None:
    events, text = simulated
    seen = set()
    for i, e in enumerate(events):
        if e.KIND != "ref.ruling":
            continue
        for effect in e.rectification:
            if effect["kind"] == "Return":          # a drawn card goes to the stock, a play to the hand: 'taken back'
                assert f"收回牌张 seat {effect['seat']}'s " in PANELS[i] and "go back to" not in PANELS[i]
                seen.add("Return")
            elif effect["kind"] == "UnauthorisedInformation":
                assert "非法信息 " in PANELS[i] and "不当信息" not in PANELS[i]
                seen.add("UnauthorisedInformation")
    assert seen == {"Return", "UnauthorisedInformation"}
