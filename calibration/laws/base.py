"""The common interface of a 2D contact law: run a load path, return the per-step table.

A law is built from a :class:`~hertz2d.calibration.laws.pair.ContactPair` (and its own parameters) and
``run(path)`` returns one row per step of a :class:`hertz2d.checks.loadpath.LoadPath`, with the columns of
the FEM's ``twodisc`` table first, so the two line up row by row:

``step, delta_n, delta_t, Fx, Fz, N, T, a, c`` then ``stage, kn, kt, slip``.

``Fx``, ``Fz`` are the horizontal and vertical driving forces on the upper body (equal to T and N
for laws whose contact plane does not rotate); ``N``, ``T`` the contact resultants (N/m); ``a`` the
contact half-width and ``c`` the stick half-width where the law defines one (empty otherwise);
``kn``, ``kt`` the law's normal and tangential stiffness; ``slip`` one of ``open`` (no contact),
``stick``, ``partial`` (partial slip), ``full`` (full slip) or ``slide`` (full slip with the
contact plane rotating, Appendix C).

``ContactLaw.paths`` names the load-path kinds a law is defined for (:data:`ALL_PATHS` unless the
law derives from a constant normal force or a monotonic tangential load); ``run`` refuses the
others with an :class:`~hertz2d.checks.InputError`. ``ContactLaw.admissible`` declares whether the law
can create energy on a closed path and ``ContactLaw.varying_approach`` whether it takes a varying
approach; ``tests/test_admissibility.py`` holds every law of the catalogue to its declaration.
"""
from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np
import pandas as pd

from hertz2d.checks.loadpath import PATHS, STEP_COLUMNS, LoadPath
from hertz2d.checks import InputError

#: a law table's columns: the FEM's per-step columns, then the law's own
COLUMNS = (*STEP_COLUMNS, "stage", "kn", "kt", "slip")
#: every kind of load path: the built ones and ``file`` (any path, :meth:`LoadPath.from_file`)
ALL_PATHS = (*PATHS, "file")


class ContactLaw(ABC):
    """A force-displacement law of two contacting bodies."""

    #: short name used on the command line and in tables
    name: str = ""
    #: the load-path kinds the law is defined for (incremental laws run every path)
    paths: tuple[str, ...] = ALL_PATHS
    #: whether no closed path in (delta_n, delta_t) yields net work
    #: (:mod:`hertz2d.calibration.laws.admissibility`): True, the law cannot create energy; False, some
    #: closed paths with a varying approach create energy (a property test finds one); None, the
    #: law runs no closed path (it is defined for a monotonic load only)
    admissible: bool | None = None
    #: False for a law defined at a constant approach only (its closed paths hold N constant)
    varying_approach: bool = True
    #: True for a law applied in the frame of the line of centres as a DEM code applies it
    #: (:mod:`hertz2d.calibration.laws.rigid_kinematics`): its overlap is the centres' distance's
    centres_frame: bool = False

    @property
    def label(self) -> str:
        """Human-readable name for legends and tables."""
        return self.name

    def run(self, path: LoadPath) -> pd.DataFrame:
        if path.kind not in self.paths:
            raise InputError(f"law={self.name!r} is defined for {', '.join(self.paths)} "
                             f"paths, not path={path.kind!r}")
        return self._run(path)

    @abstractmethod
    def _run(self, path: LoadPath) -> pd.DataFrame:
        """The per-step table along ``path`` (the law's own displacements, before any wall)."""


def law_table(path: LoadPath, *, N, T, a, kn, kt, slip, c=None, Fx=None, Fz=None) -> pd.DataFrame:
    """Assemble a law's per-step table in :data:`COLUMNS` order."""
    frame = path.frame()
    steps = len(path)

    def column(value):
        return np.broadcast_to(np.asarray(value, float), (steps,)).copy()

    frame["N"], frame["T"], frame["a"] = column(N), column(T), column(a)
    frame["Fx"] = column(T if Fx is None else Fx)
    frame["Fz"] = column(N if Fz is None else Fz)
    frame["c"] = column(np.nan if c is None else c)
    frame["kn"], frame["kt"] = column(kn), column(kt)
    frame["slip"] = np.broadcast_to(np.asarray(slip), (steps,))
    return frame[list(COLUMNS)]
