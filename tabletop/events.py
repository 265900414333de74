"""The event base type. Everything that happens at a table is an event: a frozen
record with a stable ``kind``, the deal number, a gapless sequence number and the
seat it concerns; payloads are plain data (card codes, ints, strings, tuples).

Subclasses register themselves by ``kind`` so that a log line can be read back into
the same class. Events produced by a seat's decision set ``ACTION = True``: a replay
rebuilds the action from them and re-applies it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import MemberDescriptorType
from typing import Any, ClassVar, TypeVar

import attrs

from tabletop.errors import LogError

_REGISTRY: dict[str, type["Event"]] = {}
E = TypeVar("E", bound="Event")


@attrs.frozen(kw_only=True)
class Event:
    KIND: ClassVar[str] = ""
    ACTION: ClassVar[bool] = False
    _FIELDS: ClassVar[tuple[str, ...]] = ()

    deal: int
    seq: int
    seat: int | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("KIND", "")
        if kind:
            other = _REGISTRY.get(kind)
            if other is not None and other.__qualname__ != cls.__qualname__:
                raise TypeError(f"event kind {kind!r} registered twice ({other.__qualname__}, {cls.__qualname__})")
            _REGISTRY[kind] = cls

    @classmethod
    def _field_names(cls) -> tuple[str, ...]:
        names = cls.__dict__.get("_FIELDS_CACHE")
        if names is None:
            names = tuple(f.name for f in attrs.fields(cls))
            type.__setattr__(cls, "_FIELDS_CACHE", names)
        return names

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.KIND}
        for name in self._field_names():
            d[name] = getattr(self, name)
        return d

    @staticmethod
    def from_dict(data: dict[str, Any], kinds: "dict[str, type[Event]] | None" = None) -> "Event":
        """The event ``to_dict`` gave; ``kinds``: the classes to read it with (a game's,
        ``tabletop.games.event_classes``), else every class defined so far."""
        kind = data.get("kind")
        cls = (_REGISTRY if kinds is None else kinds).get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise LogError(f"unknown event kind {kind!r}")
        names = cls._field_names()
        extra = set(data) - set(names) - {"kind"}
        if extra:
            raise LogError(f"event {kind!r} has unknown field(s) {', '.join(sorted(extra))}")
        try:
            return cls(**{k: _tuplify(v) for k, v in data.items() if k != "kind"})
        except TypeError as exc:
            raise LogError(f"event {kind!r}: {exc}") from None


def _tuplify(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuplify(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuplify(v) for k, v in value.items()}
    return value


def event_class(kind: str) -> type[Event] | None:
    return _REGISTRY.get(kind)


class EventStream:
    """Hands out gapless sequence numbers and collects the events an engine emits.

    A match shares one stream with all its deals, so sequence numbers are gapless
    over the whole match. A batch log starts a fresh stream for each unit (deal or
    match) it plays, opened by a ``UnitStarted`` event."""

    __slots__ = ("deal", "next_seq", "pending")

    def __init__(self, deal: int = 0, next_seq: int = 0) -> None:
        self.deal = deal
        self.next_seq = next_seq
        self.pending: list[Event] = []

    def emit(self, cls: type[E], seat: int | None = None, **payload: Any) -> E:
        try:
            make = _MAKERS[cls]
        except KeyError:
            make = _MAKERS[cls] = _maker(cls)
        event = make(self.deal, self.next_seq, seat, payload)
        self.next_seq += 1
        self.pending.append(event)
        return event

    def emit_each(self, cls: type[Event], seated: Iterable[tuple[int | None, dict[str, Any]]]) -> None:
        """``emit(cls, seat, **payload)`` for each ``(seat, payload)`` in turn, in one call (a
        deal's draw emits a hundred events of one class)."""
        try:
            make = _MAKERS[cls]
        except KeyError:
            make = _MAKERS[cls] = _maker(cls)
        deal, append = self.deal, self.pending.append
        for seat, payload in seated:
            append(make(deal, self.next_seq, seat, payload))
            self.next_seq += 1

    def take(self) -> list[Event]:
        """The events emitted since the last call."""
        out = self.pending
        self.pending = []
        return out


_MAKERS: dict[type[Event], Callable[..., Any]] = {}
"""Per event class, the constructor ``EventStream.emit`` uses (see ``_maker``)."""


def _maker(cls: type[Event]) -> Callable[..., Any]:
    """A constructor ``make(deal, seq, seat, payload)`` equivalent to ``cls(deal=…, seq=…,
    seat=…, **payload)`` for the stream's hot path (a deal emits hundreds of events): it
    takes the payload dict as it is (no second keyword packing) and sets the slots directly,
    without attrs' keyword ``__init__`` and its frozen-instance setter. A payload with a
    missing or unknown field goes to ``cls`` itself, for its own TypeError. A class with
    converters, validators, default factories or a post-init hook keeps its own ``__init__``."""
    fields = attrs.fields(cls)
    names = [f.name for f in fields]
    slots = {name: next((k.__dict__[name] for k in cls.__mro__ if name in k.__dict__), None)
             for name in names}
    plain = all(f.converter is None and f.validator is None and f.init
                # attrs.Factory is a class at run time; its stub is a function
                and not isinstance(f.default, attrs.Factory)  # type: ignore[arg-type]
                for f in fields)
    if (not plain or hasattr(cls, "__attrs_post_init__") or names[:3] != ["deal", "seq", "seat"]
            or not all(isinstance(s, MemberDescriptorType) for s in slots.values())):
        return lambda deal, seq, seat, payload: cls(deal=deal, seq=seq, seat=seat, **payload)
    scope: dict[str, Any] = {"new__": object.__new__,
                             "whole__": lambda deal, seq, seat, payload: cls(deal=deal, seq=seq, seat=seat, **payload)}
    required = [f.name for f in fields[3:] if f.default is attrs.NOTHING]
    optional = [f for f in fields[3:] if f.default is not attrs.NOTHING]
    for name, slot in slots.items():
        assert isinstance(slot, MemberDescriptorType)  # every one is, checked above
        scope[f"set__{name}"] = slot.__set__
    lines = ["def make(deal, seq, seat, payload__):"]
    if optional:   # every key beyond the required ones must be an optional field's
        scope.update({f"default__{f.name}": f.default for f in optional})
        present = " + ".join(f"({f.name!r} in payload__)" for f in optional)
        lines.append(f"    if len(payload__) - {len(required)} != {present}:")
    else:
        lines.append(f"    if len(payload__) != {len(required)}:")
    lines.append("        return whole__(deal, seq, seat, payload__)")
    if required:
        lines.append("    try:")
        lines += [f"        {name} = payload__[{name!r}]" for name in required]
        lines.append("    except KeyError:")
        lines.append("        return whole__(deal, seq, seat, payload__)")
    lines += [f"    {f.name} = payload__.get({f.name!r}, default__{f.name})" for f in optional]
    lines.append("    event__ = new__(cls__)")
    lines += [f"    set__{name}(event__, {name})" for name in names]
    lines.append("    return event__")
    scope["cls__"] = cls
    exec("\n".join(lines) + "\n", scope)
    make = scope["make"]
    make.__qualname__ = cls.__qualname__
    return make


# ---------------------------------------------------------------------------------------------
# Events every game shares

@attrs.frozen(kw_only=True)
class Note(Event):
    """A free-text remark attached to the log (e.g. why a run stopped)."""

    KIND: ClassVar[str] = "note"
    text: str


@attrs.frozen(kw_only=True)
class UnitStarted(Event):
    """Starts one unit of a batch log: deal or match ``index`` of the run, played from its
    own seed-tree node with its own stream. Its sequence number is 0 and the unit's events
    follow from 1, so a unit's lines do not depend on which units came before it (or on
    which worker played it). ``deal`` is 0: the marker belongs to no deal."""

    KIND: ClassVar[str] = "unit"
    index: int
