"""Damping: a viscous contact damping ratio and PFC-style local damping.

**What the paper's "contact damping is 0.7" (Section 4.3) most likely means: local damping with
alpha = 0.7**, the default of PFC's local (non-viscous) damping, which in-house and open DEM codes
of granular mechanics copied for quasi-static tests such as the biaxial test (YADE's
``NewtonIntegrator.damping`` is the same scheme). Read as a viscous damping ratio, 0.7 would make
every collision nearly plastic (normal restitution ``exp(-0.7 pi / sqrt(1 - 0.49)) = 0.046``),
an unusual choice that a paper would state as a ratio or a restitution coefficient; the paper
gives a bare number among the material parameters, as PFC users do with the local damping
coefficient. Both are implemented, so the choice can be tested (``docs/theory/dem.md``, and
``benchmarks/dem_damping.py`` for the sensitivity):

- **viscous** (``ratio`` zeta): dashpots in parallel with the springs, normal force
  ``N - gamma_n v_n`` and, while the contact sticks, tangential ``T + gamma_t v_t``, with
  ``gamma = 2 zeta sqrt(m* k)``, m* the pair's reduced mass and k the law's tangent normal
  stiffness dN/d(delta_n) (kt for the tangential dashpot). For a wall, the pair is the disc and
  its mirror image (m* = m/2, relative velocity twice the disc's), which gives the disc the same
  damping ratio. As in the classical Kelvin-Voigt contact the dashpot may pull briefly at the end
  of a contact (the force is not clipped at zero), which is what the closed forms of the linear
  spring-dashpot impact assume: restitution ``exp(-zeta pi / sqrt(1 - zeta^2))``, contact time
  ``pi / (omega sqrt(1 - zeta^2))``.
- **local** (``local`` alpha, Cundall's non-viscous damping as in PFC): each degree of freedom
  (x, y, rotation) of each disc gets ``-alpha |F| sign(v)``, F its unbalanced force (contacts and
  gravity) or moment and v its velocity. It damps the motion of each disc, not each contact, so
  free fall is slowed too (to (1 - alpha) g), as in PFC. A linear-spring impact against a wall then
  rebounds with ``e = sqrt((1 - alpha)/(1 + alpha))`` (stiffness k (1 + alpha) while the disc
  approaches, k (1 - alpha) while it leaves).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from hertz2d.dem.jit import njit
from hertz2d.checks import InputError


@dataclass(frozen=True)
class Damping:
    """A viscous contact damping ratio and a local damping coefficient (either may be 0)."""

    ratio: float = 0.0
    local: float = 0.0

    def __post_init__(self):
        for name, value in (("damping ratio", self.ratio), ("local damping", self.local)):
            if not (isinstance(value, (int, float)) and math.isfinite(value) and 0 <= value < 1):
                raise InputError(f"{name}={value!r} must be in [0, 1)")

    @property
    def label(self) -> str:
        parts = ([f"damping ratio {self.ratio:g}"] if self.ratio else []) + (
            [f"local damping {self.local:g}"] if self.local else [])
        return ", ".join(parts) or "undamped"


#: what the paper's "contact damping is 0.7" most likely is (module docstring)
PAPER = Damping(local=0.7)


@njit(inline=True)
def dashpot(ratio, reduced_mass, stiffness):
    """``gamma = 2 zeta sqrt(m* k)``."""
    return 2.0 * ratio * math.sqrt(reduced_mass * stiffness)


@njit(inline=True)
def local_damping(alpha, force, velocity):
    """``-alpha |F| sign(v)`` for one degree of freedom."""
    if velocity > 0.0:
        return -alpha * abs(force)
    if velocity < 0.0:
        return alpha * abs(force)
    return 0.0
