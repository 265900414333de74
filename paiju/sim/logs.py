"""The log files of a `paiju simulate` run (``--log FILE``, ``.gz`` compresses).

Every unit in a log is its own stream: a ``unit`` event (seq 0) and then the unit's events
(seq 1, 2, …), so a unit's lines are the same whoever played it. Two layouts:

Each file is written under a temporary name beside it and renamed into place when the run
ends, finished or stopped (``tabletop.files``), so an existing FILE is replaced only by a
log of whole units.

- ``merged`` (default): FILE holds the header and then every unit in index order. Chunks
  are written as soon as all chunks before them are in, so the file is byte-identical
  for any ``--jobs`` and on Dask, and a stopped run leaves a valid prefix.
- ``workers``: one file per worker, FILE with ``-w0``, ``-w1``, … before its extension.
  Chunks are dealt round-robin — file ``w`` of ``P`` holds chunks ``w, w + P, w + 2P, …`` —
  so each file's content depends only on the seed, the count and P, never on which
  process happened to be free. Its header's options add ``part``, ``parts`` and
  ``index_ranges`` (half-open [start, stop) ranges of the unit indices it holds), which
  is what `paiju replay --check` replays.

The workers encode the log (``ChunkTask.log``); for ``.gz`` each unit is its own gzip
member, compressed in parallel and the same bytes whoever compressed it. This process
only appends the bytes, in order.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Sequence
from typing import Any

from tabletop.log import BlockWriter, is_compressed

from paiju.sim.batch import Chunk, ChunkOutput

LAYOUTS = ("merged", "workers")


def part_path(path: str, part: int, parts: int) -> str:
    """``runs/a.jsonl.gz`` → ``runs/a-w0.jsonl.gz`` (zero-padded when there are ten or more)."""
    directory, name = os.path.split(path)
    gz = ".gz" if name.endswith(".gz") and len(name) > 3 else ""
    stem, ext = os.path.splitext(name[: len(name) - len(gz)])
    width = len(str(parts - 1))
    return os.path.join(directory, f"{stem}-w{part:0{width}d}{ext}{gz}")


def index_ranges(chunks: Sequence[Chunk]) -> list[list[int]]:
    """The chunks' unit indices as half-open ranges, adjacent ones joined."""
    ranges: list[list[int]] = []
    for chunk in chunks:
        if ranges and ranges[-1][1] == chunk.start:
            ranges[-1][1] = chunk.stop
        else:
            ranges.append([chunk.start, chunk.stop])
    return ranges


class RunLogs:
    """Writes chunk outputs, which must arrive in chunk order, to the layout's files."""

    def __init__(self, path: str, layout: str, header: dict[str, Any], chunks: Sequence[Chunk], workers: int) -> None:
        if layout == "merged":
            plans = [(path, header)]
        else:
            parts = max(1, min(workers, len(chunks)))
            plans = [(part_path(path, w, parts), _part_header(header, w, parts, chunks[w::parts]))
                     for w in range(parts)]
        self.paths = [target for target, _ in plans]
        self.compressed = is_compressed(path)
        self._writers: list[BlockWriter] = []
        try:
            for target, part_header in plans:
                self._writers.append(BlockWriter(target, part_header))
        except BaseException:
            self.discard()
            raise
        self._next = 0

    def write(self, output: ChunkOutput) -> None:
        if output.chunk.number != self._next:
            raise ValueError(f"chunk {output.chunk.number} written out of order (expected {self._next})")
        self._writers[output.chunk.number % len(self._writers)].write_block(output.log)
        self._next += 1

    def close(self) -> bool:
        """Put in place every file that got a unit (the whole units played, in order; a
        stopped run's log is a valid prefix); a file that got none is not written, so a run
        stopped before its first unit leaves any earlier file as it was. True if any file
        was put in place."""
        replaced = False
        for writer in self._writers:
            if writer.blocks:
                writer.close()
                replaced = True
            else:
                writer.discard()
        return replaced

    def discard(self) -> None:
        """Write none of the files (a run that never started leaves nothing behind)."""
        for writer in self._writers:
            writer.discard()


def _part_header(header: dict[str, Any], part: int, parts: int, chunks: Sequence[Chunk]) -> dict[str, Any]:
    out = copy.deepcopy(header)
    out["options"] = {**out.get("options", {}), "part": part, "parts": parts, "index_ranges": index_ranges(chunks)}
    return out
