"""What ``hertz2d export-law`` writes for a law: ``law.json``, the C99 header with the
coefficients baked in, and the test vectors any port must reproduce.

The simplified law (Table 1) in the law library's form with the penalty factor of a parsed
``--penalty`` (:class:`hertz2d.calibration.fitted.PenaltyChoice`); the calibrated law
(:mod:`hertz2d.calibration.laws.calibrated`, per-body) with the coefficients of
:func:`hertz2d.calibration.fitted.calibrated_coefficients` (the results root's
``calibrated/coefficients.json`` when present, else the copy shipped with hertz2d); or an
existing ``law.json`` of either law again (:func:`export_again`). The formats are the law
library's: ``law.json`` (:mod:`hertz2d.calibration.export.law_file`,
:mod:`hertz2d.calibration.export.calibrated_law_file`), the header (:mod:`hertz2d.calibration.export.c_header`),
single updates for the simplified law (:mod:`hertz2d.calibration.export.reference_vectors`) and histories of contacts for the
calibrated law, which has memory (:mod:`hertz2d.calibration.export.history_vectors`).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from hertz2d.calibration.fitted import PenaltyChoice, calibrated_coefficients, fit_keys
from hertz2d.calibration.export.c_header import c_header, calibrated_header
from hertz2d.calibration.export.calibrated_law_file import (LAW_ID as CALIBRATED_ID,
                                                  calibrated_law_description,
                                                  read_calibrated_law, training_record)
from hertz2d.calibration.export.history_vectors import history_vectors
from hertz2d.calibration.export.law_file import FILE as LAW_FILE
from hertz2d.calibration.export.law_file import EQ33_SUPPORT, law_description, read_json, read_law
from hertz2d.calibration.export.reference_vectors import FLOAT_FORMAT, reference_vectors
from hertz2d.calibration.runs.atomic import atomic_path, together, write_json, write_text

HEADER_FILE, VECTORS_FILE = "hertz2d_law.h", "test_vectors.csv"
#: the files of an export folder
FILES = (LAW_FILE, HEADER_FILE, VECTORS_FILE)


@dataclass(frozen=True)
class Exported:
    """What export-law writes for one law, and what its summary says of it."""

    law: dict
    header: str
    vectors: pd.DataFrame
    summary: dict

    def write(self, out: Path) -> None:
        """The three files into the folder ``out``, as one set or none of them."""
        with together():
            write_json(self.law, out / LAW_FILE)
            write_text(self.header, out / HEADER_FILE)
            with atomic_path(out / VECTORS_FILE) as tmp:
                self.vectors.to_csv(tmp, index=False, float_format=FLOAT_FORMAT)


def _base_support_and_source(penalty: PenaltyChoice) -> tuple[str, dict | None]:
    """What the penalty's coefficients were fitted with, and the fit they came from."""
    if penalty.kind == "constant":
        return "constant", None
    if penalty.kind == "eq33":
        return EQ33_SUPPORT, None
    fit = penalty.refit.data
    return penalty.base_support, {"fit": str(penalty.fit.path), "fit_source": penalty.fit.source,
                                  "r2": fit.get("r2"), "cases": fit.get("cases"),
                                  "grid": fit.get("grid")}


def _simplified(law: dict, penalty, fitted=None) -> Exported:
    return Exported(law, c_header(law), reference_vectors(penalty, form=law["form"]),
                    {"penalty": law["penalty"]["label"],
                     "coefficients": law["penalty"]["coefficients"], "form": law["form"],
                     **fit_keys(fitted)})


def _calibrated(law: dict, coefficients, fitted=None) -> Exported:
    return Exported(law, calibrated_header(law), history_vectors(coefficients),
                    {"law": "calibrated", "coefficients": law["coefficients"]["label"],
                     "form": law["form"], **fit_keys(fitted)})


def export_simplified(penalty: PenaltyChoice, form: str) -> Exported:
    """Table 1 with ``penalty`` in ``form``."""
    support, source = _base_support_and_source(penalty)
    return _simplified(law_description(penalty.factor, support, source, form), penalty.factor,
                       penalty.fit)


def export_calibrated(results: str | Path) -> Exported:
    """The calibrated law with the coefficients of the results root, else the shipped ones,
    and the training record of the file they came from."""
    coefficients, fitted = calibrated_coefficients(results)
    law = calibrated_law_description(coefficients, f"{fitted.source}: {fitted.path}",
                                     training_record(fitted.path))
    return _calibrated(law, coefficients, fitted)


def export_again(path: str | Path) -> Exported:
    """An existing ``law.json`` of either law (checked by its reader) with its header and
    vectors."""
    written = read_json(path)
    if isinstance(written, dict) and written.get("law") == CALIBRATED_ID:
        coefficients, law = read_calibrated_law(path)
        return _calibrated(law, coefficients)
    penalty, law = read_law(path)
    return _simplified(law, penalty)
