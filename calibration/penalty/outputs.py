"""The penalty-factor stage's outputs as types: what ``hertz2d sweep`` and ``hertz2d fit`` write
into ``<results>/penalty/`` and how any other part of hertz2d reads them back (checked).

:class:`SweepSummary`
    what a sweep did (rows, failed and reused cases), the stage's return value.
:class:`PenaltyFit`
    ``fit.json``: the Eq. 33 refit per support, the paper's coefficients judged on the same
    cases, w's range, the constant-w errors, the mesh convergence, the confined disc's refits.
    Read back with its format, version and every refit's coefficients checked
    (:func:`hertz2d.calibration.laws.penalty_factor.admissible_coefficients`); a law takes its penalty
    factor from :meth:`PenaltyFit.penalty`.

:class:`PenaltyOutputs`
    what the report reads: the sweep's table ``grid.csv`` (checked by
    :func:`hertz2d.calibration.penalty.sweep.read_grid`), the fit, and the figures' paths.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from hertz2d.calibration import results_layout as layout
from hertz2d.calibration.laws.penalty_factor import PolynomialPenalty, admissible_coefficients
from hertz2d.calibration.runs.atomic import write_json
from hertz2d.calibration.runs.json_file import Field, json_object, read_json
from hertz2d.checks import InputError

#: ``fit.json`` under a results root (and under the package's shipped copy)
FIT = layout.FIT
GRID = layout.PENALTY / "grid.csv"
CONFINED = layout.PENALTY / "confined.csv"
#: ``fit.json``'s format and the version this hertz2d writes; a file without them was written
#: before they were recorded (the same content) and is read as this version
FORMAT, FORMAT_VERSION = "hertz2d-penalty-fit", 1
#: the stage's figures (``<name>.png``)
FIGURES = ("fig7_parameters", "fig8_grid", "fig9_constant_w", "convergence", "confined_w")
#: the half-round bases, whose refits a law labels "base" (the others are discs held by K
#: contacts)
BASES = ("clamped", "symmetric")


def folder(results: str | Path) -> Path:
    """The stage's folder under a results root."""
    return layout.under(results, layout.PENALTY)


def figure_path(out: Path, name: str) -> Path:
    """Where the figure ``name`` (one of :data:`FIGURES`) goes in the stage's folder ``out``."""
    if name not in FIGURES:
        raise ValueError(f"{name!r} is not a figure of the penalty stage")
    return out / f"{name}.png"


def grid_path(results: str | Path) -> Path:
    return layout.under(results, GRID)


def confined_path(results: str | Path) -> Path:
    return layout.under(results, CONFINED)


@dataclass(frozen=True)
class SweepSummary:
    """What one sweep did: its table's rows, failed and reused cases (the five first failures'
    reasons), where the table is; the confined disc's sweep likewise, when the spec has one."""

    rows: int
    failed: int
    reused: int
    failures: list[str]
    out: str
    seconds: float | None = None
    confined: "SweepSummary | None" = None

    @property
    def failed_cases(self) -> int:
        """Failed cases of both sweeps."""
        return self.failed + (self.confined.failed if self.confined else 0)

    def as_json(self) -> dict:
        """The ``--json`` keys of ``hertz2d sweep``."""
        keys = {"rows": self.rows, "failed": self.failed, "reused": self.reused,
                "failures": self.failures, "out": self.out}
        if self.confined is not None:
            keys["confined"] = {key: value for key, value in self.confined.as_json().items()}
        if self.seconds is not None:
            keys["seconds"] = self.seconds
        return keys


def _version(data: dict, where: str) -> None:
    if data.get("format", FORMAT) != FORMAT:
        raise InputError(f"fit={where!r}: format={data['format']!r} is not {FORMAT!r} (a "
                         "fit.json of `hertz2d fit`)")
    version = data.get("format_version", FORMAT_VERSION)
    if version != FORMAT_VERSION or isinstance(version, bool):
        raise InputError(f"fit={where!r}: format_version={version!r} is not {FORMAT_VERSION} "
                         "(the version this hertz2d reads)")


