"""The FEM paths a fit runs the calibrated law on, as padded arrays, one batch per counterpart.

A :class:`Batch` holds paths of one kind of counterpart (discs, or a rigid wall: the law's pair
is built differently) padded to the longest: per path the contact pair's constants, per step the
contact frame of the line of centres (:mod:`hertz2d.calibration.laws.rigid_kinematics`), Eqs. 4 and 22's
normal force and half-width there (they do not depend on the fitted coefficients, so they are
computed once), the FEM's horizontal force and the steps the map judges
(:mod:`hertz2d.calibration.validation.map.errors`: after the normal stage, each relative to the FEM's own
value on a monotonic stage and to its largest magnitude on a cycle's reversing branches), and for
a cycle the last cycle's steps and the FEM's energy per cycle.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from hertz2d.calibration.laws import ContactPair, energy_per_cycle, normal_force
from hertz2d.calibration.laws.energy import last_cycle
from hertz2d.calibration.laws.rigid_kinematics import contact_frame
from hertz2d.calibration.validation.comparison import NEGLIGIBLE, regimes
from hertz2d.calibration.validation.map.errors import REVERSING
from hertz2d.calibration.validation.map.spec import MapRun


@dataclass
class Batch:
    """Paths of one counterpart kind, padded to ``steps`` (see the module docstring)."""

    runs: list[MapRun]
    pair: ContactPair
    delta_n: np.ndarray
    delta_t: np.ndarray
    overlap: np.ndarray
    increment: np.ndarray
    angle: np.ndarray
    N: np.ndarray
    a: np.ndarray
    fem_Fx: np.ndarray
    #: per step: judged (True) and the reference its error is relative to
    judged: np.ndarray
    reference: np.ndarray
    #: per path the last cycle's steps (a mask) and the FEM's energy per cycle (NaN: no cycle)
    cycle: np.ndarray
    energy: np.ndarray

    @property
    def paths(self) -> int:
        return len(self.runs)


def _reference(fem: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The steps the map judges Fx on and what each error is relative to."""
    Fx = fem.Fx.to_numpy()
    scale = float(np.nanmax(np.abs(Fx), initial=0.0))
    reversing = np.isin(fem.stage.to_numpy(), REVERSING)
    reference = np.maximum(np.abs(Fx), np.where(reversing, scale, 0.0))
    judged = (regimes(fem) != "normal loading") & np.isfinite(Fx) & (
        reference > NEGLIGIBLE * scale)
    return judged, np.where(judged, reference, 1.0)


def batches(paths: list[tuple[MapRun, pd.DataFrame]]) -> list[Batch]:
    """The finished FEM paths ``(run, table)`` grouped into a batch of discs and one of walls."""
    found = []
    for wall in (False, True):
        mine = [(run, fem) for run, fem in paths if run.case.wall == wall]
        if mine:
            found.append(_batch(mine))
    return found


def _batch(paths: list[tuple[MapRun, pd.DataFrame]]) -> Batch:
    steps = max(len(fem) for _, fem in paths)
    pairs = [run.case.pair() for run, _ in paths]
    pair = ContactPair(*(np.array([[float(getattr(p, name))] for p in pairs])
                         for name in ("R1", "R2", "E1", "E2", "nu1", "nu2", "mu")),
                       wall=pairs[0].wall)  # one row per path: broadcasts over the steps
    arrays = {name: np.zeros((len(paths), steps)) for name in (
        "delta_n", "delta_t", "overlap", "increment", "angle", "fem_Fx", "reference")}
    judged, cycle = np.zeros((len(paths), steps), bool), np.zeros((len(paths), steps), bool)
    energy = np.full(len(paths), np.nan)
    for row, ((run, fem), p) in enumerate(zip(paths, pairs)):
        n = len(fem)
        frame = contact_frame(fem.delta_n.to_numpy(), fem.delta_t.to_numpy(), float(p.R1),
                              float(p.R2), p.wall)
        for name, values in (("delta_n", fem.delta_n.to_numpy()),
                             ("delta_t", fem.delta_t.to_numpy()), ("overlap", frame.overlap),
                             ("angle", frame.angle), ("fem_Fx", fem.Fx.to_numpy())):
            arrays[name][row, :n] = values
            arrays[name][row, n:] = values[-1]  # padding: the last state held
        arrays["increment"][row, :n] = frame.increment
        judged[row, :n], arrays["reference"][row, :n] = _reference(fem)
        arrays["reference"][row, n:] = 1.0
        if "unloading" in set(fem.stage):
            cycle[row, fem.index.get_indexer(last_cycle(fem).index)] = True
            energy[row] = energy_per_cycle(fem)
    N, a = normal_force(pair, pair.pair_displacement(arrays["overlap"]))
    return Batch([run for run, _ in paths], pair, **{k: v for k, v in arrays.items()
                                                     if k != "reference"},
                 N=N, a=a, judged=judged, reference=arrays["reference"], cycle=cycle,
                 energy=energy)
