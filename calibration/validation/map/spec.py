"""Declarative specs of the validity map (TOML): the axes of the space of contacts, and the FEM
load paths they expand to.

A spec has four kinds of tables (shipped: ``calibration/validation/map/specs/default.toml`` and
``quick.toml``; every value is checked by type and range before any FEM runs):

``[base]`` (every key required)
    the centre of the design: ``counterpart`` (``"disc"`` or ``"wall"``), body 1 (the upper
    disc, the smaller one) ``R1`` (m), ``E1`` (Pa), ``nu1``; body 2 as ratios to body 1,
    ``R2_over_R1`` (>= 1), ``E2_over_E1``, and ``nu2``; ``mu``; ``a_over_R``, the contact
    half-width over R1 at the held approach (0 < a/R1 <= 0.3, the accurate model's range);
    ``support`` of the discs' flats (``clamped`` or ``symmetric``, :mod:`fem.supports`); ``level``,
    the FEM mesh level.
``[paths]`` (every key required)
    the load paths every case runs (:mod:`fem.loadpath`): ``kinds`` (of ``hold-normal``,
    ``proportional``, ``cycle``), ``normal_steps``, ``steps`` (tangential steps of
    ``hold-normal`` and of ``proportional``), ``hold_normal_travel`` (``hold-normal``'s final
    delta_t over the onset of full slip), ``proportional_ratio`` (delta_t/delta_n of
    ``proportional``; 1 in the paper's case 2), ``cycle_amplitude`` (a ``cycle``'s amplitude over
    the onset of full slip), ``cycle_steps`` (a cycle's steps per amplitude of travel: one cycle
    is 4 of them after the first loading).
``[studies.NAME]``
    axes, each a list of values, crossed with one another (a full factorial within the study);
    every other parameter is the base's. Axes: ``counterpart``, ``R2_over_R1``, ``E2_over_E1``,
    ``nu`` (both bodies), ``nu1``, ``nu2``, ``mu``, ``a_over_R``, ``support``. An optional
    ``paths`` list restricts the study to some kinds. A case that several studies reach is run
    once.
``[convergence.mesh]``, ``[convergence.steps]`` (optional)
    the cases of the listed ``studies`` run again one ``level`` finer, or with every step count
    multiplied by ``factor``: how far the map's numbers are from the converged ones.

How a case becomes a load path. The approach that gives the contact half-width a = (a/R1) R1 is
Eq. 4 (N from a) and Eq. 22 (delta_n from N, each body's own Eq. 17 bracket: the FEM's
configuration, :class:`calibration.laws.ContactPair`'s ``per-body`` form); a disc on a wall is
the disc and its mirror image (Section 3.2), whose approach is twice the disc's. The onset of full
slip is Eq. 27 with Eq. 33's w. A wall has no body 2: its cases leave ``R2_over_R1``,
``E2_over_E1`` and ``nu2`` empty.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from calibration.laws import EQ33, ContactPair, full_slip_displacement, normal_approach
from calibration.runs import spec_file
from calibration.validation.map.runs import FemPath
from fem.supports import SUPPORTS
from fem.twodisc import Disc, RigidFlat
from checks import InputError, count, poisson
from meshes.twodisc import LEVEL_LIMIT, MAX_LEVEL

COUNTERPARTS = ("disc", "wall")
#: the load paths of the map (the issue's three; every law runs at least one of them)
PATH_KINDS = ("hold-normal", "proportional", "cycle")
#: the axes a study may vary (``nu`` sets both bodies' Poisson ratio)
AXES = ("counterpart", "R2_over_R1", "E2_over_E1", "nu", "nu1", "nu2", "mu", "a_over_R",
        "support")
#: axes that describe body 2, which a wall does not have
DISC_ONLY = ("R2_over_R1", "E2_over_E1", "nu2")
#: the widest contact the map accepts (a / R1): the accurate model's limit
#: (:data:`calibration.laws.hertz2d.ACCURATE_MAX_A_OVER_R`)
MAX_A_OVER_R = 0.3
BASE_KEYS = ("counterpart", "R1", "E1", "nu1", "R2_over_R1", "E2_over_E1", "nu2", "mu",
             "a_over_R", "support", "level")
PATH_KEYS = {"kinds", "normal_steps", "steps", "hold_normal_travel", "proportional_ratio",
             "cycle_amplitude", "cycle_steps"}
#: the variant every case runs at (the others are the convergence checks)
DEFAULT_VARIANT = "default"
#: CPU seconds of one load step of a map path at mesh level 2, its share of the law tables
#: included: the committed full map (``default.toml``: 288 paths of 30 steps on average) took
#: 100 s of wall time on 2 worker processes (``results/run.json``), 0.7 CPU s a path
SECONDS_PER_STEP = 0.023
#: the mesh level of that measurement; each level finer has 4 times the elements and costs 4x
MEASURED_LEVEL = 2
#: the estimated CPU time beyond which a map is refused unless ``max_cpu_hours`` allows it
MAX_CPU_HOURS = 2.0


@dataclass(frozen=True)
class MapCase:
    """One point of the space: the two bodies, friction, contact size, support and path kind."""

    counterpart: str
    R1: float
    E1: float
    nu1: float
    R2_over_R1: float | None
    E2_over_E1: float | None
    nu2: float | None
    mu: float
    a_over_R: float
    support: str
    path: str

    @property
    def wall(self) -> bool:
        return self.counterpart == "wall"

    def pair(self) -> ContactPair:
        """The laws' pair: the two discs (per-body form, the FEM's configuration) or the disc and
        its mirror image standing for the wall."""
        if self.wall:
            return ContactPair.disc_on_wall(self.R1, self.E1, self.nu1, self.mu)
        return ContactPair(self.R1, self.R1 * self.R2_over_R1, self.E1, self.E1 * self.E2_over_E1,
                           self.nu1, self.nu2, self.mu)

    def bodies(self) -> tuple[Disc, Disc | RigidFlat]:
        """The FEM's upper disc (body 1) and lower body (body 2, or a rigid wall)."""
        upper = Disc(self.R1, self.E1, self.nu1)
        if self.wall:
            return upper, RigidFlat()
        return upper, Disc(self.R1 * self.R2_over_R1, self.E1 * self.E2_over_E1, self.nu2)

    def _disc_displacement(self, pair_displacement: float) -> float:
        """The prescribed displacement for a law's pair displacement (halved on a wall: the pair
        is the disc and its mirror image, Section 3.2)."""
        return 0.5 * pair_displacement if self.wall else pair_displacement

    def approach(self) -> tuple[float, float]:
        """``(delta_n, onset)``: the approach that gives the half-width a = (a/R1) R1 (Eqs. 4,
        22) and the tangential displacement at the onset of full slip there (Eq. 27, Eq. 33)."""
        pair = self.pair()
        a = self.a_over_R * self.R1
        N = float(np.pi * pair.modulus * a * a / (4.0 * pair.radius))
        return (self._disc_displacement(float(normal_approach(pair, N))),
                self._disc_displacement(float(full_slip_displacement(pair, N, a, EQ33))))

    def row(self) -> dict:
        return {"counterpart": self.counterpart, "R2_over_R1": self.R2_over_R1,
                "E2_over_E1": self.E2_over_E1, "nu1": self.nu1, "nu2": self.nu2, "mu": self.mu,
                "a_over_R": self.a_over_R, "support": self.support, "path": self.path,
                "R1": self.R1, "E1": self.E1}


