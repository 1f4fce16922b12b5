"""The half-round body of Section 2.3 under Hertzian tractions on its flat (plane strain, P2).

The measured quantity is the displacement of the top centre relative to the base centre: along x
under the tangential traction (Eq. 20 defines the penalty factor w from it), and the approach
(downward, positive) under the normal traction (Eq. 17 predicts it).

Two base supports (:mod:`hertz2d.fem.supports`), because the paper does not state its own: ``clamped``
(the base diameter fixed) and ``symmetric`` (the base as the mirror plane of a full disc loaded
symmetrically at top and bottom). With ``symmetric``, the roller reactions balance N under the
normal load; under the tangential load the mirrored full disc carries 2T along x with nothing to
react it, so d'Alembert's uniform body force ``-T/A`` (inertia relief) balances it, the moment
``T h`` of the half body is carried by the roller's normal reactions (the mirrored half cancels it
in the full disc), and the pin at the base centre carries nothing, so the relative displacement
we measure does not depend on it.

The stiffness depends on E and nu only through ``lambda K_lambda + mu K_mu`` and the mesh only on
``a/R``, so one :class:`HalfRoundBody` serves every material and both supports. Many Poisson ratios
on one body are solved together (:meth:`HalfRoundBody.sweep_poisson`) by a reduced basis with a
guaranteed error bound (:mod:`hertz2d.fem.parametric`): a few factorisations instead of one per ratio.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from hertz2d.fem.elasticity import StiffnessParts, vector_basis
from hertz2d.fem.factor import PatternFactorizer
from hertz2d.fem.loads import hertzian_traction
from hertz2d.fem.parametric import parametric_outputs
from hertz2d.fem.supports import SUPPORTS, fixed_dofs, relief_load
from hertz2d.checks import one_of, poisson, positive
from hertz2d.meshes.halfround import DEFAULT_LEVEL, half_round_mesh, node_at


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
        self._swept: dict[tuple[float, str], HalfRoundCompliance] = {}

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

    def sweep_poisson(self, nus: Iterable[float], support: str) -> None:
        """Solve many Poisson ratios at once; :meth:`compliance` then returns their compliances.

        The compliances come from :func:`hertz2d.fem.parametric.parametric_outputs`: each is either a
        direct solve or guaranteed within ``hertz2d.fem.parametric.TOLERANCE`` (relative) of it. The
        displacement fields are not kept (:meth:`solve` computes them directly).
        """
        support = one_of("support", support, SUPPORTS)
        done = {nu for nu, swept in self._swept if swept == support}
        nus = sorted({poisson("nu", nu) for nu in nus} - done)
        if not nus:
            return
        free, parts, factorizer, relief = self.support(support)
        measured = np.zeros((self.dofs, 2))  # top centre minus base centre, along x and along y
        measured[self.top, [0, 1]] += 1.0
        measured[self.base_centre, [0, 1]] -= 1.0
        loads = np.column_stack([self.tangential_load + relief, self.normal_load])
        ratios = [2.0 * nu / (1.0 - 2.0 * nu) for nu in nus]  # lambda / mu
        result = parametric_outputs(parts, loads[free], measured[free], ratios, factorizer)
        for nu, (tangential, normal) in zip(nus, result.outputs):
            per_mu = 2.0 * (1.0 + nu)  # 1 / mu at E = 1: K = mu (K_mu + r K_lambda)
            self._swept[nu, support] = HalfRoundCompliance(tangential * per_mu, -normal * per_mu)

    def compliance(self, E: float, nu: float, support: str) -> HalfRoundCompliance:
        """The compliances at (E, nu, support): from :meth:`sweep_poisson` if it solved this nu."""
        swept = self._swept.get((nu, support))
        if swept is None:
            return self.solve(E, nu, support)[0]
        E = positive("E", E)
        return HalfRoundCompliance(swept.tangential / E, swept.normal / E)
