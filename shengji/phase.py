"""The phases of a 双升 deal (a module of its own: the deal and its refereed half share it)."""

from __future__ import annotations

import enum


class Phase(str, enum.Enum):
    """The phases of a deal; a str enum (Phase.PLAY == "play")."""

    DRAW = "draw"
    DECLARE = "declare"
    KITTY = "kitty"
    PLAY = "play"
    SCORED = "scored"
    AWAITING_RULING = "awaiting_ruling"
    """Refereed mode: an irregularity waits for the referee (nobody is to act)."""
