"""The law's domain inside ``hertz2d validate``: the FEM beyond the paper's two equal discs.

Runs :func:`hertz2d.calibration.validation.domain_checks.domain_checks` (a wall and a dissimilar pair
against Eqs. 17 and 22, Dundurs' beta, the stick zone, Masing's rule, the energy per cycle,
normal unloading, case 2 over mu; FEM runs cached in the case store, on the stage's executor) and
adds, from the same store:

``energy_laws``
    the energy per cycle of the FEM (Fx and T) against every law with memory and the Masing loops
    of Eq. 26's three stick-zone terms (:mod:`hertz2d.calibration.validation.stick_zone_term`), at the
    FEM's amplitudes (equal absolute A) and at the same fractions of each model's own full-slip
    displacement;
``energy_sensitivity``
    the smallest amplitude's energy per cycle with 1, 2 (and 4) times the normal steps and at the
    stick table's mesh levels, and the spurious shear left by the normal stage (nodes entering the
    contact within a finite step keep a friction history) with the same normal steps;
``wall_slide``
    Appendix C's slide on a wall (the normal fixed: Fx = mu N at constant N) against the FEM's
    disc on a wall in full slip, per mesh level, and Appendix C on two discs for contrast;
``forms``
    the two forms of the 2D laws for bodies of different materials (per-body, Eq. 22 and its
    tangential analogue, the default; composite, the printed Eqs. 23-31) against the FEM's
    dissimilar pair on case 1, per mesh level;
``loops``
    the FEM's cycles with the Masing branches of its own virgin curve and the loops of the laws
    with memory (for the figure).

Everything is written as ``<results>/validation/domain_<table>.csv`` with the figures of
:mod:`hertz2d.calibration.validation.domain_figures`.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from hertz2d.calibration.laws import (EQ33, FORMS, ConstantPenalty, ContactPair, full_slip_displacement,
                              make_law, normal_force)
from hertz2d.calibration.laws.appendix_c import AppendixC
from hertz2d.calibration.laws.sphere import MindlinDeresiewicz, hertz_normal
from hertz2d.calibration.laws.energy import energy_per_cycle
from hertz2d.calibration.runs.atomic import save_figure
from hertz2d.calibration.runs.executors import Executor, Inline
from hertz2d.calibration.validation import domain_figures
from hertz2d.calibration.validation import stick_zone_term as stz
from hertz2d.calibration.validation.domain_checks import (PAIRS, DomainSettings, PathCase, Runs,
                                                  _hold_normal, _normal_shear, cycle_cases,
                                                  domain_checks, first_cases)
from hertz2d.calibration.validation.outputs import DOMAIN_FIGURES, figure_path, write_domain_tables
from hertz2d.calibration.validation.reference_forms import masing_branch, masing_loop_energy
from hertz2d.calibration.validation.verification import onset_of_full_slip
from hertz2d.checks.loadpath import LoadPath
from hertz2d.fem.supports import DEFAULT_SUPPORT

#: laws with memory (they dissipate below full slip), and those without, by label
MEMORY_LAWS = {"accurate-memory": "accurate model with memory",
               "simplified-hysteretic": "simplified-hysteretic",
               "mindlin-deresiewicz": "3D Mindlin-Deresiewicz on discs"}
CAPPED_LAWS = {"simplified": "simplified (Table 1)", "hertz-mindlin": "3D Hertz-Mindlin on discs"}


def settings_for(quick: bool) -> DomainSettings:
    return DomainSettings.quick() if quick else DomainSettings()


def _equal_pair(settings: DomainSettings) -> ContactPair:
    upper = PAIRS["equal discs"][0]
    return ContactPair.discs(upper.R, upper.E, upper.nu, settings.mu)


def _smallest_cycle(settings: DomainSettings, onset: float) -> PathCase:
    return min((c for c in cycle_cases(settings, onset) if c.kind == "cycle"),
               key=lambda c: c.delta_t)


def _clamped_hold_normal(settings: DomainSettings) -> PathCase:
    return next(c for c in first_cases(settings) if c.pair == "equal discs"
                and c.kind == "hold-normal" and c.support == DEFAULT_SUPPORT and c.mu > 0)


def normal_step_factors(settings: DomainSettings) -> tuple[int, ...]:
    """More normal steps than the tables use: 2 and 4 times (quick: 2 times)."""
    return (1, 2) if settings.level < DomainSettings().level else (1, 2, 4)


def sensitivity_cases(settings: DomainSettings, onset: float) -> list[PathCase]:
    """The smallest cycle and the clamped hold-normal with more normal steps, and the smallest
    cycle at every level of the stick table."""
    cycle, hold = _smallest_cycle(settings, onset), _clamped_hold_normal(settings)
    more = [replace(case, normal_steps=factor * settings.normal_steps)
            for factor in normal_step_factors(settings) for case in (cycle, hold)]
    return more + [replace(cycle, level=level) for level in settings.levels]


def energy_sensitivity(runs: Runs, settings: DomainSettings, onset: float) -> pd.DataFrame:
    cycle, hold = _smallest_cycle(settings, onset), _clamped_hold_normal(settings)
    rows = []
    for factor in normal_step_factors(settings):
        steps = factor * settings.normal_steps
        held = replace(hold, normal_steps=steps)
        shear = _normal_shear(held, runs.get([held])[held])
        rows.append({"varied": "normal steps", "normal steps": steps, "level": cycle.level,
                     "W (J/m)": energy_per_cycle(runs.table(replace(cycle, normal_steps=steps))),
                     "max |q| / (mu p0) after normal loading": shear["max |q| / (mu p0)"]})
    for level in settings.levels:
        rows.append({"varied": "mesh level", "normal steps": settings.normal_steps,
                     "level": level, "W (J/m)": energy_per_cycle(
                         runs.table(replace(cycle, level=level))),
                     "max |q| / (mu p0) after normal loading": np.nan})
    table = pd.DataFrame(rows)
    table.insert(0, "A / onset", cycle.delta_t / onset)
    first = table.groupby("varied")["W (J/m)"].transform("first")
    table["W change from the first row"] = table["W (J/m)"] / first - 1
    return table


class LawCycles:
    """The laws of the energy table on cycle paths of the FEM's steps (so that their loop areas
    carry the same trapezoid error), each run once."""

    def __init__(self, settings: DomainSettings, w_at_a: float):
        self.settings = settings
        self.pair = pair = _equal_pair(settings)
        dn = PAIRS["equal discs"][2]
        N, a = (float(x) for x in normal_force(pair, dn))
        N_sphere, a_sphere = (float(x) for x in hertz_normal(pair, dn))

        def eq27(penalty=EQ33):
            return float(full_slip_displacement(pair, N, a, penalty))

        accurate = MEMORY_LAWS["accurate-memory"]
        #: label -> (law, its full-slip displacement: Eq. 27 for the 2D laws, Table 1's kt being
        #: Eq. 27's secant; Mindlin's for the sphere laws)
        self.laws = {
            f"{accurate}, Eq. 33's w": (make_law("accurate-memory", pair), eq27()),
            f"{accurate}, half-round FEM w at a = {w_at_a:.3f}": (
                make_law("accurate-memory", pair, ConstantPenalty(w_at_a)),
                eq27(ConstantPenalty(w_at_a))),
            f"{MEMORY_LAWS['simplified-hysteretic']}, Eq. 33's w": (
                make_law("simplified-hysteretic", pair), eq27()),
            MEMORY_LAWS["mindlin-deresiewicz"]: (
                make_law("mindlin-deresiewicz", pair),
                float(MindlinDeresiewicz(pair).ultimate_slip(dn))),
            CAPPED_LAWS["simplified"]: (make_law("simplified", pair), eq27()),
            CAPPED_LAWS["hertz-mindlin"]: (make_law("hertz-mindlin", pair), pair.mu * N_sphere
                                           / (8 * pair.shear_modulus * a_sphere))}
        self.done: dict[tuple[str, float], pd.DataFrame] = {}

    def table(self, label: str, amplitude: float) -> pd.DataFrame:
        if (label, amplitude) not in self.done:
            path = LoadPath.build("cycle", PAIRS["equal discs"][2], amplitude,
                                  self.settings.cycle_steps, self.settings.normal_steps)
            self.done[label, amplitude] = self.laws[label][0].run(path)
        return self.done[label, amplitude]

    def full_slip(self, label: str) -> float:
        return self.laws[label][1]


def energy_by_law(runs: Runs, settings: DomainSettings, onset: float,
                  half_round: stz.TabulatedPenalty, laws: LawCycles) -> pd.DataFrame:
    """W per amplitude: FEM, laws, Eq. 26 variants; at the FEM's A and at the same fraction of
    each model's own full-slip displacement."""
    pair = laws.pair
    N, a = (float(x) for x in normal_force(pair, PAIRS["equal discs"][2]))
    w_at_a = float(half_round.w[-1])
    rows = []

    def add(model, basis, amplitude, slip, energy):
        rows.append({"model": model, "basis": basis, "A / full slip": amplitude / slip,
                     "A (m)": amplitude, "full slip (m)": slip, "W (J/m)": energy})

    for fraction, case in zip(settings.amplitudes, cycle_cases(settings, onset)):
        fem = runs.table(case)
        for force, normal in (("Fx", "Fz"), ("T", "N")):
            add(f"FEM ({force})", "FEM's amplitude", case.delta_t, onset,
                energy_per_cycle(fem, force, normal))
    for label in laws.laws:
        slip = laws.full_slip(label)
        for fraction, case in zip(settings.amplitudes, cycle_cases(settings, onset)):
            for basis, amplitude in (("FEM's amplitude", case.delta_t),
                                     ("fraction of its own full slip", fraction * slip)):
                add(label, basis, amplitude, slip,
                    energy_per_cycle(laws.table(label, amplitude)))
    variants = {f"Eq. 26 with the half-round FEM's w(c) ({DEFAULT_SUPPORT})":
                    (half_round, stz.VARIANTS[1]),
                f"Eq. 26 with the penalty term at a (w = {w_at_a:.3f})":
                    (ConstantPenalty(w_at_a), stz.VARIANTS[2])}
    for label, (penalty, variant) in variants.items():
        delta, T = stz.virgin_curve(pair, N, penalty, variant)
        slip = float(full_slip_displacement(pair, N, a, penalty))
        for fraction, case in zip(settings.amplitudes, cycle_cases(settings, onset)):
            for basis, amplitude in (("FEM's amplitude", case.delta_t),
                                     ("fraction of its own full slip", fraction * slip)):
                add(label, basis, amplitude, slip, masing_loop_energy(delta, T, amplitude))
    table = pd.DataFrame(rows)
    fem = dict(zip(table[table.model == "FEM (Fx)"]["A (m)"], table[table.model == "FEM (Fx)"]
                   ["W (J/m)"]))
    table["W / FEM's W (Fx) at the same A"] = [
        w / fem[A] if basis == "FEM's amplitude" else np.nan
        for w, A, basis in zip(table["W (J/m)"], table["A (m)"], table.basis)]
    return table


