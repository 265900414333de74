"""Handlers every game's replay table shares: the referee's rulings (``ref.ruling``,
``ref.unresolved``), irregular attempts and their discovery, notes, and the conventions by
which a kind without a handler still shows up (see ``by_convention``):

- ``cards`` and a kind containing "expose" (not "lift"): the cards lie face up in front of
  ``seat``, still its own; "lift": they go back among its concealed cards;
- ``cards`` and a kind containing "penalty": penalty cards of ``seat`` (exposed too);
- a ``ref.*`` kind with ``clause`` (or ``fallback``): a ruling for the ruling panel;
- anything else: described from its payload.

An irregular attempt lays on the table the cards a ``laid`` fact names (card codes), else
the action's ``cards`` + ``extra`` for Play and PlayWithExtra, its ``card`` for GiveTribute
and ReturnCard (what the engines lay)."""

from __future__ import annotations

from typing import Any

from paiju.replay.table import BY_CODE, Handler, Seat, Table, card, cards, cards_text, seat_of, take
from tabletop.cards import Card
from tabletop.events import Event


def describe_payload(event: Event) -> str:
    """A kind without a handler: its payload, readably."""
    data = event.to_dict()
    for key in ("kind", "deal", "seq", "seat"):
        data.pop(key, None)
    parts = []
    for key, value in data.items():
        if key in ("cards", "attempted", "forced", "returned") and isinstance(value, tuple) and all(v in BY_CODE for v in value):
            parts.append(f"{key} {cards_text(card(v) for v in value)}")
        else:
            parts.append(f"{key}={plain(value)}")
    who = f"seat {event.seat}: " if event.seat is not None else ""
    return f"{who}{event.KIND}" + (" " + ", ".join(parts) if parts else "")


def plain(value: Any) -> str:
    if isinstance(value, tuple):
        if all(isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str) for v in value) and value:
            return "{" + ", ".join(f"{k}={plain(v)}" for k, v in value) + "}"
        return "[" + " ".join(plain(v) for v in value) + "]"
    if isinstance(value, dict):
        kind = value.get("kind")
        rest = ", ".join(f"{k}={plain(v)}" for k, v in value.items() if k != "kind")
        return f"{kind}({rest})" if kind else "{" + rest + "}"
    return str(value)


def by_convention(table: Table, event: Event) -> str:
    """A kind without a handler: the payload conventions of the module docstring."""
    kind = event.KIND
    payload = getattr(event, "cards", None)
    if isinstance(payload, tuple) and event.seat is not None and payload and all(isinstance(c, str) for c in payload):
        seat = table.seats[seat_of(event.seat)]
        cs = cards(payload)
        if "expose" in kind and "lift" in kind:
            take(seat.exposed, cs)
            take(seat.penalty, cs)
        elif "penalty" in kind:
            expose(seat, cs)
            seat.penalty.extend(cs)
        elif "expose" in kind:
            expose(seat, cs)
    if kind.startswith("ref.") and (hasattr(event, "clause") or hasattr(event, "fallback")):
        return add_ruling(table, event)
    return describe_payload(event)


def back_to_hand(table: Table, s: int, cs: list[Card]) -> None:
    """Cards go back into seat ``s``'s hand: from the table in front of it, else from its
    play in the middle (a play taken back), else from wherever they were."""
    seat = table.seats[s]
    for c in cs:
        if c in seat.on_table:
            seat.on_table.remove(c)
        else:
            for entry in reversed(table.pile.entries):
                if entry.seat == s and entry.cards and c in entry.cards:
                    rest = list(entry.cards)
                    rest.remove(c)
                    entry.cards = tuple(rest)
                    break
        seat.hand.append(c)
    table.pile.entries = [e for e in table.pile.entries if e.cards is None or e.cards]


def expose(seat: Seat, cs: list[Card]) -> None:
    """Cards lie face up in front of the seat, in its hand (back from the table first)."""
    seat.pick_up(cs)
    seat.exposed.extend(c for c in cs if seat.exposed.count(c) < cs.count(c))


