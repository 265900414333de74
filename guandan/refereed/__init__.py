"""Refereed mode of a 掼蛋 deal, one module per concept, each owning its slice of
``deal.table`` (``state.TableState``) as attrs records and answering the engine's hooks:

- ``state``: the table state, whose turn to play it is, the steps the features register;
  ``engine``: actions and rulings dispatched to the features, and the turn settled after each
  (``settle``: what bars, lead options, penalty cards and a latent 报牌 do on a turn). The wait
  for the referee and the choice offered are the shared core's (``tabletop.refereed``).
- ``draw``, ``tribute``, ``play``, ``on_table`` (cards laid on the table), ``out_of_turn``;
- ``restrictions``: what stands against a seat after a ruling, consulted at its turn and in
  ``legal_actions`` — 禁出一手, the a/b/c lead option and the lead restriction, 暴露张 and 罚张;
  ``correction`` (GD-2.4), ``reporting`` (报牌), ``pass_sequence``
  (GD-4.2.3/4), ``take_back`` (GD-4.2.2, the deal ``rebuild`` from its record), ``placing``
  (单下, 双下), ``information`` (GD-7), ``next_deal`` (GD-5), ``observation``.

A feature function takes the deal as its first argument; feature modules import each other
as modules, one way only (no import circle: a piece two features share lives in the lower one;
``engine`` sits above them all and calls them directly; what the table does once a wait is
over or a choice is made is a ``Resume`` record naming a step registered in ``state.STEPS``).

How the table works in refereed mode:

- The draw is one decision: ``Draw(seat)`` by the rightful next drawer runs it to the end.
  Before it (and again after a ruling) every other seat may interject a ``DrawOutOfTurn``.
- An action that breaks a rule becomes ONE ``IrregularAttempt`` event (an action event:
  a replay re-applies it). Its cards lie on the table in front of the offender (still its
  own), and the deal waits (``phase`` AWAITING_RULING, ``to_act`` REFEREE) until a ruling is
  carried out. A latent attempt (nobody noticed yet) is followed by an
  ``IrregularityFound`` event when the table reaches the stage where it comes to light.
- Out-of-turn play: the offender's 下家 answers: ``CallReferee`` (GD-2.3.1) or any play or
  pass on the out-of-turn cards, which accepts them (GD-2.3.2).
- 报牌 is a step of its own: after a play that leaves 1-10 cards the player is to act with
  ``Report(seat, count)`` (unless the deal was built with ``report_step=False``).
- Exposed cards (暴露张) stay in the owner's hand, marked and visible to all. The ruling
  decides what an exposure carries: the GD-2.3.1 lead option (when the owner's partner next
  has the lead, the partner's 下家 chooses forbid / require / free), or penalty cards at once
  (the partner can never lead again, or the cards form no combination). After 'free' the
  cards are penalty cards (GD-6), which must be played or passed at each legal chance
  (legal_actions offers only the plays made of them, plus the pass), the holder's 下家
  designating the kind when there are several (``gd.designated``).
- 禁出一手: a 'next_turn' bar waits for the seat's next turn to play, in a later round if
  need be; a barred lead passes to the 下家 (接风 when it is out). A 'round' bar (GD-2.2)
  lapses when its round ends.
- Bars, lead restrictions, penalty obligations, the GD-4.2.3 pass sequence and 单下 seats
  are applied inside ``legal_actions()`` and the turn order, so no agent is ever offered
  an action they forbid.
- GD-4.2.2 take-back: the seats that played since the wrong report in the current round are
  asked in play order; the first that takes back has the deal rebuilt from its record (made
  again, every action before that play re-applied), so the table is exactly as it was then.
"""

from typing import TYPE_CHECKING

from tabletop.games import features_on_first_use

if TYPE_CHECKING:
    from guandan.refereed import (  # noqa: F401  (the deal reaches the features through the package)
        correction,
        draw,
        engine,
        information,
        next_deal,
        observation,
        on_table,
        out_of_turn,
        pass_sequence,
        placing,
        play,
        rebuild,
        reporting,
        restrictions,
        state,
        take_back,
        tribute,
    )

FEATURES = ('correction', 'draw', 'engine', 'information', 'next_deal', 'observation', 'on_table', 'out_of_turn', 'pass_sequence', 'placing', 'play', 'rebuild', 'reporting', 'restrictions', 'state', 'take_back', 'tribute')
"""The feature modules, all imported the first time the deal reaches one through the package:
a strict deal never does, so a strict run does not load refereed mode."""

__getattr__ = features_on_first_use(__name__, FEATURES)
