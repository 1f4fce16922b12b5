"""Where the calibrated law holds and where it does not: its errors by the Dundurs coupling of the
contact and by load path, from a map's error table, and the FEM's first and second cycles.

:func:`coupling_of` adds to a map table the contact's ``|beta|``
(:func:`hertz2d.calibration.laws.calibrated.coupling_beta`) and ``|beta|/mu``; :func:`by_coupling` counts a
law's paths within the force threshold per band of ``|beta|`` and :func:`by_domain` gives its
targets (both metrics) on the contacts with ``|beta|`` up to a bound, on the walls and on the
stiff counterparts (``|beta| > 0.25``) as rows of their own; :func:`energy_verdicts` gives the
energy-per-cycle target per kind of cycle and :func:`energy_by_normal_loop` per share of the
FEM's energy its normal loop dissipates; :func:`cycle_energies` measures the FEM's
energy in the first and in the last cycle of every cycle path, the evidence that a dissimilar pair's
first cycle also releases the shear locked in under normal load (so the energy per cycle is judged
on the last), and the swing of the normal force the tangential cycles cause; :func:`floor_misses`
finds where on a training path the floor metric's largest error falls, per band of ``|beta|``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from hertz2d.calibration.calibrate.objective import force_errors, run_batch
from hertz2d.calibration.calibrate.targets import ENERGY_LIMIT, ENERGY_SHARE, law_targets
from hertz2d.calibration.calibrate.training import batches
from hertz2d.calibration.laws import ContactPair
from hertz2d.calibration.laws.calibrated import CalibratedCoefficients, coupling_beta
from hertz2d.calibration.laws.energy import loop_work
from hertz2d.calibration.validation.map.errors import ENERGY, FLOOR
from hertz2d.calibration.validation.map.regions import force_errors as map_force_errors
from hertz2d.calibration.validation.map.spec import DEFAULT_VARIANT

#: bands of ``|beta|`` the report counts paths in
BETA_BANDS = (0.0, 1e-9, 0.1, 0.2, 0.3, 0.5)
#: the bounds of ``|beta|`` the law's targets are given up to (the last: every contact)
DOMAIN_BOUNDS = (0.1, 0.2, float("inf"))
#: the strong coupling the targets are also given beyond (walls at nu < 0.2, stiff counterparts)
STRONG_BETA = 0.25


def band_labels() -> list[str]:
    """The names of :data:`BETA_BANDS`' bands: one material, then ``(low, high]``."""
    return ["0 (one material)"] + [f"({low if low > BETA_BANDS[1] else 0:g}, {high:g}]"
                                   for low, high in zip(BETA_BANDS[1:-1], BETA_BANDS[2:])]


def _beta(row) -> float:
    if row.counterpart == "wall":
        pair = ContactPair.disc_on_wall(row.R1, row.E1, row.nu1, row.mu)
    else:
        pair = ContactPair(row.R1, row.R1 * row.R2_over_R1, row.E1, row.E1 * row.E2_over_E1,
                           row.nu1, row.nu2, row.mu)
    return float(coupling_beta(pair))


