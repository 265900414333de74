"""Playing a tournament on simulate's machinery, and scoring it.

Every pairing in every seating is a ``paiju.sim.batch.Batch``; its boards are cut into chunks
and all chunks of all pairings go through one backend (``paiju.sim.backends.completed``: this
process, ``--jobs N`` local processes or a Dask cluster) behind one progress display.
Results are filed by (pairing, seating, pair), never by arrival order, so the scores are
the same for any ``--jobs`` and on a cluster.

``--until-significant`` plays in looks of ``step`` pairs per pairing; after each look a
pairing whose level-difference interval excludes zero stops. Looking repeatedly at a
growing sample would make a 95 % interval exclude zero by luck more often than 5 % of the
time, so the stopping rule uses a Bonferroni interval at ``1 - 0.05 / looks`` (looks fixed
in advance from the budget); the reported intervals are the ordinary 95 % ones.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import numpy as np

from paiju.games import paiju_part
from paiju.sim.backends import Backend, completed
from paiju.sim.batch import Chunk, ChunkTask, chunk_size
from paiju.progress import start_progress
from paiju.tournament.outcomes import UnitFacts, unit_facts
from paiju.tournament.plan import Leg, Pairing, TournamentPlan
from paiju.tournament.stats import CONFIDENCE, Interval, Ratings, bradley_terry, level_interval, score_interval

MAX_LOOKS = 10
MIN_STEP_PAIRS = 10
"""With --until-significant: at most this many looks, at least this many pairs apart."""

Key = tuple[int, int, int]
"""(pairing number, seating, pair)."""


@attrs.frozen
class PairingOutcome:
    pairing: Pairing
    level_diff: Interval
    """Mean level difference per deal, the first agent's levels minus the second's."""
    win_rate: Interval
    """The first agent's share of deals (or matches) won; a tie counts ½."""
    pair_level_diffs: tuple[float, ...]
    deal_level_diffs: tuple[int, ...]
    """Per deal, from the first agent's side (for the distribution plot)."""
    stopped_early: bool = False


@attrs.frozen
class TournamentRun:
    plan: TournamentPlan
    units: dict[Key, UnitFacts] = attrs.field(hash=False)
    outcomes: tuple[PairingOutcome, ...]
    ratings: Ratings
    seconds: float
    backend: str
    looks: int
    step: int
    interrupted: KeyboardInterrupt | None = attrs.field(default=None, eq=False)
    """What stopped the tournament before its last board (Ctrl-C, SIGTERM, SIGHUP): the run
    holds the boards played until then."""


def looks_plan(pairs: int, until_significant: bool) -> tuple[int, int]:
    """(step in pairs, number of looks)."""
    if not until_significant:
        return pairs, 1
    step = max(MIN_STEP_PAIRS, math.ceil(pairs / MAX_LOOKS))
    return step, math.ceil(pairs / step)


def play_tournament(plan: TournamentPlan, backend: Backend, *, until_significant: bool = False,
                    quiet: bool = True, keep_on_interrupt: bool = False) -> TournamentRun:
    """Play every pairing's boards; with ``keep_on_interrupt``, an interrupt ends the
    tournament with the boards played so far (``TournamentRun.interrupted``) instead of raising."""
    pairings = plan.pairings
    step, looks = looks_plan(plan.pairs, until_significant)
    stopping_confidence = 1 - (1 - CONFIDENCE) / looks
    units: dict[Key, UnitFacts] = {}
    active = list(pairings)
    stopped: set[int] = set()
    played = 0
    start = time.perf_counter()
    progress = start_progress(plan.unit, plan.count * len(pairings), quiet=quiet, description="tournament")
    interrupted: KeyboardInterrupt | None = None
    try:
        while active and played < plan.pairs:
            upto = min(played + step, plan.pairs)
            legs = list(plan.legs(active, played, upto))
            _play_legs(plan, backend, legs, units, progress)
            played = upto
            if until_significant and played < plan.pairs:
                still = []
                for pairing in active:
                    diffs, _ = pair_scores(plan, units, pairing)
                    if level_interval(diffs, _bound(plan), stopping_confidence).excludes_zero:
                        stopped.add(pairing.number)
                    else:
                        still.append(pairing)
                active = still
    except KeyboardInterrupt as exc:
        if not keep_on_interrupt:
            raise
        interrupted = exc
    finally:
        progress.close()
    seconds = time.perf_counter() - start
    outcomes = tuple(score_pairing(plan, units, p, stopped_early=p.number in stopped) for p in pairings)
    return TournamentRun(plan, units, outcomes, fit_ratings(plan, units), seconds, backend.description, looks, step,
                         interrupted)


