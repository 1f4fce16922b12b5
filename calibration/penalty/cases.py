"""The worker task of the half-round sweep: every case of one mesh, one row per case.

Cases are grouped by mesh (R, a, level); a group is one task: its mesh is built and its stiffness
assembled once, then all Poisson ratios of a support are solved together by the reduced parametric
solve, each within a guaranteed bound of the direct solve (:meth:`HalfRoundBody.sweep_poisson`).
Each case yields one tidy row with the Eq. 20 penalty factor ``w_fem``, Eq. 33's ``w_eq33`` and
the Eq. 17 check of the normal load ``u_z / u_z_eq17`` from the same solve. A case that raises is
recorded with ``status = "failed"`` and its reason.

This module is the root of the code digest that names the sweep's cached rows
(:func:`solver_namespace`): whatever it imports, at any depth, is part of a row's identity.
"""
from __future__ import annotations

import math
import time

from threadpoolctl import threadpool_limits

from hertz2d.calibration.laws import closed_forms
from hertz2d.calibration.penalty.spec import Case
from hertz2d.calibration.runs.provenance import versions
from hertz2d.fem.halfround import HalfRoundBody
from hertz2d.meshes.digest import code_digest


def solver_namespace() -> str:
    """Identity of the code and packages that compute a row (the store's namespace)."""
    pinned = {k: v for k, v in versions().items() if k in ("scikit-fem", "gmsh", "qdldl", "numpy")}
    return "halfround-" + code_digest(__name__, pinned)


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
    u_z_eq17 = closed_forms.normal_displacement_eq17(case.T, *geometry)
    w_fem = closed_forms.penalty_factor_from_displacement(u_x, case.T, *geometry)
    return _row(case, body.dofs, time.perf_counter() - start, status="ok", error="",
                u_x=u_x, w_fem=float(w_fem),
                w_eq33=float(closed_forms.penalty_factor_eq33(case.a_over_R, case.nu)),
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
        for support in sorted({case.support for case in cases}):
            try:
                body.sweep_poisson([c.nu for c in cases if c.support == support], support)
            except Exception:  # solve_case then solves each case directly and records its error
                pass
        return [solve_case(body, case) for case in cases]
