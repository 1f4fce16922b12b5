"""The biaxial stage (``hertz2d dem biaxial``): every law on several packings, tables, figures.

Runs (:mod:`hertz2d.calibration.biaxial.runs`) the paper's biaxial test (:mod:`hertz2d.dem.biaxial`) for each law
of the selection (:mod:`hertz2d.calibration.biaxial.laws`) on ``seeds`` packings with the paper's
damping (local, alpha = 0.7, :mod:`hertz2d.dem.damping`); for the comparison also the reference law with
the damping study's other dampings (:data:`DAMPING_STUDY`). Outputs in
``<results>/dem/biaxial/``:

- per law, ``<key>/``: ``series.csv`` (the first seed's run, one row per 0.01 s: energies and
  the ledger, contacts, mean kn and kt, walls, stresses, box, overlaps, coordination),
  ``shear.csv`` (every seed's shear stage: strains, stresses), ``contacts.csv`` (every touching
  contact at the end of each stage, first seed), ``profiles.csv`` (velocity profiles averaged
  over the shear stage, first seed), ``summary.json`` (the law and where it came from, every
  seed's numbers, mean and spread), the figures ``fig16_snapshots.png``, ``fig17.png``,
  ``energies.png``, the ParaView series ``paraview/biaxial.pvd`` and ``animation.gif`` (or
  ``.mp4``);
- for the comparison: ``runs.csv`` (one row per run), ``comparison.csv`` (mean and spread per law),
  ``differences.csv`` (every pair of laws against the seeds' scatter), ``damping.csv`` (the damping
  study), ``summary.json`` and the comparison figures (:mod:`hertz2d.calibration.biaxial.figures`).
"""
from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from hertz2d.calibration.biaxial import figures
from hertz2d.calibration.biaxial.comparison import QUANTITIES, differences, spread
from hertz2d.calibration.biaxial.laws import BiaxialLaw, selection
from hertz2d.calibration.biaxial.outputs import (COMPARISON_FILES, LAW_FILES, SUMMARY, BiaxialSummary,
                                         figure_path, folder)
from hertz2d.calibration.biaxial.runs import BiaxialCase, FinishedRun, biaxial_runs
from hertz2d.calibration.fitted import PenaltyChoice, fit_keys
from hertz2d.calibration.runs.atomic import (check_writable, save_figure, write_csv, write_json,
                                     writes_together)
from hertz2d.calibration.runs.executors import Executor, Inline
from hertz2d.calibration.runs.provenance import provenance
from hertz2d.dem.biaxial import BiaxialSettings, settings_dict, shear_strains
from hertz2d.dem.damping import PAPER, Damping
from hertz2d.dem.output import write_animation, write_paraview
from hertz2d.checks import count

#: packings per law: the full run, the quick one
FULL_SEEDS, QUICK_SEEDS = 5, 2
#: the most packings accepted
MAX_SEEDS = 50
#: the damping and time-step study on the reference law, besides its runs with the paper's
#: damping: (damping, time step or None for the paper's). A weaker local damping; the other
#: reading of "contact damping 0.7", a viscous ratio, which needs dt = 5e-6 s (at the paper's
#: 1e-5 s the dashpots of the stiffest wall contacts under 0.1 GPa are near the explicit
#: scheme's stability limit: the energy ledger misses 10 % and the servo its target by 3 %; at
#: 5e-6 s, 2e-5 and 1e-13); a weaker ratio; and the paper's damping at half the time step (the
#: time-step convergence of the headline numbers)
DAMPING_STUDY = ((Damping(local=0.3), None), (Damping(ratio=0.7), 5e-6),
                 (Damping(ratio=0.3), None), (PAPER, 5e-6))
#: the damping study runs on this many of the packings (full, quick)
DAMPING_SEEDS, QUICK_DAMPING_SEEDS = 3, 1
#: the animation shows at most this many frames (every k-th of the run's)
ANIMATION_FRAMES = 100
#: significant digits of the per-law tables (the runs are in the case store to full precision)
FLOATS = "%.7g"


