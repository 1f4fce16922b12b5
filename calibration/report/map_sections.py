"""Report section from the validity map (``<results>/map/``): "Where each law holds".

A results root made before the map existed has no ``map/``: the report reads it with
:func:`~hertz2d.calibration.report.stage_files.load_stage`, gets None and leaves the section out.
"""
from __future__ import annotations

import pandas as pd

from hertz2d.calibration.report.document import Section
from hertz2d.calibration.validation.map.outputs import MapOutputs
from hertz2d.calibration.validation.map.regions import THRESHOLDS, force_errors, percent, region_table
from hertz2d.calibration.validation.map.spec import DEFAULT_VARIANT, LOAD_MEANING


def _space(m: MapOutputs) -> str:
    cases = m.default_cases
    settings = m.settings
    studies = "; ".join(f"{name}: " + " x ".join(
        f"{axis} {', '.join(f'{v:g}' if isinstance(v, float) else str(v) for v in values)}"
        for axis, values in study.axes.items()) for name, study in m.studies.items())
    base = ", ".join(f"{k} {v:g}" if isinstance(v, float) else f"{k} {v}"
                     for k, v in m.base.items())
    axes = ["counterpart", "R2_over_R1", "E2_over_E1", "nu1", "nu2", "mu", "a_over_R", "support"]
    points = len(cases[axes].astype(str).drop_duplicates())
    return (f"The map runs {m.paths} FEM load paths ({points} cases, "
            f"each on some of {', '.join(sorted(cases.path.unique()))}) at mesh level "
            f"{m.level}, from the spec `{m.spec}`. Body 1 (the upper disc) "
            f"is the smaller one; body 2 is a second disc or a rigid wall. The design is "
            f"fractional: one axis at a time around a base case ({base}), and slices of two axes "
            f"where they may interact. Studies (axis values): {studies}. The flats' support "
            f"matters: `symmetric` flats are mirror planes (a disc squeezed between two opposite "
            f"contacts, Eqs. 17, 22, 23), `clamped` ones the paper's. Paths, each at the sizes "
            f"listed: {_loads(settings)}. Cycles run {settings['cycles']} times; the energy per "
            f"cycle is the last one's. A coupled cycle's approach varies by "
            f"{100 * settings['normal_swing']:g} % each way in phase with delta_t.")


def _loads(settings: dict) -> str:
    """What each path kind's sizes are, in words."""
    return "; ".join(f"{kind} ({LOAD_MEANING[kind]}) {', '.join(f'{v:g}' for v in values)}"
                     for kind, values in settings["loads"])


def _what_paths_test(m: MapOutputs) -> str:
    """Which paths test the tangential law: those with partial-slip steps; a path in full slip
    from its first loaded step tests the normal law only (Fx = mu N there for every 2D law)."""
    cases = m.default_cases
    if "full_slip_share" not in cases:
        return "(This map predates the slip shares of its paths: rerun hertz2d map.)"
    parts = []
    for kind, rows in cases.groupby("path"):
        sliding = int((rows.full_slip_share == 1).sum())
        parts.append(f"{kind}: {sliding} of {len(rows)} paths slide from the first loaded step, "
                     f"the mean share of partial-slip steps is {rows.partial_slip_share.mean():.2f}")
    return ("What the paths test (cases.csv: the shares of each path's steps in partial and full "
            "slip, from the FEM's stick zone). A path in full slip from its first loaded step "
            "has Fx = mu N throughout: it tests the normal law only, and every 2D law has the "
            "same tangential error there. " + "; ".join(parts) + ".")


def _metric() -> str:
    return ("Errors are the validation's relative errors, per step of the path: against the "
            "FEM's value at that step on a monotonic stage, against the FEM's amplitude on a "
            "cycle's unloading and reloading branches, where the force passes through zero (the "
            "*amplitude-relative* error, the map's metric; the *floor* error, every step "
            "against max(|FEM|, 0.2 max |FEM| over the path), is the stricter one on those "
            "branches, and the table after the regions gives both). A "
            "law's force error on a case is the larger of its largest normal-force and "
            "tangential-force (Fx) errors over the path: a DEM contact needs both. A law holds "
            f"on a case when its force error is below {percent(THRESHOLDS[0])} or "
            f"{percent(THRESHOLDS[1])}; in the tables below it holds at an axis value of a "
            "one-axis study when it holds on every case of the study with that value on that "
            "path ('all', 'none', or the values), and for a slice the tables count its cases.")


