"""The progress bar on a terminal (``paiju.progress.start_progress``): rich's, with the rate
in the run's unit; apart so that a run with no bar shown does not load it."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.text import Text


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
            _Rate(unit), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), TextColumn("{task.fields[note]}"),
            console=console, speed_estimate_period=60.0)
        self._task = self._progress.add_task(description, total=total, note="")
        self._progress.start()

    def advance(self, done: int, note: str | None = None) -> None:
        if note is not None:
            self._progress.update(self._task, note=note)
        self._progress.advance(self._task, done)

    def close(self) -> None:
        self._progress.stop()
