"""The two-disc FEM runs the validation compares every law with: cached, parallel, resumable.

Two load paths of Section 4.2 (case 1 ``hold-normal``, case 2 ``proportional``), both supports,
at two mesh levels (the finer one gives the curves, the coarser one their mesh convergence).
Each run is stored, table and traction profiles, in the :class:`hertz2d.calibration.runs.store.CaseStore`
under a namespace that hashes the source of every module this one imports (:mod:`hertz2d.meshes.digest`),
so a rerun or a run after Ctrl-C recomputes only what is missing and a changed solver recomputes
everything.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import partial

import pandas as pd
from threadpoolctl import threadpool_limits

from hertz2d.calibration.runs.cached import cached_results
from hertz2d.calibration.runs.executors import Executor, Inline
from hertz2d.calibration.runs.provenance import versions
from hertz2d.calibration.runs.store import CaseStore
from hertz2d.checks.loadpath import LoadPath
from hertz2d.fem.supports import SUPPORTS
from hertz2d.fem.twodisc import Disc, solve_two_disc
from hertz2d.meshes.digest import code_digest

CASES = {"case 1": "hold-normal", "case 2": "proportional"}


@dataclass(frozen=True)
class ValidationSettings:
    """The paper's second example (Section 4.2) and the meshes and steps it is run with."""

    R: float = 0.5
    E: float = 10e9
    nu: float = 0.25
    mu: float = 0.3
    delta_n: float = 0.025
    delta_t: float = 0.025
    steps: int = 50
    normal_steps: int = 10
    #: mesh levels to run; the curves use the finest, the others show its mesh convergence
    levels: tuple[int, ...] = (3, 4)

    @classmethod
    def quick(cls) -> "ValidationSettings":
        return cls(steps=25, normal_steps=5, levels=(2, 3))

    def path(self, case: str) -> LoadPath:
        return LoadPath.build(CASES[case], self.delta_n, self.delta_t, self.steps,
                              self.normal_steps)


@dataclass(frozen=True)
class FemRun:
    """One two-disc FEM run: which, and its per-step table and traction profiles."""

    case: str
    support: str
    level: int
    table: pd.DataFrame
    profiles: pd.DataFrame
    failure: str | None


def solver_namespace() -> str:
    """Identity of the code (this module and all it imports) and packages behind a stored run."""
    pinned = {k: v for k, v in versions().items() if k in ("scikit-fem", "gmsh", "numpy", "scipy")}
    return "twodisc-" + code_digest(__name__, pinned)


def _key(settings: ValidationSettings, case: str, support: str, level: int) -> tuple:
    physical = {k: v for k, v in asdict(settings).items() if k != "levels"}
    return (case, support, level, tuple(sorted(physical.items())))


def run_one(settings: ValidationSettings, case: str, support: str, level: int) -> dict:
    """Worker task: one path on one mesh; JSON-ready so it can be stored."""
    with threadpool_limits(1):
        result = solve_two_disc(settings.path(case), Disc(settings.R, settings.E, settings.nu),
                                mu=settings.mu, support=support, level=level, profiles=True,
                                progress=False)
    return {"table": result.table.to_dict("list"), "profiles": result.profiles.to_dict("list"),
            "failure": result.failure}


def fem_runs(settings: ValidationSettings, executor: Executor = Inline(),
             store: CaseStore | None = None, progress: bool = True) -> list[FemRun]:
    """Every (case, support, level) run, computing those missing from ``store`` on ``executor``."""
    wanted = [(case, support, level) for level in sorted(settings.levels, reverse=True)
              for case in CASES for support in SUPPORTS]
    key = partial(_key, settings)
    results = cached_results(wanted, lambda w: key(*w), store or CaseStore(solver_namespace()),
                             executor, partial(_run_group, settings), label="two-disc FEM",
                             progress=progress)
    runs = []
    for case, support, level in wanted:
        row, _ = results[key(case, support, level)]
        runs.append(FemRun(case, support, level, pd.DataFrame(row["table"]),
                           pd.DataFrame(row["profiles"]), row["failure"]))
    return runs


def _run_group(settings: ValidationSettings, group: tuple) -> list[dict]:
    """Worker task: the runs of ``group``, (case, support, level) each."""
    return [run_one(settings, *which) for which in group]
