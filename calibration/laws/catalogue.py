"""Every contact law by its name, the load paths it runs, and one way to build any of them.

    >>> from calibration.laws import LAWS, make_law, ContactPair
    >>> {name: law.paths for name, law in LAWS.items()}        # doctest: +SKIP
    >>> law = make_law("accurate-memory", ContactPair.discs(0.5, 10e9, 0.25, 0.3))

The names are the ``hertz2d model --law`` values and each law's ``name``.
"""
from __future__ import annotations

from calibration.laws.appendix_c import AppendixC
from calibration.laws.base import ContactLaw
from calibration.laws.calibrated import CalibratedCoefficients, CalibratedModel
from calibration.laws.hertz2d import AccurateModel, SimplifiedModel
from calibration.laws.hysteretic import SimplifiedHystereticModel
from calibration.laws.linear import LinearSpring
from calibration.laws.memory import AccurateMemoryModel
from calibration.laws.pair import ContactPair
from calibration.laws.penalty_factor import EQ33
from calibration.laws.sphere import HertzMindlin, MindlinDeresiewicz
from checks import InputError, one_of

#: name -> law class; ``LAWS[name].paths`` the load-path kinds it is defined for
LAWS: dict[str, type[ContactLaw]] = {law.name: law for law in (
    SimplifiedModel, SimplifiedHystereticModel, AccurateModel, AccurateMemoryModel, AppendixC,
    CalibratedModel, LinearSpring, HertzMindlin, MindlinDeresiewicz)}
#: the laws that take a penalty factor (the paper's 2D laws)
PENALISED = ("simplified", "simplified-hysteretic", "accurate", "accurate-memory", "appendix-c")


def make_law(name: str, pair: ContactPair, penalty=EQ33, kn: float = 2.7e9,
             kt: float = 1.5e9, coefficients: CalibratedCoefficients | None = None) -> ContactLaw:
    """The law ``name`` for ``pair``: the 2D laws with ``penalty``, the calibrated law with its
    ``coefficients`` (required), the linear spring with ``kn``, ``kt`` (N/m per m; the paper's
    2.7e9 and 1.5e9 by default) and the pair's friction, the sphere laws from the pair alone."""
    law = LAWS[one_of("law", name, tuple(LAWS))]
    if name in PENALISED:
        return law(pair, penalty)
    if law is CalibratedModel:
        if coefficients is None:
            raise InputError("law='calibrated' needs its coefficients (hertz2d calibrate)")
        return CalibratedModel(pair, coefficients)
    if law is LinearSpring:
        return LinearSpring(kn, kt, float(pair.mu))
    return law(pair)
