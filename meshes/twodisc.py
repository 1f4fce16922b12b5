"""The two bodies of the contact example (Section 4.2, Fig. 10 of the paper): half discs or a wall.

The *lower* body is the upper half of a disc of radius R_lower centred at ``(0, -R_lower)``: its
flat diameter lies on ``y = -R_lower`` and its arc passes through the origin; or it is a rigid flat
wall, the line ``y = 0``, which is not meshed. The *upper* body is the lower half of a disc of
radius R_upper centred at ``(0, R_upper)``, flat on ``y = R_upper``. The bodies touch at the origin
in the reference configuration.

Each half disc is tagged with the facet sets ``flat`` (the diameter), ``arc`` (the whole half
circle) and ``window`` (the part of the arc that may come into contact) and has a node at the
centre of its flat (the pin of the ``symmetric`` support). The window is an interval of x that
covers the expected contact zone and the slide (:func:`contact_windows`); its facets are all of
one length ``h`` (a transfinite arc, uniform in arc length), so contact tractions are recovered
on a uniform grid. Away from the window the size grows linearly with the distance d from it,
``size(d) = 2**-level * min(FAR * R, WINDOW * a + GROWTH * d)``, ``h = 2**-level * WINDOW * a``
(:func:`window_element`) with ``a`` the expected contact half-width: one refinement level halves
every element size.

The expected half-width comes from Eq. 22 with Eq. 4 substituted (:func:`expected_half_width`):
with ``N = pi a^2 / (4 R* C)``, ``C = sum_i C_i`` the bodies' compliances ``C_i = (1 - nu_i^2)/E_i``
(Eq. 5, ``C = 1/E*``) and ``1/R* = sum_i 1/R_i`` (Eq. 6), Eq. 22 reads
``delta_n = a^2/(2 R*) sum_i (C_i / C) [log(4 R_i/a) - 1/2]``: it depends on the radii and on the
compliances' shares only. For one material it is Eq. 23, for a disc on a rigid flat (R = inf,
C = 0) Eq. 17 with ``R* = R``. It is a sizing estimate; the contact-law library in
:mod:`hertz2d.calibration.laws` is downstream of this package.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import gmsh
import meshio
import numpy as np
import skfem
from scipy.optimize import brentq

from hertz2d.meshes.cache import cached_mesh
from hertz2d.checks import InputError, count, positive
from hertz2d.meshes.gmsh_session import gmsh_session, sizes_from_background_field

#: window element size at level 0, as a multiple of the expected half-width a
WINDOW = 0.2
#: far-field element size at level 0, as a multiple of R
FAR = 0.25
#: growth of the element size with distance from the window
GROWTH = 0.3
#: the window reaches this many expected half-widths beyond the contact centre on either side
MARGIN = 1.3
#: the level used unless the caller asks for another (see benchmarks/twodisc.py)
DEFAULT_LEVEL = 3
#: the finest level accepted: each level has 4x the DOFs; measured on case 1, level 5 has 0.44M
#: DOFs and takes 3.7 GB and 55 s to set up, level 6 took 17 GB and 6 minutes
MAX_LEVEL = 5
LEVEL_LIMIT = "level 5 is 0.44M DOFs and 3.7 GB; level 6 needs 17 GB"

BOUNDARIES = ("flat", "arc", "window")


def _shares(radii, compliances) -> list[tuple[float, float]]:
    """(R_i, C_i / C) of the bodies that deform, after checking every radius and compliance."""
    for name, R in zip(("R_lower", "R_upper"), radii):
        if R != math.inf:
            positive(name, R)
    for name, C in zip(("compliance_lower", "compliance_upper"), compliances):
        if C != 0.0:
            positive(name, C)
    total = sum(compliances)
    if total <= 0.0 or math.isinf(radii[0]) and math.isinf(radii[1]):
        raise InputError(f"radii={tuple(radii)!r} with compliances={tuple(compliances)!r}: at "
                         "least one body must be a deformable disc")
    return [(R, C / total) for R, C in zip(radii, compliances) if C > 0.0]


def expected_half_width(delta_n: float, radii: tuple[float, float],
                        compliances: tuple[float, float]) -> float:
    """Contact half-width of two bodies pressed together by ``delta_n`` (Eqs. 4 and 22).

    ``radii`` and ``compliances`` ``(1 - nu^2)/E`` are (lower, upper); a rigid flat has radius
    ``math.inf`` and compliance 0.
    """
    delta_n = positive("delta_n", delta_n)
    shares = _shares(radii, compliances)
    r_star = 1.0 / sum(1.0 / R for R in radii)

    def approach(a):
        brackets = sum(share * (math.log(4.0 * R / a) - 0.5) for R, share in shares)
        return a * a / (2.0 * r_star) * brackets - delta_n

    upper = min(radii)
    if approach(upper) < 0.0:
        raise InputError(f"delta_n={delta_n!r} is too large for bodies of radii "
                         f"{radii[0]!r} (lower) and {radii[1]!r} (upper)")
    return brentq(approach, 1e-12 * upper, upper, xtol=1e-14 * upper)


@dataclass(frozen=True)
class ContactWindows:
    """The expected half-width and the x-intervals of the lower and upper surfaces that touch."""

    half_width: float
    lower: tuple[float, float]
    upper: tuple[float, float]


def window_element(half_width: float, level: int) -> float:
    """The uniform element length ``h`` along a contact window at refinement ``level``."""
    return 2.0 ** -level * WINDOW * half_width


def contact_windows(delta_n: float, delta_t: tuple[float, float], radii: tuple[float, float],
                    compliances: tuple[float, float]) -> ContactWindows:
    """x-intervals of the lower and upper surfaces that can touch along a path.

    ``delta_n`` is the largest approach of the path and ``delta_t`` the range (min, max) of the
    tangential displacement; ``radii`` and ``compliances`` as in :func:`expected_half_width`.
    Rigidly, the contact centre sits at ``x = delta_t R_lower/(R_lower+R_upper)`` on the lower
    surface and at ``-delta_t R_upper/(R_lower+R_upper)`` on the upper one (on a flat wall: at
    ``delta_t`` on the wall, at the disc's lowest point, x = 0, on the disc); elastic
    deformation only reduces the slide. Each window adds :data:`MARGIN` expected half-widths on
    both sides.
    """
    a = expected_half_width(delta_n, radii, compliances)
    low, high = min(0.0, delta_t[0]), max(0.0, delta_t[1])
    R_lower, R_upper = radii
    windows = []
    # the shares R_lower/(R_lower+R_upper) and -R_upper/(R_lower+R_upper), finite for R = inf
    for share in (1.0 / (1.0 + R_upper / R_lower), -1.0 / (1.0 + R_lower / R_upper)):
        ends = sorted((share * low, share * high))
        windows.append((ends[0] - MARGIN * a, ends[1] + MARGIN * a))
    for name, R, (left, right) in zip(("R_lower", "R_upper"), radii, windows):
        if left <= -0.9 * R or right >= 0.9 * R:
            raise InputError(f"the contact window [{left:.4g}, {right:.4g}] m does not fit on the "
                             f"arc of {name}={R!r}: delta_t or delta_n too large for half discs")
    return ContactWindows(a, windows[0], windows[1])


def build_half_disc(path: str, R: float, side: int, window: tuple[float, float],
                    half_width: float, level: int) -> None:
    """Write the gmsh mesh of one half disc to ``path``.

    ``side=+1``: the upper half of the disc centred at ``(0, -R)`` (the lower body);
    ``side=-1``: the lower half of the disc centred at ``(0, R)`` (the upper body).
    """
    scale = 2.0 ** -level
    h = window_element(half_width, level)
    yc = -side * R
    with gmsh_session("half_disc") as model:
        geo = model.geo

        def on_arc(x):
            return geo.addPoint(x, yc + side * math.sqrt(R * R - x * x), 0)

        centre = geo.addPoint(0, yc, 0)
        right, left = geo.addPoint(R, yc, 0), geo.addPoint(-R, yc, 0)
        w_left, w_right = on_arc(window[0]), on_arc(window[1])
        flat = [geo.addLine(left, centre), geo.addLine(centre, right)]
        outer_right = geo.addCircleArc(right, centre, w_right)
        window_arc = geo.addCircleArc(w_right, centre, w_left)
        outer_left = geo.addCircleArc(w_left, centre, left)
        loop = geo.addCurveLoop([*flat, outer_right, window_arc, outer_left])
        surface = geo.addPlaneSurface([loop])
        arc_length = R * abs(math.asin(window[1] / R) - math.asin(window[0] / R))
        geo.mesh.setTransfiniteCurve(window_arc, max(2, math.ceil(arc_length / h) + 1))
        geo.synchronize()
        model.addPhysicalGroup(1, flat, name="flat")
        model.addPhysicalGroup(1, [outer_right, window_arc, outer_left], name="arc")
        model.addPhysicalGroup(1, [window_arc], name="window")
        model.addPhysicalGroup(2, [surface], name="body")

        fields = model.mesh.field
        distance = fields.add("Distance")
        fields.setNumbers(distance, "CurvesList", [window_arc])
        fields.setNumber(distance, "Sampling", 400)
        size = fields.add("MathEval")
        fields.setString(size, "F", f"{scale}*min({FAR * R}, {WINDOW * half_width} "
                                    f"+ {GROWTH}*F{distance})")
        fields.setAsBackgroundMesh(size)
        sizes_from_background_field()
        model.mesh.generate(2)
        # binary: written in 1 ms and read in 1.5 ms, against 5 and 10 ms as text at level 2
        gmsh.option.setNumber("Mesh.Binary", 1)
        gmsh.write(path)


def half_disc_mesh(R: float, side: int, window: tuple[float, float], half_width: float,
                   level: int = DEFAULT_LEVEL) -> skfem.MeshTri:
    """One tagged half disc (see :func:`build_half_disc`) as a scikit-fem mesh."""
    raw = cached_mesh(build_half_disc, R=float(R), side=int(side),
                      window=[float(window[0]), float(window[1])],
                      half_width=float(half_width), level=int(level))
    return tagged_mesh(raw)


def tagged_mesh(raw: meshio.Mesh) -> skfem.MeshTri:
    """The triangles of a gmsh mesh with its physical line groups as named boundaries.

    What ``skfem.io.meshio.from_meshio`` makes of it (each group the facet indices of its
    lines, in gmsh's order; no orientation, no subdomains), without building the mesh twice:
    from_meshio finds the facets of a temporary mesh to match the lines and the mesh it returns
    finds them again, 18 of its 23 ms a body at level 2. scikit-fem numbers the facets in the
    lexicographic order of their sorted end nodes, so a line's index is found by a search.
    """
    p = np.ascontiguousarray(raw.points[:, :2].T)
    t = np.ascontiguousarray(raw.cells_dict["triangle"].T)
    nodes = p.shape[1]

    def keys(ends):  # a facet (i < j) as the integer i * nodes + j
        ends = np.sort(ends, axis=0).astype(np.int64)
        return ends[0] * nodes + ends[1]

    facets = np.unique(keys(np.hstack([t[[0, 1]], t[[1, 2]], t[[0, 2]]])))
    lines = raw.cells_dict["line"].T
    boundaries = {name: np.searchsorted(facets, keys(lines[:, cells["line"]]))
                  for name, cells in raw.cell_sets_dict.items()
                  if "line" in cells and not name.startswith("gmsh:")}
    return skfem.MeshTri(p, t, boundaries)


def two_body_meshes(delta_n: float, delta_t: tuple[float, float], radii: tuple[float, float],
                    compliances: tuple[float, float], level: int = DEFAULT_LEVEL):
    """The lower and upper half discs of Fig. 10, meshed for a path reaching ``delta_n``,
    ``delta_t`` (``radii`` and ``compliances`` (lower, upper) as in :func:`expected_half_width`).

    Returns ``(lower, upper, windows)``; ``lower`` is None for a rigid flat (``R = inf``), which
    is not meshed.
    """
    level = count("refine", level, minimum=0, maximum=MAX_LEVEL, why=LEVEL_LIMIT)
    windows = contact_windows(delta_n, delta_t, radii, compliances)
    lower = (None if math.isinf(radii[0]) else
             half_disc_mesh(radii[0], +1, windows.lower, windows.half_width, level))
    upper = half_disc_mesh(radii[1], -1, windows.upper, windows.half_width, level)
    return lower, upper, windows
