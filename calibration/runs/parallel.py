"""Run independent FEM tasks in worker processes and hand back each result as it finishes.

The sweep (half-round cases grouped by mesh) and the validation (two-disc load paths) both need
the same thing: results in completion order, so the caller can store each one at once, and on an
interruption no new task started. Tasks already running in a worker are let finish (on Ctrl-C
that can take ~10 s for a fine-mesh group): terminating the workers instead made the test
process die of SIGPIPE in some full-suite runs. Every finished result was yielded, and stored by
the caller, before the interruption.

No worker outlives its parent: each one watches its parent process and exits within
:data:`PARENT_POLL` seconds of the parent's death, however it died (SIGKILL included, when no
clean-up code of the parent can run).
"""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context

#: seconds between a worker's checks that its parent is alive
PARENT_POLL = 0.5


def _exit_with_parent(parent: int) -> None:
    """Worker initializer: a daemon thread that ends the worker when ``parent`` is gone."""
    def watch():
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)  # reparented: the parent died without shutting the pool down

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def completed(function: Callable, tasks: Iterable[tuple], jobs: int) -> Iterator[tuple[tuple, object]]:
    """Yield ``(task, function(*task))`` for every task, in the order they finish.

    ``jobs == 1`` runs the tasks here, in order; otherwise in ``jobs`` spawned processes
    (``function`` and the tasks must pickle). An exception from a task, Ctrl-C, or the caller
    closing the generator cancels the tasks that have not started.
    """
    if jobs == 1:
        for task in tasks:
            yield task, function(*task)
        return
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"),
                               initializer=_exit_with_parent, initargs=(os.getpid(),))
    try:
        futures = {pool.submit(function, *task): task for task in tasks}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
