"""The validity map's outputs as types: what a map writes into its folder (``<results>/map/``, or
the calibrated law's held-out map in ``<results>/calibrated/heldout/``) and how the rest of
hertz2d reads it back (checked).

:class:`MapSummary`
    what a run of the map did (its return value and ``--json`` keys).
:class:`MapOutputs`
    ``summary.json`` (strict JSON), ``cases.csv`` and ``errors.csv`` (checked tables,
    :func:`hertz2d.calibration.runs.tables.read_table`) and the figures' paths.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pandas as pd

from hertz2d.calibration import results_layout as layout
from hertz2d.calibration.runs.atomic import write_csv, write_json
from hertz2d.calibration.runs.json_file import Field, json_object, read_json
from hertz2d.calibration.runs.tables import read_table
from hertz2d.calibration.validation.map.spec import DEFAULT_VARIANT, Study

SUMMARY, CASES, ERRORS = "summary.json", "cases.csv", "errors.csv"
#: every law around random closed loops (the map of ``map/`` only)
LOOPS, ADMISSIBILITY = "loops.csv", "admissibility.csv"
#: the columns of ``admissibility.csv`` a reader relies on
ADMISSIBILITY_COLUMNS = ("law", "law_name", "declared admissible", "loops", "loops with W < 0",
                         "worst W", "persists under refinement", "stick return")
#: the figure of every law's regions (besides one per study, ``<study>.png``)
SUMMARY_FIGURE = "summary.png"
#: the columns of ``errors.csv`` a reader relies on
ERROR_COLUMNS = ("case", "variant", "law", "quantity", "max_rel_error", "support")
COMMAND = "hertz2d map"


def folder(results: str | Path, relative: PurePosixPath = layout.MAP) -> Path:
    """Where a map writes under ``results``: ``map/`` (the default spec) or ``relative``."""
    return layout.under(results, relative)


@dataclass(frozen=True)
class MapSummary:
    """What one run of the map did: paths (default and check runs), failed and reused FEM
    paths and why each failed, the laws, where the errors are, seconds, the penalty fit used."""

    paths: int
    check_paths: int
    failed: int
    reused: int
    laws: list[str]
    out: str
    failures: dict
    seconds: float
    fit: dict = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"paths": self.paths, "check_paths": self.check_paths, "failed": self.failed,
                "reused": self.reused, "laws": self.laws, "out": self.out,
                "failures": self.failures, "seconds": self.seconds, **self.fit}


def write(out: Path, cases: pd.DataFrame, errors: pd.DataFrame) -> None:
    """The map's two tables into its folder ``out``."""
    write_csv(cases, out / CASES)
    write_csv(errors, out / ERRORS)


def write_loops(out: Path, loops: pd.DataFrame, admissibility: pd.DataFrame) -> None:
    """The closed loops' tables into the map's folder ``out``."""
    write_csv(loops, out / LOOPS)
    write_csv(admissibility, out / ADMISSIBILITY)


def write_summary(out: Path, summary: dict) -> Path:
    return write_json(summary, out / SUMMARY)


class MapOutputs:
    """A map's files, read and checked."""

    STAGE = "map (hertz2d map)"
    spec = Field("spec", "the spec's name")
    level = Field("level", "the mesh level of its default runs")
    paths = Field("paths", "FEM paths of the default runs")
    base = Field("base", "the base case the studies vary")
    settings = Field("settings", "the paths' settings (loads per kind, steps, cycles, swing)")
    samples = Field("samples", "the drawn samples' settings, by name")
    regions = Field("regions", "each law's cases within each threshold, per path and study")
    convergence = Field("convergence", "the convergence checks' changes, per variant and law")
    fem_seconds = Field("fem_seconds", "the FEM's seconds per path kind")
    failures = Field("failures", "the failed FEM paths and why")

    def __init__(self, results: str | Path, relative: PurePosixPath = layout.MAP):
        self.folder = folder_ = folder(results, relative)
        self.summary = json_object(read_json(folder_ / SUMMARY, "map summary",
                                             f"run `{COMMAND}` first"),
                                   "map summary", str(folder_ / SUMMARY))
        self.cases = read_table(folder_ / CASES, "cases", ("variant", "path"), command=COMMAND)
        self.errors = read_table(folder_ / ERRORS, "errors", ERROR_COLUMNS, command=COMMAND)
        #: every law around random closed loops (None for a held-out map; see
        #: :meth:`admissibility_of`)
        self.admissibility = (self.admissibility_of(results, self.summary)
                              if relative == layout.MAP else None)
        self.studies = {name: Study(name, axes)
                        for name, axes in self.summary["studies"].items()}

    @classmethod
    def read(cls, results: str | Path, relative: PurePosixPath = layout.MAP) -> "MapOutputs":
        return cls(results, relative)

    @staticmethod
    def present(results: str | Path, relative: PurePosixPath = layout.MAP) -> bool:
        return (folder(results, relative) / SUMMARY).exists()

    @staticmethod
    def errors_of(results: str | Path, relative: PurePosixPath = layout.MAP
                  ) -> pd.DataFrame | None:
        """The map's error table alone (None when the root has no such map)."""
        path = folder(results, relative) / ERRORS
        return (read_table(path, "errors", ERROR_COLUMNS, command=COMMAND)
                if path.exists() else None)

    @staticmethod
    def admissibility_of(results: str | Path, summary: dict | None = None
                         ) -> pd.DataFrame | None:
        """The map's admissibility table; None when the root's map has none, or when its last
        run ran no loops (``summary``, read if not given, has no ``closed_loops``: the folder
        may keep an earlier run's table)."""
        path = folder(results) / ADMISSIBILITY
        if not path.exists():
            return None
        if summary is None:
            summary = json_object(read_json(folder(results) / SUMMARY, "map summary",
                                            f"run `{COMMAND}` first"),
                                  "map summary", str(folder(results) / SUMMARY))
        if not summary.get("closed_loops"):
            return None
        return read_table(path, "admissibility", ADMISSIBILITY_COLUMNS, command=COMMAND)

    @property
    def default_cases(self) -> pd.DataFrame:
        return self.cases[self.cases.variant == DEFAULT_VARIANT]

    def figure(self, name: str) -> Path:
        """A study's heatmap (``name`` a study), or the summary figure (``"summary"``)."""
        return self.folder / (SUMMARY_FIGURE if name == "summary" else f"{name}.png")
