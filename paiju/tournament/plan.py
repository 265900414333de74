"""What a tournament plays: the entrants, the round-robin pairings, and which boards each
pairing plays in which seating.

A board is a unit index of the seed tree: board ``b`` of the run's seed is always the same
cards (the engine comes from the node ``(seed, b)``), whoever sits down to it, and every
pairing plays the same boards. A pairing's ``count`` deals (or matches) are played as
``count / 2`` pairs, each agent once on seats 0&2 and once on seats 1&3:

* with ``duplicate``, pair ``p`` is board ``p`` played twice, the second time with the
  agents' seats swapped (the same cards, each agent on the other side of them);
* without, pair ``p`` is board ``p`` with the first agent on seats 0&2 and board
  ``count/2 + p`` with the seats swapped (different cards).

An agent is named by a spec string: a built-in name such as ``heuristic``, a plug-in
(``module:Name``, ``file.py:Name``: ``paiju.agent_specs``) or ``ogd:PORT`` (connected bots);
the spec travels to the workers as it is, in the ``Batch``'s agents, and is checked here in
one place, ``check_agent``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any

import attrs

from tabletop.errors import OptionError
from tabletop.seats import PARTNERSHIPS, Seating

from paiju.agent_specs import agent_factory
from paiju.games import GameAdapter, paiju_part
from paiju.sim.batch import Batch

BOT_PREFIX = "ogd:"
"""``ogd:PORT``: the team of two competition bots that connect to paiju on PORT."""
FIRST_ON_EVEN = 0
"""Seating 0: the pairing's first agent on side 0 (seats 0&2 at a partnership table);
seating 1: swapped."""


@attrs.frozen
class Entrant:
    label: str
    """How tables and plots name it: the spec, with '#2', '#3' … when entered again."""
    spec: str
    """What the workers build the agent from."""


@attrs.frozen
class Pairing:
    number: int
    first: Entrant
    second: Entrant

    @property
    def label(self) -> str:
        return f"{self.first.label} vs {self.second.label}"

    def seats(self, seating: int, table: Seating = PARTNERSHIPS) -> tuple[Entrant, ...]:
        """Who sits on each seat of ``table``: the first agent on its side, the second on the other."""
        first_side = self.team_of_first(seating)
        return tuple(self.first if table.side(seat) == first_side else self.second for seat in range(table.seats))

    def on_side(self, side: int, seating: int) -> Entrant:
        """The agent playing side ``side`` (team 0 or 1) in ``seating``."""
        return self.first if side == self.team_of_first(seating) else self.second

    def team_of_first(self, seating: int) -> int:
        return 0 if seating == FIRST_ON_EVEN else 1


@attrs.frozen
class Leg:
    """Boards ``start`` … ``stop - 1`` of one pairing in one seating."""

    pairing: int
    seating: int
    start: int
    stop: int


def check_agent(game: GameAdapter, spec: str) -> None:
    """The one place an agent spec is checked before any work starts: a built-in agent, a
    plug-in (``paiju.agent_specs``), or ``ogd:PORT`` (connected competition bots, in a game
    that speaks OGD)."""
    if spec.startswith(BOT_PREFIX):
        from paiju.ogd.seats import bot_port

        bot_port(spec)
        if paiju_part(game.name).bot_protocol != "ogd":
            raise OptionError(f"agent {spec!r}: competition bots speak the OGD protocol, which {game.name} has not")
        return
    agent_factory(spec, game.name)  # a built-in name or a plug-in (module:Name, file.py:Name); one-line errors


def parse_entrants(text: str, game: GameAdapter) -> tuple[Entrant, ...]:
    specs = [part.strip() for part in text.split(",")]
    if any(not spec for spec in specs):
        raise OptionError(f"--agents: an empty name in {text!r}")
    if len(specs) < 2:
        raise OptionError(f"--agents needs at least two agents for a tournament, got {len(specs)}")
    for spec in specs:
        check_agent(game, spec)
    bots = [spec for spec in specs if spec.startswith(BOT_PREFIX)]
    if len(set(bots)) < len(bots):
        raise OptionError(f"--agents: {bots[0]!r} entered twice (one team of bots per port)")
    seen: dict[str, int] = {}
    entrants = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        entrants.append(Entrant(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}", spec))
    return tuple(entrants)


@attrs.frozen
class TournamentPlan:
    game: str
    unit: str
    """'deals' or 'matches'."""
    count: int
    """Deals (or matches) per pairing: an even number, ``count / 2`` pairs."""
    seed: int
    rules: dict[str, Any] = attrs.field(hash=False)
    entrants: tuple[Entrant, ...]
    duplicate: bool
    options: dict[str, Any] = attrs.field(factory=dict, hash=False)
    """``referee``/``infractions``, as simulate's."""
    table: Seating = PARTNERSHIPS
    """The game's seats and sides (the registry's ``Seating``): a tournament needs two sides."""

    def __attrs_post_init__(self) -> None:
        if len(self.table.sides) != 2:
            raise OptionError(f"a tournament puts two agents against each other: {self.game} has "
                              f"{len(self.table.sides)} sides")
        if self.count % 2:
            raise OptionError(f"--{self.unit} {self.count}: a tournament needs an even number per pairing "
                              f"(each pair puts each agent once on each side)")

    @property
    def pairs(self) -> int:
        return self.count // 2

    @property
    def pairings(self) -> tuple[Pairing, ...]:
        return tuple(Pairing(n, a, b) for n, (a, b) in enumerate(combinations(self.entrants, 2)))

    @property
    def refereed(self) -> bool:
        return bool(self.options.get("referee") or self.options.get("infractions"))

    def batch(self, pairing: Pairing, seating: int) -> Batch:
        """The pairing in one seating, as simulate's batch machinery plays it."""
        return Batch(game=self.game, unit=self.unit, count=self.count, seed=self.seed, rules=self.rules,
                     agents=tuple(e.spec for e in pairing.seats(seating, self.table)), options=self.options)

    def board(self, pair: int, seating: int) -> int:
        """The board pair ``pair`` plays in ``seating``."""
        if self.duplicate or seating == FIRST_ON_EVEN:
            return pair
        return self.pairs + pair

    def legs(self, pairings: Sequence[Pairing], first_pair: int, stop_pair: int) -> Iterator[Leg]:
        """Pairs ``first_pair`` … ``stop_pair - 1`` of each pairing, as consecutive boards."""
        for pairing in pairings:
            for seating in (0, 1):
                yield Leg(pairing.number, seating, self.board(first_pair, seating),
                          self.board(stop_pair - 1, seating) + 1)
