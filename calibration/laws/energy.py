"""Energy dissipated per tangential cycle, from any per-step table (a law's or the FEM's).

:func:`energy_per_cycle` is the work of the driving forces over the last full cycle of a
``cycle`` (or ``coupled-cycle``) path, ``W = closed integral of Fx d(delta_t) + Fz d(delta_n)`` by
the trapezoid rule over the steps from the last turning point at +A (the step before the last
``unloading`` stage) to the end of the ``reloading`` stage that follows (back at +A, and at the
same approach): the area of the hysteresis loop, positive when the contact dissipates, in J/m
(per unit thickness). The bodies are back in the state they left, so no elastic energy is left
over: the work is what the cycle dissipated. At a constant approach (``cycle``) the normal term
is zero.

What the laws give at constant N (displacement amplitude A, virgin curve f, ``T_A = f(A)``):

- Masing's rule makes the loop of two copies of 2 f(u/2), so
  ``W = 8 integral_0^A f du - 4 A T_A = 4 A T_A - 8 integral_0^(T_A) delta(T) dT``, delta(T) the
  virgin curve's inverse (with ``T_A = mu N`` once A passes full slip);
- at small amplitudes f(u) = k0 u - k2 u^2 + O(u^3) gives ``W = (4/3) k2 A^3``: the 2D law
  dissipates like A^3, the exponent of Mindlin's spheres (Johnson, *Contact Mechanics*, 1985,
  Eq. 7.61, in force amplitude), because the virgin curve is analytic at the origin. The 2D
  coefficient: with w frozen at w(a), Eqs. 24-26 become ``delta_t/delta_su = t + eps (1 - t)
  log(1 - t) = (1 - eps) t + (eps/2) t^2 + ...`` (t = T/(mu N), ``eps = sum_i omega_i (1 + w_i)/
  (2 B(a))``, B the bracket of Eq. 27), so ``k0 = mu N/((1 - eps) delta_su)``,
  ``k2 = eps mu N/(2 (1 - eps)^3 delta_su^2)`` and ``W = (2/3) eps mu N A^3/((1 - eps)^3
  delta_su^2)``; Eq. 33's w, which varies with the stick half-width (Eq. 26), raises the
  coefficient by 7 % in the paper's case 1 (eps = 0.149);
- a linear spring capped at mu N (Table 1, Eq. 32; the linear and Hertz-Mindlin laws) dissipates
  nothing below full slip and ``4 mu N (A - mu N/kt)`` beyond it.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from hertz2d.checks import InputError


def loop_work(displacement, force) -> float:
    """``sum (x_(i+1) - x_i) (y_i + y_(i+1))/2``: the work of ``force`` along the polyline."""
    x, y = np.asarray(displacement, float), np.asarray(force, float)
    return float(np.sum(np.diff(x) * 0.5 * (y[1:] + y[:-1])))


def last_cycle(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of the last full cycle: the turning point at +A, the last ``unloading`` stage and
    the ``reloading`` stage after it."""
    stage = table["stage"].to_numpy()
    unloading = np.flatnonzero(stage == "unloading")
    if unloading.size == 0:
        raise InputError("the table has no unloading stage: energy per cycle needs a cycle path")
    start = unloading[-1]
    while start > 0 and stage[start - 1] == "unloading":
        start -= 1
    end = unloading[-1] + 1
    if end >= len(stage) or stage[end] != "reloading":
        raise InputError("the table's last unloading stage has no reloading after it")
    while end + 1 < len(stage) and stage[end + 1] == "reloading":
        end += 1
    if start == 0:
        raise InputError("the table's last unloading stage has no turning point before it")
    return table.iloc[start - 1:end + 1]


def energy_per_cycle(table: pd.DataFrame, force: str = "Fx", normal: str = "Fz") -> float:
    """The energy dissipated in the last full cycle: the loop areas of ``force`` against delta_t
    and of ``normal`` against delta_n by the trapezoid rule.

    Parameters
    ----------
    table : pandas.DataFrame
        A per-step table of a law's ``run`` or of the FEM, on a ``cycle`` or ``coupled-cycle``
        path (its ``stage`` column marks the cycles).
    force, normal : str, optional
        The columns of the tangential and normal forces: the driving forces ``Fx``, ``Fz`` by
        default; ``"T", "N"`` for the contact frame's.

    Returns
    -------
    float
        The work the last cycle dissipates (J/m): 0 for an elastic law, positive with
        hysteresis.
    """
    return sum(loop_works(table, force, normal))


def loop_works(table: pd.DataFrame, force: str = "Fx", normal: str = "Fz") -> tuple[float, float]:
    """The last full cycle's work split into its two loops: ``(closed integral of force
    d(delta_t), closed integral of normal d(delta_n))`` (:func:`energy_per_cycle` is their sum).
    Between bodies of one material the normal loop of a cycle closes to the quadrature's error;
    with Dundurs' beta != 0 and the approach swinging, slip under the changing normal load opens
    it."""
    cycle = last_cycle(table)
    return (loop_work(cycle["delta_t"], cycle[force]),
            loop_work(cycle["delta_n"], cycle[normal]))
