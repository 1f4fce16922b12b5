"""How far the calibrated law's form can go: each training contact given its own constants,
chosen on its own paths (run: ``python benchmarks/calibrated_form_floor.py``).

The calibrated law is one curve (C1) per contact, ``delta/(k s) = t B + kappa (1 - t) log(1 -
t)``, whose B is Eq. 27's bracket with the fitted penalty factor plus a shift that depends on the
contact only (Dundurs' beta, mu, a wall), and whose kappa is a constant of the contact, with the
extra slips of Spence's locked-in shear as fitted: every choice of the curve's coefficient
functions gives each contact one shift and one kappa. Here each training
contact (the map's default spec on symmetric flats, from the case store or computed) gets the
pair on a grid (:data:`SHIFTS` x :data:`KAPPAS` up to the contact's ceiling, the law's
admissible range) that puts the most of its own paths under 5 % (ties: the smaller largest
error), judged on those same paths: with the penalty factor as fitted, an upper bound (to the
grid's resolution) on what any coefficient functions of the form reach on them. The error is the
map's amplitude-relative error of the horizontal force Fx alone (the map's force error is the
larger of N's and Fx's, so the shares here bound the form's from above).

Printed, and written to ``benchmarks/results/calibrated_form_floor.json``: per group of contacts
the shares under 5 % and 10 % with the shipped coefficients and with each contact's best pair,
then the same per load path where ``|beta| > 0.25``, each with the median of the best pair's
error (law less FEM, signed) at each path's worst step.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import record  # noqa: E402
from benchmarks.arguments import positive_int  # noqa: E402
from hertz2d.calibration.calibrate.judgement import STRONG_BETA  # noqa: E402
from hertz2d.calibration.calibrate.masing import contact_key  # noqa: E402
from hertz2d.calibration.calibrate.objective import run_curves  # noqa: E402
from hertz2d.calibration.calibrate.stage import training_paths  # noqa: E402
from hertz2d.calibration.calibrate.training import Batch, batches  # noqa: E402
from hertz2d.calibration.laws.calibrated import (KAPPA_FLOOR,  # noqa: E402
                                                 SHIPPED_COEFFICIENTS, CalibratedCoefficients,
                                                 Curve, coupling_beta, curve_constants)
from hertz2d.calibration.runs.executors import LocalPool  # noqa: E402
from hertz2d.calibration.validation.map.spec import read  # noqa: E402

#: the shifts of B and the kappa values (as shares of the way from the floor to the contact's
#: ceiling) the grid tries
SHIFTS = np.linspace(-2.0, 2.0, 41)
KAPPA_SHARES = np.linspace(0.0, 1.0, 16)
#: the thresholds the targets count paths under
THRESHOLDS = (0.05, 0.10)


def path_errors(batch: Batch, found: Curve) -> np.ndarray:
    """Per path of ``batch`` the amplitude-relative error of Fx (law less FEM) at its judged step
    where it is largest in magnitude."""
    Fx, _ = run_curves(batch, found)
    errors = np.where(batch.judged, (Fx - batch.fem_Fx) / batch.reference, 0.0)
    return np.take_along_axis(errors, np.abs(errors).argmax(axis=1)[:, None], axis=1)[:, 0]


def with_constants(base: Curve, shift: float, kappa: float) -> Curve:
    """``base`` (no coupling shift, kappa at the ceiling) with B shifted and kappa set."""
    return replace(base, B=base.B + shift, kappa=np.full_like(base.kappa, kappa),
                   slope=base.slope + 2.0 * (kappa - base.kappa))


def best_constants(batch: Batch, base: Curve, floor: float) -> tuple[np.ndarray, float, float]:
    """The grid's best (shift, kappa) for the contact of ``batch`` and its paths' errors."""
    ceiling = float(np.ravel(base.kappa)[0])
    best = None
    for shift in SHIFTS:
        for share in KAPPA_SHARES:
            kappa = floor + share * (ceiling - floor)
            errors = path_errors(batch, with_constants(base, shift, kappa))
            score = (int(np.sum(np.abs(errors) >= THRESHOLDS[0])), float(np.abs(errors).max()))
            if best is None or score < best[0]:
                best = (score, errors, shift, kappa)
    return best[1], best[2], best[3]


def contacts(paths: list) -> list[list]:
    """The training paths grouped by contact
    (:func:`~hertz2d.calibration.calibrate.masing.contact_key`)."""
    groups = defaultdict(list)
    for run, table in paths:
        groups[contact_key(run)].append((run, table))
    return list(groups.values())


def groups_of(frame: pd.DataFrame) -> list[tuple[str, pd.Series]]:
    """The groups of contacts the tables count paths in: ``(name, rows of frame)``, by the
    ``beta`` and ``wall`` columns."""
    return [("one material", frame.beta == 0),
            ("|beta| in (0, 0.1]", (frame.beta > 0) & (frame.beta <= 0.1)),
            ("|beta| in (0.1, 0.25]", (frame.beta > 0.1) & (frame.beta <= STRONG_BETA)),
            (f"|beta| > {STRONG_BETA:g}", frame.beta > STRONG_BETA),
            ("walls", frame.wall), ("all", frame.beta >= 0)]


def shares(frame: pd.DataFrame) -> dict:
    """The shares of ``frame``'s paths under each threshold, shipped and best, and the median
    of the best pair's signed worst error (positive: the law's |Fx| too large where Fx > 0)."""
    row = {"paths": len(frame)}
    for column in ("shipped", "best"):
        for threshold in THRESHOLDS:
            row[f"{column}: Fx < {100 * threshold:g} %"] = round(
                float((frame[column].abs() < threshold).mean()), 3)
    row["best: median signed worst error"] = round(float(frame.best.median()), 3)
    return row


def training_run(description: str, argv=None) -> tuple[list, list, list]:
    """Parse the benchmark's command line (``--jobs``) and bring the training paths (the case
    store's, or computed): ``(load average at the start, paths, failures)``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--jobs", type=positive_int, default=2,
                        help="processes for training FEM paths the case store lacks")
    args = parser.parse_args(argv)
    started = record.load_average()
    with LocalPool(args.jobs) as pool:
        paths, failed = training_paths(read(), pool, progress=True)
    return started, paths, failed