def loop_curves(runs: Runs, settings: DomainSettings, onset: float,
                laws: LawCycles) -> pd.DataFrame:
    """Tidy loops (delta_t, Fx) per amplitude: the FEM, Masing's rule on the FEM's own virgin
    branch, and the accurate model with memory (Eq. 33) and the simplified-hysteretic law."""
    frames = []
    shown = {label: name for label, name in zip(laws.laws, ("accurate model with memory", None,
                                                             "simplified-hysteretic")) if name}
    for fraction, case in zip(settings.amplitudes, cycle_cases(settings, onset)):
        fem = runs.table(case)
        virgin = fem[fem.stage == "tangential"]
        unloading = fem[fem.stage == "unloading"]
        peak = (virgin.delta_t.iloc[-1], virgin.Fx.iloc[-1])
        turn = (unloading.delta_t.iloc[-1], unloading.Fx.iloc[-1])
        grid = np.linspace(peak[0], -peak[0], 81)
        masing = pd.DataFrame({"stage": ["unloading"] * grid.size + ["reloading"] * grid.size,
                               "delta_t": np.r_[grid, -grid],
                               "Fx": np.r_[masing_branch(virgin.delta_t, virgin.Fx, peak, grid),
                                           masing_branch(virgin.delta_t, virgin.Fx, turn, -grid)]})
        parts = [fem[["stage", "delta_t", "Fx"]].assign(source="FEM"),
                 masing.assign(source="Masing, FEM's virgin curve")]
        parts += [laws.table(label, case.delta_t)[["stage", "delta_t", "Fx"]].assign(source=name)
                  for label, name in shown.items()]
        frames += [part.assign(**{"A / onset": fraction}) for part in parts]
    return pd.concat(frames, ignore_index=True)


