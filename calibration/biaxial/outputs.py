"""The biaxial stage's outputs as types: what ``hertz2d dem biaxial`` writes into
``<results>/dem/biaxial/`` and how the rest of hertz2d reads it back (checked).

:class:`BiaxialSummary`
    what a run of the stage did (its return value and ``--json`` keys).
:class:`BiaxialOutputs`
    the comparison's files: ``summary.json`` (strict JSON), ``runs.csv``, ``comparison.csv``,
    ``differences.csv``, ``damping.csv`` and each law's ``<key>/series.csv`` (checked tables,
    :func:`hertz2d.calibration.runs.tables.read_table`), and every figure's path.

The file names are :data:`LAW_FILES` (one law's folder) and :data:`COMPARISON_FILES`,
:data:`COMPARISON_FIGURES` (the comparison's); the stage writes through them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from hertz2d.calibration import results_layout as layout
from hertz2d.calibration.runs.json_file import Field, json_object, read_json
from hertz2d.calibration.runs.tables import read_table

SUMMARY = "summary.json"
#: one law's files in its folder ``<key>/``
LAW_FILES = {"series": "series.csv", "shear": "shear.csv", "contacts": "contacts.csv",
             "profiles": "profiles.csv", "fig17": "fig17.png", "energies": "energies.png",
             "snapshots": "fig16_snapshots.png", "paraview": "paraview", "animation": "animation"}
#: the comparison's tables
COMPARISON_FILES = {"runs": "runs.csv", "comparison": "comparison.csv",
                    "differences": "differences.csv", "damping": "damping.csv"}
#: the columns of the comparison's tables a reader relies on
COLUMNS = {"runs": ("law", "label", "damping", "seed", "failure", "energy_balance_error"),
           "comparison": ("law", "quantity", "mean", "std", "n"),
           "differences": ("a", "b", "quantity", "difference", "standard_error",
                           "exceeds_scatter", "paired_p"),
           "damping": ("damping", "quantity")}
#: the comparison's figures (``<name>.png``)
COMPARISON_FIGURES = ("fig16_snapshots", "fig17_comparison", "fig18_volume", "deviator",
                      "contacting_kinetic", "overlaps", "tangential_forces",
                      "velocity_profiles", "damping")
COMMAND = "hertz2d dem biaxial"


def folder(results: str | Path) -> Path:
    return layout.under(results, layout.BIAXIAL)


def figure_path(out: Path, name: str) -> Path:
    """Where the comparison's figure ``name`` (one of :data:`COMPARISON_FIGURES`) goes."""
    if name not in COMPARISON_FIGURES:
        raise ValueError(f"{name!r} is not a figure of the biaxial comparison")
    return out / f"{name}.png"


@dataclass(frozen=True)
class BiaxialSummary:
    """What one run of the stage did (the ``--json`` keys of ``hertz2d dem biaxial``): the laws
    and where each came from, the headline numbers per law (mean, std, n), the energy balance,
    runs, reuse, failures, where the files are."""

    laws: dict[str, str]
    law_source: dict[str, str]
    headline: dict
    energy_balance_error: float | None
    damping: str
    seeds: int
    steps: int
    runs: int
    reused: int
    failures: dict
    out: str
    seconds: float
    fit: dict = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"laws": self.laws, "law_source": self.law_source, **self.fit, **self.headline,
                "energy_balance_error": self.energy_balance_error, "damping": self.damping,
                "seeds": self.seeds, "steps": self.steps, "runs": self.runs,
                "reused": self.reused, "failures": self.failures, "out": self.out,
                "seconds": self.seconds}


class BiaxialOutputs:
    """The comparison's files under a results root, read and checked."""

    STAGE = "DEM (hertz2d dem biaxial)"
    quick = Field("quick", "whether the run took the quick schedule")
    settings = Field("settings", "the test's settings (sample, schedule, material, dt)")
    seeds = Field("seeds", "the packings every law ran on")
    notes = Field("notes", "the laws left out and why")
    starting_state = Field("starting_state", "the packing's state per law at the stages' ends")
    damping_study = Field("damping_study", "the reference law under other dampings")

    def __init__(self, results: Path):
        self.folder = folder(results)
        path = self.folder / SUMMARY
        self.summary = json_object(read_json(path, "biaxial summary", f"run `{COMMAND}` first"),
                                   "biaxial summary", str(path))
        for name, file in COMPARISON_FILES.items():
            setattr(self, name, read_table(self.folder / file, name, COLUMNS[name],
                                           command=COMMAND))
        self.spread = self.comparison
        self.laws = self.summary["laws"]
        self.reference = self.summary["reference"]
        self.paper_damping = self.summary["damping"]

    @staticmethod
    def present(results: Path) -> bool:
        """Whether the root has the comparison (its summary; a single law's run writes none)."""
        return (folder(results) / SUMMARY).exists()

    def label(self, key: str) -> str:
        return self.laws[key]["label"]

    def series(self, key: str) -> pd.DataFrame:
        return read_table(self.folder / key / LAW_FILES["series"], f"{key} series",
                          ("stage", "mean_kn"), command=COMMAND)

    def figure(self, name: str) -> Path:
        return figure_path(self.folder, name)

    def ok_runs(self) -> pd.DataFrame:
        runs = self.runs[self.runs.failure.isna()]
        return runs[runs.damping == self.paper_damping]

    def value(self, key: str, quantity: str) -> pd.Series:
        rows = self.spread[(self.spread.law == key) & (self.spread.quantity == quantity)]
        return rows.iloc[0] if len(rows) else None
