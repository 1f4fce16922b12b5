"""Contact laws for discs in 2D, usable on their own (a DEM code can import one).

The paper's laws (:mod:`hertz2d.calibration.laws.hertz2d`, :mod:`hertz2d.calibration.laws.appendix_c`), their
extensions to any loading history (:mod:`hertz2d.calibration.laws.memory`: the accurate model with
Masing's rule and memory; :mod:`hertz2d.calibration.laws.hysteretic`: Table 1's normal law with the
accurate model's branches, incremental, for DEM) and the laws they are compared with
(:mod:`hertz2d.calibration.laws.linear`, :mod:`hertz2d.calibration.laws.sphere`), all behind one interface
(:mod:`hertz2d.calibration.laws.base`): build a law from a :class:`ContactPair`, run a
:class:`hertz2d.checks.loadpath.LoadPath`, get the per-step table the FEM also produces. The registry
(:mod:`hertz2d.calibration.laws.registry`) declares each law once (its parts, the engines and exports
that support it); :data:`LAWS` lists every law by name (with the paths each runs),
:func:`make_law` builds any of them, :func:`energy_per_cycle` measures a cycle's hysteresis loop
in any table.

    >>> from hertz2d.calibration.laws import ContactPair, SimplifiedModel, simplified_update
    >>> pair = ContactPair.discs(R=0.5, E=10e9, nu=0.25, mu=0.3)
    >>> state = simplified_update(pair, delta_n=0.025, d_delta_t=1e-3, T_previous=0.0)
    >>> bool(state.T < pair.mu * state.N), bool(abs(state.T - state.kt * 1e-3) < 1e-6 * state.T)
    (True, True)

``simplified_update`` (Table 1) and ``hysteretic_update`` (with memory) are the DEM hot paths:
pass arrays (one entry per contact) for every argument and for the pair's parameters.
"""
from hertz2d.calibration.laws.appendix_c import AppendixC
from hertz2d.calibration.laws.base import ALL_PATHS, COLUMNS, ContactLaw
from hertz2d.calibration.laws.catalogue import LAWS, make_law
from hertz2d.calibration.laws.energy import energy_per_cycle
from hertz2d.calibration.laws.hertz2d import (AccurateModel, SimplifiedModel, SimplifiedState,
                                      accurate_tangential_displacement,
                                      accurate_tangential_force, full_slip_displacement,
                                      half_width, normal_approach, normal_force, normal_stiffness,
                                      pressure, shear_traction, simplified_update,
                                      stick_half_width, tangential_stiffness)
from hertz2d.calibration.laws.hysteretic import (HystereticState, SimplifiedHystereticModel,
                                         hysteretic_update)
from hertz2d.calibration.laws.linear import LinearSpring
from hertz2d.calibration.laws.memory import AccurateMemoryModel
from hertz2d.calibration.laws.pair import FORMS, ContactPair
from hertz2d.calibration.laws.penalty_factor import EQ33, ConstantPenalty, PolynomialPenalty
from hertz2d.calibration.laws.sphere import HertzMindlin, MindlinDeresiewicz

__all__ = [
    "ALL_PATHS", "AccurateMemoryModel", "AccurateModel", "AppendixC", "COLUMNS", "ConstantPenalty",
    "ContactLaw", "ContactPair", "EQ33", "FORMS", "HertzMindlin", "HystereticState", "LAWS",
    "LinearSpring", "MindlinDeresiewicz", "PolynomialPenalty", "SimplifiedHystereticModel",
    "SimplifiedModel", "SimplifiedState", "accurate_tangential_displacement",
    "accurate_tangential_force", "energy_per_cycle", "full_slip_displacement", "half_width",
    "hysteretic_update", "make_law", "normal_approach", "normal_force", "normal_stiffness",
    "pressure", "shear_traction", "simplified_update", "stick_half_width", "tangential_stiffness",
]
