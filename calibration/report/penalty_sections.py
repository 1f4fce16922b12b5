"""Report sections from the penalty-factor stage (``<results>/penalty/``)."""
from __future__ import annotations

import pandas as pd

from hertz2d.calibration.laws.closed_forms import EQ33_COEFFICIENTS, penalty_factor_eq33
from hertz2d.calibration.penalty.confined import tangential_stiffness_ratio
from hertz2d.calibration.penalty.outputs import PenaltyOutputs
from hertz2d.calibration.report.document import Section, listed

EQ33_TERMS = ("1", "a/R", "nu", "(a/R)^2", "(a/R) nu", "nu^2")


def summary_rows(p: PenaltyOutputs) -> list[dict]:
    """Paper vs hertz2d rows for the summary table (penalty part)."""
    supports = list(p.by_support)
    rows = []
    for i, term in enumerate(EQ33_TERMS):
        rows.append({"quantity": f"Eq. 33 coefficient of {term}", "paper": EQ33_COEFFICIENTS[i],
                     **{f"hertz2d, {s}": p.by_support[s]["coefficients"][i] for s in supports}})
    rows.append({"quantity": "R^2 of the Eq. 33 form (refit)", "paper": "about 0.97",
                 **{f"hertz2d, {s}": p.by_support[s]["r2"] for s in supports}})
    rows.append({"quantity": "paper's Eq. 33 judged on hertz2d's FEM: R^2", "paper": "-",
                 **{f"hertz2d, {s}": p.by_support[s]["paper_r2"] for s in supports}})
    rows.append({"quantity": "paper's Eq. 33 vs hertz2d's FEM: RMSE of w", "paper": "-",
                 **{f"hertz2d, {s}": p.by_support[s]["rmse_vs_paper"] for s in supports}})
    rows.append({"quantity": "w range on the a/R x nu grid", "paper": "about 0.25-0.75",
                 **{f"hertz2d, {s}": f"{p.by_support[s]['w_min']:.3f}-{p.by_support[s]['w_max']:.3f}"
                    for s in supports}})
    rows.append({"quantity": "mean w", "paper": "about 0.5",
                 **{f"hertz2d, {s}": p.by_support[s]["w_mean"] for s in supports}})
    rows.append({"quantity": "w = 0.5: max |error| of displacement at given force",
                 "paper": "< 25 %", **{f"hertz2d, {s}":
                                       f"{100 * p.by_support[s]['max_abs_displacement_error']:.1f} %"
                                       for s in supports}})
    rows.append({"quantity": "w = 0.5: max |error| of force at given displacement",
                 "paper": "< 20 %", **{f"hertz2d, {s}":
                                       f"{100 * p.by_support[s]['max_abs_force_error']:.1f} %"
                                       for s in supports}})
    return rows


def verification_section(p: PenaltyOutputs) -> Section:
    base = p.base()
    section = Section("Verification of the half-round FEM", "verification-halfround")
    section.paragraph(
        "Before any penalty factor is trusted, the half-round FEM (plane strain, quadratic "
        "triangles, Hertzian traction integrated exactly on the flat) must reproduce a closed "
        "form. Johnson's Eq. 17 is the top displacement of a disc compressed between two "
        "Hertzian loads, whose mirror plane is the half-round body's base with the symmetric "
        "support; the clamped base is stiffer because it also stops the base spreading.")
    rows = []
    g = p.grid[(p.grid.study == "grid") & (p.grid.status == "ok") & (p.grid.nu == base.nu)]
    for ratio in sorted(set(g.a_over_R.round(6))):
        cases = g[g.a_over_R.round(6) == ratio].set_index("support")
        rows.append({"a/R": ratio, **{f"u_z / Eq. 17, {s}": f"{cases.loc[s, 'uz_over_eq17']:.5f}"
                                      for s in cases.index}})
    section.table(pd.DataFrame(rows),
                  f"Approach of the top under a normal Hertzian load, FEM over Eq. 17, nu = "
                  f"{base.nu:g}, mesh level {int(g.level.iloc[0])}. The symmetric base must "
                  "match Eq. 17 (within 0.5 % up to a/R = 0.1 is asserted in tests/test_halfround.py).")
    convergence = p.convergence
    rows = []
    for support, data in convergence.items():
        for level, dofs, w in zip(data["levels"], data["dofs"], data["w"]):
            rows.append({"support": support, "level": level, "DOFs": dofs, "w": f"{w:.5f}",
                         "w - w(finest)": f"{w - data['w'][-1]:+.1e}"})
    section.table(pd.DataFrame(rows),
                  f"Mesh convergence of w at the base case (a/R = {base.a_over_R:g}, nu = "
                  f"{base.nu:g}); each level halves every element size. The default level "
                  f"{convergence[p.default]['default_level']} is "
                  f"{abs(convergence[p.default]['default_minus_finest']):.1e} from the finest.")
    section.figure(p.figure("convergence"),
                   "|w - w(finest)| against DOFs at the base case for both supports: the error "
                   "falls as h^2 (slope -1 against DOFs in 2D).")
    return section


