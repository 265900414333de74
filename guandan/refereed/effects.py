"""The table effects only 掼蛋 uses (those both games use are ``tabletop.effects``'). Each
brings its name in the codes' words (``TERM``), its words in English and Chinese, and the
facts the table shows once it is carried out (``atoms``); its handler is in
``guandan.refereed.engine.EFFECT_HANDLERS``. The game's registration (``guandan.spec``)
names them, so reading a 掼蛋 log finds every kind."""

from __future__ import annotations

from typing import ClassVar

import attrs

from tabletop.effects import (
    OMIT, Atom, Say, TableEffect, card_atoms, card_codes, optional_seat, seat_of, seat_order, seats_of,
)
from tabletop.options import one_of


@attrs.frozen
class PenaltyCards(TableEffect):
    """罚张 (GD-6): exposed cards that must be played or passed at each first legal chance."""

    KIND: ClassVar[str] = "PenaltyCards"
    TERM: ClassVar[tuple[str, str] | None] = ("罚张", "penalty cards")
    cards: tuple[str, ...] = attrs.field(converter=card_codes)
    seat: int | None = attrs.field(default=None, converter=optional_seat)

    def words(self, say: Say) -> str:
        return f"罚张 {say.seat(self.seat)}'s {say.cards(self.cards)} become penalty cards"

    def words_zh(self, say: Say) -> str:
        return f"罚张：{say.seat(self.seat)}的 {say.cards(self.cards)} 成为罚张"

    def atoms(self, offender: int | None) -> list[Atom]:
        return card_atoms(self.KIND, offender if self.seat is None else self.seat, self.cards, str(self))


@attrs.frozen
class BarOnePlay(TableEffect):
    """禁出一手: ``seat`` passes automatically the next time its turn to play comes.
    ``scope`` 'next_turn' (GD-2.3.1, GD-4.2.3): that turn may come in a later round; if it
    is a lead, the lead goes to the seat's 下家 and the bar is spent. 'round' (GD-2.2, the
    seed's 在该圈): the bar lapses if the round ends first."""

    KIND: ClassVar[str] = "BarOnePlay"
    TERM: ClassVar[tuple[str, str] | None] = ("禁出一手", "barred from one play")
    SCOPES: ClassVar[tuple[str, ...]] = ("next_turn", "round")
    seat: int = attrs.field(converter=seat_of)
    scope: str = attrs.field(default="next_turn", validator=one_of(*SCOPES))

    def words(self, say: Say) -> str:
        scope = "its next turn to play" if self.scope == "next_turn" else "its next turn in this round"
        return f"禁出一手 {say.seat(self.seat)} is barred: passes {scope}"

    def words_zh(self, say: Say) -> str:
        when = "下一次轮到其出牌时" if self.scope == "next_turn" else "该圈轮到其出牌时"
        return f"禁出一手：{say.seat(self.seat)}{when}不得出牌"

    def atoms(self, offender: int | None) -> list[Atom]:
        return [Atom(self.KIND, self.seat, str(self), scope=self.scope)]


@attrs.frozen
class LeadOption(TableEffect):
    """GD-2.3.1: when ``restricted_seat`` next has the lead, ``chooser`` picks one of
    ``CHOICES`` about ``exposed_kind`` (the 掼蛋 combination kind of the exposed cards)."""

    KIND: ClassVar[str] = "LeadOption"
    TERM: ClassVar[tuple[str, str] | None] = ("领出选择 a/b/c", "lead option a/b/c")
    CHOICES: ClassVar[tuple[str, ...]] = ("forbid", "require", "free")
    chooser: int = attrs.field(converter=seat_of)
    restricted_seat: int = attrs.field(converter=seat_of)
    exposed_kind: str = attrs.field(validator=attrs.validators.instance_of(str))

    def words(self, say: Say) -> str:
        return (f"领出选择 a/b/c: when {say.seat(self.restricted_seat)} next leads, {say.seat(self.chooser)} chooses: "
                + say.lead_option_menu(say.combination(self.exposed_kind)))

    def words_zh(self, say: Say) -> str:
        return (f"领出选择：{say.seat(self.restricted_seat)}下次领出时，由{say.seat(self.chooser)}"
                "选择 a）不得领出该牌型 b）必须领出该牌型 c）自由领出")

    def atoms(self, offender: int | None) -> list[Atom]:
        return [Atom(self.KIND, self.restricted_seat, str(self), chooser=self.chooser,
                     combination=self.exposed_kind)]


