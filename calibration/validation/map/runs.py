"""The two-body FEM paths of the validity map: cached, parallel, resumable, failures recorded.

A :class:`FemPath` is everything one FEM run depends on (the bodies, friction, support, mesh
level, the delta_t range the bodies are meshed for, and the load path's numbers), so its JSON is
the key of the run in the :class:`hertz2d.calibration.runs.store.CaseStore`, under a namespace that
hashes the source of every module this one imports (:mod:`hertz2d.meshes.digest`). This module imports
the FEM only: how a spec's axes become a path (through the laws' closed forms) lives in
:mod:`hertz2d.calibration.validation.map.spec`, and a change there or in a law does not invalidate a
stored run.

The paths that share their meshed bodies (:meth:`FemPath.bodies_key`: the load paths of one
case) are one task, :func:`run_group`: meshing, assembly and factorisation, about 0.3 s a case at
the map's level and more than the load steps of its three paths take (benchmarks/map.py), are
done once for them.

A path that fails (a step that does not converge, contact leaving its window, any exception in
the worker) comes back with its reason and an empty or partial table; the map records it and goes
on. Failed paths are not stored: a rerun tries them again and computes nothing else that is done.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass

import numpy as np

from hertz2d.calibration.runs.cached import cached_results
from hertz2d.calibration.runs.executors import Executor, Inline
from hertz2d.calibration.runs.provenance import versions
from hertz2d.calibration.runs.store import CaseStore
from hertz2d.checks.loadpath import REVERSALS, LoadPath
from hertz2d.fem.threads import one_blas_thread
from hertz2d.fem.twodisc import MAX_STEPS, STEPS_LIMIT, Disc, RigidFlat, TwoBody, check_touching
from hertz2d.checks import InputError, count
from hertz2d.meshes.digest import code_digest
from hertz2d.meshes.twodisc import contact_windows


@dataclass(frozen=True)
class FemPath:
    """One FEM run: the upper disc, the lower disc or a wall, friction, support, mesh level, and
    the load path (:meth:`hertz2d.checks.loadpath.LoadPath.build`'s arguments)."""

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
    #: the (min, max) delta_t the bodies are meshed for (the contact windows); it covers the
    #: path's own range, and that of the other paths meshed with it (:func:`run_group`)
    window: tuple[float, float]
    cycles: int = 1
    #: the approach's relative swing (``coupled-cycle`` and the kinds of
    #: :data:`hertz2d.checks.loadpath.SWINGING`); 0 for the other kinds
    normal_swing: float = 0.0
    #: the largest approach the bodies are meshed for (the path's own, and its siblings'); None:
    #: ``delta_n``
    mesh_approach: float | None = None
    #: a ``random-walk``'s generator seed and minor reversals per half period
    seed: int = 0
    reversals: int = REVERSALS

    def path(self) -> LoadPath:
        return LoadPath.build(self.kind, self.delta_n, self.delta_t, self.steps,
                              self.normal_steps, self.cycles, normal_swing=self.normal_swing,
                              seed=self.seed, reversals=self.reversals)

    @property
    def meshed_for(self) -> float:
        """The approach the contact windows are sized for."""
        return self.delta_n if self.mesh_approach is None else self.mesh_approach

    def check(self) -> None:
        """What :meth:`hertz2d.fem.twodisc.TwoBody.for_path` checks before it meshes, without meshing: the
        path's length, that the bodies touch at every step, that the window covers the path and
        that the contact windows fit on the arcs (:class:`~hertz2d.checks.InputError`
        otherwise)."""
        path = self.path()
        count("path steps", len(path), maximum=MAX_STEPS, why=STEPS_LIMIT)
        check_touching(self.upper, self.lower, path)
        slack = 1e-9 * (self.window[1] - self.window[0])  # the ramps' rounding
        if (path.delta_t.min() < self.window[0] - slack
                or path.delta_t.max() > self.window[1] + slack):
            raise InputError(f"window={self.window!r} does not cover the path's delta_t")
        if path.delta_n.max() > self.meshed_for * (1 + 1e-9):
            raise InputError(f"mesh_approach={self.meshed_for!r} is below the path's largest "
                             f"approach {path.delta_n.max()!r}")
        contact_windows(self.meshed_for, self.window, (self.lower.R, self.upper.R),
                        (self.lower.compliance, self.upper.compliance))

    def bodies_key(self) -> tuple:
        """What the meshed, condensed bodies depend on: paths with one key share them."""
        return (self.upper, self.lower, self.mu, self.support, self.level, self.meshed_for,
                self.window)

    def key(self) -> str:
        fields = {**asdict(self), "lower_body": type(self.lower).__name__}
        return json.dumps(fields, sort_keys=True)


def solver_namespace() -> str:
    """Identity of the code (this module and all it imports) and packages behind a stored run."""
    pinned = {k: v for k, v in versions().items() if k in ("scikit-fem", "gmsh", "numpy", "scipy")}
    return "map-" + code_digest(__name__, pinned)


def _failed(reason: str, seconds: float) -> dict:
    return {"table": {}, "failure": reason, "seconds": {"total": seconds}}


def run_group(paths: tuple[FemPath, ...]) -> list[dict]:
    """Worker task: paths of one :meth:`FemPath.bodies_key`, on bodies meshed once; per path a
    JSON-ready row: the per-step table, why it stopped (or None), timings (each path's share of
    the set-up, its steps).

    Any exception is the failure of the path it happened in (of every path, in the set-up); the
    map records it and goes on.
    """
    first, start = paths[0], time.perf_counter()
    try:
        with one_blas_thread():
            model = TwoBody(first.upper, first.lower, first.mu, first.support, first.meshed_for,
                            first.window, first.level)
    except Exception as error:  # recorded per path; the map goes on
        share = (time.perf_counter() - start) / len(paths)
        return [_failed(f"set-up: {type(error).__name__}: {error}", share) for _ in paths]
    setup = sum(model.timings.values()) / len(paths)
    rows = []
    for fem_path in paths:
        begun = time.perf_counter()
        try:
            path = fem_path.path()
            count("path steps", len(path), maximum=MAX_STEPS, why=STEPS_LIMIT)
            with one_blas_thread():
                result = model.run(path, progress=False)
        except Exception as error:  # recorded per path; the map goes on
            rows.append(_failed(f"{type(error).__name__}: {error}",
                                setup + time.perf_counter() - begun))
            continue
        steps = result.info["step_seconds"]
        rows.append({"table": result.table.to_dict("list"), "failure": result.failure,
                     "seconds": {"total": setup + time.perf_counter() - begun, "set-up": setup,
                                 "per step": float(np.mean(steps)) if steps else None,
                                 "steps": len(result.table), "nodes": model.nodes}})
    return rows


def run_paths(paths: list[FemPath], executor: Executor = Inline(),
              store: CaseStore | None = None, progress: bool = True) -> dict[FemPath, dict]:
    """Every path's row (:func:`run_group`'s, plus ``reused``), computing on ``executor`` only
    those missing from ``store``, one task per group of paths on the same bodies; each finished
    path is stored at once (Ctrl-C keeps it)."""
    results = cached_results(paths, _store_key, store or CaseStore(solver_namespace()),
                             executor, run_group, _same_bodies, label="map: two-body FEM",
                             unit="path", progress=progress)
    rows = {}
    for fem_path in paths:
        row, reused = results[_store_key(fem_path)]
        rows[fem_path] = {**row, "reused": reused}
    return rows


def _store_key(fem_path: FemPath) -> tuple:
    return (fem_path.key(),)


def _same_bodies(paths: list[FemPath]) -> list[list[FemPath]]:
    """One task per group of paths on the same bodies (meshed once)."""
    groups: dict[tuple, list[FemPath]] = {}
    for fem_path in paths:
        groups.setdefault(fem_path.bodies_key(), []).append(fem_path)
    return list(groups.values())
