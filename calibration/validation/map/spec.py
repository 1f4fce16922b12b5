"""Declarative specs of the validity map (TOML): the axes of the space of contacts, and the FEM
load paths they expand to.

A spec has five kinds of tables (shipped: ``calibration/validation/map/specs/default.toml``, the
training spec of the calibrated law, ``heldout.toml``, its held-out contacts, and ``quick.toml``;
every value is checked by type and range before any FEM runs):

``[base]`` (every key required)
    the centre of the design: ``counterpart`` (``"disc"`` or ``"wall"``), body 1 (the upper
    disc, the smaller one) ``R1`` (m), ``E1`` (Pa), ``nu1``; body 2 as ratios to body 1,
    ``R2_over_R1`` (>= 1), ``E2_over_E1``, and ``nu2``; ``mu``; ``a_over_R``, the contact
    half-width over R1 at the held approach (0 < a/R1 <= 0.3, the accurate model's range);
    ``support`` of the discs' flats (``clamped`` or ``symmetric``, :mod:`hertz2d.fem.supports`); ``level``,
    the FEM mesh level.
``[paths]`` (every key required)
    the load paths every case runs (:mod:`hertz2d.checks.loadpath`): ``normal_steps``, ``steps``
    (tangential steps of ``hold-normal`` and of ``proportional``), ``cycle_steps`` (a cycle's
    steps per amplitude of travel: one cycle is 4 of them after the first loading), ``cycles``
    (full cycles, or a random walk's periods, of a reversing path; its energy is judged on the
    last), ``normal_swing`` (a ``coupled-cycle``'s approach varies by this fraction each way),
    and ``[paths.loads]``: per kind, the list of its sizes (each one load path,
    :data:`LOAD_MEANING`): ``hold-normal`` (final delta_t over the onset of full slip),
    ``proportional`` (delta_t/delta_n over the ratio at which the contact starts to slip), the
    reversing kinds (``cycle``, ``coupled-cycle``, ``stick-cycle``, ``sliding-reversal``,
    ``random-walk``: amplitude, or a walk's bound, over the onset of full slip). Optional:
    ``[paths.swings]``, the approach's swing of ``stick-cycle``, ``sliding-reversal`` and
    ``random-walk`` (each in [0, 1); :data:`SWINGS` otherwise), ``reversals`` (a random walk's
    minor reversals per half period, >= 0; 2) and ``seed`` (>= 0, 0): a random walk's seed is
    drawn from it and the case (:func:`walk_seed`), so a spec walks the same way on any
    machine and every contact its own way.
``[studies.NAME]``
    axes, each a list of values, crossed with one another (a full factorial within the study);
    every other parameter is the base's. Axes: ``counterpart``, ``R2_over_R1``, ``E2_over_E1``,
    ``nu`` (both bodies), ``nu1``, ``nu2``, ``mu``, ``a_over_R``, ``support``. An optional
    ``paths`` list restricts the study to some kinds. A case that several studies reach is run
    once.
``[samples.NAME]``
    contacts drawn at random, a Latin hypercube (:func:`draw_sample`): ``cases``, ``seed``,
    ``wall_fraction`` (the share of cases against a rigid wall), the ranges ``[low, high]`` of
    ``R2_over_R1``, ``E2_over_E1``, ``nu1``, ``nu2``, ``mu``, ``a_over_R`` (ratios and a/R drawn
    uniformly in their logarithm, nu and mu uniformly), and ``[samples.NAME.loads]``, per kind the
    range of its size; every case runs every kind of ``paths`` (all of ``[paths.loads]`` by
    default) at its own drawn size. The rest is the base's. An optional ``level`` runs the
    sample at its own mesh level (the held-out stick cycles, whose FEM energy per cycle needs a
    finer mesh than the forces); a ``[convergence.mesh]`` check may not list it.
``[convergence.mesh]``, ``[convergence.steps]`` (optional)
    the cases of the listed studies (or samples) run again one ``level`` finer, or with every
    step count multiplied by ``factor``: how far the map's numbers are from the converged ones.

How a case becomes a load path. The approach that gives the contact half-width a = (a/R1) R1 is
Eq. 4 (N from a) and Eq. 22 (delta_n from N, each body's own Eq. 17 bracket: the FEM's
configuration, :class:`hertz2d.calibration.laws.ContactPair`'s ``per-body`` form); a disc on a wall is
the disc and its mirror image (Section 3.2), whose approach is twice the disc's. The onset of full
slip is Eq. 27 with Eq. 33's w; the ratio at which a proportional path starts to slip is
``mu kn/kt`` (Eqs. 29 and 31 with Eq. 33's w at the final approach: below it T/N = (delta_t/
delta_n) kt/kn stays under mu). These closed forms only set the paths' sizes; no law is judged by
them. A wall has no body 2: its cases leave ``R2_over_R1``, ``E2_over_E1`` and ``nu2`` empty.
"""
from __future__ import annotations

