"""The validation stage's outputs as types: what ``hertz2d validate`` writes into
``<results>/validation/`` and how the rest of hertz2d reads it back (checked).

:class:`ValidationSummary`
    what a run of the stage did (its return value and ``--json`` keys).
:class:`ValidationRecord`
    ``summary.json``: settings, the laws validated, the linear spring regressed on case 2 per
    support (:meth:`ValidationRecord.spring`, what the DEM's ``linear-fem`` law runs), the
    paper's values, the corrected statements' numbers, failures, provenance.
:class:`ValidationOutputs`
    the record and the stage's tables (``curves.csv``, ``verification.csv``, ``errors.csv``,
    ``secant_drop.csv``, ``unit_free.csv``) and the law's domain (:class:`DomainOutputs`:
    ``domain_<table>.csv``, its findings, :mod:`hertz2d.calibration.validation.domain_findings`), each
    table checked on read (:func:`hertz2d.calibration.runs.tables.read_table`), and every figure's path.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from hertz2d.calibration import results_layout as layout
from hertz2d.calibration.runs.atomic import write_csv, write_json
from hertz2d.calibration.runs.json_file import Field, json_object, read_json
from hertz2d.calibration.runs.tables import read_table
from hertz2d.checks import InputError

SUMMARY = "summary.json"
#: the error table, the stage's main output
ERRORS = "errors.csv"
#: the stage's tables, and the columns a reader relies on
TABLES = {"curves": ("source", "case"), "profiles": (), "verification": ("support", "level"),
          "errors": ("support",), "secant_drop": ("source", "support"), "unit_free": ()}
#: tables written by later versions of the stage (absent from an older root)
OPTIONAL = ("secant_drop", "unit_free")
#: the stage's figures, by name (``<name>.png``)
FIGURES = ("fig11_tractions", "fig12_horizontal_force", "fig13_secant_stiffness",
           "fig14_simplified", "fig15_case2", "laws_case1")
#: the law's domain: its tables (``domain_<name>.csv``)
DOMAIN_TABLES = ("normal", "stick", "beta", "beta_trend", "masing", "energy", "energy_laws",
                 "energy_sensitivity", "wall_slide", "unload_normal", "case2_mu", "timing")
#: the domain's tables added later (shown when present)
DOMAIN_OPTIONAL = ("forms", "loops")
#: the domain's figures, by the table they show
DOMAIN_FIGURES = {"masing": "domain_masing_loops", "energy": "domain_energy",
                  "normal": "domain_normal", "beta": "domain_beta_shear",
                  "case2_mu": "domain_case2_mu", "unload_normal": "domain_unload_normal"}
COMMAND = "hertz2d validate"


def folder(results: str | Path) -> Path:
    return layout.under(results, layout.VALIDATION)


def figure_path(out: Path, name: str) -> Path:
    """Where the figure ``name`` (one of :data:`FIGURES` or :data:`DOMAIN_FIGURES`' values)
    goes in the stage's folder ``out``."""
    if name not in FIGURES and name not in DOMAIN_FIGURES.values():
        raise ValueError(f"{name!r} is not a figure of the validation stage")
    return out / f"{name}.png"


def write_tables(out: Path, tables: dict[str, pd.DataFrame]) -> None:
    for name, table in tables.items():
        write_csv(table, out / f"{name}.csv")


def write_domain_tables(out: Path, tables: dict[str, pd.DataFrame]) -> None:
    for name, table in tables.items():
        write_csv(table, out / f"domain_{name}.csv")


@dataclass(frozen=True)
class ValidationSummary:
    """What one run of the stage did: the laws validated, where the error table is, the FEM
    paths that failed (the paper's cases and the domain's), seconds, the penalty fit used."""

    laws: list[str]
    out: str
    failures: dict
    seconds: float
    fit: dict = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"laws": self.laws, "out": self.out, "failures": self.failures,
                "seconds": self.seconds, **self.fit}


@dataclass(frozen=True)
class Spring:
    """A linear spring's stiffnesses (N/m per m), regressed on case 2's FEM, and its flats."""

    kn: float
    kt: float
    support: str


