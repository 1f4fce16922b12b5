"""Node-to-segment kinematics on a master polyline with a continuous normal field.

The master surface is the polyline through the current positions of the master window nodes,
ordered along the surface. Raw segment normals jump from segment to segment, which made the
projection of a slave node oscillate between neighbouring segments (design note 5 in :mod:`hertz2d.fem.contact`); here every
master node carries the average of the unit normals of its two segments and the normal is
interpolated linearly along each segment (the "smoothed normal field" of Yang, Laursen & Meng,
IJNME 62 (2005) 1183, and Puso & Laursen's nodal-normal averaging, CMAME 193 (2004) 601).

A slave point ``x_s`` projects to the point ``x_m(xi) = (1-xi) x_k + xi x_{k+1}`` whose
interpolated normal ``n(xi) = (1-xi) n_k + xi n_{k+1}`` passes through it,
``cross(x_s - x_m(xi), n(xi)) = 0``: a quadratic in xi per segment. The gap is the signed
distance along the unit normal, positive when open. The master location is reported as one
surface coordinate ``zeta = k + xi`` (``0 .. nodes-1``), which also names a *material* point of the
master: the friction history stores the zeta of the last converged increment.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: tolerance on xi for accepting a root at a segment end
_END = 1e-9


def nodal_normals(points: np.ndarray) -> np.ndarray:
    """Unit normals at the nodes of a polyline ordered left to right, pointing to its left.

    For a lower body's arc ordered by increasing x this is the outward (upward) normal.
    """
    return _nodal_normals(points, np.diff(points, axis=0))


def _nodal_normals(points: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """:func:`nodal_normals` of ``points`` whose edges ``np.diff(points, axis=0)`` are known."""
    normals = np.column_stack([-edges[:, 1], edges[:, 0]])
    normals /= _lengths(normals)
    nodal = np.zeros_like(points)
    nodal[:-1] += normals
    nodal[1:] += normals
    return nodal / _lengths(nodal)


def _lengths(vectors: np.ndarray) -> np.ndarray:
    """Euclidean lengths of the rows of ``vectors`` (n, 2), shape (n, 1): ``np.linalg.norm``'s
    arithmetic without its overhead, which dominated on contact windows of ~50 nodes."""
    x, y = vectors[:, 0], vectors[:, 1]
    return np.sqrt(x * x + y * y)[:, None]


@dataclass(frozen=True)
class Projection:
    """Where each slave node meets the master surface.

    ``inside`` is False for slave nodes that project beyond the master polyline; their other
    fields are meaningless (they cannot be in contact, see :class:`hertz2d.fem.contact.frictional`).
    """

    zeta: np.ndarray
    gap: np.ndarray
    normal: np.ndarray
    tangent: np.ndarray
    inside: np.ndarray
    #: ``zeta`` split by :func:`segment_and_xi`, and the point on the master it names
    segment: np.ndarray
    xi: np.ndarray
    point: np.ndarray


def segment_and_xi(zeta: np.ndarray, segments: int):
    """Split surface coordinates into segment index and local coordinate in [0, 1]."""
    k = np.maximum(np.minimum(np.floor(zeta).astype(int), segments - 1), 0)
    return k, zeta - k


def interpolate(points: np.ndarray, zeta: np.ndarray) -> np.ndarray:
    """Positions (or any nodal quantity) on the polyline at surface coordinates ``zeta``."""
    k, xi = segment_and_xi(zeta, len(points) - 1)
    return (1.0 - xi)[:, None] * points[k] + xi[:, None] * points[k + 1]


def tangent_of(normal: np.ndarray) -> np.ndarray:
    """The unit tangent ``(n_y, -n_x)``: along +x when the normal points up."""
    return np.column_stack([normal[:, 1], -normal[:, 0]])


def project(slave: np.ndarray, master: np.ndarray, reach: int = 2) -> Projection:
    """Project slave points (n, 2) on the master polyline (m, 2) along its smoothed normals.

    The master is ordered by x and nearly flat where it can touch, so only the ``reach``
    segments on either side of the one below each slave point are searched.
    """
    edges = np.diff(master, axis=0)
    normals = _nodal_normals(master, edges)
    segments = len(master) - 1
    below = np.searchsorted(master[:, 0], slave[:, 0]) - 1
    k = np.maximum(np.minimum(below[:, None] + np.arange(-reach, reach + 1), segments - 1), 0)
    # per candidate segment (n, candidates): the slave point from the segment's start d, the
    # segment e, the normal at its start m and its change along it t (x and y components)
    d = slave[:, None, :] - master[k]
    dx, dy = d[..., 0], d[..., 1]
    ex, ey = edges[k, 0], edges[k, 1]
    mx, my = normals[k, 0], normals[k, 1]
    turns = np.diff(normals, axis=0)
    tx, ty = turns[k, 0], turns[k, 1]
    # cross(d - xi e, m + xi t) = c0 + c1 xi + c2 xi^2
    c0 = dx * my - dy * mx
    c1 = (dx * ty - dy * tx) - (ex * my - ey * mx)
    c2 = -(ex * ty - ey * tx)
    with np.errstate(divide="ignore", invalid="ignore"):
        linear = -c0 / c1
        disc = np.sqrt(np.maximum(c1 * c1 - 4 * c2 * c0, 0.0))
        # the root that stays finite as c2 -> 0 (numerically stable form)
        quadratic = c0 / (-0.5 * (c1 + np.copysign(disc, c1)))
    xi = np.where(np.abs(c2) < 1e-12 * np.abs(c1), linear, quadratic)
    valid = np.isfinite(xi) & (xi >= -_END) & (xi <= 1 + _END)
    on_segment = np.maximum(np.minimum(xi, 1.0), 0.0)
    # squared distance from the slave point to the foot on each candidate segment
    distance = np.where(valid, (dx - on_segment * ex) ** 2 + (dy - on_segment * ey) ** 2, np.inf)
    best = np.argmin(distance, axis=1)
    rows = np.arange(len(slave))
    inside = np.isfinite(distance[rows, best])
    zeta = k[rows, best] + np.where(inside, on_segment[rows, best], 0.0)
    at, along = segment_and_xi(zeta, segments)
    normal = (1.0 - along)[:, None] * normals[at] + along[:, None] * normals[at + 1]
    normal /= _lengths(normal)
    foot = (1.0 - along)[:, None] * master[at] + along[:, None] * master[at + 1]
    gap = np.einsum("ij,ij->i", slave - foot, normal)
    return Projection(zeta, np.where(inside, gap, np.inf), normal, tangent_of(normal), inside,
                      at, along, foot)
