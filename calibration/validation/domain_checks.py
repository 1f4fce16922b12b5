"""The two-body FEM beyond the paper's equal discs: any pair, a wall, any load path, verified.

Configurations (:data:`PAIRS`, each with the approach and tangential travel of its paths): the
paper's two equal discs (beta = 0), a dissimilar pair (upper R = 0.3 m, E = 10 GPa, nu = 0.2;
lower R = 0.7 m, E = 70 GPa, nu = 0.35) and the paper's disc on a rigid wall, pressed so that
a/R is about 0.12-0.13 in all three. Every table is at the default mesh level 3; the normal and
stick-zone tables add levels 2 and 4 for their mesh convergence (:class:`DomainSettings`).
Tables (:func:`domain_checks` returns them by name):

``normal``
    frictionless, ``symmetric`` flats (mirror planes, the configuration of the closed forms), per
    mesh level: N against Eq. 22 (Eq. 17 for the wall) at the prescribed approach, a against
    Eq. 4, and N's change from the next coarser level (mesh convergence).
``beta``
    Dundurs' beta and what it does during normal loading with friction (mu = 0.3): the shear
    resultant (zero by symmetry), the largest shear traction over mu p0, how far q is from odd,
    the sign of ``q x`` (q resisting +delta_t, so negative when the upper body's surface would
    slide inward more), the stick zone c/a, against the half-plane models
    (:mod:`hertz2d.calibration.validation.halfplane`: Goodman's approximation, whose closed form is
    :func:`hertz2d.calibration.validation.reference_forms.normal_loading_stick_ratio`, and the coupled
    problem).
``beta_trend``
    the wall's normal-loading c/a at decreasing a/R: the FEM tends to the coupled half-plane
    value as a/R -> 0 (the discs' finite size matters at a/R ~ 0.1).
``stick``
    the stick zone during the tangential stage of ``hold-normal`` at T/(mu N) = 0.25, 0.5, 0.75,
    per configuration and mesh level: c against Cattaneo-Mindlin's Eq. 7 (exact for beta = 0),
    and against the coupled half-plane model for beta != 0 (the dissimilar cylinders of Nowell,
    Hills & Sackfield), the stick zone's offset, and Fx / T (the contact frame turns with the
    slide).
``masing``, ``energy``
    cycles (``cycle`` path, equal discs, the default support) of amplitude A = 0.2 ... 1.0 of the
    FEM's own onset of full slip: the unloading and reloading branches against Masing's rule
    built from the FEM's own virgin branch, the energy dissipated per cycle (the loop's area
    under Fx) against the Masing loop of the same virgin branch and of Cattaneo-Mindlin's
    Eqs. 24-27 (the accurate model, Eq. 33's w), the loss factor ``W / (4 A T*)`` and the local
    exponent ``d log W / d log A`` (3 in the limit of small amplitude).
``unload_normal``
    ``unload-normal`` (equal discs, default support): delta_t held in partial slip, delta_n
    halved; the stick zone shrinks and the slip zone grows as N falls.
``case2_mu``
    case 2 (``proportional``, default support) over mu = 0.1 ... 1.0: the steps in full slip and
    with any slip, and the linear spring regressed on it (the paper's kn = 2.7e9, kt = 1.5e9 N/m).
``timing``
    set-up and per-step time of every run at its level (seconds, as measured when it was
    computed, possibly by an earlier run), and why a path stopped if it did.

The FEM runs are stored in the :class:`hertz2d.calibration.runs.store.CaseStore` under a namespace that
hashes the source of every module this one imports (as :mod:`hertz2d.calibration.validation.fem_runs`),
so a rerun computes only what is missing.
"""
from __future__ import annotations

