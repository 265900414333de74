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
  The chunks are cut into ``P`` runs of consecutive chunks as even as can be — file ``w``
  of ``P`` holds the ``w``-th run — so each file's content depends only on the seed, the
  count and P, never on which process happened to be free, and its units are one range
  however long the run (a header listing every other chunk would grow with the count).
  Its header's options add ``part``, ``parts`` and ``index_ranges`` (half-open [start,
  stop) ranges of the unit indices it holds), which is what `paiju replay --check` replays.

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

from paiju.sim.batch import Chunk, ChunkOutput, ChunkPlan

LAYOUTS = ("merged", "workers")


def part_path(path: str, part: int, parts: int) -> str:
    """``runs/a.jsonl.gz`` → ``runs/a-w0.jsonl.gz`` (zero-padded when there are ten or more)."""
    directory, name = os.path.split(path)
    gz = ".gz" if name.endswith(".gz") and len(name) > 3 else ""
    stem, ext = os.path.splitext(name[: len(name) - len(gz)])
    width = len(str(parts - 1))
    return os.path.join(directory, f"{stem}-w{part:0{width}d}{ext}{gz}")


def index_ranges(chunks: Sequence[Chunk]) -> list[list[int]]:
    """The chunks' unit indices as half-open ranges, adjacent ones joined (a plan of
    consecutive chunks answers without going through them)."""
    if isinstance(chunks, ChunkPlan) and chunks.consecutive:
        return [[chunks[0].start, chunks[-1].stop]] if len(chunks) else []
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
            self._firsts = [0]
        else:
            parts = max(1, min(workers, len(chunks)))
            self._firsts = [len(chunks) * w // parts for w in range(parts + 1)]   # file w: chunks firsts[w] … firsts[w+1]-1
            plans = [(part_path(path, w, parts),
                      _part_header(header, w, parts, chunks[self._firsts[w]:self._firsts[w + 1]]))
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
        self._file = 0

    def write(self, output: ChunkOutput) -> None:
        if output.chunk.number != self._next:
            raise ValueError(f"chunk {output.chunk.number} written out of order (expected {self._next})")
        while self._file + 1 < len(self._writers) and self._next >= self._firsts[self._file + 1]:
            self._file += 1
        self._writers[self._file].write_block(output.log)
        self._next += 1

    def close(self) -> bool:
        """Put every file in place once any got a unit (the whole units played, in order; a
        stopped run's files are valid prefixes, a part not reached holds its header alone,
        so no file of an earlier run is left beside them); a run stopped before its first
        unit writes none, leaving any earlier files as they were. True if any file was put
        in place."""
        if not any(writer.blocks for writer in self._writers):
            self.discard()
            return False
        for writer in self._writers:
            writer.close()
        return True

    def discard(self) -> None:
        """Write none of the files (a run that never started leaves nothing behind)."""
        for writer in self._writers:
            writer.discard()


def _part_header(header: dict[str, Any], part: int, parts: int, chunks: Sequence[Chunk]) -> dict[str, Any]:
    out = copy.deepcopy(header)
    out["options"] = {**out.get("options", {}), "part": part, "parts": parts, "index_ranges": index_ranges(chunks)}
    return out