import itertools
import json
import math
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from scipy.stats import qmc

from hertz2d.calibration.laws import (EQ33, ContactPair, full_slip_displacement, normal_approach,
                              normal_stiffness, tangential_stiffness)
from hertz2d.calibration.runs import spec_file
from hertz2d.calibration.validation.map.runs import FemPath
from hertz2d.checks import InputError, count, poisson
from hertz2d.checks.loadpath import MINOR_BACK, REVERSALS, SWINGING
from hertz2d.fem.supports import SUPPORTS
from hertz2d.fem.twodisc import Disc, RigidFlat
from hertz2d.meshes.twodisc import LEVEL_LIMIT, MAX_LEVEL

COUNTERPARTS = ("disc", "wall")
#: the load paths of the map and what the size of each (a case's ``load``) measures
LOAD_MEANING = {
    "hold-normal": "final delta_t over the onset of full slip (Eq. 27)",
    "proportional": "delta_t/delta_n over the ratio mu kn/kt at which the contact starts to slip",
    "cycle": "amplitude over the onset of full slip",
    "coupled-cycle": "amplitude over the onset of full slip, delta_n varying in phase",
    "stick-cycle": "amplitude over the onset of full slip (below 1: a stick cycle), delta_n "
                   "swinging a quarter cycle out of phase",
    "sliding-reversal": "amplitude over the onset of full slip (above 1: sliding reversals), "
                        "delta_n swinging twice a cycle",
    "random-walk": "the walk's bound over the onset of full slip, seeded minor reversals, "
                   "delta_n swinging out of phase"}
PATH_KINDS = tuple(LOAD_MEANING)
#: the kinds whose size is a multiple of the onset of full slip (the rest: of the slip ratio)
ONSET_SCALED = ("hold-normal", "cycle", "coupled-cycle", *SWINGING)
#: the kinds that reverse between +A and -A (steps per amplitude of travel, ``cycles``)
CYCLIC = ("cycle", "coupled-cycle", *SWINGING)
#: the approach swing of the kinds of :data:`hertz2d.checks.loadpath.SWINGING` unless ``[paths.swings]``
#: gives it: mild for a stick cycle, the review's 30-35 % for the others
SWINGS = {"stick-cycle": 0.05, "sliding-reversal": 0.35, "random-walk": 0.3}
#: the axes a study may vary (``nu`` sets both bodies' Poisson ratio)
AXES = ("counterpart", "R2_over_R1", "E2_over_E1", "nu", "nu1", "nu2", "mu", "a_over_R",
        "support")
#: axes that describe body 2, which a wall does not have
DISC_ONLY = ("R2_over_R1", "E2_over_E1", "nu2")
#: the axes a sample draws, and those drawn uniformly in their logarithm
SAMPLED = ("R2_over_R1", "E2_over_E1", "nu1", "nu2", "mu", "a_over_R")
LOG_SAMPLED = ("R2_over_R1", "E2_over_E1", "a_over_R")
#: the widest contact the map accepts (a / R1): the accurate model's limit
#: (:data:`hertz2d.calibration.laws.hertz2d.ACCURATE_MAX_A_OVER_R`)
MAX_A_OVER_R = 0.3
BASE_KEYS = ("counterpart", "R1", "E1", "nu1", "R2_over_R1", "E2_over_E1", "nu2", "mu",
             "a_over_R", "support", "level")
