"""The game-agnostic core: cards and notation, seats, seeded randomness, events and
the JSONL log, the engine/agent protocols and the runner."""

from tabletop.cards import (
    BIG_JOKER, CARDS, NUM_CARD_KINDS, RANKS, SMALL_JOKER, SUITS, Card, as_cards, codes,
    count_list, format_cards, from_counts, full_deck, parse_card, parse_cards, sort_cards,
    to_counts,
)
from tabletop.errors import CardParseError, IllegalAction, LogError, OptionError, PaijuError
from tabletop.events import Event, EventStream
from tabletop.log import Log, LogWriter, make_header, read_log
from tabletop.protocol import Agent, Engine, Observer
from tabletop.runner import run
from tabletop.seats import next_seat, partner, prev_seat, seats_from, team

__all__ = [
    "BIG_JOKER", "CARDS", "NUM_CARD_KINDS", "RANKS", "SMALL_JOKER", "SUITS", "Card", "as_cards",
    "codes", "count_list", "format_cards", "from_counts", "full_deck", "parse_card", "parse_cards",
    "sort_cards", "to_counts", "CardParseError", "IllegalAction", "LogError", "OptionError",
    "PaijuError", "Event", "EventStream", "Log", "LogWriter", "make_header", "read_log", "Agent",
    "Engine", "Observer", "run", "next_seat", "partner", "prev_seat", "seats_from", "team",
]
