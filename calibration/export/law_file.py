"""``law.json``: the simplified law (Table 1, Section 3.3) with its penalty factor, for other codes.

One JSON object describes the law a DEM code evaluates: which formula each piece is (ids with the
paper's equation numbers), how two bodies' compliances combine (``form``, the law library's
:data:`~hertz2d.calibration.laws.pair.FORMS`: ``per-body``, the default, weighs body i's bracket with
``omega_i = 2 s_i``, ``s_i = ((1 - nu_i^2)/E_i) E*``, Eq. 22 and its tangential analogue;
``composite`` is Table 1 as printed, omega_i = 1; the two are the same law for bodies of one
material and for walls), the six coefficients of the penalty factor in Eq. 33's form
``w = c0 + c1 x + c2 nu + c3 x^2 + c4 x nu + c5 nu^2`` (x = a/R_i, clipped to [0, 1]), the range
of a/R and nu it was fitted on, units, the wall rule (Section 3.2), the admissible normal approach,
and hertz2d's version and provenance. A constant w is the polynomial ``(w, 0, 0, 0, 0, 0)``, so
every law file carries six coefficients. Format version 2 added the form (version 1 was the
composite law without saying so).

:func:`law_description` writes the object, :func:`read_law` reads it back with schema checks:

    penalty, law = read_law("law.json")
    penalty.coefficients  # six floats, in the order of law["penalty"]["terms"]
    pair = ContactPair(R1, R2, E1, E2, nu1, nu2, mu, form=law["form"])
    state = simplified_update(pair, delta_n, d_delta_t, T_previous, penalty, a_previous)
"""
from __future__ import annotations

import copy
import math
from importlib import metadata
from pathlib import Path

from hertz2d.calibration.laws.pair import FORMS
from hertz2d.calibration.laws.penalty_factor import (FITTED_RANGE, W_RANGE, ConstantPenalty,
                                            PolynomialPenalty, admissible_coefficients)
from hertz2d.calibration.runs import json_file
from hertz2d.calibration.runs.provenance import provenance
from hertz2d.checks import InputError, one_of

#: the file's name in an export folder (``hertz2d export-law``)
FILE = "law.json"
FORMAT = "hertz2d-law"
FORMAT_VERSION = 2
LAW_ID = "hertz2d-simplified"

#: the regressors of Eq. 33, in the order of the coefficients (x = a/R_i of body i)
PENALTY_TERMS = ("1", "a/R", "nu", "(a/R)^2", "(a/R) nu", "nu^2")


#: base support of the paper's Eq. 33 (the paper does not say how its half-round body was held)
EQ33_SUPPORT = "paper (COMSOL, base support not stated; hertz2d finds it clamped)"

#: how the bodies' brackets are weighed, per form: id "bracket-weights" of :func:`formulas`
BRACKET_WEIGHTS = {
    "per-body": {"equation": "Eq. 22 and its tangential analogue",
                 "formula": "omega_i = 2 s_i, s_i = ((1 - nu_i^2)/E_i) E* (each body its own "
                            "Eq. 17 and Eq. 20 at the common half-width of Eq. 4); omega1 + "
                            "omega2 = 2, omega_i = 1 for bodies of one material and for a wall"},
    "composite": {"equation": "Eqs. 23, 29, 31 as printed",
                  "formula": "omega1 = omega2 = 1 (E* multiplies the sum of both bodies' "
                             "brackets)"},
}

