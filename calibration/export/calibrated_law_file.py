"""``law.json`` of the calibrated law (:mod:`hertz2d.calibration.laws.calibrated`), for other codes.

The same file format as the simplified law's (:mod:`hertz2d.calibration.export.law_file`, format
``hertz2d-law`` version 2) with the law ``hertz2d-calibrated``: the formula of each piece (ids
with the paper's equation numbers and the calibrated law's own (C1), (C2)), the fitted
coefficients (:meth:`CalibratedCoefficients.as_dict`, with the role of each group), where they
came from and the ranges of the training contacts they were fitted on (a ``coefficients.json``'s
``training``, when it records them), units, the wall rule with the wall's own Dundurs constant,
the admissible normal approach and the per-contact history (:data:`HISTORY_SIZE` doubles).
The law is the per-body form only (its coefficients are fitted in it).

:func:`calibrated_law_description` writes the object, :func:`read_calibrated_law` reads it back
with schema checks:

    coefficients, law = read_calibrated_law("law.json")
    pair = ContactPair(R1, R2, E1, E2, nu1, nu2, mu)          # or ContactPair.disc_on_wall
    state = calibrated_update(pair, delta_n, d_delta_t, state, coefficients)
"""
from __future__ import annotations

import copy
from pathlib import Path

from hertz2d.calibration.laws import calibrated_kernel as kernel
from hertz2d.calibration.laws.calibrated import (CEILING_A_OVER_R, CEILING_MARGIN, KAPPA_FLOOR,
                                         CalibratedCoefficients)
from hertz2d.calibration.export.law_file import (BRACKET_WEIGHTS, FORMAT, FORMAT_VERSION, FORMULAS,
                                       NORMAL_RANGE, UNITS, check_law_header, hertz2d_version,
                                       number_pair, require)
from hertz2d.calibration.runs.json_file import json_object, read_json
from hertz2d.calibration.runs.provenance import provenance
from hertz2d.checks import InputError

LAW_ID = "hertz2d-calibrated"
FORM = "per-body"
#: doubles of history per contact (the kernel's memory of traction pieces)
HISTORY_SIZE = kernel.HISTORY

#: the normal law's pieces, as the simplified law's law.json writes them
NORMAL_FORMULAS = ("composite-modulus", "composite-radius", "half-width", "normal-solve",
                   "normal-stiffness")

