"""掼蛋 events on the replay table (see ``paiju.replay.table``): one handler per event kind,
returning the event as one line and keeping the record its words need; and the seats of the
frame, from the engine's view of the table (``seats``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


from guandan.ranks import level_index, power_of_rank
from guandan import events as ev
from tabletop import table_events as te
from paiju.replay.chinese import reading_zh, text_zh
from paiju.replay.shared import back_to_hand, choice_flag, found, irregular, option_about, option_about_zh
from paiju.wording import lead_option_menu, reading_words, seat_words, seat_zh
from paiju.replay.table import Handlers, PLACE_NAMES, Entry, Handler, Pile, Table, Tribute, card, card_text, cards, \
    cards_text, codes_text, no_seats, seat_of
from tabletop.cards import Card, SUIT_SYMBOLS, SUITS
from tabletop.events import Event

HANDLERS = Handlers()
on = HANDLERS.on


def hand_order(level: str) -> Callable[[list[Card]], list[tuple[str, list[Card]]]]:
    """Jokers, then each suit, high to low by power (the level rank above A)."""
    lv = level_index(level)

    def order(hand: list[Card]) -> list[tuple[str, list[Card]]]:
        groups: list[tuple[str, list[Card]]] = []
        jokers = sorted((c for c in hand if c.is_joker), reverse=True)
        if jokers:
            groups.append(("王", jokers))
        for i, suit in enumerate(SUITS):
            cs = sorted((c for c in hand if c.suit == suit), key=lambda c: -power_of_rank(c.rank_index, lv))
            if cs:
                groups.append((SUIT_SYMBOLS[i], cs))
        return groups

    return order


def seats(table: Table) -> list[dict[str, Any]]:
    """The frame's seats from the engine's view (``guandan.view``): the concealed hand by
    suit, the count (another seat's only as announced), exposed and penalty cards, cards on
    the table, and the flags: place, lead restriction, choice, lead options, bars, 单下."""
    facts = table.facts
    if facts is None:
        return no_seats(table)
    order = hand_order(facts.level)
    out = []
    for seat in facts.seats:
        flags = [PLACE_NAMES.get(seat.place, f"place {seat.place}")] if seat.place is not None else []
        if seat.restriction is not None:
            flags.append(f"next lead: {_restriction_words(table, seat.restriction)}")
        choosing = choice_flag(table, seat.seat)
        if choosing:
            flags.append(choosing)
        flags.extend(f"lead option 选择: seat {o.chooser} chooses how it leads {option_about(table, o)}"
                     for o in seat.options)
        flags.extend(_bar_mark(scope) for scope in seat.bars)
        if seat.placed_last:
            flags.append("placed last 单下")
        if table.chinese:
            _say_flags_zh(table, seat, flags)
        out.append({
            "hand": table.drawn_hand((facts.level,), seat.hand, order) if seat.hand is not None else None,
            "count": seat.count, "announced": seat.announced, "exposed": codes_text(seat.exposed),
            "penalty": codes_text(seat.penalty), "on_table": codes_text(seat.on_table), "flags": flags, "role": None,
        })
    return out


def _restriction_words(table: Table, r: Any) -> str:
    what = cards_text(r.cards) if r.rule == "cards" else f"a {reading_words(table.game, r.kind)}"
    return f"{_RULES.get(r.rule, r.rule)} {what}"


def _say_flags_zh(table: Table, seat: Any, flags: list[str]) -> None:
    """The seat's flags (``seats``) in Chinese, in the same order (``Table.say_zh``)."""
    zh = [f"第 {seat.place} 名（{text_zh(PLACE_NAMES.get(seat.place, ''))}）"] if seat.place is not None else []
    if seat.restriction is not None:
        zh.append(f"下次领出：{_restriction_zh(table, seat.restriction)}")
    choosing = choice_flag(table, seat.seat)
    if choosing:
        zh.append(table.zh.get(choosing) or text_zh(choosing))
    zh.extend(f"领出选择 a/b/c：由{seat_zh(o.chooser)}选择其如何领出{option_about_zh(table, o)}" for o in seat.options)
    zh.extend(_bar_mark_zh(scope) for scope in seat.bars)
    if seat.placed_last:
        zh.append("判单下")
    for text, said in zip(flags, zh, strict=True):
        table.say_zh(text, said)


_RULES_ZH = {"forbid": "不得领出", "require": "必须领出", "cards": "必须领出"}


def _restriction_zh(table: Table, r: Any) -> str:
    what = cards_text(r.cards) if r.rule == "cards" else reading_zh(table.game, r.kind)
    return f"{_RULES_ZH.get(r.rule, r.rule)}{what}"


def _placed(table: Table, seat: int) -> tuple[bool, bool]:
    """(out of play by its place, judged 单下): the engine's, after the step's action."""
    facts = table.facts
    if facts is None:
        return False, False
    return facts.seats[seat].place is not None, facts.seats[seat].placed_last


# ---------------------------------------------------------------------------------------------
# Set-up


@on(ev.DealStarted)
def _deal_started(table: Table, e: ev.DealStarted) -> str:
    level_index(e.level)  # a bad level is a corrupt event
    table.new_deal(e.deal, e.level)
    table.pile = Pile(title=table.say_zh("the draw", "抓牌"))
    if e.source == "hands":
        return f"deal {e.deal} at level {e.level}, from given hands"
    return (f"deal {e.deal} at level {e.level}: seat {e.shuffler} shuffles, seat {e.cutter} cuts, "
            f"seat {e.first_drawer} draws first")


@on(ev.DeckShuffled)
def _shuffled(table: Table, e: ev.DeckShuffled) -> str:
    cards(e.deck)
    return f"seat {e.seat} shuffles the {len(e.deck)} cards"


@on(ev.DeckCut)
def _cut(table: Table, e: ev.DeckCut) -> str:
    return f"seat {e.seat} cuts {e.position} cards"


@on(ev.CardFacedUp)
def _face_up(table: Table, e: ev.CardFacedUp) -> str:
    note = f"face-up card {card_text(card(e.card))}: seat {e.seat} draws it and leads"
    table.notes.append(note)
    return note


@on(ev.CardDrawn)
def _drawn(table: Table, e: ev.CardDrawn) -> str:
    c = card(e.card)
    return f"seat {e.seat} draws {card_text(c) if table.sees(e.seat) else 'a card'}"


@on(ev.HandsComplete)
def _hands_complete(table: Table, e: ev.HandsComplete) -> str:
    table.pile = Pile()
    return "hands complete: " + " ".join(str(n) for n in e.sizes) + " cards"


@on(ev.HandsSet)
def _hands_set(table: Table, e: ev.HandsSet) -> str:
    for s, hand in enumerate(e.hands):
        seat_of(s)
        cards(hand)
    return "hands set: " + " ".join(str(len(h)) for h in e.hands) + " cards"


# ---------------------------------------------------------------------------------------------
# Tribute and return


@on(ev.TributeDue)
def _tribute_due(table: Table, e: ev.TributeDue) -> str:
    pays = ", ".join(f"seat {seat_of(p)} → seat {seat_of(r)}" for p, r in e.payments)
    text = f"{'double ' if e.double else ''}tribute due: {pays}"
    zh = ("双贡：" if e.double else "进贡：") + "；".join(f"{seat_zh(p)}向{seat_zh(r)}进贡" for p, r in e.payments)
    excused = getattr(e, "excused", ())
    if excused:
        text += f" ({_excused_text(excused)})"
        zh += f"（{_excused_zh(excused)}）"
    table.notes.append(table.say_zh(text, zh))
    return text


@on(ev.TributeResisted)
def _tribute_resisted(table: Table, e: ev.TributeResisted) -> str:
    text = "抗贡: seats " + " and ".join(str(s) for s in e.payers) + " hold both big jokers, no tribute"
    table.notes.append(table.say_zh(text, "抗贡：" + "、".join(seat_zh(s) for s in e.payers) + "手握两张大王，不进贡"))
    return text


@on(ev.TributeWaived)
def _tribute_waived(table: Table, e: ev.TributeWaived) -> str:
    excused = getattr(e, "excused", ())
    text = _waived_head(table, e)
    zh = table.zh.get(text, text_zh(text))
    if excused:
        text += f" ({_excused_text(excused)})"
        zh += f"（{_excused_zh(excused)}）"
    table.notes.append(table.say_zh(text, zh))
    return text


def _waived_head(table: Table, e: ev.TributeWaived) -> str:
    if not getattr(e, "excused", ()) and table.fixed_leader is not None:   # a 判双下's GD-5.2 procedure set this deal
        return table.say_zh("不进贡 no tribute: the last deal was judged 双下 (判双下, GD-5.2)",
                            "不进贡：上一副判双下（GD-5.2）")
    return table.say_zh(f"{'double ' if e.double else ''}tribute waived by a ruling",
                        f"{'双贡' if e.double else '进贡'}依裁决免除")


def _excused_text(seats: tuple[int, ...]) -> str:
    return " and ".join(f"seat {s}" for s in seats) + " judged 单下: no tribute from " + (
        "them" if len(seats) > 1 else "it")


def _excused_zh(seats: tuple[int, ...]) -> str:
    return "、".join(seat_zh(s) for s in seats) + "判单下，不进贡"


@on(ev.TributeGiven)
def _tribute_given(table: Table, e: ev.TributeGiven) -> str:
    c = card(e.card)
    seat_of(e.receiver)
    text = f"seat {e.seat} pays tribute {card_text(c)} to seat {e.receiver}"
    table.notes.append(text)
    return text


@on(ev.ReturnGiven)
def _return_given(table: Table, e: ev.ReturnGiven) -> str:
    c = card(e.card)
    seat_of(e.payer)
    text = f"seat {e.seat} returns {card_text(c)} to seat {e.payer}"
    table.notes.append(text)
    return text


# ---------------------------------------------------------------------------------------------
# Play


_LEAD_REASONS = {"face_up": "翻牌者领出: it drew the face-up card",
                 "resisted": "抗贡: no tribute, the 上游 leads",
                 "no_tribute": "不进贡: the tribute is waived by a ruling, the 上游 leads"}


@on(ev.PlayStarted)
def _play_started(table: Table, e: ev.PlayStarted) -> str:
    table.pile = Pile(title=table.say_zh(f"seat {e.seat} to lead", f"{seat_zh(e.seat)}领出"))
    text = f"play starts: seat {e.seat} leads ({_lead_reason(table, e)})"
    table.fixed_leader = None
    return text


def _lead_reason(table: Table, e: ev.PlayStarted) -> str:
    """Why ``e.seat`` leads: after a tribute the payer leads (进贡者领出); after a double
    tribute the one that paid the 上游, the larger card; after a 判双下 the seat the
    GD-5.2 procedure names (the shuffler's 上家)."""
    if e.reason == "tribute":
        tribute = table.tribute
        paid = [p for p in (tribute.payments if tribute is not None else ()) if p[0] == seat_of(e.seat)]
        if tribute is not None and len(tribute.payments) > 1 and paid:
            return f"进贡给上游者领出: it paid the larger tribute, to the 上游 seat {paid[0][1]}"
        return "进贡者领出: it paid the tribute"
    if e.reason == "given":
        if table.fixed_leader == e.seat:
            return "判双下, GD-5.2: the shuffler's 上家 leads"
        return "the leader given with the hands"
    return _LEAD_REASONS.get(e.reason, e.reason)


def _add_play(table: Table, e: Event, cs: list[Card], reading: str, at: int | None = None) -> None:
    """A play joins the round; ``at``: the seq it was laid at (an out-of-turn play that
    stands goes before the passes that answered it, where it was laid)."""
    if table.pile.done or not any(x.cards is not None and (at is None or x.seq < at) for x in table.pile.entries):
        if table.pile.done:
            table.last = table.pile
        table.piles += 1
        table.pile = Pile(title=table.say_zh(f"round {table.piles}, led by seat {e.seat}",
                                             f"第 {table.piles} 圈，{seat_zh(seat_of(e.seat))}领出"))
    label = reading_words(table.game, reading)
    if table.chinese:
        table.say_zh(label, reading_zh(table.game, reading))
    entry = Entry(seat_of(e.seat), tuple(cs), label, e.seq if at is None else at,
                  -1 if at is None else e.seq)
    later = [k for k, x in enumerate(table.pile.entries) if x.seq > entry.seq]
    table.pile.entries.insert(later[0] if later else len(table.pile.entries), entry)
    table.pile.winner = e.seat


def _answering(table: Table, e: Event) -> bool:
    """Whether ``e`` answers an out-of-turn play: another seat's cards lay on the table when
    it was made (the engine's table before the action: they lie there only while the table
    waits for an answer or a ruling). The answer is held until the referee rules whether the
    out-of-turn play stands (GD-2.3.2) or not (GD-2.3.1)."""
    return any(table.on_table_before(k) for k in range(4) if k != seat_of(e.seat))


@on(ev.CardsPlayed)
def _played(table: Table, e: ev.CardsPlayed) -> str:
    cs = cards(e.cards)
    if _answering(table, e):    # laid on the out-of-turn cards: it stands only if the ruling says so
        table.laid_at[seat_of(e.seat)] = e.seq
        return (f"seat {e.seat} plays {cards_text(cs)} ({reading_words(table.game, e.reading)}) on the "
                "out-of-turn cards, held until the referee rules")
    _add_play(table, e, cs, e.reading)
    return f"seat {e.seat} plays {cards_text(cs)} ({reading_words(table.game, e.reading)})"


@on(ev.Passed)
def _passed(table: Table, e: ev.Passed) -> str:
    if _answering(table, e):    # no 跟牌: void if the out-of-turn play is taken back
        return f"seat {e.seat} passes on the out-of-turn cards, held until the referee rules"
    table.pile.entries.append(Entry(seat_of(e.seat), None, table.say_zh("pass", "不出"), e.seq))
    return f"seat {e.seat} passes"


@on(ev.CountReported)
def _reported(table: Table, e: ev.CountReported) -> str:
    return f"seat {e.seat} reports {e.count} cards left (报牌)"


@on(ev.CardsReported)
def _reported_again(table: Table, e: ev.CardsReported) -> str:
    return f"seat {e.seat} reports {e.count} cards left (报牌)"


@on(ev.RoundEnded)
def _round_over(table: Table, e: ev.RoundEnded) -> str:
    table.pile.done = True
    table.pile.winner = e.seat
    nxt = _next_leader(table, e)
    table.pile.note = table.say_zh(f"won by seat {e.seat}; {nxt}", f"{seat_zh(e.seat)}大；{_next_leader_zh(table, e)}")
    return f"round over: all passed on seat {e.seat}; {nxt}"


def _next_leader(table: Table, e: ev.RoundEnded) -> str:
    """Who leads the next round, and why when it is not the round's winner: 接风 (the
    winner went out on its last play: its partner leads), the winner judged 单下, or the
    winner and its partner both out of play (the next seat in play)."""
    if e.leader == e.seat:
        return f"seat {e.leader} leads"
    if not e.partner_leads:   # the end of a GD-4.2.3 pass sequence: the offender leads
        return f"all passed in turn: seat {e.leader} (the offender) leads (GD-4.2.3)"
    out, placed_last = _placed(table, seat_of(e.seat))
    why = "went out" if out else "is judged 单下 (placed last)" if placed_last else "is out of play"
    if e.leader == (seat_of(e.seat) + 2) % 4:
        how = "接风: " if why == "went out" else ""
        return f"seat {e.seat} {why}: {how}its partner seat {e.leader} leads"
    return f"seat {e.seat} {why} and its partner is out of play: the next seat in play, seat {e.leader}, leads"


def _next_leader_zh(table: Table, e: ev.RoundEnded) -> str:
    """``_next_leader`` in Chinese."""
    if e.leader == e.seat:
        return f"{seat_zh(e.leader)}领出"
    if not e.partner_leads:
        return f"各家依次不出：由违规方{seat_zh(e.leader)}领出（GD-4.2.3）"
    out, placed_last = _placed(table, seat_of(e.seat))
    why = "已出完牌" if out else "判单下" if placed_last else "已不再出牌"
    if e.leader == (seat_of(e.seat) + 2) % 4:
        how = "接风：" if out else ""
        return f"{seat_zh(e.seat)}{why}：{how}由对家{seat_zh(e.leader)}领出"
    return f"{seat_zh(e.seat)}{why}，对家亦已不再出牌：由下一位{seat_zh(e.leader)}领出"


@on(ev.PlayerFinished)
def _finished(table: Table, e: ev.PlayerFinished) -> str:
    return f"seat {e.seat} goes out: {PLACE_NAMES.get(e.place, e.place)}"


@on(ev.ResultForced)
def _result_forced(table: Table, e: ev.ResultForced) -> str:
    for s in e.finish_order:
        seat_of(s)
    return f"result forced: finishing order {' '.join(map(str, e.finish_order))} ({e.reason})"


_GAINS = {3: "double win 双上", 2: "1-3", 1: "1-4"}


@on(ev.DealScored)
def _scored(table: Table, e: ev.DealScored) -> str:
    for s in e.finish_order:
        seat_of(s)
    gain = f"goes up {e.levels} level{'s' if e.levels != 1 else ''}" if e.levels else "gains no level"
    how = f" ({_GAINS[e.levels]})" if e.levels in _GAINS else ""
    table.result = (f"finishing order {' '.join(map(str, e.finish_order))}: team {e.team} "
                    f"(seats {e.team}&{e.team + 2}) {gain}{how}; {e.plays} plays")
    gain_zh = f"升 {e.levels} 级" if e.levels else "不升级"
    how_zh = f"（{ {3: '双上', 2: '一三', 1: '一四'}[e.levels]}）" if e.levels in _GAINS else ""
    table.say_zh(table.result, f"名次 {'、'.join(seat_zh(s) for s in e.finish_order)}：{e.team}方（{e.team}、{e.team + 2}号位）"
                               f"{gain_zh}{how_zh}；共 {e.plays} 手")
    return f"deal over: {table.result}"


# ---------------------------------------------------------------------------------------------
# Match


_OUTCOMES = {"up": "", "continue": "", "won": "the match is won (过A)", "reset": "a third failure at A: back to 2",
             "failed": "an attempt at A failed"}


@on(ev.LevelsAdvanced)
def _levels(table: Table, e: ev.LevelsAdvanced) -> str:
    failures = f", A failures {'/'.join(map(str, e.a_failures))}" if any(e.a_failures) else ""
    said = _OUTCOMES.get(e.outcome, e.outcome) if e.outcome else ""
    outcome = f" — {said}" if said else ""
    return f"levels: team 0 at {e.levels[0]}, team 1 at {e.levels[1]} (team {e.team} +{e.gain}{failures}){outcome}"


@on(ev.LevelPenalty)
def _level_penalty(table: Table, e: ev.LevelPenalty) -> str:
    text = (f"扣 {e.levels} 个级差分: team {e.team} loses {e.levels} level{'s' if e.levels != 1 else ''} "
            f"off its score ({e.reason})")
    table.match_notes.append(text)
    return text


@on(ev.NextDealScheduled)
def _next_deal(table: Table, e: ev.NextDealScheduled) -> str:
    parts = [f"{name} seat {value}" for name, value in
             (("shuffler", e.shuffler), ("cutter", e.cutter), ("first drawer", e.first_drawer), ("leader", e.leader))
             if value is not None]
    table.fixed_leader = e.leader
    if e.no_tribute:
        parts.append("no tribute")
    else:
        seats = getattr(e, "no_tribute_seats", ())
        if seats:
            parts.append("no tribute from " + " and ".join(f"seat {s}" for s in seats)
                         + " (judged 单下; a tribute its partner owes stands)")
        elif (team := getattr(e, "no_tribute_team", None)) is not None:  # logs from before GD-5.1 was per seat
            parts.append(f"no tribute from team {team}")
    text = "next deal: " + (", ".join(parts) or "as usual")
    table.match_notes.append(text)
    return text


@on(ev.MatchEnded)
def _match_over(table: Table, e: ev.MatchEnded) -> str:
    who = f"team {e.winner} (seats {e.winner}&{e.winner + 2}) wins" if e.winner is not None else "tied"
    text = f"match over ({e.how}): {who}; levels {'/'.join(e.levels)}, scores {'/'.join(map(str, e.scores))}"
    table.result = text
    table.match_notes.append(text)
    return text


# ---------------------------------------------------------------------------------------------
# Refereed mode: table steps


@on(ev.DrawRan)
def _draw(table: Table, e: ev.DrawRan) -> str:
    return f"seat {e.seat} lets the draw run on"


@on(ev.RefereeCalled)
def _referee_called(table: Table, e: ev.RefereeCalled) -> str:
    return f"seat {e.seat} calls the referee on seat {e.offender}'s out-of-turn play"


HANDLERS["gd.irregular"] = irregular
HANDLERS["gd.found"] = found


# ---------------------------------------------------------------------------------------------
# Refereed mode: table primitives


@on(te.CardsReturned)
def _returned(table: Table, e: te.CardsReturned) -> str:
    cs = cards(e.cards)
    if e.to == "stock":
        return f"{cards_text(cs) if table.sees(e.seat) else 'the card'} goes back from seat {e.seat} onto the stock ({e.reason})"
    back_to_hand(table, seat_of(e.seat), cs)
    return f"seat {e.seat} takes back {cards_text(cs)} ({e.reason})"


@on(te.CardsExposed)
def _exposed(table: Table, e: te.CardsExposed) -> str:
    cs = cards(e.cards)
    combination = getattr(e, "combination", None)
    kind = f", a {reading_words(table.game, combination)}" if combination else ""
    return f"seat {e.seat}'s {cards_text(cs)} lie exposed{kind} ({e.reason})"


@on(te.ExposureLifted)
def _exposure_lifted(table: Table, e: te.ExposureLifted) -> str:
    cs = cards(e.cards)
    return f"seat {e.seat}'s exposed {cards_text(cs)} go back into its hand ({e.reason})"


@on(te.PenaltyCardsMarked)
def _penalty_cards(table: Table, e: te.PenaltyCardsMarked) -> str:
    cs = cards(e.cards)
    cause = getattr(e, "cause", None)
    since = "" if cause is None else f"; without a new ruling, as the ruling at seq {e.ruling} set it"
    return f"seat {e.seat}: penalty cards 罚张 {cards_text(cs)} ({e.reason}{since})"


_BAR_SCOPES = {"next_turn": "next turn, this round or later", "round": "this round only"}


def _bar_mark(scope: str) -> str:
    return f"barred 禁出一手 ({'next turn' if scope == 'next_turn' else 'this round'})"


def _bar_mark_zh(scope: str) -> str:
    return f"禁出一手（{'下一次轮到其出牌时' if scope == 'next_turn' else '该圈'}）"


@on(te.SeatBarred)
def _barred(table: Table, e: te.SeatBarred) -> str:
    scope = getattr(e, "scope", "round")  # logs from before the scopes: every bar was a round's
    return f"seat {e.seat} barred 禁出一手: {_BAR_SCOPES.get(scope, scope)} ({e.reason})"


@on(te.BarredPass)
def _barred_pass(table: Table, e: te.BarredPass) -> str:
    table.pile.entries.append(Entry(seat_of(e.seat), None, table.say_zh("pass (barred)", "禁出一手，不出"), e.seq))
    lead_to = getattr(e, "lead_to", None)
    if lead_to is not None:
        return f"seat {e.seat} passes (barred) its lead: seat {lead_to} leads"
    return f"seat {e.seat} passes (barred)"


BAR_ENDS = {"lapsed": " (lapsed)", "lifted": " (lifted)", "served": " (served)",
            "judged_last": ": the seat is judged 单下 (placed last) and plays no more"}
"""Why a bar ends, as the step says it (``BarEnded.how``)."""


@on(te.BarEnded)
def _bar_ended(table: Table, e: te.BarEnded) -> str:
    return f"seat {e.seat}'s bar ends{BAR_ENDS.get(e.how, f' ({e.how})')}"


@on(ev.PenaltyKindDesignated)
def _designated(table: Table, e: ev.PenaltyKindDesignated) -> str:
    return (f"seat {e.seat} designates {reading_words(table.game, e.combination)} for seat {e.holder}'s "
            f"penalty cards 罚张 (GD-6)")


@on(ev.LeadOptionSet)
def _lead_option(table: Table, e: ev.LeadOptionSet) -> str:
    what = f"{reading_words(table.game, e.combination)} ({cards_text(cards(e.cards))})"
    return (f"lead option 选择: when seat {e.restricted} next leads, {seat_words(e.chooser, e.restricted)} chooses: "
            + lead_option_menu(table.game, what))


_RULES = {"forbid": "may not lead", "require": "must lead", "cards": "must lead exactly"}


@on(ev.LeadRestricted)
def _lead_restricted(table: Table, e: ev.LeadRestricted) -> str:
    what = cards_text(cards(e.cards)) if e.rule == "cards" else f"a {reading_words(table.game, e.combination)}"
    rule = f"{_RULES.get(e.rule, e.rule)} {what}"
    if e.lapsed:
        return f"seat {e.seat}'s lead restriction ({rule}) lapses: it leads freely"
    return f"seat {e.seat}'s next lead: {rule}"


@on(te.TurnRestored)
def _turn_restored(table: Table, e: te.TurnRestored) -> str:
    return f"order restored: seat {e.seat} to act ({e.reason})"


@on(ev.CorrectionDue)
def _correction_due(table: Table, e: ev.CorrectionDue) -> str:
    return f"seat {e.seat} must correct its play of {cards_text(cards(e.cards))} ({e.reason})"


@on(te.RandomlyDrawn)
def _random_draw(table: Table, e: te.RandomlyDrawn) -> str:
    c, = cards(e.cards)
    seat_of(e.source)
    shown = card_text(c) if table.sees(e.seat) or table.sees(e.source) else "a card"
    return f"seat {e.seat} draws {shown} at random from seat {e.source}'s hand ({e.reason})"


@on(ev.PlayStands)
def _play_stands(table: Table, e: ev.PlayStands) -> str:
    cs = cards(e.cards)
    laid = table.laid_at.pop(seat_of(e.seat), None)
    at = laid if any(c in table.on_table_before(seat_of(e.seat)) for c in cs) else None
    _add_play(table, e, cs, e.reading, at)
    return f"seat {e.seat}'s play {cards_text(cs)} ({reading_words(table.game, e.reading)}) stands ({e.reason})"


@on(ev.PlaysTakenBack)
def _taken_back(table: Table, e: ev.PlaysTakenBack) -> str:
    for s, cs in enumerate(e.cards):  # ``cards`` per seat 0-3
        seat_of(s)
        cards(cs)
    for x in table.pile.entries:   # laid before, stood by a ruling since: lying on the table again
        if x.seq < e.since <= x.stood and x.cards:
            table.laid_at[x.seat] = x.seq
    table.pile.entries = [x for x in table.pile.entries if x.stood < e.since and x.seq < e.since]
    table.pile.winner = next((x.seat for x in reversed(table.pile.entries) if x.cards), None)
    return (f"seat {e.seat} takes back its play 收回重出: the table is as before seq {e.since} "
            f"(plays of seats {', '.join(map(str, e.seats))} back in hand, not exposed; {e.reason})")


@on(ev.PassSequence)
def _pass_sequence(table: Table, e: ev.PassSequence) -> str:
    then = {"offender_leads": "then the offender leads", "play_on": "then play goes on"}.get(e.then, e.then)
    return f"seats {', '.join(map(str, e.seats))} in turn may pass, even with the lead; {then}"


@on(ev.PlacedLast)
def _placed_last(table: Table, e: ev.PlacedLast) -> str:
    return f"判单下 seat {e.seat} is placed last ({e.reason})"


@on(ev.UnauthorisedInformation)
def _unauthorised(table: Table, e: ev.UnauthorisedInformation) -> str:
    shown = cards_text(cards(e.cards)) if e.cards else "information"
    return (f"非法信息 unauthorised information: seats {', '.join(map(str, e.seats))} may not use seat {e.source}'s "
            f"{shown} ({e.what})")


@on(ev.Redealt)
def _redeal(table: Table, e: ev.Redealt) -> str:
    table.notes.clear()  # the face-up card of the spoilt draw is no longer on the table
    table.laid_at.clear()
    table.pile = Pile(title=table.say_zh("the draw", "抓牌"))
    return f"redeal (attempt {e.attempt}{', a fresh deck' if e.fresh_deck else ''}; {e.reason})"


@on(ev.CardLost)
def _card_lost(table: Table, e: ev.CardLost) -> str:
    return f"a card falls off the table unseen: {card_text(card(e.card))}"



# ---------------------------------------------------------------------------------------------
# The tribute at the table (``Table.tribute``, drawn by the page): recorded after the
# handlers above, which keep the events' text.


def _record_due(table: Table, e: ev.TributeDue) -> None:
    table.tribute = Tribute("due", bool(e.double), [[seat_of(p), seat_of(r), None, None] for p, r in e.payments],
                            tuple(seat_of(s) for s in getattr(e, "excused", ())))


def _record_resisted(table: Table, e: ev.TributeResisted) -> None:
    table.tribute = Tribute("resisted", seats=tuple(seat_of(s) for s in e.payers))


def _record_waived(table: Table, e: ev.TributeWaived) -> None:
    table.tribute = Tribute("waived", bool(e.double), seats=tuple(seat_of(s) for s in getattr(e, "excused", ())),
                            head=_waived_head(table, e))


def _record_paid(table: Table, e: ev.TributeGiven) -> None:
    if table.tribute is None:
        table.tribute = Tribute("due")
    table.tribute.paid(seat_of(e.seat), seat_of(e.receiver), str(card(e.card)))


def _record_returned(table: Table, e: ev.ReturnGiven) -> None:
    if table.tribute is None:
        table.tribute = Tribute("due")
    table.tribute.returned(seat_of(e.payer), seat_of(e.seat), str(card(e.card)))


def _then(handler: Handler, record: Callable[[Table, Any], None]) -> Handler:
    def both(table: Table, e: Event) -> str:
        text = handler(table, e)
        record(table, e)
        return text
    return both


_RECORDERS: tuple[tuple[str, Callable[[Table, Any], None]], ...] = (("gd.tribute_due", _record_due), ("gd.tribute_resisted", _record_resisted),
                       ("gd.tribute_waived", _record_waived), ("gd.tribute_given", _record_paid),
                       ("gd.return_given", _record_returned))
for _kind, _record in _RECORDERS:
    HANDLERS[_kind] = _then(HANDLERS[_kind], _record)
