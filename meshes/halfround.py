"""The trimmed half-round body of Section 2.3 (Fig. 3 of the paper).

A half disc of radius R whose flat diameter (the *base*) passes through the disc centre, with its
apex cut off to a flat of half-width a at height ``h = sqrt(R^2 - a^2)`` (the *flat*, where the
Hertzian traction acts); the two circular *arc* pieces join flat and base. The base centre and the
top centre are mesh nodes, because the measured quantity is the displacement of one relative to
the other.

The mesh depends on ``a/R`` and the refinement level only: it is built once at R = 1 and scaled.
Element sizes grow linearly with the distance d from the flat,
``size(d) = 2**-level * min(FAR * R, FLAT * a + GROWTH * d)``,
so one level halves every element size.
"""
from __future__ import annotations

import math

import gmsh
import numpy as np
import skfem
from skfem.io.meshio import from_meshio

from meshes.cache import cached_mesh
from meshes.checks import InputError, count, positive
from meshes.gmsh_session import gmsh_session, sizes_from_background_field

#: element size on the flat at level 0, as a multiple of a
FLAT = 0.25
#: far-field element size at level 0, as a multiple of R
FAR = 0.25
#: growth of the element size with distance from the flat at level 0
GROWTH = 0.35
#: the level used unless the caller asks for another (see benchmarks/halfround.py)
DEFAULT_LEVEL = 2
#: the finest level accepted: each level has 4x the DOFs; measured at a/R = 0.05, level 5 has
#: 0.81M DOFs and takes 3.9 GB and 140 s for one case, level 6 would take ~15 GB and ~20 minutes
MAX_LEVEL = 5
LEVEL_LIMIT = "level 5 is 0.8M DOFs, 3.9 GB, 2.5 min; each level is 4x that"

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

        fields = model.mesh.field
        distance = fields.add("Distance")
        fields.setNumbers(distance, "CurvesList", flat)
        fields.setNumber(distance, "Sampling", 200)
        size = fields.add("MathEval")
        fields.setString(size, "F", f"{scale}*min({FAR}, {FLAT * a} + {GROWTH}*F{distance})")
        fields.setAsBackgroundMesh(size)
        sizes_from_background_field()
        model.mesh.generate(2)
        gmsh.write(path)


def half_round_mesh(R: float, a: float, level: int = DEFAULT_LEVEL) -> skfem.MeshTri:
    """The half-round body of radius ``R`` and flat half-width ``a`` as a tagged scikit-fem mesh.

    ``mesh.boundaries`` holds the facet sets ``flat``, ``base`` and ``arc``.
    """
    check_geometry(R, a)
    level = count("refine", level, minimum=0, maximum=MAX_LEVEL, why=LEVEL_LIMIT)
    unit = from_meshio(cached_mesh(build_half_round, a_over_R=a / R, level=level))
    return unit.scaled(R)


def node_at(mesh: skfem.MeshTri, x: float, y: float) -> int:
    """Index of the mesh node at ``(x, y)`` (the geometry puts nodes at the points we measure)."""
    distances = np.hypot(mesh.p[0] - x, mesh.p[1] - y)
    index = int(np.argmin(distances))
    if distances[index] > 1e-9 * max(1.0, float(np.abs(mesh.p).max())):
        raise LookupError(f"no mesh node at ({x}, {y})")
    return index
