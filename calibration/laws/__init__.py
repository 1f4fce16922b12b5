"""Contact laws for discs in 2D, usable on their own (a DEM code can import one).

The paper's laws (:mod:`calibration.laws.hertz2d`, :mod:`calibration.laws.appendix_c`) and the
laws they are compared with (:mod:`calibration.laws.linear`, :mod:`calibration.laws.sphere`), all
behind one interface (:mod:`calibration.laws.base`): build a law from a :class:`ContactPair`, run
a :class:`fem.loadpath.LoadPath`, get the per-step table the FEM also produces.

    >>> from calibration.laws import ContactPair, SimplifiedModel, simplified_update
    >>> pair = ContactPair.discs(R=0.5, E=10e9, nu=0.25, mu=0.3)
    >>> state = simplified_update(pair, delta_n=0.025, d_delta_t=1e-3, T_previous=0.0)

``simplified_update`` is the DEM hot path: pass arrays (one entry per contact) for every argument
and for the pair's parameters.
"""
from calibration.laws.appendix_c import AppendixC
from calibration.laws.base import COLUMNS, ContactLaw
from calibration.laws.hertz2d import (AccurateModel, SimplifiedModel, SimplifiedState,
                                      accurate_tangential_displacement,
                                      accurate_tangential_force, full_slip_displacement,
                                      half_width, normal_approach, normal_force, normal_stiffness,
                                      pressure, shear_traction, simplified_update,
                                      stick_half_width, tangential_stiffness)
from calibration.laws.linear import LinearSpring
from calibration.laws.pair import ContactPair
from calibration.laws.penalty_factor import EQ33, ConstantPenalty, PolynomialPenalty
from calibration.laws.sphere import HertzMindlin, MindlinDeresiewicz

__all__ = [
    "AccurateModel", "AppendixC", "COLUMNS", "ConstantPenalty", "ContactLaw", "ContactPair",
    "EQ33", "HertzMindlin", "LinearSpring", "MindlinDeresiewicz", "PolynomialPenalty",
    "SimplifiedModel", "SimplifiedState", "accurate_tangential_displacement",
    "accurate_tangential_force", "full_slip_displacement", "half_width", "normal_approach",
    "normal_force", "normal_stiffness", "pressure", "shear_traction", "simplified_update",
    "stick_half_width",
    "tangential_stiffness",
]