class ValidationRecord:
    """``summary.json`` of the stage, read (strict JSON) into ``data``."""

    def __init__(self, data: dict, path: Path | None = None):
        self.data, self.path = data, path

    def write(self, results: str | Path) -> Path:
        return write_json(self.data, folder(results) / SUMMARY)

    @classmethod
    def read(cls, results: str | Path) -> "ValidationRecord":
        path = folder(results) / SUMMARY
        return cls(json_object(read_json(path, "validation summary", f"run `{COMMAND}` first"),
                               "validation summary", str(path)), path)

    @staticmethod
    def present(results: str | Path) -> bool:
        return (folder(results) / SUMMARY).exists()

    @property
    def default_support(self) -> str:
        return self.data["default_support"]

    @property
    def quick(self) -> bool:
        return self.data["quick"]

    def spring(self, support: str | None = None) -> Spring:
        """The linear spring regressed on case 2 with ``support``'s flats (the default
        support's by default): positive, finite stiffnesses, else :class:`InputError` naming
        the file."""
        support = support or self.default_support
        where = f"validation summary={str(self.path)!r}"
        try:
            spring = self.data["linear_spring"][support]
            kn, kt = spring["kn"], spring["kt"]
        except (KeyError, TypeError) as error:
            raise InputError(f"{where} has no linear spring for {support} flats "
                             f"({type(error).__name__}: {error}); rerun `{COMMAND}`") from None
        for name, value in (("kn", kn), ("kt", kt)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                    math.isfinite(value) and value > 0):
                raise InputError(f"{where}: linear_spring {support} {name}={value!r} is not a "
                                 "stiffness > 0")
        return Spring(float(kn), float(kt), support)


class DomainOutputs:
    """The law's domain tables of a results root, by name (``None`` for a root made before
    them): :data:`DOMAIN_TABLES` and, when present, :data:`DOMAIN_OPTIONAL`."""

    def __init__(self, out: Path, level: int | None):
        self.folder, self.level = out, level
        self.tables = {name: read_table(out / f"domain_{name}.csv", f"domain_{name}",
                                        command=COMMAND)
                       for name in DOMAIN_TABLES + DOMAIN_OPTIONAL
                       if (out / f"domain_{name}.csv").exists()}

    @property
    def complete(self) -> bool:
        return all(name in self.tables for name in DOMAIN_TABLES)

    def __getitem__(self, name: str) -> pd.DataFrame:
        return self.tables[name]

    def figure(self, name: str) -> Path:
        """The domain figure ``name`` (a key of :data:`DOMAIN_FIGURES`)."""
        return figure_path(self.folder, DOMAIN_FIGURES[name])


class ValidationOutputs:
    """The stage's files under a results root, read and checked (module docstring)."""

    STAGE = "validation (hertz2d validate)"
    settings = Field("settings", "the FEM runs' settings (levels, mu, steps, ...)")
    quick = Field("quick", "whether the stage ran with the quick settings")
    paper = Field("paper", "the paper's linear spring (kn, kt, kt/kn)")
    table1_ratio = Field("table1_kt_over_kn_at_end_of_case2",
                         "Table 1's kt/kn at the end of case 2")
    provenance = Field("provenance", "what made the stage's files")

    def __init__(self, results: Path):
        self.folder = folder(results)
        self.record = ValidationRecord.read(results)
        self.summary = self.record.data
        for name, columns in TABLES.items():
            path = self.folder / f"{name}.csv"
            if name in OPTIONAL and not path.exists():
                setattr(self, name, None)
                continue
            if name == "profiles":
                continue  # drawn by the stage, not read back
            setattr(self, name, read_table(path, name, columns, command=COMMAND))
        self.secant = self.secant_drop
        self.default = self.record.default_support
        self.laws = self.summary["laws"]
        self.finest = max(self.summary["settings"]["levels"])
        self.corrections = self.summary.get("corrections")
        domain = self.summary.get("domain", {})
        self.domain = DomainOutputs(self.folder, domain.get("level"))
        self.case2_mu = self.domain.tables.get("case2_mu")

    def figure(self, name: str) -> Path:
        return figure_path(self.folder, name)

    def verified(self, support: str) -> pd.Series:
        table = self.verification
        return table[(table.support == support) & (table.level == self.finest)].iloc[0]

    def spring(self) -> dict:
        spring = self.record.spring()
        return {"kn": spring.kn, "kt": spring.kt}

    def accurate_secant_drop(self) -> float:
        """How much the accurate model's secant stiffness falls over partial slip (case 1)."""
        c = self.curves
        partial = c[(c.source == self.laws["accurate"]) & (c.case == "case 1")
                    & (c.slip == "partial")]
        return float(1 - partial.kt_secant.iloc[-1] / partial.kt_secant.iloc[0])

    def fem_secant_drop(self, support: str, force: str = "Fx", level: int | None = None) -> float:
        t = self.secant
        return float(t[(t.source == "FEM") & (t.support == support) & (t.force == force)
                       & (t.level == (self.finest if level is None else level))]
                     ["secant drop"].iloc[0])

    def model_secant_drop(self, source: str, support: str = "-") -> float:
        t = self.secant
        return float(t[(t.source == source) & (t.support == support)]["secant drop"].iloc[0])

    def stick_zone_errors(self) -> pd.Series:
        """Largest ``|c / Eq. 7 - 1|`` (partial slip at delta_t = 0.01 m) per mesh level, over both
        supports."""
        return self.verification.groupby("level")["c / Eq. 7"].apply(lambda c: (c - 1).abs().max())
