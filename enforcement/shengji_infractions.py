"""What a 双升 player can get wrong, for the shared infraction injector
(``enforcement.injector.Injector``): ``ShengjiInfractions`` is the game's
``InfractionCatalogue`` (kinds in ``SHENGJI_KINDS``; ``injector.catalogue_for("shengji")``
returns it), and ``inject_shengji`` wraps a unit's agents (``enforcement.setup.inject``).

In turn (the seat to act errs instead of deciding):
  miscount            the first draw step carries a slip: a seat takes cards due to another
  wrong_bury_count    the banker buries 7 or 9 cards (found when it leads)
  lead_before_burial  the banker leads instead of burying
  wrong_follow        an illegal follow, found at once: a suit error or, on a pair or
                      tractor lead, a shape error (pairs / tractor held but not followed)
  revoke              the same, nobody notices at once (found after the next seat played,
                      or after the trick)
  extra_card          a lead, throw or follow carrying one extra card
Out of turn (another seat, before a decision):
  draw_out_of_turn    takes a card due to another seat (face seen or not, in hand or not)
  banker_drew_kitty   the banker draws on into the kitty at the end of the draw
  simultaneous_declaration   declares at the same moment as its partner (sometimes the
                      partners settle it themselves)
  exposed_card        one or two cards shown by accident (draw, play, burial, sorting)
  lead_out_of_turn    leads when it is not its lead (also before the banker has buried)
  lead_before_trick_complete   leads the next trick before the current one is complete
  play_before_turn    plays to the trick before its turn (抢跟; right after its 上家: shows
                      its cards before the 上家 played)
  incident            a reported incident (lateness, prompting, tempo …) with a severity
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

from shengji.actions import (
    Bury, Choices, Declare, DeclareAtOnce, Draw, DrawKitty, DrawOutOfTurn, DropCard, Incident, NoDeclare, Play,
    PlayWithExtra, Revoke, lead_units,
)
from shengji.choices import FollowChoices, LeadChoices
from shengji.deal import Phase
from shengji.declare import declaration_options
from shengji.follow import lead_info, sample_follow, why_illegal_follow
from tabletop.cards import RANKS, count_list

SHENGJI_KINDS = (
    # in turn (act)
    "miscount", "wrong_bury_count", "lead_before_burial", "wrong_follow", "revoke", "extra_card",
    # out of turn (interject)
    "draw_out_of_turn", "banker_drew_kitty", "simultaneous_declaration", "exposed_card",
    "lead_out_of_turn", "lead_before_trick_complete", "play_before_turn", "incident",
)
KITTY = 8
KITTY_WINDOW = 32
SHAPE_SHARE = 0.85
"""On a pair or tractor lead, how often a wrong follow tries a shape error first (suit errors
are common anyway)."""
"""The banker may resolve to draw on into the kitty during the last rounds of the draw (it
happens at the end: shengji.table); decisions are rare in the draw, so the window is wide."""
_INCIDENT_KINDS = ("late", "prompting", "prompting_declaration", "reminding", "tempo", "unreasonable_play",
                   "signing", "kitty_inspection", "old_tricks", "tricks_order", "refusing_ruling",
                   "exposure_signalling", "passing_cards", "repeated_misdraw", "declaration_chosen", "misconduct")


def _pick(rng: np.random.Generator, items: Sequence[Any]) -> Any:
    return items[int(rng.integers(len(items)))]


class ShengjiInfractions:
    """What a 双升 player can get wrong, and how the injector commits it."""

    game = "shengji"
    kinds = SHENGJI_KINDS
    commits = {
        "miscount": ("miscount_after_draw",), "wrong_bury_count": ("lead_wrong_bury_count",),
        "lead_before_burial": ("lead_before_burial",), "wrong_follow": ("wrong_follow",),
        "revoke": ("wrong_follow",), "extra_card": ("extra_card",), "draw_out_of_turn": ("draw_other_seat_card",),
        "banker_drew_kitty": ("banker_drew_kitty",), "simultaneous_declaration": ("simultaneous_declaration",),
        "exposed_card": ("exposed_card",), "lead_out_of_turn": ("lead_out_of_turn",),
        "lead_before_trick_complete": ("lead_before_trick_complete",),
        "play_before_turn": ("play_before_turn", "show_before_upper"), "incident": ("incident",),
    }
    few_chances = frozenset({"miscount", "wrong_bury_count", "lead_before_burial", "banker_drew_kitty",
                             "simultaneous_declaration"})
    second_deal = ("banker_drew_kitty",)
    short_match = {"max_deals": 2}
    uncovered = ("draw_out_of_turn", "revoke", "incident")
    practice_rates = {"miscount": 1.0, "wrong_bury_count": 0.5, "lead_before_burial": 0.5, "draw_out_of_turn": 0.3,
                      "banker_drew_kitty": 1.0, "simultaneous_declaration": 1.0,
                      "incident": 0.3, "wrong_follow": 0.1, "revoke": 0.1, "play_before_turn": 0.1}

    def in_turn(self, obs: Any, legal: Sequence[Any]) -> list[str]:
        if getattr(obs, "situation", None) in ("choice", "awaiting_ruling"):
            return []
        legal_type = type(legal)
        if legal_type is LeadChoices or legal_type is FollowChoices:
            return _play_kinds(len(obs.hand), obs.lead, legal)
        if not len(legal):
            return []
        first = type(legal[0])
        if first is Draw or first is Declare or first is NoDeclare:
            out = ["miscount"] if first is Draw and obs.stock_left == 108 else []
            if _kitty_chance(obs, obs.seat):      # the banker's own turn in the draw counts too
                out.append("banker_drew_kitty")
            return out
        if first is Bury:
            return ["wrong_bury_count", "lead_before_burial"]
        if first is not Play:
            return []
        if obs.lead is None:
            return ["extra_card"] if len(obs.hand) >= 2 else []
        out = ["wrong_follow", "revoke"]
        if len(obs.hand) > len(obs.lead):
            out.append("extra_card")
        return out

    def in_turn_from_legal(self, legal: Sequence[Any]) -> list[str] | None:
        # a lead's or follow's Choices exist only while no ruling is awaited and no choice is
        # open (``in_turn``'s situation test passes) and know the hand and the lead
        legal_type = type(legal)
        if legal_type is LeadChoices or legal_type is FollowChoices:
            choices = cast("LeadChoices | FollowChoices", legal)
            return _play_kinds(len(choices.hand), choices.lead, legal)
        return None

    def may_interject(self, obs: Any, seat: int) -> bool:
        return getattr(obs, "situation", None) != "awaiting_ruling" and obs.to_act is not None

    def could_interject(self, seat: int) -> bool:
        # a seat to act means no ruling is awaited and someone is to act: ``may_interject`` says yes
        return True

    def out_of_turn(self, obs: Any, seat: int) -> list[str]:
        situation = getattr(obs, "situation", None)
        if situation == "awaiting_ruling" or obs.to_act is None:
            return []
        phase = obs.phase
        out = ["incident"]
        if obs.hand and len(obs.exposed[seat]) < len(obs.hand):
            out.append("exposed_card")
        if phase is Phase.DRAW:
            # one card taken out of turn per seat at a time: with at most four such cards, one due
            # to another seat is always left among the last eight (a fifth could find none)
            if obs.stock_left - KITTY >= 8 and "draw_other_seat_card" not in getattr(obs, "own_latent", ()):
                out.append("draw_out_of_turn")
            if _kitty_chance(obs, seat):
                out.append("banker_drew_kitty")
        if (phase in (Phase.DRAW, Phase.DECLARE) and situation is None and obs.to_act == (seat + 2) % 4
                and seat not in obs.declare_barred and self._declarations(obs, seat)):
            out.append("simultaneous_declaration")
        if situation is not None or not obs.hand:
            return out
        if phase is Phase.KITTY and seat != obs.banker:
            out.append("lead_out_of_turn")
        if phase is Phase.PLAY:
            played = [s for s, _ in obs.trick]
            if not obs.trick:
                out.append("lead_out_of_turn")
            elif seat in played:
                out.append("lead_before_trick_complete")
            else:
                out.append("play_before_turn")
        return out

    def commit(self, kind: str, obs: Any, legal: Sequence[Any] | None, seat: int,
               rng: np.random.Generator) -> Any | None:
        return getattr(self, "_" + kind)(obs, legal, seat, rng)

    # ---- in turn

    @staticmethod
    def _miscount(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        count = 1 if rng.random() < 0.6 else int(rng.integers(2, 4))
        room = obs.stock_left - KITTY - 4 * count - 4
        if room <= 0:
            return None
        at = int(rng.integers(room))
        of = int(rng.integers(4))
        extra_by = (of + 1 + int(rng.integers(3))) % 4
        fault = "taker" if rng.random() < 0.7 else "short"
        return Draw(seat, extra_by=extra_by, of=of, count=count, at=at, fault=fault)

    @staticmethod
    def _wrong_bury_count(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        size = len(obs.hand) - obs.hand_sizes[(seat + 1) % 4]
        n = size + (1 if rng.random() < 0.5 else -1)
        picks = rng.choice(len(obs.hand), size=n, replace=False)
        return Bury(seat, [obs.hand[i] for i in sorted(picks)])

    @staticmethod
    def _lead_before_burial(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        return Play(seat, _pick(rng, lead_units(obs.hand, obs.context)))

    @staticmethod
    def _wrong_follow(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        cards = _illegal_follow(obs, rng)
        return None if cards is None else Play(seat, cards)

    @staticmethod
    def _revoke(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        cards = _illegal_follow(obs, rng)
        if cards is None:
            return None
        # Found once the next seat has played needs a next seat in the trick; a shape error
        # (all in suit) comes to light there more often than not (SJ-3.1.12.3 is rare else).
        ctx = obs.context
        suit = ctx.suit_of[obs.lead[0]]
        shape_error = all(ctx.suit_of[c] == suit for c in cards)
        affecting = len(obs.trick) < 3 and rng.random() < (0.75 if shape_error else 0.5)
        return Revoke(seat, cards, found="affecting_play" if affecting else "after_trick")

    @staticmethod
    def _extra_card(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        play = legal.sample(rng) if isinstance(legal, Choices) else _pick(rng, list(legal))
        rest = list(obs.hand)
        for c in play.cards:
            rest.remove(c)
        if not rest:
            return None
        return PlayWithExtra(seat, play.cards, [_pick(rng, rest)])

    # ---- out of turn

    @staticmethod
    def _draw_out_of_turn(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        after = int(rng.integers(obs.stock_left - KITTY - 4))
        in_hand = bool(rng.random() < 0.25)
        face_seen = in_hand or bool(rng.random() < 0.5)
        return DrawOutOfTurn(seat, after=after, face_seen=face_seen, in_hand=in_hand)

    @staticmethod
    def _banker_drew_kitty(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        return DrawKitty(seat)

    @classmethod
    def _simultaneous_declaration(cls, obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        options = cls._declarations(obs, seat)
        if not options:
            return None
        return DeclareAtOnce(seat, _pick(rng, options), chose=bool(rng.random() < 0.25))

    @staticmethod
    def _declarations(obs: Any, seat: int) -> list:
        return declaration_options(count_list(obs.hand), RANKS.index(obs.level), seat, obs.declaration,
                                   obs.rules.pair_vs_pair)

    @staticmethod
    def _exposed_card(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        free = list(obs.hand)
        for c in obs.exposed[seat]:
            free.remove(c)
        if not free:
            return None
        n = 1 if len(free) < 2 or rng.random() < 0.7 else 2
        picks = rng.choice(len(free), size=n, replace=False)
        return DropCard(seat, [free[i] for i in picks], sorting=bool(rng.random() < 0.2))

    @staticmethod
    def _lead_out_of_turn(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        return Play(seat, _pick(rng, lead_units(obs.hand, obs.context)))

    _lead_before_trick_complete = _lead_out_of_turn

    @staticmethod
    def _play_before_turn(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        lead = obs.lead
        if len(obs.hand) < len(lead):
            return None
        return Play(seat, sample_follow(obs.hand, lead, obs.context, rng))

    @staticmethod
    def _incident(obs: Any, legal: Any, seat: int, rng: np.random.Generator):
        kind = _pick(rng, _INCIDENT_KINDS)
        r = rng.random()
        severity = "minor" if r < 0.6 else "serious" if r < 0.85 else "deliberate" if r < 0.99 else "suspension"
        minutes = int(rng.integers(1, 20)) if kind == "late" else 0
        damaged = bool(rng.random() < 0.3)
        return Incident(seat, kind, severity=severity, minutes=minutes, damaged=damaged,
                        note=f"reported: {_REPORTED.get(kind, kind.replace('_', ' '))}")


_REPORTED = {"signing": "scoresheet not signed"}
"""What a report says where the incident's id would read wrong (SJ-1.15 is no signal)."""