@dataclass(frozen=True)
class PathSettings:
    """The ``[paths]`` table: steps and travels of the load paths."""

    normal_steps: int
    steps: int
    hold_normal_travel: float
    proportional_ratio: float
    cycle_amplitude: float
    cycle_steps: int

    def scaled(self, factor: int) -> "PathSettings":
        """Every step count multiplied by ``factor`` (the same path in smaller steps)."""
        return replace(self, normal_steps=self.normal_steps * factor, steps=self.steps * factor,
                       cycle_steps=self.cycle_steps * factor)


@dataclass(frozen=True)
class MapRun:
    """A case at a mesh level and step settings: the default run or a convergence check."""

    case: MapCase
    variant: str
    level: int
    settings: PathSettings

    def fem_path(self) -> FemPath:
        """The FEM run of this case (its load path from :meth:`MapCase.approach`), on bodies
        meshed for the delta_t of all of :data:`PATH_KINDS`, so the case's paths share them."""
        delta_n, onset = self.case.approach()
        s, kind = self.settings, self.case.path
        travel = {"hold-normal": s.hold_normal_travel * onset,
                  "proportional": s.proportional_ratio * delta_n,
                  "cycle": s.cycle_amplitude * onset}
        window = (-travel["cycle"], max(travel.values()))
        upper, lower = self.case.bodies()
        return FemPath(upper, lower, self.case.mu, self.case.support, self.level, kind,
                       delta_n, travel[kind], s.cycle_steps if kind == "cycle" else s.steps,
                       s.normal_steps, window)


