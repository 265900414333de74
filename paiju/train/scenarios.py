"""Referee training: the scenario model, scenarios found in logs, and scenario packs.

A scenario is a refereed deal replayed up to an irregularity: the trainee sees the table
just before the referee's ruling (``position``: the event the ruling follows, usually the
irregular attempt itself, or the event at which a latent one came to light) and names the
clause, optionally the rectification and the sanctions. The ruling that answers it
(``ref.ruling``; for ``ref.unresolved`` the fallback clause, GD-2.5 / SJ-3.0) is the key.

Scenarios come from logs (every ruling of every log in a directory, or the ones a pack's
``key.json`` lists) or are generated, seeded, by the infraction injector
(``paiju.train.generate``). A pack (``paiju train export``) is a directory::

    key.json              the answer key (PACK_FORMAT): game, how it was made, and per
                          scenario its log, position, ruling and the expected answer
    scenario-001.jsonl    the whole refereed log of scenario 1 (one unit), ruling included
    scenario-002.jsonl    …

`paiju train --from DIR` on a pack plays exactly the scenarios of its key, in order.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from paiju.wording import effect_words, facts_words, imposed_words, sanction_words
from paiju.files import write_whole
from tabletop.errors import LogError, PaijuError
from tabletop.events import Event, UnitStarted
from tabletop.log import Log, encode
from tabletop.rulings import RulingEvent, UnresolvedEvent

PACK_FORMAT = "paiju-train-pack"
PACK_VERSION = 1
KEY_FILE = "key.json"
LOG_SUFFIXES = (".jsonl", ".jsonl.gz")


class TrainingError(PaijuError):
    """Bad training input: a pack, a directory of logs, an answers file, a report path."""


def scenario_name(number: int) -> str:
    """The log file name of scenario ``number`` (from 1) in a pack."""
    return f"scenario-{number:03d}.jsonl"


# ---------------------------------------------------------------------------------------------
# The expected answer


def sanction_key(data: Any) -> str:
    """A sanction as the trainee names it: 'Warning', 'PointPenalty(10)', 'LevelDiffPenalty(1)',
    'ForcedLast' … (the kind, with ``n`` for the penalties that count)."""
    if not isinstance(data, dict):
        return str(data)
    kind = str(data.get("kind"))
    return f"{kind}({data['n']})" if "n" in data else kind


@attrs.frozen
class Expected:
    """What the referee ruled: the key a trainee's answer is graded against."""

    clause: str
    offender: int | None
    side: int | None
    irregularity: str
    """The engine's irregularity id (``play_out_of_turn`` …), from the answered event."""
    irregular: str | None
    """The address (seq or UNIT:SEQ) of the irregular attempt answered (None: ruled at once)."""
    sanctions: tuple[str, ...]
    """Sanction keys (``sanction_key``), escalations included, without repeats, in order."""
    rectification: tuple[str, ...]
    """Table-effect kinds, in the ruling's order, without repeats."""
    effects: tuple[str, ...]
    """The table effects in full, readably ('Expose(S3 S4, seat=1)')."""
    sanction_texts: tuple[str, ...]
    """The sanctions in full, readably ('seat 1: Warning [GD-1.1.2]')."""
    facts: str
    unresolved: bool
    note: str
    """What the referee said: the clause summary, or the unresolved note."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "expected_clause": self.clause, "offender": self.offender, "side": self.side,
            "irregularity": self.irregularity, "irregular": self.irregular,
            "expected_sanctions": list(self.sanctions), "expected_rectification": list(self.rectification),
            "unresolved": self.unresolved,
        }


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def expected_from(ruling: RulingEvent | UnresolvedEvent, irregular: Event | None, irregular_label: str | None,
                  game: str = "") -> Expected:
    """The key of a ``ref.ruling`` / ``ref.unresolved`` event (its texts in the referee's
    words, ``paiju.wording``)."""
    from enforcement.rulebook import clause

    if isinstance(ruling, UnresolvedEvent):
        step = clause(ruling.fallback).sanction.for_occurrence(1)   # the default fallback's record
        keys = _unique(sanction_key(s.to_dict()) for s in step)
        offender = ruling.seat
        return Expected(
            clause=ruling.fallback, offender=offender, side=None if offender is None else offender % 2,
            irregularity=ruling.irregularity, irregular=irregular_label, sanctions=keys, rectification=(),
            effects=(), sanction_texts=tuple(sanction_words(s.to_dict()) for s in step),
            facts=facts_words(game, ruling.facts, offender),
            unresolved=True, note=ruling.note)
    effects = tuple(dict(e) for e in ruling.rectification)
    rows = tuple(dict(r) for r in ruling.sanctions)
    return Expected(
        clause=ruling.clause, offender=ruling.offender, side=ruling.side,
        irregularity=getattr(irregular, "irregularity", "") or "", irregular=irregular_label,
        sanctions=_unique(sanction_key(r.get("sanction")) for r in rows),
        rectification=_unique(str(e.get("kind")) for e in effects),
        effects=tuple(effect_words(game, e, ruling.offender) for e in effects),
        sanction_texts=tuple(imposed_words(r, ruling.offender) for r in rows),
        facts=facts_words(game, ruling.facts, ruling.offender), unresolved=False, note=ruling.summary)


# ---------------------------------------------------------------------------------------------
# Scenarios


@attrs.frozen
class Scenario:
    """One irregularity to rule on. ``log`` is the whole log (the ruling and what follows
    included, for the key and the explanation); ``view`` is what the trainee may see."""

    game: str
    log: Log = attrs.field(eq=False, repr=False)
    source: str
    """The log's path, or the file name it has in a pack (a generated scenario)."""
    ruling_index: int
    """Index in ``log.events`` of the ruling that answers the scenario."""
    position: str
    """Address (seq, or UNIT:SEQ in a log of several units) of the event just before the
    ruling: the table the trainee sees (`paiju replay LOG --at POSITION`)."""
    ruling: str
    """Address of the ruling itself."""
    expected: Expected

    @property
    def view_index(self) -> int:
        """Index of the last event the trainee sees."""
        return self.ruling_index - 1

    def view(self) -> Log:
        """The log cut just before the ruling: nothing of the ruling can be seen in it."""
        cut = self.ruling_index
        return Log(header=self.log.header, events=self.log.events[:cut], lines=self.log.lines[:cut])

    def key(self) -> dict[str, Any]:
        """Its entry in a pack's key.json / a report (without the trainee's answer)."""
        return {"log": self.source, "position": self.position, "ruling": self.ruling, **self.expected.to_dict()}