@attrs.frozen
class NextDealProcedure(TableEffect):
    """Who shuffles, cuts, draws first and leads in the next deal (GD-5.2)."""

    KIND: ClassVar[str] = "NextDealProcedure"
    TERM: ClassVar[tuple[str, str] | None] = ("下副牌：违规方洗牌，下家切牌，对家首抓，上家领出",
                                              "next deal's shuffle, cut, draw and lead")
    shuffler: int = attrs.field(converter=seat_of)
    cutter: int = attrs.field(converter=seat_of)
    first_drawer: int = attrs.field(converter=seat_of)
    leader: int = attrs.field(converter=seat_of)

    @classmethod
    def after_double_last(cls, shuffler: int) -> "NextDealProcedure":
        """GD-5.2: the shuffler's 下家 cuts, its 对家 draws first, its 上家 leads."""
        return cls(shuffler, (shuffler + 1) % 4, (shuffler + 2) % 4, (shuffler + 3) % 4)

    def words(self, say: Say) -> str:
        return (f"next deal 下一副: {say.seat(self.shuffler)} shuffles, {say.seat(self.cutter)} cuts, "
                f"{say.seat(self.first_drawer)} draws first, {say.seat(self.leader)} leads")

    def words_zh(self, say: Say) -> str:
        return (f"下副牌：{say.seat(self.shuffler)}洗牌，{say.seat(self.cutter)}切牌，"
                f"{say.seat(self.first_drawer)}首抓，{say.seat(self.leader)}领出")

    def atoms(self, offender: int | None) -> list[Atom]:
        return []    # the procedure in force after the window is compared (the next deal's own check)


@attrs.frozen
class NoTributeNextDeal(TableEffect):
    """GD-5.1: ``seat`` (judged 单下) gives no tribute in the next deal; a tribute its
    partner owes stands, as a single tribute."""

    KIND: ClassVar[str] = "NoTributeNextDeal"
    TERM: ClassVar[tuple[str, str] | None] = ("下副牌不进贡", "no tribute next deal")
    seat: int = attrs.field(converter=seat_of)

    def words(self, say: Say) -> str:
        return f"不进贡 {say.seat(self.seat)} pays no tribute next deal"

    def words_zh(self, say: Say) -> str:
        return f"下副牌不进贡：{say.seat(self.seat)}"

    def atoms(self, offender: int | None) -> list[Atom]:
        return []    # the procedure in force after the window is compared (the next deal's own check)


@attrs.frozen
class CorrectPlay(TableEffect):
    """``seat`` replaces a wrong lead/play by a legal play (or a pass where passing is legal).
    ``unused`` (GD-2.4, decided by the ruling): what becomes of the attempt's cards the
    correction does not use: 'lead_option' — they are exposed, with the GD-2.3.1 lead option
    for the partner when they form a combination, else as penalty cards; 'penalty' — they
    are exposed as penalty cards at once (the partner can never lead again). ``cards``: the
    attempt's cards, back in the hand by a ``Return`` listed before it."""

    KIND: ClassVar[str] = "CorrectPlay"
    TERM: ClassVar[tuple[str, str] | None] = ("纠正出牌", "the play corrected")
    UNUSED: ClassVar[tuple[str, ...]] = ("lead_option", "penalty")
    seat: int = attrs.field(converter=seat_of)
    unused: str | None = attrs.field(default=None, validator=attrs.validators.optional(one_of(*UNUSED)))
    cards: tuple[str, ...] = attrs.field(default=(), converter=card_codes, metadata=OMIT)

    def words(self, say: Say) -> str:
        unused = {"lead_option": "; cards it does not use lie face up (暴露张, with the lead option)",
                  "penalty": "; cards it does not use become penalty cards 罚张"}.get(str(self.unused), "")
        return f"纠正出牌 {say.seat(self.seat)} replaces the play by a legal one{unused}"

    def words_zh(self, say: Say) -> str:
        return f"纠正出牌：{say.seat(self.seat)}"

    def atoms(self, offender: int | None) -> list[Atom]:
        if self.cards:
            return [Atom(self.KIND, self.seat, str(self), cards=tuple(sorted(self.cards)))]
        return [Atom(self.KIND, self.seat, str(self))]


@attrs.frozen
class RedoTribute(TableEffect):
    """``seat`` pays its tribute again (its own next tribute carries it out)."""

    KIND: ClassVar[str] = "RedoTribute"
    TERM: ClassVar[tuple[str, str] | None] = ("重新贡牌", "tribute paid again")
    seat: int = attrs.field(converter=seat_of)

    def words(self, say: Say) -> str:
        return f"重新贡牌 {say.seat(self.seat)} pays the tribute again"

    def words_zh(self, say: Say) -> str:
        return f"重新贡牌：{say.seat(self.seat)}"

    def atoms(self, offender: int | None) -> list[Atom]:
        return []


