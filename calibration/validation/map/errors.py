"""Every contact law on every case of the validity map, and its errors against the FEM.

Laws (:func:`map_laws`): every law of the catalogue (:data:`hertz2d.calibration.laws.LAWS`) on the paths
it is defined for: the paper's simplified model (Table 1) with Eq. 33's w, with hertz2d's refits
of ``<results>/penalty/fit.json`` (each half-round base the fit has, and the disc held by its
contacts, ``confined``, when the fit has it) and with the constant w = 0.5; the hysteretic
simplified model, the accurate model (Eqs. 22-27), the accurate model with memory and Appendix C
(``hold-normal`` only), each with Eq. 33 and with the confined refit; the linear spring with the
paper's kn = 2.7e9 and kt = 1.5e9 N/m per m (regressed on its Section 4.2 discs, R = 0.5 m and
E = 10 GPa: a spring is not scale-free, so on other radii and moduli it is what a user who
copies those numbers gets); the 3D Hertz-Mindlin and Mindlin-Deresiewicz laws applied to discs.

Quantities (:func:`case_errors`), each judged on the steps where the FEM defines it, by the
FEM's regime (:func:`hertz2d.calibration.validation.comparison.regimes`):

``normal force``
    the contact normal force N, every step;
``tangential force``
    the horizontal force Fx that drives the disc, every step after the normal stage;
``tangential stiffness``
    the tangent dFx/d(delta_t) between steps, on the FEM's partial-slip steps (a stick zone
    exists; in full slip the FEM's tangent is about zero and no relative error means anything);
``energy per cycle``
    the energy dissipated in the last cycle of a reversing path (``cycle``, ``coupled-cycle``,
    ``stick-cycle``, ``sliding-reversal``; a ``random-walk``'s last period)
    (:func:`hertz2d.calibration.laws.energy_per_cycle`), one number per case, judged where the FEM's is
    positive; its rows also carry the error's sign (``signed_rel_error``, negative where the law
    dissipates less) and the share of the FEM's energy that its normal loop, the closed integral
    of Fz d(delta_n), dissipates (``fem_normal_share``,
    :func:`hertz2d.calibration.laws.energy.loop_works`).

Metric: :func:`hertz2d.calibration.validation.comparison.relative_errors`, the validation's. On a
monotonic stage (the normal stage, the first tangential loading, a proportional path) the error
at a step is relative to the FEM's value there (steps where it is below 1 % of its largest
magnitude are left out); on a cycle's unloading and reloading branches (:data:`REVERSING`, every
step judged),
where the force passes through zero, relative to the FEM's largest magnitude over the path: the
force's amplitude, the stiffness's initial value. Per case, law and quantity the table has the
largest and the RMS error over the judged steps (``max_rel_error``, ``rms_rel_error``: the
*amplitude-relative* error).

A second metric for the forces (N and Fx), the *floor* error (``max_floor_error``,
``rms_floor_error``): at every judged step ``|law - FEM| / max(|FEM|, 0.2 max |FEM| over the
path)`` (:data:`FLOOR`), whatever the stage: relative to the force itself where it is at least a
fifth of its largest, so that unloading and reloading branches are judged against their own
size rather than the path's peak (the amplitude-relative metric is the kinder of the two there).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from tqdm import tqdm

from hertz2d.calibration.laws import EQ33, LAWS, ConstantPenalty, ContactPair, energy_per_cycle
from hertz2d.calibration.laws.base import ContactLaw
from hertz2d.calibration.laws.calibrated import CalibratedCoefficients
from hertz2d.calibration.laws import registry
from hertz2d.calibration.laws.catalogue import make_law
from hertz2d.calibration.laws.energy import loop_works
from hertz2d.calibration.penalty.outputs import PenaltyFit
from hertz2d.calibration.runs.executors import Executor, Inline, completed
from hertz2d.calibration.validation.comparison import (error_measures, regimes, relative_errors,
                                               with_stiffness)
from hertz2d.calibration.validation.map.spec import DEFAULT_VARIANT, MapCase, MapRun, MapSpec, PathSettings
from hertz2d.fem.supports import SUPPORTS

#: quantity -> (column, the FEM regimes it is judged in)
QUANTITIES = {"normal force": ("N", ("normal loading", "partial slip", "full slip")),
              "tangential force": ("Fx", ("partial slip", "full slip")),
              "tangential stiffness": ("kt_tangent", ("partial slip",))}
ENERGY = "energy per cycle"
#: the stages judged against the FEM's largest magnitude over the path, not their own value
REVERSING = ("unloading", "reloading")
#: the paper's linear spring (Section 4.3), N/m per m
PAPER_KN, PAPER_KT = 2.7e9, 1.5e9
#: the floor metric's reference: at least this share of the path's largest ``|FEM|``
FLOOR = 0.2
#: the quantities that also get the floor metric
FLOORED = ("normal force", "tangential force")
#: the columns :func:`case_errors` measures (every other column of the table names the case)
MEASURES = ("steps", "max_rel_error", "rms_rel_error", "max_floor_error", "rms_floor_error",
            "signed_rel_error", "fem_normal_share", "tangential_loop_error")


@dataclass(frozen=True)
class LawChoice:
    """A law of the catalogue by name, with the penalty factor of the paper's 2D laws or the
    calibrated law's coefficients."""

    name: str
    penalty: object = EQ33
    coefficients: CalibratedCoefficients | None = None

    @property
    def paths(self) -> tuple[str, ...]:
        return LAWS[self.name].paths

    def build(self, case: MapCase) -> ContactLaw:
        return make_law(self.name, case.pair(), self.penalty, kn=PAPER_KN, kt=PAPER_KT,
                        coefficients=self.coefficients)

    @property
    def label(self) -> str:
        """The law's own label (it names the penalty factor, or the spring's stiffnesses)."""
        return make_law(self.name, ContactPair.discs(0.5, 10e9, 0.25, 0.3), self.penalty,
                        kn=PAPER_KN, kt=PAPER_KT, coefficients=self.coefficients).label

    @property
    def penalty_label(self) -> str:
        return self.penalty.label if "penalty" in registry.entry(self.name).options else ""


