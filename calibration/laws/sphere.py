"""Three-dimensional sphere laws as 2D DEM codes often apply them to discs.

Many 2D DEM codes give discs the Hertz-Mindlin law of spheres of the same radius:

- Hertz: ``N = 4/3 E* sqrt(R*) delta_n^(3/2)``, contact radius ``a = sqrt(R* delta_n)``;
- Mindlin, as DEM codes implement it: an incremental tangential spring of stiffness
  ``kt = 8 G* sqrt(R* delta_n) = 8 G* a`` with Coulomb's cap (:mod:`hertz2d.calibration.laws.incremental`);
- Mindlin and Deresiewicz (1953) for a tangential displacement rising at constant N
  (``sphere_slip_sliding_memory`` seed, its Eq. 40):
  ``T = mu N [1 - (1 - delta_s/delta_su)^(3/2)]``, stick radius ``c = a (1 - T/(mu N))^(1/3)``,
  up to the relative displacement of the two centres at full slip
  ``delta_su = 3 mu N/(16 a G*) = (1/4) mu (E*/G*) delta_n`` (Johnson, *Contact Mechanics*, 1985,
  Eq. 7.42 at Q = mu P). The seed's Eq. 8 prints ``(1/8) mu (E*/G*) delta_n``, half of it: the seed
  measures one sphere's centre against the contact plane, hertz2d the relative displacement of
  the two bodies (as the FEM's delta_t). With the two-body value the initial slope 3 mu N/(2
  delta_su) is Mindlin's 8 G* a, which a test checks. Reversals follow Masing's rule with memory
  (:mod:`hertz2d.calibration.laws.masing`): from a turning point (delta*, T*) the stick radius is
  ``c = a (1 - |T - T*|/(2 mu N))^(1/3)``, the branch ``T* -+ 2 f(|delta_s - delta*|/2)``. The law
  is defined at constant N (``hold-normal`` and ``cycle`` paths, and ``file`` paths whose approach
  is held from the first tangential displacement on). Mindlin and Deresiewicz's varying-N cases
  are not implemented: with N and T changing together their stick annulus depends on the ratio
  dT/dN of every earlier increment (one loading rule per sign of dN and of dT, the history a
  stack of annuli), a law of its own; for discs the accurate model with memory
  (:class:`~hertz2d.calibration.laws.memory.AccurateMemoryModel`) takes any path, and the admissibility
  tests judge this law on closed paths at a constant approach.

E* and R* are Eqs. 5-6; ``1/G* = (2 - nu1)/G1 + (2 - nu2)/G2`` (:class:`ContactPair`).

Units: these are forces in N on spheres. A 2D code that uses them for discs reads the number as a
force per unit thickness (N/m), as if each disc were a slice of 1 m; the tables here do the same,
so the comparison with the plane-strain FEM shows what that choice costs. The law is not scale
consistent (the force grows like R*^(1/2) delta_n^(3/2), the 2D force like delta_n/log).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from hertz2d.calibration.laws.base import ContactLaw, law_table
from hertz2d.calibration.laws.incremental import capped_history
from hertz2d.calibration.laws.masing import MasingHistory
from hertz2d.calibration.laws.pair import ContactPair
from hertz2d.checks.loadpath import LoadPath
from hertz2d.checks import InputError


def hertz_normal(pair: ContactPair, delta_n) -> tuple[np.ndarray, np.ndarray]:
    """``(N, a)`` of Hertz's sphere contact (0 where delta_n <= 0)."""
    overlap = np.maximum(np.asarray(delta_n, float), 0.0)
    a = np.sqrt(pair.radius * overlap)
    return 4.0 / 3.0 * pair.modulus * np.sqrt(pair.radius) * overlap**1.5, a


class HertzMindlin(ContactLaw):
    """Hertz normal force, Mindlin's incremental tangential stiffness 8 G* a, Coulomb cap."""

    name = "hertz-mindlin"
    label = "3D Hertz-Mindlin on discs"
    #: kt = 8 G* a follows N: closed paths with a varying approach create energy (the known
    #: failure of incremental Hertz-Mindlin laws)
    admissible = False

    def __init__(self, pair: ContactPair):
        self.pair = pair

    def _run(self, path: LoadPath) -> pd.DataFrame:
        pair = self.pair
        delta_n = pair.pair_displacement(path.delta_n)
        N, a = hertz_normal(pair, delta_n)
        kt = 8.0 * pair.shear_modulus * a
        T, slipping = capped_history(pair.pair_displacement(path.delta_t), N, kt, pair.mu)
        kn = 2.0 * pair.modulus * a  # dN/d(delta_n)
        slip = np.where(N <= 0, "open", np.where(slipping, "full", "stick"))
        return law_table(path, N=N, T=T, a=a, kn=kn, kt=kt, slip=slip)


class MindlinDeresiewicz(ContactLaw):
    """Mindlin-Deresiewicz partial slip of spheres at constant N, with Masing's unloading rule.

    ``kt`` is the tangent stiffness of the branch, ``(3/2) mu N/delta_su (c/a)``.
    """

    name = "mindlin-deresiewicz"
    label = "3D Mindlin-Deresiewicz on discs"
    paths = ("hold-normal", "cycle", "file")
    #: Masing's branches at a constant N: a closed path dissipates the loop's area
    admissible = True
    varying_approach = False

    def __init__(self, pair: ContactPair):
        self.pair = pair

    def ultimate_slip(self, delta_n) -> np.ndarray:
        """``delta_su = (1/4) mu (E*/G*) delta_n``: relative displacement at full slip."""
        pair = self.pair
        return pair.mu * pair.modulus / (4.0 * pair.shear_modulus) * np.asarray(delta_n, float)

    def _run(self, path: LoadPath) -> pd.DataFrame:
        pair = self.pair
        delta_n = pair.pair_displacement(path.delta_n)
        delta_s = pair.pair_displacement(path.delta_t)
        N, a = hertz_normal(pair, delta_n)
        ultimate = self.ultimate_slip(delta_n)
        moved = np.flatnonzero(path.delta_t != 0)  # the normal stage: delta_t still 0
        held = np.arange(moved[0] if moved.size else len(path), len(path))
        if held.size and np.ptp(delta_n[held]) > 0:
            raise InputError(f"law={self.name!r} needs a constant approach while delta_t moves "
                             "(Mindlin and Deresiewicz's varying-N rules are not implemented)")
        T, fraction = np.zeros(len(path)), np.zeros(len(path))
        if held.size and N[held[0]] > 0:
            force, slip = float(pair.mu * N[held[0]]), float(ultimate[held[0]])
            history = MasingHistory(lambda u: force * (1.0 - (1.0 - u / slip) ** 1.5), force, slip)
            for k in held:
                T[k], fraction[k] = history.step(float(delta_s[k])), history.fraction
        ratio = np.cbrt(np.clip(1.0 - fraction, 0.0, 1.0))  # c/a = (1 - T/(mu N))^(1/3) on a branch
        with np.errstate(divide="ignore", invalid="ignore"):
            tangent = np.where(ultimate > 0, 1.5 * pair.mu * N / ultimate * ratio, 0.0)
        moving = np.diff(delta_s, prepend=0.0) != 0
        slip = np.where(N <= 0, "open", np.where(ratio <= 0, "full",
                                                 np.where(moving, "partial", "stick")))
        return law_table(path, N=N, T=T, a=a, c=a * ratio, kn=2.0 * pair.modulus * a, kt=tangent,
                         slip=slip)
