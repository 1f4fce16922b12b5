"""Box-constrained linear complementarity: find ``l <= x <= u`` with ``y = M x + b`` such that
``y_i >= 0`` where ``x_i = l_i``, ``y_i <= 0`` where ``x_i = u_i`` and ``y_i = 0`` in between.

``M = A + a c^T``: ``A`` symmetric positive definite plus an optional non-symmetric rank-one term.
With ``M = A`` these are the KKT conditions of the convex programme
``min 1/2 x^T A x + b^T x, l <= x <= u``. One frozen contact problem
(:mod:`hertz2d.fem.contact.frictional`) has this form: ``y`` is the gap for the normal multipliers
(Signorini) and the slip increment for the tangential ones (Tresca); the rank-one term is the
inertia relief of the ``symmetric`` support (:mod:`hertz2d.fem.contact.body`).

Solver: the primal-dual active set method, a semismooth Newton method on
``x - clip(x - c (M x + b), l, u)`` with ``c = 1/diag(A)`` (Hintermueller, Ito & Kunisch, SIAM J.
Optim. 13 (2002) 865; Kunisch & Rendl, ESAIM M2AN 37 (2003) 913 for boxes). Each iteration fixes
the variables predicted at a bound and solves the free block (Cholesky of ``A``, the rank-one term
by Sherman-Morrison); it stops when the predicted sets repeat, which is exactly the complementarity
point. Warm-started from the previous contact iterate it needs one to three iterations, but it is
only locally convergent for a general SPD matrix (a compliance is not an M-matrix). If it
revisits a set or runs out of iterations, the rank-one term is frozen at the start point
(the caller's fixed point updates it) and the bounded-variable least-squares method of
Stark & Parker (Comput. Stat. 10 (1995) 129; ``scipy.optimize.lsq_linear(method="bvls")``)
solves ``min ||L^T x + L^-1 b'||`` on the box with ``A = L L^T``, which is the convex programme
and always terminates.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import cho_factor, cho_solve, solve_triangular
from scipy.optimize import lsq_linear

#: active-set iterations before the fallback
MAX_ITERATIONS = 40


@dataclass(frozen=True)
class BoxSolution:
    x: np.ndarray
    iterations: int
    #: "active-set" (exact for M) or "bvls" (rank-one term frozen at the start point)
    method: str


def solve_box_lcp(A: np.ndarray, b: np.ndarray, lower: np.ndarray, upper: np.ndarray,
                  start: np.ndarray, rank_one: tuple[np.ndarray, np.ndarray] | None = None
                  ) -> BoxSolution:
    """Solve the box LCP with ``M = A + a c^T`` (``rank_one = (a, c)``), warm-started."""
    a, c = rank_one if rank_one is not None else (np.zeros_like(b), np.zeros_like(b))
    x = np.clip(start, lower, upper)
    fixed = lower == upper
    var = np.flatnonzero(~fixed)
    iterations, method = 0, "active-set"
    if var.size:
        # the fixed variables move to the right-hand side
        b_r = b[var] + A[np.ix_(var, np.flatnonzero(fixed))] @ x[fixed] + a[var] * (c[fixed] @ x[fixed])
        x_r, iterations = _active_set(A[np.ix_(var, var)], b_r, a[var], c[var],
                                      lower[var], upper[var], x[var])
        if x_r is None:
            method = "bvls"
            x_r = _bvls(A[np.ix_(var, var)], b_r + a[var] * (c[var] @ x[var]),
                        lower[var], upper[var])
        x[var] = x_r
    return BoxSolution(x, iterations, method)


def _active_set(A, b, a, c, lower, upper, x):
    """Primal-dual active set iterations; None if they cycle or do not settle."""
    scale = 1.0 / np.diag(A)
    seen, previous = set(), None
    for iteration in range(MAX_ITERATIONS + 1):
        trial = x - scale * (A @ x + b + a * (c @ x))
        at_lower, at_upper = trial <= lower, trial >= upper
        key = (at_lower.tobytes(), at_upper.tobytes())
        if key == previous:
            # the sets x predicts are the sets x was solved with: x is the solution
            return x, iteration
        if key in seen:
            return None, iteration
        seen.add(key)
        previous = key
        bound = at_lower | at_upper
        x = np.where(at_lower, lower, np.where(at_upper, upper, x))
        free = ~bound
        if free.any():
            x[free] = _solve_free(A, b, a, c, x, free, bound)
    return None, iteration


def _solve_free(A, b, a, c, x, free, bound):
    """``(A + a c^T)_FF x_F = -(b_F + (A + a c^T)_FB x_B)`` by Cholesky and Sherman-Morrison."""
    factor = cho_factor(A[np.ix_(free, free)])
    rhs = -(b[free] + A[np.ix_(free, bound)] @ x[bound] + a[free] * (c[bound] @ x[bound]))
    x_free = cho_solve(factor, rhs)
    if a[free].any():
        w = cho_solve(factor, a[free])
        x_free -= w * (c[free] @ x_free) / (1.0 + c[free] @ w)
    return x_free


def _bvls(A, b, lower, upper):
    factor = np.linalg.cholesky(A)
    target = -solve_triangular(factor, b, lower=True)
    return lsq_linear(factor.T, target, bounds=(lower, upper), method="bvls",
                      tol=1e-14, max_iter=50 * len(b)).x
