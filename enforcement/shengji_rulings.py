"""The 双升 clauses as rulings: ``ShengjiRulings.decide(engine, event)`` turns an irregular
attempt (``sj.irregular``) or its discovery (``sj.found``) into ONE ``Decision``: the clause,
the offender, the facts used (the event's, plus what the ruling derived: heavy or light,
whose lead it was …) and the table effects (rectification). A ruling is data: no family
touches the table. The engine carries it out (``shengji.refereed.engine.carry_out``,
``shengji.match.Match.carry_out``): every listed effect through its one handler per effect
kind, the imposed sanctions through handlers of the same kind (``PointPenalty`` moves points
towards the non-offending side, PD; a ``MatchLoss`` a human referee imposes ends the match;
Warnings, RecordedViolations, Suspensions and AdjustedScores are recorded only), then play
resumes. Sanctions come from the clause's ladder in the rulebook (the ledger escalates each
Warning from the second on → RecordedViolation, SJ-2.1; nothing escalates to 判负) unless a
family says otherwise.

Heavy or light (重罚张 / 轻罚张) is ``enforcement.card_weight`` with the deal's level and
trump (during the draw: the standing declaration's trump) and the engine's own tractor rule.

One function per clause family. ``engine`` is a ``shengji.match.Match`` or a lone
``shengji.deal.Deal``; the deal is always the current one. A situation the rulebook does not
cover is a Decision without a clause (→ ``ref.unresolved`` and the fallback); its effects
still put the table in order (``ShengjiRulings.unresolved`` has the engine carry them out).

``make_shengji_referee`` (``enforcement.shengji_referee``) builds the referee (one per match or
lone deal); it makes these rulings with its first ruling.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from enforcement.card_weight import heavy_cards
from enforcement.referee import Decision, Fallback, decision, record_only_fallback, uncovered
from enforcement.shengji_referee import make_shengji_referee   # noqa: F401  (re-exported: made here before)
from tabletop.effects import (
    Expose, PlayStands, PointPenalty, RandomDraw, Redeal, Replay, RestoreOrder, Return, Suspension, TableEffect,
)
from shengji.refereed.effects import (
    Choice, CorrectFollow, DeclarationStands, LoseDeclarationRight, LotsDraw, RedoBury,
)
from shengji.deal import Deal
from shengji.units import is_tractor
from tabletop import rng as streams
from tabletop.cards import Card
from tabletop.rulings import Discovered, Irregular
from tabletop.seats import next_seat, partner, team

if TYPE_CHECKING:   # the referee makes the ledger with its first ruling
    from enforcement.ledger import Ledger

GAME = "shengji"
LOTS = 1
"""The referee's lots (SJ-1.6) come from the deal's seed path (REFEREE, LOTS, the answered
event's seq): the referee's own draw, apart from the table's REFEREE stream (random draws),
so that a table carrying out a logged ruling (winner included) draws as the original did."""
_TEN = PointPenalty(10)
HEAVY_EXPOSURE = "SJ-3.1.3"
"""The clause whose 10 a ruling adds for heavy cards shown out of turn or in a wrong follow
(SJ-3.1.10.4, SJ-3.1.11.3, the SJ-3.1.12.2 PD): booked under SJ-3.1.3 itself."""
LATE_WARNING_MINUTES = 5       # the rulebook's PD (SJ-1.2): the lateness bands
LATE_PENALTY_MINUTES = 15

# Facts a ruling adds to explain itself (stable texts, so a trainee's ruling can be graded).
NO_SEPARATE_LIGHT_WARNING = ("taken-back cards count as exposed; light ones carry no separate "
                             "SJ-1.3 warning (the out-of-turn clause's 10 is the sanction)")
NO_HEAVY_ON_TOP = "heavy, but not in the circumstances of SJ-3.1.10.4 / 3.1.11.3: no SJ-3.1.3 on top"
HEAVY_FOLLOW_ON_TOP = ("SJ-3.1.3: the heavy cards shown and taken back, 10 more (the rulebook's SJ-3.1.12 PD: "
                       "found at once, affecting play, heavy)")
LATE_BANDS = ("the rulebook's SJ-1.2 PD: minutes late read as bands: up to 5 → warning (SJ-1.2); "
              "over 5 up to 15 → 10 (SJ-3.1.2); over 15 → unresolved")


class _Table:
    """The deal a ruling is decided on (the current one of a match, or a lone deal)."""

    def __init__(self, engine: Any) -> None:
        self.deal = getattr(engine, "deal", engine)


def _cards(codes: Sequence[str] | None) -> list[Card]:
    return [Card(c) for c in codes or ()]


class ShengjiRulings:
    """``GameRulings`` for 双升 (see enforcement.referee).

    ``special_small_pairs``: the PD option of enforcement.card_weight (a small pair of a
    suit another seat has shown void in counts as heavy; off by default). ``fallback``: the
    adjusted-score hook an established revoke (SJ-3.2) adds to its 10 points. ``ledger``:
    the match ledger (the referee's), for clauses that depend on earlier occurrences."""

    game = GAME

    def __init__(self, *, special_small_pairs: bool = False, fallback: Fallback = record_only_fallback,
                 ledger: Ledger | None = None) -> None:
        self.special_small_pairs = special_small_pairs
        self.fallback = fallback
        self.ledger = ledger

    def decide(self, engine: Any, event: Irregular | Discovered) -> Decision:
        """The decision on the irregular attempt (``sj.irregular``) or its discovery
        (``sj.found``) that ``event`` is. Where no clause covers it, the table is put back
        in order (cards laid on the table go back exposed, or the rightful drawer draws at
        random; often nothing) and play resumes."""
        answers = event.answers if isinstance(event, Discovered) else event.seq
        family = _FAMILIES.get(event.irregularity)
        table = _Table(engine)
        if family is None:
            return uncovered(event, answers, "no clause covers this irregularity",
                               effects=_return_and_replay(table, event.seat))
        return family(self, table, event, answers)

    # -----------------------------------------------------------------------------------------

    def heavy(self, deal: Deal, cards: Sequence[Card], trump: Any = "deal", holder: int | None = None) -> list[Card]:
        """The heavy cards among ``cards`` (empty: light)."""
        ctx = deal.ctx
        if trump == "deal":
            trump = deal.trump if deal.trump_known else (None if deal.declaration is None else deal.declaration.trump)
        predicate = (lambda four: is_tractor(four, ctx)) if ctx is not None else None
        voids = _shown_voids(deal, holder) if self.special_small_pairs and holder is not None else ()
        return heavy_cards(cards, deal.level, trump, is_tractor=predicate,
                           special_small_pairs=self.special_small_pairs, void_suits=voids)


def _shown_voids(deal: Deal, holder: int) -> set[str]:
    """Effective suits ('S','H','C','D','T') in which a seat other than ``holder`` has shown
    void: it followed a lead of that suit with a card of another suit."""
    ctx = deal.ctx
    if ctx is None:
        return set()
    letters = "SHCDT"
    out: set[str] = set()
    tricks = [t.plays for t in deal.tricks] + ([tuple(deal.trick)] if deal.trick else [])
    for plays in tricks:
        suit = ctx.suit_of[plays[0][1][0]]
        for seat, cards in plays[1:]:
            if seat != holder and any(ctx.suit_of[c] != suit for c in cards):
                out.add(letters[suit])
    return out


# ---------------------------------------------------------------------------------------------
# Helpers


def _return_and_replay(table: _Table, seat: int | None) -> list[TableEffect]:
    """Cards of the attempt go back to the hand, exposed (they were seen); the offender acts
    again where it was its turn."""
    laid = table.deal.table.on_table.get(seat) if seat is not None else None
    return [Return(laid, seat), Expose(laid, seat)] if laid else []


# ---------------------------------------------------------------------------------------------
# The draw: SJ-1.1, SJ-3.1.1, SJ-1.5, SJ-1.10, SJ-3.1.7, SJ-1.6, SJ-3.1.4


def draw_other_seat_card(rulings: ShengjiRulings, table: _Table, event: Any, answers: int) -> Decision:
    """SJ-1.1 face unseen: returned + Warning; SJ-3.1.1 seen, heavy, not in the hand:
    returned + 10. Seen and light (not in the hand): no damage, warned as SJ-1.1 (judgement:
    the seed covers only unseen and seen-important cards). Already in the hand: not in the
    seed (unresolved); the rightful drawer draws one card at random from the offender's hand
    (as GD-1.1.3b)."""
    seat = event.seat
    card = Card(event.fact("card"))
    rightful = event.fact("rightful")
    heavy = rulings.heavy(table.deal, [card], trump=event.fact("trump"))
    facts: tuple[tuple[str, Any], ...] = (("heavy", tuple(str(c) for c in heavy)),)
    if event.fact("in_hand"):
        return uncovered(event, answers, "the card is already in the offender's hand: the seed "
                           "covers a card not yet in the hand", effects=[RandomDraw(seat, rightful, 1)],
                           extra_facts=facts)
    effects = [Return([card], seat), RestoreOrder(rightful)]
    if event.fact("face_seen"):
        if heavy:
            clause = "SJ-3.1.1"
        else:
            clause = "SJ-1.1"
            facts += (("by_analogy", "face seen, light card, not in the hand: no damage, warned as SJ-1.1"),)
    else:
        clause = "SJ-1.1"
    return decision(event, answers, clause, effects, extra_facts=facts)


def banker_drew_kitty(rulings: ShengjiRulings, table: _Table, event: Any, answers: int) -> Decision:
    """SJ-1.5: the banker loses the right to declare or overcall for this deal + Warning. The
    card stays in its hand (it picks the kitty up anyway); the kitty is left with 7."""
    seat = event.seat
    return decision(event, answers, "SJ-1.5", [LoseDeclarationRight(seat)],
                     extra_facts=(("card_stays", "in the banker's hand; it buries 8 of 33 as usual"),))


def miscount(rulings: ShengjiRulings, table: _Table, event: Any, answers: int) -> Decision:
    """SJ-1.10 (one card off): the non-offending side decides whether a card is drawn at
    random + Warning; SJ-3.1.7 (two or more): it chooses a random draw or a redeal + 10."""
    offender = event.fact("offender")
    taker, short, size = event.fact("taker"), event.fact("short"), event.fact("size")
    if not size:
        return uncovered(event, answers, "the slip left every count right (its cards went elsewhere)")
    side = team(offender)
    involved = [s for s in (short, taker) if team(s) != side]
    chooser = involved[0] if involved else next_seat(offender)
    draw = RandomDraw(taker, short, size)
    if size == 1:
        clause = "SJ-1.10"
        effects: list[TableEffect] = [Choice(chooser, (draw,), may_decline=True)]
    else:
        clause = "SJ-3.1.7"
        effects = [Choice(chooser, (draw, Redeal()))]
    return decision(event, answers, clause, effects, offender=offender,
                     extra_facts=(("chooser", chooser), ("offending_side", side)))


def simultaneous_declaration(rulings: ShengjiRulings, table: _Table, event: Any, answers: int) -> Decision:
    """SJ-1.6: the referee draws lots (its own stream, ``LOTS``) for which declaration stands; a
    Warning to the side from the second time on. SJ-3.1.4: the partners settled it
    themselves: the chosen declaration stands (PD) + 10."""
    shown = {seat: tuple(cards) for seat, cards in event.fact("declarations")}
    seats = tuple(sorted(shown))
    side = team(seats[0])
    if event.fact("chose_instead_of_lots"):
        chosen = event.fact("chosen")
        return decision(event, answers, "SJ-3.1.4", [DeclarationStands(chosen)],
                         extra_facts=(("stands", chosen),))
    winner = seats[int(streams.generator(table.deal.seed, streams.REFEREE, LOTS, answers).random() * 2)]
    return decision(event, answers, "SJ-1.6", [LotsDraw(seats, winner)],
                     offender=None, side=side, extra_facts=(("lots_winner", winner),))


# ---------------------------------------------------------------------------------------------
# Exposure and extra cards: SJ-1.3, SJ-3.1.3, SJ-1.8, SJ-3.1.6


def exposed_card(rulings: ShengjiRulings, table: _Table, event: Any, answers: int) -> Decision:
    """SJ-3.1.3 heavy (10) / SJ-1.3 light (Warning): the cards lie face up until played."""
    seat = event.seat
    cards = _cards(event.fact("cards"))
    heavy = rulings.heavy(table.deal, cards, trump=event.fact("trump"), holder=seat)
    clause = "SJ-3.1.3" if heavy else "SJ-1.3"
    return decision(event, answers, clause, [Expose(cards, seat)],
                     extra_facts=(("heavy", tuple(str(c) for c in heavy)),))


def extra_card(rulings: ShengjiRulings, table: _Table, event: Any, answers: int) -> Decision:
    """SJ-3.1.6 heavy extra card (10) / SJ-1.8 light (Warning): the extra card is exposed and
    the rest stands. A rest that is no legal play itself is in no clause (unresolved: all
    the cards come back exposed and the seat plays again)."""
    seat = event.seat
    extra = _cards(event.fact("extra"))
    heavy = rulings.heavy(table.deal, extra, holder=seat)
    facts = (("heavy", tuple(str(c) for c in heavy)),)
    if not event.fact("rest_legal"):
        return uncovered(event, answers, "the play without the extra card is not legal either",
                           effects=_return_and_replay(table, seat), extra_facts=facts)
    clause = "SJ-3.1.6" if heavy else "SJ-1.8"
    return decision(event, answers, clause,
                     [Return(extra, seat), Expose(extra, seat), PlayStands(seat)], extra_facts=facts)


# ---------------------------------------------------------------------------------------------
# Out of turn: SJ-3.1.10.1 - 3.1.10.4 (抢出), SJ-3.1.11.1 - 3.1.11.3 (抢跟)

_OUT_OF_TURN = {
    "lead_before_burial": "SJ-3.1.10.1",
    "lead_wrong_bury_count": "SJ-3.1.10.1",
    "lead_out_of_turn": "SJ-3.1.10.2",
    "lead_before_trick_complete": "SJ-3.1.10.3",
    "play_before_turn": "SJ-3.1.11.1",
    "show_before_upper": "SJ-3.1.11.2",
}


def out_of_turn(rulings: ShengjiRulings, table: _Table, event: Any, answers: int) -> Decision:
    """The cards are taken back (they count as exposed) and the proper order restored; 10.
    Heavy cards on top (SJ-3.1.3 as SJ-3.1.10.4 / 3.1.11.3): a lead out of turn when the
    partner had the lead (before the trick was complete: when the partner is winning it,
    so leads next); a follow out of turn on a trick the offender's side led. The ruling then
    cites the .4 / .3 clause (the out-of-turn 10) and adds SJ-3.1.3's 10 under SJ-3.1.3. Leading after a wrong burial: the burial is
    done again (RedoBury)."""
    seat = event.seat
    irregularity = event.irregularity
    base = _OUT_OF_TURN[irregularity]
    cards = _cards(event.fact("cards"))
    rightful = event.fact("rightful")
    heavy = rulings.heavy(table.deal, cards, holder=seat)
    if base.startswith("SJ-3.1.10"):
        if irregularity == "lead_before_trick_complete":
            next_leader = event.fact("winning")
        elif irregularity == "lead_out_of_turn":
            next_leader = rightful
        else:
            next_leader = seat                      # the banker's own lead
        on_top = bool(heavy) and next_leader == partner(seat)
        top_clause = "SJ-3.1.10.4"
        circumstance = ("partners_lead", next_leader == partner(seat))
    else:
        leader = event.fact("leader")
        own_side = leader is not None and team(leader) == team(seat)
        on_top = bool(heavy) and own_side
        top_clause = "SJ-3.1.11.3"
        circumstance = ("own_sides_trick", own_side)
    facts: list[tuple[str, Any]] = [("heavy", tuple(str(c) for c in heavy)), circumstance, ("base_clause", base)]
    also: tuple[str, ...] = (HEAVY_EXPOSURE,) if on_top else ()
    if on_top:
        clause = top_clause
        facts.append(("on_top", "SJ-3.1.3: the exposed heavy cards, 10 more"))
    else:
        clause = base
        facts.append(("exposure", NO_HEAVY_ON_TOP if heavy else NO_SEPARATE_LIGHT_WARNING))
    effects: list[TableEffect] = [Return(cards, seat), Expose(cards, seat)]
    redo = irregularity == "lead_wrong_bury_count"
    if redo:
        effects.append(RedoBury(seat))
    effects.append(RestoreOrder(rightful))
    return decision(event, answers, clause, effects, extra_facts=facts, on_top=also)


# ---------------------------------------------------------------------------------------------
# Wrong follows: SJ-1.4, SJ-1.9, SJ-3.1.12.1 - 3.1.12.3, SJ-3.2 (established revoke)


def wrong_follow(rulings: ShengjiRulings, table: _Table, event: Any, answers: int) -> Decision:
    """Found at once: corrected (the cards come back exposed, a legal follow is made); light:
    SJ-1.4 (suit) / SJ-1.9 (pair or tractor not followed) + Warning; heavy: SJ-3.1.12.1 + 10.
    Found after the next seat played, trick open: corrected, the later plays retaken;
    SJ-3.1.12.2 (suit) / SJ-3.1.12.3 (pair or tractor, PD) + 10. A heavy suit error that
    affected play is the rulebook's PD (SJ-3.1.12): 10 under SJ-3.1.12.2 plus
    10 under SJ-3.1.3 for the heavy cards shown and taken back, one ruling with both tens
    (each under its own clause), as SJ-3.1.10.4 carries them. Found after the trick closed: an established revoke, SJ-3.2
    (PD): the tricks stand, 10, and the adjusted-score hook."""
    seat = event.seat
    cards = _cards(event.fact("cards"))
    what = event.fact("what")
    found = event.fact("found")
    heavy = rulings.heavy(table.deal, cards, trump=event.fact("trump"), holder=seat)
    facts: tuple[tuple[str, Any], ...] = (("heavy", tuple(str(c) for c in heavy)),)
    if found == "after_trick":
        draft = Decision("SJ-3.2", answers, offender=seat, facts=tuple(event.facts), irregularity=event.irregularity)
        sanctions = (_TEN, *rulings.fallback(table.deal, draft))
        return decision(event, answers, "SJ-3.2", [], sanctions=sanctions,
                         extra_facts=facts + (("tricks_stand", True),))
    if found == "affecting_play":
        effects = [Return(cards, seat), Expose(cards, seat), Replay([next_seat(seat)]), CorrectFollow(seat)]
        clause = "SJ-3.1.12.2" if what == "suit" else "SJ-3.1.12.3"
        also: tuple[str, ...] = ()
        if what == "suit" and heavy:
            also = (HEAVY_EXPOSURE,)
            facts += (("base_clause", clause), ("on_top", HEAVY_FOLLOW_ON_TOP))
        return decision(event, answers, clause, effects, extra_facts=facts, on_top=also)
    if heavy:
        clause = "SJ-3.1.12.1"
    else:
        clause = "SJ-1.4" if what == "suit" else "SJ-1.9"
    return decision(event, answers, clause, [Return(cards, seat), Expose(cards, seat),
                                                              CorrectFollow(seat)], extra_facts=facts)


# ---------------------------------------------------------------------------------------------
# Reported incidents (SJ-1, SJ-2, SJ-3.1 and their forms)

_INCIDENTS: dict[str, dict[str, str]] = {
    # incident → {severity or 'damaged' → clause}
    "prompting": {"minor": "SJ-1.7", "serious": "SJ-2.2", "deliberate": "SJ-2.2", "damaged": "SJ-3.1.5"},
    "prompting_declaration": {"minor": "SJ-1.17", "serious": "SJ-2.2", "deliberate": "SJ-2.8"},
    "reminding": {"minor": "SJ-1.16", "serious": "SJ-2.7", "deliberate": "SJ-2.7"},
    "tempo": {"minor": "SJ-1.13", "serious": "SJ-2.4", "deliberate": "SJ-2.4"},
    "signing": {"minor": "SJ-1.15", "serious": "SJ-1.15", "deliberate": "SJ-1.15"},
    "kitty_inspection": {"minor": "SJ-1.18", "serious": "SJ-2.9", "deliberate": "SJ-2.9"},
    "old_tricks": {"minor": "SJ-1.12", "serious": "SJ-2.11", "deliberate": "SJ-2.11", "damaged": "SJ-3.1.9"},
    "tricks_order": {"minor": "SJ-1.11", "serious": "SJ-2.10", "deliberate": "SJ-2.3", "damaged": "SJ-3.1.8"},
    "refusing_ruling": {"minor": "SJ-2.6", "serious": "SJ-2.6", "deliberate": "SJ-2.6"},
    "exposure_signalling": {"minor": "SJ-2.5", "serious": "SJ-2.5", "deliberate": "SJ-2.5"},
    "passing_cards": {"minor": "SJ-2.2", "serious": "SJ-2.2", "deliberate": "SJ-2.2"},
    "repeated_misdraw": {"minor": "SJ-2.2", "serious": "SJ-2.2", "deliberate": "SJ-2.2"},
    "declaration_chosen": {"minor": "SJ-3.1.4", "serious": "SJ-3.1.4", "deliberate": "SJ-3.1.4"},
    "misconduct": {"minor": "SJ-1", "serious": "SJ-2", "deliberate": "SJ-2", "damaged": "SJ-3.1"},
}
INCIDENTS = ("late", "unreasonable_play", *_INCIDENTS)
"""The incident kinds a report may name (shengji.actions.Incident.incident)."""


def incident(rulings: ShengjiRulings, table: _Table, event: Any, answers: int) -> Decision:
    """A reported incident, by kind, severity and damage (the seed's own ladder: minor →
    SJ-1 Warning; clear, no damage → SJ-2 RecordedViolation; damage → SJ-3.1 10 points).
    Lateness is the side's, by the rulebook's PD bands (SJ-1.2): up to 5
    minutes SJ-1.2, over 5 up to 15 SJ-3.1.2, more: unresolved. A
    second unreasonable play by the same player is SJ-2.2. Severity 'suspension': a human
    referee suspends the player (SJ-3.2: Suspension only ever from a report)."""
    seat = event.seat
    what = event.fact("incident")
    severity = event.fact("severity")
    note = event.fact("note") or ""
    if severity == "suspension":
        return decision(event, answers, "SJ-3.2", [],
                         sanctions=(Suspension(note or f"reported: {what}"),))
    if what == "late":
        minutes = event.fact("minutes") or 0
        side = team(seat)
        if minutes <= 0:
            return uncovered(event, answers, "lateness of no minutes")
        if minutes > LATE_PENALTY_MINUTES:
            return uncovered(event, answers, f"{minutes} minutes late: over 15, the rulebook's PD bands "
                               "(SJ-1.2) leave it to the fallback", extra_facts=(("band", LATE_BANDS),))
        clause = "SJ-1.2" if minutes <= LATE_WARNING_MINUTES else "SJ-3.1.2"
        return decision(event, answers, clause, [], offender=None, side=side,
                         extra_facts=(("band", LATE_BANDS),))
    if what == "unreasonable_play":
        before = rulings.ledger.occurrences("SJ-1.14", seat) if rulings.ledger is not None else 0
        clause = "SJ-1.14" if before == 0 and severity == "minor" else "SJ-2.2"
        return decision(event, answers, clause, [],
                         extra_facts=(("earlier_unreasonable_plays", before),))
    ladder = _INCIDENTS.get(what)
    if ladder is None:
        return uncovered(event, answers, f"a reported incident of kind {what!r} is in no clause")
    damaged = ladder.get("damaged") if event.fact("damaged") and severity != "minor" else None
    return decision(event, answers, damaged or ladder[severity], [])


def no_clause(rulings: ShengjiRulings, table: _Table, event: Any, answers: int) -> Decision:
    """A play with the wrong number of cards, a lead of mixed suits: in no clause (the
    rulebook's ``unresolved:`` keys of SJ-3.0); the cards come back exposed and the seat
    plays again."""
    return uncovered(event, answers, "no clause covers this irregularity",
                       effects=_return_and_replay(table, event.seat))


# ---------------------------------------------------------------------------------------------

_FAMILIES: dict[str, Callable[[ShengjiRulings, _Table, Any, int], Decision]] = {
    "draw_other_seat_card": draw_other_seat_card,
    "banker_drew_kitty": banker_drew_kitty,
    "miscount_after_draw": miscount,
    "simultaneous_declaration": simultaneous_declaration,
    "exposed_card": exposed_card,
    "extra_card": extra_card,
    **{irregularity: out_of_turn for irregularity in _OUT_OF_TURN},
    "wrong_follow": wrong_follow,
    "incident": incident,
    "wrong_card_count": no_clause,
    "invalid_lead": no_clause,
}
