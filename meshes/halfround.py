"""The trimmed half-round body of Section 2.3 (Fig. 3 of the paper).

A half disc of radius R whose flat diameter (the *base*) passes through the disc centre, with its
apex cut off to a flat of half-width a at height ``h = sqrt(R^2 - a^2)`` (the *flat*, where the
Hertzian traction acts); the two circular *arc* pieces join flat and base. The base centre and the
top centre are mesh nodes, because the measured quantity is the displacement of one relative to
the other.

The mesh depends on ``a/R`` and the refinement level only: it is built once at R = 1 and scaled.
Element sizes grow linearly with the distance ``d`` from the flat and with the distance ``c`` from
the nearer end of the base,
``size = 2**-level * min(FAR * R, FLAT * a + GROWTH * d, CORNER * R + GROWTH * c)``,
so one level halves every element size. The base's ends, where the clamped base meets the free
arc, are corners of a stress singularity (a fixed-free right-angled wedge, stronger as nu -> 1/2);
without the grading towards them w converges there at order about 1 instead of 2 and is off by
1e-3 at nu = 0.49 and the default level (benchmarks/halfround_vs_fenicsx.py measures w against a
converged reference). The error left is a smooth O(h^2) one of the bulk, which is why the flat's
own elements (FLAT) are not smaller: refining them alone does not lower it.
"""
from __future__ import annotations

import math

import gmsh
import numpy as np
import skfem
from skfem.io.meshio import from_meshio

from hertz2d.meshes.cache import cached_mesh
from hertz2d.checks import InputError, count, positive
from hertz2d.meshes.gmsh_session import gmsh_session, sizes_from_background_field

#: element size on the flat at level 0, as a multiple of a
FLAT = 0.5
#: far-field element size at level 0, as a multiple of R
FAR = 0.25
#: element size at the base's two ends at level 0, as a multiple of R
CORNER = 0.05
#: growth of the element size with distance from the flat or a base end, at level 0
GROWTH = 0.5
#: the level used unless the caller asks for another (see benchmarks/halfround_vs_fenicsx.py)
DEFAULT_LEVEL = 2
#: the finest level accepted: each level has 4x the DOFs; measured at a/R = 0.05, level 5 has
#: 0.48M DOFs and takes 2.4 GB and 1.6 min for one case (`hertz2d halfround --refine 5`, 40 s of
#: CPU on a busy machine), level 6 would take ~10 GB and several minutes
MAX_LEVEL = 5
LEVEL_LIMIT = "level 5 is 0.5M DOFs, 2.4 GB, 1.6 min; each level is 4x that"

BOUNDARIES = ("flat", "base", "arc")


def check_geometry(R: float, a: float) -> None:
    """The trimmed flat must be a proper chord: ``0 < a < R``."""
    positive("R", R)
    positive("a", a)
    if a >= R:
        raise InputError(f"a={a!r} must be smaller than R={R!r}")


def build_half_round(path: str, a_over_R: float, level: int) -> None:
    """Write the gmsh mesh of the unit-radius half-round body to ``path``."""
    a = a_over_R
    h = math.sqrt(1.0 - a * a)
    scale = 2.0 ** -level
    with gmsh_session("half_round") as model:
        geo = model.geo
        centre = geo.addPoint(0, 0, 0)
        base_left, base_right = geo.addPoint(-1, 0, 0), geo.addPoint(1, 0, 0)
        flat_left, flat_right = geo.addPoint(-a, h, 0), geo.addPoint(a, h, 0)
        top = geo.addPoint(0, h, 0)
        base = [geo.addLine(base_left, centre), geo.addLine(centre, base_right)]
        arc_right = geo.addCircleArc(base_right, centre, flat_right)
        flat = [geo.addLine(flat_right, top), geo.addLine(top, flat_left)]
        arc_left = geo.addCircleArc(flat_left, centre, base_left)
        loop = geo.addCurveLoop([*base, arc_right, *flat, arc_left])
        surface = geo.addPlaneSurface([loop])
        geo.synchronize()
        model.addPhysicalGroup(1, flat, name="flat")
        model.addPhysicalGroup(1, base, name="base")
        model.addPhysicalGroup(1, [arc_right, arc_left], name="arc")
        model.addPhysicalGroup(2, [surface], name="body")

        # exact distances (R = 1) to the flat segment and to the nearer base end
        flat_distance = f"Sqrt(Max(Fabs(x) - {a}, 0)^2 + (y - {h})^2)"
        corner_distance = "Sqrt((Fabs(x) - 1)^2 + y^2)"
        size = model.mesh.field.add("MathEval")
        model.mesh.field.setString(size, "F", f"{scale} * min({FAR}, min({FLAT * a} + {GROWTH} * "
                                   f"{flat_distance}, {CORNER} + {GROWTH} * {corner_distance}))")
        model.mesh.field.setAsBackgroundMesh(size)
        sizes_from_background_field()
        # the curves' 1D mesh integrates the size along them; the default precision (1e-9) took
        # half of the meshing time for the same nodes
        gmsh.option.setNumber("Mesh.LcIntegrationPrecision", 1e-3)
        model.mesh.generate(2)
        gmsh.write(path)


def half_round_mesh(R: float, a: float, level: int = DEFAULT_LEVEL) -> skfem.MeshTri:
    """The half-round body of radius ``R`` and flat half-width ``a`` as a tagged scikit-fem mesh.

    ``mesh.boundaries`` holds the facet sets ``flat``, ``base`` and ``arc``.
    """
    check_geometry(R, a)
    level = count("refine", level, minimum=0, maximum=MAX_LEVEL, why=LEVEL_LIMIT)
    mesh = cached_mesh(build_half_round, a_over_R=a / R, level=level)  # a fresh copy per call
    mesh.points *= R  # scaled before conversion: scikit-fem then builds the facets once
    return from_meshio(mesh)


def node_at(mesh: skfem.MeshTri, x: float, y: float) -> int:
    """Index of the mesh node at ``(x, y)`` (the geometry puts nodes at the points we measure)."""
    distances = np.hypot(mesh.p[0] - x, mesh.p[1] - y)
    index = int(np.argmin(distances))
    if distances[index] > 1e-9 * max(1.0, float(np.abs(mesh.p).max())):
        raise LookupError(f"no mesh node at ({x}, {y})")
    return index
