"""Report section from the calibrated law's stage (``<results>/calibrated/``, ``hertz2d
calibrate``) and the map's run of it (``<results>/map/``): "A law calibrated on the contact FEM".

What the law is, term by term; how it was fitted; its targets on the training contacts (the map)
and on the held-out ones beside the paper's laws; where it still fails and the FEM's evidence why
(the Dundurs coupling: the held-out paths by ``|beta|``, the first against the last cycle); the
convergence of the held-out numbers on a finer mesh; the biaxial test rerun with it (does it move
a macroscopic number beyond the packings' scatter?). A results root without the stage gets no
section.
"""
from __future__ import annotations

import pandas as pd

from hertz2d.calibration.biaxial.outputs import BiaxialOutputs
from hertz2d.calibration.calibrate.judgement import NORMAL_SHARE, NORMAL_SHARE_LABELS
from hertz2d.calibration.calibrate.masing import FIRST, LARGEST, masing_by_band
from hertz2d.calibration.calibrate.objective import PATH_NORM
from hertz2d.calibration.calibrate.outputs import CalibratedOutputs
from hertz2d.calibration.calibrate.targets import ENERGY_LIMIT, law_targets, met
from hertz2d.calibration.report.dem_sections import difference_rows
from hertz2d.calibration.report.document import Section
from hertz2d.calibration.validation.map.errors import ENERGY
from hertz2d.calibration.validation.map.spec import DEFAULT_VARIANT


def _percent(value: float) -> str:
    """A share or an error in per cent: whole numbers, one decimal below 1 %."""
    if pd.isna(value):
        return "-"
    return f"{100 * value:.1f} %" if abs(value) < 0.01 else f"{100 * value:.0f} %"


def _energy_normal(section: Section, bands: pd.DataFrame) -> None:
    """The held-out cycles by the share of the FEM's energy its normal loop dissipates
    (``energy_normal.csv``): a table, and what it says."""
    shown = bands.copy()
    for column in ("energy within 10 %", "median signed energy error",
                   "tangential loop within 10 %", "median signed tangential-loop error"):
        if column in shown:
            shown[column] = shown[column].map(_percent)
    shown["median |beta|"] = shown["median |beta|"].round(2)
    section.table(shown, "Where the energy misses fall: the held-out cycles by the share of "
                  "the FEM's energy per cycle that its normal loop (the closed integral of Fz "
                  "d(delta_n)) dissipates, the share of them within 10 % of the FEM's energy, "
                  "the median signed error (negative: the law dissipates less), the same two of "
                  "the tangential loop alone (the law's closed integral of Fx d(delta_t) less "
                  "the FEM's, over the FEM's energy per cycle) and the median |beta|.")
    first = bands[NORMAL_SHARE] == NORMAL_SHARE_LABELS[0]
    if not first.any() or first.all():
        return
    closed, opened = bands[first].iloc[0], bands[~first]
    misses = (1.0 - bands["energy within 10 %"]) * bands.cycles
    within = (opened["energy within 10 %"] * opened.cycles).sum() / opened.cycles.sum()
    section.paragraph(
        f"(4) The FEM dissipates in its normal loop too where beta != 0 and the approach swings "
        f"(coupled cycles, random walks, stick cycles with a swinging approach): slip under the "
        f"changing normal load (Spence's problem), which a cycle at a held approach and every "
        f"cycle between bodies of one material lack. Where that loop takes "
        f"{closed[NORMAL_SHARE]} of the FEM's energy ({int(closed.cycles)} cycles) the law's "
        f"energy per cycle is within 10 % on {_percent(closed['energy within 10 %'])} of them; "
        f"where it takes more ({int(opened.cycles.sum())} cycles) on {_percent(within)}, and "
        f"the law dissipates less (median signed error "
        f"{_percent(opened['median signed energy error'].iloc[-1])} where it takes "
        f"{opened[NORMAL_SHARE].iloc[-1]}): {misses[~first].sum():.0f} of the "
        f"{misses.sum():.0f} cycles outside 10 % are there. The law dissipates only through "
        f"slip at the tangential bound; its normal force is its potential's derivative plus "
        f"the tangential state's coupling term, which moves stored energy between the two "
        f"loops but dissipates none. A loss under a swinging approach at small tangential load "
        f"is outside its form.")
    if "tangential loop within 10 %" in bands:
        loop_within = ((opened["tangential loop within 10 %"] * opened.cycles).sum()
                       / opened.cycles.sum())
        section.paragraph(
            f"The tangential loop alone, the one the law's slip dissipates in, is within 10 % of "
            f"the FEM's (over the FEM's energy per cycle) on "
            f"{_percent(closed['tangential loop within 10 %'])} of the cycles where the normal "
            f"loop takes {closed[NORMAL_SHARE]}, and on {_percent(loop_within)} where it takes "
            f"more (median signed error "
            f"{_percent(opened['median signed tangential-loop error'].iloc[0])} where it takes "
            f"{opened[NORMAL_SHARE].iloc[0]}, "
            f"{_percent(opened['median signed tangential-loop error'].iloc[-1])} where it "
            f"takes {opened[NORMAL_SHARE].iloc[-1]}). The law's rim slips extra on fresh area "
            f"only; an extra slip each time the rim swept a band (coefficients of format 5) "
            f"made the fit's tangential loop carry the normal loop's energy, above the FEM's "
            f"where the normal loop takes more than 10 %.")