def map_laws(fit: PenaltyFit,
             calibrated: CalibratedCoefficients | None = None) -> list[LawChoice]:
    """The laws of the map, in the catalogue's order; the refits come from ``fit`` (``hertz2d
    fit``'s ``fit.json``): the simplified model with Eq. 33, every refit the fit has and
    w = 0.5; the other 2D laws with Eq. 33 and with the confined disc's refit (the w hertz2d
    recommends for a packing) when the fit has it; the calibrated law with ``calibrated`` (left
    out when None); the rest once."""
    refits = [fit.penalty()]  # the fit's default base
    for support in (*SUPPORTS, "confined"):
        if support not in fit.fits():  # an older or a partial fit
            continue
        refit = fit.penalty(support)
        if refit.coefficients not in [r.coefficients for r in refits]:
            refits.append(refit)
    confined = [r for r in refits if "confined" in r.label]
    laws = []
    for name in registry.names(engine="map"):
        options = registry.entry(name).options
        if name == "simplified":
            laws += [LawChoice(name, w) for w in (EQ33, *refits, ConstantPenalty(0.5))]
        elif "penalty" in options:
            laws += [LawChoice(name, w) for w in (EQ33, *confined)]
        elif "coefficients" in options:
            laws += [LawChoice(name, coefficients=calibrated)] if calibrated else []
        else:
            laws.append(LawChoice(name))
    return laws


def run_laws(laws: list[LawChoice], run: MapRun) -> dict[int, pd.DataFrame]:
    """Worker task: every law that runs ``run``'s path kind on its path, ``{law index: table}``
    (with :func:`~hertz2d.calibration.validation.comparison.with_stiffness`)."""
    path = run.fem_path().path()
    return {index: with_stiffness(law.build(run.case).run(path))
            for index, law in enumerate(laws) if run.case.path in law.paths}


def law_tables(spec: MapSpec, laws: list[LawChoice], executor: Executor = Inline(),
               progress: bool = True) -> dict[tuple[MapCase, PathSettings], dict]:
    """Every law's table on every case's path (a law and a path once, whatever mesh level), on
    ``executor``: ``{(case, settings): {law index: table}}``. Runs before the FEM: a law that
    cannot take a case stops the map at once, not after the FEM."""
    runs = list({(run.case, run.settings): run for run in spec.runs}.values())
    tables = {}
    with tqdm(total=len(runs), desc="map: contact laws", unit="path",
              disable=not progress) as bar:
        for (_, run), found in completed(run_laws, [(laws, run) for run in runs], executor):
            tables[run.case, run.settings] = found
            bar.update(1)
    return tables


