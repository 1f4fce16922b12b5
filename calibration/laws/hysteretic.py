"""A DEM-ready incremental law with memory: Table 1's normal law, the accurate model's branches.

Table 1's tangential spring (Eqs. 31-32) is linear up to the Coulomb cap, so a cycle below full
slip dissipates nothing. This law keeps Table 1's normal law (Eqs. 28-29, with the pair's form)
and replaces the spring by the accurate model's tangential curve, followed incrementally with
Masing's rule at reversals, so it dissipates in partial slip as the accurate model does.

The branch. Eqs. 24-26 over Eq. 27 give the virgin curve in closed form in ``t = T/(mu N)``:

    ``delta_t / delta_su = d(t) = 1 - (1 - t) B(c)/B(a)``,  ``c = a sqrt(1 - t)`` (Eq. 7),

B the bracket of Eqs. 25-26 with w at its own half-width (Eq. 26) and ``delta_su`` Eq. 27's
full-slip displacement (d(1) = 1). Its tangent is ``dT/d(delta_t) = pi E*/(B(c) + c B'(c)/2)``,
the accurate model's: at the first touch (c = a) 14 % above Eq. 31's kt, the secant at full slip,
in the paper's case 1 (the secant falls by 12 % over partial slip, Fig. 13), and falling to 0 at
full slip like 1/log(1 - t). The 2D logarithm is why the law does not use a power
law ``kt = kt0 (1 - t)^p``, i.e. ``d = 1 - (1 - t)^(1 - p)``, as 3D DEM codes do after Mindlin and
Deresiewicz (p = 1/3): on the paper's case 1 the best least-squares p = 0.10 follows d(t) within
0.4 % of delta_su yet dissipates 19-53 % less per cycle than d(t) at amplitudes below 0.8
delta_su (a loop's area is a small difference of large works), and p = 1/3 dissipates three times
as much. :func:`branch_fraction` inverts d by a safeguarded Newton iteration (about 5 steps).

Branches and memory, per contact: the force T, the force T* where the current branch starts, its
kind k (1 the virgin branch from T* = 0, 2 a branch from a turning point) and direction sigma,
and the displacement u travelled along it. Each step:

- a reversal (the increment against sigma) starts a branch at the current force (T* = T, k = 2,
  u = 0), the first move of a contact the virgin branch;
- the branch's force at the current N is Masing's ``T_b = T* + sigma k mu N t``, t the virgin
  fraction at ``u/k`` (``d(t) = u/(k delta_su)``), and the force if nothing slips is
  ``T_s = T + kt0 d(delta_t)``, kt0 the first-touch tangent above; the new force is the one nearer
  the branch's start, ``sigma min(sigma T_b, sigma T_s)``, capped at ``|T| <= mu N``;
- full slip sets ``T* = -sigma mu N``, so a reversal starts a full Masing branch from the cap.

At constant N the virgin curve is concave, so ``T_b <= T_s`` and the law is Masing's rule on the
accurate model's curve: the accurate model with memory (:mod:`hertz2d.calibration.laws.memory`) to
rounding, the same forces and energy per cycle (a test checks 1e-9) wherever every loop ends at
a turning point of the loop around it (symmetric cycles, loops ending in full slip). When N
changes, T_s carries the paper's rules: N rising at constant delta_t keeps T (the new N's
branch lies above it, Section 3.3), and the next increments add kt0 per unit displacement, which
is the accurate model's no-slip increment ``mu dN(a)/dD(a)`` of a sticking annulus, until the
force meets the new branch; N falling lowers the branch below T, which then follows it: on a
virgin branch the new N's virgin curve at the same displacement, the stick zone of Eq. 7 at the
new N, as the accurate model with memory (tested). Approximations: one turning point is kept
(anchors are clipped to the current ``+-mu N``), so an inner loop's reloading branch that passes its
start stays on its Masing branch (stiffer than the memory rule's return) up to the cap; and a
falling N on a Masing branch keeps T until the branch passes it, where the accurate model's
fronts move at once. Defined where the accurate model is (a/R_i <= 0.3); a contact that opens
forgets everything.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from hertz2d.calibration.laws.base import ALL_PATHS, ContactLaw, law_table
from hertz2d.calibration.laws.closed_forms import half_space_bracket, penalty_bracket
from hertz2d.calibration.laws.hertz2d import _check_accurate_domain, normal_force, normal_stiffness
from hertz2d.calibration.laws.pair import ContactPair
from hertz2d.calibration.laws.penalty_factor import EQ33, bounded
from hertz2d.checks.loadpath import LoadPath

#: safeguarded Newton iterations for the inverse of d(t) (it needs about 6)
NEWTON_ITERATIONS = 60
#: relative step of the central difference for w'(x) in the branch's slope
DERIVATIVE_STEP = 1e-6


def bracket_and_slope(pair: ContactPair, c, penalty=EQ33) -> tuple[np.ndarray, np.ndarray]:
    """``(B(c), c B'(c))``: the bracket of Eqs. 25-26 at half-width c and its log-derivative.

    Body i contributes ``omega_i [log(2R_i/c) + 1/2 + w_i (log(4R_i/c) + p_i)]`` and
    ``omega_i [-1 - w_i + x w_i'(x) (log(4R_i/c) + p_i)]``, ``x = c/R_i``,
    ``p_i = nu_i/(2(1 - nu_i))``;
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
        # converged: a residual at rounding level (g is a difference of O(1) terms) or a step
        # of a few ulps of y <= 1
        done = (np.abs(g) <= 8 * np.finfo(float).eps) | (np.abs(following - y) <= 8e-16)
        y = following
        if np.all(done):
            break
    return 1.0 - y


@dataclass(frozen=True)
class HystereticState:
    """The history of a batch of contacts (arrays, one entry per contact) and the last update's
    outputs."""

    #: tangential force (N/m)
    T: np.ndarray
    #: displacement travelled along the current branch (relative displacement of the pair, m)
    travel: np.ndarray
    #: the force where the current branch starts (N/m)
    anchor: np.ndarray
    #: the branch: 0 none (open, or no tangential move yet), sigma k (direction sigma, kind k)
    branch: np.ndarray
    #: normal force, contact half-width (Eq. 4), tangent stiffness dT/d(delta_t) per pair
    #: displacement, and where the Coulomb cap acts (full slip)
    N: np.ndarray
    a: np.ndarray
    kt: np.ndarray
    slipping: np.ndarray

    @classmethod
    def unloaded(cls, contacts: int = 1) -> "HystereticState":
        zero = np.zeros(contacts)
        return cls(zero, zero, zero, np.zeros(contacts, dtype=np.int8), zero, zero, zero,
                   np.zeros(contacts, dtype=bool))


def hysteretic_update(pair: ContactPair, delta_n, d_delta_t, state: HystereticState,
                      penalty=EQ33) -> HystereticState:
    """One step of the hysteretic law for a batch of contacts (the DEM hot path, vectorised).

    Parameters
    ----------
    pair : ContactPair
        The bodies (scalars, or one entry per contact).
    delta_n : float or array_like
        The current approach (m), of the disc relative to the other body (doubled internally for
        a wall).
    d_delta_t : float or array_like
        This step's tangential displacement increment (m), likewise.
    state : HystereticState
        The previous step's state (:meth:`HystereticState.unloaded` for new contacts).
    penalty : PolynomialPenalty or ConstantPenalty, optional
        The penalty factor w (Eq. 33 by default).

    Returns
    -------
    HystereticState
        The contacts' new history and outputs (N, T, a, kt, slipping), to pass to the next
        step.
    """
    N, a = normal_force(pair, pair.pair_displacement(delta_n))
    N, a, _ = np.broadcast_arrays(N, a, state.T)
    _check_accurate_domain(pair, a)
    touching = N > 0
    bracket, slope = bracket_and_slope(pair, np.where(touching, a, 1.0), penalty)
    limit = pair.mu * N
    slide_at = limit * bracket / (np.pi * pair.modulus)  # Eq. 27
    with np.errstate(divide="ignore", invalid="ignore"):
        initial = np.where(touching, np.pi * pair.modulus / (bracket + 0.5 * slope), 0.0)
    branch = np.where(touching, state.branch, 0).astype(np.int8)
    sigma, kind = np.sign(branch), np.abs(branch)
    before = np.where(touching, state.T, 0.0)
    anchor = np.clip(np.where(kind > 0, state.anchor, 0.0), -limit, limit)
    travel = np.where(kind > 0, state.travel, 0.0)
    # a reversal anchors a Masing branch at the current force, a first move the virgin branch
    step = pair.pair_displacement(d_delta_t)
    direction = np.sign(step)
    reverse = touching & (kind > 0) & (direction != 0) & (direction != sigma)
    start = touching & (kind == 0) & (direction != 0)
    anchor = np.where(reverse, before, np.where(start, 0.0, anchor))
    kind = np.where(reverse, 2, np.where(start, 1, kind))
    sigma = np.where(direction != 0, direction, sigma)
    travel = np.where(reverse | start, 0.0, travel) + np.abs(step)
    active = touching & (kind > 0)
    size = np.where(active, kind * slide_at, 1.0)
    with np.errstate(over="ignore", divide="ignore"):  # a branch of size ~0 (mu N -> 0) has
        fraction = np.where(active, travel / size, 0.0)  # slipped fully: the fraction clips to 1
    t = branch_fraction(pair, a, fraction, penalty, bracket)
    on_branch = anchor + sigma * kind * limit * t
    stuck = before + initial * step  # nothing slips
    follows_branch = sigma * on_branch <= sigma * stuck
    T = np.where(active, np.where(follows_branch, on_branch, stuck), 0.0)
    full = active & (np.abs(T) >= limit * (1.0 - 1e-12))
    T = np.where(full, sigma * limit, T)
    anchor, kind = np.where(full, -sigma * limit, anchor), np.where(full, 2, kind)
    travel = np.where(full, 2.0 * slide_at, travel)
    front = a * np.sqrt(np.clip(1.0 - t, 0.0, 1.0))  # the slip front of the branch
    moving = active & follows_branch & ~full & (front > 0)
    front_bracket, front_slope = bracket_and_slope(pair, np.where(moving, front, 1.0), penalty)
    with np.errstate(divide="ignore", invalid="ignore"):
        kt = np.where(moving, np.pi * pair.modulus / (front_bracket + 0.5 * front_slope),
                      np.where(full, 0.0, initial))
    return HystereticState(T, np.where(active, travel, 0.0), np.where(active, anchor, 0.0),
                           np.where(active, sigma * kind, 0).astype(np.int8),
                           np.where(touching, N, 0.0), np.where(touching, a, 0.0), kt, full)


class SimplifiedHystereticModel(ContactLaw):
    """Table 1's normal law, the accurate model's tangential branches with Masing's rule."""

    name = "simplified-hysteretic"
    paths = ALL_PATHS
    #: its branches scale with Table 1's N and kt at each step, incrementally: closed paths with
    #: a varying approach can create energy (found by the admissibility tests)
    admissible = False

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