def penalty_section(p: PenaltyOutputs) -> Section:
    base = p.base()
    mine = p.by_support[p.default]
    section = Section("The penalty factor re-derived (Eqs. 20 and 33)", "penalty")
    section.paragraph(
        f"Every case is one FEM solve of the trimmed half-round body under a Hertzian tangential "
        f"traction; Eq. 20 is inverted for w from the top-centre displacement relative to the "
        f"base centre. {len(p.grid)} cases ({int((p.grid.status == 'ok').sum())} finished) cover "
        f"the paper's one-at-a-time studies and an a/R x nu grid, for both base supports. The "
        f"default support is {p.default}: its w reproduces the paper's, so the paper's COMSOL "
        f"model most likely had its base fixed.")
    section.figure(p.figure("fig7_parameters"),
                   "Analogue of the paper's Fig. 7: w against (a) body radius with a/R = 0.05 "
                   "(the body scaled), (b) a/R at R = 0.5 m, (c) Young's modulus, (d) Poisson's "
                   "ratio, (e) Poisson's ratio with E/(1 - nu^2) constant; both supports, the "
                   "paper's Eq. 33 dashed. w does not depend on R or E.")
    section.figure(p.figure("fig8_grid"),
                   "Analogue of Fig. 8: FEM w over the a/R x nu grid (points), the least-squares "
                   "refit of Eq. 33's form (solid) and the paper's Eq. 33 (dashed), per support.")
    rows = [{"term": t, "paper": EQ33_COEFFICIENTS[i],
             **{f"refit, {s}": p.by_support[s]["coefficients"][i] for s in p.by_support}}
            for i, t in enumerate(EQ33_TERMS)]
    section.table(pd.DataFrame(rows),
                  "Eq. 33 coefficients: the paper's and the least-squares refit to hertz2d's FEM, "
                  f"per support ({mine['cases']} grid cases each).")
    section.figure(p.figure("fig9_constant_w"),
                   f"Analogue of Fig. 9 ({p.default} base): relative error of Eq. 20 when the "
                   "constant w = 0.5 replaces the FEM w, in the displacement at a given force "
                   "and in the force at a given displacement; dotted lines are the paper's bounds.")
    w_paper = float(penalty_factor_eq33(base.a_over_R, base.nu))
    section.paragraph(
        f"At the paper's own set-up (R = {base.R:g} m, a = {base.a:g} m, E = {base.E:.3g} Pa, "
        f"nu = {base.nu:g}) hertz2d finds w = {base.w_fem:.4f} with the {p.default} base; the "
        f"paper's Eq. 33 gives {w_paper:.4f}.")
    return section


