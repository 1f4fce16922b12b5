"""Half-round FEM performance: per mesh level, and the default grid sweep.

Prints one table per measurement (run: ``python benchmarks/halfround.py [--max-level 4]``):

1. per level at the paper's baseline (a/R = 0.05, nu = 0.25, clamped): gmsh meshing (cold
   cache), assembly (basis, K_lambda and K_mu, loads), the time per case of a sweep over nu on that
   mesh solved directly (factorisation + solves; the first case, which also does the symbolic
   analysis, is shown apart), the same sweep by the reduced parametric solve
   (:meth:`hertz2d.fem.halfround.HalfRoundBody.sweep_poisson`, all ratios together), DOFs and
   |w - w(finest)|;
2. the factorisation alone at the default level: qdldl with a reused pattern against SuperLU;
3. the wall time of the default a/R x nu grid (both supports) with 1 and 2 worker processes,
   with an empty case store and warm / cold mesh caches.
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import scipy.sparse.linalg as spl

POISSONS = (0.0, 0.1, 0.2, 0.25, 0.3, 0.4, 0.45, 0.49)


def fresh_cache() -> None:
    os.environ["HERTZ2D_CACHE"] = tempfile.mkdtemp(prefix="hertz2d-bench-")


def per_level(max_level: int) -> None:
    from hertz2d.calibration.laws.closed_forms import penalty_factor_from_displacement
    from hertz2d.fem.halfround import HalfRoundBody
    from hertz2d.meshes.halfround import half_round_mesh

    fresh_cache()
    R, a, E, nu = 0.5, 0.025, 10e9, 0.25
    rows = []
    for level in range(max_level + 1):
        start = time.perf_counter()
        half_round_mesh(R, a, level)
        mesh_s = time.perf_counter() - start
        start = time.perf_counter()
        body = HalfRoundBody(R, a, level)  # mesh now cached: this is basis + assembly + loads
        assembly_s = time.perf_counter() - start
        case_s = []
        for poisson in POISSONS:
            start = time.perf_counter()
            body.compliance(E, poisson, "clamped")
            case_s.append(time.perf_counter() - start)
        start = time.perf_counter()
        body.sweep_poisson(POISSONS, "clamped")
        sweep_s = time.perf_counter() - start
        w = float(penalty_factor_from_displacement(
            body.compliance(E, nu, "clamped").tangential, 1.0, E, nu, R, a))
        rows.append((level, body.dofs, mesh_s, assembly_s, case_s[0],
                     statistics.mean(case_s[1:]), sweep_s, w))
    finest = rows[-1][-1]
    print("\nHalf-round body at a/R = 0.05, nu = 0.25, clamped; sweep over "
          f"{len(POISSONS)} Poisson ratios per mesh")
    print(f"{'level':>5} {'DOFs':>8} {'mesh s':>8} {'assembly s':>11} {'1st case s':>11} "
          f"{'case s':>8} {'reduced sweep s':>16} {'w':>9} {'|w - w_finest|':>15}")
    for level, dofs, mesh_s, assembly_s, first_s, case_s, sweep_s, w in rows:
        print(f"{level:>5} {dofs:>8} {mesh_s:>8.3f} {assembly_s:>11.3f} {first_s:>11.3f} "
              f"{case_s:>8.3f} {sweep_s:>16.3f} {w:>9.5f} {abs(w - finest):>15.2e}")


def factorisation() -> None:
    from hertz2d.fem.factor import PatternFactorizer
    from hertz2d.fem.halfround import HalfRoundBody

    body = HalfRoundBody(0.5, 0.025)
    free, parts, _, _ = body.support("clamped")
    matrices = [parts.combine(10e9, nu) for nu in POISSONS]
    load = body.tangential_load[free]
    timings = {}
    factorizer = PatternFactorizer()
    factorizer.factorize(matrices[0])
    start = time.perf_counter()
    for matrix in matrices:
        factorizer.factorize(matrix)(load)
    timings["qdldl, pattern reused"] = (time.perf_counter() - start) / len(matrices)
    for ordering in ("MMD_AT_PLUS_A", "COLAMD"):
        start = time.perf_counter()
        for matrix in matrices:
            spl.splu(matrix, permc_spec=ordering, diag_pivot_thresh=0.0,
                     options=dict(SymmetricMode=True)).solve(load)
        timings[f"SuperLU {ordering}, symmetric mode"] = (time.perf_counter() - start) / len(
            matrices)
    print(f"\nFactorisation + one solve at the default level ({len(free)} free DOFs), "
          "mean of the sweep over nu")
    for name, seconds in timings.items():
        print(f"  {name:<40} {seconds:.4f} s")


def grid_sweep() -> None:
    from hertz2d.calibration.penalty.spec import load_spec
    from hertz2d.calibration.penalty.sweep import run_sweep
    from hertz2d.calibration.runs.executor_choice import open_executor
    from hertz2d.calibration.runs.store import CaseStore

    cases = [c for c in load_spec() if c.study == "grid"]
    print(f"\nDefault grid: {len(cases)} cases ({len(cases) // 2} per support), empty case store")
    print(f"{'mesh cache':>10} {'jobs':>5} {'wall s':>8} {'s/case':>8}")
    for cache in ("cold", "warm"):
        if cache == "cold":
            fresh_cache()
        for jobs in (1, 2):
            store = CaseStore("bench", os.path.join(tempfile.mkdtemp(), "cases.sqlite"))
            start = time.perf_counter()
            with open_executor(jobs=jobs) as executor:
                table = run_sweep(cases, executor, store=store, progress=False)
            wall = time.perf_counter() - start
            assert (table.status == "ok").all(), table[table.status != "ok"].error.unique()
            print(f"{cache:>10} {jobs:>5} {wall:>8.2f} {wall / len(cases):>8.4f}")
            if cache == "cold":
                break  # the second run would find the meshes cached


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-level", type=int, default=4)
    args = parser.parse_args()
    per_level(args.max_level)
    factorisation()
    grid_sweep()