def _play_kinds(hand_size: int, lead: Any, legal: Sequence[Any]) -> list[str]:
    """``in_turn`` at a lead (``lead`` None) or follow: every action a Play, and whether
    there is one told by the hand without listing them (listing costs more than deciding)."""
    if lead is None:
        return ["extra_card"] if hand_size >= 2 else []
    if hand_size < len(lead) and not len(legal):   # short of cards (a wrong burial): maybe none
        return []
    return ["wrong_follow", "revoke", "extra_card"] if hand_size > len(lead) else ["wrong_follow", "revoke"]


def _kitty_chance(obs: Any, seat: int) -> bool:
    """The known banker, late in the draw, may resolve to draw on into the kitty (SJ-1.5)."""
    return (obs.phase is Phase.DRAW and obs.banker == seat and seat not in obs.declare_barred
            and 0 < obs.stock_left - KITTY <= KITTY_WINDOW and "banker_drew_kitty" not in obs.own_latent)


def _illegal_follow(obs: Any, rng: np.random.Generator) -> list | None:
    """n cards of the hand that break the follow rules, or None when every n cards the hand
    could show are legal (e.g. a void: anything goes). Two kinds of error, each tried first
    in turn when the hand allows it (shape first SHAPE_SHARE of the time): a suit error (a suit card swapped for a card of
    another suit) and, on a pair or tractor lead, a shape error (in suit, but without the
    pairs / tractor the hand holds: SJ-1.9, SJ-3.1.12.3), heavy or light as the cards fall."""
    hand, lead, ctx = list(obs.hand), obs.lead, obs.context
    n = len(lead)
    if len(hand) <= n:
        return None
    suit = ctx.suit_of[lead[0]]
    in_suit = [c for c in hand if ctx.suit_of[c] == suit]
    other = [c for c in hand if ctx.suit_of[c] != suit]
    shape_first = lead_info(lead, ctx).pairs > 0 and len(in_suit) > n and rng.random() < SHAPE_SHARE
    for _ in range(6):
        tries = (_shape_error, _suit_error) if shape_first else (_suit_error, _shape_error)
        for attempt in tries:
            out = attempt(hand, lead, in_suit, other, ctx, rng)
            if out is not None:
                return out
    return None


