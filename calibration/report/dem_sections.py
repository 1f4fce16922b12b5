"""Report section from the DEM stage (``<results>/dem/biaxial/``, ``hertz2d dem biaxial``).

The biaxial test of Section 4.3 with every law: the paper's statements against hertz2d's runs,
the laws and penalty choices compared over several packings (mean, spread, which differences
exceed the packings' scatter), Figs. 16-18, the packing's starting state, the damping and
time-step study, the energy balance and the analyses of the contacts and the motion. A results
root without the stage's comparison gets no section.
"""
from __future__ import annotations

import pandas as pd

from hertz2d.calibration.biaxial.outputs import BiaxialOutputs
from hertz2d.calibration.report.document import Section, listed

MPA = 1e-6


def _mean_spread(row, scale: float, digits: int = 1) -> str:
    if row is None:
        return "-"
    if pd.isna(row["std"]):
        return f"{row['mean'] * scale:.{digits}f} (n = {int(row['n'])})"
    return f"{row['mean'] * scale:.{digits}f} +- {row['std'] * scale:.{digits}f}"


def comparison_table(b: BiaxialOutputs) -> pd.DataFrame:
    """Per law: peak and residual deviator (MPa) and volumetric strain (%), mean +- standard
    deviation over the packings, and the largest energy-balance error."""
    runs = b.ok_runs()
    rows = []
    for key, law in b.laws.items():
        mine = runs[runs.law == key]
        rows.append({"law": law["label"], "from": law["source"],
                     "peak deviator (MPa)": _mean_spread(b.value(key, "peak_deviator"), MPA),
                     "residual deviator (MPa)": _mean_spread(b.value(key, "residual_deviator"),
                                                             MPA),
                     "volumetric strain (%)": _mean_spread(b.value(key, "volumetric_strain"),
                                                           100.0, 2),
                     "axial strain at peak (%)": (f"{100 * mine.axial_strain_at_peak.mean():.1f}"
                                                  if len(mine) else "-"),
                     "packings": len(mine),
                     "energy balance error (max)": (f"{mine.energy_balance_error.max():.1e}"
                                                    if len(mine) else "-")})
    return pd.DataFrame(rows)


def difference_rows(table: pd.DataFrame, names) -> pd.DataFrame:
    scale = {"peak_deviator": (MPA, "MPa"), "residual_deviator": (MPA, "MPa"),
             "volumetric_strain": (100.0, "%")}
    rows = []
    for row in table.itertuples():
        factor, unit = scale[row.quantity]
        exceeds = row.exceeds_scatter
        rows.append({"against": names(row.b),
                     "quantity": f"{row.quantity.replace('_', ' ')} ({unit})",
                     "difference": f"{row.difference * factor:+.2f}",
                     "standard error": ("-" if pd.isna(row.standard_error)
                                        else f"{row.standard_error * factor:.2f}"),
                     "exceeds scatter": ("-" if pd.isna(exceeds) else
                                         ("yes" if str(exceeds) == "True" else "no")),
                     "paired p": "-" if pd.isna(row.paired_p) else f"{row.paired_p:.3f}"})
    return pd.DataFrame(rows)


