"""One record per irregularity id: everything the project knows about a kind of irregularity
(the engine's id, where in a deal it can happen, the seed's term and English words for it,
the clauses a ruling on it can cite) in one place. Each game registers its table with its
referee part (``RefereePart.irregularities``); the injector's kinds, the rulings' dispatch,
the fuzzer's stages, the views' and the trainer's words all read it
(``irregularities_of``, ``irregularity_of``).

The clauses are not written in a record: ``irregularity_table`` derives them from the
rulebook's triggers (``enforcement.rulebook.clauses_by_irregularity``), so the rulebook stays
the one place that says which clause answers what."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs

from enforcement.rulebook import clauses_by_irregularity
from tabletop.errors import OptionError


@attrs.frozen
class Irregularity:
    """One kind of irregularity of one game."""

    id: str
    """The engine's id (the log's ``gd.irregular`` / ``sj.irregular`` events)."""
    game: str
    zh: str
    """The seed's own term for it (越序出牌, 反复报牌); a kind the seed names not, in its style."""
    en: str
    """What the seat did, in English ('plays out of turn')."""
    stages: tuple[str, ...]
    """The stages of a deal the engine can meet it in (the fuzzer's ``Interactions.stages``;
    none: any stage)."""
    found_stages: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    """Where it is found → its own stages, when they are narrower (a wrong tribute found
    'before_first_play': only while tribute is given)."""
    clauses: tuple[str, ...] = ()
    """The clauses a ruling on it can cite, in catalogue order (filled in from the rulebook)."""

    @property
    def recorded_only(self) -> bool:
        """No clause of the rulebook rules on it: the referee records it under the game's
        fallback clause (the rulebook's ``unresolved:`` keys)."""
        return not self.clauses

    @property
    def words(self) -> str:
        """The seed's term first, the English beside: '越序出牌 plays out of turn'."""
        return f"{self.zh} {self.en}"

    def stages_found(self, key: str) -> tuple[str, ...]:
        """The stages of ``key``: an id or ``id/found`` ('wrong_tribute/after_first_play');
        none: any stage."""
        _, _, found = key.partition("/")
        return self.found_stages.get(found, self.stages)


def irregularity_table(game: str, records: Iterable[Irregularity]) -> dict[str, Irregularity]:
    """``records`` by id, each with the clauses the rulebook has rule on it. A record of
    another game, an id twice, or an id the rulebook's triggers name with no record is a
    ValueError (a table that does not match its game cannot be registered)."""
    records = tuple(records)
    by_clause = clauses_by_irregularity(game, (r.id for r in records))
    out: dict[str, Irregularity] = {}
    for record in records:
        if record.game != game or record.id in out:
            raise ValueError(f"irregularity {record.game}/{record.id}: not one record of {game}")
        out[record.id] = attrs.evolve(record, clauses=by_clause[record.id])
    unrecorded = sorted(set(by_clause) - set(out))
    if unrecorded:
        raise ValueError(f"{game}'s rulebook rules on irregularities with no record: {', '.join(unrecorded)}")
    return out


def irregularities_of(game: str) -> Mapping[str, Irregularity]:
    """``game``'s irregularities by id (its referee part's; none for a game without)."""
    from enforcement.games import referee_part

    return referee_part(game).irregularities


def irregularity_of(game: str, irregularity: str) -> Irregularity | None:
    """The record of ``irregularity`` (an id, or ``id/found``) in ``game``; None if it has none."""
    try:
        table = irregularities_of(game)
    except OptionError:   # an unknown game, or one without a referee: no records
        return None
    return table.get(str(irregularity).partition("/")[0])