def disagreements(p: PenaltyOutputs) -> list[str]:
    """Where hertz2d's penalty-factor results differ from the paper's statements."""
    notes = []
    base = p.base()
    w_paper = float(penalty_factor_eq33(base.a_over_R, base.nu))
    mine = p.by_support[p.default]
    notes.append(
        f"Eq. 33 at the paper's base case gives w = {w_paper:.3f}; hertz2d's converged FEM gives "
        f"{base.w_fem:.3f} ({100 * (base.w_fem / w_paper - 1):+.1f} %). Over the whole grid the "
        f"paper's Eq. 33 misses the FEM w by {mine['rmse_vs_paper']:.3f} RMS (refit: "
        f"{mine['rmse']:.3f}); the refitted coefficients differ most in the (a/R) and (a/R)^2 "
        f"terms ({mine['coefficients'][1]:.2f} and {mine['coefficients'][3]:.2f} against "
        f"{EQ33_COEFFICIENTS[1]:g} and {EQ33_COEFFICIENTS[3]:g}). Most likely reason: the paper's COMSOL mesh and grid are not given, and a "
        f"quadratic in a/R fitted on a different set of points trades these two terms against "
        f"each other (they are strongly correlated on 0.01 <= a/R <= 0.15).")
    if "symmetric" in p.by_support:
        sym = p.by_support["symmetric"]
        notes.append(
            f"With the base as a mirror plane (symmetric support), which is the configuration of "
            f"Johnson's Eq. 17 on which the paper builds Eq. 20, w is only "
            f"{sym['w_min']:.2f}-{sym['w_max']:.2f} (mean {sym['w_mean']:.2f}), not 0.25-0.75: "
            f"the paper's w therefore absorbs the base constraint of its FEM model, and a DEM "
            f"user applying Eq. 20 to free discs inherits that choice.")
    return notes


def confined_conclusion(confined: dict) -> str:
    """Which penalty factor a DEM packing should use, with the evidence: one Markdown paragraph
    from the ``confined`` part of ``fit.json`` (:func:`hertz2d.calibration.penalty.confined.summarise`)
    of a run with both half-round supports and K = 2, 3, 4 (the shipped specs)."""
    two = confined["two_disc"]
    w, ratio = two["w"], two["kt_over_kn"]
    fits = confined["fits"]
    against = confined["packing_vs_half_round"]
    trend = confined.get("trend")
    held = [(k, v) for k, v in zip(trend["K"], trend["w"]) if k >= 3] if trend else []
    falls = (" (" + ", ".join(f"K = {k}: {v:.2f}" for k, v in held)
             + f" at a/R = {trend['a_over_R']:g}), towards the free disc's" if held else "")
    k3, k4 = ratio["confined-3"], ratio["confined-4"]
    spread = (max(k3, k4) - min(k3, k4)) / (k3 + k4)
    symmetric, clamped = against["symmetric"], against["clamped"]
    shift = fits["confined"]["w_mean"] - fits["confined"]["w_mean_axes_mean"]
    mean_axes = float(tangential_stiffness_ratio(w["confined"] - shift, two["a_over_R"],
                                                 two["nu"]))
    return (
        f"**The penalty factor of a disc in a packing.** Held by its other contacts (a whole "
        f"disc whose tangential contact force is balanced by the minimum-norm resultants at its "
        f"K - 1 other contacts, i.e. by equal isotropic contact springs), a disc has Eq. 20's "
        f"w = {w['confined-3']:.2f} for K = 3 and {w['confined-4']:.2f} for K = 4 at the two-disc "
        f"contact size (a/R = {two['a_over_R']:g}, nu = {two['nu']:g}), against "
        f"{w['clamped']:.2f} with the paper's clamped half-round base and "
        f"{w['symmetric']:.2f} with the symmetric one; a free disc whose force only its "
        f"inertia balances (K = 2) has w = {w['confined-2']:.2f}. w falls as K grows{falls}: "
        f"it is set by how the other contacts hold the disc more than by a/R and nu (one "
        f"Eq. 33 form over K = 3 and 4 explains R^2 = {fits['confined']['r2']:.2f} of the values, each K alone "
        f"{min(fits['confined-3']['r2'], fits['confined-4']['r2']):.3f}). At the coordination "
        f"numbers of 2D packings, K = 3-4, the mean w (the pooled refit, w = "
        f"{w['confined']:.2f} here) gives kt/kn = {ratio['confined']:.3f}: "
        f"{100 * (ratio['confined'] / ratio['symmetric'] - 1):+.1f} % from the symmetric base's "
        f"{ratio['symmetric']:.3f} and {100 * (ratio['confined'] / ratio['clamped'] - 1):+.0f} % "
        f"from the clamped base's {ratio['clamped']:.3f} (over the whole grid: kt "
        f"{100 * (symmetric['kt_ratio'][0] - 1):+.1f} to "
        f"{100 * (symmetric['kt_ratio'][1] - 1):+.1f} % and "
        f"{100 * (clamped['kt_ratio'][0] - 1):+.0f} to "
        f"{100 * (clamped['kt_ratio'][1] - 1):+.0f} % respectively). Of the one-body "
        f"inversions the confined w, `--penalty confined`, is the closest to a disc in a "
        f"packing (the symmetric half-round's w to within "
        f"{max(map(abs, symmetric['w_difference'])):.2f}), and the clamped base's (the paper's "
        f"Eq. 33) makes every contact too soft tangentially; K = 3 against 4 (kt/kn "
        f"{min(k3, k4):.2f}-{max(k3, k4):.2f}, +/-{100 * spread:.0f} %) is the accuracy a "
        f"per-contact law with one w can claim. But every such w rests on a convention: these "
        f"measure the flat's centre relative to the centre node and the disc's mean rotation, "
        f"as Eqs. 17 and 20 do; relative to the disc's mean axes (the position and rotation "
        f"whose rates carry its momentum, which a DEM integrates) every w is lower, by "
        f"{shift:.2f} on average for K = 3-4, which would raise kt/kn here to {mean_axes:.2f}. "
        f"The calibrated law (section "
        f"'A law calibrated on the contact FEM') fits w on the two-body FEM's forces against "
        f"the prescribed displacements, where no reference point is chosen: that, not the "
        f"confined w, is what a DEM packing should use.")