def _targets_table(targets: pd.DataFrame, laws: list[str]) -> pd.DataFrame:
    rows = targets[targets.law.isin(laws)].copy()
    for column in ("force < 5 %", "force < 10 %", "floor: force < 5 %", "floor: force < 10 %",
                   "stiffness within 10 %", "energy within 10 %"):
        if column in rows:
            rows[column] = rows[column].map(_percent)
    for column in ("largest force error", "median force error", "floor: largest force error",
                   "median energy error"):
        if column in rows:
            rows[column] = rows[column].map(lambda v: "-" if pd.isna(v) else f"{100 * v:.1f} %")
    return rows


def _domain_table(domain: pd.DataFrame) -> pd.DataFrame:
    """domain.csv with its shares and errors in per cent and whether every target is met."""
    rows = _targets_table(domain.assign(law="calibrated"), ["calibrated"]).drop(columns="law")
    rows["every target met"] = ["yes" if all(met(row).values()) else "no"
                                for _, row in domain.iterrows()]
    return rows


def _energy_table(energy: pd.DataFrame) -> pd.DataFrame:
    """energy.csv with its shares and errors in per cent."""
    rows = energy.copy()
    for column in ("energy within 10 %", "median energy error", "largest energy error"):
        rows[column] = rows[column].map(_percent)
    rows["target met"] = rows["target met"].map(lambda ok: "yes" if ok else "no")
    return rows


def _training(c: CalibratedOutputs) -> pd.DataFrame | None:
    """The targets on the training contacts (the map's default runs on symmetric flats)."""
    if c.map_errors is None:
        return None
    errors = c.map_errors[(c.map_errors.support == "symmetric")
                          & (c.map_errors.variant == DEFAULT_VARIANT)]
    return law_targets(errors)


def _coefficients(c: CalibratedOutputs) -> pd.DataFrame:
    meaning = {
        "penalty": "w(x, nu) of Eq. 33's form (1, x, nu, x^2, x nu, nu^2), x = a/R_i: the "
                   "bodies' compliance under a Hertzian tangential traction",
        "coupling_width": "b1 of the share phi = b^2/(b^2 + b1^2), b = |beta|/mu: how much of "
                          "a dissimilar contact slips under normal load",
        "bracket": "B of the pair, the first loading's and every branch's: + phi (v0 + v1 "
                   "|beta|) + v2 beta^2 + v3 [wall]",
        "stick": "s of the stick-zone weight kappa = 0.05 + (k - 0.05) exp(-s beta^2), k its "
                 "ceiling: how much straighter than a half-plane's the branches of a dissimilar "
                 "contact or a wall are",
        "first_slip": "c_f, c_a: the extra slip, c phi of the displacement, of a front first "
                      "crossing the area laid under normal load and (times |T|/(mu N)) of the "
                      "band the rim sweeps as the contact grows or shrinks: Spence's locked-in "
                      "shear, released through slip"}
    return pd.DataFrame([{"group": name, "coefficients": ", ".join(f"{v:.4g}" for v in values),
                          "what it stands for": meaning.get(name, "")}
                         for name, values in c.record.coefficients.as_dict().items()])


