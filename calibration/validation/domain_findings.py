"""What the law's domain tables show, as numbers: the findings the report states about them.

The domain stage (:mod:`hertz2d.calibration.validation.domain_stage`) writes its tables; the findings are
computed here from those tables alone (:func:`domain_findings`), so a results root of any age
gives its own, and the report renders them (its template ``domain.md.j2``) without computing
or typing a number. The configurations are described from
:data:`~hertz2d.calibration.validation.domain_checks.PAIRS`, the bodies the stage runs
(:func:`pair_description`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from hertz2d.calibration.validation.domain_checks import PAIRS


def _body(disc) -> str:
    return f"R = {disc.R:g} m, E = {disc.E / 1e9:g} GPa, nu = {disc.nu:g}"


def pair_description(name: str) -> str:
    """The bodies of the configuration ``name`` of :data:`PAIRS` in words (``upper R = 0.3 m,
    E = 10 GPa, nu = 0.2; lower ...``)."""
    upper, lower = PAIRS[name][:2]
    return f"upper {_body(upper)}; lower {_body(lower)}"


def stick_criterion_mu(case2_mu: pd.DataFrame, support: str) -> tuple[float, float, float]:
    """On ``support``'s flats: the smallest mu whose case 2 has no step in full slip, and the
    kn and kt regressed there (NaN when every mu slides)."""
    mine = case2_mu[case2_mu.support == support]
    stuck = mine[mine["steps in full slip"] == 0]
    if stuck.empty:
        return float("nan"), float("nan"), float("nan")
    first = stuck.sort_values("mu").iloc[0]
    return float(first.mu), float(first["kn (N/m)"]), float(first["kt (N/m)"])


def energy_at(energy_laws: pd.DataFrame, model_start: str, basis: str, fraction: float) -> float:
    """W of the first model whose label starts with ``model_start``, at ``fraction`` (of the
    FEM's full slip for the FEM's amplitudes, of its own otherwise)."""
    rows = energy_laws[energy_laws.model.str.startswith(model_start)
                       & (energy_laws.basis == basis)]
    if basis == "FEM's amplitude":
        fem = energy_laws[energy_laws.model == "FEM (Fx)"]
        amplitude = fem["A (m)"].to_numpy()[np.argmin(np.abs(fem["A / full slip"] - fraction))]
        return float(rows.loc[np.isclose(rows["A (m)"], amplitude), "W (J/m)"].iloc[0])
    return float(rows.loc[np.isclose(rows["A / full slip"], fraction), "W (J/m)"].iloc[0])


@dataclass(frozen=True)
class EnergyFindings:
    """The energy per cycle at the smallest amplitude and what explains the accurate model's
    excess (the penalty term of Eq. 26 held at a), with the sensitivity checks."""

    small: float                  # the smallest amplitude, a fraction of full slip
    largest: float                # the largest
    fem_slip_mm: float            # the FEM's full-slip displacement
    fem: float                    # W of Fx's loop, J/m
    fem_T: float                  # the loop of the contact-frame T
    eq33_at_fem: float            # the accurate model (Eq. 33) at the FEM's amplitude
    eq33_own: float               # ... at the same fraction of its own full slip
    eq33_slip_mm: float
    half_round_at_fem: float      # with the half-round FEM's w at a
    half_round_own: float
    with_w_of_c: float            # Eq. 26 with the half-round FEM's w(c)
    frozen: float                 # Eq. 26 with the penalty term at a, own full slip
    frozen_worst: float           # its largest |W/W_FEM - 1| over the amplitudes
    frozen_at_fem: float
    frozen_slip_mm: float
    steps_coarse: int             # normal steps of the sensitivity check
    steps_fine: int
    shear_coarse: float           # max |q| / (mu p0) after normal loading
    shear_fine: float
    steps_change: float           # largest |W change| with more normal steps
    level_coarse: int
    level_fine: int
    level_change: float           # largest |W change| over mesh levels

    @property
    def excess(self) -> float:
        """The accurate model's W over the FEM's at the FEM's amplitude."""
        return self.eq33_at_fem / self.fem


