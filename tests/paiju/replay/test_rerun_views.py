"""The engine's view of the table (``guandan.view``, ``shengji.view``) is what the replay draws:
a log re-run through its engine (``paiju.replay.rerun``) gives, after every prefix of the log
that ends a batch, the same view as the live engine had at that point — strict and refereed
runs with infractions, both games, deals and matches — and taking views changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.games import adapter_for
from paiju.replay.rerun import Parted, Point, rerun, views
from paiju.sim import batch
from paiju.sim.refereed import unit_options
from tabletop.games import game_spec
from tabletop.log import Log, encode, make_header, read_log


class _Views:
    """Observes a live run: the view (omniscient and of each seat) after each batch, by the
    number of events so far."""

    def __init__(self, game: str, twice: bool = False) -> None:
        self.view = game_spec(game).table_view
        self.count = 0
        self.seen: dict[int, tuple[Any, ...]] = {}
        self.twice = twice

    def on_events(self, engine: Any, events: list[Any]) -> None:
        self.count += len(events)
        taken = tuple(self.view(engine, viewer) for viewer in (None, 0, 1, 2, 3))
        if self.twice:   # a second reading gives the same record
            assert taken == tuple(self.view(engine, viewer) for viewer in (None, 0, 1, 2, 3))
        self.seen[self.count] = taken


def play(tmp: Path, game: str, seed: int, unit: str, infractions: float | None,
         observers: list[Any]) -> Log:
    """One unit played live by random agents (a refereed one with injected infractions and
    the rulebook referee), written as `paiju simulate` writes it and read back."""
    adapter = adapter_for(game)
    rules = adapter.rules_from_dict({"max_deals": 2} if unit == "matches" else {})
    agents = ["random"] * 4
    options = (unit_options(unit, agents, infractions) if infractions is not None
               else {"unit": unit, "count": 1, "agents": agents})
    run = batch.Batch(game=game, unit=unit, count=1, seed=seed, rules=rules.to_dict(), agents=tuple(agents),
                      options={k: v for k, v in options.items() if k in ("referee", "infractions")})
    lines: list[str] = []
    batch.play_unit(adapter, run, rules, 0, lines, observers=observers)
    path = tmp / f"{game}-{seed}.jsonl"
    path.write_text("".join(line + "\n" for line in (encode(make_header(game, seed, rules.to_dict(), options)), *lines)))
    return read_log(path)


@settings(max_examples=6, deadline=None)
@given(game=st.sampled_from(["guandan", "shengji"]), seed=st.integers(0, 10_000),
       unit=st.sampled_from(["deals", "matches"]), infractions=st.sampled_from([None, 0.05, 0.3]))
def test_view_after_a_rerun_prefix_is_the_live_view(tmp_path_factory: Any, game: str, seed: int, unit: str,
                                                    infractions: float | None) -> None:
    live = _Views(game)
    log = play(tmp_path_factory.mktemp("logs"), game, seed, unit, infractions, [live])
    view = game_spec(game).table_view
    compared = 0
    for point in rerun(log):
        assert isinstance(point, Point), point
        # the log's event ``point.last`` is the live run's event ``point.last`` (the log's
        # first line is the unit event, which the live observers are not shown)
        assert tuple(view(point.engine, viewer) for viewer in (None, 0, 1, 2, 3)) == live.seen[point.last]
        compared += 1
    assert compared == len(live.seen)
    assert point.last == len(log.events) - 1


def test_views_change_nothing(tmp_path: Path) -> None:
    """Taking every view twice after every batch leaves the run byte for byte as it was."""
    for game in ("guandan", "shengji"):
        (tmp_path / game / "plain").mkdir(parents=True)
        (tmp_path / game / "looked").mkdir()
        plain = play(tmp_path / game / "plain", game, 11, "matches", 0.2, [])
        looked = play(tmp_path / game / "looked", game, 11, "matches", 0.2, [_Views(game, twice=True)])
        assert plain.lines == looked.lines
        assert len(plain.lines) > 100


def test_a_seat_sees_only_its_own_hand(tmp_path: Path) -> None:
    log = play(tmp_path, "guandan", 3, "deals", None, [])
    for seat_view in views(log, 2, game_spec("guandan").table_view)[-40].seats:
        assert (seat_view.hand is not None) == (seat_view.seat == 2)
    log = play(tmp_path, "shengji", 3, "deals", None, [])
    middle = views(log, 1, game_spec("shengji").table_view)[len(log.events) // 2]
    assert [s.hand is not None for s in middle.seats] == [False, True, False, False]
    assert all(s.count is not None for s in middle.seats)   # 双升's hand sizes are public


def test_a_log_that_parts_from_its_engine_stops_there(tmp_path: Path) -> None:
    log = play(tmp_path, "guandan", 5, "deals", None, [])
    lines = (tmp_path / "guandan-5.jsonl").read_text().splitlines()
    cut = next(k for k, line in enumerate(lines) if '"kind":"gd.played"' in line)
    seat = lines[cut].split('"seat":')[1][0]
    lines[cut] = lines[cut].replace(f'"seat":{seat}', f'"seat":{(int(seat) + 1) % 4}', 1)   # not its turn
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join(lines) + "\n")
    log = read_log(edited)
    points = list(rerun(log))
    assert isinstance(points[-1], Parted) and points[-1].index == cut - 1
