"""What the 掼蛋 replay says is what the table did (issue 26 item 6): real refereed deals
played from given hands (``tests.enforcement.conftest.RefTable``), their events written as a
log and replayed; each text is asserted against the events the engine emitted."""

from __future__ import annotations

import re
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
    header = {**header, "options": {**header["options"], "referee": True}}
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
    """Four refereed matches (seed 7, 5 % infractions): its events and the replay's text of each."""
    log = tmp_path_factory.mktemp("words") / "gd.jsonl"
    assert main(["simulate", "guandan", "--matches", "4", "--seed", "7", "--referee", "--infractions", "0.05",
                 "--log", str(log), "--quiet"]) == 0
    fold = Fold(read_log(log))
    events = list(fold.log.events)
    return events, {s.first: s.text for s in fold.steps() if s.first == s.last}


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
