"""EventStream.emit builds events with a constructor of its own (the hot path of every
deal): it must make exactly what the event class makes, and refuse what it refuses."""

from typing import ClassVar

import attrs
import pytest

import guandan.events  # noqa: F401  (registers the 掼蛋 events)
import shengji.events  # noqa: F401  (registers the 双升 events)
import tabletop.rulings  # noqa: F401
from tabletop.events import _REGISTRY, Event, EventStream


def _sample_payload(cls):
    """A value for every field the event requires (defaults left alone)."""
    return {f.name: (f.name, 1) for f in attrs.fields(cls)[3:] if f.default is attrs.NOTHING}


@pytest.mark.parametrize("kind", sorted(k for k in _REGISTRY if not k.startswith("test.")))
def test_emit_makes_the_same_event_as_the_class_constructor(kind):
    cls = _REGISTRY[kind]
    payload = _sample_payload(cls)
    stream = EventStream(deal=4, next_seq=9)
    event = stream.emit(cls, seat=2, **payload)
    expected = cls(deal=4, seq=9, seat=2, **payload)
    assert type(event) is cls
    assert event == expected and hash(event) == hash(expected) and repr(event) == repr(expected)
    assert event.to_dict() == expected.to_dict()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        event.seq = 0


@pytest.mark.parametrize("kind", sorted(k for k, c in _REGISTRY.items()
                                         if not k.startswith("test.") and len(attrs.fields(c)) > 3))
def test_emit_with_every_field_given_or_one_misnamed_is_what_the_class_makes(kind):
    """Every field given (the optional ones too); then one given under a wrong name — the
    payload has as many keys as the class has fields, and emit must still refuse it."""
    cls = _REGISTRY[kind]
    payload = {f.name: (f.name, 2) for f in attrs.fields(cls)[3:]}
    event = EventStream(deal=1, next_seq=3).emit(cls, seat=None, **payload)
    assert event == cls(deal=1, seq=3, seat=None, **payload) and event.to_dict() == cls(deal=1, seq=3, **payload).to_dict()
    for name in payload:
        misnamed = {("x_" + k if k == name else k): v for k, v in payload.items()}
        stream = EventStream()
        with pytest.raises(TypeError, match=f"{cls.__name__}.*x_{name}"):
            stream.emit(cls, **misnamed)
        assert stream.next_seq == 0 and stream.take() == []


def test_emit_refuses_a_missing_or_unknown_field_naming_the_event():
    stream = EventStream()
    with pytest.raises(TypeError, match="DealStarted.*source"):
        stream.emit(guandan.events.DealStarted, level="2")
    with pytest.raises(TypeError, match="CardDrawn.*colour"):
        stream.emit(guandan.events.CardDrawn, seat=1, card="SA", colour="red")
    assert stream.next_seq == 0 and stream.take() == []


@attrs.frozen(kw_only=True)
class _Checked(Event):
    KIND: ClassVar[str] = "test.checked"
    count: int = attrs.field(converter=int)
    tags: tuple[str, ...] = attrs.field(factory=tuple)


def test_an_event_with_converters_or_factories_keeps_its_own_constructor():
    event = EventStream().emit(_Checked, count="3")
    assert event == _Checked(deal=0, seq=0, count=3) and event.tags == ()
