"""`paiju replay LOG` as a table view: the step-by-step listing, `--at`, `--seat`, the
referee's rulings with their clause text, payload conventions for event kinds the viewer has
no handler for, and every way a log can be bad (one line naming the line, exit 2).

Golden logs (tests/golden/replay_*.jsonl) are one 掼蛋 deal (seed 3) and one 双升 deal
(seed 4) from `paiju simulate … --deals 1`; the full `--at` views are compared with
tests/golden/replay_*_at_*.txt (PAIJU_UPDATE_GOLDEN=1 rewrites them after a deliberate
change of the view)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import ClassVar

import attrs
import pytest

import guandan.events  # noqa: F401  (the event kinds of the golden logs)
import shengji.events  # noqa: F401
from tabletop.games import game_spec
from tabletop.rulings import RulingEvent as Ruling, UnresolvedEvent as Unresolved
from enforcement.rulebook import clause
from paiju.cli import main
from paiju.replay.view import open_log
from paiju.replay.fold import Fold
from tabletop.events import Event
from tabletop.log import encode, encode_event, read_log

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
GD_LOG = GOLDEN / "replay_guandan_deal_seed3.jsonl"
SJ_LOG = GOLDEN / "replay_shengji_deal_seed4.jsonl"


@attrs.frozen(kw_only=True)
class CardsShownForTest(Event):
    """A kind no handler knows, named by the exposure convention."""

    KIND: ClassVar[str] = "test.cards_exposed"
    cards: tuple[str, ...]
    reason: str


@attrs.frozen(kw_only=True)
class PenaltyForTest(Event):
    KIND: ClassVar[str] = "test.penalty_marked"
    cards: tuple[str, ...]


@attrs.frozen(kw_only=True)
class SomethingNewForTest(Event):
    KIND: ClassVar[str] = "test.something_new"
    detail: str


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["replay", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def write_lines(path: Path, lines: list[str], final_newline: bool = True) -> Path:
    path.write_text("\n".join(lines) + ("\n" if final_newline else ""), encoding="utf-8")
    return path


def with_events(source: Path, target: Path, after_seq: int, make) -> Path:
    """``source`` with the events ``make(event_at_after_seq)`` inserted after that event,
    sequence numbers renumbered (gapless, as a real log)."""
    log = read_log(source)
    events = list(log.events)
    index = next(i for i, e in enumerate(events) if e.seq == after_seq)
    events[index + 1:index + 1] = make(events[index])
    out = [encode(log.header)]
    seq = 0
    for event in events:
        seq = 0 if event.KIND == "unit" else seq
        out.append(encode_event(attrs.evolve(event, seq=seq)))
        seq += 1
    return write_lines(target, out)


def ruling_after(event: Event, clause_id: str = "GD-2.3.1") -> list[Event]:
    return [Ruling(deal=event.deal, seq=0, seat=event.seat, clause=clause_id, offender=event.seat, side=event.seat % 2,
                   answers=event.seq, facts=(("next_played", False),), rectification=(), sanctions=(),
                   summary=clause(clause_id).summary)]


def golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("PAIJU_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"the view differs from {name} (PAIJU_UPDATE_GOLDEN=1 rewrites it)"


def one_error_line(err: str, *needles: str) -> None:
    assert err.count("\n") == 1 and err.startswith("paiju: error: "), err
    for needle in needles:
        assert needle in err, err


# ---------------------------------------------------------------------------------------------
# The listing


def test_listing_one_line_per_play_in_card_notation(capsys):
    code, out, err = run(capsys, GD_LOG)
    assert code == 0 and err == ""
    assert re.search(r"^ +135 +seat 2 plays ♠5 ♣5 ♦5 ♦5 \(炸弹 bomb 4×5\)$", out, re.M)
    assert re.search(r"^ +117 +seat 3 plays ♥2 ♥2 ♣9 ♣9 \(炸弹 bomb 4×9\)$", out, re.M)
    assert re.search(r"^ +\d+ +seat 0 passes$", out, re.M)
    assert re.search(r"^ +288 +seat 3 goes out: 上游 1st$", out, re.M)
    assert "deal over: finishing order 3 0 2 1: team 1 (seats 1&3) goes up 1 level (1-4); 56 plays" in out


def test_listing_gives_the_draw_as_one_step_and_draws_the_table_at_round_ends():
    log = read_log(GD_LOG)
    fold = Fold(log)
    steps = list(fold.steps())
    draws = [s for s in steps if s.kind == "gd.drawn"]
    assert len(draws) == 1 and draws[0].text == "108 cards drawn (seq 5-112: seat 0 27, seat 1 27, seat 2 27, seat 3 27)"
    assert len(steps) == len(log.events) - 107


def test_listing_tables_after_play_start_each_round_and_the_score(capsys):
    _, out, _ = run(capsys, GD_LOG)
    log = read_log(GD_LOG)
    wanted = sum(1 for e in log.events if e.KIND in ("gd.play_started", "gd.round_over", "gd.scored"))
    assert out.count("╭─ deal 1 · level 2") == wanted
    assert all(len(line) <= 100 for line in out.splitlines())


def test_seat_view_hides_another_seats_drawn_card(capsys):
    _, other, _ = run(capsys, SJ_LOG, "--seat", 3, "--at", 4)
    _, own, _ = run(capsys, SJ_LOG, "--seat", 2, "--at", 4)
    assert re.search(r"^ +4 +seat 2 draws a card$", other, re.M)
    assert re.search(r"^ +4 +seat 2 draws ♣7$", own, re.M)


# ---------------------------------------------------------------------------------------------
# --at and --seat


def test_table_at_a_bomb_golden(capsys):
    code, out, err = run(capsys, GD_LOG, "--at", 135)
    assert code == 0 and err == ""
    assert "▶2: ♠5 ♣5 ♦5 ♦5 炸弹 bomb 4×5" in out
    assert "at seq 135 · line 137" in out
    golden("replay_guandan_deal_seed3_at_135.txt", out)


def test_table_at_hides_other_hands_for_one_seat(capsys):
    _, full, _ = run(capsys, GD_LOG, "--at", 135)
    _, seat0, _ = run(capsys, GD_LOG, "--at", 135, "--seat", 0)
    assert seat0.count("(hidden)") == 3 and "(hidden)" not in full
    assert "seat 0 · you" in seat0 and "seat 2 · 对家" in seat0 and "seat 1 · 下家" in seat0
    assert "[报10]" in seat0                  # seat 1 announced 10 cards: public
    south = [line for line in full.split("seat 0 · South")[1].splitlines()[1:5]]
    for line in south:                        # seat 0's own suits are the same in both views
        assert line.strip("│ ").split("  ")[0] in seat0
    assert "cards" not in seat0.split("seat 2 · 对家")[1].splitlines()[0]   # 掼蛋: counts only as announced


def test_shengji_table_after_burying_shows_the_kitty_to_the_banker_only(capsys):
    _, full, _ = run(capsys, SJ_LOG, "--at", "0:108")
    _, banker, _ = run(capsys, SJ_LOG, "--at", "0:108", "--seat", 0)
    _, other, _ = run(capsys, SJ_LOG, "--at", "0:108", "--seat", 3)
    kitty = "kitty (8, buried by seat 0): ♦3 ♠6 ♠7 ♣T ♥J ♣Q ♠A ♣A"
    assert kitty in full and kitty in banker
    assert "kitty (8, buried by seat 0): face down" in other
    assert "seat 0 buries 8 cards" in other and "seat 0 buries ♦3" in banker
    assert "[banker 庄家]" in other and "trump" in other
    assert "25 cards" in other                 # 双升: hand sizes are public


def test_shengji_failed_throw_and_trick_winner_golden(capsys):
    code, out, _ = run(capsys, SJ_LOG, "--at", "0:131")
    assert code == 0
    assert "throw failed (甩牌失败): seat 0 must lead ♥K; ♥A go back" in out
    assert "failed throw 甩牌失败" in out
    golden("replay_shengji_deal_seed4_at_131.txt", out)


def test_at_unit_and_seq_in_a_log_of_several_units(tmp_path, capsys):
    log = tmp_path / "three.jsonl"
    assert main(["simulate", "shengji", "--deals", "3", "--seed", "1", "--log", str(log), "--quiet"]) == 0
    capsys.readouterr()
    code, _, err = run(capsys, log, "--at", 140)
    assert code == 2
    one_error_line(err, "sequence number 140 occurs in units 0, 1, 2", "--at 0:140")
    code, out, _ = run(capsys, log, "--at", "2:140")
    assert code == 0 and "at seq 2:140" in out and "deal 3" in out
    code, _, err = run(capsys, log, "--at", "1:9999")
    one_error_line(err, "no event 9999 in unit 1 (its sequence numbers run 0-")
    code, _, err = run(capsys, log, "--at", "seven")
    one_error_line(err, "not a sequence number")


def test_every_hand_plus_every_card_played_is_the_whole_pack_at_every_step():
    log = read_log(GD_LOG)
    fold = Fold(log)
    played = 0
    for index, event in enumerate(log.events):
        fold.apply(index)
        if event.KIND == "gd.played":
            played += len(event.cards)
        if index >= next(i for i, e in enumerate(log.events) if e.KIND == "gd.hands_complete"):
            assert sum(s["count"] for s in fold.table.view()["seats"]) + played == 108


def test_shengji_hands_kitty_and_tricks_account_for_every_card():
    log = read_log(SJ_LOG)
    fold = Fold(log)
    on_table = 0
    for index, event in enumerate(log.events):
        fold.apply(index)
        if event.KIND == "sj.played":
            on_table += len(event.cards)
        if event.KIND == "sj.throw_failed":
            on_table -= len(event.returned)
        then = log.events[index + 1].KIND if index + 1 < len(log.events) else None
        if fold.table.view()["phase"] == "play" and then != "sj.throw_failed":  # the table after the play's action
            assert sum(s["count"] for s in fold.table.view()["seats"]) + fold.table.facts.kitty_size + on_table == 108


# ---------------------------------------------------------------------------------------------
# The referee's events and kinds without a handler


def test_ruling_shows_clause_id_chinese_text_and_summary(tmp_path, capsys):
    log = with_events(GD_LOG, tmp_path / "ruled.jsonl", 135, ruling_after)
    code, out, err = run(capsys, log)
    # a ruling spliced into a strict log: shown, and said not to be what the game gives
    assert code == 0 and err.startswith("paiju: warning: ") and "does not --check" in err and err.count("\n") == 1
    text = clause("GD-2.3.1")
    assert re.search(r"^ +136 § RULING GD-2.3.1 on seat 2: Out-of-turn play taken back; lead option$", out, re.M)
    flat = re.sub(r"[┃│\s]+", "", out)
    assert re.sub(r"\s+", "", text.text_zh) in flat
    assert re.sub(r"\s+", "", text.summary) in flat
    _, at, _ = run(capsys, log, "--at", 140)
    assert "GD-2.3.1 Out-of-turn play taken back" in at and "ruling on seat 2 (answers seq 135)" in at


def test_unresolved_irregularity_shows_the_fallback_clause(tmp_path, capsys):
    def unresolved(event):
        return [Unresolved(deal=event.deal, seq=0, seat=event.seat, irregularity="strange_thing", answers=event.seq,
                           facts=(), rectification=(), fallback="GD-2.5",
                           note="not covered by the rulebook; fallback GD-2.5")]
    log = with_events(GD_LOG, tmp_path / "unresolved.jsonl", 135, unresolved)
    _, out, _ = run(capsys, log, "--at", 136)
    assert "UNRESOLVED: seat 2 strange thing; no clause fits, fallback GD-2.5" in out
    assert "GD-2.5" in out and "unresolved: seat 2 strange thing; no clause fits, fallback" in out


def test_kinds_without_a_handler_follow_the_payload_conventions(tmp_path, capsys, monkeypatch):
    spec = game_spec("guandan")   # kinds a later version of the game might add
    monkeypatch.setattr(spec, "events", spec.events + (CardsShownForTest, PenaltyForTest, SomethingNewForTest))

    def shown(event):
        return [CardsShownForTest(deal=event.deal, seq=0, seat=1, cards=("SA",), reason="GD-2.5"),
                PenaltyForTest(deal=event.deal, seq=0, seat=3, cards=("H7",)),
                SomethingNewForTest(deal=event.deal, seq=0, seat=None, detail="a table step from the future")]
    log = with_events(GD_LOG, tmp_path / "conventions.jsonl", 135, shown)
    fold = Fold(read_log(log))
    for _ in fold.steps(until=138):
        pass
    view = fold.table.view()
    # a kind the engine does not give changes nothing on the table: the table is the engine's
    assert view["seats"][1]["exposed"] == "" and view["seats"][3]["penalty"] == ""
    assert view["seats"][1]["count"] == sum(len(c.split()) for _, c in view["seats"][1]["hand"])
    code, out, err = run(capsys, log, "--at", 138)
    assert code == 0 and "does not --check" in err
    assert "seat 1: test.cards_exposed cards ♠A, reason=GD-2.5" in out
    assert "test.something_new detail=a table step from the future" in out
    assert "exposed 暴露张" not in out and "penalty 罚张" not in out


# ---------------------------------------------------------------------------------------------
# Bad logs: one line naming the line, exit 2


def test_truncated_last_line_shows_the_valid_prefix_with_a_warning(tmp_path, capsys):
    lines = lines_of(GD_LOG)
    cut = write_lines(tmp_path / "cut.jsonl", lines[:-1] + [lines[-1][:25]], final_newline=False)
    code, out, err = run(capsys, cut)
    assert code == 0
    assert err.count("\n") == 1 and err.startswith("paiju: warning: ")
    assert f"line {len(lines)}: truncated" in err and f"showing the {len(lines) - 2} events before it" in err
    assert "seat 3 goes out: 上游 1st" in out
    code, out, err = run(capsys, cut, "--at", 135)
    assert code == 0 and "炸弹 bomb 4×5" in out


def test_a_log_whose_last_line_is_cut_off_checks_as_an_interrupted_run(tmp_path, capsys):
    lines = lines_of(GD_LOG)
    cut = write_lines(tmp_path / "cut.jsonl", lines[:-1] + [lines[-1][:25]], final_newline=False)
    code, out, err = run(capsys, cut, "--check")
    assert code == 3 and "reproduced exactly" in out and "its last line is cut off" in out
    assert err == "paiju: warning: the log is the prefix of an interrupted run (exit 3)\n"


def test_unknown_format_version_names_line_1(tmp_path, capsys):
    lines = lines_of(GD_LOG)
    header = json.loads(lines[0])
    header["version"] = 99
    bad = write_lines(tmp_path / "v99.jsonl", [json.dumps(header)] + lines[1:])
    for extra in ((), ("--check",), ("--html", tmp_path / "out.html")):
        code, out, err = run(capsys, bad, *extra)
        assert code == 2 and out == ""
        one_error_line(err, "line 1:", "version 99 is not supported")
    assert not (tmp_path / "out.html").exists()


def test_log_of_an_unknown_game_names_line_1(tmp_path, capsys):
    lines = lines_of(GD_LOG)
    header = json.loads(lines[0])
    header["game"] = "mahjong"
    bad = write_lines(tmp_path / "mahjong.jsonl", [json.dumps(header)] + lines[1:])
    for extra in ((), ("--check",)):
        code, _, err = run(capsys, bad, *extra)
        assert code == 2
        one_error_line(err, "line 1:", "'mahjong'")


def test_log_of_another_game_than_expected_names_line_1(capsys):
    code, _, err = run(capsys, GD_LOG, "--game", "shengji")
    assert code == 2
    one_error_line(err, "line 1:", "a 'guandan' log, expected 'shengji'")


def test_other_games_event_in_a_log_names_its_line(tmp_path, capsys):
    lines = lines_of(GD_LOG)
    event = json.loads(lines[200])
    foreign = {"kind": "sj.declined", "deal": event["deal"], "seq": event["seq"], "seat": 1}
    bad = write_lines(tmp_path / "mixed.jsonl", lines[:200] + [json.dumps(foreign)] + lines[201:])
    code, out, err = run(capsys, bad)
    assert code == 2 and out == ""
    one_error_line(err, "line 201:", "'sj.declined' event does not belong in a guandan log")


@pytest.mark.parametrize("damage, message", [
    (lambda line: line[:-3] + "}}", "invalid JSON"),
    (lambda line: line.replace('"cards":["', '"cards":["Z1","'), "not a card code: 'Z1'"),
    (lambda line: line.replace('"seat":2', '"seat":7'), "not a seat (0-3): 7"),
    (lambda line: line.replace('"seq":135', '"seq":136'), "sequence number 136, expected 135"),
    (lambda line: line.replace('"reading":', '"colour":'), "unknown field"),
    (lambda line: line.replace('"gd.played"', '"gd.teleported"'), "unknown event kind 'gd.teleported'"),
])
def test_corrupt_event_names_its_line(tmp_path, capsys, damage, message):
    lines = lines_of(GD_LOG)
    assert '"seq":135' in lines[136] and '"gd.played"' in lines[136]
    bad = write_lines(tmp_path / "corrupt.jsonl", lines[:136] + [damage(lines[136])] + lines[137:])
    for extra in ((), ("--at", 100), ("--html", tmp_path / "page.html")):
        code, out, err = run(capsys, bad, *extra)
        assert code == 2 and out == ""
        one_error_line(err, "line 137:", message)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corrupt.jsonl"]   # no page, no temp file


def test_empty_and_missing_logs(tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    code, _, err = run(capsys, empty)
    one_error_line(err, "empty log")
    code, _, err = run(capsys, tmp_path / "nowhere.jsonl")
    assert code == 2
    one_error_line(err, "no such log")


def test_check_with_view_options_is_a_usage_error(capsys):
    code, _, err = run(capsys, GD_LOG, "--check", "--at", 5)
    assert code == 2
    one_error_line(err, "--check", "--at")
    code, _, err = run(capsys, GD_LOG, "--seat", 4)
    assert code == 2
    one_error_line(err, "not a seat: 4")


def test_check_still_reproduces_a_fresh_log(tmp_path, capsys):
    log = tmp_path / "fresh.jsonl"
    assert main(["simulate", "guandan", "--deals", "2", "--seed", "5", "--log", str(log), "--quiet"]) == 0
    capsys.readouterr()
    code, out, _ = run(capsys, log, "--check")
    assert code == 0 and out.startswith("ok: ")
    assert open_log(str(log)).game == "guandan"


# ---------------------------------------------------------------------------------------------
# A refereed deal with injected irregularities: the fold follows the engine


def refereed_log(path: Path, seed: int, rate: float) -> Path:
    setup = pytest.importorskip("enforcement.setup")
    from guandan.agents import RandomAgent
    from guandan.deal import Deal
    from guandan.rules import GuandanRules
    from tabletop.events import EventStream, UnitStarted
    from tabletop.log import LogWriter, make_header
    from tabletop.rng import AGENT, generator

    options = {"unit": "deals", "count": 1, "agents": ["random"] * 4, "referee": True, "infractions": rate}
    with LogWriter(path, make_header("guandan", seed, GuandanRules().to_dict(), options)) as writer:
        stream = EventStream()
        stream.emit(UnitStarted, index=0)
        writer.write(stream.take())
        deal = Deal.drawn(seed, "2", deal_number=1, stream=stream, mode="refereed")
        agents = [RandomAgent(generator(seed, 0, AGENT + s)) for s in range(4)]
        setup.refereed_run(deal, agents, options, seed, 0, observers=[writer])
    return path


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_fold_agrees_with_every_count_the_refereed_engine_announces(tmp_path, seed, capsys):
    log = read_log(refereed_log(tmp_path / "refereed.jsonl", seed, 0.3))
    kinds = {e.KIND for e in log.events}
    assert {"gd.irregular", "ref.ruling", "table.exposed", "table.returned"} <= kinds
    fold = Fold(log)
    for index, event in enumerate(log.events):
        fold.apply(index)
        if event.seat is None:
            continue
        seat = fold.table.view()["seats"][event.seat]     # the engine's table after the event's action
        if event.KIND in ("gd.cards_reported", "gd.count_reported"):
            assert seat["count"] + len(seat["on_table"].split()) == event.count, f"line {index + 2}"
        if event.KIND == "gd.finished":
            assert seat["count"] == 0 and seat["on_table"] == "" and seat["hand"] == [], f"line {index + 2}"
    code, out, _ = run(capsys, tmp_path / "refereed.jsonl")
    assert code == 0 and out.count("§ RULING") == sum(1 for e in log.events if e.KIND == "ref.ruling")
    assert main(["replay", str(tmp_path / "refereed.jsonl"), "--html", str(tmp_path / "refereed.html")]) == 0


def test_compressed_log_and_log_without_unit_events(tmp_path, capsys):
    packed = tmp_path / "two.jsonl.gz"
    assert main(["simulate", "shengji", "--deals", "2", "--seed", "3", "--log", str(packed), "--quiet"]) == 0
    capsys.readouterr()
    code, out, _ = run(capsys, packed, "--at", "1:120")
    assert code == 0 and "at seq 1:120" in out
    lines = lines_of(GD_LOG)
    bare = write_lines(tmp_path / "bare.jsonl", [lines[0]] + lines[2:])    # one engine's stream, no unit event
    code, bare_out, _ = run(capsys, bare, "--at", 135)
    _, golden_out, _ = run(capsys, GD_LOG, "--at", 135)
    assert code == 0 and bare_out.replace("line 136", "line 137") == golden_out
