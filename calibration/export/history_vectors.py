"""Test vectors of the calibrated law, made by the Python law for another implementation.

The calibrated law has memory (:mod:`hertz2d.calibration.laws.calibrated_kernel`), so its vectors are
histories: each contact starts unloaded and takes a sequence of steps, and a port must give, step
by step, what :func:`hertz2d.calibration.laws.calibrated.calibrated_update` gives with the contact's
history carried along. The contacts (:func:`history_vectors`) cross

- :data:`BODIES`: equal discs, dissimilar discs (Dundurs' constant 0.06 and 0.26) and discs on
  walls (the wall's constant 0.33, 0.09, 0.5);
- :data:`SIZES`: the contact's half-width at the reference approach, a/R 0.01 and 0.2 of the
  smaller disc (the training range's ends);
- :data:`PATHS`, each a sequence of (approach, tangential displacement) in units of the
  reference approach and of the full-slip displacement there: cycles with reversals inside
  partial slip and beyond full slip, approach and displacement both oscillating (the normal
  force rising and falling), opening and re-closing, nested reversals of decaying amplitude
  (more traction pieces than a contact keeps: the merge), proportional loading into full slip,
  and a seeded random walk;
- :data:`FRICTION`: 0 (no tangential force; the normal law alone) to 1, each path with two of
  them in turn.

Columns: ``contact`` and ``step`` (from 0 for each contact), the inputs of the step (the pair, or
the disc and its mirror for ``wall`` = 1, then the disc's ``delta_n`` and ``d_delta_t``), and the
outputs (:data:`OUTPUTS`: N with the tangential state's coupling term, the stored energy of the
traction of the pair, J/m).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from hertz2d.calibration.laws.calibrated import (CalibratedCoefficients, CalibratedState,
                                         calibrated_update, curve_constants)
from hertz2d.calibration.laws.hertz2d import max_normal_approach, normal_stiffness
from hertz2d.calibration.laws.pair import ContactPair
from hertz2d.calibration.laws.scalar import hertz2d_normal_tangent

#: a vector's inputs: the contact and step, the pair, the step's approach and increment
INPUTS = ("contact", "step", "wall", "R1", "R2", "E1", "E2", "nu1", "nu2", "mu", "delta_n",
          "d_delta_t")
#: a vector's outputs: the calibrated law's state after the step (and the energy its traction
#: stores)
OUTPUTS = ("N", "T", "a", "kn", "kt", "kn_tangent", "front", "slipping", "energy")
#: the columns of ``test_vectors.csv``
COLUMNS = INPUTS + OUTPUTS

#: (R1, R2, E1, E2, nu1, nu2, wall); a wall's body 2 is the disc's mirror image
BODIES = (
    (0.035, 0.035, 10e9, 10e9, 0.25, 0.25, False),
    (0.03, 0.05, 10e9, 70e9, 0.25, 0.35, False),
    (0.01, 0.1, 1e9, 10e9, 0.45, 0.0, False),
    (0.035, 0.035, 10e9, 10e9, 0.25, 0.25, True),
    (0.5, 0.5, 200e9, 200e9, 0.45, 0.45, True),
    (0.01, 0.01, 70e9, 70e9, 0.0, 0.0, True),
)
#: a/R of the smaller disc at the reference approach
SIZES = (0.01, 0.2)
FRICTION = (0.0, 0.1, 0.3, 1.0)
#: the friction that sets the tangential scale where mu = 0
SCALE_FRICTION = 0.3


def _segments(*points, steps: int = 6) -> np.ndarray:
    """Straight lines through (approach, displacement) points, ``steps`` steps each."""
    path = [np.asarray(points[0], float)]
    for start, end in zip(points[:-1], points[1:]):
        for k in range(1, steps + 1):
            path.append(np.asarray(start, float) + (np.asarray(end, float)
                                                    - np.asarray(start, float)) * k / steps)
    return np.array(path)


def _oscillating() -> np.ndarray:
    k = np.arange(60)
    ramp = np.minimum(1.0, (k + 1) / 6.0)
    return np.column_stack([ramp * (1.0 + 0.4 * np.sin(2 * np.pi * k / 23)),
                            0.6 * np.sin(2 * np.pi * k / 17) * ramp])


def _decaying() -> np.ndarray:
    amplitudes = [0.9 * (-0.75) ** j for j in range(14)]
    points = [(0.0, 0.0), (1.0, 0.0)] + [(1.0 + 0.02 * j, t) for j, t in enumerate(amplitudes)]
    return _segments(*points, steps=3)


def _random(seed: int = 2020) -> np.ndarray:
    rng = np.random.default_rng(seed)
    approach = np.clip(1.0 + np.cumsum(rng.normal(0.0, 0.12, 70)), 0.3, 1.5)
    approach[:4] = (np.arange(4) + 1) / 4
    return np.column_stack([approach, np.cumsum(rng.normal(0.0, 0.15, 70))])


#: path name -> steps of (approach / reference approach, displacement / full-slip displacement)
PATHS = {
    "cycles": _segments((0, 0), (1, 0), (1, 0.5), (1, -0.5), (1, 0.25), (1, -0.1), (1, 1.5),
                        (1, 1.2), (1, -1.5), steps=5),
    "oscillating": _oscillating(),
    "open-reclose": _segments((0, 0), (1, 0), (1, 0.5), (-0.1, 0.5), (-0.1, 0.6), (0.8, 0.6),
                              (1.2, -0.7), (1.2, 0.9), steps=4),
    "decaying": _decaying(),
    "proportional": _segments((0, 0), (1.5, 0.6), (1.5, 0.6), (2.0, 2.5), (1.0, 1.0),
                              steps=6),
    "random": _random(),
}


def _pair(body, mu: float) -> ContactPair:
    R1, R2, E1, E2, nu1, nu2, wall = body
    return ContactPair.disc_on_wall(R1, E1, nu1, mu) if wall else ContactPair(
        R1, R2, E1, E2, nu1, nu2, mu)


def _scales(body, size: float, mu: float, coefficients) -> tuple[float, float]:
    """The disc's reference approach (a = size * min R) and full-slip displacement there."""
    pair = _pair(body, SCALE_FRICTION if mu == 0 else mu)
    a = size * min(body[0], body[1])
    N = math.pi * float(pair.modulus) * a * a / (4.0 * float(pair.radius))
    approach = N / float(normal_stiffness(pair, a))
    slip = (float(pair.mu) * N / (math.pi * float(pair.modulus))
            * float(curve_constants(pair, a, coefficients).B))
    if 2.5 * approach >= float(max_normal_approach(pair)):
        raise ValueError(f"a/R={size} is too large a contact for the bodies {body}")
    scale = 0.5 if body[6] else 1.0  # the disc's displacements are half the pair's
    return scale * approach, scale * slip


