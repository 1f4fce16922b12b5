"""The linear spring of Cundall and Strack (1979): ``N = kn delta_n``, incremental capped T.

``kt = kn/2`` is a common default. :meth:`LinearSpring.calibrate` fits kn and kt by least squares
through the origin on any force-displacement table (the paper's 2.7e9 and 1.5e9 N/m come from such a
regression on its case 2, Section 4.3).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from hertz2d.calibration.laws.base import ContactLaw, law_table
from hertz2d.calibration.laws.incremental import capped_history
from hertz2d.checks.loadpath import LoadPath
from hertz2d.checks import InputError, non_negative, positive

#: the paper's linear spring (Section 4.3): kn and kt of a disc pair, N/m per m
PAPER_KN, PAPER_KT = 2.7e9, 1.5e9


def _slope_through_origin(x, y, name: str) -> float:
    x, y = np.asarray(x, float), np.asarray(y, float)
    if not np.any(x != 0):
        raise InputError(f"{name}: the table has no nonzero displacement to regress on")
    return float(np.dot(x, y) / np.dot(x, x))


class LinearSpring(ContactLaw):
    """Constant normal and tangential stiffness (N/m per m), Coulomb cap ``|T| <= mu N``."""

    name = "linear"
    #: constant kt: the stored energy T^2/(2 kt) changes only by the work of T, and the cap
    #: removes energy (slip, or T cut as N falls), never adds it
    admissible = True

    def __init__(self, kn: float, kt: float | None = None, mu: float = 0.3):
        self.kn = positive("kn", kn)
        self.kt = positive("kt", kn / 2.0 if kt is None else kt)
        self.mu = non_negative("mu", mu)

    @property
    def label(self) -> str:
        return f"linear spring (kn {self.kn:.3g}, kt {self.kt:.3g})"

    @classmethod
    def calibrate(cls, delta_n, normal_force, delta_t, tangential_force,
                  mu: float) -> "LinearSpring":
        """kn and kt by linear regression through the origin of force on displacement."""
        return cls(_slope_through_origin(delta_n, normal_force, "kn"),
                   _slope_through_origin(delta_t, tangential_force, "kt"), mu)

    def _run(self, path: LoadPath) -> pd.DataFrame:
        N = self.kn * np.maximum(path.delta_n, 0.0)
        T, slipping = capped_history(path.delta_t, N, self.kt, self.mu)
        slip = np.where(N <= 0, "open", np.where(slipping, "full", "stick"))
        return law_table(path, N=N, T=T, a=np.nan, kn=self.kn, kt=self.kt, slip=slip)