def confined_section(p: PenaltyOutputs) -> Section | None:
    """The disc held by K contacts (``penalty/confined.csv``), or None if the run has none."""
    confined = p.record.confined
    if confined is None:
        return None
    section = Section("The penalty factor of a confined disc", "confined")
    section.paragraph(
        "A disc in a packing is neither clamped nor mirrored: it is held by its other contacts. "
        "A whole disc with K equally spaced flats carries the same Hertzian normal traction on "
        "every flat and a Hertzian tangential traction at the top one, balanced in force and "
        "moment by Hertzian tractions at the other contacts (K >= 3, the minimum-norm "
        "resultants) or, at K = 2, where the opposite contact cannot balance both, by the "
        "inertia force of the free disc. The disc's rigid motion is the centre node's "
        "translation plus its area-averaged rotation; Eq. 20 is inverted with the top flat's "
        "tangential displacement relative to it.")
    v = confined["verification"]
    mirror = v["mirror_vs_symmetric"]
    rows = [{"check": "K = 2, normal load: |approach / Eq. 17 - 1|, a/R <= 0.1",
             "value": f"{v['eq17_k2_max_abs_error']:.1e}"},
            {"check": "K = 2 mirrored against the symmetric half-round: max |w difference|",
             "value": f"{mirror['max_abs_w_difference']:.1e} ({mirror['cases']} cases)"
             if mirror else "-"},
            {"check": "largest constraint reaction per unit load",
             "value": f"{v['max_reaction']:.1e}"},
            {"check": "largest load resultant (force, moment / R) per unit load",
             "value": f"{v['max_imbalance']:.1e}"}]
    for support, data in confined["convergence"].items():
        rows.append({"check": f"{support}: w at levels {listed(data['levels'])}",
                     "value": ", ".join(f"{x:.4f}" for x in data["w"])})
    section.table(pd.DataFrame(rows), "Verification of the confined disc.")
    rows = [{"support": s, "w min": f"{f['w_min']:.3f}", "w max": f"{f['w_max']:.3f}",
             "w mean": f"{f['w_mean']:.3f}", "refit R^2": f"{f['r2']:.3f}",
             "kt/kn at the two-disc contact": f"{confined['two_disc']['kt_over_kn'][s]:.3f}"}
            for s, f in {**p.by_support, **confined["fits"]}.items()]
    section.table(pd.DataFrame(rows),
                  "w over the a/R x nu grid per support (confined-2 is the free disc, "
                  "'confined' pools K = 3 and 4) and kt/kn of two equal discs (Eqs. 29, 31) at "
                  f"a/R = {confined['two_disc']['a_over_R']:g}, nu = "
                  f"{confined['two_disc']['nu']:g} from each refit.")
    section.figure(p.figure("confined_w"),
                   "w against a/R for the disc held by K contacts, the free disc and the "
                   "mirrored check, next to the half-round supports.")
    needed = {"confined", "confined-2", "confined-3", "confined-4", "clamped", "symmetric"}
    if needed <= set(confined["two_disc"]["w"]):
        section.paragraph(confined_conclusion(confined))
    return section
