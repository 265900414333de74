import gzip
import json
from typing import ClassVar

import attrs
import pytest

from tabletop.errors import LogError
from tabletop.events import Event, EventStream
from tabletop.games import GameSpec, registered
from tabletop.seats import PARTNERSHIPS
from tabletop.log import LogWriter, make_header, read_log
from tabletop.rng import child_seed, generator


@attrs.frozen(kw_only=True)
class _Played(Event):
    KIND: ClassVar[str] = "test.played"
    ACTION: ClassVar[bool] = True
    cards: tuple[str, ...]
    note: str = ""


# A game of the test's own, registered as any game is (for these tests only), so that its logs
# can be read.
TEST_GAME = GameSpec(name="testgame", title="test", seating=PARTNERSHIPS, rules_from_dict=dict,
                     new_deal=None, new_match=None, agents={}, action_from_event=None, events=(_Played,))


@pytest.fixture(autouse=True)
def _test_game_registered():
    with registered(TEST_GAME):
        yield


def _write(tmp_path, n=5, name="log.jsonl"):
    stream = EventStream(deal=3)
    path = tmp_path / name
    with LogWriter(path, make_header("testgame", 7, {"x": 1}, {"deals": n})) as log:
        for i in range(n):
            stream.emit(_Played, seat=i % 4, cards=("SA", "BJ"))
            log.write(stream.take())
    return path


def test_stream_numbers_events_gaplessly():
    stream = EventStream(deal=2, next_seq=10)
    a = stream.emit(_Played, seat=1, cards=("SA",))
    b = stream.emit(_Played, seat=2, cards=())
    assert (a.deal, a.seq, b.seq) == (2, 10, 11)
    assert stream.take() == [a, b] and stream.take() == []


def test_event_round_trips_through_dict():
    ev = _Played(deal=1, seq=4, seat=0, cards=("SA", "HK"), note="x")
    d = json.loads(json.dumps(ev.to_dict()))
    assert d["kind"] == "test.played"
    assert Event.from_dict(d) == ev


def test_log_header_then_one_line_per_event(tmp_path):
    path = _write(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header == {"format": "paiju-log", "version": 3, "game": "testgame", "rules": {"x": 1},
                      "options": {"deals": 5}, "seed": 7}
    assert len(lines) == 6
    log = read_log(path, game="testgame")
    assert [e.seq for e in log.events] == [0, 1, 2, 3, 4]
    assert log.lines == tuple(lines[1:])


def test_gzip_log_round_trips(tmp_path):
    path = _write(tmp_path, name="log.jsonl.gz")
    assert len(read_log(path).events) == 5


def test_same_events_give_same_bytes(tmp_path):
    a = _write(tmp_path, name="a.jsonl").read_bytes()
    b = _write(tmp_path, name="b.jsonl").read_bytes()
    assert a == b


def test_truncated_last_line_is_named_and_prefix_readable(tmp_path):
    path = _write(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:-7])
    with pytest.raises(LogError, match="line 6: truncated"):
        read_log(path)
    log = read_log(path, allow_truncated=True)
    assert len(log.events) == 4 and log.truncated and "line 6" in log.error


def test_corrupt_event_line_is_named(tmp_path):
    path = _write(tmp_path)
    lines = path.read_text().splitlines()
    lines[2] = '{"kind": "test.played", "deal": 3'
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError, match="line 3: corrupt event"):
        read_log(path)


def test_unknown_event_kind_and_gap_are_corrupt(tmp_path):
    path = _write(tmp_path)
    lines = path.read_text().splitlines()
    lines[3] = lines[3].replace("test.played", "test.nope")
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError, match="line 4: corrupt event.*unknown event kind"):
        read_log(path)
    lines = path.read_text().splitlines()
    del lines[3]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError, match="sequence number"):
        read_log(path)


def test_unknown_version_and_other_game_are_refused(tmp_path):
    path = _write(tmp_path)
    with pytest.raises(LogError, match="expected 'guandan'"):
        read_log(path, game="guandan")
    lines = path.read_text().splitlines()
    lines[0] = lines[0].replace('"version":3', '"version":99')
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError, match="line 1: log format version 99 is not supported"):
        read_log(path)


def test_missing_and_non_log_files(tmp_path):
    with pytest.raises(LogError, match="no such log"):
        read_log(tmp_path / "missing.jsonl")
    (tmp_path / "x.txt").write_text("hello\n")
    with pytest.raises(LogError, match="line 1: not a paiju log header"):
        read_log(tmp_path / "x.txt")


