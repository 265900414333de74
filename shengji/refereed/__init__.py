"""Refereed mode of a 双升 deal, one module per concept, each owning its slice of
``deal.table`` (``state.TableState``) as attrs records and answering the engine's hooks:

- ``state``: the table state, the steps the features register (``STEPS``) and what the table
  does once a wait is over (``carry_on``: the step of the feature that paused it); ``engine``:
  actions and rulings dispatched. The wait for the referee and the choice offered are the
  shared core's (``tabletop.refereed``).
- ``draw`` (slips, the kitty draw, a miscount), ``remedies`` (random draw, redeal, hand over),
  ``declaration``, ``kitty`` (a wrong burial), ``play``, ``out_of_turn`` (抢出 / 抢跟),
  ``revoke`` (wrong follows), ``on_table`` (cards laid or exposed), ``points`` (penalties
  waiting for the banker), ``observation``.

A feature function takes the deal as its first argument; feature modules import each other
as modules, one way only (no import circle: a piece two features share lives in the lower one).

How the table works in refereed mode:

- The draw has decisions of its own: ``Draw(seat)`` by the rightful next drawer runs the
  draw on to the next declaration chance or its end (at the start, and after every
  declaration decision during the draw). Before each decision every other seat may
  interject: ``DrawOutOfTurn`` (it takes a card due to another seat, ``after`` cards from
  now), ``DrawKitty`` (the banker draws on into the kitty), ``DeclareAtOnce`` (with its
  partner, at the partner's declaration chance), ``DropCard``, ``Incident``. A ``Draw``
  may carry a miscount slip that nobody notices until the hands are counted at the end of
  the draw.
- An action that breaks a rule becomes ONE ``IrregularAttempt`` event (an action event:
  a replay re-applies it). Its cards lie on the table in front of the offender (still its
  own), and the deal waits (``phase`` AWAITING_RULING, so ``to_act`` is REFEREE: ``to_act``
  is computed from the state, ``turn`` stays the seat whose turn it is) until a ruling
  is carried out (``carry_out(effects, sanctions, reason=, answers=)``: each listed table
  effect through its handler in ``EFFECT_HANDLERS``, the imposed sanctions through
  ``SANCTION_HANDLERS``, then ``resolve``). A ruling is data: a handler does exactly what
  its effect says, through its feature module's primitives, or raises ``RulingRefused``. A latent
  attempt (a draw slip, a wrong follow nobody noticed) is followed by an
  ``IrregularityFound`` event when the table reaches the stage where it comes to light,
  and the deal waits then.
- Exposed cards (暴露张) stay in the owner's hand, face up and visible to all, until played.
  Taken-back cards of an out-of-turn or wrong play are exposed (the rulebook: they count
  as exposed). 双升 has no lead option or penalty-card obligation (enforcement PD).
- A choice the table offers (``offer_choice``) makes the chooser ``to_act`` with
  ``Choose`` actions only; the engine carries the chosen remedy out (the chosen option's
  effect through the same handlers: random draw with the REFEREE stream, redeal; or a card
  handed over).
- Point penalties before the banker is known (first deal, during the draw) wait until the
  banker is known, then move points as ``adjust_points`` says.
"""

from typing import TYPE_CHECKING

from tabletop.games import features_on_first_use

if TYPE_CHECKING:
    from shengji.refereed import (  # noqa: F401  (the deal reaches the features through the package)
        declaration,
        draw,
        engine,
        kitty,
        observation,
        on_table,
        out_of_turn,
        play,
        points,
        remedies,
        revoke,
        state,
    )

FEATURES = ('declaration', 'draw', 'engine', 'kitty', 'observation', 'on_table', 'out_of_turn', 'play', 'points', 'remedies', 'revoke', 'state')
"""The feature modules, all imported the first time the deal reaches one through the package:
a strict deal never does, so a strict run does not load refereed mode."""

__getattr__ = features_on_first_use(__name__, FEATURES)