@dataclass(frozen=True)
class Study:
    """A ``[studies.NAME]`` table: its axes (in the spec's order) and values."""

    name: str
    axes: dict[str, list]

    @property
    def varied(self) -> list[str]:
        """The axes with more than one value (the figures' axes)."""
        return [axis for axis, values in self.axes.items() if len(values) > 1]


@dataclass
class MapSpec:
    """An expanded spec: every run (default ones first), the studies, which studies reach each
    case, and the default mesh level."""

    name: str
    level: int
    settings: PathSettings
    studies: dict[str, Study]
    runs: list[MapRun]
    case_studies: dict[MapCase, tuple[str, ...]] = field(default_factory=dict)
    #: the ``[base]`` values (checked)
    base: dict = field(default_factory=dict)
    #: the CPU time :func:`estimate` expects of the FEM paths, s
    estimated_seconds: float = 0.0

    @property
    def default_runs(self) -> list[MapRun]:
        return [run for run in self.runs if run.variant == DEFAULT_VARIANT]


# -- checking values ------------------------------------------------------------------------------

def _positive(where: str, key: str, value) -> float:
    number = spec_file.number(where, key, value)
    if number <= 0:
        raise InputError(f"[{where}] {key}={value!r} must be > 0")
    return number


def _ratio(where: str, key: str, value) -> float:
    number = spec_file.number(where, key, value)
    if key == "R2_over_R1" and number < 1:
        raise InputError(f"[{where}] {key}={value!r} must be >= 1 (body 1 is the smaller disc: "
                         "a/R1 is the larger of the two a/R)")
    if number <= 0:
        raise InputError(f"[{where}] {key}={value!r} must be > 0")
    return number


def _poisson(where: str, key: str, value) -> float:
    number = spec_file.number(where, key, value)
    try:
        return poisson(key, number)
    except InputError as error:
        raise InputError(f"[{where}] {error}") from None


def _contact_size(where: str, key: str, value) -> float:
    number = spec_file.number(where, key, value)
    if not 0 < number <= MAX_A_OVER_R:
        raise InputError(f"[{where}] {key}={value!r} must be in (0, {MAX_A_OVER_R:g}] (the "
                         "accurate model's range of a/R)")
    return number


def _word(choices):
    def check(where: str, key: str, value) -> str:
        if value not in choices:
            raise InputError(f"[{where}] {key}={value!r} is not one of {', '.join(choices)}")
        return value
    return check


#: the axes whose values are words, and the words they take
WORDS = {"counterpart": COUNTERPARTS, "support": SUPPORTS}
#: axis (and base key) -> the check of one value
CHECKS = {"counterpart": _word(COUNTERPARTS), "R1": _positive, "E1": _positive,
          "R2_over_R1": _ratio, "E2_over_E1": _ratio, "nu": _poisson, "nu1": _poisson,
          "nu2": _poisson, "mu": _positive, "a_over_R": _contact_size, "support": _word(SUPPORTS)}


def _level(where: str, value) -> int:
    level = spec_file.integer(where, "level", value)
    try:
        return count("level", level, minimum=0, maximum=MAX_LEVEL, why=LEVEL_LIMIT)
    except InputError as error:
        raise InputError(f"[{where}] {error}") from None


def _steps(where: str, key: str, value) -> int:
    number = spec_file.integer(where, key, value)
    if number < 1:
        raise InputError(f"[{where}] {key}={value!r} must be >= 1")
    return number


# -- reading the tables ---------------------------------------------------------------------------

def _base(spec: dict) -> tuple[dict, int]:
    base = spec_file.table(spec, "base")
    spec_file.require_keys("base", base, set(BASE_KEYS))
    values = {key: CHECKS[key]("base", key, base[key]) for key in BASE_KEYS if key != "level"}
    return values, _level("base", base["level"])


