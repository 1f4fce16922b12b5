"""Declarative sweep specifications (TOML) and the half-round cases they expand to.

A spec has a ``[base]`` case (the paper's Section 4.1 set-up), one-parameter ``[studies.NAME]``
(Fig. 7), an ``[grid]`` of a/R x nu (Fig. 8) and a ``[convergence]`` list of mesh levels at the
base case. Every case is run for each support in ``base.supports``. A study varies exactly one of
``R, a, a_over_R, E, nu, T`` and may hold a derived quantity fixed:

``hold = "a_over_R"``       when R varies, a follows it (the body is scaled);
``hold = "plane_modulus"``  when nu varies, E follows it so that E/(1-nu^2) stays at the base value
                            (Fig. 7e).

Shipped specs: ``calibration/specs/default.toml`` and ``quick.toml``.
"""
from __future__ import annotations

import sys
from dataclasses import asdict, dataclass, replace
from importlib import resources
from pathlib import Path

from fem.supports import SUPPORTS
from meshes.checks import InputError, count, one_of, poisson, positive
from meshes.halfround import check_geometry

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

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
    one_of("support", case.support, SUPPORTS)
    count("level", case.level, minimum=0)
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


def _study_cases(base: Case, name: str, table: dict) -> list[Case]:
    hold = table.get("hold")
    if hold is not None:
        one_of(f"studies.{name}.hold", hold, HOLDS)
    varied = [key for key in table if key != "hold"]
    if len(varied) != 1 or varied[0] not in VARIABLES:
        raise InputError(f"studies.{name} must vary exactly one of {', '.join(VARIABLES)}; "
                         f"got {varied}")
    variable = varied[0]
    return [_vary(base, name, variable, float(v), hold) for v in table[variable]]


def _require_keys(table: str, given: dict, required: set[str]) -> None:
    missing, unknown = sorted(required - set(given)), sorted(set(given) - required)
    if missing or unknown:
        problems = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"unknown {', '.join(unknown)}"] if unknown else [])
        raise InputError(f"[{table}] in the spec: {'; '.join(problems)}")


def expand(spec: dict) -> list[Case]:
    """All cases of a parsed spec, validated, for every support (duplicates kept: one per study)."""
    if "base" not in spec:
        raise InputError("spec has no [base] table")
    settings = dict(spec["base"])
    supports = settings.pop("supports", list(SUPPORTS))
    _require_keys("base", settings, {"R", "a", "E", "nu", "T", "level"})
    level = settings.pop("level")
    base = Case("base", supports[0], level=int(level),
                **{k: float(settings[k]) for k in ("R", "a", "E", "nu", "T")})
    cases: list[Case] = []
    for name, table in spec.get("studies", {}).items():
        cases += _study_cases(base, name, table)
    grid = spec.get("grid")
    if grid:
        _require_keys("grid", grid, {"a_over_R", "nu"})
        cases += [replace(base, study="grid", a=x * base.R, nu=float(n))
                  for x in grid["a_over_R"] for n in grid["nu"]]
    for level in spec.get("convergence", {}).get("levels", []):
        cases.append(replace(base, study="convergence", level=int(level)))
    return [_checked(replace(case, support=s)) for s in supports for case in cases]


def load_spec(path: str | Path | None = None, quick: bool = False) -> list[Case]:
    """Cases of the TOML spec at ``path``, or of the shipped default (or quick) spec."""
    if path is None:
        text = resources.files("calibration.specs").joinpath(
            "quick.toml" if quick else "default.toml").read_text()
    else:
        try:
            text = Path(path).read_text()
        except OSError as error:
            raise InputError(f"spec={str(path)!r} cannot be read ({error.strerror})") from None
    try:
        spec = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"spec={str(path)!r} is not valid TOML ({error})") from None
    return expand(spec)