PATH_KEYS = {"normal_steps", "steps", "cycle_steps", "cycles", "normal_swing", "loads"}
PATH_OPTIONAL = {"swings", "reversals", "seed"}
SAMPLE_KEYS = {"cases", "seed", "wall_fraction", *SAMPLED, "loads"}
SAMPLE_OPTIONAL = {"paths", "level"}
#: significant digits of a sample's drawn values
SAMPLE_DIGITS = 4
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
    """One point of the space: the two bodies, friction, contact size, support, path kind and
    its size (``load``, :data:`LOAD_MEANING`)."""

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
    load: float

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

    def slip_ratio(self) -> float:
        """``mu kn/kt`` at the case's half-width (Eqs. 29, 31, Eq. 33's w): the delta_t/delta_n
        of a proportional path above which T/N reaches mu (the same for a wall's disc and its
        pair, whose displacements are both doubled)."""
        pair = self.pair()
        a = self.a_over_R * self.R1
        return float(self.mu * normal_stiffness(pair, a) / tangential_stiffness(pair, a, EQ33))

    def travel(self, kind: str, load: float) -> float:
        """The final delta_t (hold-normal, proportional) or amplitude (cycles) of a path of
        ``kind`` and size ``load``."""
        delta_n, onset = self.approach()
        return load * (onset if kind in ONSET_SCALED else self.slip_ratio() * delta_n)

    def row(self) -> dict:
        return {"counterpart": self.counterpart, "R2_over_R1": self.R2_over_R1,
                "E2_over_E1": self.E2_over_E1, "nu1": self.nu1, "nu2": self.nu2, "mu": self.mu,
                "a_over_R": self.a_over_R, "support": self.support, "path": self.path,
                "load": self.load, "R1": self.R1, "E1": self.E1}


@dataclass(frozen=True)
class PathSettings:
    """The ``[paths]`` table: steps and sizes of the load paths."""

    normal_steps: int
    steps: int
    cycle_steps: int
    cycles: int
    normal_swing: float
    #: ``(kind, sizes)`` pairs: the sizes of each kind's paths (:data:`LOAD_MEANING`)
    loads: tuple[tuple[str, tuple[float, ...]], ...]
    #: ``(kind, swing)`` pairs for the kinds of :data:`SWINGS` (the rest: its defaults)
    swings: tuple[tuple[str, float], ...] = ()
    #: a random walk's minor reversals per half period, and the seed its draws start from
    reversals: int = REVERSALS
    seed: int = 0

    @property
    def sizes(self) -> dict[str, tuple[float, ...]]:
        """kind -> the sizes of its paths."""
        return dict(self.loads)

    def swing(self, kind: str) -> float:
        """The approach's relative swing on a path of ``kind`` (0: held)."""
        if kind == "coupled-cycle":
            return self.normal_swing
        return dict(self.swings).get(kind, SWINGS.get(kind, 0.0))

    def scaled(self, factor: int) -> "PathSettings":
        """Every step count multiplied by ``factor`` (the same path in smaller steps)."""
        return replace(self, normal_steps=self.normal_steps * factor, steps=self.steps * factor,
                       cycle_steps=self.cycle_steps * factor)


@dataclass(frozen=True)
class MapRun:
    """A case at a mesh level and step settings: the default run or a convergence check.
    ``reach`` is the largest size of each kind among the case's siblings (the same contact on
    other paths), which the bodies are meshed for so that all of them share one mesh."""

    case: MapCase
    variant: str
    level: int
    settings: PathSettings
    reach: tuple[tuple[str, float], ...]

    def fem_path(self) -> FemPath:
        """The FEM run of this case, on bodies meshed for the delta_t range and the largest
        approach of all its siblings' paths, so that they share them."""
        case, s = self.case, self.settings
        delta_n = case.approach()[0]
        reach = dict(self.reach)
        travels = [case.travel(kind, load) for kind, load in reach.items()]
        cycles = [case.travel(kind, load) for kind, load in reach.items() if kind in CYCLIC]
        window = (-max(cycles, default=0.0), max(travels))
        mesh_approach = delta_n * (1.0 + max(s.swing(kind) for kind in reach))
        cyclic = case.path in CYCLIC
        walk = case.path == "random-walk"
        upper, lower = case.bodies()
        return FemPath(upper, lower, case.mu, case.support, self.level, case.path, delta_n,
                       case.travel(case.path, case.load),
                       s.cycle_steps if cyclic else s.steps, s.normal_steps, window,
                       s.cycles if cyclic else 1, s.swing(case.path), mesh_approach,
                       walk_seed(case, s.seed) if walk else 0,
                       s.reversals if walk else REVERSALS)


