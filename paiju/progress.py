"""Progress of a long run, on stderr, the same for every command (``simulate``, ``fuzz``,
``replay`` of a long log): a rich progress bar with rate and ETA on a terminal; plain lines elsewhere — one
at the start, then on each 10 % step and whenever ``PLAIN_INTERVAL`` seconds pass without one
(a heartbeat thread, so a long unit of work still shows the run is alive); nothing with
``--quiet``."""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import IO, Any, Protocol

from tabletop.log import holds_gzip

PLAIN_STEP = 0.10
PLAIN_INTERVAL = 5.0
INTERVAL_VARIABLE = "PAIJU_PROGRESS_SECONDS"
"""Sets the plain lines' interval (seconds; default ``PLAIN_INTERVAL``)."""


class Reporter(Protocol):
    def advance(self, done: int, note: str | None = None) -> None: ...
    def close(self) -> None: ...


def start_progress(unit: str, total: int, *, quiet: bool = False, description: str = "simulate") -> Reporter:
    """A reporter for ``total`` ``unit`` (deals, matches, MB, events), shown from now on."""
    if quiet:
        return Silent()
    from rich.console import Console   # rich's console and bar: not loaded by a --quiet run

    console = Console(stderr=True)
    if console.is_terminal:
        from paiju.progress_bar import Bar

        return Bar(console, unit, total, description)
    return PlainLines(unit, total, description, sys.stderr, interval=plain_interval(), heartbeat=True)


def plain_interval() -> float:
    text = os.environ.get(INTERVAL_VARIABLE)
    try:
        value = float(text) if text else PLAIN_INTERVAL
    except ValueError:
        value = PLAIN_INTERVAL
    return value if value > 0 else PLAIN_INTERVAL


class Silent:
    def advance(self, done: int, note: str | None = None) -> None:
        pass

    def close(self) -> None:
        pass


def clock(seconds: float) -> str:
    """1:05, 12:00, 1:02:03."""
    whole = int(round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class PlainLines:
    """``simulate: 300/1000 deals (30%), 61.2 deals/s, ETA 0:11`` (then the note, if any): one
    line at the start, on each 10 % step, and after ``interval`` seconds without a line — on
    the next ``advance``, or from a heartbeat thread with ``heartbeat``; the last line gives
    the total time."""

    def __init__(self, unit: str, total: int, description: str, out: IO[str], *,
                 now: Any = time.monotonic, interval: float = PLAIN_INTERVAL, heartbeat: bool = False) -> None:
        self.unit, self.total, self.description, self.out = unit, total, description, out
        self.interval = interval
        self._now = now
        self._start = self._last_time = now()
        self._done = 0
        self._last_step = 0
        self._note = ""
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._line(starting=True)
        self._beat = threading.Thread(target=self._heartbeat, daemon=True) if heartbeat else None
        if self._beat is not None:
            self._beat.start()

    def advance(self, done: int, note: str | None = None) -> None:
        with self._lock:
            self._done += done
            if note is not None:
                self._note = note
            step = int(self._done / self.total / PLAIN_STEP) if self.total else 0
            if self._done >= self.total or step > self._last_step or self._now() - self._last_time >= self.interval:
                self._last_step = step
                self._line()

    def _heartbeat(self) -> None:
        while not self._closed.wait(self.interval / 4):
            with self._lock:
                if not self._closed.is_set() and self._done < self.total and self._now() - self._last_time >= self.interval:
                    self._line()

    def _line(self, starting: bool = False) -> None:
        self._last_done = self._done
        now = self._now()
        self._last_time = now
        elapsed = now - self._start
        rate = self._done / elapsed if elapsed > 0 else 0.0
        share = 100 * self._done / self.total if self.total else 100.0
        head = f"{self.description}: {self._done}/{self.total} {self.unit} ({share:.0f}%), {rate:.1f} {self.unit}/s"
        if starting or self._done == 0:   # no rate yet: how long it has been running
            head = f"{self.description}: 0/{self.total} {self.unit} (0%)"
            tail = "started" if starting else f"running for {clock(elapsed)}"
        elif self._done >= self.total:
            tail = f"done in {clock(elapsed)}"
        else:
            tail = f"ETA {clock((self.total - self._done) / rate)}" if rate > 0 else "ETA -"
        note = f", {self._note}" if self._note else ""
        print(f"{head}, {tail}{note}", file=self.out, flush=True)

    def close(self) -> None:
        """Stops the heartbeat; a run that stopped short says where (a line for the count
        reached, if no line showed it yet)."""
        self._closed.set()
        if self._beat is not None:
            self._beat.join()
        with self._lock:
            if self._done < self.total and self._done != self._last_done:
                self._line()


class Batched:
    """``advance`` called once per ``every`` counts (a loop over many small steps); ``flush``
    passes on the rest."""

    def __init__(self, advance: Any, every: int = 1000) -> None:
        self._advance, self._every, self._pending = advance, every, 0

    def __call__(self, done: int) -> None:
        self._pending += done
        if self._pending >= self._every:
            self._advance(self._pending)
            self._pending = 0

    def flush(self) -> None:
        if self._pending:
            self._advance(self._pending)
            self._pending = 0


MB = 1_000_000


LONG_LOG_BYTES = 1 * MB
"""A log this big (uncompressed, about 40 refereed deals) takes seconds to read and check:
``replay`` shows its progress; a smaller one is done before a display would help."""
GZIP_RATIO = 8
"""About how much a log's gzip compresses it (to judge a compressed log's length)."""


def long_log(path: str) -> bool:
    """Whether the log at ``path`` is long enough for ``replay`` to show its progress."""
    try:
        return os.path.getsize(path) * (GZIP_RATIO if holds_gzip(path) else 1) >= LONG_LOG_BYTES
    except OSError:   # the reader says what is wrong with it
        return False


class ReadProgress:
    """Progress of reading a file, in MB: ``read`` is the byte callback a reader takes."""

    def __init__(self, path: str, *, quiet: bool, description: str) -> None:
        try:
            size = os.path.getsize(path)
        except OSError:
            size = 0
        self.total = max(1, -(-size // MB))
        self._bytes = 0
        self._shown = 0
        self._reporter = start_progress("MB", self.total, quiet=quiet, description=description)

    def read(self, count: int) -> None:
        self._bytes += count
        whole = min(self.total, self._bytes // MB)
        if whole > self._shown:
            self._reporter.advance(whole - self._shown)
            self._shown = whole

    def close(self, finished: bool = True) -> None:
        if finished and self._shown < self.total:
            self._reporter.advance(self.total - self._shown)
            self._shown = self.total
        self._reporter.close()