#: the calibrated law's own pieces: id -> equation number and formula (log the natural
#: logarithm; x_i = a/R_i; [wall] 1 for a disc on a wall, else 0)
CALIBRATED_FORMULAS = {
    "normal-tangent": {"equation": "Eqs. 4 + 22 differentiated",
                       "formula": "dN/d(delta_n) = pi E*/(sum_i omega_i [log(4 R_i/a) - 1/2] "
                                  "- 1); 0 where a = 0"},
    "penalty-factor": {"equation": "Eq. 33's form",
                       "formula": "w_i = p0 + p1 x_i + p2 nu_i + p3 x_i^2 + p4 x_i nu_i + p5 "
                                  "nu_i^2 (not clipped), p = coefficients.penalty"},
    "bracket": {"equation": "Eq. 27",
                "formula": "B0 = sum_i omega_i [log(2 R_i/a) + 1/2 + w_i (log(4 R_i/a) + "
                           "nu_i/(2 (1 - nu_i)))]: delta at full slip is s B"},
    "stick-weight": {"equation": "Eq. 26 with the penalty term at a, Eq. 7; admissibility",
                     "formula": "kappa = 0.05 + (k - 0.05) exp(-s beta^2), s = "
                                "coefficients.stick[0] >= 0, beta as dundurs-beta; k = max(0.05, "
                                "(1/2) min over a/R1 in CEILING_A_OVER_R of sum_i omega_i [1 + w_i "
                                "- x_i w_i'(x_i) (log(4/x_i) + nu_i/(2 (1 - nu_i)))] - "
                                "CEILING_MARGIN), w_i' = p1 + 2 p3 x_i + p4 nu_i: the largest "
                                "stick-zone weight for which the structural compliance (B + kappa "
                                "log a^2)/(pi E*) does not grow with a"},
    "dundurs-beta": {"equation": "Dundurs' constant, plane strain",
                     "formula": "|beta| = |(1/2) [(1 - 2 nu1)/G1 - (1 - 2 nu2)/G2] / [(1 - "
                                "nu1)/G1 + (1 - nu2)/G2]|, G_i = E_i/(2 (1 + nu_i)); a disc on "
                                "a wall: (1 - 2 nu)/(2 (1 - nu))"},
    "coupling-share": {"equation": "Spence's slip under normal load",
                       "formula": "phi = b^2/(b^2 + b1^2), b = |beta|/mu, b1 = "
                                  "coefficients.coupling_width[0]; phi = 1 where mu = 0"},
    "curves": {"equation": "(C1)'s constants",
               "formula": "B = B0 + phi (v0 + v1 |beta|) + v2 beta^2 + v3 [wall], v = "
                          "coefficients.bracket, the same curve for the first loading and every "
                          "branch; kappa as stick-weight"},
    "locked-in-slip": {"equation": "Spence's locked-in shear, released by the first front",
                       "formula": "f_u = 1 + c_f phi, f_a = 1 + c_a phi l, (c_f, c_a) = "
                                  "coefficients.first_slip >= 0, l = |T|/(mu N) at the step's "
                                  "middle (the mean of the start's, |sum_j phi_j (e_j - e_(j-1))| "
                                  "/ a_prev^2, and the end's of a trial step at the start's l, "
                                  "each clipped to 1): a front crossing a piece inside "
                                  "the untouched area (the band from history[SLID] to "
                                  "history[UNTOUCHED]: from the a^2 of the last full slip, 0 if "
                                  "none, to the e up to which no front has crossed since the "
                                  "contact closed or last slid in full; UNTOUCHED set to a^2 when "
                                  "a contact no front has crossed since grows, lowered to a "
                                  "front's e, both set to a^2 at full slip and cut with a; a "
                                  "piece is inside where its middle in e is) needs f_u times "
                                  "(C2)'s displacement; "
                                  "an entering annulus (span: its displacement per unit density "
                                  "D(1) - D(y), y = a_prev^2/a^2) takes phi = clip(rest/(span + "
                                  "(f_a - 1) laid), -1, 1), laid = span' - (s slope/2)(1 - y' + "
                                  "y' log y') with span' = s ((1 - y') B + kappa y' log y') over "
                                  "its fresh part, y' = max(a_prev^2, L)/a^2, L the largest area "
                                  "(history[LARGEST]: the largest a^2 since the contact closed, "
                                  "then raised to a^2), laid = 0 where L >= a^2; "
                                  "all in full where sum_j phi_j (e_j - "
                                  "e_(j-1)) has the sign of "
                                  "the rest before the step and after the cut; else the plain "
                                  "step (f = 1) decides: if T ends it with the other sign, f = 1; "
                                  "if T had the other sign before it, f - 1 times T_end/(T_end - "
                                  "T_before) (the share after T's zero); else in full. A falling "
                                  "N's cut of untouched area (between max(SLID, a^2) and "
                                  "min(UNTOUCHED, a_prev^2)) is crossed first: (f_u - 1) times "
                                  "its (C2) measure of rigid slip, its displacement cut with it; "
                                  "the extra is a rigid slip"},
    "held-compliance": {"equation": "the structural compliance held",
                        "formula": "where a^2 < history[LARGEST] (inside the largest area since "
                                   "the contact closed) the step, the coupling and the stored "
                                   "energy take B = history[HELD] - kappa log a^2 and slope = 0 "
                                   "instead of the curve's (B and slope before the step from the "
                                   "history as it was, after it as the step left it); a step "
                                   "with a^2 >= history[LARGEST] (or a new contact) takes the "
                                   "curve's and sets history[HELD] = B + kappa log a^2: a fixed "
                                   "traction stands for a fixed displacement"},
    "normal-coupling": {"equation": "the stored energy's derivative",
                        "formula": "N = N_H - T^2 slope k_n/(4 N_H pi E*), slope = a dB/da + 2 "
                                   "kappa = sum_i omega_i [-1 - w_i + x_i w_i' (log(4 R_i/a) + "
                                   "nu_i/(2 (1 - nu_i)))] + 2 kappa (<= 0; 0 where the compliance "
                                   "is held, held-compliance), k_n = normal-tangent, N_H Eqs. 4 + "
                                   "22"},
    "stored-energy": {"equation": "the traction's elastic energy",
                      "formula": "E_t = [(B - kappa) T^2 + kappa (mu N_H)^2 int_0^1 Phi(y)^2/y "
                                 "dy]/(2 pi E*), Phi(y) = int_0^y phi, y = e/a^2 (closed form per "
                                 "piece: Phi = alpha + phi y, int = alpha^2 log(y1/y0) + 2 alpha "
                                 "phi (y1 - y0) + phi^2 (y1^2 - y0^2)/2)"},
    "branch": {"equation": "(C1)",
               "formula": "at constant N, from a turning point T* (0 for the first loading): "
                          "delta/(k s) = t B + kappa (1 - t) log(1 - t), t = |T - T*|/(k mu N), "
                          "s = mu N/(pi E*), k = 1 the first loading, 2 a branch after a "
                          "reversal (Masing's rule); the stick zone is c = a sqrt(1 - t) "
                          "(Eq. 7)"},
    "traction-pieces": {"equation": "(C2)",
                        "formula": "pieces (b_(j-1), b_j] of the half-width with densities "
                                   "-1 <= phi_j <= 1: T = mu N sum_j phi_j (e_j - e_(j-1))/a^2, "
                                   "e = b^2; they stand for the displacement sum_j phi_j "
                                   "[D(e_j) - D(e_(j-1))], D(e) = s y (B - kappa log y), "
                                   "y = e/a^2"},
    "step": {"equation": "Section 3.3 (the accurate model's rules with memory)",
             "formula": "1. pieces outside a falling a are cut; before a step more than "
                        "PIECES - 2 (PIECES - 1 without an annulus) pieces are reduced one at a "
                        "time (reduce-memory), the change of what they stand for counted as a "
                        "rigid slip; a growing contact gains an annulus piece that takes the "
                        "increment first (phi = clip(rest/(f_a span), -1, 1), span = s B - "
                        "D(e_last), f_a as locked-in-slip); 2. the rest of (displacement stood "
                        "for before + d(delta_t) - the reductions' slip) - (what the pieces "
                        "stand for now) "
                        "moves a slip front in from the edge if |rest| > 1e-13 s B: each piece "
                        "it crosses (at f_u times its displacement inside the untouched area, "
                        "locked-in-slip) takes phi = sigma = sign(rest), the piece it stops in "
                        "splits at y (front-inverse); at the centre: full slip, one piece of phi "
                        "= sigma; 3. neighbouring pieces of equal phi merge"},
    "reduce-memory": {"equation": "admissibility",
                      "formula": "of the neighbouring pairs (j, j+1) whose size-weighted mean "
                                 "density does not raise int Phi^2/y, the one of least |phi_j - "
                                 "phi_(j+1)| (e_(j+1) - e_(j-1)) becomes one piece of that mean; "
                                 "if none, the three innermost pieces become phi = 0 on [0, e_3 - "
                                 "|Phi_3|] and phi = sign(Phi_3) on [e_3 - |Phi_3|, e_3] (one "
                                 "piece of Phi_3/e_3 if e_3 <= |Phi_3|), Phi_3 their resultant in "
                                 "e"},
    "front-inverse": {"equation": "(C2) inverted",
                      "formula": "y (B - kappa log y) = v gives y = exp(B/kappa + W_{-1}(-(v/"
                                 "kappa) e^(-B/kappa))) (y = 1 for v >= B, 0 for v <= 0), with "
                                 "the normal solve's W_{-1} (a start from the branch-point or "
                                 "the asymptotic series, then a fixed fourth-order Householder "
                                 "step, two for -0.3 <= z < -0.01)"},
    "tangent-stiffness": {"equation": "(C1)'s slope",
                          "formula": "kt = dT/d(delta_t) = pi E*/((B - kappa - kappa log y) f) "
                                     "at the front, y = (front/a)^2, f = f_u where the front is "
                                     "in the untouched area (locked-in-slip), else 1; pi E*/(B - "
                                     "kappa) while nothing slips; 0 in full slip"},
}