def _headline(m: MapOutputs) -> str:
    """The laws with the most cases within the tighter threshold, and the widest convergence
    change."""
    tight = percent(THRESHOLDS[0])
    ranked = sorted(m.regions, key=lambda e: -e["within"][tight]["fraction"])[:3]
    best = "; ".join(f"{e['law']} ({e['within'][tight]['cases']} of {e['cases']})"
                     for e in ranked)
    text = f"Most cases with a force error under {tight}: {best}."
    checks = pd.DataFrame(m.convergence)
    loose = percent(THRESHOLDS[-1])
    holding = {e["law"] for e in m.regions if e["within"][loose]["cases"]}
    relevant = checks[checks.law.isin(holding)] if not checks.empty else checks
    if not relevant.empty:
        worst = relevant.loc[relevant["force error change"].idxmax()]
        flips = sum(int(checks[c].sum()) for c in checks.columns if c.startswith("verdicts"))
        text += (f" In the convergence checks, the force error of a law that holds anywhere "
                 f"within {loose} moves by at most {100 * worst['force error change']:.1f} "
                 f"points ({worst['law']}, {worst['variant']}); {flips} verdict(s) change over "
                 "all laws and checks.")
    return text


def _both_metrics(m: MapOutputs) -> pd.DataFrame:
    """Per law, the share of cases under each threshold and the median, by both metrics (the
    floor metric's columns left out for a map written before it)."""
    force = force_errors(m.errors[m.errors.variant == DEFAULT_VARIANT])
    metrics = [("amplitude-relative", "force_error")]
    if force.floor_force_error.notna().any():
        metrics.append(("floor", "floor_force_error"))
    rows = []
    for law, mine in force.groupby("law", sort=False):
        row = {"law": law, "cases": len(mine)}
        for name, column in metrics:
            for threshold in THRESHOLDS:
                share = (mine[column] < threshold).mean()
                row[f"{name} < {percent(threshold)}"] = f"{100 * share:.0f} %"
            row[f"{name} median"] = f"{100 * mine[column].median():.1f} %"
        rows.append(row)
    return pd.DataFrame(rows)


def _admissibility(section: Section, m: MapOutputs) -> None:
    """The closed-loop table (map/admissibility.csv) and what it tests."""
    table = m.admissibility
    if table is None:
        section.paragraph("(This map predates the closed-loop admissibility table: rerun "
                          "hertz2d map.)")
        return
    loops = m.summary.get("closed_loops") or {}
    section.paragraph(
        f"Admissibility: every law of the catalogue around the same {loops.get('loops')} random "
        f"closed loops in (delta_n, delta_t) (equal discs, dissimilar pairs and discs on walls, "
        f"nu 0-0.45, mu 0.05-1, a/R 0.02-0.2, |beta| to 0.5; the approach swinging 0-40 % in "
        f"and out of phase at once or twice the tangential frequency or along a random smooth "
        f"closed curve; amplitudes 0.05-1.5 times the slip onset), {loops.get('repeats')} "
        f"repeats of {loops.get('steps')} steps each. W is the net work Fx d(delta_t) + Fz "
        f"d(delta_n) of the last repeat (the trapezoid rule in the loop's phase: exact on "
        f"smooth stretches, its error at the kinks of slip falling as the step squared) "
        f"over mu N_max A; a loop with W < -{loops.get('threshold')} is a violation, and the "
        f"{loops.get('refined')} most negative of a law are rerun with "
        f"{' and '.join(f'{r}x' for r in loops.get('refinements', []))} the steps: a W whose "
        f"extrapolation to a vanishing step (W_16 + (W_16 - W_4)/3) stays below "
        f"-{loops.get('quadrature_bound')} (the quadrature's error at 16x) persists: the "
        f"energy is the law's, not the quadrature's or the law's own step's. Stick return: |T_end - T_start| / "
        f"max |T| on 0 -> d -> 0 -> -d -> 0 at constant N with mu = {loops.get('stick_mu'):g} "
        f"(equal discs, a stiff counterpart, a wall at nu = 0; the largest). A law defined at a "
        f"constant approach runs the loops with the approach held; the accurate model and "
        f"Appendix C take monotonic loads only.")
    shown = table.drop(columns=["law_name"]).copy()
    for column in ("worst W", "worst W at 16x steps", "worst W extrapolated", "stick return"):
        if column in shown:
            shown[column] = shown[column].map(lambda v: "-" if pd.isna(v) else f"{v:.2g}")
    section.table(shown, "Net work around random closed loops (map/admissibility.csv; every "
                         "loop in map/loops.csv): a law declared admissible must have none with "
                         "W < 0, a law declared not admissible is shown creating energy.")


