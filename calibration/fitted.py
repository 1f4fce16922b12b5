"""The fitted coefficients a command uses: where a fitted file is found, and the penalty factor a
``--penalty`` flag names, parsed once into a :class:`PenaltyChoice`.

A fitted file (the penalty stage's ``fit.json``, :class:`hertz2d.calibration.penalty.outputs.PenaltyFit`;
the calibrated law's ``coefficients.json``, :mod:`hertz2d.calibration.calibrate.outputs`; where each
lives: :data:`hertz2d.calibration.results_layout.FIT`, :data:`~hertz2d.calibration.results_layout.COEFFICIENTS`)
is looked up
under the results root first, where this run's stages write it, and when the root has none, in
the copy shipped with hertz2d: package data under ``calibration/data/`` holding the committed
full run's file at the same place, so that an installed hertz2d uses the refitted laws in any
folder. :func:`found` is the one place that decides; every command that uses a fitted file
reports which copy it used (``--json`` keys ``fit`` and ``fit_source``, :func:`fit_keys`). Where
each file lives under a root is the stages' business (:mod:`hertz2d.calibration.results_layout`); this
module only asks them.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from hertz2d.calibration import results_layout as layout
from hertz2d.calibration.laws.calibrated import CalibratedCoefficients
from hertz2d.calibration.laws.penalty_factor import EQ33, ConstantPenalty, PolynomialPenalty
from hertz2d.calibration.penalty.outputs import PenaltyFit
from hertz2d.checks import InputError

#: the copies shipped with the package (the committed full run's), at their place under a root
SHIPPED = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class FittedFile:
    """A fitted file and where it came from: ``"results"`` (the results root's) or
    ``"shipped"`` (the package's copy of the committed full run's)."""

    path: Path
    source: str


def fit_keys(fit: FittedFile | None) -> dict:
    """The ``--json`` keys that say which fitted file a command used (both null for none)."""
    return {"fit": str(fit.path) if fit else None, "fit_source": fit.source if fit else None}


def found(results: str | Path, relative: PurePosixPath, command: str) -> FittedFile:
    """``relative`` under the root ``results`` if it exists, else the shipped copy; else an
    :class:`InputError` saying that ``command`` writes it."""
    local = layout.under(results, relative)
    if local.exists():
        return FittedFile(local, "results")
    shipped = SHIPPED / relative
    if shipped.exists():
        return FittedFile(shipped, "shipped")
    raise InputError(f"results={str(results)!r} has no {relative} and hertz2d ships none; run "
                     f"`{command}` first")


def penalty_fit(results: str | Path) -> tuple[PenaltyFit, FittedFile]:
    """The penalty stage's refit (the root's, else the shipped one), checked, and its file."""
    file = found(results, layout.FIT, "hertz2d fit")
    return PenaltyFit.read(file.path), file


def calibrated_coefficients(results: str | Path) -> tuple[CalibratedCoefficients, FittedFile]:
    """The calibrated law's coefficients (the results root's, written by ``hertz2d
    calibrate``, else the committed full run's, shipped), checked, and their file."""
    file = found(results, layout.COEFFICIENTS, "hertz2d calibrate")
    return CalibratedCoefficients.from_file(file.path), file


#: the named penalty factors of ``--penalty`` (besides a constant w)
NAMED = ("eq33", "refit", "confined")


@dataclass(frozen=True)
class PenaltyChoice:
    """A ``--penalty`` value, parsed once: the ``flag`` as given, its ``kind`` (eq33, refit,
    confined, or constant), the penalty factor, and for a refit the checked fit and its file."""

    flag: str
    kind: str
    factor: PolynomialPenalty | ConstantPenalty
    refit: PenaltyFit | None = None
    fit: FittedFile | None = None

    @classmethod
    def parse(cls, flag: str, results: str | Path) -> "PenaltyChoice":
        """``eq33``, ``refit`` (the fit's default support), ``confined`` (the refit for a disc
        held by its contacts; both from :func:`penalty_fit`) or a constant w in [0, 1]."""
        if flag == "eq33":
            return cls(flag, "eq33", EQ33)
        if flag in ("refit", "confined"):
            refit, file = penalty_fit(results)
            return cls(flag, flag, refit.penalty(None if flag == "refit" else "confined"), refit,
                       file)
        try:
            value = float(flag)
        except ValueError:
            raise InputError(f"penalty={flag!r} is not eq33, refit, confined or a number"
                             ) from None
        return cls(flag, "constant", ConstantPenalty(value))

    @property
    def key(self) -> str:
        """A name for files and tables: the kind, or ``w<value>`` for a constant."""
        return f"w{self.factor.value:g}" if self.kind == "constant" else self.kind

    @property
    def base_support(self) -> str | None:
        """The support the refit was fitted for (None for Eq. 33 and a constant)."""
        if self.refit is None:
            return None
        return self.refit.default_support if self.kind == "refit" else self.kind
