"""Two bodies in contact: radii, moduli, Poisson ratios, friction, or a disc against a rigid wall.

Every parameter may be a scalar or an array (one entry per contact, broadcast together), so one
:class:`ContactPair` describes a whole batch of DEM contacts. Composite quantities: Eq. 5
``1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2``, Eq. 6 ``1/R* = 1/R1 + 1/R2``, and Mindlin's shear
modulus ``1/G* = (2 - nu1)/G1 + (2 - nu2)/G2`` of the sphere laws.

How the two bodies' compliances combine in the 2D laws (``form``):

``per-body`` (the default)
    each body is a half-round body on its own support and contributes its own Eq. 17 (normal) or
    Eq. 20 (tangential) displacement, both evaluated at the common half-width a of Eq. 4: Eq. 22
    and its tangential analogue. This is the configuration of the two-body FEM.
``composite``
    Eqs. 23, 25, 26, 29, 31 as printed: the E* of Eq. 5 multiplies the sum of the two bodies'
    brackets.

Both are one formula with the compliance shares ``s_i = ((1 - nu_i^2)/E_i) E*`` (s1 + s2 = 1):
the per-body form weighs body i's bracket with ``2 s_i``, the composite form with 1
(:attr:`ContactPair.bracket_weights`). They agree exactly when s1 = s2 = 1/2 (bodies of one
material, and so a wall); the normal laws also agree for equal radii. The per-body displacement
less the composite one is ``(s1 - s2) (b1 - b2)`` times the common factor (b_i body i's bracket),
e.g. ``N/(pi E*) (s1 - s2) log(R1/R2)`` for the approach. Neither form carries the coupling of the
normal and tangential problems of dissimilar materials (Dundurs' constant
:attr:`ContactPair.dundurs_beta` != 0), under which Cattaneo-Mindlin's partial slip is an
approximation.

A rigid wall (Section 3.2) is the mirror image of the disc: the pair is the disc and its mirror,
and every law doubles the disc-to-wall displacements before it applies the pair relations. For the
normal problem this is exact: Eq. 17 of the disc with ``1/E* = (1 - nu^2)/E``, ``R* = R``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hertz2d.checks import InputError, one_of

#: how the two bodies' compliances combine in the 2D laws (see the module docstring)
FORMS = ("per-body", "composite")
#: the largest radius (m) the laws' arithmetic holds: the normal law's constant e^C = 16 R1 R2/e
#: (Eq. 22 solved exactly) must be a finite double, so a radius beyond 1e150 m is refused
#: before it overflows
MAX_RADIUS = 1e150


def _checked(name: str, value, low: float, high: float | None = None,
             low_inclusive: bool = False) -> np.ndarray:
    """``value`` as a float array; every entry finite and in the stated range, or InputError."""
    array = np.asarray(value, dtype=float)
    bad = ~np.isfinite(array)
    bad |= (array < low) if low_inclusive else (array <= low)
    if high is not None:
        bad |= array >= high
    if bad.any():
        first = float(array.ravel()[np.flatnonzero(bad.ravel())[0]])
        interval = (f"{'[' if low_inclusive else '('}{low:g}, {high:g})" if high is not None
                    else (f">= {low:g}" if low_inclusive else f"> {low:g}"))
        raise InputError(f"{name}={first!r} must be {'in ' if high is not None else ''}{interval}")
    return array


@dataclass(frozen=True)
class ContactPair:
    """Material and geometry of two contacting bodies (arrays broadcast per contact).

    Parameters
    ----------
    R1, R2 : float or array_like
        The radii (m); body 1 is the one whose displacement a law reports.
    E1, E2 : float or array_like
        Young's moduli (Pa).
    nu1, nu2 : float or array_like
        Poisson's ratios, in [0, 0.5).
    mu : float or array_like
        The friction coefficient, >= 0.
    wall : bool, optional
        Body 2 is the mirror image standing for a rigid wall (use :meth:`disc_on_wall`).
    form : {"per-body", "composite"}, optional
        How two bodies' brackets combine: each its own (Eq. 22 and its tangential analogue, the
        FEM's configuration) or the printed E* form (Eqs. 23, 25, 26).

    Raises
    ------
    checks.InputError
        A parameter outside its range, named with its value.
    """

    R1: np.ndarray
    R2: np.ndarray
    E1: np.ndarray
    E2: np.ndarray
    nu1: np.ndarray
    nu2: np.ndarray
    mu: np.ndarray
    #: True when body 2 is the mirror image standing for a rigid wall (Section 3.2)
    wall: bool = False
    #: ``per-body`` (Eq. 22 and its tangential analogue) or ``composite`` (Eqs. 23, 25, 26)
    form: str = "per-body"

    def __init__(self, R1, R2, E1, E2, nu1, nu2, mu, wall: bool = False,
                 form: str = "per-body"):
        values = {"R1": _checked("R1", R1, 0.0, MAX_RADIUS),
                  "R2": _checked("R2", R2, 0.0, MAX_RADIUS),
                  "E1": _checked("E1", E1, 0.0), "E2": _checked("E2", E2, 0.0),
                  "nu1": _checked("nu1", nu1, 0.0, 0.5, low_inclusive=True),
                  "nu2": _checked("nu2", nu2, 0.0, 0.5, low_inclusive=True),
                  "mu": _checked("mu", mu, 0.0, low_inclusive=True)}
        for name, value in values.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "wall", bool(wall))
        object.__setattr__(self, "form", one_of("form", form, FORMS))

    @classmethod
    def discs(cls, R, E, nu, mu, R2=None, form: str = "per-body") -> "ContactPair":
        """Two discs of one material.

        Parameters
        ----------
        R : float or array_like
            The radius of both discs, or of disc 1 when ``R2`` is given (m).
        E, nu, mu : float or array_like
            Young's modulus (Pa), Poisson's ratio and the friction coefficient.
        R2 : float or array_like, optional
            Disc 2's radius (m).
        form : {"per-body", "composite"}, optional
            As for :class:`ContactPair`.

        Returns
        -------
        ContactPair
        """
        return cls(R, R if R2 is None else R2, E, E, nu, nu, mu, form=form)

    @classmethod
    def disc_on_wall(cls, R, E, nu, mu) -> "ContactPair":
        """A disc against a rigid straight wall, as the disc and its mirror image (Section 3.2).

        A law run on this pair takes the disc's own approach and tangential displacement and
        doubles them internally (the mirror pair's relative displacements).

        Parameters
        ----------
        R : float or array_like
            The disc's radius (m).
        E, nu, mu : float or array_like
            The disc's Young's modulus (Pa) and Poisson's ratio, and the wall's friction.

        Returns
        -------
        ContactPair
        """
        return cls(R, R, E, E, nu, nu, mu, wall=True)

    def swapped(self) -> "ContactPair":
        return ContactPair(self.R2, self.R1, self.E2, self.E1, self.nu2, self.nu1, self.mu,
                           self.wall, self.form)

    def with_form(self, form: str) -> "ContactPair":
        """The same bodies with the other combination of compliances."""
        return ContactPair(self.R1, self.R2, self.E1, self.E2, self.nu1, self.nu2, self.mu,
                           self.wall, form)

    @property
    def modulus(self) -> np.ndarray:
        """E*, Eq. 5."""
        return 1.0 / ((1.0 - self.nu1**2) / self.E1 + (1.0 - self.nu2**2) / self.E2)

    @property
    def radius(self) -> np.ndarray:
        """R*, Eq. 6."""
        return 1.0 / (1.0 / self.R1 + 1.0 / self.R2)

    @property
    def compliance_shares(self) -> tuple[np.ndarray, np.ndarray]:
        """``s_i = ((1 - nu_i^2)/E_i) E*``: each body's part of the compliance 1/E*
        (s1 + s2 = 1)."""
        # each share from its own compliance: 1 - s1 would lose the digits of a small s2
        return ((1.0 - self.nu1**2) / self.E1 * self.modulus,
                (1.0 - self.nu2**2) / self.E2 * self.modulus)

    @property
    def bracket_weights(self) -> tuple[np.ndarray, np.ndarray]:
        """What multiplies body i's bracket in the 2D laws: ``2 s_i`` (per-body) or 1
        (composite)."""
        if self.form == "composite":
            return np.ones_like(self.modulus), np.ones_like(self.modulus)
        s1, s2 = self.compliance_shares
        return 2.0 * s1, 2.0 * s2

    @property
    def dundurs_beta(self) -> np.ndarray:
        """Dundurs' second constant in plane strain,
        ``beta = (1/2) [(1 - 2 nu1)/G1 - (1 - 2 nu2)/G2] / [(1 - nu1)/G1 + (1 - nu2)/G2]``.

        Zero for bodies of one material; where it is not, normal and tangential contact problems
        couple (shear under normal load, a shifted stick zone) and the laws, which ignore it, are
        approximate. A wall is the disc's mirror image here (beta = 0); a rigid flat under a disc
        has ``|beta| = (1 - 2 nu)/(2 (1 - nu))``.
        """
        G1, G2 = self.E1 / (2.0 * (1.0 + self.nu1)), self.E2 / (2.0 * (1.0 + self.nu2))
        return 0.5 * ((1 - 2 * self.nu1) / G1 - (1 - 2 * self.nu2) / G2) / (
            (1 - self.nu1) / G1 + (1 - self.nu2) / G2)

    @property
    def shear_modulus(self) -> np.ndarray:
        """G* of Mindlin's sphere contact: ``1/G* = (2 - nu1)/G1 + (2 - nu2)/G2``."""
        G1, G2 = self.E1 / (2.0 * (1.0 + self.nu1)), self.E2 / (2.0 * (1.0 + self.nu2))
        return 1.0 / ((2.0 - self.nu1) / G1 + (2.0 - self.nu2) / G2)

    def pair_displacement(self, displacement):
        """Relative displacement of the pair for a given one: doubled for a wall (Section 3.2)."""
        return 2.0 * np.asarray(displacement, float) if self.wall else np.asarray(displacement, float)
