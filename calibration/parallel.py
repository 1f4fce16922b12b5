"""Run independent FEM tasks in worker processes and hand back each result as it finishes.

The sweep (half-round cases grouped by mesh) and the validation (two-disc load paths) both need
the same thing: results in completion order, so the caller can store each one at once, and an
interruption that stops everything now. ``ProcessPoolExecutor`` on its own waits, on Ctrl-C, for
every task already handed to a worker (a whole fine-mesh group, ~10 s); :func:`completed`
terminates those workers instead. Nothing is lost by that: every finished result was yielded,
and stored by the caller, before the interruption.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context


def completed(function: Callable, tasks: Iterable[tuple], jobs: int) -> Iterator[tuple[tuple, object]]:
    """Yield ``(task, function(*task))`` for every task, in the order they finish.

    ``jobs == 1`` runs the tasks here, in order; otherwise in ``jobs`` spawned processes
    (``function`` and the tasks must pickle). An exception from a task, Ctrl-C, or the caller
    closing the generator cancels the pending tasks and terminates the running ones.
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
    except BaseException:
        _terminate(pool)
        raise
    pool.shutdown(wait=True)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and kill what has (no public API for that before 3.14)."""
    workers = list((pool._processes or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join()
