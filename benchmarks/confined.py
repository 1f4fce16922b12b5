"""Confined-disc FEM performance and accuracy per mesh level, and the default grid's cost.

Prints (run: ``python benchmarks/confined.py [--max-level 3] [--grid]``):

1. per level and K at the paper's base case (a/R = 0.05, nu = 0.25): DOFs, gmsh meshing (cold
   cache), set-up (basis, stiffness parts, the K flats' tractions, rigid-mode functionals), one
   case (factorisation + solve), the resident memory so far, w and |w - w(finest)| for both
   rigid-motion definitions;
2. with ``--grid``: the CPU and wall time of the default spec's confined grid (empty case store,
   cold mesh cache) with 1 and 2 worker processes, and the machine's load average.

Times are CPU seconds of this process (``time.process_time``) unless marked wall.
"""
from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time

R, A, E, NU = 0.5, 0.025, 10e9, 0.25


def fresh_cache() -> None:
    os.environ["HERTZ2D_CACHE"] = tempfile.mkdtemp(prefix="hertz2d-bench-")


def per_level(max_level: int) -> None:
    from hertz2d.calibration.laws.closed_forms import penalty_factor_from_displacement
    from hertz2d.calibration.penalty.confined_cases import balance_for
    from hertz2d.fem.confined import ConfinedDisc
    from hertz2d.meshes.fulldisc import full_disc_mesh

    fresh_cache()
    rows = []
    for K in (2, 3, 4):
        for level in range(max_level + 1):
            start = time.process_time()
            full_disc_mesh(R, A, K, level)
            mesh_s = time.process_time() - start
            start = time.process_time()
            disc = ConfinedDisc(R, A, K, level)
            setup_s = time.process_time() - start
            start = time.process_time()
            response = disc.response(E, NU, balance_for(K))
            case_s = time.process_time() - start
            w = [float(penalty_factor_from_displacement(u, 1.0, E, NU, R, A))
                 for u in (response.u_t, response.u_t_mean_axes)]
            memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
            rows.append((K, level, disc.dofs, mesh_s, setup_s, case_s, memory, *w))
    finest = {K: (w, m) for K, level, *_, w, m in rows if level == max_level}
    print(f"confined disc at a/R = {A / R:g}, nu = {NU:g} (CPU seconds; GB is the peak resident "
          "memory of the process so far)")
    print(f"{'K':>2} {'level':>5} {'DOFs':>8} {'mesh s':>7} {'setup s':>8} {'case s':>7} "
          f"{'GB':>5} {'w centre':>9} {'|dw|':>8} {'w mean-axes':>11} {'|dw|':>8}")
    for K, level, dofs, mesh_s, setup_s, case_s, memory, w, m in rows:
        print(f"{K:>2} {level:>5} {dofs:>8} {mesh_s:>7.2f} {setup_s:>8.2f} {case_s:>7.2f} "
              f"{memory:>5.2f} {w:>9.5f} {abs(w - finest[K][0]):>8.1e} {m:>11.5f} "
              f"{abs(m - finest[K][1]):>8.1e}")


def grid(jobs: int) -> None:
    from hertz2d.calibration.penalty.confined import run_confined
    from hertz2d.calibration.penalty.confined_cases import expand_confined
    from hertz2d.calibration.penalty.spec import read
    from hertz2d.calibration.runs.executor_choice import open_executor

    cases = [c for c in expand_confined(read()) if c.study == "grid"]
    fresh_cache()
    wall, cpu = time.perf_counter(), time.process_time()
    with open_executor(jobs=jobs) as executor:
        table = run_confined(cases, executor, progress=False)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"default confined grid, {len(table)} cases, jobs={jobs}: {wall:.1f} s wall, "
          f"{cpu + children.ru_utime + children.ru_stime:.1f} s CPU (workers included), "
          f"load average {os.getloadavg()[0]:.1f}, failed {int((table.status == 'failed').sum())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-level", type=int, default=3)
    parser.add_argument("--grid", action="store_true", help="also time the default grid")
    args = parser.parse_args()
    per_level(args.max_level)
    if args.grid:
        for jobs in (1, 2):
            grid(jobs)


if __name__ == "__main__":
    main()
