"""The scenarios a training server offers, each under an id the server made.

Without ``--from`` each game with a referee gets scenarios generated from the server's seed
(``paiju.train.generate``: five per practisable clause), made the first time the game or
one of its scenario ids is asked for. For the default seed the bank is kept in the package
(``bank.json``: each scenario's clause, the unit it came from and a digest of its log), so
every trainee meets the same bank and a server plays each kept unit once instead of
searching; ``python -m paiju.train.web.bank`` makes the file again (a test checks that doing
so gives the same file). A kept scenario whose digest no longer matches (the engine changed)
is not used: the game's bank is generated afresh, with a warning. With ``--from DIR`` the scenarios are the pack's (or every ruling of the logs in
DIR), in their order. A request names a scenario by id only: ids are looked up in a dict,
never turned into a path.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import threading
from collections.abc import Sequence
from importlib import resources
from typing import Any

from paiju.train.scenarios import Scenario, TrainingError, scenarios_from_dir
from tabletop.games import game_names

PER_CLAUSE = 5
"""Generated scenarios per practisable clause: enough to meet a clause in several deals."""
BANK_FILE = "bank.json"
KEPT_SEED = 0
"""The seed whose bank is kept in the package (the server's default)."""


def scenario_digest(scenario: Scenario) -> str:
    """What identifies a scenario: its log up to and including the ruling."""
    return hashlib.sha256("\n".join(scenario.log.lines[:scenario.ruling_index + 1]).encode("utf-8")).hexdigest()[:24]


def make_bank_data(seed: int = KEPT_SEED, per_clause: int = PER_CLAUSE,
                   games: Sequence[str] | None = None) -> dict[str, Any]:
    """The bank of each game as kept in ``bank.json``: per scenario its id, clause, unit and digest."""
    from paiju.train.generate import clause_kinds, generate

    out: dict[str, Any] = {"seed": seed, "per_clause": per_clause, "games": {}}
    for game in games if games is not None else referee_games():
        rows: list[dict[str, Any]] = []

        def keep(number: int, attempt: int, scenario: Scenario, rows: list[dict[str, Any]] = rows,
                 game: str = game) -> None:
            rows.append({"id": f"{game}-{len(rows) + 1}", "clause": scenario.expected.clause, "unit": [number, attempt],
                         "digest": scenario_digest(scenario)})

        generate(game, seed, per_clause * len(clause_kinds(game)), found_at=keep)
        out["games"][game] = rows
    return out


def bank_json(data: dict[str, Any]) -> str:
    """``bank.json``'s text: one scenario a line, so a change reads as a short diff."""
    games = ",\n".join(
        f"    {json.dumps(game)}: [\n" + ",\n".join(f"      {json.dumps(row, ensure_ascii=False)}" for row in rows) + "\n    ]"
        for game, rows in data["games"].items())
    return f'{{\n  "seed": {data["seed"]},\n  "per_clause": {data["per_clause"]},\n  "games": {{\n{games}\n  }}\n}}\n'


def kept_bank() -> dict[str, Any]:
    """``bank.json`` as kept in the package (empty when it is missing)."""
    try:
        return dict(json.loads(resources.files("paiju.train.web").joinpath(BANK_FILE).read_text(encoding="utf-8")))
    except (FileNotFoundError, ValueError):
        return {}


def referee_games() -> tuple[str, ...]:
    """The registered games whose referee has a rulebook to train on (a game registered
    without clauses, such as a test's toy game, is left out)."""
    from enforcement.games import referee_part
    from enforcement.rulebook import clauses_for
    from tabletop.errors import OptionError

    out = []
    for name in game_names():
        try:
            referee_part(name)
            if not clauses_for(name):
                continue
        except (OptionError, KeyError):
            continue
        out.append(name)
    return tuple(out)


class ScenarioBank:
    def __init__(self, seed: int = 0, source: str | None = None, per_clause: int = PER_CLAUSE,
                 games: Sequence[str] | None = None) -> None:
        self.seed = seed
        self.per_clause = per_clause
        self._lock = threading.Lock()
        self._by_id: dict[str, Scenario] = {}
        self._by_game: dict[str, list[str]] = {}
        if source is not None:
            game, scenarios = scenarios_from_dir(source)
            if not scenarios:
                raise TrainingError(f"--from {source}: no rulings to train on")
            self._games: tuple[str, ...] = (game,)
            self._add(game, scenarios, prefix="pack")
        else:
            self._games = tuple(games) if games is not None else referee_games()

    @property
    def games(self) -> tuple[str, ...]:
        return self._games

    def _add(self, game: str, scenarios: Sequence[Scenario], prefix: str) -> None:
        ids = []
        for number, scenario in enumerate(scenarios, 1):
            sid = f"{prefix}-{number}"
            self._by_id[sid] = scenario
            ids.append(sid)
        self._by_game[game] = ids

    def ids(self, game: str) -> list[str]:
        """The game's scenario ids, generating them on first use."""
        if game not in self._games:
            raise KeyError(game)
        with self._lock:
            if game not in self._by_game:
                from paiju.train.generate import clause_kinds, generate

                kept = self._from_kept(game)
                if kept is None:
                    count = self.per_clause * len(clause_kinds(game))
                    kept = generate(game, self.seed, count)
                self._add(game, kept, prefix=game)
            return list(self._by_game[game])

    def _from_kept(self, game: str) -> list[Scenario] | None:
        """The game's bank from ``bank.json`` when it is the bank asked for and still matches."""
        from paiju.train.generate import scenario_at

        data = kept_bank()
        rows = data.get("games", {}).get(game)
        if not rows or data.get("seed") != self.seed or data.get("per_clause") != self.per_clause:
            return None
        out = []
        for row in rows:
            number, attempt = row["unit"]
            scenario = scenario_at(game, self.seed, number, attempt, row["clause"])
            if scenario is None or scenario_digest(scenario) != row["digest"]:
                print(f"paiju train serve: the kept {game} scenario bank no longer matches this engine "
                      f"({row['id']}); generating it afresh (python -m paiju.train.web.bank remakes the file)",
                      file=sys.stderr)
                return None
            out.append(scenario)
        return out

    def get(self, sid: str) -> Scenario | None:
        """The scenario of id ``sid``, generating its game's scenarios if they are not made
        yet: ids are the same from one start of the server to the next (same seed), so an
        exam or a page open across a restart goes on."""
        if not isinstance(sid, str):
            return None
        found = self._by_id.get(sid)
        game = sid.rpartition("-")[0]
        if found is None and game in self._games and game not in self._by_game:
            self.ids(game)
            found = self._by_id.get(sid)
        return found

    def clauses(self, game: str) -> list[str]:
        """The clauses the game's scenarios cite, in first-seen order."""
        return list(dict.fromkeys(self._by_id[s].expected.clause for s in self.ids(game)))

    def for_clause(self, game: str, clause: str) -> list[str]:
        """The clause's scenarios, the easiest first."""
        return sorted((s for s in self.ids(game) if self._by_id[s].expected.clause == clause), key=self.difficulty)

    def difficulty(self, sid: str) -> tuple[int, int]:
        """How hard a scenario is to rule: the rulings already given earlier in its deal (an
        exposure while a bar is pending is harder than a lone irregularity), then the number
        of effects and sanctions to get right; the id's number breaks ties."""
        from tabletop.rulings import RulingEvent, UnresolvedEvent

        scenario = self._by_id[sid]
        events = scenario.log.events
        deal = events[scenario.ruling_index].deal
        earlier = sum(1 for e in events[:scenario.ruling_index]
                      if isinstance(e, (RulingEvent, UnresolvedEvent)) and e.deal == deal)
        parts = len(scenario.expected.rectification) + len(scenario.expected.sanctions)
        return (3 * earlier + parts, int(sid.rpartition("-")[2]) if sid.rpartition("-")[2].isdigit() else 0)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m paiju.train.web.bank [--out FILE]``: make the kept bank (bank.json)."""
    from paiju.files import write_whole

    parser = argparse.ArgumentParser(prog="python -m paiju.train.web.bank",
                                     description="Make the trainer's kept scenario bank (bank.json).")
    parser.add_argument("--out", default=str(resources.files("paiju.train.web").joinpath(BANK_FILE)),
                        help="where to write it (default: the package's bank.json)")
    args = parser.parse_args(argv)
    data = make_bank_data()
    write_whole(args.out, bank_json(data), what="the scenario bank")
    print(f"{args.out}: {sum(len(rows) for rows in data['games'].values())} scenarios", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