def walk_seed(case: MapCase, seed: int) -> int:
    """A random walk's generator seed: ``[paths] seed`` and the case (its contact and size), so
    that every contact walks its own way and the same spec walks the same way on any machine."""
    text = json.dumps(case.row(), sort_keys=True)
    return zlib.crc32(f"{seed}:{text}".encode())


@dataclass(frozen=True)
class Study:
    """A ``[studies.NAME]`` table: its axes (in the spec's order) and values."""

    name: str
    axes: dict[str, list]

    @property
    def varied(self) -> list[str]:
        """The axes with more than one value (the figures' axes)."""
        return [axis for axis, values in self.axes.items() if len(values) > 1]


@dataclass(frozen=True)
class Sample:
    """A ``[samples.NAME]`` table: contacts drawn at random over ranges (:func:`draw_sample`)."""

    name: str
    cases: int
    seed: int
    wall_fraction: float
    ranges: dict[str, tuple[float, float]]
    loads: dict[str, tuple[float, float]]
    #: the sample's own mesh level (None: the base's), for paths whose verdict needs a finer one
    level: int | None = None


@dataclass
class MapSpec:
    """An expanded spec: every run (default ones first), the studies and samples, which of them
    reach each case, and the default mesh level."""

    name: str
    level: int
    settings: PathSettings
    studies: dict[str, Study]
    runs: list[MapRun]
    case_studies: dict[MapCase, tuple[str, ...]] = field(default_factory=dict)
    #: the ``[base]`` values (checked)
    base: dict = field(default_factory=dict)
    samples: dict[str, Sample] = field(default_factory=dict)
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


def _range(where: str, key: str, value, check) -> tuple[float, float]:
    """``[low, high]``, both passing ``check``, low <= high."""
    values = spec_file.numbers(where, key, value)
    if len(values) != 2 or values[0] > values[1]:
        raise InputError(f"[{where}] {key}={value!r} is not a range [low, high]")
    return check(where, key, values[0]), check(where, key, values[1])


# -- reading the tables ---------------------------------------------------------------------------

def _base(spec: dict) -> tuple[dict, int]:
    base = spec_file.table(spec, "base")
    spec_file.require_keys("base", base, set(BASE_KEYS))
    values = {key: CHECKS[key]("base", key, base[key]) for key in BASE_KEYS if key != "level"}
    return values, _level("base", base["level"])


def _loads(where: str, table, as_range: bool) -> dict:
    """``[... .loads]``: per kind a list of sizes (or, in a sample, a range)."""
    if not isinstance(table, dict) or not table:
        raise InputError(f"[{where}.loads] must be a table of {', '.join(PATH_KINDS)}")
    spec_file.require_keys(f"{where}.loads", table, set(), set(PATH_KINDS))
    if as_range:
        return {kind: _range(f"{where}.loads", kind, table[kind], _positive)
                for kind in PATH_KINDS if kind in table}
    return {kind: tuple(_positive(f"{where}.loads", kind, v)
                        for v in spec_file.numbers(f"{where}.loads", kind, table[kind]))
            for kind in PATH_KINDS if kind in table}


def _swing(where: str, key: str, value) -> float:
    swing = spec_file.number(where, key, value)
    if not 0 <= swing < 1:
        raise InputError(f"[{where}] {key}={value!r} must be in [0, 1) (the contact would "
                         "open where the approach swings lowest)")
    return swing


def _whole(where: str, key: str, value, minimum: int) -> int:
    number = spec_file.integer(where, key, value)
    if number < minimum:
        raise InputError(f"[{where}] {key}={value!r} must be >= {minimum}")
    return number