@writes_together
def biaxial(law: str | None = None, penalty: PenaltyChoice | None = None, quick: bool = False,
            seeds: int | None = None, executor: Executor = Inline(),
            results: str | Path = "results", progress: bool = True) -> BiaxialSummary:
    """Run the stage (module docstring) and return its summary; ``law`` and ``penalty`` (the
    ``--penalty`` flag parsed) choose the laws (:func:`hertz2d.calibration.biaxial.laws.selection`)."""
    start = time.perf_counter()
    out = check_writable("results", folder(results), directory=True)
    settings = (BiaxialSettings.quick() if quick else BiaxialSettings()).check()
    seeds = count("seeds", seeds if seeds is not None else (QUICK_SEEDS if quick else FULL_SEEDS),
                  minimum=1, maximum=MAX_SEEDS, why="each is a whole biaxial run per law")
    laws, notes, comparing = selection(results, settings.E, settings.nu, settings.mu, law,
                                       penalty)
    seed_values = list(range(1, seeds + 1))
    study_seeds = seed_values[:QUICK_DAMPING_SEEDS if quick else DAMPING_SEEDS]
    cases = [BiaxialCase(entry.key, entry.law, PAPER, settings, seed,
                         frames=seed == seed_values[0])
             for entry in laws for seed in seed_values]
    if comparing:
        cases += [BiaxialCase(laws[0].key, laws[0].law, damping,
                              replace(settings, dt=dt) if dt else settings, seed)
                  for damping, dt in DAMPING_STUDY for seed in study_seeds]
    finished = biaxial_runs(cases, executor, progress=progress)

    runs = _runs_table(finished, laws)
    paper = runs[runs.damping == PAPER.label]
    for entry in tqdm(laws, desc="biaxial outputs", unit="law", disable=not progress):
        mine = [f for f in finished if f.case.key == entry.key and f.case.damping == PAPER
                and f.case.settings == settings]
        _write_law(out / entry.key, entry, mine, paper[paper.law == entry.key], settings)
    spreads = spread(paper)
    summary = {"settings": settings_dict(settings), "quick": quick, "seeds": seed_values,
               "damping": PAPER.label, "comparison": comparing,
               "laws": {entry.key: {"label": entry.label, "source": entry.source}
                        for entry in laws},
               "reference": laws[0].key, "notes": notes,
               "spread": _nested(spreads),
               "energy_balance_error": _max_or_none(runs.energy_balance_error),
               "failures": {f"{r.law}, {r.damping}, seed {r.seed}": r.failure
                            for r in runs.itertuples() if isinstance(r.failure, str)},
               "steps": settings.total_steps, "runs": len(runs),
               "reused": int(runs.reused.sum()), "cpu_seconds": float(runs.seconds.sum())}
    if comparing:
        _write_comparison(out, laws, finished, runs, spreads, summary, settings, study_seeds)
    summary["provenance"] = provenance()
    summary["seconds"] = round(time.perf_counter() - start, 1)
    if comparing:
        write_json(summary, out / SUMMARY)
    return BiaxialSummary(
        {entry.key: entry.label for entry in laws}, {entry.key: entry.source for entry in laws},
        {quantity: _json_spread(spreads, quantity) for quantity in QUANTITIES},
        summary["energy_balance_error"], PAPER.label, seeds, settings.total_steps, len(runs),
        summary["reused"], summary["failures"], str(out), summary["seconds"],
        fit_keys(next((entry.fit for entry in laws if entry.fit), None)))


def damping_label(case: BiaxialCase) -> str:
    """The case's damping, and its time step when it is not the paper's."""
    dt = case.settings.dt
    return case.damping.label + ("" if dt == BiaxialSettings.dt else f", dt {dt:g} s")


def _max_or_none(values: pd.Series):
    values = values.dropna()
    return float(values.max()) if len(values) else None


def _runs_table(finished: list[FinishedRun], laws: list[BiaxialLaw]) -> pd.DataFrame:
    labels = {entry.key: entry for entry in laws}
    rows = []
    for run in finished:
        entry = labels[run.case.key]
        rows.append({"law": entry.key, "label": entry.label, "source": entry.source,
                     "damping": damping_label(run.case), "dt": run.case.settings.dt,
                     "seed": run.case.seed,
                     "failure": run.failure, "seconds": round(run.seconds, 2),
                     "reused": run.reused, **(run.headline or {})})
    table = pd.DataFrame(rows)
    for quantity in ("energy_balance_error", *QUANTITIES):
        if quantity not in table:
            table[quantity] = np.nan
    return table


def _nested(spreads: pd.DataFrame) -> dict:
    """``{law: {quantity: {mean, std, min, max, n}}}``."""
    nested: dict = {}
    for row in spreads.itertuples():
        nested.setdefault(row.law, {})[row.quantity] = {
            "mean": row.mean, "std": None if np.isnan(row.std) else row.std, "min": row.min,
            "max": row.max, "n": row.n}
    return nested


def _json_spread(spreads: pd.DataFrame, quantity: str) -> dict:
    mine = spreads[spreads.quantity == quantity]
    return {row.law: {"mean": row.mean, "std": None if np.isnan(row.std) else row.std,
                      "n": row.n} for row in mine.itertuples()}


