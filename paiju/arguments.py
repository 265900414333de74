"""Argument types of the command line: each turns one option's text into its value or
says, in one line, what is wrong with it (argparse prints it with the option's name); and
the examples that end each command's --help."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any


class NamedPath(str):
    """A path given on the command line, with the option that named it (for messages)."""

    option: str

    def __new__(cls, text: str, option: str) -> "NamedPath":
        path = super().__new__(cls, text)
        path.option = option
        return path

    def __reduce__(self) -> tuple[Any, ...]:   # to worker processes: a plain path
        return (str, (str(self),))


class InputPath(NamedPath):
    """A file or directory the command reads."""


class OutputPath(NamedPath):
    """A file the command writes."""


class OutputDirectory(OutputPath):
    """A directory the command writes into (made if missing; its parent must exist)."""


class AgentList(str):
    """``--agents``: comma-separated specs; those of a file (``path/to/file.py:Name``) name
    files the command reads (``inputs``), which no output may overwrite."""

    inputs: tuple[InputPath, ...]

    def __new__(cls, text: str, option: str) -> "AgentList":
        value = super().__new__(cls, text)
        value.inputs = tuple(InputPath(where, option) for where in (spec.strip().rpartition(":")[0]
                                                                   for spec in text.split(","))
                             if is_agent_file(where))
        return value

    def __reduce__(self) -> tuple[Any, ...]:
        return (str, (str(self),))


def is_agent_file(where: str) -> bool:
    """Whether the part of an agent spec before ``:Name`` is a file (else a module path)."""
    return where.endswith(".py") or os.sep in where or "/" in where


def agent_list(option: str) -> Callable[[str], AgentList]:
    """The argument type of ``--agents`` (the specs are checked by the command)."""
    def parse(text: str) -> AgentList:
        return AgentList(text, option)
    parse.__name__ = "agents"
    return parse


def input_path(option: str) -> Callable[[str], InputPath]:
    """The argument type of a path the command reads: ``paiju.files.check_command_paths``
    keeps every output off it, before the command starts."""
    def parse(text: str) -> InputPath:
        return InputPath(text, option)
    parse.__name__ = "path"
    return parse


def output_path(option: str) -> Callable[[str], OutputPath]:
    """The argument type of a file the command writes: never an input, never another output,
    and writable before the command starts (``paiju.files.check_command_paths``)."""
    def parse(text: str) -> OutputPath:
        return OutputPath(text, option)
    parse.__name__ = "path"
    return parse


def output_directory(option: str) -> Callable[[str], OutputDirectory]:
    """The argument type of a directory the command writes into, checked as ``output_path``."""
    def parse(text: str) -> OutputDirectory:
        return OutputDirectory(text, option)
    parse.__name__ = "path"
    return parse


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def seat_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a seat: {text!r} (0-3)") from None
    if not 0 <= value <= 3:
        raise argparse.ArgumentTypeError(f"not a seat: {value} (0-3)")
    return value


def _port(text: str, lowest: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not lowest <= value <= 65535:
        raise argparse.ArgumentTypeError(f"not a port number: {value} ({lowest}-65535)")
    return value


def port_number(text: str) -> int:
    """A TCP port to listen on, 1-65535."""
    return _port(text, 1)


def port_or_any(text: str) -> int:
    """A TCP port, or 0: any free port the system picks."""
    return _port(text, 0)


def rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {value}")
    return value


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, got {text}")
    return value


def whole_number_in(low: int, high: int) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low}-{high}, got {value}")
        return value
    return parse


def seconds_in(low: float, high: float) -> Callable[[str], float]:
    """An argument type: a number of seconds from ``low`` to ``high``."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low:g}-{high:g} seconds, got {value:g}")
        return value
    return parse


def examples(*lines: str) -> str:
    """A command's --help epilog: runnable examples, one per line (``# …`` explains one)."""
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)
