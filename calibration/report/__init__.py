"""``<results>/report.html`` and ``<results>/report.md`` from the pipeline's results.

The same content (:mod:`hertz2d.calibration.report.document`) renders to one self-contained HTML file,
with every figure embedded, and to Markdown for reading on a code host.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from hertz2d.calibration import results_layout as layout
from hertz2d.calibration.biaxial.outputs import BiaxialOutputs
from hertz2d.calibration.calibrate.outputs import CalibratedOutputs
from hertz2d.calibration.penalty.outputs import PenaltyOutputs
from hertz2d.calibration.runs.atomic import check_writable, write_text, writes_together
from hertz2d.calibration.runs.provenance import provenance
from hertz2d.calibration.runs.run_record import RunRecord
from hertz2d.calibration.report import (calibrated_sections, dem_sections, domain_sections,
                                 map_sections, penalty_sections, validation_sections)
from hertz2d.calibration.report.document import Section, listed
from hertz2d.calibration.report.render import to_html, to_markdown
from hertz2d.calibration.report.stage_files import load_stage
from hertz2d.calibration.validation.map.outputs import MapOutputs
from hertz2d.calibration.validation.outputs import ValidationOutputs
from hertz2d.checks import InputError

TITLE = "hertz2d: the 2D Hertzian frictional contact law, re-derived and validated by FEM"


@dataclass(frozen=True)
class ReportFiles:
    """Where the report went: the HTML file and its Markdown twin."""

    out: str
    markdown: str

    def as_json(self) -> dict:
        return {"out": self.out, "markdown": self.markdown}


def _which_run(results: Path, validation: ValidationOutputs) -> str:
    """One sentence naming the results root, the run that made it, and whether it is quick."""
    record = RunRecord.read(results)
    if record is not None:
        made = f"`{record.command}` on {record.date}"
    else:
        stamp = validation.provenance
        made = f"separate stage commands (the last: `{stamp['command']}` on {stamp['date']})"
    kind = ("a QUICK run (coarser meshes and grids, fewer steps): its numbers show that the "
            "pipeline runs, not converged results; `hertz2d all` makes the converged ones"
            if validation.quick else "a full run at the converged mesh levels")
    return f"This report shows the results in `{results}`, made by {made}: {kind}."


def _summary(results: Path, penalty: PenaltyOutputs, validation: ValidationOutputs) -> Section:
    section = Section("Summary: the paper against hertz2d", "summary")
    section.paragraph(_which_run(results, validation))
    section.paragraph(
        "Every number below is computed by hertz2d from the files of that results root (the "
        "command that made them is in the provenance at the end); 'paper' is what the paper "
        "states. The "
        "paper does not say how its FEM bodies are supported, so both supports are run; the "
        f"default ({penalty.default}) is the one whose penalty factors reproduce the paper's.")
    section.table(pd.DataFrame(penalty_sections.summary_rows(penalty)),
                  "Penalty factor: the paper's Eq. 33 and statements against hertz2d's FEM, both "
                  "base supports.")
    section.table(pd.DataFrame(validation_sections.summary_rows(validation)),
                  "Two-disc example (Section 4.2): the paper's statements against hertz2d's "
                  "frictional contact FEM.")
    section.table(validation_sections.law_error_summary(validation),
                  "Largest relative error of each contact law against the FEM "
                  f"({validation.default} flats).")
    return section


def _disagreements(notes: list[str]) -> Section:
    section = Section("Where hertz2d disagrees with the paper", "disagreements")
    for note in notes:
        section.paragraph(note)
    return section


def _provenance(results: Path, penalty: PenaltyOutputs, validation: ValidationOutputs) -> dict:
    """Who made the results (the last ``hertz2d all``, each stage) and who made this report."""
    def made(stage: dict) -> dict:  # full provenance stays in the stage's own JSON file
        return {"command": stage["command"], "date": stage["date"]}

    meta = {"report": provenance(),
            f"penalty stage ({penalty.record.path.relative_to(results)})": made(
                penalty.provenance),
            f"validation stage ({validation.record.path.relative_to(results)})": made(
                validation.provenance),
            "mesh level (half-round grid)": int(
                penalty.grid_cases(penalty.default).level.mode().iloc[0]),
            "mesh levels (two-disc)": listed(validation.settings["levels"]),
            "quick settings": "yes" if validation.quick else "no"}
    record = RunRecord.read(results)
    if record is not None:
        meta["pipeline run"] = {"command": record.command, "date": record.date,
                                "wall time (s)": record.seconds,
                                **{f"{k} (s)": v for k, v in record.stage_seconds.items()}}
    return meta


def report_sections(results: Path) -> list[Section]:
    """The report's sections of the results root ``results``, in reading order (a stage the root
    lacks, the map or the DEM, has none); the documentation renders the same sections."""
    penalty = load_stage(PenaltyOutputs, results)
    validation = load_stage(ValidationOutputs, results)
    biaxial = load_stage(BiaxialOutputs, results, BiaxialOutputs.present(results))
    try:  # a field the stages always write, missing or of another type: a hand-edited file
        return _sections(results, penalty, validation, biaxial)
    except (KeyError, TypeError, IndexError, ValueError) as error:
        raise InputError(f"results={str(results)!r}: a stage's files do not hold what the "
                         f"report reads ({type(error).__name__}: {error}); rerun the stage "
                         "that wrote them") from None


@writes_together
def build_report(results: str | Path = "results") -> ReportFiles:
    """Write the report of a results root.

    Parameters
    ----------
    results : str or pathlib.Path, optional
        The results root (``results/`` by default, the committed full run).

    Returns
    -------
    ReportFiles
        ``out``, the self-contained ``report.html`` (figures embedded), and ``markdown``, its
        Markdown twin ``report.md``.

    Raises
    ------
    checks.InputError
        A stage's files are missing or unreadable (the message says which stage to rerun).
    """
    results = check_writable("results", results, directory=True)
    sections = report_sections(results)
    try:
        meta = _provenance(results, load_stage(PenaltyOutputs, results),
                           load_stage(ValidationOutputs, results))
    except (KeyError, TypeError, IndexError, ValueError) as error:
        raise InputError(f"results={str(results)!r}: a stage's files do not hold what the "
                         f"report reads ({type(error).__name__}: {error}); rerun the stage "
                         "that wrote them") from None
    html_path = write_text(to_html(TITLE, sections, meta),
                           layout.under(results, layout.REPORT_HTML))
    md_path = write_text(to_markdown(TITLE, sections, meta, results),
                         layout.under(results, layout.REPORT_MARKDOWN))
    return ReportFiles(str(html_path), str(md_path))


def _sections(results: Path, penalty: PenaltyOutputs, validation: ValidationOutputs,
              biaxial: BiaxialOutputs | None) -> list[Section]:
    """The report's sections in reading order (those whose stage the root lacks left out)."""
    sections = [_summary(results, penalty, validation),
                penalty_sections.verification_section(penalty),
                validation_sections.verification_section(validation),
                penalty_sections.penalty_section(penalty),
                penalty_sections.confined_section(penalty),
                validation_sections.validation_section(validation),
                domain_sections.domain_section(validation),
                map_sections.map_section(load_stage(MapOutputs, results,
                                                    MapOutputs.present(results))),
                calibrated_sections.calibrated_section(
                    load_stage(CalibratedOutputs, results, CalibratedOutputs.present(results)),
                    biaxial),
                dem_sections.biaxial_section(biaxial),
                _disagreements(penalty_sections.disagreements(penalty)
                               + validation_sections.disagreements(validation))]
    return [section for section in sections if section is not None]
