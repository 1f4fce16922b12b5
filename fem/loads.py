"""Load vectors: Hertzian surface tractions (Eq. 1 shape) and a uniform body force.

The Hertzian profile ``t(s) = 2F/(pi a) sqrt(1 - (s - s0)^2 / a^2)`` is integrated against the
test functions with a facet basis of high quadrature order: the square root's infinite slope at
``|s - s0| = a`` sits on mesh nodes, so Gauss quadrature on the end facets converges quickly and
the assembled resultant equals F to ~1e-7 (tests/test_loads.py). No nodal lumping.
"""
from __future__ import annotations

import numpy as np
import skfem

#: quadrature order on loaded facets; the profile is not polynomial
TRACTION_INTORDER = 12


def hertzian_traction(basis: skfem.Basis, facets: np.ndarray, force: float, half_width: float,
                      direction: tuple[float, float], centre: float = 0.0) -> np.ndarray:
    """Load vector of a Hertzian traction of resultant ``force`` on a straight horizontal edge.

    ``direction`` is the unit vector the traction points along (``(1, 0)`` tangential,
    ``(0, -1)`` a compressive normal traction on a top face); the profile is centred at
    ``x = centre`` with half-width ``half_width`` (Eq. 1 for p, the first term of Eq. 2 for q).
    """
    facet_basis = skfem.FacetBasis(basis.mesh, basis.elem, facets=facets,
                                   intorder=TRACTION_INTORDER)
    peak = 2.0 * force / (np.pi * half_width)

    @skfem.LinearForm
    def traction(v, w):
        s = (w.x[0] - centre) / half_width
        profile = peak * np.sqrt(np.clip(1.0 - s * s, 0.0, None))
        return profile * (direction[0] * v[0] + direction[1] * v[1])

    return traction.assemble(facet_basis)


def uniform_body_force(basis: skfem.Basis, force: tuple[float, float]) -> np.ndarray:
    """Load vector of a body force of constant density whose resultant is ``force``."""
    area = skfem.Functional(lambda w: 1.0 + 0.0 * w.x[0]).assemble(basis)
    density = np.asarray(force, dtype=float) / area

    @skfem.LinearForm
    def body(v, w):
        return density[0] * v[0] + density[1] * v[1]

    return body.assemble(basis)