def _heldout_convergence(c: CalibratedOutputs) -> str:
    checks = pd.DataFrame(c.heldout.convergence)
    if checks.empty:
        return "The held-out map has no convergence check."
    mine = checks[checks.law == c.label]
    if mine.empty:
        return "The held-out map's convergence check does not include the calibrated law."
    row = mine.iloc[0]
    flips = [f"{int(row[col])} at {col.rsplit(' ', 2)[-2]} %" for col in mine.columns
             if col.startswith("verdicts")]
    return (f"On the held-out contacts one mesh level finer ({row.variant}), the calibrated "
            f"law's force error moves by at most {100 * row['force error change']:.2f} points "
            f"over {int(row.cases)} paths; verdicts that change: {', '.join(flips)}."
            + _energy_convergence(c, row.variant))


def _energy_convergence(c: CalibratedOutputs, variant: str) -> str:
    """How the energy per cycle's error (relative to the FEM's) of the held-out cycles the finer
    check ran moves with the mesh, and the energy target's verdicts that change ('' when the
    check ran no cycle)."""
    errors = c.heldout.errors
    energy = errors[(errors.law == c.label) & (errors.quantity == ENERGY)]
    by_case = energy.pivot_table(index="case", columns="variant", values="max_rel_error")
    if variant not in by_case or DEFAULT_VARIANT not in by_case:
        return ""
    pair = by_case[[DEFAULT_VARIANT, variant]].dropna()
    if pair.empty:
        return ""
    change = (pair[variant] - pair[DEFAULT_VARIANT]).abs()
    flips = int(((pair[variant] < ENERGY_LIMIT) != (pair[DEFAULT_VARIANT] < ENERGY_LIMIT)).sum())
    return (f" Its energy per cycle's error (relative to the FEM's energy per cycle) on the "
            f"{len(pair)} cycles the finer check ran moves by a median "
            f"{100 * change.median():.2f} and at most {100 * change.max():.2f} points; within "
            f"10 % on {_percent((pair[DEFAULT_VARIANT] < ENERGY_LIMIT).mean())} of them at the "
            f"default level and {_percent((pair[variant] < ENERGY_LIMIT).mean())} at "
            f"{variant} ({flips} verdict(s) change)"
            + (": the energy misses are not the FEM's mesh." if change.max() < ENERGY_LIMIT / 2
               else "."))


def _band_share(band: pd.DataFrame, label) -> float:
    within = [col for col in band.columns if col.startswith("force <")][0]
    mine = band[band["|beta|"] == label]
    return (mine[within] * mine.paths).sum() / mine.paths.sum() if len(mine) else float("nan")


