"""The play as it stands, copied (``take``) and put back (``restore``): GD-4.2.2's take-back
returns the table to the moment of an unreported play, or to before the offender's partner
first acted after it (``reporting`` takes the snapshots, ``take_back`` restores one)."""

from __future__ import annotations

import copy
from typing import Any

from guandan.observation import TopPlay
from tabletop.cards import Card
from tabletop.seats import NUM_SEATS


def take(deal: Any) -> dict:
    t = deal.table
    snap = {name: _copy(getattr(deal, name)) for name in _SNAP_FIELDS}
    snap["table"] = {name: _copy(getattr(t, name)) for name in _SNAP_TABLE}
    return snap


def restore(deal: Any, snap: dict) -> None:
    t = deal.table
    snap = _copy(snap)
    for name in _SNAP_FIELDS:
        setattr(deal, name, snap[name])
    for name, value in snap["table"].items():
        setattr(t, name, value)
    deal._hand_tuples = [None] * NUM_SEATS
    deal._legal = None


_SNAP_FIELDS = ("hands", "sizes", "played", "turn", "leader", "top", "passed", "announced",
                "finish_order", "plays")


_SNAP_TABLE = ("sequence", "correction", "lead_count", "turns", "last_play", "designation")


_SHARED = frozenset({int, bool, str, type(None), Card, TopPlay})
"""Types whose values never change (shared, not copied)."""


def _copy(value: Any) -> Any:
    """``copy.deepcopy`` of a snapshot field: lists, tuples and dicts copied, cards and the
    other values that never change shared (deepcopy rebuilds every card: the copies of the
    hands and played cards cost milliseconds); any other value through ``copy.deepcopy``."""
    kind = type(value)
    if kind in _SHARED:
        return value
    if kind is list:
        return [_copy(v) for v in value]
    if kind is tuple:
        return tuple([_copy(v) for v in value])
    if kind is dict:
        return {k: _copy(v) for k, v in value.items()}
    return copy.deepcopy(value)
