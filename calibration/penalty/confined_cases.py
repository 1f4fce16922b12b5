"""The confined-disc cases of the penalty stage: the spec's ``[confined]`` table, the worker task.

A full disc held by K contacts (:mod:`hertz2d.fem.confined`) on the spec's a/R x nu ``[grid]``, with the
``[base]`` case's R, E and T, for each K of the table; the table's keys:

``K``
    contact counts, each >= 2 (e.g. ``[2, 3, 4]``);
``N``
    the normal resultant on every flat (w does not depend on it: the normal loads are symmetric
    about contact 1's axis and the problem is linear);
``level``
    the mesh level of the grid cases (:mod:`hertz2d.meshes.fulldisc`);
``convergence``
    mesh levels run at the base case's a/R and nu, for every K (optional);
``trend``
    contact counts run at the base case's a/R and nu and the grid's level (study ``contacts``:
    how w changes as K grows; optional);
``mirror``
    also run K = 2 with the mirrored traction, which is the ``symmetric`` half-round body as a
    full disc (optional, default true).

The tangential load is balanced by the other contacts (``contacts``, minimum-norm resultants) when
K >= 3 and by the inertia force of the free disc (``relief``) at K = 2, where the opposite contact
alone cannot balance force and moment. A case's ``support`` names it in the tables:
``confined-<K>``, and ``mirror-2`` for the mirrored check.

Each case is one solve; cases are grouped by mesh (R, a, K, level), one group per worker task,
ordered by nu so that each nu is factorised once. A case that raises is recorded with
``status = "failed"`` and its reason. This module is the root of the code digest that names the
cached rows (:func:`solver_namespace`).
"""
from __future__ import annotations

import math
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, replace

from threadpoolctl import threadpool_limits

from hertz2d.calibration.laws import closed_forms
from hertz2d.calibration.runs import spec_file
from hertz2d.calibration.runs.provenance import versions
from hertz2d.fem.confined import ConfinedDisc
from hertz2d.checks import InputError, count, positive
from hertz2d.meshes.digest import code_digest
from hertz2d.meshes.fulldisc import LEVEL_LIMIT, MAX_LEVEL, check_contacts
from hertz2d.meshes.halfround import check_geometry

#: the support name of the mirrored K = 2 check
MIRROR = "mirror-2"


@dataclass(frozen=True)
class ConfinedCase:
    """One full-disc case: K contacts, a tangential balance, geometry, material, loads, level."""

    study: str
    K: int
    balance: str
    R: float
    a: float
    E: float
    nu: float
    T: float
    N: float
    level: int

    @property
    def a_over_R(self) -> float:
        return self.a / self.R

    @property
    def support(self) -> str:
        return MIRROR if self.balance == "mirror" else f"confined-{self.K}"

    @property
    def key(self) -> tuple:
        """Identity of the computation (the study label does not change the numbers)."""
        return (self.K, self.balance, self.R, self.a, self.E, self.nu, self.T, self.N,
                self.level)

    def as_row(self) -> dict:
        return {"study": self.study, "support": self.support,
                **{k: v for k, v in asdict(self).items() if k != "study"},
                "a_over_R": self.a_over_R}


def balance_for(K: int) -> str:
    """The packing's balance of a tangential force: the other contacts, or inertia at K = 2."""
    return "relief" if K == 2 else "contacts"


def _checked(case: ConfinedCase) -> ConfinedCase:
    check_geometry(case.R, case.a)
    check_contacts(case.K, case.a_over_R)
    positive("E", case.E), positive("T", case.T), positive("N", case.N)
    count("level", case.level, minimum=0, maximum=MAX_LEVEL, why=LEVEL_LIMIT)
    return case