def paper_rows(b: BiaxialOutputs) -> list[dict]:
    """The paper's statements on its biaxial test (Section 4.3) against hertz2d's runs."""
    def mean(key, quantity):
        row = b.value(key, quantity)
        return None if row is None else float(row["mean"])

    rows = []
    hertzian, linear = b.reference, "linear-paper"
    if linear in b.laws:
        r_h, r_l = mean(hertzian, "residual_deviator"), mean(linear, "residual_deviator")
        v_h, v_l = mean(hertzian, "volumetric_strain"), mean(linear, "volumetric_strain")
        rows.append({"statement": "residual strength: linear spring slightly smaller than the "
                                  "Hertzian model", "paper": "yes",
                     "hertz2d": f"{r_l * MPA:.0f} against {r_h * MPA:.0f} MPa; "
                                + _verdict(b, hertzian, linear, "residual_deviator", +1)})
        rows.append({"statement": "the Hertzian packing keeps a larger volume (smaller "
                                  "volumetric strain) after compression", "paper": "yes",
                     "hertz2d": f"volumetric strain {100 * v_h:.2f} % (Hertzian) against "
                                f"{100 * v_l:.2f} % (linear); "
                                + _verdict(b, hertzian, linear, "volumetric_strain", -1)})
    for key in (hertzian, linear):
        if key not in b.laws:
            continue
        series = b.series(key)
        compression = series[series.stage != "settle"]
        start = compression[compression.stage == "isotropic"].mean_kn.dropna()
        growth = compression.mean_kn.iloc[-1] / start.iloc[0] if len(start) else float("nan")
        rows.append({"statement": f"mean kn grows with compression ({b.label(key)})",
                     "paper": "yes (Hertzian), constant (linear)",
                     "hertz2d": f"x {growth:.2f} from the start of the isotropic stage to the "
                                "end"})
    return rows


def _verdict(b: BiaxialOutputs, a: str, other: str, quantity: str, sign: int) -> str:
    """Whether the paper's ordering (mean of ``a`` minus mean of ``other`` has ``sign``) holds
    beyond the packings' scatter (the comparison's screening and paired test)."""
    rows = b.differences[(b.differences.a == a) & (b.differences.b == other)
                         & (b.differences.quantity == quantity)]
    if not len(rows):
        return "not compared"
    row = rows.iloc[0]
    same = row.difference * sign > 0
    if str(row.exceeds_scatter) == "True":
        return ("reproduced" if same else "the opposite") + f", beyond the scatter (paired p = " \
            f"{row.paired_p:.2g})"
    return (f"{'same' if same else 'opposite'} ordering, within the packings' scatter (paired "
            f"p = {row.paired_p:.2g}): not resolved by {int(b.value(a, quantity)['n'])} packings")


def _overlap_paragraph(b: BiaxialOutputs) -> str | None:
    """A note on laws whose packing overlaps beyond any contact law's range (solid fraction,
    disc area over box area with overlaps counted twice, above 1)."""
    dense = [state for state in b.starting_state
             if state["isotropic_solid_fraction"] > 1.0]
    if not dense:
        return None
    names = ", ".join(f"{b.label(state['law'])} ({state['isotropic_solid_fraction']:.2f})"
                      for state in dense)
    return (f"**Overlaps beyond the law's range.** Under the isotropic stress the solid "
            f"fraction (disc area over the box's, overlaps counted twice) exceeds 1 for {names}: "
            f"its discs overlap by far more than the small-strain contact any law describes, "
            f"because a sphere's force read as N/m is that much softer than a disc's. Its "
            f"strength and volume changes are those of an unphysical packing, not a verdict on "
            f"the material; the comparison keeps it to show what the N/m reading does.")


def _energy_paragraph(b: BiaxialOutputs) -> str:
    runs = b.runs[b.runs.failure.isna()]
    worst = runs.loc[runs.energy_balance_error.idxmax()]
    return (f"**Energy balance.** Every run's ledger (work of the walls and gravity = kinetic + "
            f"elastic + dashpots + local damping + slip + the energy of kt changes, over the "
            f"whole schedule) closes within {runs.energy_balance_error.max():.1e} of the work "
            f"put in (the largest: {worst.label}, {worst.damping}, packing {worst.seed}); "
            f"the stage asks 1 %. Each law's `energies.png` shows the terms over time.")


def _state_table(b: BiaxialOutputs) -> pd.DataFrame:
    rows = []
    for state in b.starting_state:
        rows.append({"law": b.label(state["law"]),
                     "KE/U, end of settling": f"{state['settled_kinetic_over_elastic']:.2g}",
                     "bed height (m)": f"{state['settled_bed_height']:.3f}",
                     "solid fraction, settled": f"{state['settled_solid_fraction']:.3f}",
                     "coordination, settled": f"{state['settled_coordination']:.2f}",
                     "solid fraction, isotropic": f"{state['isotropic_solid_fraction']:.3f}",
                     "coordination, isotropic": f"{state['isotropic_coordination']:.2f}"})
    return pd.DataFrame(rows)


