"""What a ruling says it does, against what the table did: the correspondence between the
table effects a ``ref.ruling`` lists (``tabletop.effects``) and the public events of the
table primitives that carry them out, per game, in one place. Used by the
``effects_carried_out`` invariant (``enforcement.invariants``) after every ruling.

Both sides are reduced to *atoms*, the smallest facts either can state: one atom per card
for the card effects (so a Return of 3 cards equals a ``table.returned`` of those 3 cards, or
two returns of 2 and 1; cards are multisets), one per seat or table change otherwise. The
ruling's atoms come from its ``rectification``; the table's from the events of
*effect kinds* (below) emitted after the ruling and before the next turn — a decision, a
barred seat's automatic pass or a play that stands as made (``AUTOMATIC_TURNS``); the
window also ends at the next
irregular attempt, discovery, ruling, unresolved event or deal, whose events are no longer
this ruling's. Each listed atom must be matched by one carried
atom and each carried atom by one listed atom. A field (a bar's ``scope``, a per-seat
no-tribute) is compared when both sides carry it.

Effect ↔ event, 掼蛋 (guandan.events):

    Return(cards, seat)        table.returned            one atom per card, seat
    Expose(cards, seat)        table.exposed             one atom per card, seat
    PenaltyCards(cards, seat)  table.penalty_cards       one atom per card, seat (one with a
                                                      ``cause`` is a lead option lapsing: the
                                                      LeadOption of an earlier ruling, no atom)
    BarOnePlay(seat, scope)    table.barred              seat (scope when the event has one)
    LeadOption(chooser, restricted_seat, exposed_kind)
                               gd.lead_option         restricted, chooser, combination
    RestoreOrder(seat)         table.turn_restored       seat; also table.random_draw: the draw
                                                      goes on with the drawer's 下家
    RandomDraw(source, to)     table.random_draw         to (the event's seat), source, 1 card
    Redeal(fresh_deck)         gd.redeal              fresh_deck
    ReportAgain(seat)          gd.cards_reported      seat
    CorrectPlay(seat, cards)   gd.correction_due      seat, cards (the correction itself is
                                                      the seat's next action)
    Replay(seats, chooser, purpose)
                               table.choice              purpose replay / partner_replay,
                                                      offered to one of ``seats`` (the
                                                      ruling's ``chooser``)
    UnauthorisedInformation(seats, cards)
                               gd.unauthorised        seats, cards
    PassSequence(offender, seats, then)
                               gd.pass_sequence       offender (the event's seat), seats, then
    NoTributeNextDeal, NextDealProcedure
                               gd.next_deal_scheduled see ``_next_deal``: the procedure in
                               force after the window must say what the effects say; an
                               event that changes nothing listed is extra
    RedoTribute, RedoReturn    —                      the seat's own next tribute / return
                                                      carries them out (nothing to emit)
    PlayStands(seat, reading)  —                      the play standing is the seat's turn
                                                      (GD-2.4.3: the rest of an attempt with
                                                      extra cards stands; GD-2.3.2: the
                                                      out-of-turn play, then the play on it)

  Effect events that no listed effect can match (always extra in a ruling's window):
  gd.lead_restricted, table.exposure_lifted, gd.taken_back.

Effect ↔ event, 双升 (shengji.events):

    Return(cards, seat)        table.returned            per card; ``exposed=True`` also
                                                      exposes them (an Expose atom per card)
    Expose(cards, seat)        table.exposed, table.returned(exposed=True)
    RestoreOrder(seat), CorrectFollow(seat)
                               table.turn_restored       seat (whose turn it is now)
    Replay(seats)              sj.taken_back          one atom per later seat taken back;
                               the offender's own cards in it are a Return and an Expose,
                               and its turn (CorrectFollow)
    RedoBury(seat)             sj.burial_undone       seat
    LoseDeclarationRight(seat) sj.declaration_barred  seat
    LotsDraw(seats, winner)    sj.declaration_stands  how='lots': the two seats, the winner
                                                      (the event's seat)
    DeclarationStands(seat)    sj.declaration_stands  how='chosen': seat
    PlayStands(seat)           —                      the play standing is the seat's turn,
                                                      taken at once (sj.play_stands, an
                                                      automatic turn: it ends the window)
    Choice(chooser, options, may_decline)
                               table.choice              purpose miscount_*: chooser, options
                                                      (RandomDraw → random_draw, Redeal →
                                                      redeal, may_decline → decline); what
                                                      is chosen is carried out after the
                                                      chooser's decision
    (no effect)                table.random_draw, sj.redeal, sj.handed_over: always extra

Not effects (never compared): plays and passes, a play that stands as made (gd/sj
play_stands), bars served or
lapsing, a lead option or designation being *asked* (table.choice lead_option / designate),
and what sanctions do (level and point penalties, 单下 / 双下 results, a match loss: the
``sanctions_carried_out`` and ``next_deal_procedure`` invariants check those).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from tabletop.effects import Atom, Member, TableEffect, card_atoms
from tabletop.seats import next_seat

# ---------------------------------------------------------------------------------------------
# Atoms


def _cards(kind: str, seat: int | None, cards: Iterable[str], source: str) -> list[Atom]:
    return card_atoms(kind, seat, cards, source)


# ---------------------------------------------------------------------------------------------
# The ruling's side


NEXT_DEAL_EFFECTS = frozenset({"NoTributeNextDeal", "NextDealProcedure"})
LATER = frozenset({"RedoTribute", "RedoReturn", "PlayStands"})
"""Effects the seat's own next (or automatic) turn carries out: no primitive event."""

