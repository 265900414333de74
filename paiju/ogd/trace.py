"""``--trace FILE`` of `paiju ogd serve` and `paiju ogd play`: every WebSocket frame sent
and received, raw, one JSON line each.

A line is ``{"t": seconds since the trace began, "conn": connection number, "dir": "in" or
"out", "frame": the frame's text}`` (a binary frame's bytes as latin-1 text, ``"binary":
true``). Lines are written whole and flushed one at a time under a temporary name, renamed
to FILE when the command ends (``tabletop.files``), so a run that stops leaves a valid
prefix. The frames are exactly what crossed the socket: a trace is what to send to a bot's
author, or to compare with OGD's own server.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from tabletop.errors import OptionError
from tabletop.files import ReplacingFile

from paiju import files


def check_writable(path: str, what: str) -> str:
    """``path`` made absolute, or a one-line error (an OptionError: a bad option) saying why it
    cannot be written (``paiju.files.check_writable``: a real file tried where it goes)."""
    files.check_writable(path, what, error=OptionError)
    return os.path.abspath(path)


class Trace:
    def __init__(self, path: str) -> None:
        self.path = check_writable(path, "trace")
        try:
            self._file = ReplacingFile(self.path)
        except OSError as exc:
            raise OptionError(f"cannot write trace {path!r}: {exc.strerror or exc}") from None
        self._start = time.monotonic()
        self.lines = 0

    def record(self, conn: int, direction: str, frame: Any) -> None:
        entry: dict[str, Any] = {"t": round(time.monotonic() - self._start, 4), "conn": conn, "dir": direction}
        if isinstance(frame, bytes):
            entry.update(frame=frame.decode("latin-1"), binary=True)
        else:
            entry["frame"] = frame
        self._file.write((json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8"))
        self._file.flush()
        self.lines += 1

    def close(self) -> None:
        """Put the trace in place; with no frame in it, leave whatever was there before."""
        if self.lines:
            self._file.close()
        else:
            self._file.discard()


__all__ = ["Trace", "check_writable"]
