"""Where each stage's files live under a results root (``results/`` by default).

The one place that names them: a stage writes its files through its outputs type (beside the
stage, e.g. :class:`hertz2d.calibration.penalty.outputs.PenaltyFit`), which takes its folder from here,
and any other part of hertz2d that reads them goes through that type, never through a file name
of its own. Paths are relative to the root; :func:`under` joins one to a root.

=========================  ==========================================  ===========================
folder or file             what                                        written by
=========================  ==========================================  ===========================
``penalty/``               the sweep's tables, the Eq. 33 refit        ``hertz2d sweep``, ``fit``
``validation/``            the two-disc validation, the law's domain   ``hertz2d validate``
``calibrated/``            the calibrated law's coefficients, its      ``hertz2d calibrate``
                           held-out judgement (``heldout/``: a map)
``map/``                   the validity map                            ``hertz2d map``
``dem/biaxial/``           the biaxial test with every law             ``hertz2d dem biaxial``
``law/``                   law.json, the C99 header, test vectors      ``hertz2d export-law``
``run.json``               what the last ``hertz2d all`` was           ``hertz2d all``
``report.html``, ``.md``   the report                                  ``hertz2d report``
=========================  ==========================================  ===========================
"""
from __future__ import annotations

from pathlib import Path, PurePosixPath

PENALTY = PurePosixPath("penalty")
VALIDATION = PurePosixPath("validation")
CALIBRATED = PurePosixPath("calibrated")
#: the calibrated law's held-out contacts, a map of their own
HELDOUT = CALIBRATED / "heldout"
MAP = PurePosixPath("map")
BIAXIAL = PurePosixPath("dem") / "biaxial"
LAW = PurePosixPath("law")
#: the fitted files a law reads (the results root's, else the copy shipped with hertz2d, at the
#: same place under ``calibration/data``: :mod:`hertz2d.calibration.fitted`): the penalty stage's refit
#: of Eq. 33 and the calibrated law's coefficients
FIT = PENALTY / "fit.json"
COEFFICIENTS = CALIBRATED / "coefficients.json"
#: the record of the last ``hertz2d all`` (:mod:`hertz2d.calibration.runs.run_record`)
RUN_RECORD = PurePosixPath("run.json")
REPORT_HTML = PurePosixPath("report.html")
REPORT_MARKDOWN = PurePosixPath("report.md")


def under(results: str | Path, relative: PurePosixPath) -> Path:
    """``relative`` (a folder or file of this layout) under the results root ``results``."""
    return Path(results) / relative
