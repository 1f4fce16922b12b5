"""The fitted penalty factors a command uses, chosen by a ``--penalty`` flag.

The law library (:mod:`calibration.laws.penalty_factor`) knows how to read a fit; this module
knows where the pipeline keeps it (``<results>/penalty/fit.json``, written by ``hertz2d fit``),
so that a stage (the DEM biaxial test) and the commands choose a penalty factor the same way
without a stage importing the command line.
"""
from __future__ import annotations

from pathlib import Path

from calibration.laws import ConstantPenalty, PolynomialPenalty
from calibration.laws.penalty_factor import EQ33
from checks import InputError


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
