"""What one seat may know at a 双升 table (its information set).

Its own hand; everything shown in public (declarations, kitty cards turned up, the
current trick, the last completed trick, points captured, levels, trump, banker); the
kitty only for the banker, and only once it has buried (the cards it buried), until it is
turned up for all after the last trick. Older
tricks are turned face down: a seat sees the current trick and the last completed one
only (enforcement PD SJ-1.12). Nothing of another seat's hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import attrs

from shengji.context import Context
from shengji.declare import Declaration
from shengji.rules import ShengjiRules
from tabletop.cards import RANKS, Card

if TYPE_CHECKING:
    from shengji.deal import Deal

Plays = tuple[tuple[int, tuple[Card, ...]], ...]


@attrs.frozen(kw_only=True, slots=False)  # dict class: attrs' frozen __init__ is much faster
class Observation:
    seat: int
    phase: str
    to_act: int | str | None
    level: str
    levels: tuple[str, str]
    banker: int | None
    trump: str | None
    trump_known: bool
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_left: int
    declaration: Declaration | None
    declarations: tuple[Declaration, ...]
    flipped: tuple[Card, ...]
    kitty: tuple[Card, ...] | None
    trick_number: int
    leader: int | None
    trick: Plays
    last_trick: Plays
    last_trick_winner: int | None
    attackers_points: int
    banker_points: int
    adjustments: tuple[tuple[str, int], ...]
    rules: ShengjiRules
    context: Context | None
    """The trump context (level, trump, rules), once trump is known."""

    # What refereed mode adds (fields of RefereedObservation), read from these defaults when
    # nothing irregular is on the table (a refereed deal then hands out plain observations).
    # Unannotated, so that attrs does not make them fields: cast gives them the fields' types.
    exposed = cast("tuple[tuple[Card, ...], ...]", ((), (), (), ()))
    on_table = cast("tuple[tuple[int, tuple[Card, ...]], ...]", ())
    situation = cast("str | None", None)
    choice = cast("tuple[str, tuple[str, ...]] | None", None)
    declare_barred = cast("tuple[int, ...]", ())
    own_latent = cast("tuple[str, ...]", ())

    @property
    def lead(self) -> tuple[Card, ...] | None:
        return self.trick[0][1] if self.trick else None

    @property
    def is_banker_side(self) -> bool:
        return self.banker is not None and (self.seat - self.banker) % 2 == 0


@attrs.frozen(kw_only=True, slots=False)
class RefereedObservation(Observation):
    """What refereed mode adds; all of it public (every seat sees it). A refereed deal hands
    out a plain Observation (whose class defaults say "nothing") while none of it is set."""

    exposed: tuple[tuple[Card, ...], ...] = ((), (), (), ())
    """Per seat: its exposed cards (暴露张), face up, still its own."""
    on_table: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    """Cards laid on the table but not part of the play: an attempt waiting for the ruling,
    a card drawn out of turn."""
    situation: str | None = None
    """What the table is doing apart from ordinary play: 'draw' (a Draw step is due),
    'choice', 'awaiting_ruling'; None otherwise."""
    choice: tuple[str, tuple[str, ...]] | None = None
    """(purpose, options) when this seat is asked to choose."""
    declare_barred: tuple[int, ...] = ()
    """Seats that have lost the right to declare in this deal (SJ-1.5)."""
    own_latent: tuple[str, ...] = ()
    """This seat's own irregular attempts nobody has noticed yet (it knows what it did):
    their irregularity ids. For infraction injectors; the built-in agents never read it."""


def observe(deal: "Deal", seat: int, cls: type[Observation] = Observation, **extra: object) -> Observation:
    banker = deal.banker
    last = deal.tricks[-1] if deal.tricks else None
    fields = {
        "seat": seat,
        "phase": deal.phase,
        "to_act": deal.to_act,
        "level": RANKS[deal.level],
        "levels": deal.level_texts,
        "banker": banker,
        "trump": deal.trump,
        "trump_known": deal.trump_known,
        "hand": deal.hand(seat),
        "hand_sizes": tuple(deal.hand_size),
        "stock_left": len(deal.stock) - deal.drawn,
        "declaration": deal.declaration,
        "declarations": deal.declarations,
        "flipped": deal.flipped,
        "kitty": tuple(deal.kitty) if deal.buried and (seat == banker or deal.result is not None) else None,
        "trick_number": deal.trick_number,
        "leader": deal.leader,
        "trick": tuple(deal.trick),
        "last_trick": last.plays if last is not None else (),
        "last_trick_winner": last.winner if last is not None else None,
        "attackers_points": deal.attackers_points,
        "banker_points": deal.banker_points,
        "adjustments": deal.adjustments,
        "rules": deal.rules,
        "context": deal.ctx,
    }
    if cls is not Observation or extra:
        return cls(**fields, **extra)  # type: ignore[arg-type]  # the fields above, typed by the class
    # What attrs' __init__ does for this frozen dict class (no defaults, converters or
    # validators), without its keyword parsing: one observation is made at every decision.
    observation = _new(Observation)
    _set(observation, "__dict__", fields)
    return observation


_new = object.__new__
_set = object.__setattr__