def listed_atoms(game: str, effect: dict[str, Any], offender: int | None) -> list[Atom]:
    """The atoms of one table effect (a ``to_dict`` record) of a ruling: a game's own kind
    says them itself (``TableEffect.atoms``); the shared kinds' are here."""
    kind = effect["kind"]
    try:
        said = TableEffect.from_dict(dict(effect)).atoms(offender)
    except ValueError:
        said = None                      # not a kind any loaded game defines: below
    if said is not None:
        return said
    src = _effect_text(effect)
    seat = effect.get("seat", offender) if "seat" in effect else None
    if seat is None and kind in ("Return", "Expose"):
        seat = offender
    if kind in ("Return", "Expose"):
        return _cards(kind, seat, effect["cards"], src)
    if kind == "RestoreOrder":
        return [Atom(effect_events(game).turn, seat, src)]
    if kind == "RandomDraw":
        return [Atom(kind, effect["to"], src, source=effect["source"], count=effect["count"])]
    if kind == "Redeal":
        return [Atom(kind, None, src, fresh_deck=effect["fresh_deck"])]
    if kind == "Replay":
        if not effect_events(game).replay_per_seat:
            return [Atom(kind, None, src, seats=tuple(effect["seats"]))]
        return [Atom(kind, s, src) for s in effect["seats"]]
    if kind in LATER or kind in NEXT_DEAL_EFFECTS:
        return []
    # an effect kind this table does not know: it can never be matched (a violation says so)
    return [Atom(kind, seat, src, unknown="no event carries this effect kind out")]


def _effect_text(effect: dict[str, Any]) -> str:
    try:
        return str(TableEffect.from_dict(dict(effect)))
    except ValueError:
        return str(effect)


# ---------------------------------------------------------------------------------------------
# The table's side

GUANDAN_EFFECT_EVENTS = frozenset({
    "table.returned", "table.exposed", "table.penalty_cards", "table.barred", "gd.lead_option", "table.turn_restored",
    "table.random_draw", "gd.redeal", "gd.cards_reported", "gd.correction_due", "table.choice", "gd.unauthorised",
    "gd.next_deal_scheduled", "gd.pass_sequence", "gd.lead_restricted", "table.exposure_lifted", "gd.taken_back",
})
SHENGJI_EFFECT_EVENTS = frozenset({
    "table.returned", "table.exposed", "table.turn_restored", "sj.taken_back", "sj.burial_undone",
    "sj.declaration_barred", "sj.declaration_stands", "table.choice", "table.random_draw", "sj.redeal",
    "sj.handed_over",
})


@attrs.frozen
class EffectEvents:
    """How one game's table shows a ruling's effects carried out (a game's referee part):
    the event kinds a ruling's window collects (a superset: ``atoms`` decides; a kind not
    listed is never a table effect), the atoms of one such event, the atom a restored turn
    is, whether a Replay is one atom per seat, and whether rulings schedule the next deal."""

    kinds: frozenset[str]
    atoms: Callable[[Any], list[Atom]]
    turn: str
    replay_per_seat: bool
    next_deal: bool