def _run(contact: int, body, mu: float, size: float, path: np.ndarray,
         coefficients: CalibratedCoefficients) -> list[tuple]:
    approach, slip = _scales(body, size, mu, coefficients)
    pair = _pair(body, mu)
    omega1, omega2 = (float(w) for w in pair.bracket_weights)
    delta_n = path[:, 0] * approach
    increments = np.diff(path[:, 1], prepend=0.0) * slip
    state = CalibratedState.unloaded()
    rows = []
    for step, (dn, d) in enumerate(zip(delta_n, increments)):
        state = calibrated_update(pair, dn, d, state, coefficients)
        a = float(state.a[0])
        rows.append((contact, step, int(body[6]), *(float(v) for v in body[:6]), mu, dn, d,
                     float(state.N[0]), float(state.T[0]), a,
                     float(normal_stiffness(pair, a)), float(state.kt[0]),
                     hertz2d_normal_tangent(a, float(pair.R1), float(pair.R2),
                                            float(pair.modulus), omega1, omega2),
                     float(state.front[0]), int(state.slipping[0]), float(state.energy[0])))
    return rows


def history_vectors(coefficients: CalibratedCoefficients) -> pd.DataFrame:
    """One row per step of every contact (:data:`COLUMNS`), the calibrated law's outputs with
    ``coefficients``; ``wall`` and ``slipping`` are 0 or 1."""
    rows, contact = [], 0
    for b, body in enumerate(BODIES):
        for s, size in enumerate(SIZES):
            for p, path in enumerate(PATHS.values()):
                for k in range(2):  # two frictions per path, in turn
                    mu = FRICTION[(b + s + p + 2 * k) % len(FRICTION)]
                    rows += _run(contact, body, mu, size, path, coefficients)
                    contact += 1
    return pd.DataFrame(rows, columns=list(COLUMNS))