def _failures(c: CalibratedOutputs) -> str:
    band = c.by_coupling
    weakest, strongest = band["|beta|"].iloc[0], band["|beta|"].iloc[-1]
    cycles = c.cycles
    drops = cycles[cycles.beta > 0.2]["last / first"]
    same = cycles[(cycles.beta == 0) & (cycles.path == "cycle")]["last / first"]
    held = cycles[cycles.path == "cycle"]
    coupled_swing = held[held.beta > 0.3]["N swing / N"]
    one_swing = held[held.beta == 0]["N swing / N"]
    return (
        f"Where it still fails, and why. On held-out contacts with |beta| in {weakest} "
        f"{_percent(_band_share(band, weakest))} of the paths have an amplitude-relative force "
        f"error under 5 %; "
        f"with |beta| in {strongest} (a disc on a rigid wall with nu below about 0.3, or a much "
        f"stiffer counterpart) {_percent(_band_share(band, strongest))}. The FEM shows what the "
        f"law leaves out there. (1) The coupling of the normal and tangential problems: with "
        f"beta != 0 friction locks shear into the contact under normal load (the 'law's "
        f"domain' section measures the stick zone it leaves against the coupled half-plane "
        f"model), the first loading starts from that state and the first cycle releases it: on "
        f"the training contacts the FEM's last cycle dissipates {drops.min():.2f}-"
        f"{drops.max():.2f} times its first where |beta| > 0.2, against {same.min():.3f}-"
        f"{same.max():.3f} for bodies of one material (cycles.csv; the energy per cycle is "
        f"therefore judged on the last cycle of a two-cycle path). (2) The normal force itself "
        f"moves with the tangential load when beta != 0: on the training cycles at a held "
        f"delta_n it swings by up to {_percent(coupled_swing.max())} of its mean where |beta| "
        f"> 0.3, against {_percent(one_swing.max())} for bodies of one material (cycles.csv)"
        f"{_law_swing(held)}. The law's one curve per pair, with coefficients in |beta|, "
        f"beta^2 and |beta|/mu (its stick-zone weight among them: the FEM's branches there are "
        f"straighter than a half-plane's), and its extra slip where a front first crosses the "
        f"area laid under normal load or the rim sweeps a band as the contact grows or "
        f"shrinks (the locked-in shear released through slip), carries the average of these "
        f"effects; the spread around it is the failure the tables show.")


#: floor_misses.csv's shares of paths under the two thresholds
UNDER_5, UNDER_10 = "floor: Fx < 5 %", "floor: Fx < 10 %"
#: the bands of weak coupling the report explains the floor metric's misses on
WEAK_BANDS = ("0 (one material)", "(0, 0.1]")


def _floor_misses(section: Section, misses: pd.DataFrame) -> None:
    """Where the floor metric's misses fall on the training paths (``floor_misses.csv``): a
    table, and what it says for the contacts of weak coupling."""
    rows = misses.copy()
    for column in rows.columns[2:]:
        if column != "misses":
            rows[column] = rows[column].map(_percent)
    section.table(rows, "Where the floor metric's misses fall, on the training paths (the "
                  "horizontal force Fx, with the fitted coefficients): per band of |beta| the "
                  "share of paths whose floor error (every judged step against max(|FEM|, 0.2 "
                  "max |FEM|)) stays under 5 % and 10 %; of the paths over 5 % (the misses) the "
                  "share whose largest floor error falls where the FEM's |Fx| is below 0.2 of "
                  "its largest (a force passing through zero, measured against the floor), the "
                  "share whose amplitude-relative error stays under 5 % on the whole path, and "
                  "the median amplitude-relative error at the worst step.")
    weak = misses[misses["|beta|"].astype(str).isin(WEAK_BANDS) & (misses.misses > 0)]
    if weak.empty:
        return

    def each(column: str, digits: int = 0) -> str:
        return " and ".join("-" if pd.isna(value) else f"{100 * value:.{digits}f} %"
                            for value in weak[column])

    section.paragraph(
        f"Why the floor metric misses where the amplitude-relative one holds. On the training "
        f"paths with |beta| {' and '.join(str(band) for band in weak['|beta|'])} the floor "
        f"metric's shares under 5 % are {each(UNDER_5)}, under 10 % {each(UNDER_10)}. Of their "
        f"misses, {each('misses where |FEM| < floor')} have their largest floor error where the "
        f"FEM's Fx passes through zero, and {each('misses with amplitude-relative < 5 %')} stay "
        f"under 5 % by the amplitude-relative metric. There the floor, 0.2 of the largest "
        f"force, is the reference, so an error of a median "
        f"{each('median amplitude-relative at the worst step', 1)} of the amplitude counts "
        f"five times: {_percent(0.2 * 0.05)} of the amplitude is the "
        f"5 % floor error. At constant N the law's unloading branch is its first-loading curve "
        f"doubled (Masing's rule, which the law obeys by construction, and the FEM of bodies of "
        f"one material by Cattaneo and Mindlin's superposition), so it crosses zero where its "
        f"doubled first loading reaches the peak force: the first-loading curve's error at half "
        f"the peak force counts twice there, and the floor target asks for that curve within "
        f"about half a per cent of the amplitude.")


