"""双升 events on the replay table (see ``paiju.replay.table``): one handler per event kind,
returning the event as one line and keeping the record its words need; and the seats of the
frame, from the engine's view of the table (``seats``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from functools import lru_cache

from shengji import events as ev
from tabletop import table_events as te
from paiju.replay.chinese import text_zh
from paiju.replay.shared import back_to_hand, choice_flag, found, irregular
from paiju.wording import seat_zh
from paiju.replay.table import Handlers, Entry, Pile, Table, by_suit, card, card_text, cards, cards_text, codes_text, \
    no_seats, seat_of
from tabletop.cards import RANKS, SUIT_SYMBOLS, SUITS, Card
from tabletop.errors import LogError, PaijuError
from paiju.summary import counted

HANDLERS = Handlers()
on = HANDLERS.on


def _trump_name(trump: str | None) -> str:
    return "no trump 无主" if trump is None else f"trump {SUIT_SYMBOLS[SUITS.index(trump)]}"


@lru_cache(maxsize=64)
def _context(level: str, trump: str | None, rules: tuple) -> Any:
    from shengji.context import Context
    from shengji.rules import ShengjiRules
    try:
        parsed = ShengjiRules.from_dict(dict(rules))
    except (PaijuError, TypeError, ValueError):
        parsed = None
    return Context(level, trump, parsed)


def _frozen_rules(table: Table) -> tuple:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in table.rules.items()))


def hand_order(table: Table) -> Callable[[list[Card]], list[tuple[str, list[Card]]]]:
    """Before trump is known: jokers, then each suit with the level rank on top; after:
    主 (every trump, high to low), then the side suits, high to low."""
    facts = table.facts
    if facts is None:
        return by_suit
    level = RANKS.index(facts.level)
    if not facts.trump_known:
        def before(hand: list[Card]) -> list[tuple[str, list[Card]]]:
            groups: list[tuple[str, list[Card]]] = []
            jokers = sorted((c for c in hand if c.is_joker), reverse=True)
            if jokers:
                groups.append(("王", jokers))
            for i, suit in enumerate(SUITS):
                cs = sorted((c for c in hand if c.suit == suit),
                            key=lambda c: -(13 if c.rank_index == level else c.rank_index))
                if cs:
                    groups.append((SUIT_SYMBOLS[i], cs))
            return groups
        return before
    ctx = _context(facts.level, facts.trump, _frozen_rules(table))

    def after(hand: list[Card]) -> list[tuple[str, list[Card]]]:
        groups: list[tuple[str, list[Card]]] = []
        trumps = sorted((c for c in hand if ctx.is_trump(c)), key=lambda c: (-ctx.order(c), c))
        if trumps:
            groups.append(("主", trumps))
        for i, suit in enumerate(SUITS):
            cs = sorted((c for c in hand if not ctx.is_trump(c) and c.suit == suit), key=lambda c: -ctx.order(c))
            if cs:
                groups.append((SUIT_SYMBOLS[i], cs))
        return groups
    return after


def seats(table: Table) -> list[dict[str, Any]]:
    """The frame's seats from the engine's view (``shengji.view``): the concealed hand (主 and
    side suits once trump is known), the count (public), exposed cards, cards on the table,
    the banker, and the flags: a choice, a bar from declaring."""
    facts = table.facts
    if facts is None:
        return no_seats(table)
    order = hand_order(table)
    out = []
    for seat in facts.seats:
        flags = []
        choosing = choice_flag(table, seat.seat)
        if choosing:
            flags.append(choosing)
        if seat.seat in facts.declare_barred:
            flags.append(table.say_zh("may not declare", "不能亮主或反主"))
        out.append({
            "hand": table.drawn_hand((facts.level, facts.trump, facts.trump_known), seat.hand, order)
            if seat.hand is not None else None,
            "count": seat.count, "announced": None, "exposed": codes_text(seat.exposed),
            "penalty": codes_text(seat.penalty), "on_table": codes_text(seat.on_table), "flags": flags,
            "role": table.say_zh("banker 庄家", "庄家") if facts.banker == seat.seat else None,
        })
    return out


# ---------------------------------------------------------------------------------------------
# Set-up, the draw and declarations


@on(ev.DealStarted)
def _deal_started(table: Table, e: ev.DealStarted) -> str:
    if e.level not in RANKS:
        raise LogError(f"not a level: {e.level!r}")
    table.new_deal(e.deal, e.level)
    table.pile = Pile(title=table.say_zh("the draw", "抓牌"))
    banker = f"banker seat {e.banker}" if e.banker is not None else "the first declaration makes the banker"
    source = ", from given hands" if e.source == "hands" else f"; seat {e.first_drawer} draws first"
    return f"deal {e.deal} at level {e.level} ({banker}){source}"


@on(ev.DeckShuffled)
def _shuffled(table: Table, e: ev.DeckShuffled) -> str:
    cards(e.deck)
    return f"the pack is shuffled{f' (redeal attempt {e.attempt})' if e.attempt else ''}"


@on(ev.DeckCut)
def _cut(table: Table, e: ev.DeckCut) -> str:
    return f"seat {e.seat} cuts {e.position} cards"


@on(ev.CardDrawn)
def _drawn(table: Table, e: ev.CardDrawn) -> str:
    c = card(e.card)
    return f"seat {e.seat} draws {card_text(c) if table.sees(e.seat) else 'a card'}"


@on(ev.HandsSet)
def _hands_set(table: Table, e: ev.HandsSet) -> str:
    for s, hand in enumerate(e.hands):
        seat_of(s)
        cards(hand)
    cards(e.kitty)
    table.kitty_note = table.say_zh("kitty 底牌", "底牌")
    return "hands set: " + " ".join(str(len(h)) for h in e.hands) + f" cards, kitty {len(e.kitty)}"


@on(ev.Declared)
def _declared(table: Table, e: ev.Declared) -> str:
    cs = cards(e.cards)
    text = f"seat {e.seat} declares {cards_text(cs)}: {_trump_name(e.trump)}"
    table.notes.append(text)
    return text


@on(ev.DeclarationDeclined)
def _declined(table: Table, e: ev.DeclarationDeclined) -> str:
    return f"seat {e.seat} does not declare"


@on(ev.Redealt)
def _redeal(table: Table, e: ev.Redealt) -> str:
    table.notes.append(table.say_zh(f"redeal {e.attempt}: {e.reason}", f"第 {e.attempt} 次重新抓牌：{text_zh(e.reason)}"))
    if e.reason.startswith("nobody declared"):
        return f"nobody declared 无人亮主: the cards are dealt again (attempt {e.attempt}, {e.reason})"
    # a ruling's Redeal: the reason is its clause (SJ-3.1.7: the non-offending side chose it)
    return f"重新抓牌 redeal by the ruling under {e.reason}: the cards are gathered and drawn again (attempt {e.attempt})"


@on(ev.KittyFlipped)
def _kitty_flipped(table: Table, e: ev.KittyFlipped) -> str:
    text = f"kitty card {e.position + 1} turned up: {card_text(card(e.card))}"
    table.notes.append(text)
    return text


@on(ev.TrumpSet)
def _trump_set(table: Table, e: ev.TrumpSet) -> str:
    seat_of(e.banker)
    table.pile = Pile(title=table.say_zh(f"seat {e.banker} takes the kitty", f"{seat_zh(e.banker)}拿底牌"))
    who = f" (declared by seat {e.seat})" if e.seat is not None else f" ({e.how})"
    return f"{_trump_name(e.trump)}{who}; seat {e.banker} is the banker"


@on(ev.KittyTaken)
def _kitty_taken(table: Table, e: ev.KittyTaken) -> str:
    cs = cards(e.cards)
    table.kitty_note = ""   # in the banker's hand: no kitty on the table
    shown = cards_text(cs) if table.sees(e.seat) else f"{len(cs)} cards"
    return f"seat {e.seat} takes the kitty: {shown}"


@on(ev.Buried)
def _buried(table: Table, e: ev.Buried) -> str:
    cs = cards(e.cards)
    table.kitty_note = table.say_zh(f"buried by seat {e.seat}", f"{seat_zh(e.seat)}扣底")
    table.pile = Pile(title=table.say_zh(f"seat {e.seat} to lead", f"{seat_zh(e.seat)}领出"))
    shown = cards_text(cs) if table.sees(e.seat) else f"{len(cs)} cards"
    return f"seat {e.seat} buries {shown}"


# ---------------------------------------------------------------------------------------------
# Play


@on(ev.CardsPlayed)
def _played(table: Table, e: ev.CardsPlayed) -> str:
    cs = cards(e.cards)
    if e.lead:
        if table.pile.entries:
            table.last = table.pile
        table.piles += 1
        table.pile = Pile(title=table.say_zh(f"trick {e.trick + 1}, led by seat {e.seat}",
                                             f"第 {e.trick + 1} 墩，{seat_zh(e.seat)}首出"))
    table.pile.entries.append(Entry(seat_of(e.seat), tuple(cs), table.say_zh("leads", "首出") if e.lead else "", e.seq))
    _leading(table)
    if e.lead:
        return f"trick {e.trick + 1}: seat {e.seat} leads {cards_text(cs)}"
    return f"seat {e.seat} follows {cards_text(cs)}"


def _leading(table: Table) -> None:
    """Who wins the trick so far (the engine's own comparison)."""
    from shengji.tricks import trick_winner
    plays = [list(x.cards) for x in table.pile.entries if x.cards]
    facts = table.facts
    if not plays or facts is None or not facts.trump_known:
        return
    try:
        winner = trick_winner(plays, _context(facts.level, facts.trump, _frozen_rules(table)))
    except (PaijuError, ValueError, IndexError, KeyError):
        return  # a malformed trick shows no leader; --check reports what is wrong
    table.pile.winner = [x for x in table.pile.entries if x.cards][winner].seat


@on(ev.ThrowFailed)
def _throw_failed(table: Table, e: ev.ThrowFailed) -> str:
    forced, returned = cards(e.forced), cards(e.returned)
    for entry in table.pile.entries:
        if entry.seat == e.seat:
            entry.cards = tuple(forced)
            entry.label = "failed throw 甩牌失败"
    table.pile.note = table.say_zh(f"seat {e.seat}'s throw failed: {cards_text(returned)} went back",
                                   f"{seat_zh(e.seat)}甩牌失败：{cards_text(returned)} 收回")
    _leading(table)
    return f"throw failed (甩牌失败): seat {e.seat} must lead {cards_text(forced)}; {cards_text(returned)} go back"


@on(ev.ThrowPenalty)
def _throw_penalty(table: Table, e: ev.ThrowPenalty) -> str:
    return f"penalty for the failed throw: {e.points} points (attackers {e.attackers_delta:+d})"


@on(ev.PointsAdjusted)
def _points_adjusted(table: Table, e: ev.PointsAdjusted) -> str:
    reason = e.reason.replace("PointPenalty", "罚分")  # the log's reason names the sanction by its kind
    return f"points adjusted: seat {e.seat}'s side pays {e.points} (attackers {e.attackers_delta:+d}; {reason})"


@on(ev.TrickWon)
def _trick_won(table: Table, e: ev.TrickWon) -> str:
    table.pile.done = True
    table.pile.winner = seat_of(e.seat)
    table.pile.note = table.say_zh(f"won by seat {e.seat}" + (f", {e.points} points" if e.points else ""),
                                   f"{seat_zh(e.seat)}大" + (f"，得 {e.points} 分" if e.points else ""))
    return f"seat {e.seat} wins trick {e.trick + 1}" + (f" with {e.points} points" if e.points else "") + \
        f" (attackers {e.attackers_points})"


@on(ev.KittyRevealed)
def _kitty_revealed(table: Table, e: ev.KittyRevealed) -> str:
    cs = cards(e.cards)
    table.kitty_note = table.say_zh("turned up", "已翻开")
    bonus = f"; {e.points} × {e.multiplier} = {e.bonus} to the attackers" if e.bonus else ""
    return f"kitty turned up: {cards_text(cs)} ({e.points} points{bonus})"


@on(ev.DealScored)
def _scored(table: Table, e: ev.DealScored) -> str:
    gain = f"go up {e.levels}" if e.levels else "take the bank" if e.side == "attackers" else "hold"
    side = f"the {'banker' if e.side == 'banker' else 'attackers'} (team {e.team})"
    adjusted = f" ({e.raw} before adjustments)" if e.raw != e.points else ""
    table.result = f"attackers {e.points} points{adjusted}: {side} {gain}; next banker seat {e.next_banker}"
    gain_zh = f"升 {e.levels} 级" if e.levels else "上台" if e.side == "attackers" else "守庄"
    table.say_zh(table.result, f"闲家得 {e.points} 分" + (f"（调整前 {e.raw} 分）" if e.raw != e.points else "")
                 + f"：{'庄家' if e.side == 'banker' else '闲家'}（{e.team}方）{gain_zh}；下一副{seat_zh(e.next_banker)}坐庄")
    return f"deal over: {table.result}"


@on(ev.LevelsAdvanced)
def _levels(table: Table, e: ev.LevelsAdvanced) -> str:
    return (f"levels: team 0 at {e.levels[0]}, team 1 at {e.levels[1]} (team {e.team} +{e.raised}"
            f"{f' of {e.earned}' if e.earned != e.raised else ''}); next banker seat {e.next_banker}")


@on(ev.MatchEnded)
def _match_over(table: Table, e: ev.MatchEnded) -> str:
    who = f"team {e.winner} (seats {e.winner}&{e.winner + 2}) wins" if e.winner is not None else "no winner"
    text = f"match over after {counted(e.deals, 'deal')} ({e.how}): {who}; levels {'/'.join(e.levels)}"
    table.result = text
    table.match_notes.append(text)
    return text


# ---------------------------------------------------------------------------------------------
# Refereed mode


HANDLERS["sj.irregular"] = irregular
HANDLERS["sj.found"] = found


@on(ev.DrawRan)
def _draw(table: Table, e: ev.DrawRan) -> str:
    return f"seat {e.seat} lets the draw run on"


@on(ev.CardTaken)
def _card_taken(table: Table, e: ev.CardTaken) -> str:
    c = card(e.card)
    due = f"due to seat {e.due}" if e.due is not None else "from the kitty"
    shown = card_text(c) if table.sees(e.seat) or not e.in_hand else "a card"
    return f"seat {e.seat} takes {shown} {due}" + (" into its hand" if e.in_hand else ", face down on the table")


@on(te.CardsReturned)
def _returned(table: Table, e: te.CardsReturned) -> str:
    cs = cards(e.cards)
    if e.to == "stock":
        shown = cards_text(cs) if table.sees(e.seat) else "the card"
        return f"{shown} goes back from seat {e.seat} onto the stock ({e.reason})"
    back_to_hand(table, seat_of(e.seat), cs)
    return f"seat {e.seat} takes back {cards_text(cs)}{', exposed' if e.exposed else ''} ({e.reason})"


@on(te.CardsExposed)
def _exposed(table: Table, e: te.CardsExposed) -> str:
    cs = cards(e.cards)
    return f"seat {e.seat}'s {cards_text(cs)} lie exposed ({e.reason})"


@on(ev.PlayStands)
def _play_stands(table: Table, e: ev.PlayStands) -> str:
    cs = cards(e.cards)
    if e.lead:
        if table.pile.entries:
            table.last = table.pile
        table.piles += 1
        table.pile = Pile(title=table.say_zh(f"trick {e.trick + 1}, led by seat {e.seat}",
                                             f"第 {e.trick + 1} 墩，{seat_zh(e.seat)}首出"))
    laid = table.laid_at.pop(seat_of(e.seat), None)
    at = laid if any(c in table.on_table_before(seat_of(e.seat)) for c in cs) else None
    entry = Entry(seat_of(e.seat), tuple(cs), table.say_zh("stands", "视为依序出牌"), e.seq if at is None or e.lead else at)
    later = [k for k, x in enumerate(table.pile.entries) if x.seq > entry.seq]
    table.pile.entries.insert(later[0] if later else len(table.pile.entries), entry)
    _leading(table)
    return f"seat {e.seat}'s {cards_text(cs)} stand as its play ({e.reason})"


@on(ev.PlaysTakenBack)
def _taken_back(table: Table, e: ev.PlaysTakenBack) -> str:
    for s, cs in zip(e.seats, e.cards):
        seat_of(s)
        cards(cs)
    at = next((i for i, x in enumerate(table.pile.entries) if x.seat == e.seat), len(table.pile.entries))
    del table.pile.entries[at:]
    table.pile.winner = None
    _leading(table)
    return f"plays from seat {e.seat}'s on taken back (seats {', '.join(map(str, e.seats))}; {e.reason})"


@on(te.TurnRestored)
def _turn_restored(table: Table, e: te.TurnRestored) -> str:
    return f"order restored: seat {e.seat} to act ({e.reason})"


@on(ev.BurialUndone)
def _burial_undone(table: Table, e: ev.BurialUndone) -> str:
    cs = cards(e.cards)
    table.kitty_note = ""
    shown = cards_text(cs) if table.sees(e.seat) else f"{len(cs)} cards"
    return f"seat {e.seat} takes back its buried {shown} to bury again ({e.reason})"


@on(ev.DeclarationBarred)
def _declaration_barred(table: Table, e: ev.DeclarationBarred) -> str:
    return f"seat {e.seat} may not declare in this deal ({e.reason})"


@on(ev.DeclarationStands)
def _declaration_stands(table: Table, e: ev.DeclarationStands) -> str:
    text = (f"seat {e.seat}'s declaration {cards_text(cards(e.cards))} ({_trump_name(e.trump)}) stands, "
            f"seat {e.withdrawn}'s is withdrawn ({e.how}; {e.reason})")
    table.notes.append(text)
    return text


@on(te.RandomlyDrawn)
def _random_draw(table: Table, e: te.RandomlyDrawn) -> str:
    cs = cards(e.cards)
    seat_of(e.source)
    shown = cards_text(cs) if table.sees(e.seat) or table.sees(e.source) else counted(len(cs), "card")
    return f"seat {e.seat} draws {shown} at random from seat {e.source}'s hand ({e.reason})"


@on(ev.CardHandedOver)
def _handed_over(table: Table, e: ev.CardHandedOver) -> str:
    c = card(e.card)
    seat_of(e.source)
    shown = card_text(c) if table.sees(e.seat) or table.sees(e.source) else "a card"
    return f"seat {e.source} hands {shown} to seat {e.seat} ({e.reason})"