@attrs.frozen
class RedoReturn(TableEffect):
    """``seat`` returns a card again (its own next return carries it out)."""

    KIND: ClassVar[str] = "RedoReturn"
    TERM: ClassVar[tuple[str, str] | None] = ("重新还牌", "return made again")
    seat: int = attrs.field(converter=seat_of)

    def words(self, say: Say) -> str:
        return f"重新还牌 {say.seat(self.seat)} returns a card again"

    def words_zh(self, say: Say) -> str:
        return f"重新还牌：{say.seat(self.seat)}"

    def atoms(self, offender: int | None) -> list[Atom]:
        return []


@attrs.frozen
class ReportAgain(TableEffect):
    """GD-4.2: ``seat`` announces its card count again, correctly."""

    KIND: ClassVar[str] = "ReportAgain"
    TERM: ClassVar[tuple[str, str] | None] = ("重新报牌", "count reported again")
    seat: int = attrs.field(converter=seat_of)

    def words(self, say: Say) -> str:
        return f"重新报牌 {say.seat(self.seat)} reports its count again, correctly"

    def words_zh(self, say: Say) -> str:
        return f"重新报牌：{say.seat(self.seat)}"

    def atoms(self, offender: int | None) -> list[Atom]:
        return [Atom(self.KIND, self.seat, str(self))]


@attrs.frozen
class PassSequence(TableEffect):
    """GD-4.2.3 / GD-4.2.4: ``seats`` (the offender's 下家, partner and, for 4.2.3, 上家,
    those still in play, in that order) may each pass in turn even with the lead; ``then``
    'offender_leads' (all passed: the bar ends, the offender reports and leads its exposed
    cards) or 'play_on'."""

    KIND: ClassVar[str] = "PassSequence"
    TERM: ClassVar[tuple[str, str] | None] = ("下家有权选择不出", "the next seats may pass")
    offender: int = attrs.field(converter=seat_of)
    seats: tuple[int, ...] = attrs.field(converter=seat_order)
    then: str = attrs.field(validator=one_of("offender_leads", "play_on"))

    def words(self, say: Say) -> str:
        then = "then the offender leads its exposed cards" if self.then == "offender_leads" else "then play goes on"
        return f"下家有权选择不出 {say.seats(self.seats)} in turn may pass even with the lead; {then}"

    def words_zh(self, say: Say) -> str:
        return f"{say.seats(self.seats)}依次有权选择不出"

    def atoms(self, offender: int | None) -> list[Atom]:
        return [Atom(self.KIND, self.offender, str(self), seats=tuple(self.seats), then=self.then)]


@attrs.frozen
class UnauthorisedInformation(TableEffect):
    """GD-7 / GD-4.2.2: ``seats`` may not use what ``cards`` show (an observation flag)."""

    KIND: ClassVar[str] = "UnauthorisedInformation"
    TERM: ClassVar[tuple[str, str] | None] = ("非法信息不得利用", "unauthorised information may not be used")
    seats: tuple[int, ...] = attrs.field(converter=seats_of)
    cards: tuple[str, ...] = attrs.field(default=(), converter=card_codes)
    source: int | None = attrs.field(default=None, converter=optional_seat, metadata=OMIT)
    """The seat whose cards or conduct gave the information (None: not said)."""
    what: str | None = attrs.field(default=None, metadata=OMIT)
    """What the information is, as the table records it (None: not said)."""

    def words(self, say: Say) -> str:
        source = f" from {say.seat(self.source)}" if self.source is not None else ""
        what = f" ({self.what})" if self.what else ""
        shown = f" {say.cards(self.cards)}" if self.cards else ""
        return f"非法信息 {say.seats(self.seats)} may not use the information{source}{shown}{what}"

    def words_zh(self, say: Say) -> str:
        return f"非法信息不得利用：{say.seats(self.seats)}不得利用该信息"

    def atoms(self, offender: int | None) -> list[Atom]:
        return [Atom(self.KIND, None, str(self), seats=tuple(self.seats), cards=tuple(sorted(self.cards)))]


EFFECTS: tuple[type[TableEffect], ...] = (
    PenaltyCards, BarOnePlay, LeadOption, NextDealProcedure, NoTributeNextDeal, CorrectPlay, RedoTribute,
    RedoReturn, ReportAgain, PassSequence, UnauthorisedInformation,
)
"""掼蛋's own table effects (its registration names them)."""
