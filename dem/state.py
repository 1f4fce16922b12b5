"""The discs: positions, velocities, radii and masses, per unit thickness.

Units (stated once for the whole engine): SI, everything per unit thickness of the 2D slice. A
disc of radius r and density rho has mass ``m = rho pi r^2`` (kg/m) and moment of inertia
``I = m r^2 / 2`` (kg m^2/m); contact forces are N/m, energies J/m, a wall's stress is its force
divided by its length (N/m / m = Pa). Gravity is an acceleration, so it is the same per slice.

Each disc has three degrees of freedom, stored as the columns of (n, 3) arrays: ``x, y`` and the
rotation angle ``theta`` (counter-clockwise) in :attr:`Discs.position`, their rates ``vx, vy,
omega`` in :attr:`Discs.velocity`, and ``m, m, I`` in :attr:`Discs.inertia`, so the integrator
treats the three alike.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from hertz2d.checks import InputError, positive


class Discs(NamedTuple):
    """The discs' state (arrays the compiled loop updates in place)."""

    #: (n, 3): x, y, theta
    position: np.ndarray
    #: (n, 3): vx, vy, omega
    velocity: np.ndarray
    #: (n,)
    radius: np.ndarray
    #: (n, 3): m, m, I
    inertia: np.ndarray

    @classmethod
    def from_arrays(cls, centres, radii, density: float, velocities=None) -> "Discs":
        """Discs of one ``density`` at ``centres`` (n, 2) with ``radii`` (n,); at rest unless
        ``velocities`` (n, 3: vx, vy, omega) is given."""
        positive("density", density)
        centres = np.asarray(centres, dtype=float)
        radii = np.asarray(radii, dtype=float)
        if centres.ndim != 2 or centres.shape[1] != 2 or radii.shape != (len(centres),):
            raise InputError(f"centres of shape {centres.shape} and radii of shape "
                             f"{radii.shape} do not describe n discs")
        if not (np.all(np.isfinite(centres)) and np.all(np.isfinite(radii))
                and np.all(radii > 0)):
            raise InputError("every disc needs a finite centre and a radius > 0")
        n = len(radii)
        position = np.zeros((n, 3))
        position[:, :2] = centres
        velocity = np.zeros((n, 3))
        if velocities is not None:
            velocity[:] = np.asarray(velocities, dtype=float)
        mass = density * np.pi * radii**2
        inertia = np.column_stack([mass, mass, 0.5 * mass * radii**2])
        return cls(position, velocity, radii.copy(), inertia)

    @property
    def count(self) -> int:
        return len(self.radius)

    @property
    def mass(self) -> np.ndarray:
        return self.inertia[:, 0]

    def kinetic_energy(self) -> float:
        """Translational and rotational kinetic energy, J/m."""
        return float(0.5 * np.sum(self.inertia * self.velocity**2))