def coupling_of(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` (a map's cases or errors) with ``beta`` (``|beta|``) and ``beta_over_mu``."""
    beta = table.apply(_beta, axis=1)
    return table.assign(beta=beta, beta_over_mu=beta / table.mu)


def by_coupling(errors: pd.DataFrame, law: str, threshold: float = 0.05,
                variant: str = DEFAULT_VARIANT) -> pd.DataFrame:
    """Per band of ``|beta|`` and per load path: a law's paths at the map's own mesh (``variant``;
    the convergence check's finer meshes are not counted again) and the share within
    ``threshold``."""
    mine = errors[(errors.law == law) & (errors.variant == variant)]
    force = coupling_of(map_force_errors(mine))
    force["|beta|"] = pd.cut(force.beta, BETA_BANDS, labels=band_labels(), include_lowest=True)
    rows = []
    for (band, path), of_band in force.groupby(["|beta|", "path"], observed=True):
        rows.append({"|beta|": band, "path": path, "paths": len(of_band),
                     f"force < {100 * threshold:g} %": float(
                         (of_band.force_error < threshold).mean()),
                     "median force error": float(of_band.force_error.median())})
    return pd.DataFrame(rows)


def by_domain(errors: pd.DataFrame, law: str,
              bounds: tuple[float, ...] = DOMAIN_BOUNDS) -> pd.DataFrame:
    """A law's targets (:func:`~hertz2d.calibration.calibrate.targets.law_targets`) on the contacts
    with ``|beta|`` up to each bound (``inf``: all of them), then on the discs on walls and on
    the contacts with ``|beta| >`` :data:`STRONG_BETA`, one row each (``contacts`` names it)."""
    mine = coupling_of(errors[errors.law == law])
    selections = [("all" if np.isinf(bound) else f"|beta| <= {bound:g}", mine.beta <= bound)
                  for bound in bounds]
    selections += [("walls", mine.counterpart == "wall"),
                   (f"|beta| > {STRONG_BETA:g}", mine.beta > STRONG_BETA)]
    rows = []
    for name, chosen in selections:
        within = mine[chosen]
        found = law_targets(within) if len(within) else within
        if len(found):
            rows.append({"contacts": name, **found.iloc[0].drop("law").to_dict()})
    return pd.DataFrame(rows)


def energy_verdicts(errors: pd.DataFrame, law: str,
                    variant: str = DEFAULT_VARIANT) -> pd.DataFrame:
    """The energy-per-cycle target as its own rows: per path kind that cycles, and over all the
    cycles, a law's cycles at the map's own runs (``variant``; a sample with its own mesh level,
    the stick cycles', is judged at that level, listed), the share within 10 % of the FEM's
    energy, the median and largest error, and whether the share reaches
    :data:`~hertz2d.calibration.calibrate.targets.ENERGY_SHARE`."""
    mine = errors[(errors.law == law) & (errors.variant == variant)
                  & (errors.quantity == ENERGY)]
    groups = [(kind, of_kind) for kind, of_kind in mine.groupby("path", sort=False)]
    rows = []
    for name, cycles in [*groups, ("all cycles", mine)] if len(mine) else []:
        error = cycles.max_rel_error.abs()
        within = float((error < ENERGY_LIMIT).mean())
        rows.append({"cycles of": name, "cycles": len(cycles),
                     "mesh level": ", ".join(str(v) for v in sorted(set(cycles.level))),
                     "energy within 10 %": within, "median energy error": float(error.median()),
                     "largest energy error": float(error.max()),
                     "target met": within >= ENERGY_SHARE})
    return pd.DataFrame(rows)


#: bands of the share of the FEM's energy per cycle its normal loop dissipates, and their names
NORMAL_SHARE_BANDS = (-np.inf, 0.02, 0.1, 0.3, np.inf)
NORMAL_SHARE_LABELS = ("up to 2 %", "2-10 %", "10-30 %", "over 30 %")
#: the column of :func:`energy_by_normal_loop` that names the band
NORMAL_SHARE = "FEM's normal loop / its energy"


def energy_by_normal_loop(errors: pd.DataFrame, law: str,
                          variant: str = DEFAULT_VARIANT) -> pd.DataFrame:
    """A law's held-out cycles (as :func:`energy_verdicts`) per band of the share of the FEM's
    energy per cycle that its normal loop dissipates (``fem_normal_share``,
    :data:`NORMAL_SHARE_BANDS`): the cycles, the share within 10 % of the FEM's energy, the
    median signed error (negative: the law dissipates less), the same two of the tangential
    loop alone (the law's closed integral of Fx d(delta_t) less the FEM's, over the FEM's energy
    per cycle: the loop the law's slip dissipates in) and the median ``|beta|``. Empty for an
    error table written before the map recorded the share."""
    mine = errors[(errors.law == law) & (errors.variant == variant)
                  & (errors.quantity == ENERGY)]
    if "fem_normal_share" not in mine.columns or mine.empty:
        return pd.DataFrame()
    mine = coupling_of(mine)
    bands = pd.cut(mine.fem_normal_share, NORMAL_SHARE_BANDS, labels=NORMAL_SHARE_LABELS)
    rows = []
    for band, cycles in mine.groupby(bands, observed=True):
        rows.append({NORMAL_SHARE: band, "cycles": len(cycles),
                     "energy within 10 %": float((cycles.max_rel_error.abs()
                                                  < ENERGY_LIMIT).mean()),
                     "median signed energy error": float(cycles.signed_rel_error.median()),
                     **_tangential_loop(cycles),
                     "median |beta|": float(cycles.beta.median())})
    return pd.DataFrame(rows)


def _tangential_loop(cycles: pd.DataFrame) -> dict:
    """The tangential loop's columns of :func:`energy_by_normal_loop` (none for an error table
    written before the map recorded it)."""
    if "tangential_loop_error" not in cycles.columns:
        return {}
    error = cycles.tangential_loop_error
    return {"tangential loop within 10 %": float((error.abs() < ENERGY_LIMIT).mean()),
            "median signed tangential-loop error": float(error.median())}


def unloading_starts(table: pd.DataFrame) -> np.ndarray:
    """The steps at which a path's unloading branches begin (one per cycle)."""
    stage = table.stage.to_numpy()
    before = np.concatenate([[""], stage[:-1]])
    return np.flatnonzero((stage == "unloading") & (before != "unloading"))


def _swing(Fz: np.ndarray) -> float:
    """How far a normal force swings, relative to its mean magnitude."""
    return float(np.ptp(Fz) / np.abs(Fz).mean())


def law_normal_swings(paths: list, coefficients: CalibratedCoefficients) -> dict:
    """Per path ``(run, FEM table)`` with two or more cycles (keyed by run) the swing of the
    calibrated law's normal force over the cycles on the FEM's own path: the law's N carries the
    tangential state through the coupling term of its stored energy
    (:func:`hertz2d.calibration.laws.calibrated_kernel.normal_coupling`), so on a ``cycle`` path, whose
    delta_n is held, it moves as T does."""
    cycling = {run: table for run, table in paths if len(unloading_starts(table)) >= 2}
    swings = {}
    for batch in batches(list(cycling.items())):
        _, Fz = run_batch(batch, coefficients)
        for row, run in enumerate(batch.runs):
            table = cycling[run]
            swings[run] = _swing(Fz[row, unloading_starts(table)[0] - 1:len(table)])
    return swings


def cycle_energies(paths: list, coefficients: CalibratedCoefficients | None = None
                   ) -> pd.DataFrame:
    """Per cycle path ``(run, FEM table)`` with two or more cycles: the FEM's energy in the first
    and in the last cycle (loop areas of Fx on delta_t and Fz on delta_n), how far the normal
    force swings over the cycles relative to its mean (on a ``cycle`` path delta_n is held, so a
    law whose N depends on the overlap alone keeps N constant there), with ``coefficients`` the
    calibrated law's swing on the same path beside it (:func:`law_normal_swings`), and the
    contact's ``|beta|`` and ``|beta|/mu``."""
    law_swings = law_normal_swings(paths, coefficients) if coefficients is not None else {}
    rows = []
    for run, table in paths:
        starts = unloading_starts(table)
        if len(starts) < 2:
            continue
        works = []
        for start, end in zip(starts, [*starts[1:], len(table)]):
            cycle = table.iloc[start - 1:end]
            works.append(loop_work(cycle.delta_t, cycle.Fx) + loop_work(cycle.delta_n, cycle.Fz))
        row = {**run.case.row(), "first cycle (J/m)": works[0], "last cycle (J/m)": works[-1],
               "last / first": works[-1] / works[0],
               "N swing / N": _swing(table.Fz.to_numpy()[starts[0] - 1:])}
        if run in law_swings:
            row["law N swing / N"] = law_swings[run]
        rows.append(row)
    return coupling_of(pd.DataFrame(rows)) if rows else pd.DataFrame()


def _worst_floor_steps(paths: list, coefficients: CalibratedCoefficients) -> pd.DataFrame:
    """Per training path ``(run, FEM table)``: the horizontal force's largest floor error (every
    judged step against ``max(|FEM|, FLOOR max |FEM|)``, :data:`FLOOR`), and at the step where it
    falls the FEM's ``|Fx|`` over its largest and the map's amplitude-relative error there."""
    rows = []
    for batch in batches(paths):
        Fx, _ = run_batch(batch, coefficients)
        fem = np.where(batch.judged, np.abs(batch.fem_Fx), 0.0)
        scale = fem.max(axis=1, keepdims=True)
        floor = np.where(batch.judged, np.abs(Fx - batch.fem_Fx)
                         / np.maximum(fem, FLOOR * scale), 0.0)
        worst = floor.argmax(axis=1)
        amplitude = np.abs(force_errors(batch, Fx))
        rows += [{"beta": float(np.max(np.abs(coupling_beta(run.case.pair())))),
                  "floor error": floor[row, worst[row]],
                  "FEM there / largest": fem[row, worst[row]] / scale[row, 0],
                  "amplitude-relative there": amplitude[row, worst[row]],
                  "amplitude-relative": amplitude[row].max()}
                 for row, run in enumerate(batch.runs)]
    return pd.DataFrame(rows)


def floor_misses(paths: list, coefficients: CalibratedCoefficients,
                 threshold: float = 0.05) -> pd.DataFrame:
    """Where the floor metric's misses fall on the training paths ``(run, FEM table)``, per band
    of ``|beta|`` (:data:`BETA_BANDS`), for the horizontal force Fx: the paths, the share whose
    largest floor error is under ``threshold`` and under twice it, and of the paths over
    ``threshold`` (the misses) the share whose worst step has the FEM's ``|Fx|`` under
    :data:`FLOOR` of its largest (where the floor itself is the reference: a force passing
    through zero), the share whose amplitude-relative error stays under ``threshold`` on the
    whole path, and the median amplitude-relative error at their worst step."""
    worst = _worst_floor_steps(paths, coefficients)
    worst["|beta|"] = pd.cut(worst.beta, BETA_BANDS, labels=band_labels(), include_lowest=True)
    percent = f"{100 * threshold:g} %"
    rows = []
    for band, of_band in worst.groupby("|beta|", observed=True):
        missed = of_band[of_band["floor error"] >= threshold]
        rows.append({
            "|beta|": band, "paths": len(of_band),
            f"floor: Fx < {percent}": float((of_band["floor error"] < threshold).mean()),
            f"floor: Fx < {100 * 2 * threshold:g} %": float(
                (of_band["floor error"] < 2 * threshold).mean()),
            "misses": len(missed),
            "misses where |FEM| < floor": float(
                (missed["FEM there / largest"] < FLOOR).mean()) if len(missed) else np.nan,
            f"misses with amplitude-relative < {percent}": float(
                (missed["amplitude-relative"] < threshold).mean()) if len(missed) else np.nan,
            "median amplitude-relative at the worst step": float(
                missed["amplitude-relative there"].median()) if len(missed) else np.nan})
    return pd.DataFrame(rows)