#: each piece of Table 1 with the bracket weights omega_i: id -> equation number and formula
#: (log is the natural logarithm)
FORMULAS = {
    "composite-modulus": {"equation": "Eq. 5",
                          "formula": "1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2"},
    "composite-radius": {"equation": "Eq. 6", "formula": "1/R* = 1/R1 + 1/R2"},
    "half-width": {"equation": "Eq. 4", "formula": "a^2 = 4 N R*/(pi E*)"},
    "normal-force": {"equation": "Eq. 28", "formula": "N = kn delta_n"},
    "normal-stiffness": {"equation": "Eq. 29",
                         "formula": "kn = pi E*/sum_i omega_i [log(4 R_i/a) - 1/2]"},
    "normal-solve": {
        "equation": "Eqs. 4 + 22/23",
        "formula": "4 R* delta_n = x (C - log x) in x = a^2, C = omega1 log(4 R1) + omega2 "
                   "log(4 R2) - 1 (log(16 R1 R2) - 1 for omega = 1), solved exactly: "
                   "u = C - log x = -W_{-1}(-4 R* delta_n e^(-C)) (Lambert's W, lower branch), "
                   "a = sqrt(4 R* delta_n / u), N = pi E* delta_n / u; N = a = 0 where "
                   "delta_n <= 0"},
    "tangential-stiffness": {
        "equation": "Eq. 31",
        "formula": "kt = pi E*/sum_i omega_i [log(2 R_i/a) + 1/2 + w_i (log(4 R_i/a) "
                   "+ nu_i/(2 (1 - nu_i)))], w_i = w(a/R_i, nu_i)"},
    "penalty-factor": {"equation": "Eq. 33",
                       "formula": "w = clip(c0 + c1 x + c2 nu + c3 x^2 + c4 x nu + c5 nu^2, "
                                  "0, 1), x = a/R_i"},
    "tangential-update": {"equation": "Eq. 32",
                          "formula": "T = clip(T0 + k d(delta_t), -mu N, mu N), k = (kt(a0) + "
                                     "kt(a))/2 with a0 the previous step's half-width (the "
                                     "increment integrated by the trapezoidal rule), k = kt(a) "
                                     "for a new contact (a0 = 0); T = 0 where N = 0; slipping "
                                     "where N > 0 and |T0 + k d(delta_t)| >= mu N"},
}


def formulas(form: str) -> dict:
    """:data:`FORMULAS` with the bracket weights of ``form``."""
    return {"bracket-weights": BRACKET_WEIGHTS[form], **FORMULAS}


UNITS = {"system": "SI", "length": "m", "modulus": "Pa",
         "force": "N/m (per unit thickness, plane strain)",
         "stiffness": "N/m per m (force per unit thickness per unit displacement)"}

WALL_RULE = ("A disc against a rigid straight wall (Section 3.2) is the pair of the disc and its "
             "mirror image (R2 = R1, E2 = E1, nu2 = nu1, so omega_i = 1 in either form); the "
             "disc-to-wall delta_n and "
             "d(delta_t) are doubled before the pair's law is applied, forces are the pair's.")

NORMAL_RANGE = {"formula": "0 < delta_n < exp(C - 1)/(4 R*), C = L - 1 (4 (R1 + R2)/e^2 for "
                           "omega = 1)",
                "note": "the normal law's approach peaks there (the contact would be wider than "
                        "the discs); delta_n is the pair's (doubled for a wall)"}


def _coefficients(penalty) -> list[float]:
    if isinstance(penalty, ConstantPenalty):
        return [float(penalty.value), 0.0, 0.0, 0.0, 0.0, 0.0]
    return list(admissible_coefficients(
        list(getattr(penalty, "coefficients", ())),
        f"penalty={getattr(penalty, 'label', penalty)!r} cannot be exported: its coefficients"))


def hertz2d_version() -> str:
    """The installed hertz2d's version ("unknown" outside an installation)."""
    try:
        return metadata.version("hertz2d")
    except metadata.PackageNotFoundError:
        return "unknown"


def law_description(penalty, base_support: str, source: dict | None = None,
                    form: str = "per-body") -> dict:
    """The ``law.json`` object of Table 1 in ``form`` (:data:`~hertz2d.calibration.laws.pair.FORMS`)
    with ``penalty`` (a polynomial of Eq. 33's form or a constant w) whose coefficients were
    fitted with ``base_support``; ``source`` (optional) names what the penalty was read from (a
    refit's fit.json, say) and goes into the provenance."""
    one_of("form", form, FORMS)
    return copy.deepcopy({
        "format": FORMAT, "format_version": FORMAT_VERSION, "law": LAW_ID,
        "title": "2D Hertzian frictional contact, simplified model for DEM (Table 1, "
                 "Section 3.3)",
        "form": form,
        "formulas": formulas(form),
        "penalty": {"label": penalty.label, "terms": list(PENALTY_TERMS),
                    "coefficients": _coefficients(penalty), "clip": list(W_RANGE),
                    "base_support": base_support},
        "validity": {**{name: list(bounds) for name, bounds in FITTED_RANGE.items()},
                     "note": "the range the penalty factor was fitted on (Eq. 33: Section 4.1, "
                             "Fig. 8); outside it w is extrapolated, then clipped to [0, 1]"},
        "normal_range": NORMAL_RANGE,
        "wall": WALL_RULE,
        "units": UNITS,
        "hertz2d_version": hertz2d_version(),
        "provenance": {**provenance(), **({"source": source} if source else {})},
    })


