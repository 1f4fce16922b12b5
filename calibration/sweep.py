"""The sweep engine: run half-round cases, in parallel, resumable, failures recorded.

Cases are grouped by mesh (R, a, level); a group is one task: its mesh is built and its stiffness
assembled once, then every material and support of the group only refactorises
(:class:`fem.halfround.HalfRoundBody`). Each case yields one tidy row with the Eq. 20 penalty factor
``w_fem``, Eq. 33's ``w_eq33`` and the Eq. 17 check of the normal load ``u_z / u_z_eq17`` from
the same factorisation. A case that raises is recorded with ``status = "failed"`` and its reason,
and the sweep goes on. Finished cases go to a :class:`calibration.store.CaseStore` as they arrive,
so an interrupted sweep rerun computes only what is missing.
"""
from __future__ import annotations

import math
import time
from collections import defaultdict

import pandas as pd
from threadpoolctl import threadpool_limits
from tqdm import tqdm

import calibration.penalty as penalty
import fem.elasticity
import fem.factor
import fem.halfround
import fem.loads
import fem.supports
import meshes.halfround
from calibration.parallel import completed
from calibration.provenance import versions
from calibration.spec import Case
from calibration.store import CaseStore, source_digest
from fem.halfround import HalfRoundBody

COLUMNS = ["study", "support", "R", "a", "a_over_R", "E", "nu", "T", "level", "dofs", "u_x",
           "w_fem", "w_eq33", "u_z", "u_z_eq17", "uz_over_eq17", "status", "error", "seconds",
           "reused"]


def solver_namespace() -> str:
    """Identity of the code and packages that compute a row (the store's namespace)."""
    modules = [meshes.halfround, fem.elasticity, fem.loads, fem.factor, fem.supports, fem.halfround,
               penalty]
    pinned = {k: v for k, v in versions().items() if k in ("scikit-fem", "gmsh", "qdldl", "numpy")}
    return "halfround-" + source_digest(modules, pinned)


def _row(case: Case, dofs: int, seconds: float, **values) -> dict:
    return {**case.as_row(), "dofs": int(dofs), "seconds": round(seconds, 4), **values}


def solve_case(body: HalfRoundBody, case: Case) -> dict:
    """One case on an assembled body: tangential and normal load from one factorisation."""
    start = time.perf_counter()
    try:
        compliance = body.compliance(case.E, case.nu, case.support)
        u_x, u_z = compliance.tangential * case.T, compliance.normal * case.T
        if not (math.isfinite(u_x) and math.isfinite(u_z)):
            raise FloatingPointError("the solve returned a non-finite displacement")
    except Exception as error:  # a sweep records the failure and goes on
        return _row(case, body.dofs, time.perf_counter() - start, status="failed",
                    error=f"{type(error).__name__}: {error}")
    geometry = (case.E, case.nu, case.R, case.a)
    u_z_eq17 = penalty.normal_displacement_eq17(case.T, *geometry)
    return _row(case, body.dofs, time.perf_counter() - start, status="ok", error="",
                u_x=u_x, w_fem=float(penalty.penalty_factor_from_displacement(u_x, case.T, *geometry)),
                w_eq33=float(penalty.penalty_factor_eq33(case.a_over_R, case.nu)),
                u_z=u_z, u_z_eq17=u_z_eq17, uz_over_eq17=u_z / u_z_eq17)


def solve_group(cases: list[Case]) -> list[dict]:
    """Worker task: every case of one mesh. A mesh or assembly failure fails the whole group."""
    with threadpool_limits(1):
        first = cases[0]
        start = time.perf_counter()
        try:
            body = HalfRoundBody(first.R, first.a, first.level)
        except Exception as error:  # recorded per case; the sweep goes on
            reason = f"mesh/assembly: {type(error).__name__}: {error}"
            return [_row(c, 0, time.perf_counter() - start, status="failed", error=reason)
                    for c in cases]
        return [solve_case(body, case) for case in cases]


def _groups(cases: list[Case]) -> list[list[Case]]:
    by_mesh: dict[tuple, list[Case]] = defaultdict(list)
    for case in cases:
        by_mesh[(case.R, case.a, case.level)].append(case)
    # the finest meshes first, so the slowest tasks do not start last
    return sorted(by_mesh.values(), key=lambda g: (-g[0].level, g[0].a_over_R))


def run_sweep(cases: list[Case], jobs: int = 1, store: CaseStore | None = None,
              progress: bool = True) -> pd.DataFrame:
    """Rows for ``cases`` (in order), computing only those missing from ``store``."""
    store = store or CaseStore(solver_namespace())
    unique = list({case.key: case for case in cases}.values())
    done = store.get([case.key for case in unique])
    todo = [case for case in unique if case.key not in done]
    fresh: dict[tuple, dict] = {}

    with tqdm(total=len(todo), unit="case", desc="half-round sweep", disable=not progress,
              mininterval=0.5) as bar:
        for (group,), rows in completed(solve_group, [(g,) for g in _groups(todo)], jobs):
            results = {case.key: row for case, row in zip(group, rows)}
            fresh.update(results)
            store.put([(k, r) for k, r in results.items() if r["status"] == "ok"])
            bar.update(len(rows))
    rows = []
    for case in cases:
        row = dict(fresh.get(case.key) or done[case.key])
        row.update(study=case.study, reused=case.key not in fresh)
        rows.append(row)
    return pd.DataFrame(rows).reindex(columns=COLUMNS)
