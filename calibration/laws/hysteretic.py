"""A DEM-ready incremental law with memory: Table 1's normal law, the accurate model's branches.

Table 1's tangential spring (Eqs. 31-32) is linear up to the Coulomb cap, so a cycle below full
slip dissipates nothing. This law keeps Table 1's normal law (Eqs. 28-29, with the pair's form)
and replaces the spring by the accurate model's tangential curve, followed incrementally with
Masing's rule at reversals, so it dissipates in partial slip as the accurate model does.

The branch. Eqs. 24-26 over Eq. 27 give the virgin curve in closed form in ``t = T/(mu N)``:

    ``delta_t / delta_su = d(t) = 1 - (1 - t) B(c)/B(a)``,  ``c = a sqrt(1 - t)`` (Eq. 7),

B the bracket of Eqs. 25-26 with w at its own half-width (Eq. 26) and ``delta_su`` Eq. 27's
full-slip displacement (d(1) = 1). Its tangent is ``dT/d(delta_t) = pi E*/(B(c) + c B'(c)/2)``,
the accurate model's, at the first touch (c = a) above Eq. 31's kt (the secant at full slip),
falling to 0 at full slip like 1/log(1 - t). The 2D logarithm is why the law does not use a power
law ``kt = kt0 (1 - t)^p``, i.e. ``d = 1 - (1 - t)^(1 - p)``, as 3D DEM codes do after Mindlin and
Deresiewicz (p = 1/3): on the paper's case 1 the best least-squares p = 0.10 follows d(t) within
0.4 % of delta_su yet dissipates 19-53 % less per cycle than d(t) at amplitudes below 0.8
delta_su (a loop's area is a small difference of large works), and p = 1/3 dissipates three times
as much. :func:`branch_fraction` inverts d by a safeguarded Newton iteration (about 5 steps).

Branches and memory, per contact: the force ``T = mu N tau``, the branch's anchor ``tau*`` (in
units of mu N), its kind k (1 virgin, from tau* = 0; 2 after a reversal, Masing's rule
``tau = tau* + sigma 2 t``, t the virgin fraction at half the displacement) and the displacement u
travelled along it, ``u = k delta_su d(t)``:

- a reversal (the increment's sign against the branch's) anchors a new branch at the current
  force (k = 2, u = 0);
- full slip (``|T| = mu N``) sets the anchor to the opposite limit, ``tau* = -sigma``, so that the
  next reversal starts a full Masing branch. Only the last turning point is kept (three numbers per
  contact), so symmetric cycles and every loop that ends in full slip follow Masing's rule with
  memory exactly; an inner loop's reloading branch that passes its starting point stays on the
  Masing branch (stiffer than the memory rule's return to the outer branch) up to the cap;
- N rises: T is kept (raising N at constant T changes no tangential stress, Section 3.3) and u
  follows from it on the new N's branch; a force left behind the branch's anchor moves the
  anchor to it. N falls: u is kept and T follows the new N's branch; on a virgin branch this is
  exactly the accurate model with memory (T onto the new N's virgin curve at the same
  displacement, the stick zone of Eq. 7 at the new N). A contact that opens forgets everything.

At constant N the law is the accurate model with memory (:mod:`calibration.laws.memory`), to
rounding: same forces, same energy per cycle. It departs from it where N changes while delta_t
moves (the accurate model's rising-N annulus sticks first; here the branch carries on at the new
N) and in inner loops (one turning point). Defined where the accurate model is (a/R_i <= 0.3).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from calibration.laws.base import ALL_PATHS, ContactLaw, law_table
from calibration.laws.closed_forms import half_space_bracket, penalty_bracket
from calibration.laws.hertz2d import _check_accurate_domain, normal_force, normal_stiffness
from calibration.laws.pair import ContactPair
from calibration.laws.penalty_factor import EQ33, bounded
from fem.loadpath import LoadPath
from meshes.checks import InputError

#: safeguarded Newton iterations for the inverse of d(t) (it needs about 6)
NEWTON_ITERATIONS = 60
#: relative step of the central difference for w'(x) in the branch's slope
DERIVATIVE_STEP = 1e-6


def bracket_and_slope(pair: ContactPair, c, penalty=EQ33) -> tuple[np.ndarray, np.ndarray]:
    """``(B(c), c B'(c))``: the bracket of Eqs. 25-26 at half-width c and its log-derivative.

    Body i contributes ``omega_i [log(2R_i/c) + 1/2 + w_i (log(4R_i/c) + p_i)]`` and
    ``omega_i [-1 - w_i + x w_i'(x) (log(4R_i/c) + p_i)]``, ``x = c/R_i``, ``p_i = nu_i/(2(1 - nu_i))``;
    w' by a central difference of the (clipped) penalty factor.
    """
    c = np.asarray(c, float)
    bracket, slope = 0.0, 0.0
    for omega, R, nu in zip(pair.bracket_weights, (pair.R1, pair.R2), (pair.nu1, pair.nu2)):
        x = c / R
        h = DERIVATIVE_STEP * np.maximum(x, 1e-3)
        below, w, above = bounded(penalty, np.stack(np.broadcast_arrays(x - h, x, x + h)), nu)
        w_slope = (above - below) / (2.0 * h)
        bracket = bracket + omega * (half_space_bracket(R, c) + w * penalty_bracket(R, c, nu))
        slope = slope + omega * (-1.0 - w + x * w_slope * penalty_bracket(R, c, nu))
    return bracket, slope


def branch_displacement(pair: ContactPair, a, t, penalty=EQ33, scale=None) -> np.ndarray:
    """``d(t) = 1 - (1 - t) B(c)/B(a)``, ``c = a sqrt(1 - t)``: Eqs. 24-26 over Eq. 27 at T = t mu N
    (``scale``: B(a) if known)."""
    y = 1.0 - np.asarray(t, float)
    c = np.asarray(a, float) * np.sqrt(np.clip(y, 0.0, 1.0))
    touching = c > 0
    if scale is None:
        scale = bracket_and_slope(pair, np.where(np.asarray(a) > 0, a, 1.0), penalty)[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(touching, bracket_and_slope(pair, np.where(touching, c, 1.0), penalty)[0]
                         / scale, 0.0)
    return 1.0 - y * ratio


def branch_fraction(pair: ContactPair, a, d, penalty=EQ33, scale=None) -> np.ndarray:
    """The inverse of :func:`branch_displacement`: t from d (t = 1 for d >= 1).

    In ``y = 1 - t``, ``g(y) = 1 - y B(a sqrt(y))/B(a) - d`` falls from ``1 - d`` at y = 0 to
    ``(1 - d)(1 - B(c)/B(a)) <= 0`` at ``y = 1 - d`` (B falls with c where the accurate model is
    monotone), with ``g'(y) = -[B(c) + c B'(c)/2]/B(a)``; Newton's method kept inside the bracket
    (bisecting when a step leaves it) converges to the root.
    """
    a, d = np.broadcast_arrays(np.asarray(a, float), np.clip(np.asarray(d, float), 0.0, 1.0))
    if scale is None:
        scale = bracket_and_slope(pair, np.where(a > 0, a, 1.0), penalty)[0]
    low, high = np.zeros_like(d), 1.0 - d
    y = high.copy()
    for _ in range(NEWTON_ITERATIONS):
        inside_contact = (y > 0) & (a > 0)
        c = np.where(inside_contact, a * np.sqrt(y), 1.0)
        bracket, slope = bracket_and_slope(pair, c, penalty)
        g = np.where(inside_contact, 1.0 - y * bracket / scale - d, 1.0 - d)
        low, high = np.where(g > 0, y, low), np.where(g > 0, high, y)
        with np.errstate(divide="ignore", invalid="ignore"):
            newton = y + g * scale / (bracket + 0.5 * slope)
        inside = (newton >= low) & (newton <= high)
        following = np.where(g == 0, y, np.where(inside, newton, 0.5 * (low + high)))
        if np.all(np.abs(following - y) <= 4e-16):
            y = following
            break
        y = following
    return 1.0 - y


@dataclass(frozen=True)
class HystereticState:
    """The history of a batch of contacts (arrays, one entry per contact)."""

    #: tangential force (N/m)
    T: np.ndarray
    #: normal force of the update that made this state
    N: np.ndarray
    #: displacement travelled along the current branch (relative displacement of the pair, m)
    travel: np.ndarray
    #: the branch's anchor in units of mu N
    anchor: np.ndarray
    #: the branch: 0 none (open, or no tangential move yet), sigma k (direction sigma, kind k)
    branch: np.ndarray
    #: True where the Coulomb cap acts (full slip)
    slipping: np.ndarray
    #: tangent stiffness dT/d(delta_t) at the end of the update (per pair displacement)
    kt: np.ndarray
    #: contact half-width (Eq. 4)
    a: np.ndarray

    @classmethod
    def unloaded(cls, contacts: int = 1) -> "HystereticState":
        zero = np.zeros(contacts)
        return cls(zero, zero, zero, zero, np.zeros(contacts, dtype=np.int8),
                   np.zeros(contacts, dtype=bool), zero, zero)


def hysteretic_update(pair: ContactPair, delta_n, d_delta_t, state: HystereticState,
                      penalty=EQ33) -> HystereticState:
    """One step of the hysteretic law for a batch of contacts (the DEM hot path, vectorised).

    ``delta_n`` the current approach and ``d_delta_t`` this step's tangential displacement
    increment, both of the disc relative to the other body (doubled internally for a wall);
    ``state`` the previous step's (:meth:`HystereticState.unloaded` for new contacts).
    """
    N, a = normal_force(pair, pair.pair_displacement(delta_n))
    N, a, _ = np.broadcast_arrays(N, a, state.T)
    _check_accurate_domain(pair, a)
    touching = N > 0
    bracket = np.where(touching, bracket_and_slope(pair, np.where(touching, a, 1.0), penalty)[0],
                       1.0)
    limit = pair.mu * N
    with np.errstate(divide="ignore", invalid="ignore"):
        slide_at = np.where(touching, limit * bracket / (np.pi * pair.modulus), 1.0)  # Eq. 27
        tau = np.where(touching, state.T / np.where(touching, limit, 1.0), 0.0)
    branch = np.where(touching, state.branch, 0).astype(np.int8)
    sigma, kind = np.sign(branch), np.abs(branch)
    active = kind > 0
    size = np.where(active, kind, 1) * slide_at  # k delta_su
    # the normal change: N rising keeps T, N falling keeps the travel
    rising = N >= state.N
    anchor = np.where(active, state.anchor, 0.0)
    behind = active & rising & (sigma * (tau - anchor) < 0)
    anchor = np.where(behind, tau, anchor)
    with np.errstate(divide="ignore", invalid="ignore"):
        t_kept = np.clip(np.where(active, sigma * (tau - anchor) / np.where(active, kind, 1), 0.0),
                         0.0, 1.0)
        travel = np.where(rising, size * branch_displacement(pair, a, t_kept, penalty, bracket),
                          np.where(active, state.travel, 0.0))
    # the tangential increment
    step = pair.pair_displacement(d_delta_t)
    direction = np.sign(step)
    falling = active & ~rising
    t_now = np.where(falling, branch_fraction(pair, a, travel / size, penalty, bracket), t_kept) \
        if np.any(falling) else t_kept
    tau = np.where(active, anchor + sigma * kind * t_now, 0.0)
    reverse = touching & active & (direction != 0) & (direction != sigma)
    start = touching & ~active & (direction != 0)
    anchor = np.where(reverse, tau, np.where(start, 0.0, anchor))
    kind = np.where(reverse, 2, np.where(start, 1, kind))
    sigma = np.where(direction != 0, direction, sigma)
    travel = np.where(reverse | start, 0.0, travel) + np.abs(step)
    size = np.where(kind > 0, kind, 1) * slide_at
    t_new = branch_fraction(pair, a, travel / size, penalty, bracket)
    tau = np.where(kind > 0, anchor + sigma * kind * t_new, 0.0)
    full = touching & (np.abs(tau) >= 1.0 - 1e-12)
    tau = np.where(full, sigma, tau)
    anchor, kind = np.where(full, -sigma, anchor), np.where(full, 2, kind)
    travel = np.where(full, 2.0 * slide_at, travel)
    t_new = np.where(full, 1.0, t_new)
    front = a * np.sqrt(np.clip(1.0 - t_new, 0.0, 1.0))  # the slip front of the branch
    moving = touching & ~full & (front > 0)
    front_bracket, front_slope = bracket_and_slope(pair, np.where(moving, front, 1.0), penalty)
    with np.errstate(divide="ignore", invalid="ignore"):
        kt = np.where(moving, np.pi * pair.modulus / (front_bracket + 0.5 * front_slope), 0.0)
    T = np.where(touching, tau * limit, 0.0)
    return HystereticState(T, N, np.where(touching, travel, 0.0),
                           np.where(touching, anchor, 0.0),
                           np.where(touching, sigma * kind, 0).astype(np.int8), full, kt, a)


class SimplifiedHystereticModel(ContactLaw):
    """Table 1's normal law, the accurate model's tangential branches (w at a) with Masing's rule."""

    name = "simplified-hysteretic"
    paths = ALL_PATHS

    def __init__(self, pair: ContactPair, penalty=EQ33):
        self.pair, self.penalty = pair, penalty

    @property
    def label(self) -> str:
        return f"simplified-hysteretic, {self.penalty.label}"

    def _run(self, path: LoadPath) -> pd.DataFrame:
        steps = len(path)
        columns = {name: np.zeros(steps) for name in ("N", "T", "a", "kt")}
        slip = np.empty(steps, dtype=object)
        state, previous = HystereticState.unloaded(), 0.0
        for k in range(steps):
            state = hysteretic_update(self.pair, path.delta_n[k], path.delta_t[k] - previous,
                                      state, self.penalty)
            previous = path.delta_t[k]
            for name in columns:
                columns[name][k] = getattr(state, name)[0]
            moving = state.branch[0] != 0 and path.delta_t[k] != (path.delta_t[k - 1] if k else 0)
            slip[k] = ("open" if state.N[0] <= 0 else "full" if state.slipping[0]
                       else "partial" if moving else "stick")
        return law_table(path, **columns, kn=normal_stiffness(self.pair, columns["a"]),
                         slip=slip.astype(str))
