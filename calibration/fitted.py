"""The fitted penalty factors a command uses, chosen by a ``--penalty`` flag.

The law library (:mod:`calibration.laws.penalty_factor`) knows how to read a fit; this module
knows where the pipeline keeps it (``<results>/penalty/fit.json``, written by ``hertz2d fit``),
so that a stage (the DEM biaxial test) and the commands choose a penalty factor the same way
without a stage importing the command line.
"""
from __future__ import annotations

from pathlib import Path

from calibration.laws import ConstantPenalty, PolynomialPenalty
from calibration.laws.calibrated import CalibratedCoefficients, SHIPPED_COEFFICIENTS
from calibration.laws.penalty_factor import EQ33
from checks import InputError

#: where ``hertz2d calibrate`` writes the calibrated law's coefficients under a results root
CALIBRATED_FILE = Path("calibrated") / "coefficients.json"


def penalty_from_flag(flag: str, results: str | Path):
    """``eq33``, ``refit`` or ``confined`` (fits under ``results``) or a constant w in [0, 1]."""
    if flag == "eq33":
        return EQ33
    if flag in ("refit", "confined"):
        return PolynomialPenalty.from_fit(Path(results) / "penalty" / "fit.json",
                                          support=None if flag == "refit" else "confined")
    try:
        value = float(flag)
    except ValueError:
        raise InputError(f"penalty={flag!r} is not eq33, refit, confined or a number") from None
    return ConstantPenalty(value)


def calibrated_coefficients(results: str | Path) -> tuple[CalibratedCoefficients, str]:
    """The calibrated law's coefficients and where they came from: the results root's
    (``<results>/calibrated/coefficients.json``, ``hertz2d calibrate``) when it has them, else
    the ones shipped with the law library (the committed full run's)."""
    mine = Path(results) / CALIBRATED_FILE
    if mine.exists():
        return CalibratedCoefficients.from_file(mine), str(mine)
    return CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS), "shipped with hertz2d"
