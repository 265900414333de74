"""A refereed 掼蛋 deal's whole state as plain data, to compare two deals field by field (a
deal and the same deal rebuilt from its record): every attribute of the deal and of its
table, recursively, but the event stream, the record itself and the caches of derived
values."""

from __future__ import annotations

import enum
from typing import Any

import attrs
import numpy as np

from tabletop.cards import Card

_NOT_STATE = {"stream", "legal_cache", "hand_cache", "analysed", "shrunk_from", "record"}


def deal_state(deal: Any, leave_out: tuple[str, ...] = ()) -> Any:
    """The deal's state; ``leave_out``: attribute names (of the deal or its table) not compared."""
    return _plain(deal, _NOT_STATE | set(leave_out))


def _plain(value: Any, skip: set[str]) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return (type(value).__name__, value.value)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_plain(v, skip) for v in value])
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, sorted(repr(_plain(v, skip)) for v in value))
    if isinstance(value, dict):
        return ("dict", [(repr(k), _plain(v, skip)) for k, v in value.items()])
    if isinstance(value, np.random.Generator):
        return ("Generator", repr(value.bit_generator.state))
    if callable(value) and hasattr(value, "__qualname__") and not hasattr(value, "__dict__"):
        return ("function", value.__qualname__)
    if attrs.has(type(value)):
        return (type(value).__name__, [(f.name, _plain(getattr(value, f.name), skip)) for f in attrs.fields(type(value))
                                       if f.name not in skip])
    names = list(getattr(value, "__dict__", {}))
    for k in type(value).__mro__:
        names += [n for n in getattr(k, "__slots__", ()) if n not in names and hasattr(value, n)]
    if not names:
        return (type(value).__name__, repr(value))
    return (type(value).__name__, [(n, _plain(getattr(value, n), skip)) for n in sorted(names) if n not in skip])