def require(mapping: dict, key: str, kind, where: str, within: str = ""):
    """``mapping[key]`` if it is a ``kind``; else InputError naming ``within.key``."""
    if key not in mapping:
        raise InputError(f"law={where!r} has no {within}{key}")
    value = mapping[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise InputError(f"law={where!r}: {within}{key}={value!r} is not a {kind.__name__}")
    return value


def number_pair(value, name: str, where: str, kind: str = "law") -> list[float]:
    """``[low, high]``, two finite numbers in order (else :class:`InputError` naming the file,
    ``kind=where``, and the field)."""
    if not (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                    and math.isfinite(v) for v in value) and value[0] <= value[1]):
        raise InputError(f"{kind}={where!r}: {name}={value!r} is not a range [low, high]")
    return [float(v) for v in value]


def check_law_header(law, where: str, law_id: str) -> None:
    """A ``law.json`` object's format, format version and law id (:class:`InputError` naming
    what is wrong): the part every exported law's file shares."""
    if not isinstance(law, dict):
        raise InputError(f"law={where!r} is not a JSON object")
    if require(law, "format", str, where) != FORMAT:
        raise InputError(f"law={where!r}: format={law['format']!r} is not {FORMAT!r}")
    if require(law, "format_version", int, where) != FORMAT_VERSION:
        raise InputError(f"law={where!r}: format_version={law['format_version']!r} is not "
                         f"{FORMAT_VERSION} (the version this hertz2d reads)")
    if require(law, "law", str, where) != law_id:
        raise InputError(f"law={where!r}: law={law['law']!r} is not {law_id!r}")


def _check_schema(law, where: str) -> PolynomialPenalty:
    check_law_header(law, where, LAW_ID)
    form = require(law, "form", str, where)
    if form not in FORMS:
        raise InputError(f"law={where!r}: form={form!r} is not one of {', '.join(FORMS)}")
    written = require(law, "formulas", dict, where)
    for name, formula in formulas(form).items():
        if not isinstance(written.get(name), dict) or (written[name].get("equation")
                                                       != formula["equation"]):
            raise InputError(f"law={where!r}: formulas[{name!r}] is missing or not "
                             f"{formula['equation']}")
    penalty = require(law, "penalty", dict, where)
    if penalty.get("terms") != list(PENALTY_TERMS):
        raise InputError(f"law={where!r}: penalty terms={penalty.get('terms')!r} are not "
                         f"{list(PENALTY_TERMS)!r}")
    coefficients = admissible_coefficients(penalty.get("coefficients"),
                                           f"law={where!r}: penalty coefficients")
    if number_pair(penalty.get("clip"), "penalty clip", where) != list(W_RANGE):
        raise InputError(f"law={where!r}: penalty clip={penalty['clip']!r} is not "
                         f"{list(W_RANGE)!r} (the range of w, Section 2.3)")
    label = require(penalty, "label", str, where, "penalty.")
    require(penalty, "base_support", str, where, "penalty.")
    validity = require(law, "validity", dict, where)
    for name in FITTED_RANGE:
        number_pair(validity.get(name), f"validity {name}", where)
    for key, kind in (("normal_range", dict), ("wall", str), ("units", dict),
                      ("hertz2d_version", str), ("provenance", dict)):
        require(law, key, kind, where)
    return PolynomialPenalty(coefficients, label)


def read_law(path: str | Path) -> tuple[PolynomialPenalty, dict]:
    """The simplified law's penalty factor from a ``law.json`` that ``export-law`` wrote.

    Parameters
    ----------
    path : str or pathlib.Path
        The ``law.json``.

    Returns
    -------
    penalty : PolynomialPenalty
        ``penalty.coefficients`` are the six numbers of Eq. 33's form (a constant w is
        ``(w, 0, 0, 0, 0, 0)``); pass it to :func:`~hertz2d.calibration.laws.hertz2d.simplified_update`
        with a pair of ``law["form"]``.
    law : dict
        The whole checked object.

    Raises
    ------
    checks.InputError
        The file is missing, not JSON or not of this format (the message names what is wrong).
    """
    law = read_json(path)
    return _check_schema(law, str(path)), law


def read_json(path: str | Path):
    """The JSON value of a law file (:class:`InputError` if it cannot be read, or is not strict
    JSON: :func:`hertz2d.calibration.runs.json_file.read_json`)."""
    return json_file.read_json(path, "law")
