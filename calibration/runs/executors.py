"""Where the FEM tasks run: in this process, in local worker processes, or on a dask cluster.

The sweep (half-round cases grouped by mesh), the validation (two-disc load paths) and the map
need the same thing, :func:`completed`: each task's result handed back as soon as it finishes,
so the caller stores it at once in the case store (:mod:`hertz2d.calibration.runs.store`, which stays on
the caller's machine: workers need no shared file system), and on an interruption (Ctrl-C, an
exception from a task, the caller closing the generator) no new task started. Every finished
result was yielded, and stored by the caller, before the interruption. Which executor ran a task
never changes its result, and the callers assemble their tables in their own order, not in
completion order, so a table is the same whichever executor made it.

The executors, opened by :func:`hertz2d.calibration.runs.executor_choice.open_executor` from ``--jobs`` /
``--scheduler`` and used as context managers (leaving the block frees the workers):

:class:`Inline` (``jobs == 1``)
    the tasks run here, one after the other, in order.
:class:`LocalPool` (``jobs > 1``; 2 is the default)
    spawned worker processes on this machine. On an interruption the tasks not started are
    cancelled and those running are let finish when the executor closes (on Ctrl-C that can take
    ~10 s for a fine-mesh group): terminating the workers instead made the test process die of
    SIGPIPE in some full-suite runs. No worker outlives its parent: each one watches its parent
    process and exits within :data:`PARENT_POLL` seconds of the parent's death, however it died
    (SIGKILL included, when no clean-up code of the parent can run); multiprocessing's resource
    tracker then removes the pool's semaphores without a note on the user's terminal
    (:data:`TRACKER_NOTES`). A worker's warnings are one line each, as the command line's.
:class:`hertz2d.calibration.runs.cluster.DaskCluster` (``--scheduler ADDRESS`` or ``$HERTZ2D_SCHEDULER``)
    the workers of an existing dask.distributed cluster; see that module.
"""
from __future__ import annotations

import os
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context

from hertz2d.calibration.runs.messages import one_line_warnings

#: seconds between a local worker's checks that its parent is alive
PARENT_POLL = 0.5


class Executor(ABC):
    """Runs independent tasks somewhere; a context manager that frees its workers on exit."""

    #: what runs the tasks, in words (recorded in ``run.json``)
    description: str

    @abstractmethod
    def results(self, function: Callable, tasks: Iterable[tuple]) -> Iterator[tuple[tuple, object]]:
        """Yield ``(task, function(*task))`` as the tasks finish (see :func:`completed`)."""

    def close(self) -> None:
        """Free the workers (the tasks still running finish first where they cannot be stopped)."""

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exception) -> None:
        self.close()


class Inline(Executor):
    """The tasks run in this process, in order (``--jobs 1``)."""

    description = "this process"

    def results(self, function, tasks):
        for task in tasks:
            yield task, function(*task)


#: the resource tracker's note, after a SIGKILL of the parent, that it removes the pool's
#: semaphores itself ("There appear to be 6 leaked semaphore objects to clean up at
#: shutdown"): its job done, not a fault for the user to act on; its only other warning, that
#: such a removal failed, concerns the same leftovers
TRACKER_NOTES = "ignore::UserWarning:multiprocessing.resource_tracker"


def _quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (if it is not running) with
    :data:`TRACKER_NOTES` filtered: it runs as a process of its own, outlives a killed parent
    and inherits its stderr, so its note would be the only raw line a killed run leaves."""
    from multiprocessing import resource_tracker

    previous = os.environ.get("PYTHONWARNINGS")
    os.environ["PYTHONWARNINGS"] = ",".join(filter(None, (previous, TRACKER_NOTES)))
    try:
        resource_tracker.ensure_running()
    finally:
        if previous is None:
            del os.environ["PYTHONWARNINGS"]
        else:
            os.environ["PYTHONWARNINGS"] = previous


def _start_worker(parent: int) -> None:
    """Worker initializer: warnings as one line each (:mod:`hertz2d.calibration.runs.messages`), and a
    daemon thread that ends the worker when ``parent`` is gone (:func:`_exit_with_parent`)."""
    one_line_warnings()
    _exit_with_parent(parent)


def _exit_with_parent(parent: int) -> None:
    """A daemon thread that ends this worker when ``parent`` is gone."""
    def watch():
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)  # reparented: the parent died without shutting the pool down

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class LocalPool(Executor):
    """``jobs`` spawned worker processes on this machine (``function`` and the tasks must pickle).

    The processes start with the first task, so a run whose tasks are all in the case store
    starts none.
    """

    def __init__(self, jobs: int):
        self.description = f"{jobs} local worker processes"
        _quiet_resource_tracker()
        self._pool = ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"),
                                         initializer=_start_worker, initargs=(os.getpid(),))

    def results(self, function, tasks):
        futures = {self._pool.submit(function, *task): task for task in tasks}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            for future in futures:
                future.cancel()  # the ones not started; a running one finishes on close()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def completed(function: Callable, tasks: Iterable[tuple],
              executor: Executor) -> Iterator[tuple[tuple, object]]:
    """Yield ``(task, function(*task))`` for every task, in the order they finish on ``executor``.

    An exception from a task is raised here; it, Ctrl-C, or the caller closing the generator
    cancels the tasks that have not started.
    """
    return executor.results(function, tasks)
