"""Frozen rules-option objects: typed fields, recorded in the log header, read back
from it with a clear error for an option that does not exist or a bad value."""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

from tabletop.errors import OptionError

T = TypeVar("T")


def options_to_dict(options: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in attrs.fields(type(options)):
        value = getattr(options, f.name)
        if isinstance(value, (frozenset, set)):
            value = sorted(value)
        out[f.name] = value
    return out


def options_from_dict(cls: type[T], data: dict[str, Any]) -> T:
    names = {f.name: f for f in attrs.fields(cls)}
    unknown = sorted(set(data) - set(names))
    if unknown:
        raise OptionError(f"unknown {cls.__name__} option(s): {', '.join(unknown)} (known: {', '.join(names)})")
    kwargs = {}
    for key, value in data.items():
        default = names[key].default
        if isinstance(default, frozenset) and isinstance(value, (list, tuple)):
            value = frozenset(value)
        kwargs[key] = value
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise OptionError(f"bad {cls.__name__} option: {exc}") from None


def allows(text: str) -> Any:
    """Marks a validator with the values it allows, in words (``paiju rules GAME --options``)."""

    def mark(check: Any) -> Any:
        check.allowed = text
        return check

    return mark


def one_of(*allowed: Any) -> Any:
    """An attrs validator naming the allowed values in its message."""

    @allows(", ".join(value_text(v) for v in allowed))
    def check(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
        if value not in allowed:
            raise OptionError(f"{attribute.name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")

    return check


@allows("true, false")
def boolean(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    """An attrs validator: true or false, nothing else."""
    if not isinstance(value, bool):
        raise OptionError(f"{attribute.name} must be true or false, got {value!r}")


def whole_number(least: int, *, or_none: bool = False) -> Any:
    """An attrs validator: a whole number of at least ``least`` (or None, with ``or_none``)."""
    allowed = f"a whole number of at least {least}" + (" (or none)" if or_none else "")

    @allows(f"{least} or more" + (", or none" if or_none else ""))
    def check(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
        if value is None and or_none:
            return
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise OptionError(f"{attribute.name} must be {allowed}, got {value!r}")

    return check


@attrs.frozen
class OptionInfo:
    """One rules option as ``paiju rules GAME --options`` lists it: values as ``--rules``
    takes them (``none``, ``true``, ``5,T,K,A``)."""

    name: str
    type: str
    default: str
    allowed: str
    help: str


_TYPE_WORDS = {"bool": "true/false", "int": "whole number", "int | None": "whole number or none",
               "str": "word", "frozenset": "set"}


def value_text(value: Any) -> str:
    """A value as ``--rules KEY=VALUE`` takes it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (frozenset, set, list, tuple)):
        return ",".join(sorted(map(str, value)))
    return str(value)


def describe_options(rules: Any) -> list[OptionInfo]:
    """Every option of a rules object (its fields, in order): type, default (the object's
    value), the allowed values its validator names and the field's ``help`` metadata."""
    out = []
    for f in attrs.fields(type(rules)):
        kind = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        out.append(OptionInfo(name=f.name, type=f.metadata.get("type", _TYPE_WORDS.get(kind, kind)),
                              default=value_text(getattr(rules, f.name)),
                              allowed=getattr(f.validator, "allowed", "") or "any", help=f.metadata.get("help", "")))
    return out
