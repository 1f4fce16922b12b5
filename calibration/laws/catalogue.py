"""Every contact law by its name, the load paths it runs, and one way to build any of them.

    >>> from hertz2d.calibration.laws import LAWS, make_law, ContactPair
    >>> {name: law.paths for name, law in LAWS.items()}        # doctest: +SKIP
    >>> law = make_law("accurate-memory", ContactPair.discs(0.5, 10e9, 0.25, 0.3))

The names are the ``hertz2d model --law`` values and each law's ``name``; this module declares
the built-in laws in the registry (:mod:`hertz2d.calibration.laws.registry`), once each.
"""
from __future__ import annotations

from collections.abc import Mapping

from hertz2d.calibration.laws import calibrated_kernel, registry
from hertz2d.calibration.laws.appendix_c import AppendixC
from hertz2d.calibration.laws.base import ContactLaw
from hertz2d.calibration.laws.calibrated import CalibratedCoefficients, CalibratedModel
from hertz2d.calibration.laws.hertz2d import AccurateModel, SimplifiedModel
from hertz2d.calibration.laws.hysteretic import SimplifiedHystereticModel
from hertz2d.calibration.laws.linear import PAPER_KN, PAPER_KT, LinearSpring
from hertz2d.calibration.laws.memory import AccurateMemoryModel
from hertz2d.calibration.laws.pair import ContactPair
from hertz2d.calibration.laws.penalty_factor import EQ33
from hertz2d.calibration.laws.registry import LawEntry, register
from hertz2d.calibration.laws.sphere import HertzMindlin, MindlinDeresiewicz
from hertz2d.checks import InputError

#: the DEM's damping of every law it runs but the linear spring (:mod:`hertz2d.dem.damping`)
STEP_DASHPOTS = "dashpots 2 zeta sqrt(m* k) at the step's normal and tangential stiffnesses"
#: the laws the DEM does not run: the law library's laws are undamped
UNDAMPED = "none (the DEM does not run it)"
#: every export: law.json, the C99 header, the test vectors, the LAMMPS plugin
EVERY_EXPORT = registry.EXPORTS


def _linear(pair: ContactPair, kn: float, kt: float) -> LinearSpring:
    return LinearSpring(kn, kt, float(pair.mu))


def _calibrated(pair: ContactPair, coefficients: CalibratedCoefficients | None):
    if coefficients is None:
        raise InputError("law='calibrated' needs its coefficients (hertz2d calibrate)")
    return CalibratedModel(pair, coefficients)


#: the built-in laws, in the order every list shows them
BUILT_IN = tuple(register(law) for law in (
        LawEntry("simplified", SimplifiedModel, "Table 1: Eqs. 4 + 23 by Lambert's W",
                 "Eq. 31's kt with Eq. 33's penalty factor, capped (Eq. 32)", STEP_DASHPOTS,
                 options=("penalty",), engines=registry.ENGINES, exports=EVERY_EXPORT,
                 dem_code=0),
        LawEntry("simplified-hysteretic", SimplifiedHystereticModel, "Table 1",
                 "the accurate model's branches with memory, incremental", UNDAMPED,
                 options=("penalty",)),
        LawEntry("accurate", AccurateModel, "Eqs. 4 + 22", "Eqs. 24-27 (monotonic)", UNDAMPED,
                 options=("penalty",)),
        LawEntry("accurate-memory", AccurateMemoryModel, "Eqs. 4 + 22",
                 "Eqs. 24-27 with Masing's rule and memory", UNDAMPED, options=("penalty",)),
        LawEntry("appendix-c", AppendixC, "Eqs. 4 + 22", "Appendix C's slide", UNDAMPED,
                 options=("penalty",)),
        LawEntry("calibrated", CalibratedModel, "Table 1's plus the tangential state's coupling",
                 "(C1)-(C2): stick energy stored, dissipation on slip only", STEP_DASHPOTS,
                 options=("coefficients",), build=_calibrated, engines=registry.ENGINES,
                 exports=EVERY_EXPORT, dem_code=3,
                 history=registry.SHARED_HISTORY + 3 + calibrated_kernel.HISTORY),
        LawEntry("linear", LinearSpring, "N = kn delta_n", "constant kt, capped",
                 "dashpots of constant coefficients 2 zeta sqrt(m* k)", options=("kn", "kt"),
                 build=_linear, engines=registry.ENGINES, dem_code=1),
        LawEntry("hertz-mindlin", HertzMindlin, "Hertz's sphere force, read as N/m",
                 "Mindlin's kt = 8 G* a, capped", STEP_DASHPOTS, engines=registry.ENGINES,
                 dem_code=2),
        LawEntry("mindlin-deresiewicz", MindlinDeresiewicz, "Hertz's sphere force",
                 "Mindlin-Deresiewicz's branches", UNDAMPED)))


class _Models(Mapping):
    """The registry's laws as ``name -> law class``, read at every use (a law registered later
    is in it)."""

    def __getitem__(self, name: str) -> type[ContactLaw]:
        if name not in registry.names():
            raise KeyError(name)
        return registry.entry(name).model

    def __iter__(self):
        return iter(registry.names())

    def __len__(self) -> int:
        return len(registry.names())

    def __repr__(self) -> str:
        return "the registry's law classes by name"


#: name -> law class; ``LAWS[name].paths`` the load-path kinds it is defined for
LAWS = _Models()


def make_law(name: str, pair: ContactPair, penalty=EQ33, kn: float = PAPER_KN,
             kt: float = PAPER_KT, coefficients: CalibratedCoefficients | None = None
             ) -> ContactLaw:
    """The law ``name`` for ``pair``: the 2D laws with ``penalty``, the calibrated law with its
    ``coefficients`` (required), the linear spring with ``kn``, ``kt`` (N/m per m; the paper's
    2.7e9 and 1.5e9 by default) and the pair's friction, the sphere laws from the pair alone; a
    registered law with the options its entry names (:mod:`hertz2d.calibration.laws.registry`).

    Parameters
    ----------
    name : str
        A registered law's name.
    pair : ContactPair
        The two bodies in contact.
    penalty, kn, kt, coefficients
        The options (:data:`hertz2d.calibration.laws.registry.OPTIONS`); a law takes those it names.

    Returns
    -------
    ContactLaw
        The law.
    """
    return registry.entry(name).make(pair, penalty=penalty, kn=kn, kt=kt,
                                     coefficients=coefficients)