@dataclass(frozen=True)
class Judged:
    """What the FEM's path offers for judging: per quantity the FEM's values on the judged
    steps, which steps, their floors (:func:`~hertz2d.calibration.validation.comparison.relative_errors`)
    and the scale; and the energy per cycle and its normal loop's share of it (None unless the
    path cycles)."""

    steps: np.ndarray
    quantities: dict[str, tuple[str, np.ndarray, np.ndarray, np.ndarray, float]]
    energy: float | None
    normal_share: float | None = None
    tangential: float | None = None

    @classmethod
    def of(cls, fem_table: pd.DataFrame) -> "Judged":
        regime, stage = regimes(fem_table), fem_table.stage.to_numpy()
        quantities = {}
        for quantity, (column, judged_in) in QUANTITIES.items():
            mask = np.isin(regime, judged_in)
            if mask.any():
                values = fem_table[column].to_numpy()[mask]
                quantities[quantity] = (column, mask, values,
                                        np.isin(stage[mask], REVERSING).astype(float),
                                        float(np.nanmax(np.abs(values), initial=0.0)))
        if not (stage == "unloading").any():
            return cls(fem_table.step.to_numpy(), quantities, None)
        tangential, normal = loop_works(fem_table)
        energy = tangential + normal
        return cls(fem_table.step.to_numpy(), quantities, energy,
                   normal / energy if energy > 0 else None, tangential)


def case_errors(fem_table: pd.DataFrame, law_table: pd.DataFrame,
                judged: Judged | None = None) -> dict[str, dict]:
    """``{quantity: {steps, max_rel_error, rms_rel_error}}`` of one law on one FEM path (both
    tables with :func:`~hertz2d.calibration.validation.comparison.with_stiffness`, lined up by step;
    ``judged`` is :meth:`Judged.of` the FEM's table, computed once for many laws)."""
    judged = judged or Judged.of(fem_table)
    if not np.array_equal(law_table.step.to_numpy(), judged.steps):
        law_table = law_table.set_index("step").reindex(judged.steps).reset_index()
    found = {}
    for quantity, (column, mask, values, floor, scale) in judged.quantities.items():
        law_values = law_table[column].to_numpy()[mask]
        errors = relative_errors(law_values, values, scale, floor)
        if errors.size:
            found[quantity] = error_measures(errors)
            if quantity in FLOORED:
                floored = np.abs(relative_errors(law_values, values, scale, FLOOR))
                found[quantity].update(max_floor_error=float(floored.max()),
                                       rms_floor_error=float(np.sqrt(np.mean(floored ** 2))))
    if judged.energy is not None and judged.energy > 0:
        error = (energy_per_cycle(law_table) - judged.energy) / judged.energy
        found[ENERGY] = {**error_measures(np.array([error])), "signed_rel_error": error,
                         "fem_normal_share": judged.normal_share,
                         "tangential_loop_error": (loop_works(law_table)[0] - judged.tangential)
                         / judged.energy}
    return found


def error_table(spec: MapSpec, fem: dict[MapRun, pd.DataFrame], laws: list[LawChoice],
                tables: dict, case_ids: dict[MapCase, int]) -> pd.DataFrame:
    """One row per case x variant x law x quantity, with the case's axes (tidy)."""
    labels = [law.label for law in laws]
    rows = []
    for run, fem_table in fem.items():
        fem_table = with_stiffness(fem_table)
        judged = Judged.of(fem_table)
        for index, law_table in tables[run.case, run.settings].items():
            head = {"case": case_ids[run.case], "variant": run.variant, "level": run.level,
                    "studies": ";".join(spec.case_studies[run.case]), **run.case.row(),
                    "law": labels[index], "law_name": laws[index].name,
                    "penalty": laws[index].penalty_label}
            for quantity, measures in case_errors(fem_table, law_table, judged).items():
                rows.append({**head, "quantity": quantity, **measures})
    return pd.DataFrame(rows)


def default_only(errors: pd.DataFrame) -> pd.DataFrame:
    """The rows of the map itself (not its convergence checks)."""
    return errors[errors.variant == DEFAULT_VARIANT]
