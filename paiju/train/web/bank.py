"""The scenarios a training server offers, each under an id the server made.

Without ``--from`` each game with a referee gets scenarios generated from the server's seed
(``paiju.train.generate``: two per practisable clause), made the first time the game or
one of its scenario ids is asked for. With ``--from DIR`` the scenarios are the pack's (or every ruling of the logs in
DIR), in their order. A request names a scenario by id only: ids are looked up in a dict,
never turned into a path.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from paiju.train.scenarios import Scenario, TrainingError, scenarios_from_dir
from tabletop.games import game_names

PER_CLAUSE = 5
"""Generated scenarios per practisable clause: enough to meet a clause in several deals."""


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

                count = self.per_clause * len(clause_kinds(game))
                self._add(game, generate(game, self.seed, count), prefix=game)
            return list(self._by_game[game])

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