def energy_findings(e: pd.DataFrame, s: pd.DataFrame) -> EnergyFindings:
    """From ``domain_energy_laws`` and ``domain_energy_sensitivity``."""
    fractions = sorted(e["A / full slip"][e.model == "FEM (Fx)"].unique())
    small = float(fractions[0])
    fem_amp, own = "FEM's amplitude", "fraction of its own full slip"
    eq33, half = "accurate model with memory, Eq. 33", "accurate model with memory, half-round"
    frozen = {f: energy_at(e, "Eq. 26 with the penalty term at a", own, f) for f in fractions}
    fem_all = {f: energy_at(e, "FEM (Fx)", fem_amp, f) for f in fractions}
    slips = e.drop_duplicates("model").set_index("model")["full slip (m)"]
    steps, levels = s[s.varied == "normal steps"], s[s.varied == "mesh level"]
    shear = "max |q| / (mu p0) after normal loading"
    return EnergyFindings(
        small=small, largest=float(max(fractions)), fem_slip_mm=1e3 * float(slips["FEM (Fx)"]),
        fem=energy_at(e, "FEM (Fx)", fem_amp, small), fem_T=energy_at(e, "FEM (T)", fem_amp, small),
        eq33_at_fem=energy_at(e, eq33, fem_amp, small), eq33_own=energy_at(e, eq33, own, small),
        eq33_slip_mm=1e3 * float(slips[[m for m in slips.index if m.endswith("Eq. 33's w")][0]]),
        half_round_at_fem=energy_at(e, half, fem_amp, small),
        half_round_own=energy_at(e, half, own, small),
        with_w_of_c=energy_at(e, "Eq. 26 with the half-round FEM's w(c)", own, small),
        frozen=frozen[small],
        frozen_worst=max(abs(frozen[f] / fem_all[f] - 1) for f in fractions),
        frozen_at_fem=energy_at(e, "Eq. 26 with the penalty term at a", fem_amp, small),
        frozen_slip_mm=1e3 * float(slips[[m for m in slips.index
                                          if m.startswith("Eq. 26 with the penalty")][0]]),
        steps_coarse=int(steps["normal steps"].iloc[0]),
        steps_fine=int(steps["normal steps"].iloc[-1]),
        shear_coarse=float(steps[shear].iloc[0]), shear_fine=float(steps[shear].iloc[-1]),
        steps_change=float(steps["W change from the first row"].abs().max()),
        level_coarse=int(levels.level.iloc[0]), level_fine=int(levels.level.iloc[-1]),
        level_change=float(levels["W change from the first row"].abs().max()))


@dataclass(frozen=True)
class FormsFindings:
    """The two forms for bodies of different materials against the FEM at the finest level:
    per form, N's distance from the FEM's, the largest Fx error of the accurate model and of
    Table 1, and full slip over the FEM's onset."""

    level: int
    normal: dict[str, float]
    accurate: dict[str, float]
    table1: dict[str, float]
    full_slip: dict[str, float]


def forms_findings(forms: pd.DataFrame) -> FormsFindings:
    level = int(forms.level.max())
    finest = forms[forms.level == level].set_index(["form", "law"])

    def of(law: str, column: str, change: bool = False) -> dict[str, float]:
        return {form: (abs(float(finest.loc[(form, law), column]) - 1) if change
                       else float(finest.loc[(form, law), column]))
                for form in ("per-body", "composite")}

    return FormsFindings(level, of("simplified", "N / FEM's N", change=True),
                         of("accurate-memory", "max |Fx / FEM's Fx - 1|"),
                         of("simplified", "max |Fx / FEM's Fx - 1|"),
                         of("simplified", "full slip / FEM's onset"))


@dataclass(frozen=True)
class DomainFindings:
    """Every number the report states about the law's domain (module docstring)."""

    level: int
    dissimilar: str                         # the dissimilar pair's bodies, in words
    dissimilar_beta: float                  # its Dundurs beta
    contact_sizes: tuple[float, float]      # a/R of the pairs at full load, least and most
    mu: float                               # friction of the beta and stick tables
    normal_error: float                     # max |N / closed form - 1| at ``level``
    normal_finest: int
    normal_change: float                    # max |N change| from the level below the finest
    stick_per_level: dict[int, float]       # equal discs: max |c / Eq. 7 - 1| per level
    stick_coupled: list[dict]               # beta != 0 at T/(mu N) = 0.5 and ``level``
    trend: dict[str, float]                 # the wall's c/a towards a/R = 0
    masing_residual: float                  # largest unloading residual / T* (Fx)
    loop_closure: float
    energy: EnergyFindings
    wall_slide: dict[str, float]
    forms: FormsFindings | None
    unload: dict[str, float]
    case2_support: str
    case2_sliding_mu: float                 # the largest mu whose case 2 slides in every step
    case2_stuck_mu: float                   # the smallest with no step in full slip
    case2_kt: float
    case2_kt_over_kn: float
    runs: int                               # FEM runs behind the tables
    run_seconds: float


