"""LAMMPS's built-in Hertz style (``gran/hertz/history``) matched to hertz2d's simplified law on a
bed of discs, for the benchmarks that run both (``lammps_plugin.py``, ``lammps_drum.py``).

The built-in law is 3D Hertz, ``F = kn sqrt(R* delta) delta`` with the dashpot ``m* gamma_n
sqrt(R* delta) v`` (and kt, gamma_t likewise); hertz2d's 2D law is Eqs. 4 + 22 with the dashpots
``2 zeta sqrt(m* k) v``. :func:`matched_hertz` gives the built-in constants that carry the bed's
loads at the same overlaps: kn is the median over the bed's touching pairs of the 2D law's
``N / (sqrt(R* delta) delta)`` (Table 1 on each pair's radii and overlap), kt the median of its kt
(Eq. 31) over ``sqrt(R* delta)``; walls 2 kn and 2 kt (the mirror rule of Section 3.2 applied to
Hertz: a disc on a wall is the disc and its image at twice the overlap, R* = R/2); the dashpots
give hertz2d's damping ratio zeta at the mean-radius pair and the median overlap (a wall: the
disc's mass, the median wall overlap, the mirror pair's stiffnesses doubled).
"""
from __future__ import annotations

import math

import numpy as np


def touching(position, radii) -> np.ndarray:
    """(p, 2) touching pairs i < j of discs at ``position``."""
    i, j = np.triu_indices(len(radii), 1)
    gap = np.hypot(*(position[j] - position[i]).T) - radii[i] - radii[j]
    return np.column_stack([i[gap < 0], j[gap < 0]])


def matched_hertz(centres, radii, wall_overlap, *, E, nu, mu, density, ratio) -> dict:
    """The built-in Hertz constants matched to the simplified law on a bed (module docstring).

    Parameters
    ----------
    centres, radii : numpy.ndarray
        The bed's disc centres (n, 2) and radii (m).
    wall_overlap : numpy.ndarray
        The overlaps of the discs that touch a wall (m), for its median.
    E, nu, mu, density, ratio : float
        The discs' material, the friction and hertz2d's damping ratio zeta.

    Returns
    -------
    dict
        kn, kt (pressure units, LAMMPS's), the walls' 2 kn, 2 kt, the dashpots' gammas
        (1/(m s), LAMMPS's ``m* gamma sqrt(R* delta) v``) of the pairs and the walls,
        ``pair_style granular``'s ``hertz/material`` E and x_gt; with the reference values they
        come from (``reference``).
    """
    from hertz2d.calibration.laws.penalty_factor import EQ33
    from hertz2d.calibration.laws.scalar import hertz2d_update, pair_modulus
    modulus = pair_modulus(E, nu, E, nu)
    w = EQ33.coefficients
    pairs = touching(centres, radii)
    r1, r2 = radii[pairs[:, 0]], radii[pairs[:, 1]]
    delta = r1 + r2 - np.hypot(*(centres[pairs[:, 1]] - centres[pairs[:, 0]]).T)
    reduced = r1 * r2 / (r1 + r2)
    laws = [hertz2d_update(d, 0.0, 0.0, 0.0, a, b, nu, nu, modulus, mu, w)
            for d, a, b in zip(delta, r1, r2)]
    N = np.array([law[0] for law in laws])
    kt = np.array([law[4] for law in laws])
    contact_radius = np.sqrt(reduced * delta)
    kn_hertz = float(np.median(N / (contact_radius * delta)))
    kt_hertz = float(np.median(kt / contact_radius))
    # the dashpots: hertz2d's 2 zeta sqrt(m* k), k = dN/d(delta) normal and kt tangential, for
    # the mean-radius pair at the median overlap; LAMMPS's m* gamma sqrt(R* delta)
    r_mean, delta_0 = float(radii.mean()), float(np.median(delta))
    m_star = 0.5 * density * math.pi * r_mean**2
    law = hertz2d_update(delta_0, 0.0, 0.0, 0.0, r_mean, r_mean, nu, nu, modulus, mu, w)
    a_0 = math.sqrt(0.5 * r_mean * delta_0)
    gamma_n = 2.0 * ratio * math.sqrt(law[3] / m_star) / a_0
    gamma_t = 2.0 * ratio * math.sqrt(law[4] / m_star) / a_0
    # a disc on a wall: the mirror pair (2 delta, R* = r/2) on the disc's mass
    wall_0 = float(np.median(wall_overlap))
    mirror = hertz2d_update(2 * wall_0, 0.0, 0.0, 0.0, r_mean, r_mean, nu, nu, modulus, mu, w)
    m_disc = density * math.pi * r_mean**2
    a_wall = math.sqrt(r_mean * wall_0)
    wall_gamma_n = 2.0 * ratio * math.sqrt(2.0 * mirror[3] / m_disc) / a_wall
    wall_gamma_t = 2.0 * ratio * math.sqrt(2.0 * mirror[4] / m_disc) / a_wall
    return {"kn": kn_hertz, "kt": kt_hertz, "gamma_n": gamma_n, "gamma_t": gamma_t,
            "wall_kn": 2.0 * kn_hertz, "wall_kt": 2.0 * kt_hertz, "wall_gamma_n": wall_gamma_n,
            "wall_gamma_t": wall_gamma_t,
            # granular hertz/material: kn = 4/3 E/(2 (1 - nu^2)) for a pair and for a wall
            "E": 0.75 * kn_hertz * 2.0 * (1.0 - nu**2),
            "x_gt": math.sqrt(law[4] / law[3]),
            "reference": {"contacts": len(delta), "median overlap": delta_0,
                          "median N": float(np.median(N)), "median wall overlap": wall_0,
                          "kn spread (10-90 %)": [float(v) for v in np.percentile(
                              N / (contact_radius * delta), [10, 90])]}}