def effect_events(game: str) -> EffectEvents:
    from enforcement.games import referee_part

    return referee_part(game).effect_events

_GD_ASKED = ("lead_option", "designate")
_SJ_CHOICES = ("miscount_draw", "miscount_remedy")


def carried_atoms(game: str, e: Any) -> list[Atom]:
    """The atoms an effect event carries out (empty: it is play going on, not an effect)."""
    return effect_events(game).atoms(e)


def guandan_atoms(e: Any) -> list[Atom]:
    """掼蛋: the atoms an effect event carries out."""
    kind = e.KIND
    src = f"{kind} seq {e.seq}"
    seat = e.seat
    if kind == "table.penalty_cards" and getattr(e, "cause", None) is not None:
        return []   # a lead option lapsing (its own ruling's LeadOption says so): no effect of this one
    if kind in ("table.returned", "table.exposed", "table.penalty_cards"):
        name = {"table.returned": "Return", "table.exposed": "Expose", "table.penalty_cards": "PenaltyCards"}[kind]
        return _cards(name, seat, e.cards, src)
    if kind == "table.barred":
        scope = getattr(e, "scope", None)
        return [Atom("BarOnePlay", seat, src) if scope is None else Atom("BarOnePlay", seat, src, scope=scope)]
    if kind == "gd.lead_option":
        return [Atom("LeadOption", e.restricted, src, chooser=e.chooser, combination=e.combination)]
    if kind == "table.turn_restored":
        return [Atom("RestoreOrder", seat, src)]
    if kind == "table.random_draw":
        return [Atom("RandomDraw", seat, src, source=e.source, count=1), Atom("RestoreOrder", next_seat(seat), src)]
    if kind == "gd.redeal":
        return [Atom("Redeal", None, src, fresh_deck=e.fresh_deck)]
    if kind == "gd.cards_reported":
        return [Atom("ReportAgain", seat, src)]
    if kind == "gd.correction_due":
        return [Atom("CorrectPlay", seat, src, cards=tuple(sorted(e.cards)))]
    if kind == "table.choice":
        if e.purpose in _GD_ASKED:
            return []
        if e.purpose in ("replay", "partner_replay"):
            return [Atom("Replay", None, src, seats=Member(seat))]
        return [Atom("Choice", seat, src, purpose=e.purpose)]
    if kind == "gd.unauthorised":
        return [Atom("UnauthorisedInformation", None, src, seats=tuple(e.seats), cards=tuple(sorted(e.cards)))]
    if kind == "gd.pass_sequence":
        return [Atom("PassSequence", seat, src, seats=tuple(e.seats), then=e.then)]
    if kind == "gd.lead_restricted":
        return [Atom("LeadRestricted", seat, src, rule=e.rule, combination=e.combination)]
    if kind == "table.exposure_lifted":
        return _cards("ExposureLifted", seat, e.cards, src)
    if kind == "gd.taken_back":
        return [Atom("PlaysTakenBack", None, src, seats=tuple(e.seats))]
    return []


def shengji_atoms(e: Any) -> list[Atom]:
    """双升: the atoms an effect event carries out."""
    kind = e.KIND
    src = f"{kind} seq {e.seq}"
    seat = e.seat
    if kind == "table.returned":
        out = _cards("Return", seat, e.cards, src)
        if e.exposed:
            out += _cards("Expose", seat, e.cards, src)
        return out
    if kind == "table.exposed":
        return _cards("Expose", seat, e.cards, src)
    if kind == "table.turn_restored":
        return [Atom("Turn", seat, src)]
    if kind == "sj.taken_back":
        own = e.cards[0] if e.seats and e.seats[0] == seat else ()
        out = _cards("Return", seat, own, src) + _cards("Expose", seat, own, src) + [Atom("Turn", seat, src)]
        return out + [Atom("Replay", s, src) for s in e.seats if s != seat]
    if kind == "sj.burial_undone":
        return [Atom("RedoBury", seat, src)]
    if kind == "sj.declaration_barred":
        return [Atom("LoseDeclarationRight", seat, src)]
    if kind == "sj.declaration_stands":
        if e.how != "lots":
            return [Atom("DeclarationStands", seat, src)]
        return [Atom("LotsDraw", None, src, seats=tuple(sorted((seat, e.withdrawn))), winner=seat)]
    if kind == "table.choice":
        if e.purpose in _SJ_CHOICES:
            return [Atom("Choice", seat, src, options=frozenset(e.options))]
        return [Atom("Choice", seat, src, purpose=e.purpose)]
    if kind == "table.random_draw":
        return [Atom("RandomDraw", seat, src, source=e.source, count=len(e.cards))]
    if kind == "sj.redeal":
        return [Atom("Redeal", None, src, fresh_deck=False)]
    if kind == "sj.handed_over":
        return [Atom("HandOver", seat, src, source=e.source, card=e.card)]
    return []


