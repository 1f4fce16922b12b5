"""What a hysteresis of its own in the normal force would give the calibrated law's energy per
cycle (run: ``python benchmarks/normal_hysteresis_worth.py [--jobs N]``).

Between bodies with Dundurs' beta != 0 the FEM's normal force on loading is above the one on
unloading even without tangential motion (Spence's slip at the contact's edges, inwards while it
grows and outwards while it shrinks, acting on the normal problem through beta:
``normal_loop_mechanism.py``), a loss the law's elastic normal force cannot have. This emulates
the simplest passive form of it on the law's own forces: an elastic-perfectly-plastic element in
the normal direction, a stop operator on the increments of Eqs. 4 + 22's normal force,

    ``h <- clip(h + dN_H/lag, -H, H)``,  ``H = strength mu N_H beta^2 b^2/(b^2 + width^2)``,
    ``b = |beta|/mu``,

added to the law's normal force (``N = N_H + coupling + h``; 0 while the contact is open). In
its elastic range h is a function of the approach (``(N_H - N_H at the last yield)/lag``), so a
closed path there does no work on it; at its bound, the bound's sign of h and the plastic
increment's agree, so that work is dissipated: the element cannot return more work than it
took, whatever the path. The bound's form follows the FEM's normal cycle alone on that
benchmark's contacts: its loop over ``mu N_max`` and the approach's range rises with ``|beta|``
at a given ``b`` and with ``b`` (Spence's slip zone) at a given ``|beta|``.

The three constants are chosen on the training cycles alone (the case store's FEM, or
computed): on the grid :data:`STRENGTHS` x :data:`WIDTHS` x :data:`LAGS`, the triple whose
relative energy-per-cycle errors, each capped at :data:`CAP`, have the least root mean square.
Then the law with and without the element runs on the training and the held-out cycles.

Printed, and written to ``benchmarks/results/normal_hysteresis_worth.json``: per set and group of
contacts the cycles and the share whose energy per cycle is within 10 % of the FEM's, the
law's and with the element; the chosen constants.
"""
from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import record  # noqa: E402
from benchmarks.arguments import positive_int  # noqa: E402
from benchmarks.calibrated_form_floor import groups_of  # noqa: E402
from hertz2d.calibration.calibrate.objective import cycle_energy, run_batch  # noqa: E402
from hertz2d.calibration.calibrate.stage import training_paths  # noqa: E402
from hertz2d.calibration.calibrate.training import Batch, batches  # noqa: E402
from hertz2d.calibration.laws.calibrated import (SHIPPED_COEFFICIENTS,  # noqa: E402
                                                 CalibratedCoefficients, coupling_beta)
from hertz2d.calibration.laws.rigid_kinematics import ContactFrame  # noqa: E402
from hertz2d.calibration.runs.executors import LocalPool  # noqa: E402
from hertz2d.calibration.validation.map.spec import read  # noqa: E402

#: the grid the element's constants are chosen on
STRENGTHS = (0.02, 0.04, 0.08, 0.16, 0.32)
WIDTHS = (1.0, 2.0, 3.0, 5.0)
LAGS = (0.001, 0.01, 0.03)
#: the most a cycle's relative energy error counts in the choice (a few cycles the form cannot
#: represent should not choose for the others)
CAP = 0.5
#: the energy target's threshold
WITHIN = 0.1


def per_path(batch: Batch, values) -> np.ndarray:
    """A pair constant of ``batch`` as one value per path."""
    return np.ravel(np.broadcast_to(values, (batch.paths, 1)))


def element(batch: Batch, strength: float, width: float, lag: float) -> np.ndarray:
    """(paths, steps) the element's force h along each path (see the module docstring)."""
    beta, mu = per_path(batch, coupling_beta(batch.pair)), per_path(batch, batch.pair.mu)
    b = beta / mu
    bound = (strength * mu * beta ** 2 * b ** 2 / (b ** 2 + width ** 2))[:, None] * batch.N
    increments = np.diff(batch.N, axis=1, prepend=0.0) / lag
    force, h = np.zeros_like(batch.N), np.zeros(batch.paths)
    for k in range(batch.N.shape[1]):
        h = np.where(batch.N[:, k] > 0.0,
                     np.clip(h + increments[:, k], -bound[:, k], bound[:, k]), 0.0)
        force[:, k] = h
    return force


def energy_errors(batch: Batch, forces: tuple[np.ndarray, np.ndarray],
                  constants: tuple[float, float, float] | None) -> np.ndarray:
    """Per path the relative error of the energy per cycle (NaN without a cycle) of the law's
    ``forces``, with the element of ``constants`` (None: without)."""
    Fx, Fz = forces
    if constants is not None:
        dFx, dFz = ContactFrame(batch.overlap, batch.increment, batch.angle).driving_forces(
            element(batch, *constants), 0.0)
        Fx, Fz = Fx + dFx, Fz + dFz
    with np.errstate(divide="ignore", invalid="ignore"):
        return (cycle_energy(batch, Fx, Fz) - batch.energy) / batch.energy


def choose(found: list[tuple[Batch, tuple]]) -> tuple[float, float, float]:
    """The grid's constants with the least capped rms of the training cycles' energy errors."""
    def score(constants) -> float:
        errors = np.concatenate([energy_errors(b, f, constants) for b, f in found])
        errors = np.minimum(np.abs(errors[np.isfinite(errors)]), CAP)
        return float(np.sqrt(np.mean(errors ** 2)))
    return min(itertools.product(STRENGTHS, WIDTHS, LAGS), key=score)


def table(name: str, found: list[tuple[Batch, tuple]], constants) -> list[dict]:
    """Rows of one set of paths: per group of contacts, the cycles within 10 %, both ways."""
    parts = []
    for batch, forces in found:
        parts.append(pd.DataFrame({
            "beta": np.abs(per_path(batch, coupling_beta(batch.pair))),
            "wall": [run.case.wall for run in batch.runs],
            "law": energy_errors(batch, forces, None),
            "with": energy_errors(batch, forces, constants)}))
    frame = pd.concat(parts).dropna()
    return [{"paths": name, "contacts": label, "cycles": int(chosen.sum()),
             "law: energy within 10 %": round(float((frame.law[chosen].abs() < WITHIN).mean()), 3),
             "with hysteresis: energy within 10 %": round(
                 float((frame["with"][chosen].abs() < WITHIN).mean()), 3)}
            for label, chosen in groups_of(frame) if chosen.any()]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=positive_int, default=2,
                        help="processes for FEM paths the case store lacks")
    args = parser.parse_args(argv)
    started = record.load_average()
    shipped = CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS)
    found = {}
    with LocalPool(args.jobs) as pool:
        for name, spec in (("training", None), ("held-out", "heldout.toml")):
            paths, _ = training_paths(read(shipped=spec) if spec else read(), pool,
                                      progress=True)
            found[name] = [(batch, run_batch(batch, shipped)) for batch in batches(paths)]
    constants = choose(found["training"])
    rows = [row for name, paths in found.items() for row in table(name, paths, constants)]
    print("chosen on the training cycles: strength {}, width {}, lag {}".format(*constants))
    record.show_and_write("normal_hysteresis_worth", pd.DataFrame(rows), started,
                          strength=constants[0], width=constants[1], lag=constants[2],
                          grid={"strength": STRENGTHS, "width": WIDTHS, "lag": LAGS},
                          cap=CAP)


if __name__ == "__main__":
    main()
