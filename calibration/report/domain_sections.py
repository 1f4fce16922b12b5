"""The report's section on the law's domain (``<results>/validation/domain_*.csv``).

Every number in the text is read from those tables (:mod:`calibration.validation.domain_stage`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from calibration.report.document import Section
from calibration.report.validation_sections import (ValidationResults, stick_criterion_mu,
                                                    sticking_case2)

TABLES = ("normal", "stick", "beta", "beta_trend", "masing", "energy", "energy_laws",
          "energy_sensitivity", "wall_slide", "unload_normal", "case2_mu", "timing")
#: tables added later: shown when present
OPTIONAL = ("forms",)


class DomainTables:
    """The domain tables of a results root, by name (``None`` when the run predates them)."""

    def __init__(self, v: ValidationResults):
        self.folder = v.folder
        self.level = v.summary.get("domain", {}).get("level")
        self.tables = {name: pd.read_csv(v.folder / f"domain_{name}.csv")
                       for name in TABLES + OPTIONAL if (v.folder / f"domain_{name}.csv").exists()}

    @property
    def complete(self) -> bool:
        return all(name in self.tables for name in TABLES)

    def __getitem__(self, name: str) -> pd.DataFrame:
        return self.tables[name]


def _pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f} %"


def _within(x: float) -> str:
    return "exactly (to rounding)" if x < 1e-14 else f"within {x:.1e}"


def energy_at(energy_laws: pd.DataFrame, model_start: str, basis: str, fraction: float) -> float:
    """W of the first model whose label starts with ``model_start``, at ``fraction`` (of the FEM's
    full slip for the FEM's amplitudes, of its own otherwise)."""
    rows = energy_laws[energy_laws.model.str.startswith(model_start)
                       & (energy_laws.basis == basis)]
    if basis == "FEM's amplitude":
        fem = energy_laws[energy_laws.model == "FEM (Fx)"]
        amplitude = fem["A (m)"].to_numpy()[np.argmin(np.abs(fem["A / full slip"] - fraction))]
        return float(rows.loc[np.isclose(rows["A (m)"], amplitude), "W (J/m)"].iloc[0])
    return float(rows.loc[np.isclose(rows["A / full slip"], fraction), "W (J/m)"].iloc[0])


def energy_paragraph(d: DomainTables) -> str:
    """The cause of the accurate model's larger energy per cycle, with the numbers."""
    e, s = d["energy_laws"], d["energy_sensitivity"]
    fractions = sorted(e["A / full slip"][e.model == "FEM (Fx)"].unique())
    small = fractions[0]
    fem, fem_T = (energy_at(e, f"FEM ({f})", "FEM's amplitude", small) for f in ("Fx", "T"))
    eq33 = (energy_at(e, "accurate model with memory, Eq. 33", "FEM's amplitude", small),
            energy_at(e, "accurate model with memory, Eq. 33", "fraction of its own full slip",
                      small))
    at_a = (energy_at(e, "accurate model with memory, half-round", "FEM's amplitude", small),
            energy_at(e, "accurate model with memory, half-round",
                      "fraction of its own full slip", small))
    own = "fraction of its own full slip"
    wc = energy_at(e, "Eq. 26 with the half-round FEM's w(c)", own, small)
    frozen = {f: energy_at(e, "Eq. 26 with the penalty term at a", own, f) for f in fractions}
    fem_all = {f: energy_at(e, "FEM (Fx)", "FEM's amplitude", f) for f in fractions}
    worst = max(abs(frozen[f] / fem_all[f] - 1) for f in fractions)
    frozen_at_A = energy_at(e, "Eq. 26 with the penalty term at a", "FEM's amplitude", small)
    slips = e.drop_duplicates("model").set_index("model")["full slip (m)"]
    eq33_slip = slips[[m for m in slips.index if m.endswith("Eq. 33's w")][0]]
    frozen_slip = slips[[m for m in slips.index if m.startswith("Eq. 26 with the penalty")][0]]
    steps, levels = s[s.varied == "normal steps"], s[s.varied == "mesh level"]
    return (
        f"At A = {small:g} of the FEM's full-slip displacement ({1e3 * slips['FEM (Fx)']:.2f} mm) "
        f"the FEM dissipates {fem:.0f} J/m per cycle; the accurate model with memory (Eq. 33's "
        f"w) {eq33[0]:.0f} J/m at the same amplitude and {eq33[1]:.0f} J/m at {small:g} of its own "
        f"full slip ({1e3 * eq33_slip:.2f} mm), and with the half-round FEM's w at a of the same "
        f"support {at_a[0]:.0f} and {at_a[1]:.0f} J/m. Neither w nor the full-slip displacement "
        f"explains the factor of about {eq33[0] / fem:.1f}: both shift W by a few per cent. The "
        f"cause is Eq. 26's stick-zone term, which evaluates the penalty term of Eq. 20 at the "
        f"stick half-width c: the curvature of the virgin curve, hence the small-amplitude "
        f"dissipation, is set by how fast B(c) grows as c shrinks. With the half-round FEM's own "
        f"w(c) the Masing loop gives {wc:.0f} J/m at {small:g} of its full slip; with the "
        f"penalty term kept at the contact half-width a (the finite body's share of the "
        f"displacement set by the resultant, not by how it is spread inside the contact) "
        f"{frozen[small]:.0f} J/m, and within {_pct(worst)} of the FEM at every amplitude from "
        f"{min(fractions):g} to {max(fractions):g} of full slip (at the FEM's absolute amplitude "
        f"{frozen_at_A:.0f} J/m, its full slip being {1e3 * frozen_slip:.2f} mm). "
        f"Not a numerical artefact: with {int(steps['normal steps'].iloc[-1])} instead of "
        f"{int(steps['normal steps'].iloc[0])} normal steps the spurious shear left by the normal "
        f"stage (nodes entering the contact within a step keep a friction history) falls from "
        f"{_pct(steps['max |q| / (mu p0) after normal loading'].iloc[0])} to "
        f"{_pct(steps['max |q| / (mu p0) after normal loading'].iloc[-1])} of mu p0 and W "
        f"changes by {_pct(steps['W change from the first row'].abs().max(), 2)}; from mesh level "
        f"{int(levels.level.iloc[0])} to {int(levels.level.iloc[-1])} W changes by "
        f"{_pct(levels['W change from the first row'].abs().max())}. W is the work of the "
        f"horizontal force Fx (the force that does work on delta_t); the loop of the "
        f"contact-frame T encloses {fem_T:.0f} J/m, which is not an energy (the contact plane "
        f"turns as the discs roll).")


def forms_paragraph(forms: pd.DataFrame) -> str:
    """What the two forms for bodies of different materials do against the FEM (finest level)."""
    level = forms.level.max()
    finest = forms[forms.level == level].set_index(["form", "law"])
    n, fx, slip = "N / FEM's N", "max |Fx / FEM's Fx - 1|", "full slip / FEM's onset"

    def of(form: str, law: str, column: str) -> float:
        return float(finest.loc[(form, law), column])

    return (f"At mesh level {level} the per-body form gives N within "
            f"{_pct(abs(of('per-body', 'simplified', n) - 1))} of the FEM's, the composite form "
            f"{_pct(abs(of('composite', 'simplified', n) - 1))} off; the largest Fx error of the "
            f"accurate model is {_pct(of('per-body', 'accurate-memory', fx))} (per-body) against "
            f"{_pct(of('composite', 'accurate-memory', fx))} (composite), of Table 1 "
            f"{_pct(of('per-body', 'simplified', fx))} against "
            f"{_pct(of('composite', 'simplified', fx))}. Full slip comes at "
            f"{of('per-body', 'simplified', slip):.2f} (per-body) and "
            f"{of('composite', 'simplified', slip):.2f} (composite) times the FEM's onset. "
            f"Neither form carries the coupling of beta, whose shear the FEM shows above, and Eq. "
            f"33's w (clamped base) against symmetric flats adds its own tangential error, as in "
            f"the map's dissimilar study. The per-body form is the laws' default.")


def domain_section(v: ValidationResults) -> Section | None:
    """The law's domain: wall, dissimilar pair, beta, stick zone, Masing, energy, normal
    unloading, case 2 over mu; ``None`` for a results root made before the domain tables."""
    d = DomainTables(v)
    if not d.complete:
        return None
    section = Section("The law's domain: a wall, dissimilar discs, cycles, friction", "domain")
    normal, stick = d["normal"], d["stick"]
    level = d.level
    section.paragraph(
        "Beyond the paper's two equal discs, the same two-body FEM runs a disc on a rigid wall "
        "and a dissimilar pair (upper R = 0.3 m, E = 10 GPa, nu = 0.2; lower R = 0.7 m, "
        "E = 70 GPa, nu = 0.35), all at a/R of about 0.12-0.13, on cycles, normal unloading "
        f"and case 2 over a range of friction. Every table is at mesh level {level}; the "
        "verification tables add finer and coarser levels to show the mesh convergence.")
    finest = int(normal.level.max())
    last = normal[normal.level == finest]
    default = normal[normal.level == level]
    section.table(normal.round(5), "Frictionless normal loading with symmetric flats: N against "
                  "Eq. 17 (wall) or Eq. 22 at the prescribed approach, per mesh level, and its "
                  "change from the coarser level.")
    section.paragraph(
        f"At level {level} N is within {_pct((default['N / closed form'] - 1).abs().max(), 2)} "
        f"of the closed forms for all three pairs, and from level {finest - 1} to {finest} it "
        f"changes by at most "
        f"{_pct(last['N change from previous level'].abs().max(), 2)}.")
    section.figure(d.folder / "domain_normal.png", "N over its closed form per mesh level (the "
                   "disc on a wall is the equal pair's half, as Eq. 17 is Eq. 22's: their "
                   "points coincide).")
    equal = stick[stick.pair == "equal discs"]
    trend = d["beta_trend"].sort_values("a/R")
    per_level = equal.groupby("level")["c / Eq. 7"].apply(lambda c: (c - 1).abs().max())
    section.table(stick.round(4), "The stick zone during case 1's tangential stage (hold-normal, "
                  "symmetric flats) at T/(mu N) = 0.25, 0.5, 0.75, per mesh level: c against "
                  "Eq. 7 (with the contact-frame T), the half-plane model for beta != 0, and the "
                  "horizontal force over the contact-frame force, Fx / T.")
    section.paragraph(
        "For equal discs (beta = 0) the stick zone is within "
        + ", ".join(f"{_pct(err)} of Eq. 7 at level {lvl}" for lvl, err in per_level.items())
        + f". For beta != 0 Eq. 7 does not hold: at T/(mu N) = 0.5 and level {level} c / Eq. 7 is "
        + ", ".join(f"{r['c / Eq. 7']:.2f} ({r.pair}; half-plane model "
                    f"{r['half-plane c / Eq. 7']:.2f}), its centre shifted by "
                    f"{r['stick offset / a']:.2f} a ({r['half-plane stick offset / a']:.2f})"
                    for _, r in stick[
                        (stick.beta > 0) & (stick.level == level)
                        & np.isclose(stick["T / (mu N)"], 0.5)].iterrows())
        + ". The half-plane model is the a/R -> 0 "
        f"limit: the wall's stick zone after normal loading, {trend['c / a'].iloc[-1]:.2f} a at "
        f"a/R = {trend['a/R'].iloc[-1]:.2f}, extrapolates to "
        f"{trend['c / a extrapolated to a/R = 0'].iloc[0]:.2f} a at a/R = 0 against the "
        f"half-plane's {trend['half-plane c / a'].iloc[0]:.2f} a (domain_beta_trend.csv).")
    section.table(d["beta_trend"].round(4), "The wall's stick zone after normal loading at "
                  "decreasing a/R, extrapolated to a/R = 0, against the half-plane model.")
    beta = d["beta"]
    section.table(beta.round(4), "Dundurs' beta and the shear it causes during normal loading "
                  "with mu = 0.3 (end of the normal stage), against the coupled half-plane model "
                  "and the 2D analogue of Goodman's approximation (Goodman, 1962, treats spheres).")
    section.figure(d.folder / "domain_beta_shear.png",
                   "Shear traction after normal loading (mu = 0.3): zero for equal discs up to "
                   "the spurious shear of nodes that enter the contact within a step; a stick "
                   "zone and slip annuli for the wall and the dissimilar pair.")
    masing = d["masing"]
    fx = masing[masing.force == "Fx"]
    section.table(masing.round(6), "The FEM's unloading and reloading branches against Masing's "
                  "rule built from its own virgin branch (equal discs, default support), largest "
                  "distance over the peak force.")
    section.paragraph(
        f"The FEM follows Masing's rule to {_pct(fx['unloading residual / T*'].max(), 2)} of the "
        f"peak force on every cycle (largest at A = full slip, where the contact slides), and "
        f"its loops close to {fx['loop closure / T*'].max():.1e}.")
    section.figure(d.folder / "domain_masing_loops.png",
                   "Cycles at three amplitudes: FEM, Masing's rule on the FEM's virgin curve, "
                   "the accurate model with memory and the simplified-hysteretic law (Eq. 33).")
    e = d["energy_laws"]
    fem_fractions = e[e.model == "FEM (Fx)"]["A / full slip"].to_numpy()
    pivot = e[e.basis == "FEM's amplitude"].assign(
        A=lambda t: np.round(t["A (m)"] * 1e3, 3)).pivot_table(
        index="model", columns="A", values="W (J/m)", sort=False)
    pivot.columns = [f"A = {a:g} mm ({f:g})" for a, f in zip(pivot.columns, fem_fractions)]
    section.table(pivot.round(1).reset_index(),
                  "Energy dissipated per cycle (J/m) at the FEM's amplitudes (in brackets: the "
                  "fraction of the FEM's full-slip displacement). FEM (Fx): the loop of the "
                  "horizontal force, the dissipated energy; FEM (T): the loop of the "
                  "contact-frame force. Laws with Fx = T. Table 1 and the Hertz-Mindlin spring "
                  "dissipate nothing below their full slip.")
    own = e[e.basis == "fraction of its own full slip"].pivot_table(
        index="model", columns="A / full slip", values="W (J/m)", sort=False)
    own.columns = [f"A = {f:g} of own full slip" for f in own.columns]
    section.table(own.round(1).reset_index(), "The same at equal fractions of each model's own "
                  "full-slip displacement (domain_energy_laws.csv has both, and each one's "
                  "full-slip displacement).")
    section.paragraph(energy_paragraph(d))
    section.table(d["energy_sensitivity"].round(5), "The smallest amplitude's energy per cycle "
                  "with more normal steps and per mesh level, and the spurious shear after "
                  "normal loading.")
    section.figure(d.folder / "domain_energy.png",
                   "Energy per cycle against amplitude (log-log; grey: slope 3), (a) at the "
                   "FEM's amplitudes, (b) at fractions of each model's own full slip.")
    slide = d["wall_slide"]
    section.table(slide, "Appendix C's finite slide (to 4 times Eq. 27's full slip) on a wall and "
                  "on two discs, and the FEM's disc on a wall in full slip per mesh level: Fx "
                  "and T against mu N, N during the slide.")
    wall = slide[slide.source.str.startswith("Appendix C, wall")].iloc[0]
    discs = slide[slide.source.str.startswith("Appendix C, two")].iloc[0]
    fem_wall = slide[slide.source.str.startswith("FEM")]["max |Fx / (mu N) - 1|"].max()
    section.paragraph(
        f"On a wall Appendix C keeps the contact plane horizontal: Fx / (mu N) = 1 "
        f"{_within(wall['max |Fx / (mu N) - 1|'])} and N constant "
        f"{_within(wall['max |N / N at slide start - 1|'])} over {int(wall['full-slip steps'])} "
        f"steps of slide, as the FEM's disc on a wall "
        f"(Fx / (mu N) - 1 at most {fem_wall:.1e}); "
        f"between two discs the contact plane turns and Fx falls below mu N by up to "
        f"{_pct(discs['max |Fx / (mu N) - 1|'])} while N rises by "
        f"{_pct(discs['max |N / N at slide start - 1|'])}.")
    if "forms" in d.tables:
        section.table(d["forms"].round(4), "The dissimilar pair (beta = 0.31) on case 1 with "
                      "symmetric flats: Table 1 and the accurate model (Eq. 33's w) in the "
                      "per-body form (Eq. 22 and its tangential analogue, the default) and the "
                      "composite form (Eqs. 23-31 as printed), against the FEM per mesh level.")
        section.paragraph(forms_paragraph(d["forms"]))
    unload = d["unload_normal"]
    section.paragraph(
        f"Normal unloading at fixed delta_t (held at 0.3 of the full-slip displacement, delta_n "
        f"halved): as N falls to {unload['N / N at start'].iloc[-1]:.2f} of its start, "
        f"T/(mu N) rises from {unload['T / (mu N)'].iloc[0]:.2f} to "
        f"{unload['T / (mu N)'].iloc[-1]:.2f} and the stick zone shrinks from c/a = "
        f"{unload['c / a'].iloc[0]:.2f} to {unload['c / a'].iloc[-1]:.2f}, within "
        f"{np.abs(unload['c / a'] - np.sqrt(1 - unload['T / (mu N)'])).max():.3f} a of the "
        f"paper's rule for a falling N (Section 3.3: c of Eq. 7 at the new N, with the FEM's T) "
        f"at every step.")
    section.figure(d.folder / "domain_unload_normal.png", "Normal unloading at fixed delta_t.")
    case2 = d["case2_mu"]
    default = case2.support.iloc[0]
    mine = case2[case2.support == default]
    mu, _, kt = stick_criterion_mu(case2, default)
    section.table(case2.round(4), "Case 2 (delta_n and delta_t raised together) over the "
                  "friction coefficient, on both supports of the flats: steps in full slip and "
                  "with any slipping node, and the linear spring regressed on it (Fx on delta_t, "
                  "Fz on delta_n).")
    section.paragraph(
        f"Case 2 on {default} flats slides in every step up to mu = "
        f"{mine[mine['steps in full slip'] == mine.steps].mu.max():g}; from mu = {mu:g} no "
        f"step is in full slip and the regressed kt is {kt:.3g} N/m per m, the paper's 1.5e9 "
        f"within {_pct(abs(kt / 1.5e9 - 1))}. Its kt/kn there, "
        f"{mine[mine.mu == mu]['kt / kn'].iloc[0]:.2f}, is the ratio T/N of a contact that "
        f"sticks (the disagreements section gives the criterion). {sticking_case2(case2)}")
    section.figure(d.folder / "domain_case2_mu.png",
                   "Case 2 over mu: its regime and the regressed kt against the paper's.")
    timing = d["timing"]
    section.paragraph(
        f"The {len(timing)} FEM runs behind these tables took {timing.total.sum():.0f} s "
        f"together when they were computed (domain_timing.csv, per run; cached since).")
    return section