# ---------------------------------------------------------------------------------------------
# The next deal (掼蛋 GD-5.1 / GD-5.2)


def _excused(p: Any) -> set[Any]:
    """Who gives no tribute under the procedure ``p`` (a gd.next_deal_scheduled event, or
    None): 'all', or the seats excused (GD-5.1)."""
    if p is None:
        return set()
    if p.no_tribute:
        return {"all"}
    return set(p.no_tribute_seats)


_PROCEDURE = ("shuffler", "cutter", "first_drawer", "leader")


def _next_deal(listed: Sequence[dict[str, Any]], scheduled: Sequence[Any], standing: Any) -> list[str]:
    """The next-deal effects against the next-deal events of the window (``standing``: the
    procedure scheduled before the ruling, which may already say what an effect says: then
    nothing need be emitted)."""
    problems: list[str] = []
    final = scheduled[-1] if scheduled else standing
    excused = _excused(final)
    wanted: set[Any] = set()
    for effect in listed:
        text = _effect_text(effect)
        if effect["kind"] == "NoTributeNextDeal":
            who = effect["seat"]
            wanted.add(who)
            if "all" not in excused and who not in excused:
                problems.append(f"listed but not carried out: {text} (next deal scheduled: {_procedure_text(final)})")
        else:
            want = tuple(effect[n] for n in _PROCEDURE)
            have = tuple(getattr(final, n, None) for n in _PROCEDURE) if final is not None else None
            if have != want:
                problems.append(f"listed but not carried out: {text} (next deal scheduled: {_procedure_text(final)})")
    if not scheduled:
        return problems
    procedures = [e for e in listed if e["kind"] == "NextDealProcedure"]
    last = scheduled[-1]
    src = f"gd.next_deal_scheduled seq {last.seq}"
    if not listed:
        problems.append(f"carried out but not listed: {_procedure_text(last)} [{src}]")
        return problems
    before = _excused(standing)
    for who in excused - before:
        if who == "all":
            if not procedures:
                problems.append(f"carried out but not listed: no tribute at all next deal [{src}]")
        elif who not in wanted:
            problems.append(f"carried out but not listed: no tribute from seat {who} next deal [{src}]")
    if not procedures and any(getattr(last, n, None) is not None for n in _PROCEDURE) and (
            standing is None or any(getattr(last, n) != getattr(standing, n, None) for n in _PROCEDURE)):
        problems.append(f"carried out but not listed: the next deal's procedure {_procedure_text(last)} [{src}]")
    return problems


def _procedure_text(p: Any) -> str:
    if p is None:
        return "as usual"
    fields = [n for n in p._field_names() if n.startswith("no_tribute") or n in _PROCEDURE]
    return " ".join(f"{n}={getattr(p, n)}" for n in fields if getattr(p, n) not in (None, False))


# ---------------------------------------------------------------------------------------------
# The comparison


def _grouped(atoms: list[Atom]) -> list[str]:
    """Card atoms of one effect or event shown together: Return(seat 1, cards S7 H7) [...]."""
    out: dict[tuple, list[str]] = {}
    texts: list[str | tuple] = []
    for a in atoms:
        card = a.fields.get("card")
        if card is None or len(a.fields) != 1:
            texts.append(str(a))
            continue
        key = (a.kind, a.seat, a.origin)
        if key not in out:
            out[key] = []
            texts.append(key)
        out[key].append(card)
    return [t if isinstance(t, str) else f"{t[0]}(seat {t[1]}, cards {' '.join(out[t])}) [{t[2]}]" for t in texts]


