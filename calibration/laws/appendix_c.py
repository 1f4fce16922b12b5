"""Appendix C: the upper disc translated along a horizontal line, rotations blocked.

The lower disc is fixed; the upper disc's centre moves from ``(0, y0)`` to ``(S_t, y0)`` with
``y0 = R1 + R2 - delta_n0`` (the approach held after the normal stage). Two regimes:

partial slip (alpha = 0)
    the contact plane stays horizontal: N = N0 and T(S_t) from the tangential law of the chosen
    model (the accurate model's Eqs. 24-26, or the simplified model's kt), up to the onset of full
    slip at ``S_t = delta_su(N0)`` (Eq. 27; both models share it, Eq. 31 being its secant).
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
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from calibration.laws.base import ContactLaw, law_table
from calibration.laws.hertz2d import (accurate_tangential_force, full_slip_displacement,
                                      normal_force, normal_stiffness, tangential_stiffness)
from calibration.laws.pair import ContactPair
from calibration.laws.penalty_factor import EQ33
from fem.loadpath import LoadPath
from meshes.checks import one_of

TANGENTIAL_LAWS = ("accurate", "simplified")
#: bisection steps for the contact-normal rotation (alpha to 2^-60 of its bracket)
BISECTIONS = 60


class AppendixC(ContactLaw):
    """Partial slip, then full slip and finite slide with a rotating contact normal."""

    name = "appendix-c"
    paths = ("hold-normal",)

    def __init__(self, pair: ContactPair, penalty=EQ33, tangential: str = "accurate"):
        self.pair, self.penalty = pair, penalty
        self.tangential = one_of("tangential", tangential, TANGENTIAL_LAWS)

    @property
    def label(self) -> str:
        return f"Appendix C ({self.tangential} partial slip, {self.penalty.label})"

    def _slide_angle(self, S_t: np.ndarray, y0: float) -> np.ndarray:
        """The rotation alpha of the contact normal at horizontal translations ``S_t`` (full slip)."""
        pair = self.pair
        reach = pair.R1 + pair.R2
        low, high = np.zeros_like(S_t), np.arctan2(S_t, y0)
        for _ in range(BISECTIONS):
            alpha = 0.5 * (low + high)
            delta_n = reach - (S_t * np.sin(alpha) + y0 * np.cos(alpha))
            N, a = normal_force(pair, delta_n)
            residual = (full_slip_displacement(pair, N, a, self.penalty)
                        - (S_t * np.cos(alpha) - y0 * np.sin(alpha)))
            low, high = np.where(residual < 0, alpha, low), np.where(residual < 0, high, alpha)
        return 0.5 * (low + high)

    def _run(self, path: LoadPath) -> pd.DataFrame:
        pair = self.pair
        delta_n = pair.pair_displacement(path.delta_n)
        S_t = pair.pair_displacement(path.delta_t)
        N, a = normal_force(pair, delta_n)
        T, c = np.zeros_like(N), a.copy()
        alpha = np.zeros_like(N)
        tangential = path.stage == "tangential"
        if tangential.any():
            held = float(delta_n[tangential][0])
            y0 = pair.R1 + pair.R2 - held
            N0, a0 = (float(v) for v in normal_force(pair, held))
            onset = float(full_slip_displacement(pair, N0, a0, self.penalty))
            partial = tangential & (S_t < onset)
            if self.tangential == "accurate":
                T[partial], c[partial] = accurate_tangential_force(pair, N0, S_t[partial],
                                                                   self.penalty)
            else:
                T[partial] = tangential_stiffness(pair, a0, self.penalty) * S_t[partial]
                c[partial] = np.nan
            slide = tangential & ~partial
            alpha[slide] = self._slide_angle(S_t[slide], y0)
            N[slide], a[slide] = normal_force(
                pair, pair.R1 + pair.R2 - (S_t[slide] * np.sin(alpha[slide])
                                           + y0 * np.cos(alpha[slide])))
            T[slide], c[slide] = pair.mu * N[slide], 0.0
        Fx = T * np.cos(alpha) - N * np.sin(alpha)
        Fz = T * np.sin(alpha) + N * np.cos(alpha)
        with np.errstate(divide="ignore", invalid="ignore"):
            secant = np.where(S_t > 0, T / S_t, tangential_stiffness(pair, a, self.penalty))
        below_bound = "partial" if self.tangential == "accurate" else "stick"  # no stick zone
        slip = np.where(N <= 0, "open", np.where(alpha > 0, "slide", np.where(
            S_t <= 0, "stick", np.where(T >= pair.mu * N * (1 - 1e-12), "full", below_bound))))
        return law_table(path, N=N, T=T, a=a, c=c, kn=normal_stiffness(pair, a), kt=secant,
                         slip=slip, Fx=Fx, Fz=Fz)