def addresses(log: Log) -> list[str]:
    """Each event's address: its seq, or UNIT:SEQ in a log of several units."""
    several = sum(1 for e in log.events if isinstance(e, UnitStarted)) > 1
    unit: int | None = None
    out = []
    for event in log.events:
        if isinstance(event, UnitStarted):
            unit = event.index
        out.append(f"{unit}:{event.seq}" if several and unit is not None else str(event.seq))
    return out


def scenarios_in_log(log: Log, source: str) -> list[Scenario]:
    """Every ruling (and unresolved irregularity) of a log, as a scenario, in log order."""
    labels = addresses(log)
    out = []
    unit_start = 0
    for index, event in enumerate(log.events):
        if isinstance(event, UnitStarted):
            unit_start = index
        if not isinstance(event, (RulingEvent, UnresolvedEvent)) or index == 0:
            continue
        answers = getattr(event, "answers", None)
        irregular = None
        irregular_at = None
        if isinstance(answers, int) and answers >= 0:
            irregular_at = next((k for k in range(index - 1, unit_start - 1, -1)
                                 if log.events[k].seq == answers), None)
            irregular = log.events[irregular_at] if irregular_at is not None else None
        expected = expected_from(event, irregular, labels[irregular_at] if irregular_at is not None else None, log.game)
        out.append(Scenario(log.game, log, source, index, labels[index - 1], labels[index], expected))
    return out


def load_log(path: str) -> Log:
    """A whole log, its game's event kinds loaded first (see ``paiju.replay.view.open_log``);
    a log cut off in the middle of a line is an error here (a scenario needs its ruling)."""
    from paiju.replay.view import open_log

    log = open_log(path)
    if log.truncated:
        raise LogError(log.error or f"{path}: truncated log")
    return log


def log_files(directory: str) -> list[str]:
    """The logs of a directory (``*.jsonl``, ``*.jsonl.gz``), by file name."""
    if not os.path.isdir(directory):
        raise TrainingError(f"--from {directory}: not a directory")
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(LOG_SUFFIXES))
    except OSError as exc:
        raise TrainingError(f"--from {directory}: cannot list it: {exc.strerror or exc}") from None
    return [os.path.join(directory, n) for n in names]


def scenarios_from_dir(directory: str, game: str | None = None) -> tuple[str, list[Scenario]]:
    """The scenarios of a directory: a pack's (its key.json, in key order), else every ruling
    of every log (file name order, then log order). Returns (game, scenarios)."""
    if os.path.isfile(os.path.join(directory, KEY_FILE)):
        return read_pack(directory, game)
    files = log_files(directory)
    if not files:
        raise TrainingError(f"--from {directory}: no logs (*.jsonl, *.jsonl.gz) and no {KEY_FILE}")
    scenarios: list[Scenario] = []
    games: set[str] = set()
    for path in files:
        log = load_log(path)
        if game is not None and log.game != game:
            raise TrainingError(f"{path}: a {log.game!r} log, but --game is {game!r}")
        games.add(log.game)
        scenarios.extend(scenarios_in_log(log, path))
    if len(games) > 1:
        raise TrainingError(f"--from {directory}: logs of both games; keep one game per directory")
    return games.pop(), scenarios