def test_unwritable_log_path_is_one_line_error(tmp_path):
    with pytest.raises(LogError, match="cannot write log"):
        LogWriter(tmp_path / "no" / "such" / "dir.jsonl", make_header("g", 1, {}))


def test_seed_tree_streams_are_independent_of_creation_order():
    a1 = generator(5, 1, 0).integers(1 << 30, size=4)
    _ = generator(5, 0, 0).integers(1 << 30, size=4)
    a2 = generator(5, 1, 0).integers(1 << 30, size=4)
    assert (a1 == a2).all()
    assert child_seed(5, 1) == child_seed(5, 1) != child_seed(5, 2)


# --- batch logs: units, gzip ------------------------------------------------------------------

from tabletop.events import UnitStarted  # noqa: E402
from tabletop.log import BlockWriter, encode_block, encode_event  # noqa: E402


def _unit_lines(index, per_unit=4):
    """A unit of a batch log: a fresh stream opened by a UnitStarted event (seq 0)."""
    stream = EventStream(deal=index + 1)
    stream.emit(UnitStarted, index=index)
    for i in range(per_unit):
        stream.emit(_Played, seat=i % 4, cards=("SA",))
    return [encode_event(e) for e in stream.take()]


def _write_units(path, units=3):
    with BlockWriter(path, make_header("testgame", 7, {}, {"unit": "deals", "count": units})) as log:
        for index in range(units):
            log.write_block(encode_block(_unit_lines(index), compress=log.compressed))
    return path


def test_sequence_numbers_restart_at_each_unit_event(tmp_path):
    log = read_log(_write_units(tmp_path / "u.jsonl"))
    assert [e.seq for e in log.events] == [0, 1, 2, 3, 4] * 3
    assert [e.index for e in log.events if isinstance(e, UnitStarted)] == [0, 1, 2]


def test_unit_event_must_have_sequence_number_0(tmp_path):
    path = _write_units(tmp_path / "u.jsonl")
    lines = path.read_text().splitlines()
    lines[6] = lines[6].replace('"seq":0', '"seq":5')  # the second unit event
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError, match="line 7: corrupt event.*unit event with sequence number 5"):
        read_log(path)


def test_gap_inside_a_unit_is_corrupt(tmp_path):
    path = _write_units(tmp_path / "u.jsonl")
    lines = path.read_text().splitlines()
    del lines[8]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError, match="line 9: corrupt event.*sequence number 3, expected 2"):
        read_log(path)


def test_gzip_log_of_one_member_per_unit_reads_like_the_plain_log(tmp_path):
    plain = read_log(_write_units(tmp_path / "u.jsonl"))
    packed = read_log(_write_units(tmp_path / "u.jsonl.gz"))
    assert packed.lines == plain.lines
    with gzip.open(tmp_path / "u.jsonl.gz", "rt", encoding="utf-8") as f:   # any gzip reader
        assert f.read() == (tmp_path / "u.jsonl").read_text(encoding="utf-8")


def test_gzip_log_has_the_same_bytes_for_the_same_content(tmp_path):
    assert _write_units(tmp_path / "a.jsonl.gz").read_bytes() == _write_units(tmp_path / "b.jsonl.gz").read_bytes()
    one = _write(tmp_path, name="a.log.gz").read_bytes()
    assert one == _write(tmp_path, name="other-name.log.gz").read_bytes()  # no time stamp or name inside


def test_gzip_log_cut_off_anywhere_gives_a_valid_prefix(tmp_path):
    """A run killed while writing a .gz log leaves a stream without its end: once the
    header is on disk, whatever reached the disk reads as a prefix of the events."""
    for name, writer in (("members.jsonl.gz", _write_units), ("stream.jsonl.gz", lambda p: _write(tmp_path, 40, p.name))):
        path = writer(tmp_path / name)
        full = read_log(path).events
        data = path.read_bytes()
        cut = tmp_path / "cut.jsonl.gz"
        readable = False
        for size in range(0, len(data), 5):
            cut.write_bytes(data[:size])
            try:
                log = read_log(cut, allow_truncated=True)
            except LogError:
                assert not readable  # only while the header itself is incomplete
                continue
            readable = True
            assert log.events == full[: len(log.events)]
        assert readable


def test_corrupt_gzip_is_a_one_line_error(tmp_path):
    path = _write_units(tmp_path / "bad.jsonl.gz")
    data = bytearray(path.read_bytes())
    data[30:40] = b"\xff" * 10
    path.write_bytes(bytes(data))
    with pytest.raises(LogError, match="cannot read log"):
        read_log(path)