def add_ruling(table: Table, event: Event) -> str:
    """``ref.ruling`` / ``ref.unresolved`` (and any ``ref.*`` with a clause): the ruling panel."""
    from enforcement.rulebook import UnknownClause, clause as lookup

    unresolved = not hasattr(event, "clause")
    clause_id = getattr(event, "fallback", None) if unresolved else getattr(event, "clause", None)
    try:
        entry = lookup(str(clause_id))
        title, text_zh, summary = entry.title, entry.text_zh, entry.summary
    except UnknownClause:
        title, text_zh, summary = "(not in this rulebook)", "", ""
    offender = getattr(event, "offender", event.seat)
    record = {
        "seq": event.seq,
        "kind": "unresolved" if unresolved else "ruling",
        "clause": str(clause_id),
        "title": title,
        "text_zh": text_zh,
        "summary": summary,
        "said": getattr(event, "summary", "") or getattr(event, "note", ""),
        "offender": offender,
        "irregularity": getattr(event, "irregularity", ""),
        "answers": getattr(event, "answers", None),
        "facts": plain(getattr(event, "facts", ())) if getattr(event, "facts", ()) else "",
        "rectification": [effect_text(e) for e in getattr(event, "rectification", ())],
        "sanctions": [sanction_text(s) for s in getattr(event, "sanctions", ())],
    }
    table.rulings.append(record)
    who = f"seat {offender}" if offender is not None else "the table"
    if unresolved:
        return f"UNRESOLVED {record['irregularity']} by {who}: fallback {clause_id} ({title})"
    return f"RULING {clause_id} on {who}: {title}"


def effect_text(effect: Any) -> str:
    if isinstance(effect, dict):
        from tabletop.effects import TableEffect
        try:
            return str(TableEffect.from_dict(dict(effect)))
        except (ValueError, TypeError):
            return plain(effect)
    return plain(effect)


def sanction_text(item: Any) -> str:
    if not isinstance(item, dict):
        return plain(item)
    from tabletop.effects import Sanction
    sanction = item.get("sanction")
    try:
        what = str(Sanction.from_dict(dict(sanction))) if isinstance(sanction, dict) else plain(sanction)
    except (ValueError, TypeError):
        what = plain(sanction)
    seat, side = item.get("seat"), item.get("side")
    who = f"seat {seat}" if seat is not None else f"side {side}"
    cause = f" ({item['cause']})" if item.get("cause") else ""
    clause_id = f" [{item['clause']}]" if item.get("clause") else ""
    return f"{who}: {what}{clause_id}{cause}"


LAYING_ACTIONS = {"Play": ("cards",), "PlayWithExtra": ("cards", "extra"), "GiveTribute": ("card",),
                  "ReturnCard": ("card",)}
"""Irregular attempts whose cards the engines lay on the table (the rest stay in the hand)."""


def _codes(value: Any) -> tuple[Any, ...]:
    """An action's card field as card codes: a tuple of them, one code, or none."""
    return value if isinstance(value, tuple) else (value,) if isinstance(value, str) else ()


def irregular(table: Table, event: Event) -> str:
    """An irregular attempt (``Irregular``: ``irregularity``, ``facts``, ``action`` as
    (name, value) pairs): its cards go on the table in front of the seat, as the engines lay
    them — a ``laid`` fact (card codes) says which, else the action's cards by its type."""
    action = {str(k): v for k, v in getattr(event, "action", ())}
    facts = dict(getattr(event, "facts", ()))
    what = str(action.get("type", "?"))
    if isinstance(facts.get("laid"), tuple):
        laid = cards(facts["laid"])
    else:
        laid = []
        for name in LAYING_ACTIONS.get(what, ()):
            value = action.get(name)
            laid.extend(cards(value) if isinstance(value, tuple) else [card(value)] if isinstance(value, str) else [])
    if event.seat is not None:
        table.seats[seat_of(event.seat)].lay(laid)
    shown = [c for name in ("cards", "extra", "card") for c in _codes(action.get(name))]
    visible = table.sees(event.seat) or what not in ("Bury", "Draw", "DrawOutOfTurn")
    detail = f" {cards_text(card(c) for c in shown)}" if shown and visible else ""
    reading = f" ({action['reading']})" if action.get("reading") else ""
    later = " (nobody noticed yet)" if getattr(event, "latent", False) else ""
    facts_text = ", ".join(f"{k}={plain(v)}" for k, v in getattr(event, "facts", ())
                           if k not in ("cards", "laid") and v is not None)
    return (f"IRREGULAR seat {event.seat}: {getattr(event, 'irregularity', '?')} — {what}{detail}{reading}"
            + (f" [{facts_text}]" if facts_text else "") + later)


def found(table: Table, event: Event) -> str:
    facts = ", ".join(f"{k}={plain(v)}" for k, v in getattr(event, "facts", ()) if v is not None)
    return (f"irregularity found: seat {event.seat}'s {getattr(event, 'irregularity', '?')} "
            f"(seq {getattr(event, 'answers', '?')})" + (f" [{facts}]" if facts else ""))


def note_handler(table: Table, event: Event) -> str:
    return f"note: {getattr(event, 'text', '')}"


GENERIC_HANDLERS: dict[str, Handler] = {"note": note_handler, "ref.ruling": add_ruling, "ref.unresolved": add_ruling}
