"""Closed forms the two-disc FEM is checked against (the paper's equations), and checks of the closed forms.

Two discs of one material (E, nu), radii R1 and R2; forces per unit thickness. These are written
here, independently of the FEM, from the equation sheet: Hertz (Eqs. 1, 2, 4, 7), the
particle-particle approach (Eq. 23) and the onset of full slip (Eqs. 25, 27).
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.optimize import brentq

from hertz2d.meshes.twodisc import expected_half_width


def modulus(E, nu):
    """Eq. 5 for two bodies of one material: ``E* = E / (2 (1 - nu^2))``."""
    return E / (2.0 * (1.0 - nu * nu))


def half_width(N, R1, R2, E, nu):
    """Eq. 4: ``a = sqrt(4 N R* / (pi E*))`` with Eq. 6's R*."""
    r_star = R1 * R2 / (R1 + R2)
    return np.sqrt(4.0 * N * r_star / (np.pi * modulus(E, nu)))


def approach(N, R1, R2, E, nu):
    """Eq. 23: ``delta_n = N/(pi E*) [log(4 R1/a) + log(4 R2/a) - 1]``, a from Eq. 4."""
    a = half_width(N, R1, R2, E, nu)
    return N / (np.pi * modulus(E, nu)) * (np.log(4 * R1 / a) + np.log(4 * R2 / a) - 1.0)


def normal_force(delta_n, R1, R2, E, nu):
    """Eq. 23 solved for N (the approach grows monotonically with N)."""
    scale = np.pi * modulus(E, nu) * delta_n
    return brentq(lambda N: approach(N, R1, R2, E, nu) - delta_n, 1e-6 * scale, 10 * scale,
                  xtol=1e-12 * scale)


def pressure(x, N, a):
    """Eq. 1: ``p = 2N/(pi a) sqrt(1 - x^2/a^2)``."""
    return 2 * N / (np.pi * a) * np.sqrt(np.clip(1 - (x / a) ** 2, 0, None))


def traction(x, mu, N, a, c):
    """Eq. 2 (Cattaneo-Mindlin): ``mu p(x)`` minus the stick-zone correction for |x| < c."""
    correction = 2 * c * c / (a * a) * mu * N / (np.pi * c) * np.sqrt(
        np.clip(1 - (x / c) ** 2, 0, None)) if c > 0 else 0.0
    return mu * pressure(x, N, a) - correction


def stick_half_width(a, T, mu, N):
    """Eq. 7: ``c = a sqrt(1 - T/(mu N))``."""
    return a * np.sqrt(max(1.0 - T / (mu * N), 0.0))


def full_slip_displacement(N, R1, R2, E, nu, mu, w1, w2):
    """Eq. 27 with Eq. 25: the tangential displacement at the onset of full slip."""
    a = half_width(N, R1, R2, E, nu)
    term = nu / (2 * (1 - nu))
    bracket = (np.log(2 * R1 / a) + np.log(2 * R2 / a) + 1
               + w1 * (np.log(4 * R1 / a) + term) + w2 * (np.log(4 * R2 / a) + term))
    return mu * N / (np.pi * modulus(E, nu)) * bracket


PAPER = dict(R1=0.5, R2=0.5, E=10e9, nu=0.25)


def test_eq1_and_eq2_integrate_to_the_resultants_of_eq3():
    N, a, mu = 7e7, 0.065, 0.3
    assert quad(lambda x: pressure(x, N, a), -a, a)[0] == pytest.approx(N, rel=1e-6)
    for T in (0.2 * mu * N, 0.7 * mu * N):
        c = stick_half_width(a, T, mu, N)
        total = quad(lambda x: traction(x, mu, N, a, c), -a, a, points=[-c, c], limit=200)[0]
        assert total == pytest.approx(T, rel=1e-6)  # Eq. 3: T = mu N (1 - c^2/a^2)


def test_eq23_inversion_round_trips_and_gives_the_papers_half_width():
    N = normal_force(0.025, **PAPER)
    assert approach(N, **PAPER) == pytest.approx(0.025, rel=1e-10)
    # the paper: delta_n = 0.025 m "gives a contact half-width of about 13 % of R"
    assert half_width(N, **PAPER) / 0.5 == pytest.approx(0.13, abs=0.005)


def test_the_mesh_sizing_estimate_is_eq4_with_eq23():
    for delta_n, R2 in ((0.025, 0.5), (0.01, 0.8)):
        N = normal_force(delta_n, 0.5, R2, 10e9, 0.25)
        C = (1 - 0.25**2) / 10e9  # any common compliance: one material
        assert expected_half_width(delta_n, (0.5, R2), (C, C)) == pytest.approx(
            half_width(N, 0.5, R2, 10e9, 0.25), rel=1e-9)


# -- any pair of bodies: Eq. 22, a disc on a wall, Dundurs' beta, Masing's rule ---------------
# Bodies are (R, E, nu); a rigid wall is None.

def compliance_eq5(body):
    """A body's term of Eq. 5, (1 - nu^2)/E (zero for a rigid wall)."""
    return 0.0 if body is None else (1 - body[2] ** 2) / body[1]


def half_width_any(N, upper, lower):
    """Eq. 4 with Eqs. 5 and 6 for any pair (a wall: infinite radius, zero compliance)."""
    inverse_R = sum(1.0 / b[0] for b in (upper, lower) if b is not None)
    return np.sqrt(4 * N * (compliance_eq5(upper) + compliance_eq5(lower)) / (np.pi * inverse_R))


def approach_eq22(N, upper, lower):
    """Eq. 22: each deformable body's Eq. 17 at the common half-width of Eq. 4."""
    a = half_width_any(N, upper, lower)
    return sum((1 - b[2] ** 2) / b[1] * 2 * N / np.pi * (np.log(4 * b[0] / a) - 0.5)
               for b in (upper, lower) if b is not None)


def normal_force_eq22(delta_n, upper, lower):
    scale = np.pi * delta_n / (compliance_eq5(upper) + compliance_eq5(lower))
    return brentq(lambda N: approach_eq22(N, upper, lower) - delta_n, 1e-6 * scale, 3 * scale,
                  xtol=1e-12 * scale)


def dundurs_beta_plane_strain(upper, lower):
    """``(1/2) [(1-2nu1)/G1 - (1-2nu2)/G2] / [(1-nu1)/G1 + (1-nu2)/G2]``, body 1 the upper one."""
    def parts(body):
        if body is None:
            return 0.0, 0.0
        G = body[1] / (2 * (1 + body[2]))
        return (1 - 2 * body[2]) / G, (1 - body[2]) / G
    (m1, d1), (m2, d2) = parts(upper), parts(lower)
    return 0.5 * (m1 - m2) / (d1 + d2)


def test_eq22_reduces_to_eq23_for_one_material_and_to_eq17_on_a_wall():
    disc = (0.5, 10e9, 0.25)
    N = normal_force(0.02, 0.5, 0.3, 10e9, 0.25)
    assert approach_eq22(N, (0.3, 10e9, 0.25), (0.5, 10e9, 0.25)) == pytest.approx(0.02, rel=1e-10)
    # the mirror rule of Section 3.2: a disc on a wall at delta is the pair at 2 delta
    assert normal_force_eq22(0.0125, disc, None) == pytest.approx(
        normal_force(0.025, 0.5, 0.5, 10e9, 0.25), rel=1e-9)
    assert dundurs_beta_plane_strain(disc, None) == pytest.approx(1 / 3)
    assert dundurs_beta_plane_strain(disc, disc) == 0.0
