"""The sweep engine: run half-round cases, in parallel, resumable, failures recorded.

Cases are grouped by mesh, one group per worker task (:mod:`hertz2d.calibration.penalty.cases`); a failed
case is recorded with ``status = "failed"`` and its reason, and the sweep goes on. Finished cases
go to a :class:`hertz2d.calibration.runs.store.CaseStore` as they arrive, so an interrupted sweep rerun
computes only what is missing.
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Callable

import pandas as pd

from hertz2d.calibration.penalty.cases import solve_group, solver_namespace
from hertz2d.calibration.penalty.spec import Case
from hertz2d.calibration.runs.cached import cached_results
from hertz2d.calibration.runs.executors import Executor, Inline
from hertz2d.calibration.runs.store import CaseStore
from hertz2d.calibration.runs.tables import read_table as checked_table
from hertz2d.fem.supports import SUPPORTS
from hertz2d.checks import InputError

COLUMNS = ["study", "support", "R", "a", "a_over_R", "E", "nu", "T", "level", "dofs", "u_x",
           "w_fem", "w_eq33", "u_z", "u_z_eq17", "uz_over_eq17", "status", "error", "seconds",
           "reused"]
#: columns that must hold finite numbers in every finished (``status == "ok"``) row
NUMERIC = ["R", "a", "a_over_R", "E", "nu", "T", "level", "dofs", "u_x", "w_fem", "w_eq33", "u_z",
           "u_z_eq17", "uz_over_eq17"]


def read_table(path: str | Path, name: str, columns: list[str], numeric: list[str],
               is_support: Callable[[str], bool], supports: str, command: str) -> pd.DataFrame:
    """A table of sweep rows, checked column by column before it is used (errors name ``name``).

    Every column of ``columns`` present (each once), ``status`` ok or failed, every ``support``
    accepted by ``is_support`` (``supports`` says which are, for the message), the ``numeric``
    columns finite in every finished row, and at least one finished case of the a/R x nu grid.
    """
    table = checked_table(path, name, columns, numeric, command,
                          rows=lambda rows: rows.status.astype(str) == "ok")
    where = f"{name}={str(path)!r}"
    bad_status = sorted(set(table.status.astype(str)) - {"ok", "failed"})
    if bad_status:
        raise InputError(f"{where}: status={bad_status[0]!r} is not one of ok, failed")
    bad_support = sorted(s for s in set(table.support.astype(str)) if not is_support(s))
    if bad_support:
        raise InputError(f"{where}: support={bad_support[0]!r} is not one of {supports}")
    if not ((table.study == "grid") & (table.status == "ok")).any():
        raise InputError(f"{where} has no finished cases of the a/R x nu grid")
    return table


def read_grid(path: str | Path) -> pd.DataFrame:
    """A ``grid.csv`` written by :func:`run_sweep`, checked column by column before it is used."""
    return read_table(path, "grid", COLUMNS, NUMERIC, SUPPORTS.__contains__, ", ".join(SUPPORTS),
                      "hertz2d sweep")


def _groups(cases: list[Case]) -> list[list[Case]]:
    by_mesh: dict[tuple, list[Case]] = defaultdict(list)
    for case in cases:
        by_mesh[(case.R, case.a, case.level)].append(case)
    # the finest meshes first, so the slowest tasks do not start last
    return sorted(by_mesh.values(), key=lambda g: (-g[0].level, g[0].a_over_R))


def run_cases(cases: list, groups: Callable[[list], list[list]],
              solve_group: Callable[[list], list[dict]], store: CaseStore, executor: Executor,
              progress: bool, label: str) -> list[dict]:
    """One row per case (in order), computing those missing from ``store`` on ``executor``.

    ``cases`` have a ``key`` (the computation's identity) and a ``study``; ``groups`` splits the
    missing ones into worker tasks, ``solve_group`` solves one task into a row per case.
    """
    results = cached_results(cases, lambda case: case.key, store, executor, solve_group, groups,
                             keep=lambda row: row["status"] == "ok", label=label, unit="case",
                             progress=progress)
    rows = []
    for case in cases:
        row, reused = results[case.key]
        rows.append({**row, "study": case.study, "reused": reused})
    return rows


def run_sweep(cases: list[Case], executor: Executor = Inline(), store: CaseStore | None = None,
              progress: bool = True) -> pd.DataFrame:
    """Rows for ``cases`` (in order), computing those missing from ``store`` on ``executor``."""
    rows = run_cases(cases, _groups, solve_group, store or CaseStore(solver_namespace()),
                     executor, progress, "half-round sweep")
    return pd.DataFrame(rows).reindex(columns=COLUMNS)
