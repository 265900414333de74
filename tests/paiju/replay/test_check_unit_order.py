"""`paiju replay --check` of a log whose units are in the order they finished (a server's
log, header ``unit_order: finished``): each unit is replayed from the index its own unit
event names; an index logged twice is a one-line error."""

from __future__ import annotations

import json

import pytest

from paiju.replay.check import check_log
from paiju.sim.batch import start_unit
from paiju.games import adapter_for
from tabletop.errors import LogError
from tabletop.log import encode, encode_event, make_header, read_log

GAME = adapter_for("guandan")
RULES = GAME.rules_from_dict({"match_end": "deals", "match_deals": 1})


def unit_lines(index: int) -> list[str]:
    """A unit as the server logs it: its events, every seat taking the first legal action."""
    engine, started = start_unit(GAME, "matches", 5, index, RULES, {})
    lines = [encode_event(started)] + [encode_event(e) for e in engine.take_events()]
    while engine.to_act is not None:
        lines += [encode_event(e) for e in engine.take_events()]
        lines += [encode_event(e) for e in engine.apply(engine.legal_actions()[0])]
        lines += [encode_event(e) for e in engine.take_events()]
    return lines + [encode_event(e) for e in engine.take_events()]


def write(path, order):
    header = make_header("guandan", 5, RULES.to_dict(), {"unit": "matches", "unit_order": "finished"})
    path.write_text("\n".join([encode(header)] + [line for i in order for line in unit_lines(i)]) + "\n")
    return read_log(path)


def test_units_in_finishing_order_with_a_hole_replay_each_from_its_own_index(tmp_path):
    result = check_log(write(tmp_path / "server.jsonl", [2, 0, 5]))
    assert result.ok and result.complete and result.units == 3, result.message
    header = json.loads((tmp_path / "server.jsonl").read_text().splitlines()[0])
    assert "count" not in header["options"]


def test_a_unit_index_logged_twice_is_an_error(tmp_path):
    with pytest.raises(LogError, match="a unit index occurs twice"):
        check_log(write(tmp_path / "twice.jsonl", [1, 1]))


def test_a_unit_whose_events_are_another_indexs_is_a_mismatch(tmp_path):
    header = make_header("guandan", 5, RULES.to_dict(), {"unit": "matches", "unit_order": "finished"})
    lines = unit_lines(0)
    lines[0] = lines[0].replace('"index":0', '"index":3')
    path = tmp_path / "wrong.jsonl"
    path.write_text("\n".join([encode(header)] + lines) + "\n")
    result = check_log(read_log(path))
    assert not result.ok and "differs" in result.message