#: what each coefficient group does (the ``curves`` formula names them)
ROLES = {
    "penalty": "p0..p5 of w(x, nu), Eq. 33's terms 1, x, nu, x^2, x nu, nu^2",
    "coupling_width": "(b1,): the width of phi",
    "bracket": "(v0, v1, v2, v3) of B's Dundurs shift",
    "stick": "(s,): the rate at which kappa falls below its ceiling with beta^2",
    "first_slip": "(c_f, c_a): the extra slips of Spence's locked-in shear (locked-in-slip)",
}

WALL_RULE = ("A disc against a rigid straight wall (Section 3.2) is the pair of the disc and its "
             "mirror image (R2 = R1, E2 = E1, nu2 = nu1, so omega_i = 1); the disc-to-wall "
             "delta_n and d(delta_t) are doubled before the pair's law is applied, forces are "
             "the pair's. The coupling takes the wall's own Dundurs constant, |beta| = (1 - 2 "
             "nu)/(2 (1 - nu)) (the mirror pair's is 0), and [wall] = 1.")

HISTORY = {
    "size": HISTORY_SIZE, "pieces": kernel.PIECES,
    "layout": "[0] the number of pieces, [1] the displacement they stand for (pair's, m), "
              "[2] the area a^2 they cover (m^2), then PIECES widths e_j - e_(j-1) (m^2), "
              "PIECES logs log(e_j/e_(j-1)) and PIECES densities phi_j, then [UNTOUCHED] the "
              "untouched area's outer edge, [LARGEST] the largest area and [SLID] the untouched "
              "area's inner edge (m^2, locked-in-slip), and [HELD] pi E* lambda = B + kappa log "
              "a^2 at the largest area (held-compliance)",
    "rule": "all 0 for a new contact; an open contact (delta_n <= 0, N = 0) or mu = 0 zeroes it",
}

