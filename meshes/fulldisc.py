"""A full disc held by K contacts: radius R with K flats of half-width a, equally spaced.

The disc of radius R centred at the origin has K >= 2 flats trimmed at the angles
``phi_k = pi/2 + 2 pi (k - 1)/K`` (k = 1..K, contact 1 at the top), each the chord of half-width a
at distance ``h = sqrt(R^2 - a^2)`` from the centre, like the one flat of the half-round body of
Section 2.3 (:mod:`hertz2d.meshes.halfround`); circular arcs join them. Flat k is tagged ``flat<k>``, the
arcs together ``arc``. The disc centre and every flat centre are mesh nodes, because the measured
quantities are the displacements of the flat centres relative to the disc's rigid motion.

Element sizes grow linearly with the distance d from the nearest flat, as for the half-round body,
``size(d) = 2**-level * min(FAR * R, FLAT * a + GROWTH * d)``, so one level halves every element
size. (The constants are this body's own: the ones its verification and convergence were measured
with. A full disc has no clamped corners, so the half-round body's corner grading does not apply.) The mesh depends on ``a/R``, K and the level only: it is built at R = 1 and scaled.
"""
from __future__ import annotations

import math

import gmsh
import numpy as np
import skfem
from skfem.io.meshio import from_meshio

from hertz2d.meshes.cache import cached_mesh
from hertz2d.checks import InputError, count
from hertz2d.meshes.gmsh_session import gmsh_session, sizes_from_background_field
from hertz2d.meshes.halfround import check_geometry

#: element size on each flat at level 0, as a multiple of a
FLAT = 0.25
#: far-field element size at level 0, as a multiple of R
FAR = 0.25
#: growth of the element size with the distance from the nearest flat at level 0
GROWTH = 0.35

#: the level used unless the caller asks for another: at a/R = 0.05 its w is within 1e-3 of
#: level 3's for K = 2, 3, 4, at a tenth of level 2's cost (benchmarks/confined.py)
DEFAULT_LEVEL = 1
#: the finest level accepted: each level has 4x the DOFs; measured at a/R = 0.05, K = 4, level 4
#: has 0.69M DOFs and takes 5.2 GB and about 3 minutes for one case, level 5 would take ~20 GB
MAX_LEVEL = 4
LEVEL_LIMIT = "level 4 is 0.7M DOFs (K = 4), 5 GB, 3 minutes; each level is 4x that"
#: the contact counts a disc can have here: two to balance the normal loads, at most 12 so that
#: flats of the widest a/R accepted do not overlap
CONTACTS = (2, 12)


def check_contacts(K: int, a_over_R: float) -> int:
    """K in :data:`CONTACTS`, and the K flats of half-width a/R must not meet."""
    K = count("K", K, minimum=CONTACTS[0], maximum=CONTACTS[1],
              why="contacts of a disc in a packing")
    if math.asin(a_over_R) >= math.pi / K:
        raise InputError(f"a/R={a_over_R!r} is too wide for K={K} flats: they would overlap")
    return K


def contact_angles(K: int) -> np.ndarray:
    """``phi_k``: the direction of flat k's outward normal from the centre (rad), k = 1..K."""
    return np.pi / 2 + 2 * np.pi * np.arange(K) / K


def contact_frames(K: int) -> tuple[np.ndarray, np.ndarray]:
    """Outward normals ``n_k = (cos phi_k, sin phi_k)`` and tangents
    ``t_k = (sin phi_k, -cos phi_k)`` (rows k). ``t_1 = (1, 0)``: the tangent is the outward
    normal turned clockwise by 90 degrees."""
    phi = contact_angles(K)
    return (np.stack([np.cos(phi), np.sin(phi)], axis=1),
            np.stack([np.sin(phi), -np.cos(phi)], axis=1))


def build_full_disc(path: str, a_over_R: float, contacts: int, level: int) -> None:
    """Write the gmsh mesh of the unit-radius disc with ``contacts`` flats to ``path``."""
    a = a_over_R
    h = math.sqrt(1.0 - a * a)
    scale = 2.0 ** -level
    normals, tangents = contact_frames(contacts)
    with gmsh_session("full_disc") as model:
        geo = model.geo
        centre = geo.addPoint(0, 0, 0)
        # counter-clockwise: each flat from its end at c + a t to its end at c - a t
        ends = []
        flats = []
        for n, t in zip(normals, tangents):
            c = h * n
            first = geo.addPoint(*(c + a * t), 0)
            middle = geo.addPoint(*c, 0)
            last = geo.addPoint(*(c - a * t), 0)
            flats.append([geo.addLine(first, middle), geo.addLine(middle, last)])
            ends.append((first, last))
        arcs = [geo.addCircleArc(ends[k][1], centre, ends[(k + 1) % contacts][0])
                for k in range(contacts)]
        loop = geo.addCurveLoop([curve for k in range(contacts) for curve in (*flats[k], arcs[k])])
        surface = geo.addPlaneSurface([loop])
        geo.synchronize()
        model.mesh.embed(0, [centre], 2, surface)
        for k, flat in enumerate(flats, start=1):
            model.addPhysicalGroup(1, flat, name=f"flat{k}")
        model.addPhysicalGroup(1, arcs, name="arc")
        model.addPhysicalGroup(2, [surface], name="body")

        fields = model.mesh.field
        distance = fields.add("Distance")
        fields.setNumbers(distance, "CurvesList", [c for flat in flats for c in flat])
        fields.setNumber(distance, "Sampling", 200)
        size = fields.add("MathEval")
        fields.setString(size, "F", f"{scale}*min({FAR}, {FLAT * a} + {GROWTH}*F{distance})")
        fields.setAsBackgroundMesh(size)
        sizes_from_background_field()
        model.mesh.generate(2)
        gmsh.write(path)


def full_disc_mesh(R: float, a: float, contacts: int, level: int = DEFAULT_LEVEL) -> skfem.MeshTri:
    """The disc of radius ``R`` with ``contacts`` flats of half-width ``a``, tagged (``flat1`` ..
    ``flat<K>``, ``arc``)."""
    check_geometry(R, a)
    contacts = check_contacts(contacts, a / R)
    level = count("refine", level, minimum=0, maximum=MAX_LEVEL, why=LEVEL_LIMIT)
    unit = from_meshio(cached_mesh(build_full_disc, a_over_R=a / R, contacts=contacts,
                                   level=level))
    return unit.scaled(R)
