"""Load vectors: Hertzian surface tractions (Eq. 1 shape) and a uniform body force.

The Hertzian profile ``t(x) = 2F/(pi a) sqrt(1 - (x - x0)^2 / a^2)`` has an infinite slope at
its ends, where ordinary Gauss quadrature converges only algebraically (a relative error of 1e-5
in the resultant at 12 points per facet). Substituting ``x = x0 + a sin(theta)`` facet by facet
turns ``t(x) dx`` into the smooth ``2F/pi cos^2(theta) d(theta)``, and Gauss-Legendre in theta then
integrates the load against the finite-element test functions to machine precision
(tests/test_loads.py). The test functions are evaluated with scikit-fem's ``Basis.probes``; there
is no nodal lumping.
"""
from __future__ import annotations

import numpy as np
import skfem

#: Gauss points per facet in theta (6 gives the resultant to ~1e-15)
POINTS_PER_FACET = 6


def hertzian_traction(basis: skfem.Basis, facets: np.ndarray, force: float, half_width: float,
                      direction: tuple[float, float], centre: float = 0.0) -> np.ndarray:
    """Load vector of a Hertzian traction of resultant ``force`` on straight, non-vertical facets.

    The profile is a function of x, centred at ``x = centre`` with half-width ``half_width``
    (Eq. 1 for p, the first term of Eq. 2 for q), and zero beyond it; ``direction`` is the unit
    vector the traction points along (``(1, 0)`` tangential, ``(0, -1)`` a compressive normal
    traction on a top face).
    """
    mesh = basis.mesh
    start, end = mesh.p[:, mesh.facets[0, facets]], mesh.p[:, mesh.facets[1, facets]]
    theta_start = np.arcsin(np.clip((start[0] - centre) / half_width, -1.0, 1.0))
    theta_end = np.arcsin(np.clip((end[0] - centre) / half_width, -1.0, 1.0))
    nodes, weights = np.polynomial.legendre.leggauss(POINTS_PER_FACET)
    middle, half = 0.5 * (theta_start + theta_end), 0.5 * (theta_end - theta_start)
    theta = middle[:, None] + half[:, None] * nodes
    x = centre + half_width * np.sin(theta)
    along = (x - start[0][:, None]) / (end[0] - start[0])[:, None]
    points = start[:, :, None] + (end - start)[:, :, None] * along
    # t(x) dx = 2F/(pi a) cos(theta) * a cos(theta) d(theta)
    amount = np.abs(2.0 * force / np.pi * np.cos(theta) ** 2 * half[:, None] * weights).ravel()
    values = basis.probes(points.reshape(2, -1))
    return values.T @ np.concatenate([direction[0] * amount, direction[1] * amount])


def uniform_body_force(basis: skfem.Basis, force: tuple[float, float]) -> np.ndarray:
    """Load vector of a body force of constant density whose resultant is ``force``."""
    area = skfem.Functional(lambda w: 1.0 + 0.0 * w.x[0]).assemble(basis)
    density = np.asarray(force, dtype=float) / area

    @skfem.LinearForm
    def body(v, w):
        return density[0] * v[0] + density[1] * v[1]

    return body.assemble(basis)
