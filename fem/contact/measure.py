"""What a converged increment measures: tractions, contact and stick half-widths, resultants.

Everything is read on the slave (upper) surface in its *reference* configuration, at the arc
coordinate ``s`` of the slave nodes (chord length along the window, zero at x = 0). In the current
configuration the tangential surface displacement pulls the contact edge inward by a few per cent
of a (design note 4 in :mod:`hertz2d.fem.contact`), while Hertz theory's x is the undeformed surface coordinate.

Tractions: a slave node's normal force divided by its tributary length, ``p_j = lambda_n,j / l_j``
(and ``q_j = -lambda_t,j / l_j``, positive when it resists a positive delta_t).

Edges with sub-element accuracy: near the edge of a smooth contact the pressure vanishes like a
square root of the distance to the edge (Johnson 1985, Sec. 4.2 and 5.1), so ``p^2`` is linear
there; it is extrapolated to zero through the last two nodes in contact and the edge is kept
between the last node in contact and the first one out. The stick zone edge is found the same way
from ``(mu p - |q|)^2``, which vanishes in the slip zone and grows like the distance from the stick
edge inside it (Cattaneo-Mindlin, Eq. 2). No Hertzian shape is fitted.

Resultants in the contact frame: the contact normal ``n`` is the ``lambda_n``-weighted mean of the
slave normals, ``t = (n_y, -n_x)``; ``N = F . n`` and ``T = -F . t`` with F the contact force on the
upper body, so N is compressive-positive and T is positive when it resists a positive delta_t.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hertz2d.fem.contact.frictional import Increment
from hertz2d.fem.contact.surface import tangent_of


@dataclass(frozen=True)
class ContactMeasures:
    N: float
    T: float
    #: contact and stick half-widths and the centres of the two zones (reference arc coordinate)
    a: float
    c: float
    centre: float
    stick_centre: float


def arc_coordinate(reference: np.ndarray) -> np.ndarray:
    """Chord length along window nodes sorted by x, zero at x = 0 (interpolated)."""
    s = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(reference, axis=0), axis=1))])
    return s - np.interp(0.0, reference[:, 0], s)


def tributary_lengths(s: np.ndarray) -> np.ndarray:
    """Half the lengths of the two facets around each node (one facet at the ends)."""
    half = 0.5 * np.diff(s)
    return np.concatenate([half, [0.0]]) + np.concatenate([[0.0], half])


def tractions(increment: Increment, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pressure p and tangential traction q (resisting +delta_t positive) at the slave nodes."""
    length = tributary_lengths(s)
    forces = increment.state.multipliers
    return forces[:, 0] / length, -forces[:, 1] / length


def _edges(s: np.ndarray, value: np.ndarray, inside: np.ndarray) -> tuple[float, float]:
    """Left and right zeros of a field ~ sqrt(distance to the edge) on the nodes ``inside``."""
    nodes = np.flatnonzero(inside)
    square = value * value
    ends = []
    for last, step in ((nodes[0], -1), (nodes[-1], +1)):
        before, after = last - step, last + step
        outer = s[after] if 0 <= after < len(s) else s[last]
        if not (0 <= before < len(s) and inside[before]) or square[before] <= square[last]:
            ends.append(0.5 * (s[last] + outer))
            continue
        edge = s[last] + square[last] * (s[last] - s[before]) / (square[before] - square[last])
        ends.append(float(np.clip(edge, min(s[last], outer), max(s[last], outer))))
    return ends[0], ends[1]


def measure(increment: Increment, s: np.ndarray, mu: float) -> ContactMeasures:
    """Resultants and half-widths of one converged increment (slave arc coordinate ``s``)."""
    forces = increment.state.multipliers
    normals = increment.projection.normal
    in_contact = forces[:, 0] > 0
    resultant = increment.state.slave_forces[in_contact].sum(axis=0)
    if not in_contact.any():
        return ContactMeasures(0.0, 0.0, 0.0, 0.0, np.nan, np.nan)
    mean_normal = (forces[in_contact, :1] * normals[in_contact]).sum(axis=0)
    mean_normal /= np.linalg.norm(mean_normal)
    mean_tangent = tangent_of(mean_normal[None, :])[0]
    p, q = tractions(increment, s)
    left, right = _edges(s, p, in_contact)
    stick = in_contact & ~increment.slipping
    if stick.any():
        stick_left, stick_right = _edges(s, mu * p - np.abs(q), stick)
    else:
        stick_left = stick_right = 0.5 * (left + right)
    return ContactMeasures(
        N=float(resultant @ mean_normal), T=float(-resultant @ mean_tangent),
        a=0.5 * (right - left), c=0.5 * (stick_right - stick_left),
        centre=0.5 * (left + right), stick_centre=0.5 * (stick_left + stick_right))