def _play_legs(plan: TournamentPlan, backend: Backend, legs: Sequence[Leg], units: dict[Key, UnitFacts],
               progress: Any) -> None:
    total = sum(leg.stop - leg.start for leg in legs)
    size = chunk_size(plan.unit, total, backend.workers)
    pairings = plan.pairings
    owner: dict[int, Leg] = {}

    def tasks() -> Iterator[ChunkTask]:   # made as the backend asks for them, never listed whole
        numbers = itertools.count()   # numbers tell the outputs apart; they do not order anything
        for leg in legs:
            batch = plan.batch(pairings[leg.pairing], leg.seating)
            for first in range(leg.start, leg.stop, size):
                number = next(numbers)
                owner[number] = leg
                yield ChunkTask(batch, Chunk(number, first, min(first + size, leg.stop)))

    for output in completed(backend, tasks()):
        progress.advance(len(output.chunk))
        leg = owner.pop(output.chunk.number)
        for board, result in zip(range(output.chunk.start, output.chunk.stop), output.results):
            key = (leg.pairing, leg.seating, _pair_of(plan, board, leg.seating))
            units[key] = unit_facts(plan.game, plan.unit, result)


def clones_note(pairings: Sequence[str]) -> str:
    """What a pairing of two entrants of the same agent (``random,random``) measures."""
    return (f"{' and '.join(pairings)}: the same agent on both sides (clones): such a pairing measures the luck "
            f"of the cards alone, and its interval should cover 0.")


def _bound(plan: TournamentPlan) -> int | None:
    """The most levels a deal of the game gives (its paiju part), bounding the level differences."""
    return paiju_part(plan.game).deal_levels_at_most


def _pair_of(plan: TournamentPlan, board: int, seating: int) -> int:
    return board - plan.board(0, seating)


def pair_scores(plan: TournamentPlan, units: dict[Key, UnitFacts], pairing: Pairing) -> tuple[list[float], list[float]]:
    """Per pair played: the first agent's mean level difference per deal, and its score
    (each the mean over the pair's two seatings)."""
    diffs: list[float] = []
    scores: list[float] = []
    pair = 0
    while (pairing.number, 0, pair) in units and (pairing.number, 1, pair) in units:
        both = [(units[(pairing.number, seating, pair)], pairing.team_of_first(seating)) for seating in (0, 1)]
        diffs.append(sum(facts.level_diff(team) for facts, team in both) / 2)
        scores.append(sum(facts.score(team) for facts, team in both) / 2)
        pair += 1
    return diffs, scores


def score_pairing(plan: TournamentPlan, units: dict[Key, UnitFacts], pairing: Pairing, *,
                  stopped_early: bool = False) -> PairingOutcome:
    diffs, scores = pair_scores(plan, units, pairing)
    deal_diffs: list[int] = []
    for pair in range(len(diffs)):
        for seating in (0, 1):
            facts = units[(pairing.number, seating, pair)]
            team = pairing.team_of_first(seating)
            deal_diffs.extend(d.levels if d.winner_team == team else -d.levels for d in facts.deals)
    return PairingOutcome(pairing, level_interval(diffs, _bound(plan)), score_interval(scores), tuple(diffs), tuple(deal_diffs),
                          stopped_early)


def fit_ratings(plan: TournamentPlan, units: dict[Key, UnitFacts]) -> Ratings:
    """Bradley–Terry over every deal (or match) played: each is one game between the two
    entrants, a tied match ½ each."""
    index = {e.label: i for i, e in enumerate(plan.entrants)}
    k = len(plan.entrants)
    wins = np.zeros((k, k))
    games = np.zeros((k, k))
    pairings = plan.pairings
    for (number, seating, _), facts in sorted(units.items()):
        pairing = pairings[number]
        i, j = index[pairing.first.label], index[pairing.second.label]
        score = facts.score(pairing.team_of_first(seating))
        wins[i, j] += score
        wins[j, i] += 1 - score
        games[i, j] += 1
        games[j, i] += 1
    return bradley_terry([e.label for e in plan.entrants], wins, games)