def filter_clauses(scenarios: Sequence[Scenario], wanted: Iterable[str] | None) -> list[Scenario]:
    if wanted is None:
        return list(scenarios)
    keep = set(wanted)
    return [s for s in scenarios if s.expected.clause in keep]


# ---------------------------------------------------------------------------------------------
# Packs


def write_pack(directory: str, game: str, scenarios: Sequence[Scenario], made: dict[str, Any]) -> list[str]:
    """Write a pack: each scenario's whole log as scenario-NNN.jsonl (NNN: the first scenario
    of that log), then key.json. ``directory`` must be new or empty. The pack is written in a
    temporary directory beside it and renamed into place whole: a failed or interrupted
    export leaves no pack and no half of one. Returns the log file names."""
    if os.path.exists(directory):
        if not os.path.isdir(directory):
            raise TrainingError(f"export: {directory} exists and is not a directory")
        if os.listdir(directory):
            raise TrainingError(f"export: {directory} is not empty (a pack goes into a new or empty directory)")
    parent = os.path.dirname(os.path.abspath(directory))
    try:
        os.makedirs(parent, exist_ok=True)
        building = tempfile.mkdtemp(prefix=f".{os.path.basename(os.path.abspath(directory))}.paiju-", suffix=".tmp",
                                    dir=parent)
    except OSError as exc:
        raise TrainingError(f"export: cannot create {directory}: {exc.strerror or exc}") from None
    try:
        entries = []
        names: dict[str, str] = {}
        for number, scenario in enumerate(scenarios, start=1):
            name = names.get(scenario.source)
            if name is None:  # scenarios from one log share its file
                name = names[scenario.source] = scenario_name(number)
                text = "".join(line + "\n" for line in (encode(scenario.log.header), *scenario.log.lines))
                write_text(os.path.join(building, name), text)
            entries.append({"number": number, **scenario.key(), "log": name})
        key = {"format": PACK_FORMAT, "version": PACK_VERSION, "game": game, "made": made, "scenarios": entries}
        write_text(os.path.join(building, KEY_FILE), json.dumps(key, ensure_ascii=False, indent=1) + "\n")
        os.chmod(building, 0o755)
        os.rename(building, directory)   # onto a missing or empty directory: the pack appears whole
    except OSError as exc:
        shutil.rmtree(building, ignore_errors=True)
        raise TrainingError(f"export: cannot write {directory}: {exc.strerror or exc}") from None
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return sorted(set(names.values()))


def read_pack(directory: str, game: str | None = None) -> tuple[str, list[Scenario]]:
    """The scenarios a pack's key lists, each checked against the ruling in its log."""
    path = os.path.join(directory, KEY_FILE)
    try:
        with open(path, encoding="utf-8") as f:
            key = json.load(f)
    except OSError as exc:
        raise TrainingError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise TrainingError(f"{path}: not JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(key, dict) or key.get("format") != PACK_FORMAT:
        raise TrainingError(f"{path}: not a paiju training pack key (format {PACK_FORMAT!r})")
    if key.get("version") != PACK_VERSION:
        raise TrainingError(f"{path}: pack version {key.get('version')!r} is not supported (this paiju reads {PACK_VERSION})")
    pack_game = key.get("game")
    if game is not None and pack_game != game:
        raise TrainingError(f"{path}: a {pack_game!r} pack, but --game is {game!r}")
    entries = key.get("scenarios")
    if not isinstance(entries, list) or not entries:
        raise TrainingError(f"{path}: no scenarios")
    logs: dict[str, list[Scenario]] = {}
    out = []
    for number, entry in enumerate(entries, start=1):
        where = f"{path}: scenario {number}"
        if not isinstance(entry, dict) or not isinstance(entry.get("log"), str) or not isinstance(entry.get("ruling"), str):
            raise TrainingError(f"{where}: needs 'log' and 'ruling'")
        name = entry["log"]
        if os.path.isabs(name) or os.path.normpath(name).startswith(".."):
            raise TrainingError(f"{where}: log {name!r} is not inside the pack")
        if name not in logs:
            log = load_log(os.path.join(directory, name))
            if log.game != pack_game:
                raise TrainingError(f"{where}: {name} is a {log.game!r} log in a {pack_game!r} pack")
            logs[name] = scenarios_in_log(log, os.path.join(directory, name))
        found = next((s for s in logs[name] if s.ruling == entry["ruling"]), None)
        if found is None:
            raise TrainingError(f"{where}: {name} has no ruling at {entry['ruling']}")
        if entry.get("expected_clause") not in (None, found.expected.clause):
            raise TrainingError(f"{where}: the key says {entry['expected_clause']}, the ruling in {name} "
                                f"at {entry['ruling']} cites {found.expected.clause}")
        out.append(found)
    assert isinstance(pack_game, str)  # the game of every log in the pack (there is one at least)
    return pack_game, out


def write_text(path: str, text: str) -> None:
    """Write a file whole (``paiju.files.write_whole``)."""
    write_whole(path, text, error=TrainingError)