def _masing(section: Section, defects: pd.DataFrame) -> None:
    """The FEM's cycles against Masing's rule (``masing.csv``,
    :mod:`hertz2d.calibration.calibrate.masing`): a table per band of |beta|, and what it says."""
    bands = masing_by_band(defects)
    if bands.empty:
        return
    shown = bands.copy()
    for column in shown.columns:
        if column.endswith(("median", "largest")):
            shown[column] = shown[column].map(_percent)
    section.table(shown, "The FEM's own cycles against Masing's rule (no law involved; the "
                  "training contacts' cycles at a held delta_n below the slip onset): the first "
                  "unloading branch against the first loading doubled, and the last unloading "
                  "branch of a contact's smaller loops against its largest loop's branch "
                  "doubled; the largest difference over the branch relative to the path's "
                  "largest |Fx| (the amplitude-relative measure).")
    one, strong = bands.iloc[0], bands.iloc[-1]
    section.paragraph(
        f"(3) Masing's rule, on the FEM's own cycles (masing.csv). For bodies of one material "
        f"the first unloading branch is the first loading doubled within a median "
        f"{_percent(one[FIRST + ': median'])} of the amplitude (largest "
        f"{_percent(one[FIRST + ': largest'])}), as Cattaneo and Mindlin's superposition has "
        f"it; with |beta| in {strong['|beta|']} it is not: a median "
        f"{_percent(strong[FIRST + ': median'])}, largest "
        f"{_percent(strong[FIRST + ': largest'])}. "
        f"Yet there the branches of a contact's smaller loops are its largest loop's branch "
        f"doubled within a median {_percent(strong[LARGEST + ': median'])} (largest "
        f"{_percent(strong[LARGEST + ': largest'])}): after the first reversal the FEM's "
        f"contact follows Masing's rule on another virgin curve than its first loading, a "
        f"stiffer one. This law keeps one curve for every branch (so that stick stays elastic "
        f"at any friction) and makes its first loading softer through slip only: a front "
        f"crossing the area laid under normal load slips by an extra share of its displacement "
        f"(the locked-in shear released), which vanishes as mu grows; what is left of the "
        f"difference is in the tables above.")


def _law_swing(held: pd.DataFrame) -> str:
    """The calibrated law's normal-force swing on the FEM's cycle paths where the coupling is
    strong, beside the FEM's (nothing where the cycle table predates the law's column)."""
    if "law N swing / N" not in held.columns:
        return ""
    strong = held[held.beta > 0.3]
    ratio = (strong["law N swing / N"] / strong["N swing / N"]).median()
    return (f"; the law's N carries the tangential state only through its stored energy's "
            f"coupling term, which is even in T, and on those paths "
            f"swings by a median {ratio:.2g} times the FEM's (largest "
            f"{_percent(strong['law N swing / N'].max())} of its mean; the column 'law N swing "
            f"/ N')")


def _admissible(section: Section, c: CalibratedOutputs) -> None:
    """The calibrated law's row of the map's closed-loop table."""
    table = c.admissibility
    mine = table[table.law_name == "calibrated"] if table is not None else table
    if mine is None or mine.empty:
        return
    row = mine.iloc[0]
    section.paragraph(
        f"Admissible by construction, and tested: around {int(row['loops'])} random closed "
        f"loops with the approach varying (the map section's admissibility table, every law on "
        f"the same loops) the calibrated law has {int(row['loops with W < 0'])} loop(s) with "
        f"negative net work; its least W is {row['worst W']:.2g} mu N_max A. At constant N in "
        f"stick T returns to its start within {row['stick return']:.2g} of its largest value "
        f"(tests/test_admissibility.py holds every law of the catalogue to the same properties "
        f"on random loops).")