def _path_settings(spec: dict) -> tuple[PathSettings, list[str]]:
    paths = spec_file.table(spec, "paths")
    spec_file.require_keys("paths", paths, PATH_KEYS)
    kinds = spec_file.words("paths", "kinds", paths["kinds"], PATH_KINDS)
    settings = PathSettings(
        normal_steps=_steps("paths", "normal_steps", paths["normal_steps"]),
        steps=_steps("paths", "steps", paths["steps"]),
        hold_normal_travel=_positive("paths", "hold_normal_travel", paths["hold_normal_travel"]),
        proportional_ratio=_positive("paths", "proportional_ratio", paths["proportional_ratio"]),
        cycle_amplitude=_positive("paths", "cycle_amplitude", paths["cycle_amplitude"]),
        cycle_steps=_steps("paths", "cycle_steps", paths["cycle_steps"]))
    return settings, kinds


def _study(name: str, table, kinds: list[str]) -> tuple[Study, list[str]]:
    where = f"studies.{name}"
    if not isinstance(table, dict):
        raise InputError(f"[{where}] in the spec is not a table")
    unknown = sorted(set(table) - set(AXES) - {"paths"})
    if unknown:
        raise InputError(f"[{where}] in the spec: unknown {', '.join(unknown)} (axes: "
                         f"{', '.join(AXES)}; and paths)")
    axes = {key: spec_file.words(where, key, value, WORDS[key]) if key in WORDS else
            [CHECKS[key](where, key, v) for v in spec_file.numbers(where, key, value)]
            for key, value in table.items() if key != "paths"}
    if not axes:
        raise InputError(f"[{where}] varies no axis: give one or more of {', '.join(AXES)}")
    if "nu" in axes and {"nu1", "nu2"} & set(axes):
        raise InputError(f"[{where}] gives nu (both bodies) and nu1 or nu2; give one of them")
    if axes.get("counterpart") == ["wall"] and set(DISC_ONLY) & set(axes):
        raise InputError(f"[{where}] varies {', '.join(sorted(set(DISC_ONLY) & set(axes)))}, "
                         "which a wall does not have")
    study_kinds = (spec_file.words(where, "paths", table["paths"], PATH_KINDS)
                   if "paths" in table else kinds)
    return Study(name, axes), study_kinds


def _case(base: dict, values: dict, kind: str) -> MapCase:
    merged = {**base, **values}
    if "nu" in merged:
        merged["nu1"] = merged["nu2"] = merged.pop("nu")
    wall = merged["counterpart"] == "wall"
    return MapCase(counterpart=merged["counterpart"], R1=merged["R1"], E1=merged["E1"],
                   nu1=merged["nu1"], R2_over_R1=None if wall else merged["R2_over_R1"],
                   E2_over_E1=None if wall else merged["E2_over_E1"],
                   nu2=None if wall else merged["nu2"], mu=merged["mu"],
                   a_over_R=merged["a_over_R"], support=merged["support"], path=kind)


def _convergence(spec: dict, studies: list[str], level: int,
                 settings: PathSettings) -> list[tuple[str, list[str], int, PathSettings]]:
    """``(variant, studies, level, settings)`` of each ``[convergence.*]`` table."""
    tables = spec_file.table(spec, "convergence", required=False)
    spec_file.require_keys("convergence", tables, set(), {"mesh", "steps"})
    checks = []
    for kind, extra in (("mesh", "level"), ("steps", "factor")):
        if kind not in tables:
            continue
        where = f"convergence.{kind}"
        table = spec_file.table(tables, kind)
        spec_file.require_keys(where, table, {"studies", extra})
        names = spec_file.words(where, "studies", table["studies"], tuple(studies))
        if kind == "mesh":
            finer = _level(where, table["level"])
            if finer == level:
                raise InputError(f"[{where}] level={finer!r} is the map's own level")
            checks.append((f"level {finer}", names, finer, settings))
        else:
            factor = spec_file.integer(where, "factor", table["factor"])
            if factor < 2:
                raise InputError(f"[{where}] factor={factor!r} must be >= 2")
            checks.append((f"steps x{factor}", names, level, settings.scaled(factor)))
    return checks


def steps_of(kind: str, settings: PathSettings) -> int:
    """The load steps of a path of ``kind`` (:meth:`MapRun.fem_path`, :mod:`fem.loadpath`)."""
    return {"hold-normal": settings.normal_steps + settings.steps,
            "proportional": settings.steps,
            "cycle": settings.normal_steps + 5 * settings.cycle_steps}[kind]