@dataclass(frozen=True)
class PenaltyFit:
    """``fit.json`` (module docstring): ``data`` the file's object, ``path`` where it was read
    from (None before it is written)."""

    data: dict
    path: Path | None = field(default=None, compare=False)

    @property
    def default_support(self) -> str:
        return self.data["default_support"]

    @property
    def by_support(self) -> dict[str, dict]:
        """Each half-round base's refit and its checks."""
        return self.data["by_support"]

    @property
    def confined(self) -> dict | None:
        """The confined disc's refits and checks (None when the sweep had no such study)."""
        return self.data.get("confined")

    def fits(self) -> dict[str, dict]:
        """Every support's refit: the bases' and the confined disc's (``confined-<K>``,
        ``confined``)."""
        return {**self.by_support, **(self.confined or {}).get("fits", {})}

    def penalty(self, support: str | None = None) -> PolynomialPenalty:
        """The penalty factor fitted for ``support`` (default: the fit's own coefficients, its
        default support's), labelled with it; :class:`InputError` when the fit has no such
        support."""
        fits = {**self.fits(), None: self.data}  # the file's own entry: the default support's
        if support not in fits:
            raise InputError(f"support={support!r} is not in fit={str(self.path)!r} (it has "
                             f"{', '.join(sorted(self.fits())) or 'none'}); run `hertz2d "
                             "sweep` and `hertz2d fit` with a spec that computes it")
        coefficients = tuple(fits[support]["coefficients"])
        support = support or self.default_support
        label = (f"refit ({support} base)" if support in BASES
                 else f"refit ({support} disc)")
        return PolynomialPenalty(coefficients, label)

    def write(self, results: str | Path) -> Path:
        return write_json({"format": FORMAT, "format_version": FORMAT_VERSION, **self.data},
                          layout.under(results, FIT))

    @classmethod
    def read(cls, path: str | Path) -> "PenaltyFit":
        """A ``fit.json`` checked: strict JSON, its format and version, a default support that
        it has, and every refit's coefficients admissible (:class:`InputError` naming the file,
        the field and the value)."""
        where = str(path)
        data = json_object(read_json(path, "fit", "run `hertz2d fit` first"), "fit", where)
        _version(data, where)
        by_support = data.get("by_support")
        confined = data.get("confined", {})
        if not isinstance(by_support, dict) or not by_support or not isinstance(confined, dict):
            raise InputError(f"fit={where!r} is not a fit.json of `hertz2d fit` (no refit per "
                             "support)")
        fits = {**by_support, **(confined.get("fits") or {}), "default": data}
        for support, entry in fits.items():
            if not isinstance(entry, dict):
                raise InputError(f"fit={where!r}: {support}={entry!r} is not a refit")
            entry["coefficients"] = list(admissible_coefficients(
                entry.get("coefficients"), f"fit={where!r}: {support} coefficients"))
        default = data.get("default_support")
        if default not in by_support:
            raise InputError(f"fit={where!r}: default_support={default!r} is not one of its "
                             f"supports ({', '.join(by_support)})")
        return cls(data, Path(path))


class PenaltyOutputs:
    """The stage's files under a results root (the sweep's grid and the fit), read and
    checked."""

    STAGE = "penalty (hertz2d sweep, fit)"
    convergence = Field("convergence", "w per mesh level at the base case, per support")
    provenance = Field("provenance", "what made fit.json")

    def __init__(self, results: Path):
        for path, command in ((grid_path(results), "hertz2d sweep"),
                              (layout.under(results, FIT), "hertz2d fit")):
            if not path.exists():
                raise InputError(f"results={str(results)!r} has no {path.relative_to(results)}; "
                                 f"run `{command}` first")
        from hertz2d.calibration.penalty.sweep import read_grid  # the FEM's stack: for the report only

        self.folder = folder(results)
        self.grid = read_grid(grid_path(results))
        self.record = PenaltyFit.read(layout.under(results, FIT))
        self.fit = self.summary = self.record.data
        self.default = self.record.default_support
        self.by_support = self.record.by_support

    def figure(self, name: str) -> Path:
        return figure_path(self.folder, name)

    def base(self):
        """The paper's base case at the default support and the grid's mesh level."""
        level = self.fit["convergence"][self.default]["default_level"]
        g = self.grid
        rows = g[(g.study == "convergence") & (g.support == self.default) & (g.level == level)]
        return rows.iloc[0]

    def grid_cases(self, support: str):
        g = self.grid
        return g[(g.study == "grid") & (g.support == support) & (g.status == "ok")]