def _path_settings(spec: dict) -> PathSettings:
    paths = spec_file.table(spec, "paths")
    spec_file.require_keys("paths", paths, PATH_KEYS, PATH_OPTIONAL)
    swings = paths.get("swings", {})
    if not isinstance(swings, dict):
        raise InputError(f"[paths] swings={swings!r} is not a table of {', '.join(SWINGS)}")
    spec_file.require_keys("paths.swings", swings, set(), set(SWINGS))
    return PathSettings(normal_steps=_steps("paths", "normal_steps", paths["normal_steps"]),
                        steps=_steps("paths", "steps", paths["steps"]),
                        cycle_steps=_steps("paths", "cycle_steps", paths["cycle_steps"]),
                        cycles=_steps("paths", "cycles", paths["cycles"]),
                        normal_swing=_swing("paths", "normal_swing", paths["normal_swing"]),
                        loads=tuple(_loads("paths", paths["loads"], False).items()),
                        swings=tuple((kind, _swing("paths.swings", kind, swings[kind]))
                                     for kind in SWINGS if kind in swings),
                        reversals=_whole("paths", "reversals",
                                         paths.get("reversals", REVERSALS), 0),
                        seed=_whole("paths", "seed", paths.get("seed", 0), 0))


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
    return Study(name, axes), _kinds(where, table, kinds)


def _kinds(where: str, table: dict, kinds: list[str]) -> list[str]:
    """The table's ``paths`` (kinds of ``[paths.loads]``), or all of them."""
    return (spec_file.words(where, "paths", table["paths"], tuple(kinds))
            if "paths" in table else kinds)


def _sample(name: str, table, kinds: list[str]) -> tuple[Sample, list[str]]:
    where = f"samples.{name}"
    if not isinstance(table, dict):
        raise InputError(f"[{where}] in the spec is not a table")
    spec_file.require_keys(where, table, SAMPLE_KEYS, SAMPLE_OPTIONAL)
    cases = count(f"[{where}] cases", spec_file.integer(where, "cases", table["cases"]))
    fraction = spec_file.number(where, "wall_fraction", table["wall_fraction"])
    if not 0 <= fraction <= 1:
        raise InputError(f"[{where}] wall_fraction={fraction!r} must be in [0, 1]")
    ranges = {axis: _range(where, axis, table[axis], CHECKS[axis]) for axis in SAMPLED}
    chosen = _kinds(where, table, kinds)
    loads = _loads(where, table["loads"], True)
    missing = [kind for kind in chosen if kind not in loads]
    if missing:
        raise InputError(f"[{where}.loads] gives no range for {', '.join(missing)}")
    sample = Sample(name, cases, spec_file.integer(where, "seed", table["seed"]), fraction,
                    ranges, {kind: loads[kind] for kind in chosen},
                    _level(where, table["level"]) if "level" in table else None)
    return sample, chosen


def _rounded(value: float) -> float:
    return float(f"{value:.{SAMPLE_DIGITS}g}")


def draw_sample(sample: Sample) -> list[dict]:
    """The sample's contacts: a Latin hypercube of ``cases`` points (scipy's, seeded) over the
    axes of :data:`SAMPLED`, one more dimension choosing the counterpart (a wall below
    ``wall_fraction``) and one per load kind for its size; ratios and a/R uniform in their
    logarithm; every value rounded to :data:`SAMPLE_DIGITS` significant digits (tables read
    better, and the numbers are the same on every machine). Each entry: the axes' values and
    ``loads`` (kind -> size)."""
    kinds = list(sample.loads)
    points = qmc.LatinHypercube(d=len(SAMPLED) + 1 + len(kinds), seed=sample.seed).random(
        sample.cases)
    drawn = []
    for point in points:
        values = {}
        for axis, u in zip(SAMPLED, point):
            low, high = sample.ranges[axis]
            values[axis] = _rounded(np.exp(np.log(low) + u * (np.log(high) - np.log(low)))
                                    if axis in LOG_SAMPLED and low > 0 else low + u * (high - low))
        values["counterpart"] = "wall" if point[len(SAMPLED)] < sample.wall_fraction else "disc"
        values["loads"] = {kind: _rounded(low + u * (high - low)) for kind, u, (low, high) in zip(
            kinds, point[len(SAMPLED) + 1:], sample.loads.values())}
        drawn.append(values)
    return drawn