import itertools
import json
import time
from dataclasses import asdict, dataclass, replace

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from hertz2d.calibration.laws import EQ33, ContactPair
from hertz2d.calibration.laws.energy import energy_per_cycle
from hertz2d.calibration.laws.hertz2d import accurate_tangential_force
from hertz2d.calibration.runs.cached import cached_results
from hertz2d.calibration.runs.executors import Executor, Inline
from hertz2d.calibration.runs.provenance import versions
from hertz2d.calibration.runs.store import CaseStore
from hertz2d.calibration.validation import halfplane
from hertz2d.calibration.validation.comparison import linear_spring_from
from hertz2d.calibration.validation.reference_forms import (approach, dundurs_beta, half_width,
                                                    masing_branch, masing_loop_energy,
                                                    normal_force, normal_loading_stick_ratio)
from hertz2d.calibration.validation.verification import onset_of_full_slip
from hertz2d.checks.loadpath import LoadPath
from hertz2d.fem.supports import DEFAULT_SUPPORT, SUPPORTS
from hertz2d.fem.twodisc import Disc, RigidFlat, TwoBody
from hertz2d.meshes.digest import code_digest
from hertz2d.meshes.twodisc import DEFAULT_LEVEL

#: configuration -> (upper, lower, delta_n, delta_t of its hold-normal path)
PAIRS = {"equal discs": (Disc(0.5, 10e9, 0.25), Disc(0.5, 10e9, 0.25), 0.025, 0.025),
         "dissimilar": (Disc(0.3, 10e9, 0.2), Disc(0.7, 70e9, 0.35), 0.01, 0.01),
         "wall": (Disc(0.5, 10e9, 0.25), RigidFlat(), 0.0125, 0.0125)}
#: T / (mu N) at which the stick zone is compared with Eq. 7
LOAD_RATIOS = (0.25, 0.5, 0.75)


@dataclass(frozen=True)
class DomainSettings:
    """Mesh levels, steps and the amplitudes and friction coefficients of the checks."""

    #: the mesh level of every table (the default one)
    level: int = DEFAULT_LEVEL
    #: the levels of the stick-zone table, the normal table adding one coarser (convergence)
    levels: tuple[int, ...] = (DEFAULT_LEVEL, DEFAULT_LEVEL + 1)
    mu: float = 0.3
    normal_steps: int = 20
    steps: int = 50
    #: cycle amplitudes over the onset of full slip, and steps per amplitude of travel
    amplitudes: tuple[float, ...] = (0.2, 0.4, 0.6, 0.8, 1.0)
    cycle_steps: int = 20
    mus: tuple[float, ...] = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
    #: the wall's approaches for the normal-loading trend in a/R
    wall_approaches: tuple[float, ...] = (0.0125, 0.003, 0.0008)
    #: cells of the half-plane model
    cells: int = 160

    @classmethod
    def quick(cls) -> "DomainSettings":
        return cls(level=2, levels=(1, 2), normal_steps=10, steps=25, amplitudes=(0.2, 0.6, 1.0),
                   cycle_steps=10, mus=(0.1, 0.3, 0.6, 1.0), wall_approaches=(0.0125, 0.003),
                   cells=80)

    @property
    def normal_levels(self) -> tuple[int, ...]:
        """One more, coarser level for the frictionless normal checks (they are cheap)."""
        return tuple(range(max(0, min(self.levels) - 1), max(self.levels) + 1))


@dataclass(frozen=True)
class PathCase:
    """One FEM run: the bodies, friction, support, mesh level and load path."""

    pair: str
    mu: float
    support: str
    level: int
    kind: str
    delta_n: float
    delta_t: float
    steps: int
    normal_steps: int

    @property
    def bodies(self) -> tuple[Disc, Disc | RigidFlat]:
        return PAIRS[self.pair][:2]

    def path(self) -> LoadPath:
        return LoadPath.build(self.kind, self.delta_n, self.delta_t, self.steps,
                              self.normal_steps)

    def key(self) -> str:
        upper, lower = self.bodies
        return json.dumps({**asdict(self), "upper": asdict(upper), "lower": asdict(lower)},
                          sort_keys=True, default=str)


