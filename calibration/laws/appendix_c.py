"""Appendix C: the upper disc translated along a horizontal line, rotations blocked.

The lower disc is fixed; the upper disc's centre moves from ``(0, y0)`` to ``(S_t, y0)`` with
``y0 = R1 + R2 - delta_n0`` (the approach held after the normal stage). Two regimes:

partial slip (alpha = 0)
    the contact plane stays horizontal: the rows of the chosen model (:class:`AccurateModel`,
    Eqs. 24-26, by default, or :class:`SimplifiedModel`), up to the onset of full slip at
    ``S_t = delta_su(N0)`` (Eq. 27; both models share it, Eq. 31 being its secant).
full slip and finite slide (alpha > 0)
    the contact normal has rotated by alpha. With the centre-to-centre vector decomposed on the
    rotated frame, ``(S_t, y0) = (R1 + R2 - delta_n)(sin a, cos a) + delta_su (cos a, -sin a)``, which
    is (C.4) ``delta_su = (S_t - y0 tan a) cos a`` and (C.5)
    ``delta_n = R1 + R2 - (y0/cos a + delta_su tan a)``; Coulomb gives T = mu N, and the tangential
    elastic displacement at full slip is Eq. 27's ``delta_su(N)``. For a given alpha, (C.5) gives
    delta_n, the normal law (Eq. 23) N, Eq. 27 delta_su(N); the residual
    ``delta_su(N) - (S_t - y0 tan a) cos a`` rises monotonically with alpha on
    ``0 <= alpha <= atan(S_t/y0)`` (N grows, the right side falls), negative at 0 and positive at
    the end, so alpha is found by bisection. The driving forces follow from equilibrium:
    (C.3) ``F = mu N cos a - N sin a`` horizontal, (C.2) ``N* = mu N sin a + N cos a`` vertical.

At the transition alpha = 0, S_t = delta_su(N0) and both regimes give F = mu N0: the curve is
continuous. Defined for ``hold-normal`` paths (the translation at fixed centre distance).

A disc on a wall (:meth:`ContactPair.disc_on_wall`) slides along a flat: the contact normal stays
vertical (alpha = 0 for any S_t), so the slide keeps the approach, N = N0 and Fx = T = mu N0. The
mirror image of Section 3.2 stands for the wall in the contact relations only; it does not take
part in the slide's geometry (it moves with the disc), so the law is the partial-slip model's rows
throughout, full slip included.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from hertz2d.calibration.laws.base import ContactLaw
from hertz2d.calibration.laws.hertz2d import (AccurateModel, full_slip_displacement, normal_force,
                                      normal_stiffness)
from hertz2d.calibration.laws.pair import ContactPair
from hertz2d.calibration.laws.penalty_factor import EQ33
from hertz2d.checks.loadpath import LoadPath

#: bisection steps for the contact-normal rotation (alpha to 2^-60 of its bracket)
BISECTIONS = 60


class AppendixC(ContactLaw):
    """Partial slip by ``partial_slip`` (a law class), then full slip and finite slide."""

    name = "appendix-c"
    #: the translation of the paper's Appendix C, a monotonic path by construction: a closed
    #: path has no slide to follow (its partial slip on closed paths is the accurate model with
    #: memory's)
    paths = ("hold-normal",)

    def __init__(self, pair: ContactPair, penalty=EQ33, partial_slip=AccurateModel):
        self.pair, self.penalty = pair, penalty
        self.partial_slip = partial_slip(pair, penalty)

    @property
    def label(self) -> str:
        return f"Appendix C ({self.partial_slip.name} partial slip, {self.penalty.label})"

    def _approach(self, S_t: np.ndarray, alpha: np.ndarray, y0: float) -> np.ndarray:
        """(C.5): ``delta_n = R1 + R2 - (S_t sin a + y0 cos a)`` on the rotated contact normal."""
        return self.pair.R1 + self.pair.R2 - (S_t * np.sin(alpha) + y0 * np.cos(alpha))

    def _slide_angle(self, S_t: np.ndarray, y0: float) -> np.ndarray:
        """The rotation alpha of the contact normal at translations ``S_t`` in full slip.

        Bisection on ``delta_su(N(alpha)) - (S_t cos a - y0 sin a)`` (Eq. 27 against (C.4)),
        increasing in alpha on ``[0, atan(S_t/y0)]``.
        """
        low, high = np.zeros_like(S_t), np.arctan2(S_t, y0)
        for _ in range(BISECTIONS):
            alpha = 0.5 * (low + high)
            N, a = normal_force(self.pair, self._approach(S_t, alpha, y0))
            residual = (full_slip_displacement(self.pair, N, a, self.penalty)
                        - (S_t * np.cos(alpha) - y0 * np.sin(alpha)))
            low, high = np.where(residual < 0, alpha, low), np.where(residual < 0, high, alpha)
        return 0.5 * (low + high)

    def _run(self, path: LoadPath) -> pd.DataFrame:
        table = self.partial_slip.run(path)
        tangential = (path.stage == "tangential")
        if self.pair.wall or not tangential.any():  # a flat wall: the contact normal is fixed
            return table
        pair = self.pair
        S_t = pair.pair_displacement(path.delta_t)
        first = np.flatnonzero(tangential)[0]
        N0, a0 = table.N.iloc[first], table.a.iloc[first]
        y0 = pair.R1 + pair.R2 - float(pair.pair_displacement(path.delta_n[first]))
        slide = tangential & (S_t >= full_slip_displacement(pair, N0, a0, self.penalty))
        alpha = self._slide_angle(S_t[slide], y0)
        N, a = normal_force(pair, self._approach(S_t[slide], alpha, y0))
        T = pair.mu * N
        table.loc[slide, ["N", "T", "a", "c"]] = np.column_stack([N, T, a, np.zeros_like(N)])
        table.loc[slide, "Fx"] = T * np.cos(alpha) - N * np.sin(alpha)  # (C.3)
        table.loc[slide, "Fz"] = T * np.sin(alpha) + N * np.cos(alpha)  # (C.2)
        table.loc[slide, "kn"] = normal_stiffness(pair, a)
        table.loc[slide, "kt"] = T / S_t[slide]  # secant, as the accurate model's
        table.loc[slide, "slip"] = "slide"
        return table