def _damping_table(b: BiaxialOutputs) -> pd.DataFrame:
    d = b.damping
    rows = []
    for damping in dict.fromkeys(d.damping):
        mine = d[d.damping == damping].set_index("quantity")
        first = mine.iloc[0]
        rows.append({"damping": damping,
                     "KE/U, end of settling (mean, max)":
                         f"{first.settled_kinetic_over_elastic:.2g}, "
                         f"{first.settled_kinetic_over_elastic_max:.2g}",
                     "bed height (m)": f"{first.settled_bed_height:.3f}",
                     "peak deviator (MPa)": _mean_spread(mine.loc["peak_deviator"], MPA),
                     "residual deviator (MPa)": _mean_spread(mine.loc["residual_deviator"], MPA),
                     "volumetric strain (%)": _mean_spread(mine.loc["volumetric_strain"], 100.0,
                                                           2)})
    return pd.DataFrame(rows)


def biaxial_section(b: BiaxialOutputs | None) -> Section | None:
    """The DEM section, or None when the results root has no biaxial comparison."""
    if b is None:
        return None
    s = b.settings
    section = Section("The biaxial test in hertz2d's DEM (Section 4.3)", "biaxial")
    kind = ("a QUICK run (a smaller sample, a shortened schedule): it shows the stage runs, its "
            "numbers are not the paper's test" if b.quick else "the paper's schedule")
    section.paragraph(
        f"{kind[0].upper() + kind[1:]}: {s['discs']} discs of {s['d_min']:g}-{s['d_max']:g} m "
        f"placed at random in a {s['width']:g} x {s['height']:g} m box, rho {s['density']:g} "
        f"kg/m^3, E {s['E']:.3g} Pa, nu {s['nu']:g}, mu {s['mu']:g}, dt {s['dt']:g} s; "
        f"settling under gravity {s['settle']:g} s, the top wall placed on the packing, "
        f"isotropic servo to {s['stress'] * MPA:g} MPa for {s['isotropic']:g} s, then the top "
        f"wall down at {s['shear_speed']:g} m/s for {s['shear']:g} s with the side walls on the "
        f"servo. Damping: {b.paper_damping} (PFC's local damping: the reading of the paper's "
        f"'contact damping 0.7' taken, see the damping study below). Every law runs on the "
        f"same {len(b.seeds)} packings (seeds {listed(b.seeds)}); walls are "
        f"rigid and frictional, by the mirror rule of Section 3.2. Laws and where each comes "
        f"from are in the table; the simplified law is read from the exported law.json when it "
        f"exists.")
    for note in b.notes:
        section.paragraph(f"Not run: {note}.")
    section.table(pd.DataFrame(paper_rows(b)),
                  "The paper's statements on its biaxial test (Section 4.3) against hertz2d's "
                  f"runs (means over the packings; Hertzian: {b.label(b.reference)}).")
    section.table(comparison_table(b),
                  "Every law on the same packings: mean +- standard deviation over the packings "
                  "of the peak deviator (axial minus lateral wall stress) in the shear stage, "
                  "the residual deviator (mean over its last quarter) and the volumetric strain "
                  "at its end (compression > 0), strains from the start of the shear stage.")
    names = b.label
    reference = b.differences[b.differences.a == b.reference]
    section.table(difference_rows(reference, names),
                  f"Differences from the reference law ({b.label(b.reference)}) and whether "
                  "each exceeds the packings' scatter (|difference| > 2 standard errors of the "
                  "difference of the means; with a few packings a screening, the paired t-test "
                  "over the same packings beside it). Every pair: differences.csv.")
    section.figure(b.figure("deviator"),
                   "Deviator stress and volumetric strain against axial strain in the shear "
                   "stage: mean over the packings (line) and their range (band).")
    section.figure(b.figure("fig16_snapshots"),
                   "Analogue of Fig. 16: the first packing at the start of settling, the end "
                   "of the isotropic stage and the end of the shear stage, discs coloured by "
                   "diameter, for every law (ParaView series and animation per law in "
                   "dem/biaxial/<law>/).")
    section.figure(b.figure("fig17_comparison"),
                   "Analogue of Fig. 17 (first packing): (a) kinetic over contact potential "
                   "energy while settling, (b) axial and lateral wall stresses, (c) mean kn "
                   "(Eq. 29 for the paper's law) and kt (Eq. 31) over every contact.")
    section.figure(b.figure("fig18_volume"),
                   "Analogue of Fig. 18: the box's volume (area per unit thickness) during "
                   "compression (first packing).")
    section.paragraph(
        "**What the packing starts from.** The paper lets the discs settle for its 5 s and "
        "places the top wall on the packing. With local damping 0.7 the discs fall at 0.3 g "
        "(local damping acts on gravity too) and the bed is still moving then; the table gives "
        "the state at the end of settling (kinetic over contact potential energy averaged over "
        "the last tenth of the settling) and after the isotropic stage.")
    section.table(_state_table(b), "The packing's state at the end of settling and at the end "
                                   "of the isotropic stage (means over the packings).")
    overlaps = _overlap_paragraph(b)
    if overlaps:
        section.paragraph(overlaps)
    study = b.damping_study
    section.paragraph(
        f"**Damping and time step.** The paper's 'contact damping is 0.7' is read as local "
        f"damping alpha = 0.7 (PFC's default; a viscous damping ratio of 0.7 would make every "
        f"collision nearly plastic). The reference law ({b.label(study['law'])}) is also run "
        f"with local damping 0.3, viscous damping ratios 0.7 and 0.3, and with the paper's "
        f"damping at half the time step, on packings {listed(study['seeds'])}. A damping ratio "
        f"of 0.7 needs dt = 5e-6 s: at the paper's 1e-5 s the dashpots of the stiffest wall "
        f"contacts under 0.1 GPa are near the explicit scheme's stability limit (the energy "
        f"ledger then misses about 10 % and the servo its target by 3 %).")
    section.table(_damping_table(b), "Damping and time-step study on the reference law: the "
                                     "settled state and the headline numbers (mean +- std).")
    pairs = pd.DataFrame(study["differences"])
    if len(pairs):
        paper = pairs[pairs.a == b.paper_damping]
        section.table(difference_rows(paper, str),
                      f"Differences from the paper's damping ({b.paper_damping}, dt "
                      f"{s['dt']:g} s) and whether they exceed the packings' scatter.")
    section.figure(b.figure("damping"),
                   "Damping and time-step study: (a) settling, (b) deviator and (c) "
                   "volumetric strain against axial strain (means over the packings).")
    section.paragraph(_energy_paragraph(b))
    section.paragraph(
        "**The contacts and the motion** (the analyses of DEM comparisons of contact laws): "
        "the kinetic energy of the discs that touch something, overlaps, the mobilised "
        "friction and normal-force distributions, and velocity profiles against the "
        "homogeneous deformation between the walls (first packing of each law).")
    section.figure(b.figure("contacting_kinetic"),
                   "Kinetic energy of the discs in contact and the largest overlap over time "
                   "(dotted: the stages' starts).")
    section.figure(b.figure("overlaps"),
                   "Distribution of the overlaps (over R1 + R2) at the end of the isotropic and "
                   "of the shear stage.")
    section.figure(b.figure("tangential_forces"),
                   "Mobilised friction |T|/(mu N) (1: sliding) at the end of the isotropic and "
                   "of the shear stage, and normal forces over their mean at the end.")
    section.figure(b.figure("velocity_profiles"),
                   "Velocity profiles of the shear stage (averaged over it) over the top wall's "
                   "speed; dashed: the homogeneous deformation between the walls.")
    return section
