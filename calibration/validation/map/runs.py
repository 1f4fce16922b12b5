"""The two-body FEM paths of the validity map: cached, parallel, resumable, failures recorded.

A :class:`FemPath` is everything one FEM run depends on (the bodies, friction, support, mesh
level and the load path's numbers), so its JSON is the key of the run in the
:class:`calibration.runs.store.CaseStore`, under a namespace that hashes the source of every
module this one imports (:mod:`meshes.digest`). This module imports the FEM only: how a spec's
axes become a path (through the laws' closed forms) lives in :mod:`calibration.validation.map.spec`,
and a change there or in a law does not invalidate a stored run.

A path that fails (a step that does not converge, contact leaving its window, any exception in
the worker) comes back with its reason and an empty or partial table; the map records it and goes
on. Failed paths are not stored: a rerun tries them again and computes nothing else that is done.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass

import numpy as np
from threadpoolctl import threadpool_limits
from tqdm import tqdm

from calibration.runs.executors import Executor, Inline, completed
from calibration.runs.provenance import versions
from calibration.runs.store import CaseStore
from fem.loadpath import LoadPath
from fem.twodisc import MAX_STEPS, STEPS_LIMIT, Disc, RigidFlat, TwoBody, check_touching
from meshes.checks import count
from meshes.digest import code_digest
from meshes.twodisc import contact_windows


@dataclass(frozen=True)
class FemPath:
    """One FEM run: the upper disc, the lower disc or a wall, friction, support, mesh level, and
    the load path (:meth:`fem.loadpath.LoadPath.build`'s arguments)."""

    upper: Disc
    lower: Disc | RigidFlat
    mu: float
    support: str
    level: int
    kind: str
    delta_n: float
    delta_t: float
    steps: int
    normal_steps: int
    cycles: int = 1

    def path(self) -> LoadPath:
        return LoadPath.build(self.kind, self.delta_n, self.delta_t, self.steps,
                              self.normal_steps, self.cycles)

    def check(self) -> None:
        """What :meth:`fem.twodisc.TwoBody.for_path` checks before it meshes, without meshing: the
        path's length, that the bodies touch at every step, that the contact windows fit on the
        arcs (:class:`~meshes.checks.InputError` otherwise)."""
        path = self.path()
        count("path steps", len(path), maximum=MAX_STEPS, why=STEPS_LIMIT)
        check_touching(self.upper, self.lower, path)
        contact_windows(float(path.delta_n.max()),
                        (float(path.delta_t.min()), float(path.delta_t.max())),
                        (self.lower.R, self.upper.R),
                        (self.lower.compliance, self.upper.compliance))

    def key(self) -> str:
        fields = {**asdict(self), "lower_body": type(self.lower).__name__}
        return json.dumps(fields, sort_keys=True)


def solver_namespace() -> str:
    """Identity of the code (this module and all it imports) and packages behind a stored run."""
    pinned = {k: v for k, v in versions().items() if k in ("scikit-fem", "gmsh", "numpy", "scipy")}
    return "map-" + code_digest(__name__, pinned)


def run_path(fem_path: FemPath) -> dict:
    """Worker task: one path, JSON-ready: the per-step table, why it stopped (or None), timings.

    Any exception is the path's failure (a map records it and goes on), with the time it took.
    """
    start = time.perf_counter()
    try:
        path = fem_path.path()
        with threadpool_limits(1):
            model = TwoBody.for_path(path, fem_path.upper, fem_path.lower, fem_path.mu,
                                     fem_path.support, fem_path.level)
            result = model.run(path, progress=False)
    except Exception as error:  # recorded per path; the map goes on
        return {"table": {}, "failure": f"{type(error).__name__}: {error}",
                "seconds": {"total": time.perf_counter() - start}}
    steps = result.info["step_seconds"]
    return {"table": result.table.to_dict("list"), "failure": result.failure,
            "seconds": {"total": time.perf_counter() - start,
                        "set-up": sum(model.timings.values()),
                        "per step": float(np.mean(steps)) if steps else None,
                        "steps": len(result.table), "nodes": model.nodes}}


def run_paths(paths: list[FemPath], executor: Executor = Inline(),
              store: CaseStore | None = None, progress: bool = True) -> dict[FemPath, dict]:
    """Every path's row (:func:`run_path`, plus ``reused``), computing on ``executor`` only those
    missing from ``store``; each finished path is stored at once (Ctrl-C keeps it)."""
    store = store or CaseStore(solver_namespace())
    wanted = list(dict.fromkeys(paths))
    stored = store.get([(p.key(),) for p in wanted])
    rows = {p: {**stored[(p.key(),)], "reused": True} for p in wanted if (p.key(),) in stored}
    todo = [p for p in wanted if p not in rows]
    with tqdm(total=len(todo), desc="map: two-body FEM", unit="path",
              disable=not progress) as bar:
        for (fem_path,), row in completed(run_path, [(p,) for p in todo], executor):
            if row["failure"] is None:  # a failed path is tried again by the next run
                store.put([((fem_path.key(),), row)])
            rows[fem_path] = {**row, "reused": False}
            bar.update(1)
    return rows