def _write_law(folder_: Path, entry: BiaxialLaw, runs: list[FinishedRun], table: pd.DataFrame,
               settings: BiaxialSettings) -> None:
    """One law's files (module docstring); a law whose runs all failed gets its summary only."""
    ok = [run for run in runs if run.failure is None]
    summary = {"key": entry.key, "label": entry.label, "source": entry.source,
               "damping": PAPER.label, "settings": settings_dict(settings),
               "runs": table.drop(columns=["label", "source"]).to_dict("records"),
               "spread": _nested(spread(table)).get(entry.key, {}),
               "provenance": provenance()}
    write_json(summary, folder_ / SUMMARY)
    if not ok:
        return
    shown = ok[0]
    files = {name: folder_ / file for name, file in LAW_FILES.items()}
    write_csv(shown.series, files["series"], FLOATS)
    write_csv(pd.concat([shear_strains(run.series)[figures.SHEAR_COLUMNS].assign(
        seed=run.case.seed) for run in ok], ignore_index=True), files["shear"], FLOATS)
    write_csv(shown.contacts, files["contacts"], FLOATS)
    write_csv(figures.normalised_profiles(shown.profiles, settings.shear_speed),
              files["profiles"], FLOATS)
    save_figure(figures.law_figure17(shown.series, entry.label), files["fig17"])
    save_figure(figures.energies(shown.series, entry.label), files["energies"])
    frames = shown.frames
    if frames is not None and len(frames):
        save_figure(figures.snapshots([(entry.label, frames)]), files["snapshots"])
        write_paraview(frames, files["paraview"])
        stride = max(1, -(-len(frames) // ANIMATION_FRAMES))
        write_animation(figures.every(frames, stride), files["animation"], entry.label)


def _write_comparison(out: Path, laws: list[BiaxialLaw], finished: list[FinishedRun],
                      runs: pd.DataFrame, spreads: pd.DataFrame, summary: dict,
                      settings: BiaxialSettings, study_seeds: list[int]) -> None:
    """The comparison's tables, figures and summary fields."""
    paper = runs[runs.damping == PAPER.label]
    pairs = differences(paper)
    reference = laws[0].key
    study = runs[(runs.law == reference) & runs.seed.isin(study_seeds)]
    damping_spread = spread(study, group="damping")
    damping_pairs = differences(study, group="damping")
    state = _starting_state(study)
    for name, table in {"runs": runs, "comparison": spreads, "differences": pairs,
                        "damping": damping_spread.merge(state, on="damping", how="left")
                        }.items():
        write_csv(table, out / COMPARISON_FILES[name])
    shown = {run.case.key: run for run in finished
             if run.failure is None and run.frames is not None}
    showcase = [(entry.label, shown[entry.key]) for entry in laws if entry.key in shown]
    every_seed = {entry.label: [run for run in finished if run.case.key == entry.key
                                and run.case.damping == PAPER
                                and run.case.settings == settings and run.failure is None]
                  for entry in laws}
    study_runs: dict[str, list[FinishedRun]] = {}
    for run in finished:
        if (run.case.key == reference and run.case.seed in study_seeds
                and run.failure is None):
            study_runs.setdefault(damping_label(run.case), []).append(run)
    save_figure(figures.snapshots([(label, run.frames) for label, run in showcase]),
                figure_path(out, "fig16_snapshots"))
    save_figure(figures.figure17(showcase), figure_path(out, "fig17_comparison"))
    save_figure(figures.figure18(showcase), figure_path(out, "fig18_volume"))
    save_figure(figures.deviator(every_seed), figure_path(out, "deviator"))
    save_figure(figures.contacting_kinetic(showcase), figure_path(out, "contacting_kinetic"))
    save_figure(figures.overlaps(showcase), figure_path(out, "overlaps"))
    save_figure(figures.tangential_forces(showcase, settings.mu),
                figure_path(out, "tangential_forces"))
    save_figure(figures.velocity_profiles(showcase, settings),
                figure_path(out, "velocity_profiles"))
    save_figure(figures.damping_study(study_runs), figure_path(out, "damping"))
    summary.update({
        "differences_from_reference": pairs[pairs.a == reference].to_dict("records"),
        "damping_study": {"law": reference, "seeds": study_seeds,
                          "spread": _nested(damping_spread.rename(
            columns={"damping": "law"})), "starting_state": state.to_dict("records"),
            "differences": damping_pairs.to_dict("records")},
        "starting_state": _starting_state(paper, group="law").to_dict("records")})


#: what the packing starts from: the settled bed (end of settling) and the isotropic state
STATE = ("settled_kinetic_over_elastic", "settled_bed_height", "settled_solid_fraction",
         "settled_coordination", "isotropic_solid_fraction", "isotropic_coordination",
         "servo_error")


def _starting_state(runs: pd.DataFrame, group: str = "damping") -> pd.DataFrame:
    """Per ``group``: the mean (and the largest, for KE/U) over the seeds of :data:`STATE`."""
    ok = runs[runs.failure.isna()]
    table = ok.groupby(group, sort=False)[list(STATE)].mean().reset_index()
    table["settled_kinetic_over_elastic_max"] = ok.groupby(
        group, sort=False).settled_kinetic_over_elastic.max().to_numpy()
    return table