def _slide_row(table: pd.DataFrame, slide: pd.Series, source: str, level, mu: float) -> dict:
    """Fx and T against mu N over the steps in full slip, and N against the end of the normal
    stage and against the first step of the slide."""
    normal_end = table[table.stage == "normal"].iloc[-1]
    rows = table[slide.to_numpy()]
    return {"source": source, "level": level, "full-slip steps": len(rows),
            "max |Fx / (mu N) - 1|": float(np.abs(rows.Fx / (mu * rows.N) - 1).max()),
            "max |T / (mu N) - 1|": float(np.abs(rows["T"] / (mu * rows.N) - 1).max()),
            "max |N / N at slide start - 1|": float(np.abs(rows.N / rows.N.iloc[0] - 1).max()),
            "N at slide start / N after normal loading": float(rows.N.iloc[0] / normal_end.N)}


def wall_slide(runs: Runs, settings: DomainSettings) -> pd.DataFrame:
    """Appendix C's slide on a wall and on two discs (to 4 times Eq. 27's full slip), and the
    FEM's disc on a wall (symmetric flat) in full slip, per mesh level."""
    upper, _, dn, dt = PAIRS["wall"]
    rows = []
    for name, pair in (("wall", ContactPair.disc_on_wall(upper.R, upper.E, upper.nu,
                                                          settings.mu)),
                       ("two equal discs", _equal_pair(settings))):
        slip = float(full_slip_displacement(pair, *normal_force(pair, dn)))
        law = AppendixC(pair, EQ33).run(LoadPath.build("hold-normal", dn, 4 * slip,
                                                       settings.steps, settings.normal_steps))
        rows.append(_slide_row(law, law.slip.isin(("full", "slide")), f"Appendix C, {name}",
                               "-", settings.mu))
    walls = {case.level: case for case in first_cases(settings)
             if case.pair == "wall" and case.kind == "hold-normal" and case.mu > 0
             and case.delta_n == dn and case.delta_t == dt}
    for level, case in sorted(walls.items()):
        table = runs.table(case)
        rows.append(_slide_row(table, (table.stage == "tangential") & (table.c == 0),
                               f"FEM, disc on a wall ({case.support} flat)", level,
                               settings.mu))
    return pd.DataFrame(rows)


