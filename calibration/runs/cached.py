"""Results kept in the case store, the missing ones computed on an executor.

One mechanism for every stage that runs expensive, cacheable work (half-round and confined-disc
sweeps, two-disc FEM paths, the validity map's FEM, DEM runs): look every item up in the
store, split the missing ones into worker tasks, and store each finished result as it arrives,
so that Ctrl-C keeps what finished and a failed item is tried again by the next run.
"""
from __future__ import annotations

from typing import Callable, Hashable, Iterable

from tqdm import tqdm

from hertz2d.calibration.runs.executors import Executor, completed
from hertz2d.calibration.runs.store import CaseStore


def no_failure(row: dict) -> bool:
    """The rows worth storing when a row says why it failed in ``failure``."""
    return row["failure"] is None


def cached_results(items: Iterable, key: Callable[[object], tuple], store: CaseStore,
                   executor: Executor, run_group: Callable[[tuple], list[dict]],
                   groups: Callable[[list], list[list]] | None = None,
                   keep: Callable[[dict], bool] = no_failure, label: str = "runs",
                   unit: str = "run", progress: bool = True,
                   describe: Callable[[tuple], str] | None = None) -> dict[Hashable, tuple]:
    """``{key(item): (row, reused)}`` for every item (items with one key are computed once).

    Rows come from ``store`` when it has ``key(item)``; the others are computed on ``executor``
    as ``run_group(group) -> one row per item``, the groups from ``groups(missing items)``
    (default: one item per task). Each finished row is stored at once when ``keep(row)``.
    ``describe(group)`` labels the progress bar with the task that finished last.
    """
    unique = {key(item): item for item in items}
    results = {k: (row, True) for k, row in store.get(list(unique)).items()}
    missing = [item for k, item in unique.items() if k not in results]
    tasks = [(tuple(group),) for group in (groups(missing) if groups else
                                           ([item] for item in missing))]
    with tqdm(total=len(missing), desc=label, unit=unit, disable=not progress,
              mininterval=0.5) as bar:
        for (group,), rows in completed(run_group, tasks, executor):
            finished = [(key(item), row) for item, row in zip(group, rows)]
            results.update((k, (row, False)) for k, row in finished)
            store.put([(k, row) for k, row in finished if keep(row)])
            if describe is not None:
                bar.set_postfix_str(describe(group), refresh=False)
            bar.update(len(group))
    return results
