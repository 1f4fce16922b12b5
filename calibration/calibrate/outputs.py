"""The calibrated law's stage outputs as types: what ``hertz2d calibrate`` writes into
``<results>/calibrated/`` and how the rest of hertz2d reads it back (checked).

:class:`CoefficientsRecord`
    ``coefficients.json``: the fitted coefficients (format ``hertz2d-calibrated``, checked on
    read by :meth:`hertz2d.calibration.laws.calibrated.CalibratedCoefficients.from_file`: format,
    version, each group's length, finite values and admissible ranges), the training contacts'
    spec, paths and ranges, the fit's record, provenance.
:class:`CalibrateSummary`
    what a run of the stage did (its return value and ``--json`` keys).
:class:`CalibratedOutputs`
    everything the report reads: ``summary.json``, the coefficients, ``targets.csv``,
    ``by_coupling.csv``, ``domain.csv``, ``cycles.csv``, ``energy.csv``, ``floor_misses.csv``
    (where the floor metric's misses fall on the training paths), ``masing.csv`` (the FEM's
    cycles against Masing's rule, :mod:`hertz2d.calibration.calibrate.masing`),
    ``energy_normal.csv`` (the energy per cycle by the share the FEM's normal loop dissipates),
    the held-out map
    (``heldout/``, :class:`hertz2d.calibration.validation.map.outputs.MapOutputs`) and the figure
    ``heldout.png``.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import pandas as pd

from hertz2d.calibration import results_layout as layout
from hertz2d.calibration.calibrate.judgement import NORMAL_SHARE
from hertz2d.calibration.calibrate.masing import FIRST, LARGEST
from hertz2d.calibration.laws.calibrated import FORMAT, FORMAT_VERSION, CalibratedCoefficients
from hertz2d.calibration.export.calibrated_law_file import training_record
from hertz2d.calibration.runs.atomic import write_csv, write_json
from hertz2d.calibration.runs.json_file import Field, json_object, read_json
from hertz2d.calibration.runs.provenance import provenance
from hertz2d.calibration.runs.tables import read_table
from hertz2d.calibration.validation.map.outputs import MapOutputs

#: ``coefficients.json`` under a results root (and under the package's shipped copy)
COEFFICIENTS = layout.COEFFICIENTS
SUMMARY = "summary.json"
#: the stage's tables (in its folder) and the columns every reader needs
TABLES = {"targets": "targets.csv", "by_coupling": "by_coupling.csv", "domain": "domain.csv",
          "cycles": "cycles.csv", "energy": "energy.csv", "floor_misses": "floor_misses.csv",
          "masing": "masing.csv", "energy_normal": "energy_normal.csv"}
COLUMNS = {"targets": ("law",), "by_coupling": ("|beta|", "paths"), "domain": (),
           "cycles": ("beta", "path", "last / first", "N swing / N"),
           "energy": ("cycles of", "cycles", "mesh level", "energy within 10 %", "target met"),
           "floor_misses": ("|beta|", "paths", "misses", "misses where |FEM| < floor"),
           "masing": ("beta", "load", FIRST, LARGEST),
           "energy_normal": (NORMAL_SHARE, "cycles", "energy within 10 %")}
#: tables a results root written before they existed lacks (read as None)
OPTIONAL = ("energy", "floor_misses", "masing", "energy_normal")
#: the held-out judgement's figure
HELDOUT_FIGURE = "heldout.png"
COMMAND = "hertz2d calibrate"


def folder(results: str | Path) -> Path:
    return layout.under(results, layout.CALIBRATED)


@dataclass(frozen=True)
class CoefficientsRecord:
    """``coefficients.json``: the coefficients, the training record (spec, paths, support,
    level, ranges) and the fit's summary."""

    coefficients: CalibratedCoefficients
    training: dict
    fit: dict

    def write(self, results: str | Path) -> Path:
        return write_json({"format": FORMAT, "format_version": FORMAT_VERSION,
                           "coefficients": self.coefficients.as_dict(),
                           "training": self.training, "fit": self.fit,
                           "provenance": provenance()}, layout.under(results, COEFFICIENTS))

    @classmethod
    def read(cls, path: str | Path) -> "CoefficientsRecord":
        coefficients = CalibratedCoefficients.from_file(path)
        fit = json_object(read_json(path, "coefficients"), "coefficients", str(path)).get("fit")
        return cls(coefficients, training_record(path) or {}, fit if isinstance(fit, dict) else {})


@dataclass(frozen=True)
class CalibrateSummary:
    """What one run of the stage did: training and held-out paths (and failures), the fit, the
    coefficients, the calibrated law's held-out targets and which are met."""

    out: str
    training_paths: int
    training_failures: list[str]
    heldout_paths: int
    heldout_failures: dict
    fit: dict
    coefficients: dict
    targets: dict | None
    met: dict | None
    seconds: float

    def as_json(self) -> dict:
        return {"out": self.out, "training_paths": self.training_paths,
                "heldout_paths": self.heldout_paths, "fit": self.fit, "targets": self.targets,
                "met": self.met, "seconds": self.seconds}

    def write(self, results: str | Path) -> Path:
        """``summary.json``: the summary without ``out``, and the provenance."""
        record = {key: value for key, value in asdict(self).items() if key != "out"}
        return write_json({**record, "provenance": provenance()}, folder(results) / SUMMARY)


def write_tables(results: str | Path, tables: dict[str, pd.DataFrame]) -> None:
    """The stage's tables of :data:`TABLES` (by name)."""
    for name, table in tables.items():
        write_csv(table, folder(results) / TABLES[name])


class CalibratedOutputs:
    """The stage's files under a results root, read and checked (module docstring); the map's
    errors of the training contacts beside them (None when the root has no map)."""

    STAGE = "calibrated law (hertz2d calibrate)"
    training_paths = Field("training_paths", "FEM paths the law was fitted on")
    heldout_paths = Field("heldout_paths", "FEM paths it was judged on")
    fit = Field("fit", "the least squares' record (groups, RMS at start and end, evaluations)")
    met = Field("met", "which targets the held-out contacts meet (None without them)")

    def __init__(self, results: Path):
        self.folder = folder(results)
        self.summary = json_object(read_json(self.folder / SUMMARY, "calibrated summary",
                                             f"run `{COMMAND}` first"),
                                   "calibrated summary", str(self.folder / SUMMARY))
        self.record = CoefficientsRecord.read(layout.under(results, COEFFICIENTS))
        for name, file in TABLES.items():
            missing = name in OPTIONAL and not (self.folder / file).exists()
            setattr(self, name, None if missing else read_table(
                self.folder / file, name, COLUMNS[name], command=COMMAND))
        self.heldout = MapOutputs.read(results, layout.HELDOUT)
        self.map_errors = MapOutputs.errors_of(results)
        #: the map's closed-loop table (None when the root's map has none)
        self.admissibility = MapOutputs.admissibility_of(results)
        self.label = self.record.coefficients.label

    @staticmethod
    def present(results: Path) -> bool:
        """Whether the root has the stage's summary (else the report leaves the section out)."""
        return (folder(results) / SUMMARY).exists()

    @property
    def heldout_figure(self) -> Path:
        return self.folder / HELDOUT_FIGURE
