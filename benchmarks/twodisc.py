"""Two-disc frictional contact FEM: performance, and (``--verify``) accuracy against closed forms.

``python benchmarks/twodisc.py [--levels 2 3 4]`` prints, per mesh level and support, for case 1 of
Section 4.2 (delta_n = 0.025 m in 10 steps, then delta_t 0 -> 0.025 m in 50 steps): nodes, contact
(slave) nodes, set-up (gmsh meshing with a cold cache, assembly, factorisation and condensation),
mean and max time per load step, and the total. A second table shows the per-step time with the
BLAS thread pools left alone instead of limited to one thread (design note 3 in :mod:`hertz2d.fem.contact`).

``python benchmarks/twodisc.py --verify [--levels 2 3 4]`` prints the verification table of the
validation stage per support and level (:mod:`hertz2d.calibration.validation.verification`): the normal
stage against Eqs. 23, 4 and 1, partial slip at delta_t = 0.01 m against Eqs. 7 and 2, the onset
of full slip against Eq. 27, the peak and final forces of cases 1 and 2 with their change from the
coarsest level, and the largest Signorini residual of any step.

``python benchmarks/twodisc.py --domain [--quick]`` prints the tables of
:mod:`hertz2d.calibration.validation.domain_checks` (a disc on a wall and a dissimilar pair against
Eqs. 17 and 22, the shear of normal loading with Dundurs' beta, the stick zone against Eq. 7 and
the half-plane model, Masing's rule, the energy per cycle, normal unloading, case 2 over mu) and
the time of every path; its FEM runs are kept in the case store (``$HERTZ2D_CACHE``).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import hertz2d.fem.contact.frictional as frictional
from hertz2d.calibration.runs.executor_choice import open_executor
from hertz2d.calibration.runs.store import CaseStore
from hertz2d.calibration.validation.domain_checks import DomainSettings, domain_checks
from hertz2d.calibration.validation.fem_runs import ValidationSettings, fem_runs
from hertz2d.fem.supports import SUPPORTS
from hertz2d.calibration.validation.verification import verification_table
from hertz2d.checks.loadpath import LoadPath
from hertz2d.fem.twodisc import TwoBody


def case(kind: str, steps: int = 50) -> LoadPath:
    return LoadPath.build(kind, 0.025, 0.025, steps)


def timing(levels) -> None:
    path = case("hold-normal")
    print("\nCase 1 (hold-normal, 10 + 50 steps), R = 0.5 m, E = 10 GPa, nu = 0.25, mu = 0.3")
    print(f"{'support':>9} {'level':>5} {'nodes':>7} {'contact':>7} {'mesh s':>7} {'assembly s':>10} "
          f"{'factor s':>8} {'mean step ms':>12} {'max step ms':>11} {'total s':>7}")
    single = {}
    for support in SUPPORTS:
        for level in levels:
            os.environ["HERTZ2D_CACHE"] = tempfile.mkdtemp(prefix="hertz2d-bench-")  # cold mesh
            start = time.perf_counter()
            model = TwoBody.for_path(path, support=support, level=level)
            result = model.run(path, progress=False)
            total = time.perf_counter() - start
            steps = np.array(result.info["step_seconds"])
            single[support, level] = steps.mean()
            print(f"{support:>9} {level:>5} {model.nodes:>7} {model.contact.n_slave:>7} "
                  f"{model.timings['mesh']:>7.2f} {model.timings['assembly']:>10.2f} "
                  f"{model.timings['factorisation']:>8.2f} {1e3 * steps.mean():>12.1f} "
                  f"{1e3 * steps.max():>11.1f} {total:>7.2f}")
    print("\nPer-step time with the BLAS thread pools unlimited instead of one thread")
    print(f"{'support':>9} {'level':>5} {'1 thread ms':>11} {'unlimited ms':>12}")
    limiter = frictional.one_blas_thread
    frictional.one_blas_thread = contextlib.nullcontext
    try:
        for support in SUPPORTS:
            for level in levels:
                result = TwoBody.for_path(path, support=support, level=level).run(
                    path, progress=False)
                print(f"{support:>9} {level:>5} {1e3 * single[support, level]:>11.1f} "
                      f"{1e3 * np.mean(result.info['step_seconds']):>12.1f}")
    finally:
        frictional.one_blas_thread = limiter


def verify(levels) -> None:
    """The verification table of the validation stage (hertz2d.calibration.validation.verification)."""
    settings = ValidationSettings(levels=tuple(levels))
    store = CaseStore("bench", Path(tempfile.mkdtemp()) / "cases.sqlite")
    with open_executor(jobs=2) as executor:
        table = verification_table(fem_runs(settings, executor, store=store), settings)
    with pd.option_context("display.width", 200, "display.max_columns", 100,
                           "display.float_format", "{:.5g}".format):
        print(table.set_index(["support", "level"]).T.to_string())


def domain(quick: bool) -> None:
    """The tables of hertz2d.calibration.validation.domain_checks, one after the other."""
    tables = domain_checks(DomainSettings.quick() if quick else DomainSettings())
    with pd.option_context("display.width", 250, "display.max_columns", 100,
                           "display.float_format", "{:.5g}".format):
        for name, table in tables.items():
            print(f"\n{name}\n{table.to_string(index=False)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--verify", action="store_true",
                        help="accuracy against the closed forms instead of timings")
    parser.add_argument("--domain", action="store_true",
                        help="the checks of any pair, a wall and any path instead of timings")
    parser.add_argument("--quick", action="store_true", help="--domain on coarse meshes")
    args = parser.parse_args()
    if args.domain:
        domain(args.quick)
    else:
        (verify if args.verify else timing)(args.levels)


if __name__ == "__main__":
    main()
