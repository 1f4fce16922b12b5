"""The validation stage: FEM runs -> verification -> every law on the same paths -> errors, figures.

Outputs in ``<results>/validation/``: ``curves.csv`` (every FEM run at the finer mesh and every law,
one row per step, tidy), ``profiles.csv`` (the FEM's contact tractions of case 1 at the end of
the normal stage and at delta_t = 0.01 m), ``verification.csv``, ``errors.csv``, ``summary.json``
(settings, the linear spring's regression, the paper's values, the numbers behind the report's
corrected statements, failures, provenance), ``secant_drop.csv`` and ``unit_free.csv``
(:mod:`hertz2d.calibration.validation.corrections`), the figures ``fig11_tractions.png`` ...
``fig15_case2.png``, ``laws_case1.png``, and the law's domain
(:mod:`hertz2d.calibration.validation.domain_stage`: ``domain_*.csv`` and ``domain_*.png``).
"""
from __future__ import annotations

import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd

from hertz2d.calibration.fitted import fit_keys, penalty_fit
from hertz2d.calibration.runs.atomic import check_writable, save_figure, writes_together
from hertz2d.calibration.runs.executors import Executor, Inline
from hertz2d.calibration.laws import ContactPair, normal_force, tangential_stiffness
from hertz2d.calibration.runs.provenance import provenance
from hertz2d.calibration.validation import corrections, figures
from hertz2d.calibration.validation import stick_zone_term as stz
from hertz2d.calibration.validation.comparison import (error_table, law_curves, laws_to_validate,
                                               linear_spring_from, with_stiffness)
from hertz2d.calibration.validation.domain_stage import run_domain, settings_for
from hertz2d.calibration.validation.fem_runs import FemRun, ValidationSettings, fem_runs
from hertz2d.calibration.validation.outputs import (ERRORS, ValidationRecord, ValidationSummary,
                                            figure_path, folder, write_tables)
from hertz2d.calibration.validation.verification import PARTIAL_SLIP_DELTA_T, verification_table
from hertz2d.fem.supports import DEFAULT_SUPPORT
from hertz2d.meshes.halfround import DEFAULT_LEVEL as HALF_ROUND_LEVEL

#: the paper's linear spring, regressed on its own case 2 (Section 4.3)
PAPER_KN, PAPER_KT = 2.7e9, 1.5e9


def _fem_curves(runs: list[FemRun]) -> pd.DataFrame:
    return pd.concat([with_stiffness(r.table).assign(source=f"FEM, {r.support}", case=r.case)
                      for r in runs], ignore_index=True)


def _profiles(runs: list[FemRun]) -> pd.DataFrame:
    frames = []
    for run in runs:
        if run.case != "case 1":
            continue
        table = run.table
        steps = {int(table[table.stage == "normal"].step.iloc[-1]),
                 int(table.step.iloc[np.argmin(np.abs(table.delta_t - PARTIAL_SLIP_DELTA_T))])}
        frames.append(run.profiles[run.profiles.step.isin(steps)].assign(support=run.support))
    return pd.concat(frames, ignore_index=True)


