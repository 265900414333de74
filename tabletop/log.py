"""The JSON Lines event log.

Line 1 is the header: ``{"format": "paiju-log", "version": 1, "game": …, "rules": {…},
"options": {…}, "seed": …}``; every following line is one event. Lines are written
one at a time and flushed, so a crashed run leaves a valid prefix (the file is written
beside its name and renamed into place when the writer closes: ``tabletop.files``). Encoding is
canonical (fixed key order, no spaces), so the same seed gives the same bytes.

Sequence numbers are gapless. A batch log (``paiju simulate``) is a series of units,
each opened by a ``unit`` event (``UnitStarted``) with sequence number 0 and numbered
on from there, so a unit's lines are the same whichever units precede it.

A ``.gz`` path is written gzip-compressed, with no time stamp or file name in it, so equal
content gives equal bytes. It may be a series of gzip members (``BlockWriter``: blocks of
whole lines compressed elsewhere, e.g. one per unit by worker processes), which every
gzip reader reads as one stream; a reader also takes the complete lines of a stream
that was cut off. A reader knows gzip by its bytes, not by the file's name.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import IO, Any

import attrs

from tabletop.errors import LogError, OptionError
from tabletop.events import Event, UnitStarted
from tabletop.files import ReplacingFile
from tabletop.games import event_classes, game_of_kind
from tabletop.table_events import upgrade

LOG_FORMAT = "paiju-log"
LOG_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
"""Older logs are read with the events renamed since (``tabletop.table_events.upgrade``)."""
GZIP_LEVEL = 6
"""zlib's default: nearly the size of level 9 at a fraction of the time."""


def make_header(game: str, seed: int, rules: dict[str, Any], options: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "format": LOG_FORMAT,
        "version": LOG_VERSION,
        "game": game,
        "rules": rules,
        "options": options or {},
        "seed": seed,
    }


