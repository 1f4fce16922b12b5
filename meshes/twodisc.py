"""The two half discs of the particle-particle contact example (Section 4.2, Fig. 10 of the paper).

The *lower* body is the upper half of a disc of radius R1 centred at ``(0, -R1)``: its flat
diameter lies on ``y = -R1`` and its arc passes through the origin. The *upper* body is the lower
half of a disc of radius R2 centred at ``(0, R2)``, flat on ``y = R2``. The arcs touch at the origin
in the reference configuration.

Each body is tagged with the facet sets ``flat`` (the diameter), ``arc`` (the whole half circle)
and ``window`` (the part of the arc that may come into contact) and has a node at the centre of
its flat (the pin of the ``symmetric`` support). The window is an interval of x that covers the
expected contact zone and the slide (:func:`contact_windows`); its facets are all of one length
``h`` (a transfinite arc, uniform in arc length), so contact tractions are recovered on a uniform
grid. Away from the window the size grows linearly with the distance d from it,
``size(d) = 2**-level * min(FAR * R, WINDOW * a + GROWTH * d)``, ``h = 2**-level * WINDOW * a``
with ``a`` the expected contact half-width: one refinement level halves every element size.

The expected half-width comes from Eq. 23 with Eq. 4 substituted, which depends on the geometry
only: ``delta_n = a^2/(4 R*) [log(16 R1 R2 / a^2) - 1]`` with ``1/R* = 1/R1 + 1/R2`` (it is a sizing
estimate; the contact-law library in :mod:`calibration.laws` is downstream of this package).
"""
from __future__ import annotations

import math

import gmsh
import skfem
from scipy.optimize import brentq
from skfem.io.meshio import from_meshio

from meshes.cache import cached_mesh
from meshes.checks import InputError, count, positive
from meshes.gmsh_session import gmsh_session, sizes_from_background_field

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


def expected_half_width(R1: float, R2: float, delta_n: float) -> float:
    """Contact half-width of two discs pressed together by ``delta_n`` (Eqs. 4 and 23)."""
    R1, R2, delta_n = positive("R1", R1), positive("R2", R2), positive("delta_n", delta_n)
    r_star = R1 * R2 / (R1 + R2)

    def approach(a):
        return a * a / (4.0 * r_star) * (math.log(16.0 * R1 * R2 / (a * a)) - 1.0) - delta_n

    upper = min(R1, R2)
    if approach(upper) < 0.0:
        raise InputError(f"delta_n={delta_n!r} is too large for discs of R1={R1!r}, R2={R2!r}")
    return brentq(approach, 1e-12 * upper, upper, xtol=1e-14 * upper)


def contact_windows(R1: float, R2: float, delta_n: float, delta_t: tuple[float, float]):
    """x-intervals of the lower and upper arcs that can touch along a path.

    ``delta_n`` is the largest approach of the path and ``delta_t`` the range (min, max) of the
    tangential displacement. Rigidly, the contact centre sits at ``x = delta_t R1/(R1+R2)`` on the
    lower arc and at ``-delta_t R2/(R1+R2)`` on the upper one (elastic deformation only reduces the
    slide); the window adds :data:`MARGIN` expected half-widths on both sides.
    """
    a = expected_half_width(R1, R2, delta_n)
    low, high = min(0.0, delta_t[0]), max(0.0, delta_t[1])
    windows = []
    for share in (R1 / (R1 + R2), -R2 / (R1 + R2)):
        ends = sorted((share * low, share * high))
        windows.append((ends[0] - MARGIN * a, ends[1] + MARGIN * a))
    for name, R, (left, right) in zip(("R1", "R2"), (R1, R2), windows):
        if left <= -0.9 * R or right >= 0.9 * R:
            raise InputError(f"the contact window [{left:.4g}, {right:.4g}] m does not fit on the "
                             f"arc of {name}={R!r}: delta_t or delta_n too large for half discs")
    return a, windows[0], windows[1]


def build_half_disc(path: str, R: float, side: int, window: tuple[float, float],
                    half_width: float, level: int) -> None:
    """Write the gmsh mesh of one half disc to ``path``.

    ``side=+1``: the upper half of the disc centred at ``(0, -R)`` (the lower body);
    ``side=-1``: the lower half of the disc centred at ``(0, R)`` (the upper body).
    """
    scale = 2.0 ** -level
    h = scale * WINDOW * half_width
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
        gmsh.write(path)


def half_disc_mesh(R: float, side: int, window: tuple[float, float], half_width: float,
                   level: int = DEFAULT_LEVEL) -> skfem.MeshTri:
    """One tagged half disc (see :func:`build_half_disc`) as a scikit-fem mesh."""
    raw = cached_mesh(build_half_disc, R=float(R), side=int(side),
                      window=[float(window[0]), float(window[1])],
                      half_width=float(half_width), level=int(level))
    return from_meshio(raw)


def two_disc_meshes(R1: float, R2: float, delta_n: float, delta_t: tuple[float, float] = (0, 0),
                    level: int = DEFAULT_LEVEL):
    """The lower and upper bodies of Fig. 10, meshed for a path reaching ``delta_n``, ``delta_t``.

    Returns ``(lower, upper, a)`` with ``a`` the expected half-width used for sizing.
    """
    level = count("refine", level, minimum=0, maximum=MAX_LEVEL, why=LEVEL_LIMIT)
    a, lower_window, upper_window = contact_windows(R1, R2, delta_n, delta_t)
    lower = half_disc_mesh(R1, +1, lower_window, a, level)
    upper = half_disc_mesh(R2, -1, upper_window, a, level)
    return lower, upper, a
