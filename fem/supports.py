"""The two supports of a half disc's flat side: the half-round base and the two-disc flats.

The paper does not state how its FEM bodies were supported, so both are implemented:

``clamped``
    every DOF of the flat is held.
``symmetric``
    the flat is the mirror plane of a full disc: its normal DOFs are held (roller), and the
    x-resultant ``F_x`` of the applied loads, which nothing else reacts, is balanced by a uniform
    body force of resultant ``-F_x`` over the body (d'Alembert, "inertia relief",
    :func:`relief_load`). The rigid x-translation left is removed by holding the x-DOF of the
    flat's centre node, a pin that carries no force because the loads are then self-equilibrated,
    so the support adds no stiffness.
"""
from __future__ import annotations

import numpy as np
import skfem

from hertz2d.fem.loads import uniform_body_force

SUPPORTS = ("clamped", "symmetric")
#: the support whose penalty factors reproduce the paper's (Eq. 33, Figs. 7-9): with ``symmetric``
#: w is about half the paper's value, while ``symmetric`` is the one that reproduces Eq. 17
DEFAULT_SUPPORT = "clamped"


def fixed_dofs(basis: skfem.Basis, flat: str, centre_node: int, support: str) -> np.ndarray:
    """DOFs the support holds: all of boundary ``flat``, or its normal DOFs and the pin."""
    dofs = basis.get_dofs(flat)
    if support == "clamped":
        return dofs.all()
    return np.union1d(dofs.all("u^2"), basis.nodal_dofs[:1, centre_node])


def relief_load(basis: skfem.Basis, support: str) -> np.ndarray:
    """Load vector ``g`` to add, times ``F_x``, to loads of x-resultant ``F_x`` (0 if clamped)."""
    if support == "clamped":
        return np.zeros(basis.N)
    return uniform_body_force(basis, (-1.0, 0.0))