def domain_findings(tables: dict[str, pd.DataFrame], level: int) -> DomainFindings:
    """The findings of the domain tables (by name, as
    :class:`~hertz2d.calibration.validation.outputs.DomainOutputs` reads them) at the stage's mesh
    ``level``."""
    normal, stick = tables["normal"], tables["stick"]
    finest = int(normal.level.max())
    equal = stick[stick.pair == "equal discs"]
    trend = tables["beta_trend"].sort_values("a/R")
    fx = tables["masing"][tables["masing"].force == "Fx"]
    slide = tables["wall_slide"]
    wall = slide[slide.source.str.startswith("Appendix C, wall")].iloc[0]
    discs = slide[slide.source.str.startswith("Appendix C, two")].iloc[0]
    unload = tables["unload_normal"]
    case2 = tables["case2_mu"]
    support = case2.support.iloc[0]
    mine = case2[case2.support == support]
    mu, _, kt = stick_criterion_mu(case2, support)
    timing = tables["timing"]
    coupled = stick[(stick.beta > 0) & (stick.level == level)
                    & np.isclose(stick["T / (mu N)"], 0.5)]
    at_level = normal[normal.level == level]
    beta = tables["beta"]
    return DomainFindings(
        level=level, dissimilar=pair_description("dissimilar"),
        dissimilar_beta=float(beta[beta.pair == "dissimilar"].beta.iloc[0]),
        contact_sizes=(float(at_level["a/R"].min()), float(at_level["a/R"].max())),
        mu=float(beta.mu.iloc[0]),
        normal_error=float((at_level["N / closed form"] - 1).abs().max()),
        normal_finest=finest,
        normal_change=float(normal[normal.level == finest]["N change from previous level"]
                            .abs().max()),
        stick_per_level={int(lvl): float(err) for lvl, err in equal.groupby("level")[
            "c / Eq. 7"].apply(lambda c: (c - 1).abs().max()).items()},
        stick_coupled=[{"pair": r.pair, "c": float(r["c / Eq. 7"]),
                        "half_plane_c": float(r["half-plane c / Eq. 7"]),
                        "offset": float(r["stick offset / a"]),
                        "half_plane_offset": float(r["half-plane stick offset / a"])}
                       for _, r in coupled.iterrows()],
        trend={"c_over_a": float(trend["c / a"].iloc[-1]), "a_over_R": float(trend["a/R"].iloc[-1]),
               "extrapolated": float(trend["c / a extrapolated to a/R = 0"].iloc[0]),
               "half_plane": float(trend["half-plane c / a"].iloc[0])},
        masing_residual=float(fx["unloading residual / T*"].max()),
        loop_closure=float(fx["loop closure / T*"].max()),
        energy=energy_findings(tables["energy_laws"], tables["energy_sensitivity"]),
        wall_slide={"wall_fx": float(wall["max |Fx / (mu N) - 1|"]),
                    "wall_n": float(wall["max |N / N at slide start - 1|"]),
                    "wall_steps": int(wall["full-slip steps"]),
                    "fem_wall_fx": float(slide[slide.source.str.startswith("FEM")][
                        "max |Fx / (mu N) - 1|"].max()),
                    "discs_fx": float(discs["max |Fx / (mu N) - 1|"]),
                    "discs_n": float(discs["max |N / N at slide start - 1|"])},
        forms=forms_findings(tables["forms"]) if "forms" in tables else None,
        unload={"N_end": float(unload["N / N at start"].iloc[-1]),
                "ratio_start": float(unload["T / (mu N)"].iloc[0]),
                "ratio_end": float(unload["T / (mu N)"].iloc[-1]),
                "c_start": float(unload["c / a"].iloc[0]),
                "c_end": float(unload["c / a"].iloc[-1]),
                "rule": float(np.abs(unload["c / a"] - np.sqrt(1 - unload["T / (mu N)"])).max())},
        case2_support=support,
        case2_sliding_mu=float(mine[mine["steps in full slip"] == mine.steps].mu.max()),
        case2_stuck_mu=mu, case2_kt=kt,
        case2_kt_over_kn=float(mine[mine.mu == mu]["kt / kn"].iloc[0]),
        runs=len(timing), run_seconds=float(timing.total.sum()))
