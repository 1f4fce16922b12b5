"""The half-round body of Section 2.3 under Hertzian tractions on its flat (plane strain, P2).

The measured quantity is the displacement of the top centre relative to the base centre: along x
under the tangential traction (Eq. 20 defines the penalty factor w from it), and the approach
(downward, positive) under the normal traction (Eq. 17 predicts it).

Two base supports (:mod:`fem.supports`), because the paper does not state its own: ``clamped``
(the base diameter fixed) and ``symmetric`` (the base as the mirror plane of a full disc loaded
symmetrically at top and bottom). With ``symmetric``, the roller reactions balance N under the
normal load; under the tangential load the mirrored full disc carries 2T along x with nothing to
react it, so d'Alembert's uniform body force ``-T/A`` (inertia relief) balances it, the moment
``T h`` of the half body is carried by the roller's normal reactions (the mirrored half cancels it
in the full disc), and the pin at the base centre carries nothing, so the relative displacement
we measure does not depend on it.

The stiffness depends on E and nu only through ``lambda K_lambda + mu K_mu`` and the mesh only on
``a/R``, so one :class:`HalfRoundBody` serves every material and both supports.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from fem.elasticity import StiffnessParts, vector_basis
from fem.factor import PatternFactorizer
from fem.loads import hertzian_traction
from fem.supports import SUPPORTS, fixed_dofs, relief_load
from meshes.checks import one_of, poisson, positive
from meshes.halfround import DEFAULT_LEVEL, half_round_mesh, node_at


@dataclass(frozen=True)
class HalfRoundCompliance:
    """Top-centre displacement relative to the base centre per unit force (m per N/m).

    ``tangential``: u_x under a Hertzian tangential traction of resultant 1 (Eq. 20 / T).
    ``normal``: the approach under a compressive Hertzian normal traction of resultant 1 (Eq. 17 / N).
    """

    tangential: float
    normal: float


class HalfRoundBody:
    """One meshed and assembled half-round body; :meth:`compliance` solves any material."""

    def __init__(self, R: float, a: float, level: int = DEFAULT_LEVEL):
        self.R, self.a, self.level = R, a, level
        self.mesh = half_round_mesh(R, a, level)
        self.basis = vector_basis(self.mesh, order=2)
        self.parts = StiffnessParts.assemble(self.basis)
        flat = self.mesh.boundaries["flat"]
        self.tangential_load = hertzian_traction(self.basis, flat, 1.0, a, (1.0, 0.0))
        self.normal_load = hertzian_traction(self.basis, flat, 1.0, a, (0.0, -1.0))
        self.top = self.basis.nodal_dofs[:, node_at(self.mesh, 0.0, math.sqrt(R * R - a * a))]
        self.base_centre_node = node_at(self.mesh, 0.0, 0.0)
        self.base_centre = self.basis.nodal_dofs[:, self.base_centre_node]
        self._supports: dict[str, tuple] = {}
        self._unit_modulus: dict[tuple[float, str], tuple[HalfRoundCompliance, np.ndarray]] = {}

    @property
    def dofs(self) -> int:
        return self.basis.N

    def support(self, support: str) -> tuple[np.ndarray, StiffnessParts, PatternFactorizer,
                                             np.ndarray]:
        """Free DOFs, their stiffness parts, a factoriser and the relief load of ``support``."""
        if support not in self._supports:
            held = fixed_dofs(self.basis, "base", self.base_centre_node, support)
            free = np.setdiff1d(np.arange(self.dofs), held)
            self._supports[support] = (free, self.parts.restricted(free), PatternFactorizer(),
                                       relief_load(self.basis, support))
        return self._supports[support]

    def solve(self, E: float, nu: float, support: str) -> tuple[HalfRoundCompliance, np.ndarray]:
        """Compliances and the displacement fields (columns: unit tangential, unit normal load).

        Displacements are inversely proportional to E at fixed nu, so each (nu, support) is
        factorised and solved once, at E = 1 Pa, and every modulus scales that solution.
        """
        E = positive("E", E)
        unit, fields = self._unit_modulus_solution(poisson("nu", nu),
                                                   one_of("support", support, SUPPORTS))
        return HalfRoundCompliance(unit.tangential / E, unit.normal / E), fields / E

    def _unit_modulus_solution(self, nu: float, support: str):
        if (nu, support) not in self._unit_modulus:
            free, parts, factorizer, relief = self.support(support)
            solve = factorizer.factorize(parts.combine(1.0, nu))
            tangential = self.tangential_load + relief  # unit x-resultant
            fields = np.zeros((self.dofs, 2))
            for column, load in enumerate((tangential, self.normal_load)):
                fields[free, column] = solve(load[free])
            relative = fields[self.top] - fields[self.base_centre]
            self._unit_modulus[nu, support] = (
                HalfRoundCompliance(tangential=relative[0, 0], normal=-relative[1, 1]), fields)
        return self._unit_modulus[nu, support]

    def compliance(self, E: float, nu: float, support: str) -> HalfRoundCompliance:
        return self.solve(E, nu, support)[0]