def solver_namespace() -> str:
    """Identity of the code (this module and all it imports) and packages behind a stored run."""
    pinned = {k: v for k, v in versions().items() if k in ("scikit-fem", "gmsh", "numpy", "scipy")}
    return "domain-" + code_digest(__name__, pinned)


def run_case(case: PathCase) -> dict:
    """One path: the table, the profile at the end of the normal stage, timings (JSON-ready)."""
    upper, lower = case.bodies
    path = case.path()
    with threadpool_limits(1):
        start = time.perf_counter()
        model = TwoBody.for_path(path, upper, lower, case.mu, case.support, case.level)
        result = model.run(path, profiles=case.kind == "hold-normal", progress=False)
        total = time.perf_counter() - start
    table = result.table
    row = {"table": table.to_dict("list"), "failure": result.failure,
           "seconds": {"total": total, "set-up": sum(model.timings.values()),
                       "per step": float(np.mean(result.info["step_seconds"])),
                       "steps": len(table), "nodes": model.nodes}}
    if result.profiles is not None:
        end = int(table[table.stage == "normal"].step.iloc[-1])
        row["normal_profile"] = result.profiles[result.profiles.step == end].to_dict("list")
    return row


def run_cases(cases: tuple[PathCase, ...]) -> list[dict]:
    """Worker task: :func:`run_case` for each case."""
    return [run_case(case) for case in cases]


def _store_key(case: PathCase) -> tuple:
    return (case.key(),)


class Runs:
    """FEM runs by :class:`PathCase`, computed on ``executor`` when missing from the store.

    :meth:`get` computes a batch (one progress bar); the tables then read the runs they need.
    """

    def __init__(self, store: CaseStore | None = None, executor: Executor = Inline(),
                 progress: bool = True):
        self.store = store or CaseStore(solver_namespace())
        self.executor, self.progress = executor, progress
        self.done: dict[PathCase, dict] = {}

    def get(self, cases: list[PathCase]) -> dict[PathCase, dict]:
        cases = [c for c in dict.fromkeys(cases) if c not in self.done]
        if cases:
            results = cached_results(cases, _store_key, self.store, self.executor, run_cases,
                                     label="two-body FEM", progress=self.progress)
            self.done.update((case, results[_store_key(case)][0]) for case in cases)
        return self.done

    def table(self, case: PathCase) -> pd.DataFrame:
        return pd.DataFrame(self.get([case])[case]["table"])


def _hold_normal(pair: str, settings: DomainSettings, level: int, mu: float | None = None,
                 support: str = "symmetric", delta_n: float | None = None,
                 delta_t: float | None = None) -> PathCase:
    _, _, dn, dt = PAIRS[pair]
    return PathCase(pair, settings.mu if mu is None else mu, support, level, "hold-normal",
                    dn if delta_n is None else delta_n, dt if delta_t is None else delta_t,
                    settings.steps, settings.normal_steps)


def _normal_case(pair: str, settings: DomainSettings, level: int) -> PathCase:
    """Frictionless normal loading in 4 steps (symmetric flats)."""
    return replace(_hold_normal(pair, settings, level, mu=0.0, delta_t=0.0), steps=1,
                   normal_steps=4)


def _cycle_case(settings: DomainSettings, amplitude: float) -> PathCase:
    _, _, dn, _ = PAIRS["equal discs"]
    return PathCase("equal discs", settings.mu, DEFAULT_SUPPORT, settings.level, "cycle", dn,
                    amplitude, settings.cycle_steps, settings.normal_steps)


def _unload_normal_case(settings: DomainSettings, onset: float) -> PathCase:
    """delta_t held at 0.3 of the onset of full slip while delta_n falls to half."""
    _, _, dn, _ = PAIRS["equal discs"]
    return PathCase("equal discs", settings.mu, DEFAULT_SUPPORT, settings.level, "unload-normal",
                    dn, 0.3 * onset, settings.normal_steps, settings.normal_steps)