def mismatches(game: str, ruling: Any, events: Sequence[Any], standing: Any = None) -> list[str]:
    """What differs between the effects ``ruling`` lists and the effect events of its window
    (``events``, in order; other kinds are ignored). ``standing``: 掼蛋's next-deal procedure
    scheduled before the ruling. Empty: they agree."""
    offender = getattr(ruling, "offender", ruling.seat)   # a ref.unresolved names its seat
    listed: list[Atom] = []
    next_deal: list[dict[str, Any]] = []
    for effect in ruling.rectification:
        if effect["kind"] in NEXT_DEAL_EFFECTS:
            next_deal.append(effect)
        listed += listed_atoms(game, effect, offender)
    kinds = effect_events(game).kinds
    carried: list[Atom] = []
    scheduled: list[Any] = []
    for e in events:
        if e.KIND not in kinds:
            continue
        if e.KIND == "gd.next_deal_scheduled":
            scheduled.append(e)
        else:
            carried += carried_atoms(game, e)
    open_ = list(carried)
    missing: list[Atom] = []
    for atom in listed:
        hit = next((i for i, c in enumerate(open_) if atom.agrees(c)), None)
        if hit is None:
            missing.append(atom)
        else:
            del open_[hit]
    problems = [f"listed but not carried out: {a}" for a in _grouped(missing)]
    problems += [f"carried out but not listed: {a}" for a in _grouped(open_)]
    if effect_events(game).next_deal:
        problems += _next_deal(next_deal, scheduled, standing)
    return problems


class Window:
    """The events of one ruling's window, collected as they come."""

    __slots__ = ("ruling", "events", "standing")

    def __init__(self, ruling: Any, standing: Any) -> None:
        self.ruling = ruling
        self.events: list[Any] = []
        self.standing = standing


AUTOMATIC_TURNS = frozenset({"table.barred_pass", "gd.play_stands", "sj.play_stands"})
"""Turns taken without a decision — a barred seat's automatic pass, a play that stands as if
made in turn: like an action, they end a ruling's window (what they carry out, e.g. the
exposure of the unused cards of an earlier GD-2.4 correction, is that turn's)."""


RULED = frozenset({"ref.ruling", "ref.unresolved"})
"""What opens a window: a ruling, or an unresolved irregularity's put-right effects."""


def ruled_under(ruling: Any) -> str:
    """The clause a window's ruling cites (the fallback clause of an unresolved one)."""
    return getattr(ruling, "clause", None) or ruling.fallback


def ends_window(e: Any) -> bool:
    """Whether ``e`` ends a ruling's window: a decision's event (an action, irregular
    attempts included) or an automatic turn; discoveries, rulings and deals end it too."""
    kind = e.KIND
    return e.ACTION or kind in AUTOMATIC_TURNS or kind.endswith((".found", ".deal_started"))


def windows(game: str, events: Iterable[Any]) -> list[Window]:
    """A log's rulings (and unresolved events) with their windows, cut as the checker cuts
    them: a window ends at the next action (a decision), irregular attempt, discovery,
    ruling, unresolved event or deal."""
    out: list[Window] = []
    current: Window | None = None
    scheduled = None
    kinds = effect_events(game).kinds
    for e in events:
        kind = e.KIND
        if kind in kinds:
            if current is not None:
                current.events.append(e)
            if kind == "gd.next_deal_scheduled":
                scheduled = e
        elif kind in RULED:
            current = Window(e, scheduled)
            out.append(current)
        elif ends_window(e):
            current = None
            if kind.endswith(".deal_started"):
                scheduled = None
    return out


def log_mismatches(game: str, events: Iterable[Any]) -> list[tuple[Any, list[str]]]:
    """Every ruling of a log whose listed effects differ from what its window carried out,
    with what differs."""
    out = []
    for w in windows(game, events):
        problems = mismatches(game, w.ruling, w.events, w.standing)
        if problems:
            out.append((w.ruling, problems))
    return out


GUANDAN = EffectEvents(GUANDAN_EFFECT_EVENTS, guandan_atoms, turn="RestoreOrder", replay_per_seat=False,
                       next_deal=True)
SHENGJI = EffectEvents(SHENGJI_EFFECT_EVENTS, shengji_atoms, turn="Turn", replay_per_seat=True,
                       next_deal=False)