def _convergence(m: MapOutputs) -> pd.DataFrame:
    checks = pd.DataFrame(m.convergence)
    if checks.empty:
        return checks
    keep = ["variant", "law", "cases", "force error change",
            *[c for c in checks.columns if c.startswith("verdicts")]]
    table = checks[keep].copy()
    table["force error change"] = (100 * table["force error change"]).map("{:.2f} points".format)
    return table


def _cost(m: MapOutputs) -> pd.DataFrame:
    return pd.DataFrame([{"path": kind, "paths timed": t["paths"], "steps": t["steps"],
                          "s per path": t["seconds_per_path"], "set-up s": t["setup_seconds"],
                          "s per step": t["seconds_per_step"]}
                         for kind, t in m.fem_seconds.items()])


def map_section(m: MapOutputs | None) -> Section | None:
    """"Where each law holds": the space, the metric, the summary figure, the regions, the
    convergence of the map's numbers, the heatmaps, the failures."""
    if m is None:
        return None
    section = Section("Where each law holds", "map")
    section.paragraph(_space(m))
    section.paragraph(_metric())
    section.paragraph(
        "The laws are every law of the catalogue on the paths it is defined for (the accurate "
        "model and Appendix C assume a constant normal force: hold-normal only; "
        "Mindlin-Deresiewicz: hold-normal and cycle). The linear spring has the paper's "
        "kn = 2.7e9 and kt = 1.5e9 N/m per m, regressed on its R = 0.5 m, E = 10 GPa discs: a "
        "spring is not scale-free, so these numbers are what a user who copies them gets on "
        "other sizes and moduli, not the best a spring can do.")
    section.paragraph(_headline(m))
    section.paragraph(_what_paths_test(m))
    section.figure(m.figure("summary"),
                   "(a) The fraction of each law's cases (all its load paths) whose force error "
                   "stays under 5 % and 10 %; (b) the median over the cases of each quantity's "
                   "largest relative error (tangential stiffness: the tangent on the FEM's "
                   "partial-slip steps; energy per cycle: the last cycle's loop area).")
    for threshold in THRESHOLDS:
        section.table(region_table(m.regions, m.studies, threshold),
                      f"Where each law's force error stays under {percent(threshold)}, per load "
                      "path: the cases within, and per study the axis values (one-axis studies) "
                      "or the cases (slices) where it holds.")
    section.table(_both_metrics(m), "Each law's force error by both metrics over all its "
                  "cases: amplitude-relative (the map's) and floor (every step against max(|FEM|"
                  ", 0.2 max |FEM| over the path)); the share of cases under 5 % and 10 % and "
                  "the median.")
    _admissibility(section, m)
    section.paragraph(
        "Convergence of these numbers: the cases of some studies are run again one mesh level "
        "finer and in steps half as large; the table gives, per law, the largest change of its "
        "force error on those cases and how many verdicts (under or over each threshold) "
        "change. The full change per quantity is in map/summary.json.")
    section.table(_convergence(m), "The map's force errors on a finer mesh and in smaller "
                                   "steps, against the map's own run of the same cases.")
    section.table(_cost(m), f"Two-body FEM seconds per path at mesh level {m.level} "
                            "(as measured when each path was computed).")
    for name in m.studies:
        section.figure(m.figure(name),
                       f"Study '{name}': each law's force error (%) on every case, coloured in "
                       "bands whose edges include 5 % and 10 %; grey where the law does not run "
                       "that path.")
    failures = m.failures
    section.paragraph(f"{len(failures)} FEM path(s) failed; each is recorded with its reason in "
                      "map/cases.csv and left out of the errors." if failures else
                      "No FEM path failed.")
    if failures:
        section.table(pd.DataFrame({"path": list(failures), "reason": list(failures.values())}),
                      "FEM paths that failed, and why.")
    return section