#: the kernel's constants a port needs (law.json "constants")
CONSTANTS = {"PIECES": kernel.PIECES, "UNTOUCHED": kernel.UNTOUCHED, "LARGEST": kernel.LARGEST,
             "SLID": kernel.SLID, "HELD": kernel.HELD,
             "KAPPA_FLOOR": KAPPA_FLOOR,
             "CEILING_A_OVER_R": [float(CEILING_A_OVER_R[0]), float(CEILING_A_OVER_R[-1]),
                                  len(CEILING_A_OVER_R)],
             "CEILING_MARGIN": CEILING_MARGIN}


def formulas() -> dict:
    """Every piece of the calibrated law: the per-body weights, the simplified law's normal law
    and the calibrated law's own formulas."""
    return {"bracket-weights": BRACKET_WEIGHTS[FORM],
            **{name: FORMULAS[name] for name in NORMAL_FORMULAS}, **CALIBRATED_FORMULAS}


def training_record(path: str | Path) -> dict | None:
    """The ``training`` entry of a ``coefficients.json`` (spec, paths, ranges, ...), or None;
    its ranges, when recorded, each ``[low, high]``."""
    training = json_object(read_json(path, "coefficients"), "coefficients",
                           str(path)).get("training")
    if not isinstance(training, dict):
        return None
    ranges = training.get("ranges")
    if ranges is not None:
        if not isinstance(ranges, dict):
            raise InputError(f"coefficients={str(path)!r}: training ranges={ranges!r} is not "
                             "an object")
        for name, value in ranges.items():
            number_pair(value, f"training ranges {name}", str(path), "coefficients")
    return training


def _validity(training: dict | None) -> dict:
    ranges = (training or {}).get("ranges") or None
    return {"ranges": ranges,
            "training": ({key: value for key, value in training.items() if key != "ranges"}
                         if training else None),
            "note": ("the ranges of the two-body FEM contacts the coefficients were fitted on "
                     "(R2_over_R1, E2_over_E1 of a disc pair; a wall is a counterpart of its "
                     "own); outside them the law extrapolates" if ranges else
                     "the coefficients file records no training ranges")}