def _biaxial(section: Section, b: BiaxialOutputs | None, law: str) -> None:
    """The biaxial comparison's pairs with the calibrated law, as calibrated minus the other law,
    and a sentence on whether any exceeds the packings' scatter."""
    if b is None or law not in b.laws:
        section.paragraph("The biaxial test has not been run with the calibrated law in this "
                          "results root (`hertz2d dem biaxial --law calibrated`).")
        return
    pairs = b.differences[(b.differences.a == law) | (b.differences.b == law)].copy()
    flipped = pairs.b == law
    pairs.loc[flipped, "difference"] *= -1
    pairs.loc[flipped, "b"] = pairs.loc[flipped, "a"]
    section.table(difference_rows(pairs, b.label),
                  "The biaxial test (Section 4.3, the DEM section below) with the calibrated law "
                  "on the same packings as every other law: the calibrated law's mean minus the "
                  "other law's, and whether the difference exceeds the packings' scatter "
                  "(|difference| > 2 standard errors; the paired t-test beside it).")
    beyond = pairs[pairs.exceeds_scatter.astype(str) == "True"]
    table1 = [key for key in b.laws if key.startswith("simplified")]
    beyond_table1 = beyond[beyond.b.isin(table1)]
    section.paragraph(
        f"Against Table 1's law ({'; '.join(b.label(key) for key in table1)}) "
        + ("no macroscopic number moves beyond the packings' scatter: what the calibrated law "
           "changes contact by contact (the memory of the tangential history, the wall's own "
           f"curves) is not resolved by {len(b.seeds)} packings in the peak and "
           "residual deviator or the volumetric strain."
           if beyond_table1.empty else
           "these differences exceed the packings' scatter: " + "; ".join(
               f"{b.label(row.b)}, {row.quantity.replace('_', ' ')}"
               for row in beyond_table1.itertuples()) + ".")
        + (f" Beyond the scatter against the other laws: {len(beyond) - len(beyond_table1)} of "
           f"{len(pairs) - (pairs.b.isin(table1)).sum()} differences (the linear spring and "
           "3D Hertz-Mindlin are other laws, not other calibrations)."
           if len(beyond) > len(beyond_table1) else ""))