def _case(base: dict, values: dict, kind: str, load: float) -> MapCase:
    merged = {**base, **values}
    if "nu" in merged:
        merged["nu1"] = merged["nu2"] = merged.pop("nu")
    wall = merged["counterpart"] == "wall"
    return MapCase(counterpart=merged["counterpart"], R1=merged["R1"], E1=merged["E1"],
                   nu1=merged["nu1"], R2_over_R1=None if wall else merged["R2_over_R1"],
                   E2_over_E1=None if wall else merged["E2_over_E1"],
                   nu2=None if wall else merged["nu2"], mu=merged["mu"],
                   a_over_R=merged["a_over_R"], support=merged["support"], path=kind,
                   load=load)


def _convergence(spec: dict, names: tuple[str, ...], level: int,
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
        chosen = spec_file.words(where, "studies", table["studies"], names)
        if kind == "mesh":
            finer = _level(where, table["level"])
            if finer == level:
                raise InputError(f"[{where}] level={finer!r} is the map's own level")
            checks.append((f"level {finer}", chosen, finer, settings))
        else:
            factor = spec_file.integer(where, "factor", table["factor"])
            if factor < 2:
                raise InputError(f"[{where}] factor={factor!r} must be >= 2")
            checks.append((f"steps x{factor}", chosen, level, settings.scaled(factor)))
    return checks


def _reach(cases: list[MapCase]) -> dict[MapCase, tuple[tuple[str, float], ...]]:
    """Per case the largest size of each kind over the cases of the same contact."""
    largest: dict[MapCase, dict[str, float]] = {}
    for case in cases:
        contact = replace(case, path="", load=0.0)
        sizes = largest.setdefault(contact, {})
        sizes[case.path] = max(sizes.get(case.path, 0.0), case.load)
    return {case: tuple(sorted(largest[replace(case, path="", load=0.0)].items()))
            for case in cases}


def steps_of(kind: str, settings: PathSettings) -> int:
    """The load steps of a path of ``kind`` (:meth:`MapRun.fem_path`, :mod:`hertz2d.checks.loadpath`); of a
    random walk, at most: a half period travels at most ``2 A (1 + 2 MINOR_BACK[1])`` (each
    minor reversal steps back at most that share of the descent before it, travelled twice) and
    each of its ``2 reversals + 1`` legs rounds up by at most one step."""
    if kind == "random-walk":
        legs = 2 * settings.reversals + 1
        half = settings.cycle_steps * 2 * (1 + 2 * MINOR_BACK[1]) + legs
        return settings.normal_steps + settings.cycle_steps + math.ceil(
            2 * settings.cycles * half)
    if kind in CYCLIC:
        return settings.normal_steps + settings.cycle_steps * (1 + 4 * settings.cycles)
    return {"hold-normal": settings.normal_steps + settings.steps,
            "proportional": settings.steps}[kind]


def estimate(contacts: dict[str, tuple[int, list[str]]], level: int, settings: PathSettings,
             checks: list[tuple[str, list[str], int, PathSettings]],
             levels: dict[str, int] | None = None) -> tuple[int, float]:
    """``(paths, CPU seconds)`` of a map, counted before any case is made from each study's or
    sample's number of contacts and path kinds (``contacts``: name -> (contacts, kinds)): an
    upper bound on the paths (a case several studies reach runs once) and their cost at
    :data:`SECONDS_PER_STEP`, times 4 per mesh level above :data:`MEASURED_LEVEL`; ``levels``
    gives a sample's own level (the others run at ``level``)."""
    levels = levels or {}
    paths, seconds = 0, 0.0
    for names, variant_level, variant_settings in (
            [(list(contacts), None, settings)]
            + [(names, finer, scaled) for _, names, finer, scaled in checks]):
        sizes = variant_settings.sizes
        for name in names:
            count_, kinds = contacts[name]
            at = variant_level if variant_level is not None else levels.get(name, level)
            per_contact = {kind: len(sizes.get(kind, ())) or 1 for kind in kinds}
            paths += count_ * sum(per_contact.values())
            seconds += count_ * sum(n * steps_of(kind, variant_settings)
                                    for kind, n in per_contact.items()) * (
                SECONDS_PER_STEP * 4.0 ** (at - MEASURED_LEVEL))
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
    then the samples' order, then the convergence checks. A sample's sizes are one per contact
    and kind (drawn), a study's every size of ``[paths.loads]``."""
    spec_file.require_keys("spec", spec, {"base", "paths"}, {"studies", "samples", "convergence"})
    base, level = _base(spec)
    settings = _path_settings(spec)
    kinds = list(settings.sizes)
    studies = {study_name: _study(study_name, table, kinds) for study_name, table
               in spec_file.table(spec, "studies", required=False).items()}
    samples = {sample_name: _sample(sample_name, table, kinds) for sample_name, table
               in spec_file.table(spec, "samples", required=False).items()}
    if not studies and not samples:
        raise InputError("the spec declares no [studies.*] or [samples.*]")
    checks = _convergence(spec, (*studies, *samples), level, settings)
    levels = {name: sample.level for name, (sample, _) in samples.items()
              if sample.level is not None}
    for _, names, finer, _ in checks:
        own = [name for name in names if levels.get(name, -1) >= finer]
        if own:
            raise InputError(f"[convergence] lists {', '.join(own)}, whose own level is not "
                             f"below {finer}")
    contacts = {**{name: (math.prod(len(v) for v in study.axes.values()), study_kinds)
                   for name, (study, study_kinds) in studies.items()},
                **{name: (sample.cases, sample_kinds)
                   for name, (sample, sample_kinds) in samples.items()}}
    paths, seconds = estimate(contacts, level, settings, checks, levels)
    check_size(paths, seconds, max_cpu_hours)
    case_studies: dict[MapCase, tuple[str, ...]] = {}

    def reached(case: MapCase, by: str) -> None:
        names = case_studies.setdefault(case, ())
        if by not in names:
            case_studies[case] = names + (by,)

    for study_name, (study, study_kinds) in studies.items():
        for values in itertools.product(*study.axes.values()):
            for kind in study_kinds:
                for load in settings.sizes[kind]:
                    reached(_case(base, dict(zip(study.axes, values)), kind, load), study_name)
    for sample_name, (sample, _) in samples.items():
        for values in draw_sample(sample):
            loads = values.pop("loads")
            if values["counterpart"] == "wall":
                values = {k: v for k, v in values.items() if k not in DISC_ONLY}
            for kind, load in loads.items():
                reached(_case(base, values, kind, load), sample_name)
    reach = _reach(list(case_studies))
    runs = [MapRun(case, DEFAULT_VARIANT, levels.get(by[0], level), settings, reach[case])
            for case, by in case_studies.items()]
    for variant, names, variant_level, variant_settings in checks:
        runs += [MapRun(case, variant, variant_level, variant_settings, reach[case])
                 for case, by in case_studies.items() if set(by) & set(names)]
    for run in runs:
        first = case_studies[run.case][0]
        _check_geometry(run, f"{'studies' if first in studies else 'samples'}.{first}")
    return MapSpec(name, level, settings, {n: study for n, (study, _) in studies.items()},
                   runs, case_studies, {**base, "level": level},
                   {n: sample for n, (sample, _) in samples.items()}, seconds)


def _check_geometry(run: MapRun, where: str) -> None:
    try:
        run.fem_path().check()
    except InputError as error:
        case = ", ".join(f"{k}={v!r}" for k, v in run.case.row().items() if v is not None)
        raise InputError(f"[{where}] the case {case} ({run.variant}) cannot be run: "
                         f"{error}") from None


def read(path: str | Path | None = None, quick: bool = False,
         shipped: str | None = None, max_cpu_hours: float = MAX_CPU_HOURS) -> MapSpec:
    """The expanded spec at ``path``, or a shipped one: ``shipped`` (a file name in
    ``calibration/validation/map/specs/``), else the quick or the default spec."""
    shipped = shipped or ("quick.toml" if quick else "default.toml")
    parsed = spec_file.read_spec(path, "hertz2d.calibration.validation.map.specs", shipped)
    return expand(parsed, str(path) if path is not None else shipped, max_cpu_hours)
