"""The play as it stands, copied (``take``) and put back (``restore``): GD-4.2.2's take-back
returns the table to the moment of an unreported play, or to before the offender's partner
first acted after it (``reporting`` takes the snapshots, ``take_back`` restores one)."""

from __future__ import annotations

import copy
from typing import Any

from tabletop.seats import NUM_SEATS


def take(deal: Any) -> dict:
    t = deal.table
    snap = {name: copy.deepcopy(getattr(deal, name)) for name in _SNAP_FIELDS}
    snap["table"] = {name: copy.deepcopy(getattr(t, name)) for name in _SNAP_TABLE}
    return snap


def restore(deal: Any, snap: dict) -> None:
    t = deal.table
    snap = copy.deepcopy(snap)
    for name in _SNAP_FIELDS:
        setattr(deal, name, snap[name])
    for name, value in snap["table"].items():
        setattr(t, name, value)
    deal._hand_tuples = [None] * NUM_SEATS
    deal._legal = None


_SNAP_FIELDS = ("hands", "sizes", "played", "turn", "leader", "top", "passed", "announced",
                "finish_order", "plays")


_SNAP_TABLE = ("sequence", "correction", "lead_count", "turns", "last_play", "designation")
