"""Test vectors of the simplified law (Table 1), made by the Python law for another implementation.

:func:`reference_vectors` evaluates :func:`hertz2d.calibration.laws.hertz2d.simplified_update` in one of
the law library's forms (per-body or composite, :data:`hertz2d.calibration.laws.pair.FORMS`) on a spread
of contacts that reaches every branch of Table 1: equal and dissimilar discs (sizes, moduli,
Poisson's ratios 0 to 0.49; where the forms differ) and discs on a wall (Section 3.2), open
contacts, approaches from 1e-15 of the admissible range to 1 - 1e-6 of it (the normal law's
largest approach, :func:`hertz2d.calibration.laws.hertz2d.max_normal_approach`, where the contact is so
wide that w is clipped to 0), stick and slip (Eq. 32's cap) for both signs of d(delta_t) and of
the previous force, mu = 0 and mu > 0, a previous half-width (Eq. 32's trapezoidal step) of a new
contact (0), of a smaller and of a larger approach, plus a seeded random sample of all of these. Written with
'%.17g', every number reads back exactly.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from hertz2d.calibration.laws.hertz2d import max_normal_approach, normal_force, simplified_update
from hertz2d.calibration.laws.pair import ContactPair
from hertz2d.calibration.laws.penalty_factor import EQ33

INPUTS = ("wall", "R1", "R2", "E1", "E2", "nu1", "nu2", "mu", "delta_n", "d_delta_t",
          "T_previous", "a_previous")
OUTPUTS = ("N", "T", "a", "kn", "kt", "slipping")
#: the CSV's columns: the inputs of one contact update, then its outputs
COLUMNS = INPUTS + OUTPUTS
#: how a number is written (17 significant digits read back to the same double)
FLOAT_FORMAT = "%.17g"

#: (R1, R2, E1, E2, nu1, nu2, wall): the paper's equal discs (Section 4.2), dissimilar discs,
#: the extreme Poisson's ratios, and discs on walls (body 2 is the disc's mirror image)
BODIES = (
    (0.5, 0.5, 10e9, 10e9, 0.25, 0.25, False),
    (0.01, 0.3, 70e9, 210e9, 0.1, 0.45, False),
    (2e-3, 5e-3, 1e8, 3e9, 0.0, 0.49, False),
    (0.5, 0.5, 10e9, 10e9, 0.25, 0.25, True),
    (1e-3, 1e-3, 200e9, 200e9, 0.49, 0.49, True),
)
#: the disc's approach as a fraction of its admissible range (<= 0: open)
APPROACH_FRACTIONS = (-1e-3, 0.0, 1e-15, 1e-12, 1e-8, 1e-5, 1e-3, 0.01, 0.05, 0.2, 0.5, 0.9,
                      0.999, 0.999999)
FRICTION = (0.0, 0.3, 1.0)
#: previous tangential force and increment, in units of the force scale F = max(mu, 0.1) N and of
#: the displacement F/kt: trial forces from -3.4 to 3 F, stick and slip for either sign
PREVIOUS_FORCE = (0.0, 0.5, -0.9)
INCREMENT = (-2.5, -0.3, 0.0, 0.3, 2.5)
#: the previous step's approach as a multiple of this one's (0: a new contact), cycled through
#: the previous forces and increments
PREVIOUS_APPROACH = (0.0, 0.97, 1.03)
#: the previous step's approach stays below this fraction of the admissible range
LARGEST_PREVIOUS = 0.9999999
#: contacts drawn at random (seeded) on top of the grid above
RANDOM_CONTACTS = 500


def _grid() -> dict[str, list]:
    rows = []
    for R1, R2, E1, E2, nu1, nu2, wall in BODIES:
        for mu, fraction in itertools.product(FRICTION, APPROACH_FRACTIONS):
            rows.extend((wall, R1, R2, E1, E2, nu1, nu2, mu, fraction, f, s,
                         PREVIOUS_APPROACH[(k + m) % len(PREVIOUS_APPROACH)])
                        for (k, f), (m, s) in itertools.product(enumerate(PREVIOUS_FORCE),
                                                                enumerate(INCREMENT)))
    return dict(zip(("wall", "R1", "R2", "E1", "E2", "nu1", "nu2", "mu", "fraction", "force",
                     "increment", "earlier"), map(list, zip(*rows))))


def _random(seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = RANDOM_CONTACTS
    wall = rng.random(n) < 0.2
    R1, R2 = 10 ** rng.uniform(-4, 1, n), 10 ** rng.uniform(-4, 1, n)
    E1, E2 = 10 ** rng.uniform(6, 12, n), 10 ** rng.uniform(6, 12, n)
    nu1, nu2 = rng.uniform(0, 0.499, n), rng.uniform(0, 0.499, n)
    R2, E2, nu2 = np.where(wall, R1, R2), np.where(wall, E1, E2), np.where(wall, nu1, nu2)
    return {"wall": wall, "R1": R1, "R2": R2, "E1": E1, "E2": E2, "nu1": nu1, "nu2": nu2,
            "mu": np.where(rng.random(n) < 0.2, 0.0, rng.uniform(0, 1, n)),
            "fraction": np.where(rng.random(n) < 0.05, -rng.random(n),
                                 10 ** rng.uniform(-12, np.log10(0.9999), n)),
            "force": rng.uniform(-1.5, 1.5, n), "increment": rng.uniform(-3, 3, n),
            "earlier": np.where(rng.random(n) < 0.15, 0.0, rng.uniform(0.8, 1.2, n))}


def _evaluate(cases: pd.DataFrame, wall: bool, penalty, form: str) -> pd.DataFrame:
    """Turn the scaled cases into inputs of one kind (discs or walls) and run the law on them."""
    pair = ContactPair(*(cases[k].to_numpy() for k in ("R1", "R2", "E1", "E2", "nu1", "nu2",
                                                       "mu")), wall=wall, form=form)
    scale = 2.0 if wall else 1.0  # the disc's displacements are half the pair's (Section 3.2)
    limit = max_normal_approach(pair)
    fraction = cases.fraction.to_numpy()
    delta_n = fraction * limit / scale
    earlier = np.minimum(cases.earlier.to_numpy() * np.where(fraction > 0, fraction, 1e-3),
                         LARGEST_PREVIOUS)
    a_previous = normal_force(pair, earlier * limit)[1]  # the pair's half-width
    loaded = simplified_update(pair, delta_n, 0.0, 0.0, penalty)
    force = np.where(loaded.N > 0, np.maximum(pair.mu, 0.1) * loaded.N, 1e3)  # open: any history
    stiffness = np.where(loaded.N > 0, loaded.kt, 1e9)
    inputs = cases.assign(delta_n=delta_n, T_previous=cases.force * force,
                          d_delta_t=cases.increment * force / stiffness / scale,
                          a_previous=a_previous)
    state = simplified_update(pair, inputs.delta_n.to_numpy(), inputs.d_delta_t.to_numpy(),
                              inputs.T_previous.to_numpy(), penalty, a_previous)
    return inputs.assign(wall=int(wall), N=state.N, T=state.T, a=state.a, kn=state.kn,
                         kt=state.kt, slipping=state.slipping.astype(int))


def reference_vectors(penalty=EQ33, seed: int = 2020, form: str = "per-body") -> pd.DataFrame:
    """One row per contact update (:data:`COLUMNS`): inputs and ``simplified_update``'s outputs
    with the penalty factor ``penalty`` in ``form``; ``wall`` and ``slipping`` are 0 or 1."""
    cases = pd.concat([pd.DataFrame(_grid()), pd.DataFrame(_random(seed))], ignore_index=True)
    parts = [_evaluate(cases[cases.wall == wall], wall, penalty, form) for wall in (False, True)]
    return pd.concat(parts, ignore_index=True)[list(COLUMNS)]
