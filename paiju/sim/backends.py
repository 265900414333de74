"""Where chunks are played: in this process, in a pool of local processes, or on a Dask
cluster. Each backend only submits a task and waits for any task to finish; `completed`
drives all three the same way, with a bounded window of chunks in flight."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from tabletop.errors import OptionError

from paiju.sim.batch import ChunkOutput, ChunkTask, adapter, play_chunk

if TYPE_CHECKING:
    from concurrent import futures

DASK_HINT = "--cluster needs Dask: pip install 'paiju[cluster]'"
NO_DASHBOARD = {"dashboard_address": None,
                "scheduler_kwargs": {"dashboard": False, "dashboard_address": "127.0.0.1:0"}}
"""LocalCluster options: no dashboard, and its scheduler's small HTTP server on a free
local port (not :8787, which another cluster may hold)."""
WINDOW_PER_WORKER = 4
"""Chunks in flight per worker: enough to hide the round trip, few enough that the
out-of-order chunks waiting for the ordered writer stay a handful."""


class Backend(Protocol):
    workers: int
    """How many chunks it plays at once."""
    window: int
    """How many chunks may be submitted ahead of the lowest unfinished one."""
    description: str
    name: str
    """'process', 'processes' or 'dask' (for the summary file)."""

    def submit(self, task: ChunkTask) -> Any: ...
    def wait_any(self, pending: Sequence[Any]) -> Iterable[Any]: ...
    def close(self) -> None: ...


def completed(backend: Backend, tasks: Iterable[ChunkTask]) -> Iterator[ChunkOutput]:
    """Outputs as the chunks finish (any order). ``tasks`` is read as it is needed (a run
    of 10⁹ deals is never listed whole): the ``n``-th task is taken and submitted only once
    every task before ``n - window`` has finished, so memory stays bounded even behind a slow chunk."""
    window = backend.window
    upcoming = iter(tasks)
    pending: dict[Any, int] = {}
    finished: set[int] = set()
    lowest = submitted = 0  # lowest unfinished task; next task to submit (places in submission order)
    more = True
    while True:
        while more and submitted < lowest + window:
            task = next(upcoming, None)
            if task is None:
                more = False
                break
            pending[backend.submit(task)] = submitted
            submitted += 1
        if not pending:
            return
        for future in backend.wait_any(list(pending)):
            number = pending.pop(future)
            output = future.result()
            finished.add(number)
            yield output
        while lowest in finished:
            finished.remove(lowest)
            lowest += 1


# ---------------------------------------------------------------------------------------------

class Played:
    """A chunk played already: what ``InProcess.submit`` gives instead of a
    ``concurrent.futures.Future`` (whose import, with logging's, a one-process run need not pay)."""

    __slots__ = ("_output", "_error")

    def __init__(self, output: ChunkOutput | None, error: Exception | None = None) -> None:
        self._output = output
        self._error = error

    def result(self) -> ChunkOutput:
        if self._error is not None:
            raise self._error
        assert self._output is not None
        return self._output


class InProcess:
    """``--jobs 1``: play each chunk here, when it is submitted."""

    name = "process"
    workers = 1
    window = 1
    description = "in one process"

    def submit(self, task: ChunkTask) -> Played:
        try:
            return Played(play_chunk(task))
        except Exception as exc:
            return Played(None, exc)

    def wait_any(self, pending: Sequence[Any]) -> Iterable[Any]:
        return pending

    def close(self) -> None:
        pass


def _start_worker(game: str) -> None:
    # The workers are the parent's to stop. In a process group of their own, the signals a
    # terminal (Ctrl-C, a hang-up), `timeout` or a job scheduler sends to the whole group
    # reach only the parent, which stops the run and lets each worker finish its chunk,
    # instead of every worker printing a traceback or dying mid-chunk; the pool itself can
    # still end them (SIGTERM); a worker whose parent is gone ends at once.
    if hasattr(os, "setpgid"):
        os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):   # a forked worker inherits the parent's handlers: its own are the defaults
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) != signal.SIG_IGN:   # nohup's stays
            signal.signal(number, signal.SIG_DFL)
    end_with_parent()
    adapter(game)  # import the engines now, not inside the first chunk