def estimate(studies: dict[str, tuple[Study, list[str]]], level: int, settings: PathSettings,
             checks: list[tuple[str, list[str], int, PathSettings]]) -> tuple[int, float]:
    """``(paths, CPU seconds)`` of a map, counted from the lengths of its axes before any case
    is made: an upper bound on the paths (a case several studies reach runs once) and their cost
    at :data:`SECONDS_PER_STEP`, times 4 per mesh level above :data:`MEASURED_LEVEL`."""
    paths, seconds = 0, 0.0
    for variant_studies, variant_level, variant_settings in (
            [(list(studies), level, settings)]
            + [(names, finer, scaled) for _, names, finer, scaled in checks]):
        for name in variant_studies:
            study, kinds = studies[name]
            cases = math.prod(len(values) for values in study.axes.values())
            paths += cases * len(kinds)
            seconds += cases * sum(steps_of(kind, variant_settings) for kind in kinds) * (
                SECONDS_PER_STEP * 4.0 ** (variant_level - MEASURED_LEVEL))
    return paths, seconds


def check_size(paths: int, seconds: float, max_cpu_hours: float) -> None:
    """Refuse a map whose estimated CPU time exceeds ``max_cpu_hours``, naming both."""
    if seconds > max_cpu_hours * 3600.0:
        hours = seconds / 3600.0
        raise InputError(
            f"the spec's map is up to {paths} FEM paths, about {hours:.3g} CPU hours (measured "
            f"{SECONDS_PER_STEP} CPU s a load step at mesh level {MEASURED_LEVEL}, 4x per finer "
            f"level), more than max_cpu_hours={max_cpu_hours:g}; give --max-cpu-hours "
            f"{math.ceil(hours)} if you mean it (N workers take about 1/N of that)")


def expand(spec: dict, name: str = "spec", max_cpu_hours: float = MAX_CPU_HOURS) -> MapSpec:
    """Every run of a parsed spec, checked (values, then its size against ``max_cpu_hours``,
    then each FEM path's geometry) before any FEM runs: the default runs first, in the studies'
    order, then the convergence checks."""
    spec_file.require_keys("spec", spec, {"base", "paths", "studies"}, {"convergence"})
    base, level = _base(spec)
    settings, kinds = _path_settings(spec)
    studies = {study_name: _study(study_name, table, kinds)
               for study_name, table in spec_file.table(spec, "studies").items()}
    if not studies:
        raise InputError("the spec declares no [studies.*]")
    checks = _convergence(spec, list(studies), level, settings)
    paths, seconds = estimate(studies, level, settings, checks)
    check_size(paths, seconds, max_cpu_hours)
    case_studies = {}
    for study_name, (study, study_kinds) in studies.items():
        for values in itertools.product(*study.axes.values()):
            for kind in study_kinds:
                case = _case(base, dict(zip(study.axes, values)), kind)
                reached = case_studies.setdefault(case, ())
                if study_name not in reached:
                    case_studies[case] = reached + (study_name,)
    runs = [MapRun(case, DEFAULT_VARIANT, level, settings) for case in case_studies]
    for variant, names, variant_level, variant_settings in checks:
        runs += [MapRun(case, variant, variant_level, variant_settings)
                 for case, reached in case_studies.items() if set(reached) & set(names)]
    for run in runs:
        _check_geometry(run, case_studies[run.case])
    return MapSpec(name, level, settings, {study_name: study for study_name, (study, _) in
                                           studies.items()}, runs, case_studies,
                   {**base, "level": level}, seconds)


def _check_geometry(run: MapRun, studies: tuple[str, ...]) -> None:
    try:
        run.fem_path().check()
    except InputError as error:
        case = ", ".join(f"{k}={v!r}" for k, v in run.case.row().items() if v is not None)
        raise InputError(f"[studies.{studies[0]}] the case {case} ({run.variant}) cannot be run: "
                         f"{error}") from None


def read(path: str | Path | None = None, quick: bool = False,
         max_cpu_hours: float = MAX_CPU_HOURS) -> MapSpec:
    """The expanded spec at ``path``, or the shipped default (or quick) spec."""
    shipped = "quick.toml" if quick else "default.toml"
    parsed = spec_file.read_spec(path, "calibration.validation.map.specs", shipped)
    return expand(parsed, str(path) if path is not None else shipped, max_cpu_hours)