def _case2(settings: DomainSettings, mu: float, support: str = DEFAULT_SUPPORT) -> PathCase:
    _, _, dn, dt = PAIRS["equal discs"]
    return PathCase("equal discs", mu, support, settings.level, "proportional", dn, dt,
                    settings.steps, settings.normal_steps)


def first_cases(settings: DomainSettings) -> list[PathCase]:
    """Every run that does not depend on another run's result."""
    return ([_normal_case(pair, settings, level) for pair in PAIRS
             for level in settings.normal_levels]
            + [_hold_normal(pair, settings, level) for pair in PAIRS for level in settings.levels]
            + [_hold_normal("wall", settings, settings.level, delta_n=d, delta_t=d)
               for d in settings.wall_approaches]
            + [_hold_normal("equal discs", settings, settings.level, support=DEFAULT_SUPPORT)]
            + [_case2(settings, mu, support) for mu in settings.mus for support in SUPPORTS])


def cycle_cases(settings: DomainSettings, onset: float) -> list[PathCase]:
    """The runs scaled by the onset of full slip: cycles and normal unloading."""
    return ([_cycle_case(settings, fraction * onset) for fraction in settings.amplitudes]
            + [_unload_normal_case(settings, onset)])


# -- frictionless normal loading against Eqs. 17 and 22 -----------------------------------------

def normal_table(runs: Runs, settings: DomainSettings) -> pd.DataFrame:
    rows = []
    for pair in ("wall", "dissimilar", "equal discs"):
        upper, lower, dn, _ = PAIRS[pair]
        previous = None
        for level in settings.normal_levels:
            loaded = runs.table(_normal_case(pair, settings, level)).iloc[-1]
            closed = normal_force(loaded.delta_n, upper, lower)
            rows.append({"pair": pair, "level": level, "beta": dundurs_beta(upper, lower),
                         "closed form": "Eq. 17" if pair == "wall" else "Eq. 22",
                         "a/R": loaded.a / min(upper.R, lower.R), "N (N/m)": loaded.N,
                         "N / closed form": loaded.N / closed,
                         "delta_n / closed form at FEM N": loaded.delta_n / approach(
                             loaded.N, upper, lower),
                         "a / Eq. 4": loaded.a / half_width(loaded.N, upper, lower),
                         "N change from previous level": (np.nan if previous is None
                                                          else loaded.N / previous - 1)})
            previous = loaded.N
    return pd.DataFrame(rows)


# -- beta: shear during normal loading ----------------------------------------------------------

def _normal_shear(case: PathCase, row: dict) -> dict:
    """Shear measures at the end of the normal stage of a stored hold-normal run."""
    table = pd.DataFrame(row["table"])
    loaded = table[table.stage == "normal"].iloc[-1]
    contact = pd.DataFrame(row["normal_profile"]).query("contact")
    x, q = contact.x.to_numpy(), contact.q.to_numpy()
    scale = np.abs(q).max()
    inner = np.abs(x) <= 0.8 * loaded.a  # away from the edges, where nodes do not mirror
    even = 0.5 * np.abs(q + np.interp(-x, x, q))[inner].max() / scale if scale > 0 else 0.0
    return {"a/R": loaded.a / min(body.R for body in case.bodies),
            "T / (mu N)": loaded["T"] / (case.mu * loaded.N), "Fx / N": loaded.Fx / loaded.N,
            "max |q| / (mu p0)": scale / (case.mu * contact.p.max()),
            "even part of q (|x| < 0.8 a) / max |q|": even,
            "sign of sum q x": float(np.sign(np.sum(q * x))),
            "c / a": loaded.c / loaded.a}


def _half_plane(beta: float, settings: DomainSettings) -> halfplane.HalfPlaneRun:
    """The half-plane model, loaded in twice the FEM's normal steps: its stick zone during normal
    loading needs about 40 to be within a cell of the self-similar solution."""
    return halfplane.solve(beta, settings.mu, settings.cells,
                           normal_steps=2 * settings.normal_steps,
                           tangential_steps=settings.steps, slip=0.5)


