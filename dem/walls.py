"""Rigid straight walls: infinite lines that move with a prescribed velocity or a servo.

A wall is a point on it and its unit normal pointing into the domain; a disc of radius r at x
overlaps it by ``delta = r - (x - point) . normal``. The contact is the disc against its mirror
image (Section 3.2, :mod:`hertz2d.dem.laws`). A wall moves with its own velocity, which is either
prescribed or set each step by a servo on its stress.

Stress: the force the discs press the wall with, along its normal, divided by its length. The
length is the distance between the two walls that bound it (``span``: the side walls for the
top wall of a box), so it follows the box as it deforms.

Servo (the usual DEM stress control, e.g. PFC's): after every force evaluation the wall's normal
velocity is set to ``v = gain (sigma_target - sigma) L / (k dt)``, clipped to the wall's largest
speed, where k is the sum of its contacts' tangent normal stiffnesses: a wall that moved at v for
one step would change its force by ``k v dt``, so ``gain`` is the fraction of the stress error
corrected per step (0 < gain <= 1; about 0.5 is usual). Without contacts the wall moves at its
largest speed towards the discs. sigma is the stress of the contacts' springs: contact dashpots
respond to the wall's own velocity within the step, and a servo on the total force would chase
them (with a damping ratio of 0.3 it oscillates between its speed limits); at rest they carry
nothing. The stress reported (:meth:`Walls.stresses`) is the total, dashpots included.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from hertz2d.dem.jit import njit
from hertz2d.checks import InputError

#: no servo: the wall keeps its prescribed velocity
NO_SERVO = np.nan


class Walls(NamedTuple):
    """Every wall's geometry, motion and measured force (arrays updated in place)."""

    #: (w, 2) a point on each wall
    point: np.ndarray
    #: (w, 2) unit normal into the domain
    normal: np.ndarray
    #: (w, 2) velocity (set by the servo for servo walls)
    velocity: np.ndarray
    #: (w,) target stress of a servo wall, NaN for a wall with a prescribed velocity
    target_stress: np.ndarray
    #: (w,) fraction of the stress error corrected per step
    gain: np.ndarray
    #: (w,) the servo's largest speed
    max_speed: np.ndarray
    #: (w, 2) the two walls bounding each wall (its length is their distance), -1 if none
    span: np.ndarray
    #: (w, 2) force the discs exert on each wall, at the last force evaluation
    force: np.ndarray
    #: (w,) sum of the tangent normal stiffnesses of each wall's contacts, same evaluation
    stiffness: np.ndarray

    @classmethod
    def build(cls, points, normals, velocities=None, span=None) -> "Walls":
        points = np.asarray(points, dtype=float).reshape(-1, 2)
        normals = np.asarray(normals, dtype=float).reshape(-1, 2)
        count = len(points)
        if normals.shape != (count, 2):
            raise InputError("every wall needs one point and one normal")
        length = np.hypot(normals[:, 0], normals[:, 1])
        if np.any(length == 0) or not np.all(np.isfinite(points)):
            raise InputError("a wall needs a finite point and a nonzero normal")
        velocity = (np.zeros((count, 2)) if velocities is None
                    else np.asarray(velocities, dtype=float).reshape(count, 2).copy())
        span = (np.full((count, 2), -1, dtype=np.int64) if span is None
                else np.asarray(span, dtype=np.int64).reshape(count, 2))
        return cls(points.copy(), normals / length[:, None], velocity, np.full(count, NO_SERVO),
                   np.zeros(count), np.zeros(count), span, np.zeros((count, 2)),
                   np.zeros(count))

    @classmethod
    def none(cls) -> "Walls":
        return cls.build(np.zeros((0, 2)), np.zeros((0, 2)))

    @classmethod
    def box(cls, width: float, height: float) -> "Walls":
        """The four walls of ``[0, width] x [0, height]``: bottom, right, top, left (0-3)."""
        points = [(0.0, 0.0), (width, 0.0), (0.0, height), (0.0, 0.0)]
        normals = [(0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0)]
        span = [(1, 3), (0, 2), (1, 3), (0, 2)]
        return cls.build(points, normals, span=span)

    @property
    def count(self) -> int:
        return len(self.point)

    def set_servo(self, wall: int, stress: float, gain: float = 0.5,
                  max_speed: float = 1.0) -> None:
        """Drive ``wall`` towards ``stress`` (Pa) by the servo; its length comes from its span."""
        if not 0 <= wall < self.count:
            raise InputError(f"wall={wall!r} is not one of the {self.count} walls")
        if np.any(self.span[wall] < 0):
            raise InputError(f"wall={wall} has no span (the two walls bounding it), "
                             "so its stress is not defined")
        if not (np.isfinite(stress) and stress >= 0):
            raise InputError(f"stress={stress!r} must be >= 0")
        if not 0 < gain <= 1:
            raise InputError(f"gain={gain!r} must be in (0, 1]")
        if not max_speed > 0:
            raise InputError(f"max_speed={max_speed!r} must be > 0")
        self.target_stress[wall], self.gain[wall], self.max_speed[wall] = stress, gain, max_speed

    def set_velocity(self, wall: int, velocity) -> None:
        """Move ``wall`` with a prescribed ``velocity`` (and stop its servo)."""
        self.target_stress[wall] = NO_SERVO
        self.velocity[wall] = velocity

    def lengths(self) -> np.ndarray:
        """Each wall's length (NaN without a span)."""
        return np.array([wall_length(self.point, self.normal, self.span, w)
                         for w in range(self.count)])

    def stresses(self) -> np.ndarray:
        """Each wall's stress at the last force evaluation, Pa (NaN without a span)."""
        pressing = -np.einsum("ij,ij->i", self.force, self.normal)
        return pressing / self.lengths()


@njit
def wall_length(point, normal, span, wall):
    """Distance between the two walls bounding ``wall`` (NaN without a span)."""
    a, b = span[wall, 0], span[wall, 1]
    if a < 0 or b < 0:
        return np.nan
    return abs((point[a, 0] - point[b, 0]) * normal[a, 0]
               + (point[a, 1] - point[b, 1]) * normal[a, 1])


@njit
def servo(walls, spring_force, dt):
    """Set every servo wall's velocity from the stress of its contacts' springs, given the force
    ``spring_force`` (w, 2) those springs exert on the discs (see the module docstring)."""
    for w in range(walls.point.shape[0]):
        target = walls.target_stress[w]
        if np.isnan(target):
            continue
        length = wall_length(walls.point, walls.normal, walls.span, w)
        pressing = (spring_force[w, 0] * walls.normal[w, 0]
                    + spring_force[w, 1] * walls.normal[w, 1])
        error = target - pressing / length
        limit = walls.max_speed[w]
        if walls.stiffness[w] > 0.0:
            speed = walls.gain[w] * error * length / (walls.stiffness[w] * dt)
            speed = min(max(speed, -limit), limit)
        else:
            speed = limit if error > 0.0 else (-limit if error < 0.0 else 0.0)
        walls.velocity[w, 0] = speed * walls.normal[w, 0]
        walls.velocity[w, 1] = speed * walls.normal[w, 1]