def calibrated_law_description(coefficients: CalibratedCoefficients, source: str,
                               training: dict | None = None) -> dict:
    """The ``law.json`` object of the calibrated law with ``coefficients`` read from ``source``
    (a path, or where they were shipped) and, if known, the ``training`` record of that
    ``coefficients.json`` (its ``ranges`` become the law's validity)."""
    return copy.deepcopy({
        "format": FORMAT, "format_version": FORMAT_VERSION, "law": LAW_ID,
        "title": "2D Hertzian frictional contact, the paper's law calibrated on the two-body "
                 "FEM (slip fronts with memory)",
        "form": FORM,
        "formulas": formulas(),
        "coefficients": {"label": coefficients.label, "source": source, "roles": ROLES,
                         "values": coefficients.as_dict()},
        "constants": CONSTANTS,
        "validity": _validity(training),
        "history": HISTORY,
        "normal_range": NORMAL_RANGE,
        "wall": WALL_RULE,
        "units": UNITS,
        "hertz2d_version": hertz2d_version(),
        "provenance": provenance(),
    })


def _check_coefficients(entry: dict, where: str) -> CalibratedCoefficients:
    values = require(entry, "values", dict, where, "coefficients.")
    label = require(entry, "label", str, where, "coefficients.")
    require(entry, "source", str, where, "coefficients.")
    return CalibratedCoefficients.checked(values, f"law={where!r}", label)


def check_calibrated_law(law, where: str) -> CalibratedCoefficients:
    """The coefficients of a calibrated ``law.json`` object (:class:`InputError` naming what is
    wrong)."""
    check_law_header(law, where, LAW_ID)
    if require(law, "form", str, where) != FORM:
        raise InputError(f"law={where!r}: form={law['form']!r} is not {FORM!r} (the form the "
                         "calibrated law is fitted in)")
    written = require(law, "formulas", dict, where)
    for name, formula in formulas().items():
        if not isinstance(written.get(name), dict) or (written[name].get("equation")
                                                       != formula["equation"]):
            raise InputError(f"law={where!r}: formulas[{name!r}] is missing or not "
                             f"{formula['equation']}")
    coefficients = _check_coefficients(require(law, "coefficients", dict, where), where)
    if require(law, "constants", dict, where) != CONSTANTS:
        raise InputError(f"law={where!r}: constants={law['constants']!r} are not this hertz2d's "
                         f"{CONSTANTS!r}")
    history = require(law, "history", dict, where)
    if history.get("size") != HISTORY_SIZE:
        raise InputError(f"law={where!r}: history size={history.get('size')!r} is not "
                         f"{HISTORY_SIZE} (this hertz2d's)")
    ranges = require(law, "validity", dict, where).get("ranges")
    if ranges is not None:
        if not isinstance(ranges, dict):
            raise InputError(f"law={where!r}: validity ranges={ranges!r} is not an object")
        for name, value in ranges.items():
            number_pair(value, f"validity ranges {name}", where)
    for key, kind in (("normal_range", dict), ("wall", str), ("units", dict),
                      ("hertz2d_version", str), ("provenance", dict)):
        require(law, key, kind, where)
    return coefficients


def read_calibrated_law(path: str | Path) -> tuple[CalibratedCoefficients, dict]:
    """The calibrated law's coefficients from a ``law.json`` that ``export-law --law calibrated``
    wrote.

    Parameters
    ----------
    path : str or pathlib.Path
        The ``law.json``.

    Returns
    -------
    coefficients : CalibratedCoefficients
        For :func:`~hertz2d.calibration.laws.calibrated.calibrated_update`.
    law : dict
        The whole checked object.

    Raises
    ------
    checks.InputError
        The file is missing, not JSON or not of this format (the message names what is wrong).
    """
    law = read_json(path, "law")
    return check_calibrated_law(law, str(path)), law