def _half_plane_normal(run: halfplane.HalfPlaneRun) -> pd.Series:
    return run.table[run.table.stage == "normal"].iloc[-1]


def beta_table(runs: Runs, settings: DomainSettings, models: dict) -> pd.DataFrame:
    rows = []
    for pair, (upper, lower, _, _) in PAIRS.items():
        case = _hold_normal(pair, settings, settings.level)
        beta = dundurs_beta(upper, lower)
        normal = _half_plane_normal(models[beta])
        p, q = models[beta].normal_end
        rows.append({"pair": pair, "level": case.level, "mu": case.mu, "beta": beta,
                     **_normal_shear(case, runs.get([case])[case]),
                     "half-plane c / a": normal.c / normal.a,
                     "half-plane max |q| / (mu p0)": normal.shear_ratio,
                     "half-plane sign of sum q x": float(np.sign(np.sum(q * models[beta].x))),
                     "Goodman c / a (closed form)": normal_loading_stick_ratio(beta, case.mu)})
    return pd.DataFrame(rows)


def beta_trend_table(runs: Runs, settings: DomainSettings, models: dict) -> pd.DataFrame:
    upper, lower, _, _ = PAIRS["wall"]
    beta = dundurs_beta(upper, lower)
    rows = []
    for delta_n in settings.wall_approaches:
        case = _hold_normal("wall", settings, settings.level, delta_n=delta_n, delta_t=delta_n)
        shear = _normal_shear(case, runs.get([case])[case])
        rows.append({"pair": "wall", "level": case.level, "mu": case.mu, "beta": beta,
                     "delta_n": delta_n, "a/R": shear["a/R"], "c / a": shear["c / a"],
                     "max |q| / (mu p0)": shear["max |q| / (mu p0)"]})
    table = pd.DataFrame(rows).sort_values("a/R")
    # linear in a/R through the two smallest contacts, to a/R = 0
    first, second = table.iloc[0], table.iloc[1]
    slope = (second["c / a"] - first["c / a"]) / (second["a/R"] - first["a/R"])
    normal = _half_plane_normal(models[beta])
    table["c / a extrapolated to a/R = 0"] = first["c / a"] - slope * first["a/R"]
    table["half-plane c / a"] = normal.c / normal.a
    table["Goodman c / a (closed form)"] = normal_loading_stick_ratio(beta, settings.mu)
    return table.reset_index(drop=True)


# -- the stick zone during tangential loading ---------------------------------------------------

def _at_load_ratios(table: pd.DataFrame, mu: float, columns: dict) -> dict:
    """Quantities interpolated at T/(mu N) = LOAD_RATIOS over the partial-slip steps."""
    partial = table[(table.stage == "tangential") & (table.c > 0)]
    ratio = (partial["T"] / (mu * partial.N)).to_numpy()
    return {tau: {name: float(np.interp(tau, ratio, values(partial)))
                  for name, values in columns.items()}
            for tau in LOAD_RATIOS if ratio.min() <= tau <= ratio.max()}