def expand_confined(spec: dict) -> list[ConfinedCase]:
    """The cases of a parsed spec's ``[confined]`` table (none without one), validated."""
    table = spec_file.table(spec, "confined", required=False)
    if not table:
        return []
    spec_file.require_keys("confined", table, {"K", "N", "level"},
                           {"convergence", "trend", "mirror"})
    base = spec_file.table(spec, "base")
    grid = spec_file.table(spec, "grid")
    spec_file.require_keys("grid", grid, {"a_over_R", "nu"})
    mirror = table.get("mirror", True)
    if not isinstance(mirror, bool):
        raise InputError(f"[confined] mirror={mirror!r} is not true or false")
    R, E, T, nu = (spec_file.number("base", k, base[k]) for k in ("R", "E", "T", "nu"))
    template = ConfinedCase("grid", 2, "relief", R, spec_file.number("base", "a", base["a"]), E,
                            nu, T, spec_file.number("confined", "N", table["N"]),
                            spec_file.integer("confined", "level", table["level"]))
    variants = [(K, balance_for(K)) for K in spec_file.integers("confined", "K", table["K"])]
    if mirror:
        variants.append((2, "mirror"))
    cases = [replace(template, K=K, balance=balance, a=x * R, nu=n)
             for K, balance in variants
             for x in spec_file.numbers("grid", "a_over_R", grid["a_over_R"])
             for n in spec_file.numbers("grid", "nu", grid["nu"])]
    if "convergence" in table:
        cases += [replace(template, study="convergence", K=K, balance=balance, level=level)
                  for K, balance in variants
                  for level in spec_file.integers("confined", "convergence",
                                                  table["convergence"])]
    if "trend" in table:
        cases += [replace(template, study="contacts", K=K, balance=balance_for(K))
                  for K in spec_file.integers("confined", "trend", table["trend"])]
    return [_checked(case) for case in cases]


def solver_namespace() -> str:
    """Identity of the code and packages that compute a row (the store's namespace)."""
    pinned = {k: v for k, v in versions().items() if k in ("scikit-fem", "gmsh", "qdldl", "numpy")}
    return "confined-" + code_digest(__name__, pinned)


def groups(cases: list[ConfinedCase]) -> list[list[ConfinedCase]]:
    """Cases by mesh, each group ordered by nu (one factorisation per nu); finest meshes first."""
    by_mesh: dict[tuple, list[ConfinedCase]] = defaultdict(list)
    for case in cases:
        by_mesh[(case.R, case.a, case.K, case.level)].append(case)
    ordered = [sorted(group, key=lambda c: (c.nu, c.balance)) for group in by_mesh.values()]
    return sorted(ordered, key=lambda g: (-g[0].level, -g[0].K, g[0].a_over_R))


def _row(case: ConfinedCase, dofs: int, seconds: float, **values) -> dict:
    return {**case.as_row(), "dofs": int(dofs), "seconds": round(seconds, 4), **values}


def solve_case(disc: ConfinedDisc, case: ConfinedCase) -> dict:
    """One case on an assembled disc: contact 1's displacement, w from Eq. 20, Eq. 17's check."""
    start = time.perf_counter()
    try:
        response = disc.response(case.E, case.nu, case.balance, case.T, case.N)
        values = (response.u_t, response.u_t_mean_axes, response.approach)
        if not all(map(math.isfinite, values)):
            raise FloatingPointError("the solve returned a non-finite displacement")
    except Exception as error:  # a sweep records the failure and goes on
        return _row(case, disc.dofs, time.perf_counter() - start, status="failed",
                    error=f"{type(error).__name__}: {error}")
    geometry = (case.E, case.nu, case.R, case.a)
    approach_eq17 = closed_forms.normal_displacement_eq17(case.N, *geometry)
    return _row(
        case, disc.dofs, time.perf_counter() - start, status="ok", error="",
        u_t=response.u_t, u_t_mean_axes=response.u_t_mean_axes,
        w_fem=float(closed_forms.penalty_factor_from_displacement(response.u_t, case.T,
                                                                   *geometry)),
        w_mean_axes=float(closed_forms.penalty_factor_from_displacement(
            response.u_t_mean_axes, case.T, *geometry)),
        w_eq33=float(closed_forms.penalty_factor_eq33(case.a_over_R, case.nu)),
        approach=response.approach, approach_eq17=approach_eq17,
        approach_over_eq17=response.approach / approach_eq17,
        reaction=response.reaction, imbalance=response.imbalance)


def solve_group(cases: list[ConfinedCase]) -> list[dict]:
    """Worker task: every case of one mesh. A mesh or assembly failure fails the whole group."""
    with threadpool_limits(1):
        first = cases[0]
        start = time.perf_counter()
        try:
            disc = ConfinedDisc(first.R, first.a, first.K, first.level)
        except Exception as error:  # recorded per case; the sweep goes on
            reason = f"mesh/assembly: {type(error).__name__}: {error}"
            return [_row(c, 0, time.perf_counter() - start, status="failed", error=reason)
                    for c in cases]
        return [solve_case(disc, case) for case in cases]