def dissimilar_forms(runs: Runs, settings: DomainSettings) -> pd.DataFrame:
    """Table 1 and the accurate model (Eq. 33's w) in both forms for two bodies against the FEM's
    dissimilar pair on case 1 (hold-normal, symmetric flats), per mesh level: N after normal
    loading, the full-slip displacement (Eq. 27 in the law's form; the FEM's onset of full slip)
    and the largest relative error of Fx over the tangential stage."""
    upper, lower, _, _ = PAIRS["dissimilar"]
    rows = []
    for level in settings.levels:
        case = _hold_normal("dissimilar", settings, level)
        fem = runs.table(case)
        fem_N = float(fem[fem.stage == "normal"].N.iloc[-1])
        fem_Fx = fem[fem.stage == "tangential"].Fx.to_numpy()
        fem_slip = onset_of_full_slip(fem)
        for form in FORMS:
            pair = ContactPair(upper.R, lower.R, upper.E, lower.E, upper.nu, lower.nu, case.mu,
                               form=form)
            N, a = (float(x) for x in normal_force(pair, case.delta_n))
            slip = float(full_slip_displacement(pair, N, a, EQ33))
            for name in ("simplified", "accurate-memory"):
                law = make_law(name, pair, EQ33).run(case.path())
                Fx = law[law.stage == "tangential"].Fx.to_numpy()
                rows.append({"level": level, "form": form, "law": name,
                             "N / FEM's N": N / fem_N,
                             "full slip / FEM's onset": slip / fem_slip,
                             "max |Fx / FEM's Fx - 1|": float(np.abs(Fx / fem_Fx - 1).max())})
    return pd.DataFrame(rows)


