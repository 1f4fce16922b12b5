"""Which contact laws the biaxial test runs, and where each one's parameters come from.

The comparison (Section 4.3 and the choices hertz2d adds):

=======================  ========================================================================
key                      law
=======================  ========================================================================
``simplified-refit``     Table 1 with hertz2d's refit of Eq. 33 (``penalty/fit.json``: the
                         results root's, else the one shipped with hertz2d)
``simplified-eq33``      Table 1 with the paper's Eq. 33
``simplified-w0.5``      Table 1 with the constant w = 0.5 the paper suggests (Fig. 9)
``simplified-confined``  Table 1 with the refit for a disc held by its contacts (``fit.json``)
``calibrated``           the calibrated law fitted on the two-body FEM by ``hertz2d calibrate``
                         (``calibrated/coefficients.json``: the results root's, else the one
                         shipped with hertz2d)
``linear-paper``         the linear spring with the paper's kn = 2.7e9, kt = 1.5e9 N/m
``linear-fem``           the linear spring regressed on hertz2d's case-2 FEM
                         (``<results>/validation/summary.json``)
``hertz-mindlin``        3D Hertz-Mindlin applied to discs, as DEM codes do
=======================  ========================================================================

The exported law is the one the DEM runs: when ``<results>/law/law.json`` (``hertz2d
export-law``) exists, it is read (:func:`hertz2d.calibration.export.law_file.read_law`) and its penalty
factor replaces the entry with the same six coefficients, whose source then names the file; a
law.json matching none of them is run as ``simplified-exported``. The *reference* law (the first
of the list, the one the damping study runs) is the law.json law, else the refit, else Eq. 33.
Entries whose file is missing are left out with a note saying which file.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hertz2d.calibration import results_layout as layout
from hertz2d.calibration.fitted import (FittedFile, PenaltyChoice, calibrated_coefficients, found,
                                penalty_fit)
from hertz2d.calibration.laws import ConstantPenalty, registry
from hertz2d.calibration.export.law_file import FILE as LAW_FILE
from hertz2d.calibration.export.law_file import read_law
from hertz2d.calibration.laws.linear import PAPER_KN, PAPER_KT
from hertz2d.calibration.laws.penalty_factor import EQ33
from hertz2d.calibration.validation.outputs import SUMMARY as VALIDATION_SUMMARY
from hertz2d.calibration.validation.outputs import ValidationRecord
from hertz2d.dem.laws import PARAMETERS, PENALTY, Law
from hertz2d.checks import InputError, one_of

#: ``--law`` values beside the registry's: every law (the comparison), the FEM-regressed spring
VARIANTS = ("all", "linear-fem")


def choices() -> tuple[str, ...]:
    """``--law`` values: ``all``, the laws with a branch in the DEM
    (:mod:`hertz2d.calibration.laws.registry`) and ``linear-fem``."""
    built_in = tuple(name for name in registry.names(engine="dem")
                     if registry.entry(name).dem_code is not None)
    return (VARIANTS[0], *built_in, *VARIANTS[1:])


@dataclass(frozen=True)
class BiaxialLaw:
    """One law of the comparison: its folder name, the engine's law, where it comes from (and
    the fitted file its penalty factor was read from, if any)."""

    key: str
    law: Law
    source: str
    fit: FittedFile | None = None

    @property
    def label(self) -> str:
        return self.law.label


def law_json_path(results) -> Path:
    """The law.json ``hertz2d export-law`` writes by default under a results root."""
    return layout.under(results, layout.LAW) / LAW_FILE


def _simplified(key: str, penalty, source: str, material,
                fit: FittedFile | None = None) -> BiaxialLaw:
    return BiaxialLaw(key, Law.simplified(*material, penalty=penalty), source, fit)


def _exported(results: Path, material) -> BiaxialLaw | None:
    path = law_json_path(results)
    if not path.exists():
        return None
    penalty, _ = read_law(path)
    return _simplified("simplified-exported", penalty,
                       f"{layout.LAW}/{LAW_FILE} ({penalty.label}), exported by hertz2d "
                       "export-law",
                       material)


def _fem_spring(results: Path, mu: float) -> BiaxialLaw | None:
    if not ValidationRecord.present(results):
        return None
    spring = ValidationRecord.read(results).spring()
    return BiaxialLaw("linear-fem", Law.linear(spring.kn, spring.kt, mu),
                      f"{layout.VALIDATION / VALIDATION_SUMMARY} (regressed on the case-2 FEM, "
                      f"{spring.support} flats)")


def _fitted(results: Path, material, support: str | None, key: str,
            source: str) -> BiaxialLaw | None:
    """Table 1 with a refit (``source`` says which), or None when no fit has ``support``."""
    try:
        found(results, layout.FIT, "hertz2d fit")
    except InputError:
        return None
    refit, fit = penalty_fit(results)
    if support is not None and support not in refit.fits():
        return None  # a fit without the confined disc: left out, with a note
    shipped = ", the copy shipped with hertz2d" if fit.source == "shipped" else ""
    return _simplified(key, refit.penalty(support), f"{layout.FIT}{shipped} ({source})",
                       material, fit)


def _calibrated(results: Path, E: float, nu: float, mu: float) -> BiaxialLaw | None:
    """The calibrated law with the coefficients of ``calibrated/coefficients.json`` (the results
    root's, else the shipped copy), or None when there is neither; a file that is there but not
    the law's coefficients is an InputError naming it."""
    try:
        found(results, layout.COEFFICIENTS, "hertz2d calibrate")
    except InputError:
        return None
    coefficients, fit = calibrated_coefficients(results)
    shipped = ", the copy shipped with hertz2d" if fit.source == "shipped" else ""
    return BiaxialLaw("calibrated", Law.calibrated(E, nu, mu, coefficients),
                      f"{layout.COEFFICIENTS}{shipped} (fitted on the two-body FEM by hertz2d "
                      "calibrate)", fit)


def comparison(results, E: float, nu: float, mu: float) -> tuple[list[BiaxialLaw], list[str]]:
    """Every law of the comparison (the reference first) and a note per law left out."""
    results = Path(results)
    material = (E, nu, mu)
    candidates = {
        "simplified-refit": _fitted(results, material, None, "simplified-refit",
                                    "hertz2d's refit of Eq. 33"),
        "simplified-eq33": _simplified("simplified-eq33", EQ33,
                                       "Eq. 33 with the paper's coefficients", material),
        "simplified-w0.5": _simplified("simplified-w0.5", ConstantPenalty(0.5),
                                       "the paper's constant w = 0.5 (Fig. 9)", material),
        "simplified-confined": _fitted(results, material, "confined", "simplified-confined",
                                       "refit for a disc held by its contacts"),
        "calibrated": _calibrated(results, E, nu, mu),
        "linear-paper": BiaxialLaw("linear-paper", Law.linear(PAPER_KN, PAPER_KT, mu),
                                   "the paper's kn, kt (Section 4.3)"),
        "linear-fem": _fem_spring(results, mu),
        "hertz-mindlin": BiaxialLaw("hertz-mindlin", Law.hertz_mindlin(E, nu, mu),
                                    "Hertz's sphere force with Mindlin's kt, read as N/m"),
    }
    missing = {"simplified-refit": f"no {layout.FIT} (run hertz2d fit)",
               "simplified-confined": f"no confined-disc refit in {layout.FIT} (run "
                                      "hertz2d sweep and fit with a [confined] study)",
               "linear-fem": f"no {layout.VALIDATION / VALIDATION_SUMMARY} (run hertz2d validate)",
               "calibrated": f"no {layout.COEFFICIENTS} (run hertz2d calibrate)"}
    notes = [f"{key}: {missing[key]}" for key, law in candidates.items() if law is None]
    laws = [law for law in candidates.values() if law is not None]
    exported = _exported(results, material)
    if exported is not None:
        same = [k for k, law in enumerate(laws) if law.law.name == "simplified"
                and penalty_coefficients_of(law) == penalty_coefficients_of(exported)]
        if same:
            law = laws.pop(same[0])
            exported = BiaxialLaw(law.key, exported.law, exported.source)
        laws.insert(0, exported)
    return laws, notes


def penalty_coefficients_of(law: BiaxialLaw) -> tuple[float, ...]:
    return tuple(float(c) for c in law.law.parameters[PENALTY:PARAMETERS])


def selection(results, E: float, nu: float, mu: float, law: str | None = None,
              penalty: PenaltyChoice | None = None) -> tuple[list[BiaxialLaw], list[str], bool]:
    """The laws ``--law`` / ``--penalty`` ask for: ``(laws, notes, comparison)``.

    No ``--law`` and no ``--penalty``, or ``--law all``: the comparison. ``--penalty`` alone
    means ``--law simplified``. ``simplified`` without ``--penalty`` is the reference (law.json,
    else the refit, else Eq. 33); with it, the penalty it names (eq33, refit, confined or a
    constant w). ``calibrated`` is the calibrated law (``calibrated/coefficients.json``),
    ``linear`` the paper's spring, ``linear-fem`` hertz2d's regressed one."""
    choice = law or ("simplified" if penalty is not None else "all")
    one_of("law", choice, choices())
    if penalty is not None and choice != "simplified":
        raise InputError(f"penalty={penalty.flag!r} applies to --law simplified only "
                         f"(law={choice!r}; the comparison runs every penalty choice)")
    laws, notes = comparison(results, E, nu, mu)
    if choice == "all":
        return laws, notes, True
    by_key = {entry.key: entry for entry in laws}
    if choice == "simplified" and penalty is None:
        return [laws[0]], [], False
    if choice == "simplified":
        key = f"simplified-{penalty.key}"
        if key in by_key:
            return [by_key[key]], [], False
        return [_simplified(key, penalty.factor, f"--penalty {penalty.flag}", (E, nu, mu),
                            penalty.fit)], [], False
    key = {"linear": "linear-paper"}.get(choice, choice)
    if key not in by_key:
        reason = next(note for note in notes if note.startswith(key))
        raise InputError(f"law={choice!r} cannot run: {reason}")
    return [by_key[key]], [], False