def uncoupled_coefficients() -> tuple[CalibratedCoefficients, CalibratedCoefficients]:
    """The shipped coefficients, and the same without the Dundurs coupling's shift of B and with
    kappa at its ceiling (the curve each contact's own constants are put on; the extra slips
    of the locked-in shear as shipped)."""
    shipped = CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS)
    return shipped, CalibratedCoefficients(penalty=shipped.penalty,
                                           coupling_width=shipped.coupling_width,
                                           first_slip=shipped.first_slip)


def main(argv=None) -> None:
    clock = time.perf_counter()
    started, paths, failed = training_run(__doc__.splitlines()[0], argv)
    shipped, uncoupled = uncoupled_coefficients()
    rows = []
    for group in tqdm(contacts(paths), desc="contacts", unit="contact"):
        batch = batches(group)[0]
        a = np.where(batch.a > 0, batch.a, 1.0)
        base = curve_constants(batch.pair, a, uncoupled)
        from_coefficients = path_errors(batch, curve_constants(batch.pair, a, shipped))
        best, shift, kappa = best_constants(batch, base, KAPPA_FLOOR)
        beta = float(np.ravel(coupling_beta(batch.pair))[0])
        rows += [{"beta": beta, "wall": run.case.wall, "path": run.case.path,
                  "load": run.case.load,
                  "shipped": e0, "best": e1, "shift": shift, "kappa": kappa}
                 for run, e0, e1 in zip(batch.runs, from_coefficients, best)]
    frame = pd.DataFrame(rows)
    table = [{"contacts": name, **shares(frame[chosen])} for name, chosen in groups_of(frame)]
    strong = frame[frame.beta > STRONG_BETA]
    by_path = [{"path": path, **shares(of_path)} for path, of_path in strong.groupby("path")]
    below_onset = strong[(strong.path == "proportional") & (strong.load < 1.0)]
    by_path.append({"path": "proportional, below the slip onset", **shares(below_onset)})
    print(pd.DataFrame(table).to_string(index=False))
    print(f"\n|beta| > {STRONG_BETA:g}, per load path:")
    print(pd.DataFrame(by_path).to_string(index=False))
    print(f"\n{len(paths)} training paths ({len(failed)} failed), "
          f"{time.perf_counter() - clock:.0f} s")
    out = record.write("calibrated_form_floor", table, started, by_path=by_path,
                       training_paths=len(paths), failed=failed,
                       grid={"shifts": [SHIFTS[0], SHIFTS[-1], len(SHIFTS)],
                             "kappa_shares": len(KAPPA_SHARES)},
                       metric="amplitude-relative error of Fx (the map's, N left out)")
    print(f"written: {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