PARENT_POLL_SECONDS = 0.25
PR_SET_PDEATHSIG = 1   # linux/prctl.h


def end_with_parent() -> None:
    """End this worker process when its parent ends, however it ends (even by SIGKILL, which
    no cleanup survives): on Linux the kernel sends SIGKILL when the parent goes
    (prctl PR_SET_PDEATHSIG); everywhere, a daemon thread ends the process once it has a
    new parent (an orphan is re-parented)."""
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):   # no libc prctl: the watchdog alone
            pass
    threading.Thread(target=_watch_parent, args=(parent,), name="paiju-parent-watch", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(EXIT_ORPHANED)


EXIT_ORPHANED = 143
"""A worker's exit status when its parent is gone (as if ended by SIGTERM)."""


def _context() -> Any:
    """fork (instant: the workers inherit the imported engines) when this process runs no
    other thread — forking a threaded process can deadlock the child; else forkserver
    (workers fork from a clean server that preloads the worker module), else spawn."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    if sys.platform.startswith("linux") and "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["paiju.sim.batch"])
        return context
    return multiprocessing.get_context("spawn")


class LocalProcesses:
    """``--jobs N``: a pool of N worker processes."""

    name = "processes"

    def __init__(self, workers: int, game: str) -> None:
        from concurrent import futures   # here: a one-process run does not import it

        self._futures = futures
        self.workers = workers
        self.window = workers * WINDOW_PER_WORKER
        self.description = f"on {workers} local processes"
        self._pool = futures.ProcessPoolExecutor(workers, mp_context=_context(), initializer=_start_worker,
                                                 initargs=(game,))
        # Start the workers now, before the progress display starts its thread.
        self._pool.submit(int).result()

    def submit(self, task: ChunkTask) -> futures.Future:
        return self._pool.submit(play_chunk, task)

    def wait_any(self, pending: Sequence[Any]) -> Iterable[Any]:
        return self._futures.wait(pending, return_when=self._futures.FIRST_COMPLETED).done

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


# ---------------------------------------------------------------------------------------------

def import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise OptionError(DASK_HINT) from None
    return distributed


class Dask:
    """``--cluster ADDRESS``: an existing scheduler; ``--cluster local``: a LocalCluster of
    ``jobs`` (default 2) single-threaded worker processes, closed again at the end."""

    name = "dask"

    def __init__(self, address: str, jobs: int | None, *, connect_timeout: float = 10.0) -> None:
        distributed = import_distributed()
        self._distributed = distributed
        self._cluster = None
        if address == "local":
            self._cluster = distributed.LocalCluster(n_workers=jobs or 2, threads_per_worker=1, processes=True,
                                                     **NO_DASHBOARD)
            self._client = distributed.Client(self._cluster)
            where = "a Dask LocalCluster"
        else:
            try:
                self._client = distributed.Client(address, timeout=connect_timeout)
            except Exception as exc:  # OSError, TimeoutError, ValueError for a bad address
                message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise OptionError(f"--cluster: cannot reach a Dask scheduler at {address!r}: {message}") from None
            where = f"the Dask scheduler at {address}"
        threads = sum(self._client.nthreads().values())
        if threads == 0:
            self.close()
            raise OptionError(f"--cluster: {where} has no workers")
        self.workers = jobs or threads
        self.window = self.workers * WINDOW_PER_WORKER
        self.description = f"on {where} ({threads} worker thread{'s' if threads != 1 else ''})"

    def submit(self, task: ChunkTask) -> Any:
        return self._client.submit(play_chunk, task, pure=False)

    def wait_any(self, pending: Sequence[Any]) -> Iterable[Any]:
        return self._distributed.wait(pending, return_when="FIRST_COMPLETED").done

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def open_backend(cluster: str | None, jobs: int | None, count: int, game: str) -> Backend:
    """The backend for ``--cluster``/``--jobs``; a local pool never has more processes
    than units (every chunk plan has at least min(count, workers) chunks)."""
    if cluster is not None:
        return Dask(cluster, jobs)
    workers = min(jobs or 1, count)
    return LocalProcesses(workers, game) if workers > 1 else InProcess()