def full_slip_steps(runs: Runs, settings: DomainSettings, case2_mu: pd.DataFrame) -> pd.DataFrame:
    """Case 2 over mu with the first and last step in full slip (0 if none)."""
    steps = {}
    for case in first_cases(settings):
        if case.kind == "proportional":
            table = runs.table(case)
            full = table.step[table.c == 0].to_numpy()
            steps[case.mu] = (int(full.min()) if full.size else 0, int(full.max()) if full.size
                              else 0)
    return case2_mu.assign(**{
        "first step in full slip": case2_mu.mu.map(lambda mu: steps[mu][0]),
        "last step in full slip": case2_mu.mu.map(lambda mu: steps[mu][1])})


def run_domain(out: Path, quick: bool = False, executor: Executor = Inline(),
               half_round: stz.TabulatedPenalty | None = None, progress: bool = True) -> dict:
    """Compute every table (FEM runs on ``executor``, cached), write them and the figures into
    ``out``; return the tables."""
    settings = settings_for(quick)
    tables = domain_checks(settings, executor=executor, progress=progress)
    runs = Runs(executor=executor, progress=progress)
    onset = float(tables["energy"]["onset of full slip (m)"].iloc[0])
    runs.get(sensitivity_cases(settings, onset) + cycle_cases(settings, onset)
             + first_cases(settings))
    if half_round is None:
        upper = PAIRS["equal discs"][0]
        half_round = stz.half_round_penalty(upper.R, upper.E, upper.nu, DEFAULT_SUPPORT, float(
            normal_force(_equal_pair(settings), PAIRS["equal discs"][2])[1]))
    tables["energy_sensitivity"] = energy_sensitivity(runs, settings, onset)
    laws = LawCycles(settings, float(half_round.w[-1]))
    tables["energy_laws"] = energy_by_law(runs, settings, onset, half_round, laws)
    tables["wall_slide"] = wall_slide(runs, settings)
    tables["forms"] = dissimilar_forms(runs, settings)
    tables["case2_mu"] = full_slip_steps(runs, settings, tables["case2_mu"])
    tables["loops"] = loop_curves(runs, settings, onset, laws)
    profiles = {case.pair: pd.DataFrame(runs.get([case])[case]["normal_profile"])
                for case in first_cases(settings) if case.kind == "hold-normal"
                and case.level == settings.level and case.support == "symmetric"
                and case.mu > 0 and case.delta_n == PAIRS[case.pair][2]}
    write_domain_tables(out, tables)
    save_figure(domain_figures.masing_loops(tables["loops"]),
                figure_path(out, DOMAIN_FIGURES["masing"]))
    save_figure(domain_figures.energy(tables["energy_laws"]),
                figure_path(out, DOMAIN_FIGURES["energy"]))
    save_figure(domain_figures.normal_convergence(tables["normal"]),
                figure_path(out, DOMAIN_FIGURES["normal"]))
    save_figure(domain_figures.beta_shear(profiles, tables["beta"]),
                figure_path(out, DOMAIN_FIGURES["beta"]))
    save_figure(domain_figures.case2_over_mu(tables["case2_mu"]),
                figure_path(out, DOMAIN_FIGURES["case2_mu"]))
    save_figure(domain_figures.unload_normal(tables["unload_normal"]),
                figure_path(out, DOMAIN_FIGURES["unload_normal"]))
    return tables
