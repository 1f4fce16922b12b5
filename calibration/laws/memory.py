"""The accurate model with memory: Masing's rule at constant N and any history of N and delta_t.

The paper derives its accurate model (Eqs. 24-27) for a tangential force rising at constant N and
describes what history does (Section 3.3, Fig. 6): a reversed tangential load starts a secondary
slip at the contact edge; raising N at constant T changes no tangential stress; lowering N at
constant T enlarges the slip zone. A history is then "a sequence of simple combinations". This
module makes that a law for any path.

Representation. ``mu`` times the Hertz pressure of half-width b (Eq. 1 with Eq. 4) is
``g_b(x) = mu E*/(2 R*) sqrt(b^2 - x^2)``: the same ellipse for every load, with resultant
``mu N(b)``, ``N(b) = pi E* b^2/(4 R*)``, and causing the tangential displacement of Eq. 27 at that
load, ``D(b) = mu N(b) B(b)/(pi E*) = mu b^2 B(b)/(4 R*)`` (B the bracket of Eqs. 25-26). The
Cattaneo-Mindlin traction (Eq. 2) is ``g_a - g_c`` and its displacement ``D(a) - D(c)`` is Eqs.
24-26. Every traction below is a superposition ``q(x) = integral over b > |x| of phi(b) dg_b/db``
with a piecewise-constant density ``-1 <= phi(b) <= 1`` on ``0 < b < a`` (``dg_b/db`` is the
traction of a flat punch of half-width b: it displaces ``|x| < b`` rigidly), so that

    ``T = sum over pieces of phi [mu N(b_hi) - mu N(b_lo)]``,
    ``delta_t = sum over pieces of phi [D(b_hi) - D(b_lo)]`` (plus the rigid slip of full slip),

and ``|phi| <= 1`` is Coulomb's law (``|q| <= g_a = mu p``). Each step applies its change of N
first, then its tangential displacement increment d:

1. Tangential, at constant N (exact for the model). A slip front moves in from the edge: phi is set
   to sigma = sign(d) on ``[c, a]`` (the slip zone carries sigma mu p) and kept below c (the stick
   zone: the change is a sum of flat punches wider than c, which moves it rigidly), c solving
   ``sum over [c, a] of (sigma - phi) dD = |d|``. From phi = 0 this is the virgin curve f of Eqs.
   24-27. From a turning point (delta*, T*) phi goes from +1 to -1 over ``[c', a]``: ``T = T* -
   2 mu (N - N(c'))`` at ``delta = delta* - 2 (D(a) - D(c'))``, which is **Masing's rule**
   ``T = T* - 2 f((delta* - delta)/2)``. **Memory rule**: a front that reaches the front of an
   earlier turning point finds phi = sigma below it and passes at no cost, so the branch goes on
   as the branch that led to that turning point. A front reaching the centre is full slip:
   ``T = sigma mu N``, the rest of d is rigid slip, and all memory is erased.
2. N rises (a -> a' > a). The annulus ``[a, a']`` enters contact sticking (raising N changes no
   tangential stress, Section 3.3) and takes ``phi = lambda = d/(D(a') - D(a))``, uniform, because
   ``lambda (g_a' - g_a)`` moves ``|x| < a`` rigidly: T rises by ``lambda mu (N' - N)`` without slip
   as long as ``|lambda| <= 1``, i.e. ``|dT| <= mu dN`` (Mindlin and Deresiewicz's no-slip
   condition). Beyond, the annulus takes phi = +-1 and the rest of d moves a front (rule 1).
3. N falls (a -> a' < a). The traction outside a' is released (the part of delta_t it carried
   with it), and a front at the new N makes up the difference (rule 1). On a virgin branch at
   constant T this is the paper's Fig. 6b: the stick zone shrinks to ``c' = a' sqrt(1 - T/(mu
   N'))``, Eq. 7 with the new N; at constant delta_t (``unload-normal`` paths) T falls onto the new
   N's virgin curve at the same delta_t.
4. N reaches 0: the contact opens, its traction and memory vanish.

What is exact and what is not. Rule 1 is exact for the accurate model at constant N (Masing's rule
and the memory rule follow from it; ``hold-normal`` paths reproduce :class:`AccurateModel`). Rules
2 and 3 reproduce the paper's simple combinations (N rising at constant T, N falling at constant T
on a virgin branch) and the no-slip condition exactly. For N and delta_t changing together the
normal-then-tangential split of a step is an approximation of first order in the step (the
annulus of a rising N sees the step's whole d at once). Everything the accurate model assumes
stays assumed: each superposed traction displaces the bodies as Eqs. 24-26 say (with w at its own
half-width, Eq. 26), and the normal and tangential problems do not couple (Dundurs' beta = 0; see
:attr:`ContactPair.dundurs_beta`). Defined where the accurate model is (a/R_i <= 0.3).

Columns: ``c`` is the inner edge of the zone that slips in the step (a when nothing slips, 0 in full
slip), ``kt`` the tangent stiffness dT/d(delta_t) of the branch at the end of the step
(``mu N'(c)/D'(c)`` at the front: Masing's rule keeps the virgin tangent at the front; 0 in full
slip), ``slip`` is ``stick``, ``partial`` or ``full`` for what the step did.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.optimize import brentq

from hertz2d.calibration.laws.base import ALL_PATHS, ContactLaw, law_table
from hertz2d.calibration.laws.hertz2d import (_check_accurate_domain, normal_force, normal_stiffness,
                                      tangential_bracket)
from hertz2d.calibration.laws.pair import ContactPair
from hertz2d.calibration.laws.penalty_factor import EQ33
from hertz2d.checks.loadpath import LoadPath
from hertz2d.checks import InputError

#: relative step of the central difference for D'(c) in the tangent stiffness
DERIVATIVE_STEP = 1e-6


class SlipFronts:
    """The tangential state of one contact: the density phi on pieces ``(b_(j-1), b_j]`` of
    [0, a]."""

    def __init__(self, pair: ContactPair, penalty=EQ33):
        if any(np.ndim(v) for v in (pair.R1, pair.R2, pair.E1, pair.E2, pair.nu1, pair.nu2,
                                    pair.mu)):
            raise InputError("the accurate model with memory follows one contact: give the pair "
                             "scalar parameters")
        self.pair, self.penalty = pair, penalty
        self.mu, self.R = float(pair.mu), float(pair.radius)
        self.force_per_area = float(np.pi * pair.modulus / (4.0 * pair.radius))  # N(b) / b^2
        self.edges, self.D_edges, self.phi = [0.0], [0.0], []

    def D(self, b: float) -> float:
        """``D(b) = mu b^2 B(b)/(4 R*)``: Eq. 27's full-slip displacement at the load of
        half-width b."""
        if b <= 0.0:
            return 0.0
        bracket = float(tangential_bracket(self.pair, b, self.penalty))
        return self.mu * b * b * bracket / (4 * self.R)

    @property
    def a(self) -> float:
        return self.edges[-1]

    def force(self) -> float:
        """``T = sum phi mu [N(b_j) - N(b_(j-1))]``."""
        b = self.edges
        return self.mu * self.force_per_area * math.fsum(
            phi * (b[j + 1] ** 2 - b[j] ** 2) for j, phi in enumerate(self.phi))

    def tangent(self, c: float) -> float:
        """dT/d(delta_t) with the front at c: ``mu N'(c)/D'(c)`` (0 at c = 0, full slip)."""
        if c <= 0.0:
            return 0.0
        h = DERIVATIVE_STEP * c
        slope = (self.D(c + h) - self.D(c - h)) / (2 * h)
        if slope <= 0.0:  # c below D's resolution: the full-slip limit
            return 0.0
        return self.mu * self.force_per_area * 2 * c / slope

    def _append(self, edge: float, phi: float) -> None:
        if self.phi and self.phi[-1] == phi:
            self.edges[-1], self.D_edges[-1] = edge, self.D(edge)
        else:
            self.edges.append(edge), self.D_edges.append(self.D(edge)), self.phi.append(phi)

    def _truncate(self, j: int, edge: float) -> float:
        """Cut the pieces at ``edge`` inside piece j (keep pieces 0..j); returns the displacement
        the cut-off pieces carried."""
        D_edge = self.D(edge)
        released = self.phi[j] * (self.D_edges[j + 1] - D_edge) + math.fsum(
            phi * (self.D_edges[i + 1] - self.D_edges[i])
            for i, phi in enumerate(self.phi[j + 1:], start=j + 1))
        del self.edges[j + 2:], self.D_edges[j + 2:], self.phi[j + 1:]
        self.edges[j + 1], self.D_edges[j + 1] = edge, D_edge
        return released

    def _piece_of(self, b: float) -> int:
        """Index j of the piece ``(edges[j], edges[j+1]]`` holding b."""
        j = len(self.phi) - 1
        while j > 0 and self.edges[j] >= b:
            j -= 1
        return j

    def step(self, a_new: float, d: float) -> tuple[float, str]:
        """A change of half-width to ``a_new``, then a tangential increment ``d``; returns the
        front c and what slipped (``open``, ``stick``, ``partial`` or ``full``)."""
        if a_new <= 0.0:
            self.edges, self.D_edges, self.phi = [0.0], [0.0], []
            return 0.0, "open"
        a = self.a
        if a_new > a:  # rule 2: the entering annulus sticks as long as it can
            span = self.D(a_new) - self.D_edges[-1]
            share = min(1.0, max(-1.0, d / span)) if span > 0 else 0.0
            self._append(a_new, share)
            d = d - share * span if abs(share) == 1.0 else 0.0  # a sticking annulus takes all d
        elif a_new < a:  # rule 3: the traction outside a_new is released
            d += self._truncate(self._piece_of(a_new), a_new)
        if d == 0.0:
            return a_new, "stick"
        return self._move_front(d)

    def _move_front(self, d: float) -> tuple[float, str]:
        """Rule 1: phi = sigma from the edge in to the front c where the work of d is used up."""
        sigma, rest = math.copysign(1.0, d), abs(d)
        for j in range(len(self.phi) - 1, -1, -1):
            gap = abs(sigma - self.phi[j])
            cost = gap * (self.D_edges[j + 1] - self.D_edges[j])
            if cost >= rest and cost > 0:
                target = self.D_edges[j + 1] - rest / gap
                low, high = self.edges[j], self.edges[j + 1]
                c = brentq(lambda b: self.D(b) - target, low, high, xtol=1e-15 * high,
                           rtol=4 * np.finfo(float).eps) if target > self.D_edges[j] else low
                a = self.a
                self._truncate(j, c) if c > low else self._drop_from(j)
                self._append(a, sigma)
                return c, "partial"
            rest -= cost
        a = self.a
        self.edges, self.D_edges, self.phi = [0.0], [0.0], []
        self._append(a, sigma)  # full slip: every memory erased, the rest is rigid slip
        return 0.0, "full"

    def _drop_from(self, j: int) -> None:
        """Remove pieces j and beyond (the front sits exactly on edge j)."""
        del self.edges[j + 1:], self.D_edges[j + 1:], self.phi[j:]


class AccurateMemoryModel(ContactLaw):
    """The accurate model (Eqs. 22-27) with Masing's unloading rule and memory, on any path."""

    name = "accurate-memory"
    paths = ALL_PATHS
    admissible = True

    def __init__(self, pair: ContactPair, penalty=EQ33):
        self.pair, self.penalty = pair, penalty

    @property
    def label(self) -> str:
        return f"accurate with memory, {self.penalty.label}"

    def _run(self, path: LoadPath) -> pd.DataFrame:
        pair = self.pair
        N, a = normal_force(pair, pair.pair_displacement(path.delta_n))
        _check_accurate_domain(pair, a)
        delta_t = pair.pair_displacement(path.delta_t)
        fronts = SlipFronts(pair, self.penalty)
        steps = len(path)
        T, c, kt = np.zeros(steps), np.zeros(steps), np.zeros(steps)
        slip = np.empty(steps, dtype=object)
        previous = 0.0
        for k in range(steps):
            c[k], slip[k] = fronts.step(float(a[k]), float(delta_t[k]) - previous)
            T[k], kt[k] = fronts.force(), fronts.tangent(c[k])
            previous = float(delta_t[k])
        # the piecewise sum is mu N up to round-off, which is relative only while a^2 is a normal
        # float (delta_n above ~1e-300 m): Coulomb's bound is imposed exactly
        T = np.clip(T, -pair.mu * N, pair.mu * N)
        return law_table(path, N=N, T=T, a=a, c=c, kn=normal_stiffness(pair, a), kt=kt,
                         slip=slip.astype(str))