def stick_table(runs: Runs, settings: DomainSettings, models: dict) -> pd.DataFrame:
    rows = []
    fem_columns = {"N": lambda t: t.N, "c": lambda t: t.c, "a": lambda t: t.a,
                   "offset": lambda t: t.stick_centre - t.centre, "Fx / T": lambda t: t.Fx / t["T"],
                   "delta_t": lambda t: t.delta_t}
    for pair, (upper, lower, _, _) in PAIRS.items():
        beta = dundurs_beta(upper, lower)
        model = models[beta]
        reference = _at_load_ratios(model.table, settings.mu,
                                    {k: fem_columns[k] for k in ("c", "a", "offset")})
        for level in settings.levels:
            case = _hold_normal(pair, settings, level)
            measured = _at_load_ratios(runs.table(case), case.mu, fem_columns)
            for tau, m in measured.items():
                c7 = half_width(m["N"], upper, lower) * np.sqrt(1.0 - tau)  # Eqs. 4, 7
                half = reference.get(tau)
                rows.append({"pair": pair, "level": level, "beta": beta, "T / (mu N)": tau,
                             "delta_t": m["delta_t"], "c / Eq. 7": m["c"] / c7,
                             "stick offset / a": m["offset"] / m["a"], "Fx / T": m["Fx / T"],
                             "half-plane c / Eq. 7": (np.nan if half is None else
                                                      half["c"] / (half["a"] * np.sqrt(1 - tau))),
                             "half-plane stick offset / a": (np.nan if half is None else
                                                             half["offset"] / half["a"])})
    return pd.DataFrame(rows)


# -- cycles: Masing's rule and the energy per cycle --------------------------------------------

def full_slip_onset(runs: Runs, settings: DomainSettings) -> float:
    """The FEM's own onset of full slip of case 1 (equal discs, default support)."""
    case = _hold_normal("equal discs", settings, settings.level, support=DEFAULT_SUPPORT)
    return onset_of_full_slip(runs.table(case))


def masing_residuals(table: pd.DataFrame, column: str) -> dict:
    """Largest distance of the unloading and reloading branches from Masing's rule, over T*."""
    virgin = table[table.stage == "tangential"]
    unloading, reloading = table[table.stage == "unloading"], table[table.stage == "reloading"]
    peak = (virgin.delta_t.iloc[-1], virgin[column].iloc[-1])
    turn = (unloading.delta_t.iloc[-1], unloading[column].iloc[-1])
    out = {}
    for name, branch, start in (("unloading", unloading, peak), ("reloading", reloading, turn)):
        rule = masing_branch(virgin.delta_t, virgin[column], start, branch.delta_t)
        out[name] = float(np.abs(branch[column] - rule).max() / abs(peak[1]))
    return out


def cycle_tables(runs: Runs, settings: DomainSettings) -> tuple[pd.DataFrame, pd.DataFrame]:
    onset = full_slip_onset(runs, settings)
    upper = PAIRS["equal discs"][0]
    pair = ContactPair.discs(upper.R, upper.E, upper.nu, settings.mu)
    masing, energy = [], []
    for fraction in settings.amplitudes:
        amplitude = fraction * onset
        table = runs.table(_cycle_case(settings, amplitude))
        virgin = table[table.stage == "tangential"]
        loop = table[table.stage.isin(("unloading", "reloading"))]
        for column in ("T", "Fx"):
            residual = masing_residuals(table, column)
            masing.append({"A / onset": fraction, "A": amplitude, "force": column,
                           "unloading residual / T*": residual["unloading"],
                           "reloading residual / T*": residual["reloading"],
                           "loop closure / T*": abs(loop[column].iloc[-1] / virgin[column].iloc[-1]
                                                    - 1)})
        peak = virgin.Fx.iloc[-1]
        N = table[table.stage == "normal"].N.iloc[-1]
        grid = np.linspace(0.0, amplitude, 401)[1:]
        cattaneo = accurate_tangential_force(pair, np.full_like(grid, N), grid, EQ33)[0]
        energy.append({"A / onset": fraction, "A": amplitude, "Fx* (N/m)": peak,
                       "T* / (mu N)": virgin["T"].iloc[-1] / (settings.mu * virgin.N.iloc[-1]),
                       "W (J/m)": energy_per_cycle(table),
                       "W Masing, own virgin branch": masing_loop_energy(virgin.delta_t,
                                                                         virgin.Fx, amplitude),
                       "W Masing, Cattaneo-Mindlin (Eqs. 24-27)": masing_loop_energy(
                           grid, cattaneo, amplitude)})
    energy = pd.DataFrame(energy)
    energy["W / (4 A Fx*)"] = energy["W (J/m)"] / (4 * energy.A * energy["Fx* (N/m)"])
    for label, column in (("FEM", "W (J/m)"),
                          ("Cattaneo-Mindlin", "W Masing, Cattaneo-Mindlin (Eqs. 24-27)")):
        energy[f"local exponent, {label}"] = np.r_[np.nan, np.diff(np.log(energy[column]))
                                                  / np.diff(np.log(energy.A))]
    energy.insert(0, "onset of full slip (m)", onset)
    return pd.DataFrame(masing), energy


