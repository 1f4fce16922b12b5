"""Discrete Signorini-Coulomb conditions of one frozen geometry, by a primal-dual active set.

Per slave node j with normal and tangential multipliers ``lambda_n, lambda_t`` and, from
``y = M lambda + b``, gap ``g`` and slip increment ``d``:
``lambda_n >= 0, g >= 0, lambda_n g = 0`` and ``|lambda_t| <= mu lambda_n`` with ``d = 0`` if the
bound is not reached and ``lambda_t d <= 0`` (slip against the force) if it is.

The method is the primal-dual active set strategy of Hueber, Stadler & Wohlmuth (SIAM J. Sci.
Comput. 30 (2008) 572), a semismooth Newton method on the nonlinear complementarity functions
of both conditions. From the current iterate each node is predicted

* open if ``lambda_n - c_n g <= 0``: ``lambda_n = lambda_t = 0``;
* closed otherwise, and then sticking if ``|lambda_t - c_t d| < mu (lambda_n - c_n g)``
  (``d = 0``), or slipping with ``lambda_t = s mu lambda_n``, ``s = sign(lambda_t - c_t d)``;

(``c = COMPLEMENTARITY / diag(M)``), the closed nodes' ``g = 0`` and the sticking nodes' ``d = 0`` are solved for the
remaining unknowns (a non-symmetric dense system: Coulomb's bound couples the tangential to the
normal multipliers), and this repeats until the prediction reproduces itself, which is exactly
the discrete Coulomb law. It converges superlinearly from a nearby start (the previous contact
iterate) but can cycle between stick and slip sets (design note 6 in :mod:`hertz2d.fem.contact`); then it reports failure and
the caller falls back to the Tresca fixed point (:mod:`hertz2d.fem.contact.boxqp`), which always
terminates.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg.lapack import dgesv

#: active-set iterations before giving up
MAX_ITERATIONS = 30
#: c = COMPLEMENTARITY / diag(M) in the set prediction. With 1 (the natural scaling) the method
#: cycled in 24 of 525 frozen problems of case 1 at level 3, the whole contact zone flipping its
#: slip direction from one iteration to the next (the collective slip of all nodes dwarfs one
#: node's diagonal); with 0.1 it converged in all of them (about 3000 over both supports, both
#: load paths and levels 2-3) in 1.3 iterations on average (measured while the solver was
#: written; a frozen problem on which it still cycles falls back to a Tresca step and is counted
#: in the ``fallbacks`` column of every two-disc table).
COMPLEMENTARITY = 0.1


@dataclass(frozen=True)
class CoulombSolution:
    #: (n, 2) multipliers lambda_n, lambda_t
    multipliers: np.ndarray
    #: nodes in contact whose tangential multiplier is at the Coulomb bound
    slipping: np.ndarray
    iterations: int


def solve_coulomb(M: np.ndarray, b: np.ndarray, mu: float, allowed: np.ndarray,
                  start: np.ndarray) -> CoulombSolution | None:
    """Solve the discrete Signorini-Coulomb problem ``y = M lambda + b``, or None if it cycles.

    ``M`` (2n x 2n) acts on ``[lambda_n; lambda_t]``; ``allowed`` masks nodes that may touch;
    ``start`` (n, 2) warm-starts the sets.
    """
    n = len(allowed)
    diagonal = M.diagonal()
    scale = (COMPLEMENTARITY * np.concatenate((allowed, allowed))
             / np.where(diagonal > 0, diagonal, 1.0))
    x = np.where(allowed[:, None], start, 0.0).T.ravel()
    seen, previous = set(), None
    for iteration in range(MAX_ITERATIONS + 1):
        trial = x - scale * (M @ x + b)
        normal_trial, tangent_trial = trial[:n], trial[n:]
        closed = allowed & (normal_trial > 0)
        slip = closed & (np.abs(tangent_trial) >= mu * normal_trial)
        sign = np.where(slip, np.sign(tangent_trial), 0.0)
        stick = closed & ~slip
        key = (closed.tobytes(), stick.tobytes(), sign.tobytes())
        if key == previous:
            return CoulombSolution(x.reshape(2, n).T.copy(), slip, iteration)
        if key in seen:
            return None
        seen.add(key)
        previous = key
        # unknowns: lambda_n of closed nodes (a slipping one drags lambda_t = mu s lambda_n
        # along), lambda_t of sticking nodes; equations: g = 0 at closed, d = 0 at sticking nodes
        c_nodes, s_nodes = np.flatnonzero(closed), np.flatnonzero(stick)
        equations = np.concatenate([c_nodes, n + s_nodes])
        x = np.zeros(2 * n)
        if equations.size:
            rows = M[equations]
            drag = mu * sign[c_nodes]
            system = np.concatenate([rows[:, c_nodes] + rows[:, n + c_nodes] * drag,
                                     rows[:, n + s_nodes]], axis=1)
            _, _, z, info = dgesv(system, -b[equations], overwrite_a=True, overwrite_b=True)
            if info != 0 or not np.isfinite(z).all():  # singular, or not finite
                return None
            z_n = z[:len(c_nodes)]
            x[c_nodes] = z_n
            x[n + c_nodes] = drag * z_n
            x[n + s_nodes] = z[len(c_nodes):]
    return None
