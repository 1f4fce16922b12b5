"""The fitted coefficients a command uses: where a fitted file is found, and the penalty factor a
``--penalty`` flag names.

A fitted file (``penalty/fit.json``, written by ``hertz2d fit``) is looked up under the results
root first, where this run's stages write it, and when the root has none, in the copy shipped
with hertz2d: package data under ``calibration/data/`` holding the committed full run's file of
the same name, so that an installed hertz2d uses the refitted laws in any folder.
:func:`fitted_file` is the one place that decides; every command that uses a fitted file reports
which copy it used (``--json`` keys ``fit`` and ``fit_source``, :func:`fit_keys`).

The law library (:mod:`calibration.laws.penalty_factor`) knows how to read a fit; this module
knows where the pipeline keeps it, so that a stage (the DEM biaxial test) and the commands choose
a penalty factor the same way without a stage importing the command line.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from calibration.laws import ConstantPenalty, PolynomialPenalty
from calibration.laws.penalty_factor import EQ33
from checks import InputError

#: the copies shipped with the package (the committed full run's), by their name under a root
SHIPPED = Path(__file__).resolve().parent / "data"
#: the penalty factors' refit of ``hertz2d fit``
PENALTY_FIT = "penalty/fit.json"


@dataclass(frozen=True)
class FittedFile:
    """A fitted file and where it came from: ``"results"`` (the results root's) or
    ``"shipped"`` (the package's copy of the committed full run's)."""

    path: Path
    source: str


def fit_keys(fit: FittedFile | None) -> dict:
    """The ``--json`` keys that say which fitted file a command used (both null for none)."""
    return {"fit": str(fit.path) if fit else None, "fit_source": fit.source if fit else None}


def fitted_file(results: str | Path, name: str = PENALTY_FIT) -> FittedFile:
    """``<results>/<name>`` if it exists, else the shipped copy of ``name``."""
    local = Path(results) / name
    if local.exists():
        return FittedFile(local, "results")
    shipped = SHIPPED / name
    if shipped.exists():
        return FittedFile(shipped, "shipped")
    raise InputError(f"results={str(results)!r} has no {name} and hertz2d ships none; run the "
                     "stage that writes it first")


def penalty_from_flag(flag: str, results: str | Path) -> tuple:
    """``(penalty, fitted file or None)`` for ``eq33``, ``refit`` or ``confined`` (the fit of
    :func:`fitted_file`) or a constant w in [0, 1]."""
    if flag == "eq33":
        return EQ33, None
    if flag in ("refit", "confined"):
        fit = fitted_file(results)
        return PolynomialPenalty.from_fit(fit.path, support=None if flag == "refit"
                                          else "confined"), fit
    try:
        value = float(flag)
    except ValueError:
        raise InputError(f"penalty={flag!r} is not eq33, refit, confined or a number") from None
    return ConstantPenalty(value), None