def encode(obj: dict[str, Any]) -> str:
    """One canonical JSON line (no newline)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def encode_event(event: Event) -> str:
    return encode(event.to_dict())


class LogWriter:
    """Writes a header and then events, one whole line at a time (flushed, unless gzip).

    A path is written beside itself and renamed into place when the writer is closed
    (``tabletop.files.ReplacingFile``): a run that stops, however, leaves the old file or
    the lines written so far, never half a line. Also an observer: pass it to the runner
    and it logs every event it is shown."""

    def __init__(self, target: "str | os.PathLike[str] | IO[str]", header: dict[str, Any]) -> None:
        self._text: IO[str] | None = None
        self._sink: ReplacingFile | None = None
        self._gzip: gzip.GzipFile | None = None
        if isinstance(target, (str, os.PathLike)):
            path = os.fspath(target)
            try:
                self._sink = ReplacingFile(path)
            except OSError as exc:
                raise LogError(f"cannot write log {path!r}: {exc.strerror or exc}") from None
            if is_compressed(path):
                self._gzip = gzip.GzipFile(filename="", mode="wb", fileobj=self._sink, compresslevel=GZIP_LEVEL, mtime=0)
        else:
            self._text = target
        self.write_line(encode(header))

    def write_line(self, line: str) -> None:
        if self._text is not None:
            self._text.write(line + "\n")
        elif self._gzip is not None:
            self._gzip.write((line + "\n").encode("utf-8"))
        else:
            assert self._sink is not None
            self._sink.write((line + "\n").encode("utf-8"))
            self._sink.flush()

    def write(self, events: Iterable[Event]) -> None:
        for event in events:
            self.write_line(encode_event(event))

    def on_events(self, engine: Any, events: list[Event]) -> None:
        self.write(events)

    def close(self) -> None:
        if self._text is not None:
            self._text.flush()
            return
        assert self._sink is not None
        try:
            if self._gzip is not None:
                self._gzip.close()
        finally:
            self._sink.close()

    def __enter__(self) -> "LogWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def is_compressed(path: "str | os.PathLike[str]") -> bool:
    """Whether a log written to ``path`` is compressed: its name ends in ``.gz``."""
    return os.fspath(path).endswith(".gz")


GZIP_MAGIC = b"\x1f\x8b"


def holds_gzip(path: "str | os.PathLike[str]") -> bool:
    """Whether the file at ``path`` is gzip data, by its first two bytes (whatever its name)."""
    with open(path, "rb") as f:
        return f.read(2) == GZIP_MAGIC


def encode_block(lines: Iterable[str], *, compress: bool) -> bytes:
    """Whole encoded lines as a log file holds them: UTF-8 text, or one gzip member."""
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    return gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0) if compress else data


class BlockWriter:
    """Writes a header, then blocks made by ``encode_block`` (the same ``compress`` as the
    path says), flushing each. The file is written beside its path and renamed into place
    by ``close`` (``tabletop.files.ReplacingFile``): a stopped run leaves whole blocks, a
    valid prefix; ``discard`` leaves whatever was there before."""

    def __init__(self, path: "str | os.PathLike[str]", header: dict[str, Any]) -> None:
        path = os.fspath(path)
        self.compressed = is_compressed(path)
        try:
            self._file = ReplacingFile(path)
        except OSError as exc:
            raise LogError(f"cannot write log {path!r}: {exc.strerror or exc}") from None
        self.blocks = 0
        """Blocks written after the header."""
        self._file.write(encode_block([encode(header)], compress=self.compressed))
        self._file.flush()

    def write_block(self, block: bytes) -> None:
        self._file.write(block)
        self._file.flush()
        self.blocks += 1

    def close(self) -> None:
        """Put the file in place (the header and the blocks written)."""
        self._file.close()

    def discard(self) -> None:
        """Remove what was written; a file that was there before stays."""
        self._file.discard()

    def __enter__(self) -> "BlockWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


@attrs.frozen
class Log:
    header: dict[str, Any]
    events: tuple[Event, ...]
    lines: tuple[str, ...]          # the raw event lines, for byte-exact comparison
    truncated: bool = False         # the last line was cut off and has been dropped
    error: str | None = None        # why reading stopped early (only with allow_truncated)

    @property
    def game(self) -> str:
        return self.header["game"]

    @property
    def seed(self) -> int:
        return self.header["seed"]


ProgressCallback = Callable[[int], None]
"""Told how many more bytes of the file have been read."""


def _gzip_lines(path: str, read: ProgressCallback | None = None) -> Iterator[bytes]:
    """The lines of a gzip file (concatenated members too). A stream that was cut off
    (a run that stopped) gives the lines that reached the disk; only bad data is an error."""
    with open(path, "rb") as f:
        inflater = zlib.decompressobj(31)
        pending = b""
        while chunk := f.read(1 << 16):
            if read is not None:
                read(len(chunk))
            data = inflater.decompress(chunk)
            while inflater.eof and inflater.unused_data:
                rest = inflater.unused_data
                inflater = zlib.decompressobj(31)
                data += inflater.decompress(rest)
            pending += data
            *complete, pending = pending.split(b"\n")
            for line in complete:
                yield line + b"\n"
        if pending:
            yield pending


def _plain_lines(path: str, read: ProgressCallback | None = None) -> Iterator[bytes]:
    with open(path, "rb") as f:
        unreported = 0
        for raw in f:
            yield raw
            if read is not None:
                unreported += len(raw)
                if unreported >= 1 << 16:
                    read(unreported)
                    unreported = 0
        if read is not None and unreported:
            read(unreported)


def _text_lines(path: str, read: ProgressCallback | None = None) -> Iterator[str]:
    if not holds_gzip(path):
        for raw in _plain_lines(path, read):
            yield raw.decode("utf-8")
        return
    for raw in _gzip_lines(path, read):
        yield raw.decode("utf-8", errors="strict" if raw.endswith(b"\n") else "replace")


def iter_lines(path: "str | os.PathLike[str]", read: ProgressCallback | None = None) -> Generator[tuple[int, str, bool], None, None]:
    """(line number from 1, text without its line ending (LF, or CRLF as a Windows editor
    saves it), whether it ended with one);
    ``read`` is told the bytes of the file read as they are."""
    path = os.fspath(path)
    try:
        for number, raw in enumerate(_text_lines(path, read), start=1):
            ended = raw.endswith("\n")
            text = raw[:-1] if ended else raw
            yield number, text[:-1] if ended and text.endswith("\r") else text, ended   # CRLF (Windows) too
    except FileNotFoundError:
        raise LogError(f"no such log: {path!r}") from None
    except IsADirectoryError:
        raise LogError(f"cannot read log {path!r}: it is a directory") from None
    except OSError as exc:   # the reason in words, not "[Errno 13] Permission denied: 'x'"
        raise LogError(f"cannot read log {path!r}: {exc.strerror or exc}") from None
    except (EOFError, UnicodeDecodeError, zlib.error) as exc:
        raise LogError(f"cannot read log {path!r}: {exc}") from None


def peek_header(path: "str | os.PathLike[str]") -> dict[str, Any]:
    """Only the header of a log (to choose the game before reading its events)."""
    path = os.fspath(path)
    lines = iter_lines(path)
    try:
        for _number, text, _complete in lines:
            return read_header(text, path)
    finally:
        lines.close()
    raise LogError(f"{path}: empty log (no header line)")


def read_header(line: str, path: str = "log", game: str | None = None) -> dict[str, Any]:
    try:
        header = json.loads(line)
    except json.JSONDecodeError:
        raise LogError(f"{path}: line 1: not a paiju log header (not JSON)") from None
    if not isinstance(header, dict) or header.get("format") != LOG_FORMAT:
        raise LogError(f"{path}: line 1: not a paiju log header")
    if header.get("version") not in READABLE_VERSIONS:
        raise LogError(f"{path}: line 1: log format version {header.get('version')!r} is not supported "
                       f"(this paiju reads versions {', '.join(map(str, READABLE_VERSIONS))})")
    if game is not None and header.get("game") != game:
        raise LogError(f"{path}: line 1: a {header.get('game')!r} log, expected {game!r}")
    seed = header.get("seed")
    if type(seed) is not int or seed < 0:   # a bool is an int to Python, not a seed
        raise LogError(f"{path}: line 1: the header's seed must be a whole number, 0 or more; got {json.dumps(seed)}")
    for field in ("rules", "options"):
        if not isinstance(header.get(field, {}), dict):
            raise LogError(f"{path}: line 1: the header's {field} must be an object; got {json.dumps(header[field])}")
    return header


def read_log(path: "str | os.PathLike[str]", *, game: str | None = None, allow_truncated: bool = False,
             read: ProgressCallback | None = None) -> Log:
    """Read a whole log. Any bad line raises LogError naming it; with
    ``allow_truncated`` the valid prefix is returned instead, with ``error`` set. ``read``
    is told the bytes of the file read as they are (a progress display)."""
    path = os.fspath(path)
    header: dict[str, Any] | None = None
    events: list[Event] = []
    lines: list[str] = []
    truncated = False
    error: str | None = None
    expected_seq: int | None = None
    old: int | None = None
    for number, text, complete in iter_lines(path, read):
        if header is None:
            header = read_header(text, path, game)
            old = header["version"] if header["version"] < LOG_VERSION else None
            try:
                kinds = event_classes(header.get("game"))
            except OptionError as exc:
                raise LogError(f"{path}: line 1: {exc}") from None
            continue
        problem: str | None = None
        if not complete:
            truncated = True
            problem = f"{path}: line {number}: truncated (the log ends in the middle of a line)"
        else:
            try:
                data = json.loads(text)
                if not isinstance(data, dict):
                    raise LogError("not a JSON object")
                if old is not None:
                    data = upgrade(data, old)
                kind = data.get("kind")
                if isinstance(kind, str) and kind not in kinds:
                    owner = game_of_kind(kind)
                    if owner is not None:
                        raise LogError(f"a {kind!r} event does not belong in a {header.get('game')} log")
                event = Event.from_dict(data, kinds)
                if old is not None:
                    text = encode_event(event)   # the line as this version writes it
                if isinstance(event, UnitStarted):
                    if event.seq != 0:
                        raise LogError(f"unit event with sequence number {event.seq}, expected 0")
                elif expected_seq is not None and event.seq != expected_seq:
                    raise LogError(f"sequence number {event.seq}, expected {expected_seq}")
            except json.JSONDecodeError as exc:
                problem = f"{path}: line {number}: corrupt event (invalid JSON: {exc.msg})"
            except LogError as exc:
                problem = f"{path}: line {number}: corrupt event ({exc})"
        if problem is not None:
            if not allow_truncated:
                raise LogError(problem)
            error = problem
            break
        events.append(event)
        lines.append(text)
        expected_seq = event.seq + 1
    if header is None:
        raise LogError(f"{path}: empty log (no header line)")
    return Log(header=header, events=tuple(events), lines=tuple(lines), truncated=truncated, error=error)
