"""Declarative sweep specifications (TOML) and the half-round cases they expand to.

A spec has a ``[base]`` case (the paper's Section 4.1 set-up), one-parameter ``[studies.NAME]``
(Fig. 7), an ``[grid]`` of a/R x nu (Fig. 8) and a ``[convergence]`` list of mesh levels at the
base case. Every case is run for each support in ``base.supports``. A study varies exactly one of
``R, a, a_over_R, E, nu, T`` and may hold a derived quantity fixed:

``hold = "a_over_R"``
    when R varies, a follows it (the body is scaled);
``hold = "plane_modulus"``
    when nu varies, E follows it so that E/(1-nu^2) stays at the base value (Fig. 7e).

An optional ``[confined]`` table adds the full disc held by K contacts on the same grid (its keys
and cases in :mod:`hertz2d.calibration.penalty.confined_cases`).

Shipped specs: ``calibration/penalty/specs/default.toml`` and ``quick.toml``. Every value is
checked by type (:mod:`hertz2d.calibration.runs.spec_file`).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from pathlib import Path

from hertz2d.calibration.runs import spec_file
from hertz2d.fem.supports import SUPPORTS
from hertz2d.checks import InputError, count, one_of, poisson, positive
from hertz2d.meshes.halfround import LEVEL_LIMIT, MAX_LEVEL, check_geometry

VARIABLES = ("R", "a", "a_over_R", "E", "nu", "T")
HOLDS = ("a_over_R", "plane_modulus")


@dataclass(frozen=True)
class Case:
    """One half-round FEM case: geometry, material, tangential force, support, mesh level."""

    study: str
    support: str
    R: float
    a: float
    E: float
    nu: float
    T: float
    level: int

    @property
    def a_over_R(self) -> float:
        return self.a / self.R

    @property
    def key(self) -> tuple:
        """Identity of the computation (the study label does not change the numbers)."""
        return (self.support, self.R, self.a, self.E, self.nu, self.T, self.level)

    def as_row(self) -> dict:
        return {**asdict(self), "a_over_R": self.a_over_R}


def _checked(case: Case) -> Case:
    check_geometry(case.R, case.a)
    positive("E", case.E), poisson("nu", case.nu), positive("T", case.T)
    count("level", case.level, minimum=0, maximum=MAX_LEVEL, why=LEVEL_LIMIT)
    return case


def _vary(base: Case, name: str, variable: str, value: float, hold: str | None) -> Case:
    if variable == "a_over_R":
        return replace(base, study=name, a=value * base.R)
    case = replace(base, study=name, **{variable: value})
    if hold == "a_over_R" and variable == "R":
        case = replace(case, a=base.a_over_R * value)
    if hold == "plane_modulus" and variable == "nu":
        case = replace(case, E=base.E / (1 - base.nu**2) * (1 - value**2))
    return case


def _study_cases(base: Case, name: str, study: dict) -> list[Case]:
    where = f"studies.{name}"
    if not isinstance(study, dict):
        raise InputError(f"[{where}] in the spec is not a table")
    hold = study.get("hold")
    if hold is not None:
        one_of(f"[{where}] hold", hold, HOLDS)
    varied = [key for key in study if key != "hold"]
    if len(varied) != 1 or varied[0] not in VARIABLES:
        raise InputError(f"[{where}] must vary exactly one of {', '.join(VARIABLES)}; "
                         f"got {varied}")
    variable = varied[0]
    return [_vary(base, name, variable, v, hold)
            for v in spec_file.numbers(where, variable, study[variable])]


def expand(spec: dict) -> list[Case]:
    """All cases of a parsed spec, validated, for every support (duplicates kept: one per study)."""
    spec_file.require_keys("spec", spec, {"base"}, {"studies", "grid", "convergence", "confined"})
    settings = spec_file.table(spec, "base")
    spec_file.require_keys("base", settings, {"R", "a", "E", "nu", "T", "level"}, {"supports"})
    supports = spec_file.words("base", "supports", settings.get("supports", list(SUPPORTS)),
                               SUPPORTS)
    base = Case("base", supports[0], level=spec_file.integer("base", "level", settings["level"]),
                **{k: spec_file.number("base", k, settings[k]) for k in ("R", "a", "E", "nu", "T")})
    cases: list[Case] = []
    for name, study in spec_file.table(spec, "studies", required=False).items():
        cases += _study_cases(base, name, study)
    grid = spec_file.table(spec, "grid", required=False)
    if grid:
        spec_file.require_keys("grid", grid, {"a_over_R", "nu"})
        cases += [replace(base, study="grid", a=x * base.R, nu=n)
                  for x in spec_file.numbers("grid", "a_over_R", grid["a_over_R"])
                  for n in spec_file.numbers("grid", "nu", grid["nu"])]
    convergence = spec_file.table(spec, "convergence", required=False)
    if convergence:
        spec_file.require_keys("convergence", convergence, {"levels"})
        cases += [replace(base, study="convergence", level=level)
                  for level in spec_file.integers("convergence", "levels", convergence["levels"])]
    if not cases:
        raise InputError("the spec declares no cases: give [studies.*], [grid] or [convergence]")
    return [_checked(replace(case, support=s)) for s in supports for case in cases]


def read(path: str | Path | None = None, quick: bool = False) -> dict:
    """The parsed TOML spec at ``path``, or the shipped default (or quick) spec."""
    return spec_file.read_spec(path, "hertz2d.calibration.penalty.specs",
                               "quick.toml" if quick else "default.toml")


def load_spec(path: str | Path | None = None, quick: bool = False) -> list[Case]:
    """Cases of the TOML spec at ``path``, or of the shipped default (or quick) spec."""
    return expand(read(path, quick))
