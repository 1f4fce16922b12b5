"""Masing's rules with memory for a tangential law at constant normal force.

Given the virgin curve f (the force as a function of the displacement of a first monotonic
loading from the unloaded state, odd in sign, rising to the sliding force ``F = f(u_max)`` and
constant beyond), a displacement history is followed branch by branch:

- the first loading follows f from the origin (the backbone, ``T = sign(u) f(|u|)``, u the
  displacement from the origin);
- from every turning point (delta*, T*) the branch is ``T = T* + sigma 2 f(|delta - delta*|/2)``,
  sigma the direction of motion (Masing's rule);
- memory rule: a branch reaching the turning point where the branch before the current one began
  (or, for the first reversal, the mirror image of its turning point on the backbone) has closed
  its loop, and the history goes on along that earlier branch (the two turning points are
  forgotten);
- sliding (``|T| = F``) erases every turning point; the backbone moves with the slide so that it
  passes through the sliding state (the rigid slip shifts the origin).

This is the tangential part of Mindlin and Deresiewicz's theory at constant N (Johnson,
*Contact Mechanics*, 1985, Section 7.2), which a sphere law (:mod:`hertz2d.calibration.laws.sphere`)
uses; the 2D accurate model gets the same rules from its slip fronts
(:mod:`hertz2d.calibration.laws.memory`).
"""
from __future__ import annotations

import math
from typing import Callable



class MasingHistory:
    """Masing's rules with memory along one contact's displacements at constant N."""

    def __init__(self, virgin: Callable[[float], float], sliding_force: float,
                 sliding_displacement: float):
        self.virgin, self.F, self.u_max = virgin, sliding_force, sliding_displacement
        self.origin, self.turning = 0.0, []  # backbone origin; turning points (delta, T)
        self.delta, self.T, self.direction = 0.0, 0.0, 0.0

    def _force(self, delta: float) -> float:
        if not self.turning:
            u = delta - self.origin
            return math.copysign(self.virgin(min(abs(u), self.u_max)), u)
        anchor, force = self.turning[-1]
        return force + self.direction * 2.0 * self.virgin(min(abs(delta - anchor) / 2.0,
                                                              self.u_max))

    def _closed_loop(self, delta: float) -> int:
        """How many turning points the branch to ``delta`` has passed the end of (0, 1 or 2)."""
        if len(self.turning) >= 2:
            return 2 if self.direction * (delta - self.turning[-2][0]) >= 0 else 0
        if len(self.turning) == 1:  # the backbone's mirror image of the first turning point
            mirror = 2.0 * self.origin - self.turning[0][0]
            return 1 if self.direction * (delta - mirror) >= 0 else 0
        return 0

    def step(self, delta: float) -> float:
        """The force at displacement ``delta`` (the next point of the history)."""
        move = delta - self.delta
        if move != 0.0:
            sigma = math.copysign(1.0, move)
            if self.direction != 0.0 and sigma != self.direction:
                self.turning.append((self.delta, self.T))
            self.direction = sigma
            while (passed := self._closed_loop(delta)):
                del self.turning[-passed:]
            force = self._force(delta)
            if abs(force) >= self.F * (1.0 - 1e-12):  # sliding: memory erased
                force = sigma * self.F
                self.turning, self.origin = [], delta - sigma * self.u_max
            self.delta, self.T = delta, force
        return self.T

    @property
    def fraction(self) -> float:
        """How far along its branch the history is, as a fraction of the branch's force range:
        ``|T|/F`` on the backbone, ``|T - T*|/(2F)`` on a branch from (delta*, T*); 1 sliding."""
        if not self.turning:
            return abs(self.T) / self.F if self.F > 0 else 1.0
        return abs(self.T - self.turning[-1][1]) / (2.0 * self.F)
