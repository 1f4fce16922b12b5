"""What a DEM code sees of a two-body load path: the contact frame of the discs' centres.

In the two-body FEM (and in the paper's Section 4.2) the upper disc's centre is moved by
``(delta_t, -delta_n)`` relative to the lower disc's, rotations held. A DEM code given these centre
motions does not apply a law to ``(delta_n, delta_t)`` directly: its contact normal is the line of
centres, turned by ``alpha = atan2(delta_t, R1 + R2 - delta_n)`` from the vertical, its overlap is
``R1 + R2 - |x_2 - x_1|`` and its tangential increment is the centres' relative motion along the
turned tangent, ``d(delta_t) cos(alpha) + d(delta_n) sin(alpha)`` (alpha at the middle of the step,
the midpoint rule of a DEM step); the law's N and T act along that frame, so the force driving the
upper flat is

    ``Fx = T cos(alpha) - N sin(alpha)``,  ``Fz = N cos(alpha) + T sin(alpha)``

(the signs of Appendix C's Eqs. C.2-C.3). Against a rigid straight wall the normal stays vertical:
overlap delta_n, increment d(delta_t), Fx = T, Fz = N. A law judged on the FEM's Fx in this frame
is judged as a DEM code would apply it; on a hold-normal path at a/R = 0.2 the turn of the frame
alone moves Fx by several per cent of mu N.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ContactFrame:
    """Per step of a path: the overlap, this step's tangential increment in the turned frame and
    the frame's angle (0 for a wall), all of the disc relative to the other body."""

    overlap: np.ndarray
    increment: np.ndarray
    angle: np.ndarray

    def driving_forces(self, N, T) -> tuple[np.ndarray, np.ndarray]:
        """``(Fx, Fz)``, the forces that drive the upper flat, from the contact forces."""
        cos, sin = np.cos(self.angle), np.sin(self.angle)
        return T * cos - N * sin, N * cos + T * sin


def contact_frame(delta_n, delta_t, R1: float, R2: float, wall: bool) -> ContactFrame:
    """The contact frame of the centres along a path of prescribed ``delta_n``, ``delta_t`` (from
    the unloaded state: the first step's increments are from 0)."""
    delta_n, delta_t = np.asarray(delta_n, float), np.asarray(delta_t, float)
    previous_n, previous_t = np.r_[0.0, delta_n[:-1]], np.r_[0.0, delta_t[:-1]]
    if wall:
        return ContactFrame(delta_n, delta_t - previous_t, np.zeros_like(delta_n))
    reach = R1 + R2
    angle = np.arctan2(delta_t, reach - delta_n)
    middle = np.arctan2(0.5 * (delta_t + previous_t), reach - 0.5 * (delta_n + previous_n))
    increment = (delta_t - previous_t) * np.cos(middle) + (delta_n - previous_n) * np.sin(middle)
    return ContactFrame(reach - np.hypot(delta_t, reach - delta_n), increment, angle)