@writes_together
def validate(quick: bool = False, executor: Executor = Inline(),
             results: str | Path = "results", progress: bool = True) -> ValidationSummary:
    """Run the stage, the FEM on ``executor``; return a summary (the laws validated and where
    the error table is)."""
    start = time.perf_counter()
    results = Path(results)
    out = check_writable("results", folder(results), directory=True)
    settings = ValidationSettings.quick() if quick else ValidationSettings()
    fitted, fit = penalty_fit(results)
    refit = fitted.penalty()
    runs = fem_runs(settings, executor, progress=progress)
    finest = [r for r in runs if r.level == max(settings.levels)]
    by = {(r.case, r.support): r for r in finest}
    springs = {support: linear_spring_from(by["case 2", support].table, settings.mu)
               for support in sorted({r.support for r in finest})}
    laws = laws_to_validate(settings, refit, springs[DEFAULT_SUPPORT])
    modelled = law_curves(list(laws.values()), settings)
    curves = pd.concat([_fem_curves(finest), modelled], ignore_index=True)
    errors = error_table(finest, modelled)
    verification = verification_table(runs, settings)

    pair = ContactPair.discs(settings.R, settings.E, settings.nu, settings.mu)
    _, a_end = normal_force(pair, settings.delta_n)
    half_round = {support: stz.half_round_penalty(settings.R, settings.E, settings.nu, support,
                                                  float(a_end), points=6 if quick else 24,
                                                  level=HALF_ROUND_LEVEL - 1 if quick
                                                  else HALF_ROUND_LEVEL)
                  for support in sorted(springs)}
    case1 = by["case 1", DEFAULT_SUPPORT].table
    onset = float(verification[(verification.support == DEFAULT_SUPPORT) & (
        verification.level == max(settings.levels))]["onset of full slip (m)"].iloc[0])
    secant = corrections.secant_drops(runs, settings, half_round)
    unit_free = corrections.unit_free(case1, onset, settings)
    domain = run_domain(out, quick, executor, half_round[DEFAULT_SUPPORT], progress)
    ratio = float(tangential_stiffness(pair, a_end) / (
        normal_force(pair, settings.delta_n)[0] / settings.delta_n))
    summary = {
        "settings": asdict(settings), "quick": quick, "default_support": DEFAULT_SUPPORT,
        "laws": {role: law.label for role, law in laws.items()},
        "linear_spring": {support: {"kn": s.kn, "kt": s.kt} for support, s in springs.items()},
        "paper": {"kn": PAPER_KN, "kt": PAPER_KT, "kt_over_kn": PAPER_KT / PAPER_KN},
        "table1_kt_over_kn_at_end_of_case2": ratio,
        "corrections": {"stick criterion": corrections.stick_criterion(case1, settings),
                        "frame": {support: corrections.frame_ratio(by["case 1", support].table)
                                  for support in sorted(springs)},
                        "half-round FEM w at a": {support: table.w[-1]
                                                  for support, table in half_round.items()}},
        "domain": {"level": settings_for(quick).level,
                   "onset of full slip (m)": float(
                       domain["energy"]["onset of full slip (m)"].iloc[0]),
                   "failures": {f"{r.pair}, {r.path}, {r.support}, level {r.level}": r.failure
                                for r in domain["timing"].itertuples() if r.failure}},
        "failures": {f"{r.case}, {r.support}, level {r.level}": r.failure
                     for r in runs if r.failure},
        **fit_keys(fit), "provenance": provenance(),
        "seconds": round(time.perf_counter() - start, 1)}
    write_tables(out, {"curves": curves, "profiles": _profiles(finest),
                       "verification": verification, "errors": errors, "secant_drop": secant,
                       "unit_free": unit_free})
    ValidationRecord(summary).write(results)
    label = {role: law.label for role, law in laws.items()}
    simplified = [label[r] for r in ("simplified", "simplified-refit", "simplified-constant")]
    save_figure(figures.figure11(finest, settings), figure_path(out, "fig11_tractions"))
    save_figure(figures.figure12(curves, settings, label["accurate"], label["appendix-c"]),
                figure_path(out, "fig12_horizontal_force"))
    save_figure(figures.figure13(curves, settings, label["accurate"], label["simplified"]),
                figure_path(out, "fig13_secant_stiffness"))
    save_figure(figures.figure14(curves, settings, simplified),
                figure_path(out, "fig14_simplified"))
    save_figure(figures.figure15(curves, settings, [label["simplified"], label["linear"],
                                                    label["hertz-mindlin"]]),
                figure_path(out, "fig15_case2"))
    save_figure(figures.all_laws_figure(curves, settings), figure_path(out, "laws_case1"))
    return ValidationSummary(list(label.values()), str(out / ERRORS),
                             {**summary["failures"], **summary["domain"]["failures"]},
                             summary["seconds"], fit_keys(fit))