# -- normal unloading, case 2 over mu ----------------------------------------------------------

def unload_normal_table(runs: Runs, settings: DomainSettings) -> pd.DataFrame:
    table = runs.table(_unload_normal_case(settings, full_slip_onset(runs, settings)))
    start = table[table.stage == "tangential"].index[-1]
    rows = table.loc[start:]
    return pd.DataFrame({"step": rows.step, "stage": rows.stage, "delta_n": rows.delta_n,
                         "delta_t": rows.delta_t, "N / N at start": rows.N / rows.N.iloc[0],
                         "T / (mu N)": rows["T"] / (settings.mu * rows.N), "c / a": rows.c / rows.a,
                         "slip nodes": rows.slip_nodes, "contact nodes": rows.contact_nodes})


#: the paper's linear spring, regressed on its own case 2 (Section 4.3)
PAPER_KN, PAPER_KT = 2.7e9, 1.5e9


def case2_mu_table(runs: Runs, settings: DomainSettings) -> pd.DataFrame:
    """Case 2 over mu on both supports of the flats, and the spring regressed on each."""
    rows = []
    for support, mu in itertools.product(SUPPORTS, settings.mus):
        table = runs.table(_case2(settings, mu, support))
        spring = linear_spring_from(table, mu)
        final = table.iloc[-1]
        rows.append({"support": support, "mu": mu, "steps": len(table), "steps in full slip": int((table.c == 0).sum()),
                     "steps with slip": int((table.slip_nodes > 0).sum()),
                     "final T / (mu N)": final["T"] / (mu * final.N),
                     "final c / a": final.c / final.a,
                     "kn (N/m)": spring.kn, "kt (N/m)": spring.kt, "kt / paper's 1.5e9": spring.kt
                     / PAPER_KT, "kn / paper's 2.7e9": spring.kn / PAPER_KN,
                     "kt / kn": spring.kt / spring.kn})
    return pd.DataFrame(rows)


def timing_table(runs: Runs) -> pd.DataFrame:
    return pd.DataFrame([{"pair": c.pair, "path": c.kind, "support": c.support, "level": c.level,
                          "mu": c.mu, **row["seconds"], "failure": row["failure"]}
                         for c, row in runs.done.items()])


def domain_checks(settings: DomainSettings | None = None, store: CaseStore | None = None,
                  executor: Executor = Inline(), progress: bool = True) -> dict[str, pd.DataFrame]:
    """Every table of the module docstring, computing the FEM runs missing from ``store`` on
    ``executor``."""
    settings = settings or DomainSettings()
    runs = Runs(store, executor, progress)
    runs.get(first_cases(settings))
    runs.get(cycle_cases(settings, full_slip_onset(runs, settings)))
    models = {beta: _half_plane(beta, settings)
              for beta in {dundurs_beta(u, l) for u, l, _, _ in PAIRS.values()}}
    masing, energy = cycle_tables(runs, settings)
    tables = {"normal": normal_table(runs, settings), "beta": beta_table(runs, settings, models),
              "beta_trend": beta_trend_table(runs, settings, models),
              "stick": stick_table(runs, settings, models), "masing": masing, "energy": energy,
              "unload_normal": unload_normal_table(runs, settings),
              "case2_mu": case2_mu_table(runs, settings)}
    tables["timing"] = timing_table(runs)
    return tables
