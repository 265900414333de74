"""Progress of a long run, on stderr: a rich progress bar with rate and ETA on a terminal,
plain lines elsewhere (every 10 % and at least every 30 s), nothing with ``--quiet``."""

from __future__ import annotations

from typing import Any

import sys
import time
from typing import IO, Protocol

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.text import Text

PLAIN_STEP = 0.10
PLAIN_INTERVAL = 30.0


class Reporter(Protocol):
    def advance(self, done: int) -> None: ...
    def close(self) -> None: ...


def start_progress(unit: str, total: int, *, quiet: bool = False, description: str = "simulate") -> Reporter:
    if quiet:
        return Silent()
    console = Console(stderr=True)
    if console.is_terminal:
        return Bar(console, unit, total, description)
    return PlainLines(unit, total, description, sys.stderr)


class Silent:
    def advance(self, done: int) -> None:
        pass

    def close(self) -> None:
        pass


class _Rate(ProgressColumn):
    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.1f} {self.unit}/s" if speed else f"- {self.unit}/s", style="progress.data.speed")


class Bar:
    def __init__(self, console: Console, unit: str, total: int, description: str) -> None:
        self._progress = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn(unit),
            _Rate(unit), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
            console=console, speed_estimate_period=60.0)
        self._task = self._progress.add_task(description, total=total)
        self._progress.start()

    def advance(self, done: int) -> None:
        self._progress.advance(self._task, done)

    def close(self) -> None:
        self._progress.stop()


def clock(seconds: float) -> str:
    """1:05, 12:00, 1:02:03."""
    whole = int(round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class PlainLines:
    """``simulate: 300/1000 deals (30%), 61.2 deals/s, ETA 0:11`` on each 10 % step, or
    after 30 s without a line; the last line gives the total time."""

    def __init__(self, unit: str, total: int, description: str, out: IO[str], *,
                 now: Any = time.monotonic) -> None:
        self.unit, self.total, self.description, self.out = unit, total, description, out
        self._now = now
        self._start = self._last_time = now()
        self._done = 0
        self._last_step = 0

    def advance(self, done: int) -> None:
        self._done += done
        step = int(self._done / self.total / PLAIN_STEP) if self.total else 0
        if self._done >= self.total or step > self._last_step or self._now() - self._last_time >= PLAIN_INTERVAL:
            self._last_step = step
            self._line()

    def _line(self) -> None:
        now = self._now()
        self._last_time = now
        elapsed = now - self._start
        rate = self._done / elapsed if elapsed > 0 else 0.0
        head = f"{self.description}: {self._done}/{self.total} {self.unit} ({100 * self._done / self.total:.0f}%), {rate:.1f} {self.unit}/s"
        if self._done >= self.total:
            tail = f"done in {clock(elapsed)}"
        else:
            tail = f"ETA {clock((self.total - self._done) / rate)}" if rate > 0 else "ETA -"
        print(f"{head}, {tail}", file=self.out, flush=True)

    def close(self) -> None:
        pass