def calibrated_section(c: CalibratedOutputs | None,
                       biaxial: BiaxialOutputs | None = None) -> Section | None:
    """"A law calibrated on the contact FEM"; ``biaxial``: the DEM comparison, if run."""
    if c is None:
        return None
    section = Section("A law calibrated on the contact FEM", "calibrated")
    fit = c.fit
    section.paragraph(
        "The calibrated law (`--law calibrated` in `hertz2d model`, the map, `hertz2d dem` and "
        "`hertz2d export-law`) is the paper's 2D law with its free functions fitted on the "
        "two-body FEM's force-displacement paths, and extended only where the FEM shows it "
        "must be: the normal law of Eqs. 4 and 22; at constant N the tangential curve "
        "delta/(k s) = t B + kappa (1 - t) log(1 - t) (t the fraction of a branch, k = 1 the "
        "first loading, 2 a Masing branch, s = mu N/(pi E*)), whose B is Eq. 27's bracket with "
        "a refitted penalty factor w (the bodies' compliance) and whose second term is what "
        "the stick zone takes off full slip, with the penalty term held at the contact's "
        "half-width instead of Eq. 26's stick half-width (the printed term doubles the energy "
        "per cycle) and a weight kappa, a constant of the materials at most the ceiling that "
        "keeps the bodies' compliance from growing with the contact; the accurate model's "
        "memory rules for any history of N (Section 3.3) in a bounded superposition of "
        "Hertzian tractions per contact; and, for a contact with Dundurs' beta != 0, the "
        "pair's one curve moved by the coupling (B by terms in |beta|, beta^2 and |beta|/mu, "
        "kappa below its ceiling as exp(-s beta^2)), the same for the first loading and every "
        "branch, so that stick stays elastic, and an extra slip, a share c phi of the "
        "displacement, where a front first crosses the area laid under normal load or (in "
        "proportion to |T|/(mu N)) the rim sweeps a band as the contact grows or shrinks "
        "(Spence's locked-in shear, released through slip; phi the coupling's share, "
        "vanishing as mu grows). A DEM code applies it in the frame of the line of centres; "
        "the map and the FEM comparison do the same.")
    section.table(_coefficients(c), "The fitted coefficients and what each stands for.")
    samples = "; ".join(f"{name}: {sample['cases']} contacts, seed {sample['seed']}"
                        for name, sample in c.heldout.samples.items())
    section.paragraph(
        f"Fit: least squares (soft L1 loss) on {c.training_paths} FEM paths of the "
        f"training spec ({c.record.training['spec']}, symmetric flats, every path kind "
        f"and size it declares); per path the L{PATH_NORM} mean of its steps' Fx errors under "
        f"each of the two metrics (a smooth stand-in for the largest error, which the targets "
        f"count paths by) and per cycle path its energy per cycle's relative error; first w on "
        f"the paths of one material (kappa follows from w there: its ceiling), then every "
        f"coefficient; RMS residual {fit['start_rms']:.4f} at the start (Eq. 33's w, no "
        f"coupling) and {fit['rms']:.4f} at the end, {fit['evaluations']} evaluations of the "
        f"law on every path, {fit['seconds']:.0f} s. The held-out contacts ({c.heldout.spec}: "
        f"{c.heldout_paths} FEM paths; {samples}), drawn at random over the same "
        f"ranges, were not used to fit or to choose anything.")
    laws = [c.label, "accurate with memory, refit (confined disc)",
            "simplified-hysteretic, refit (confined disc)", "simplified, Eq. 33"]
    training = _training(c)
    if training is not None:
        section.table(_targets_table(training, laws),
                      "The targets on the training contacts (the map's default runs on "
                      "symmetric flats): force error (the larger of N's and Fx's largest "
                      "relative error over a path) by the amplitude-relative metric (the map's: "
                      "unloading and reloading branches against the path's largest |F|) and by "
                      "the floor metric ('floor:', every step against max(|FEM|, 0.2 max "
                      "|FEM|)), tangential stiffness on the FEM's partial-slip steps, energy per "
                      "cycle (the last cycle).")
    section.table(_targets_table(c.targets, laws),
                  "The same on the held-out contacts. Targets: amplitude-relative force error "
                  "under 5 % on 95 % of the paths and under 10 % on all; floor force error "
                  "under 5 % on 85 % and under 10 % on 97 %; stiffness within 10 %; energy "
                  "within 10 % on 90 % of the cycle paths.")
    if c.met:
        section.paragraph("Targets met on the held-out contacts: " + "; ".join(
            f"{name}: {'yes' if ok else 'no'}" for name, ok in c.met.items()) + ".")
    section.table(_domain_table(c.domain),
                  "The calibrated law's targets (both metrics) on the held-out contacts with "
                  "Dundurs' |beta| up to a bound, on the discs on rigid walls (|beta| = (1 - 2 "
                  "nu)/(2 (1 - nu))) and on the contacts with |beta| > 0.25, against the same "
                  "targets: where the law holds.")
    if c.energy is not None:  # a root written before energy.csv existed has none
        section.table(_energy_table(c.energy),
                      "The energy-per-cycle target on its own: the calibrated law's energy per "
                      "cycle (the last cycle of each held-out cycle path) within 10 % of the "
                      "FEM's on 90 % of the cycles, per kind of cycle and over all of them, at "
                      "the mesh level given (the held-out spec runs its stick cycles at the "
                      "finer level at which the FEM's energy of small cycles has converged).")
    if c.energy_normal is not None and not c.energy_normal.empty:  # None: an older root
        _energy_normal(section, c.energy_normal)
    _admissible(section, c)
    section.table(c.by_coupling.round(3), "The calibrated law's held-out paths by Dundurs' "
                  "|beta| and load path: the share with an amplitude-relative force error under "
                  "5 %.")
    section.paragraph(_failures(c))
    if c.masing is not None:  # a root written before masing.csv existed has none
        _masing(section, c.masing)
    if c.floor_misses is not None:  # a root written before floor_misses.csv existed has none
        _floor_misses(section, c.floor_misses)
    section.figure(c.heldout_figure,
                   "Held-out contacts: each path's amplitude-relative force error (top) and each "
                   "cycle's energy error (bottom) against |beta|/mu, the calibrated law beside "
                   "the paper's accurate model with memory (confined refit); dashed: 5 % and "
                   "10 %.")
    section.paragraph(_heldout_convergence(c))
    _biaxial(section, biaxial, "calibrated")
    return section
