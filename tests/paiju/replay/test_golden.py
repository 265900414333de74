"""Golden playthroughs: fixed-seed refereed logs of both games, committed under tests/golden/.

Each is one unit (a deal, or a short match) played by the built-in agents with injected
irregularities and the referee, as `paiju.sim.refereed.play_unit` plays it from the log's
header. Two checks per file:

- `paiju replay --check` (``paiju.replay.check.check_log``) re-applies every logged action to a
  fresh engine with a fresh referee and finds every line again;
- playing the unit again from the header's seed, rules and options gives the file byte
  for byte.

So a change of any rule, ruling, agent or event encoding shows up here. A deliberate one
rewrites the files (``PAIJU_UPDATE_GOLDEN=1``), to be committed with the change and the
reason in the commit message.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from paiju.games import adapter_for
from paiju.sim.refereed import play_unit, unit_options
from paiju.replay.check import check_log, load_log
from tabletop.log import encode, make_header

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
AGENTS = ["heuristic", "random", "heuristic", "random"]
GUANDAN_KINDS = ("draw_slip", "wrong_kind", "does_not_beat", "extra_cards", "pass_on_lead", "wrong_tribute",
                 "wrong_return", "report_missing", "report_wrong", "draw_out_of_turn", "announce_out_of_turn",
                 "play_out_of_turn", "retract_play", "ask_count", "report_repeated", "exposed_card", "incident")
SHENGJI_KINDS = ("miscount", "wrong_bury_count", "lead_before_burial", "wrong_follow", "revoke", "extra_card",
                 "draw_out_of_turn", "banker_drew_kitty", "simultaneous_declaration", "exposed_card",
                 "lead_out_of_turn", "lead_before_trick_complete", "play_before_turn", "incident")

SPECS = {
    # file name: (game, seed, rules, options)
    "golden_guandan_deal_refereed_seed3.jsonl": (
        "guandan", 3, {}, unit_options("deals", AGENTS, 0.03)),
    "golden_guandan_match_refereed_seed48.jsonl": (
        "guandan", 48, {"match_end": "deals", "match_deals": 2},
        unit_options("matches", AGENTS, {**{k: 0.01 for k in GUANDAN_KINDS}, "wrong_tribute": 0.3,
                                         "wrong_return": 0.3, "draw_out_of_turn": 0.3})),
    "golden_shengji_deal_refereed_seed12.jsonl": (
        "shengji", 12, {}, unit_options("deals", AGENTS, 0.03)),
    "golden_shengji_match_refereed_seed10.jsonl": (
        "shengji", 10, {"max_deals": 2},
        unit_options("matches", AGENTS, {**{k: 0.01 for k in SHENGJI_KINDS}, "miscount": 0.3,
                                         "banker_drew_kitty": 0.5, "simultaneous_declaration": 0.3})),
}


def replay_from_header(game: str, seed: int, rules: dict, options: dict) -> str:
    return play_unit(game, seed, adapter_for(game).rules_from_dict(rules), options).text()


@pytest.mark.parametrize("name", sorted(SPECS))
def test_golden_playthrough_replays_byte_for_byte(name):
    game, seed, rules, options = SPECS[name]
    path = GOLDEN / name
    text = replay_from_header(game, seed, rules, options)
    if os.environ.get("PAIJU_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8", newline="\n")
    stored = path.read_bytes()
    log, adapter = load_log(str(path))
    # the file is the unit the spec names, with its full rules in the header
    header = make_header(game, seed, adapter.rules_from_dict(rules).to_dict(), options)
    assert encode(log.header) == encode(header), f"{name}: header differs from the spec"
    # replay --check: every action re-applied, the referee's answers included
    result = check_log(log, adapter)
    assert result.ok, f"{name}: {result.message}"
    # played again from the header: the same bytes (PAIJU_UPDATE_GOLDEN=1 rewrites after a deliberate change)
    assert text.encode("utf-8") == stored, f"{name}: a replay from its header differs (PAIJU_UPDATE_GOLDEN=1 rewrites it)"


@pytest.mark.parametrize("name", sorted(SPECS))
def test_golden_playthroughs_hold_several_rulings(name):
    log, _ = load_log(str(GOLDEN / name))
    clauses = {e.clause for e in log.events if e.KIND == "ref.ruling"}
    assert len(clauses) >= 5, f"{name}: only {sorted(clauses)}"


def test_a_changed_ruling_fails_the_check(tmp_path):
    name = "golden_guandan_deal_refereed_seed3.jsonl"
    lines = (GOLDEN / name).read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if '"clause":"GD-2.3.1"' in line)
    lines[at] = lines[at].replace('"clause":"GD-2.3.1"', '"clause":"GD-2.3.2"')
    changed = tmp_path / name
    changed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log, adapter = load_log(str(changed))
    result = check_log(log, adapter)
    assert not result.ok and f"line {at + 1} differs" in result.message


def test_a_version_1_log_is_read_with_the_table_events_renamed_and_still_checks():
    """Log format 2 renamed the table's own events (``gd.returned`` → ``table.returned``,
    …, and 掼蛋's random draw names ``cards``); a version-1 log (the 掼蛋 golden deal as it
    was written before) is read in the new shape and reproduces."""
    old = GOLDEN / "version1_guandan_deal_refereed_seed3.jsonl"
    text = old.read_text(encoding="utf-8")
    assert '"version":1' in text and '"kind":"gd.returned"' in text
    log, _ = load_log(str(old))
    kinds = {e.KIND for e in log.events}
    assert "table.returned" in kinds and not any(k in kinds for k in ("gd.returned", "gd.exposed", "gd.choice"))
    assert all('"gd.returned"' not in line for line in log.lines)
    result = check_log(log)
    assert result.ok, result.message
    new = load_log(str(GOLDEN / "golden_guandan_deal_refereed_seed3.jsonl"))[0]
    # the same deal, read in the shape version 2 writes, up to the first play (the golden deal
    # was rewritten since by agents that decide differently)
    first_play = next(i for i, line in enumerate(new.lines) if '"kind":"gd.played"' in line)
    assert first_play > 10 and log.lines[:first_play] == new.lines[:first_play]


def test_a_log_of_an_unknown_version_is_a_one_line_error(tmp_path):
    path = tmp_path / "future.jsonl"
    path.write_text('{"format":"paiju-log","version":9,"game":"guandan","rules":{},"options":{},"seed":1}\n')
    with pytest.raises(Exception, match=r"log format version 9 is not supported \(this paiju reads versions 1, 2, 3\)"):
        load_log(str(path))
