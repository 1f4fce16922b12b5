"""Run independent FEM tasks in worker processes and hand back each result as it finishes.

The sweep (half-round cases grouped by mesh) and the validation (two-disc load paths) both need
the same thing: results in completion order, so the caller can store each one at once, and on an
interruption no new task started. Tasks already running in a worker are let finish (on Ctrl-C
that can take ~10 s for a fine-mesh group): terminating the workers instead made the test
process die of SIGPIPE in some full-suite runs, so that was taken out. Every finished result was
yielded, and stored by the caller, before the interruption.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context


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
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"))
    try:
        futures = {pool.submit(function, *task): task for task in tasks}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