def _suit_error(hand: Any, lead: Any, in_suit: Any, other: Any, ctx: Any, rng: np.random.Generator) -> list | None:
    """Not following suit: one suit card of a legal follow swapped for a card of another suit."""
    suit = ctx.suit_of[lead[0]]
    if not other:
        return None
    legal = list(sample_follow(hand, lead, ctx, rng))
    if not any(ctx.suit_of[c] == suit for c in legal):
        return None
    rest = list(other)
    for c in legal:
        if c in rest:
            rest.remove(c)
    if not rest:
        return None
    out = list(legal)
    out.remove(next(c for c in out if ctx.suit_of[c] == suit))
    out.append(_pick(rng, rest))
    return out if why_illegal_follow(hand, lead, out, ctx) is not None else None


def _shape_error(hand: Any, lead: Any, in_suit: Any, other: Any, ctx: Any, rng: np.random.Generator) -> list | None:
    """In suit but breaking the shape: n suit cards taken one copy of a kind at a time (in a
    random order, half the time light cards first) before any second copy, so the follow
    holds as few pairs as it can."""
    n = len(lead)
    if len(in_suit) <= n:
        return None
    order = [in_suit[i] for i in rng.permutation(len(in_suit))]
    if rng.random() < 0.5:
        # half the time light cards first: SJ-1.9 is the light form (heavy: SJ-3.1.12.1)
        from enforcement.card_weight import heavy_cards

        order.sort(key=lambda c: bool(heavy_cards([c], ctx.level, ctx.trump)))
    firsts: list = []
    seconds: list = []
    for c in order:
        (seconds if c in firsts else firsts).append(c)
    out = (firsts + seconds)[:n]
    return out if why_illegal_follow(hand, lead, out, ctx) is not None else None


def inject_shengji(agents: Sequence[Any], rates: "float | Mapping[str, float]", seed: int, index: int) -> list[Any]:
    """Wrap each agent in an ``Injector`` with this catalogue, seeded from
    ``(seed, index, INJECTOR + seat)``: ``enforcement.setup.inject(..., game="shengji")``.
    A zero rate returns the agents unwrapped."""
    from enforcement.setup import inject

    return inject(agents, rates, seed, index, game="shengji")
