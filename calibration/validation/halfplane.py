"""Two elastic half-planes in frictional contact: the reference for dissimilar bodies (beta != 0).

The two-body FEM tends to this model as a/R -> 0. It is computed here by a different method:
influence coefficients of the half-plane (Johnson, *Contact Mechanics*, 1985, Secs. 2.2, 5.9;
Kalker's method) with piecewise-constant tractions on a uniform grid of cells.

Units: x in the frictionless Hertz half-width, tractions in its peak pressure. With the composite
compliance ``K = (1 - nu1)/G1 + (1 - nu2)/G2`` set to 1 (then the composite radius is 1 too), the
relative displacements of the surfaces (body 1, the upper one, minus body 2) under the pressure p
(compressive) and the shear q (on body 1, along +x) are

``w = C p + (beta/2) S q`` (the normal displacement into the bodies) and
``h = -(beta/2) S p + C q + s`` (the slip of body 1 over body 2),

``C(x, xi) = -(1/pi) log|x - xi|`` the half-plane's surface compliance,
``S(x, xi) = sign(x - xi)`` its normal-tangential coupling (Johnson 1985, Eqs. 2.25; the two
coupling terms are each other's transpose, Betti's theorem) and s the rigid tangential
displacement of body 1 over body 2 (delta_t of the FEM; a half-plane's displacement is defined
up to a constant, so s only orders the tangential stage). Reported as the FEM reports them:
``T = -integral q`` resists +s, ``q`` in the profiles likewise. The gap is
``g = x^2/2 - delta + w``. Goodman's approximation drops ``(beta/2) S q``: the shear does not
change the pressure.

Load path: the approach delta rises in ``normal_steps`` equal steps to the Hertz approach of half
width 1; then, delta held, s rises in ``tangential_steps`` equal steps (the path of the FEM's
``hold-normal``). Each step solves Signorini's conditions for p and Coulomb's law for q with the
friction history of the previous step (``|q| <= mu p``; the slip increment vanishes where q is
below the bound and opposes q where it is at it), alternating the two convex problems (p >= 0 with
q fixed; q in its box with p fixed; :func:`hertz2d.fem.contact.boxqp.solve_box_lcp`) until neither
changes. Normal loading alone is the plane version of Spence's problem (J. Elasticity 5 (1975)
297, for spheres); the tangential stage after it the problem of dissimilar cylinders under normal
and tangential load (Nowell, Hills & Sackfield, J. Mech. Phys. Solids 36 (1988) 59); with
beta = 0 it is Cattaneo-Mindlin (Eqs. 2, 7).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from hertz2d.fem.contact.boxqp import solve_box_lcp

#: approach of the frictionless Hertz half-width 1 under this kernel: ``(1/2 + log 2) / 2``
HERTZ_APPROACH = 0.5 * (0.5 + np.log(2.0))
#: relative change of p and q at which the alternation of a step has converged
TOLERANCE = 1e-10
MAX_ALTERNATIONS = 500


@dataclass(frozen=True)
class HalfPlaneRun:
    """One row per step (``stage, N, T, a, c, centre, stick_centre, shear_ratio``) and the
    tractions of the last normal and the last tangential step."""

    table: pd.DataFrame
    x: np.ndarray
    #: p and q (resisting +s) at the end of the normal stage and at the end of the path
    normal_end: tuple[np.ndarray, np.ndarray]
    path_end: tuple[np.ndarray, np.ndarray]


def _log_integral(u: np.ndarray) -> np.ndarray:
    """Antiderivative of log|u|."""
    return u * np.log(np.where(u == 0.0, 1.0, np.abs(u))) - u


def influence(cells: int, span: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Cell centres on ``[-span, span]``, ``C`` and ``S`` integrated over each cell, cell width."""
    width = 2.0 * span / cells
    x = -span + width * (np.arange(cells) + 0.5)
    offset = x[:, None] - x[None, :]
    C = -(_log_integral(offset + 0.5 * width) - _log_integral(offset - 0.5 * width)) / np.pi
    return x, C, width * np.sign(offset), width


def _zone(x: np.ndarray, inside: np.ndarray, width: float) -> tuple[float, float]:
    """Half-width and centre of the cells ``inside`` (to the cell edges)."""
    if not inside.any():
        return 0.0, float("nan")
    left, right = x[inside].min() - 0.5 * width, x[inside].max() + 0.5 * width
    return 0.5 * (right - left), 0.5 * (right + left)


def solve(beta: float, mu: float, cells: int = 160, span: float = 1.1, normal_steps: int = 20,
          tangential_steps: int = 0, slip: float = 0.0, goodman: bool = False) -> HalfPlaneRun:
    """The hold-normal path: Hertz approach in ``normal_steps``, then s to ``slip``."""
    x, C, S, width = influence(cells, span)
    coupling = 0.0 if goodman else 0.5 * beta
    p, q, slip_before = np.zeros(cells), np.zeros(cells), np.zeros(cells)
    rows, normal_end = [], None
    schedule = ([("normal", HERTZ_APPROACH * k / normal_steps, 0.0)
                 for k in range(1, normal_steps + 1)]
                + [("tangential", HERTZ_APPROACH, slip * k / tangential_steps)
                   for k in range(1, tangential_steps + 1)])
    for stage, delta, s in schedule:
        for _ in range(MAX_ALTERNATIONS):
            p_new = solve_box_lcp(C, x * x / 2 - delta + coupling * (S @ q), np.zeros(cells),
                                  np.full(cells, np.inf), p).x
            bound = mu * p_new
            q_new = solve_box_lcp(C, -0.5 * beta * (S @ p_new) + s - slip_before, -bound, bound,
                                  np.clip(q, -bound, bound)).x
            change = max(np.abs(p_new - p).max() / p_new.max(),
                         np.abs(q_new - q).max() / max(np.abs(q_new).max(), 1e-300))
            p, q = p_new, q_new
            if change < TOLERANCE:
                break
        else:
            raise RuntimeError(f"half-plane {stage} step at delta={delta}, s={s}: the "
                               "alternation of the normal and tangential problems did not converge")
        slip_before = -0.5 * beta * (S @ p) + C @ q + s
        contact = p > 0
        a, centre = _zone(x, contact, width)
        c, stick_centre = _zone(x, contact & (np.abs(q) < mu * p * (1 - 1e-7)), width)
        N, T = p.sum() * width, -q.sum() * width
        rows.append({"stage": stage, "N": N, "T": T, "a": a, "c": c, "centre": centre,
                     "stick_centre": stick_centre,
                     "shear_ratio": np.abs(q).max() / (mu * p.max()) if mu > 0 else 0.0})
        if stage == "normal":
            normal_end = (p.copy(), -q)
    return HalfPlaneRun(pd.DataFrame(rows), x, normal_end, (p, -q))
