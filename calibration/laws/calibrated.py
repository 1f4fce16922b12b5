"""The calibrated law (``calibrated``): the paper's 2D law with its free functions fitted on the
two-body FEM's force-displacement paths, written so that it is admissible by construction.

Normal law: Eqs. 4 and 22 (Table 1's, per-body form), plus the coupling term of the tangential
state below. Tangential law: at constant N a branch from a turning point T* (T* = 0 for the first
loading, which between dissimilar bodies slips more: Spence's locked-in shear below) follows, in
the fraction ``t = |T - T*|/(k mu N)`` of its range (k = 1 the first loading,
2 a branch after a reversal: Masing's rule) and per pair displacement with ``s = mu N/(pi E*)``,

    ``delta / (k s) = t B + kappa (1 - t) log(1 - t)``                         (C1)

and every history of N and delta follows the accurate model's rules with memory (Section 3.3:
raising N at constant T changes no tangential stress, the entering annulus sticks while
``|dT| <= mu dN``; lowering N releases the traction outside the new contact; a front reaching
an earlier one's position passes it at no cost; full slip erases the memory): the contact's
traction is a superposition of Hertzian tractions whose displacements (C1) gives
(:mod:`hertz2d.calibration.laws.calibrated_kernel` holds the arithmetic, a few pieces of traction per
contact). Term by term, and what each stands for:

- ``B = sum_i omega_i [log(2 R_i/a) + 1/2 + w(a/R_i, nu_i) (log(4 R_i/a) + nu_i/(2(1 - nu_i)))]``
  is Eq. 27's bracket: delta at full slip is ``s B``. The penalty factor w has Eq. 33's form; its
  six coefficients are fitted on the FEM's paths of two bodies (not inverted from a one-body
  problem, so no choice of a reference point enters).
- ``kappa (1 - t) log(1 - t)`` is what the stick zone ``c = a sqrt(1 - t)`` (Eq. 7) takes off
  full slip: Eq. 26's term with the penalty term held at the contact's half-width a. For two
  half-planes it is exact with ``kappa = 1``. kappa is a constant of the pair: the traction of a
  piece of half-width b displaces the contact by its own local compliance, ``kappa log(1/b^2)``
  per unit resultant, which does not depend on how wide the contact is now. What does depend on
  a is the structural compliance ``lambda(a) = (B(a) + kappa log a^2)/(pi E*)`` of the bodies
  (the finite bodies' share: the penalty term), which acts on the resultant T as a spring in
  series. kappa is at most the ceiling that keeps lambda from growing with the contact
  (:func:`kappa_ceiling`), and below it by the Dundurs coupling (:func:`stick_weight`).
- Dundurs coupling. Two bodies of different elastic constants, or a disc on a rigid wall, have
  Dundurs' constant ``beta != 0`` (:func:`coupling_beta`); under normal load with friction their
  contact edges already slip (Spence's self-similar problem), the more so the larger
  ``b = |beta|/mu``. With the share ``phi = b^2/(b^2 + b1^2)`` (zero for beta = 0, one for a
  frictionless contact; the width b1 fitted) the pair's constants move,

      ``B = B0 + phi (v0 + v1 |beta|) + v2 beta^2 + v3 [wall]``,
      ``kappa = kappa_f + (k - kappa_f) exp(-s beta^2)``  (k the ceiling, kappa_f the floor),

  one curve for the first loading and the branches after it: constants of the pair that do not
  depend on the load history, so stick stays elastic at any friction. The stick-zone weight
  falls below its ceiling with beta (s fitted, :func:`stick_weight`): on the FEM's walls and
  stiff counterparts the branches after a reversal are straighter than a half-plane's (less
  microslip before the contact slides) and the loops fatter. The curve cannot depend on
  the sign of beta (swapping the bodies flips it), so ``|beta|`` and ``beta^2`` are its first terms;
  ``[wall]`` (1 for a disc on a rigid wall, else 0) separates a rigid flat from the disc's mirror
  image, which stands in for the wall in the normal law (Section 3.2).
- Spence's locked-in shear. The slip under normal load leaves a shear traction in the contact
  that is odd in x (one edge's at the bound in one direction, the other's in the other), which
  the law's symmetric pieces cannot hold. Its effect they can: the first tangential loading of
  a contact so closed slips at the edge whose locked-in shear has its sign before the rest of the
  contact takes load, so it is softer than the branches after a reversal (which follow the curve
  above: the FEM's loops obey Masing's rule among themselves, not against the first loading), and
  a contact loaded tangentially slips at its rim as it grows onto fresh area: one edge's locked-in
  shear is at the bound in T's direction and cannot take its share of an increment, the more of the
  rim's share the closer T is to the bound. So a slip front crossing the untouched area (the contact
  laid under normal load, which no front has crossed since it closed or last slid in full: a full
  slip wipes the locked-in shear out, and the area gained after it has it again) needs ``1 + c_f
  phi`` times the displacement (C1) gives, and an entering annulus beyond the largest area the
  contact has covered since it closed takes its share of the increment at ``1 + c_a phi |T|/(mu N)``
  times it (``first_slip`` = (c_f, c_a) >= 0, fitted; phi the share above; each extra measured over
  its step, which keeps it second order in the step:
  :func:`~hertz2d.calibration.laws.calibrated_kernel.tangential_step`). A band the contact
  covers again after it receded takes no extra: its shear was slipped over when it was first
  laid. An extra slip each time the rim sweeps a band (as version 5 of the coefficients had it)
  makes a contact whose size swings while T keeps one sign slip the same way every cycle, a
  ratchet that drifts T's loop off its centre for tens of cycles and releases stored energy (a
  closed loop with net work < 0), where the two-body FEM's loop repeats itself from its second
  cycle on; and it makes the tangential loop dissipate what the FEM dissipates in its normal
  loop (slip under the swinging normal load, which the law's elastic normal force cannot
  hold). The extra is a rigid slip at the bound, so it happens only through slip,
  vanishes with phi as mu -> infinity (stick stays elastic) and for bodies of one material,
  and is taken only where T has its sign (then it dissipates).

Admissibility, part by part (:mod:`hertz2d.calibration.laws.admissibility` tests it on random closed
loops):

- the normal law is elastic: ``N_H = dU/d(delta_n)`` with U its potential;
- the tangential state stores the energy of its traction (:func:`stored_energy`), a positive
  definite quadratic form of the pieces' densities; at constant N a step moves a slip front (the
  pieces it crosses take the bound: friction dissipates ``|T| |slip|``) or none, and a loop at
  constant N in stick (mu -> infinity) returns T to its start;
- the extra slip of Spence's locked-in shear is a rigid slip of the sign of T (a step that
  ends with T of the other sign takes none; one in which T crosses zero takes it for its share
  after the crossing): ``T`` times it is work dissipated;
- a growing contact adds an annulus that carries no traction until the next increment, a
  shrinking one drops the traction outside (energy leaves); the stuck pieces of one cell fold
  into one at the same T without raising the stored energy
  (:func:`hertz2d.calibration.laws.calibrated_kernel.fold_cells`), and beyond the memory's size a
  reduction lowers it (:func:`hertz2d.calibration.laws.calibrated_kernel.reduce_memory`);
- the structural compliance lambda is held at the largest area the contact has covered since
  it closed (:func:`~hertz2d.calibration.laws.calibrated_kernel.held_curve`): inside it a fixed
  traction stands for a fixed displacement, as in the FEM's bodies, whose compliance does not
  change with the contact's width (with lambda(a) following a, the slip front that made up the
  difference at every width did not undo itself around a loop, and a contact whose width swings
  with delta_t drifted and returned stored energy). While the contact grows beyond that area
  lambda(a) changes with the approach, its energy ``lambda T^2/2`` at fixed traction with it, and
  the normal force carries the term that makes that exact, ``N = N_H - (T^2/2) d
  lambda/d(delta_n)`` (:func:`~hertz2d.calibration.laws.calibrated_kernel.normal_coupling`, a
  fraction of a per cent of N at mu = 0.3; 0 inside the largest area: without it a closed path
  that loads the contact tangentially at one approach and unloads it at another would return
  more work than it took).

So the work done on the contact over any path from the unloaded state is at least the energy it
stores: no closed path from the unloaded state does negative work (to the quadrature's error). A
loop repeated from a loaded state does none once the state is periodic; a state that still
drifts (a ratchet) could return stored energy on a loop that starts where the drift stored it,
so the random loops take the least work over loops that start at four points of the last repeat
(:meth:`~hertz2d.calibration.laws.admissibility.Loop.work`).

(C1) is explicit in both directions: given delta, ``t = 1 - exp(B/kappa + W_{-1}((delta/(k s) -
B)/kappa e^{-B/kappa}))`` with Lambert's W on its lower branch. Its slope at t is
``dT/d(delta) = pi E*/(B - kappa - kappa log(1 - t))``: ``pi E*/(B - kappa)`` at the first
touch, 0 at full slip.

A DEM code applies the law in the frame of the line of centres
(:mod:`hertz2d.calibration.laws.rigid_kinematics`); :class:`CalibratedModel` does the same on a load path
of the two-body FEM. The coefficients come from ``hertz2d calibrate``
(:func:`CalibratedCoefficients.from_file`), with the ranges of the contacts they were fitted on;
:func:`range_excess` says how far a contact is outside them.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

import numpy as np
import pandas as pd

from hertz2d.calibration.laws import calibrated_kernel as kernel
from hertz2d.calibration.laws.base import ALL_PATHS, ContactLaw, law_table
from hertz2d.calibration.laws.closed_forms import poisson_term
from hertz2d.calibration.laws.hertz2d import _normal_constant, normal_force, normal_stiffness
from hertz2d.calibration.laws.pair import ContactPair
from hertz2d.calibration.laws.rigid_kinematics import contact_frame
from hertz2d.calibration.runs.json_file import json_object, read_json
from hertz2d.checks import InputError
from hertz2d.checks.loadpath import LoadPath

log = logging.getLogger("hertz2d")

#: the coefficients of the committed full run's ``hertz2d calibrate``, shipped with the package
SHIPPED_COEFFICIENTS = Path(__file__).resolve().parents[1] / "data" / "calibrated" / "coefficients.json"
#: the smallest kappa (the stick-zone term must stay concave)
KAPPA_FLOOR = 0.05
#: the contact half-widths (a/R of either body) over which kappa is kept below the ceiling that
#: makes the structural compliance non-increasing (:func:`kappa_ceiling`): the accurate model's
#: domain
CEILING_A_OVER_R = np.linspace(1e-4, 0.3, 300)
#: how far below the sampled least value the ceiling is set (the slope's change between samples
#: is a few 1e-6)
CEILING_MARGIN = 1e-3


#: ``coefficients.json``'s format and the version this hertz2d reads and writes (version 7: the
#: untouched area, where a front slips extra, starts again at the rim after a full slip, so that
#: a contact that slides as it closes (a DEM's oblique touch) has it where it grows on; version
#: 6: the rim's extra slip acts on fresh area alone, beyond the largest the contact has covered
#: since it closed, in proportion to ``|T|/(mu N)``; older versions' c_f and c_a were fitted for
#: other laws)
FORMAT, FORMAT_VERSION = "hertz2d-calibrated", 8


def _group(default: tuple[float, ...], *admissible: tuple[float, float]):
    """A coefficient group: its default (whose length is the group's) and the admissible range
    of each coefficient (one range for all, or one each). A range bounds what a fit can
    produce, about ten times the largest a fit has given (the quick run's fit on 14 coarse
    paths, the least determined: penalty terms up to 48, stick up to 161): a file whose
    coefficients leave these ranges (a hand edit, a corrupt write) is refused
    (:meth:`CalibratedCoefficients.checked`), never run into a tangential force of the wrong
    sign."""
    ranges = admissible if len(admissible) == len(default) else admissible * len(default)
    return field(default=default, metadata={"admissible": tuple(ranges)})


#: the shifts of B, ``phi (c0 + c1 |beta|) + c2 beta^2 + c3 [wall]``
_SHIFT = ((-50.0, 50.0), (-100.0, 100.0), (-200.0, 200.0), (-50.0, 50.0))


@dataclass(frozen=True)
class CalibratedCoefficients:
    """The fitted constants of the calibrated law (see the module docstring for each), and the
    ranges of the training contacts they were fitted on (None when unknown)."""

    #: w(x, nu) of Eq. 33's form: 1, x, nu, x^2, x nu, nu^2 with x = a/R_i (w at x = nu = 0,
    #: a fraction of order 1, within [-5, 5])
    penalty: tuple[float, ...] = _group((0.22, 2.89, 0.18, -10.31, 1.75, 0.36), (-5.0, 5.0),
                                        (-100.0, 100.0), (-50.0, 50.0), (-500.0, 500.0),
                                        (-500.0, 500.0), (-100.0, 100.0))
    #: (b1,): the width of the share phi = b^2/(b^2 + b1^2), ``b = |beta|/mu`` (positive; the
    #: fit's bounds)
    coupling_width: tuple[float, ...] = _group((0.5,), (0.05, 30.0))
    #: (v0, v1, v2, v3): B moves by ``phi (v0 + v1 |beta|) + v2 beta^2 + v3 [wall]``
    bracket: tuple[float, ...] = _group((0.0, 0.0, 0.0, 0.0), *_SHIFT)
    #: (s,): kappa falls from its ceiling towards :data:`KAPPA_FLOOR` as ``exp(-s beta^2)``
    #: (:func:`stick_weight`; s >= 0, so kappa never rises above the ceiling)
    stick: tuple[float, ...] = _group((0.0,), (0.0, 50.0))
    #: (c_f, c_a): the extra slips of Spence's locked-in shear, ``c_f phi`` of a front through
    #: the untouched area and ``c_a phi |T|/(mu N)`` of an entering annulus on fresh area
    #: (:func:`curve_data`; >= 0, so the slip dissipates)
    first_slip: tuple[float, ...] = _group((0.0, 0.0), (0.0, 5.0))
    label: str = "calibrated"
    #: name -> (low, high) of the training contacts (R2_over_R1, E2_over_E1, nu1, nu2, mu,
    #: a_over_R), or None
    ranges: dict | None = field(default=None, compare=False)

    @classmethod
    def groups(cls) -> dict[str, int]:
        """Coefficient group -> its length, in the order of :meth:`vector`."""
        return {name: len(ranges) for name, ranges in cls.admissible().items()}

    @classmethod
    def admissible(cls) -> dict[str, tuple[tuple[float, float], ...]]:
        """Coefficient group -> the admissible range of each of its coefficients."""
        return {f.name: f.metadata["admissible"] for f in fields(cls) if "admissible" in f.metadata}

    def vector(self) -> np.ndarray:
        return np.concatenate([getattr(self, name) for name in self.groups()]).astype(float)

    @classmethod
    def from_vector(cls, vector, label: str = "calibrated",
                    ranges: dict | None = None) -> "CalibratedCoefficients":
        values, start = {}, 0
        for name, length in cls.groups().items():
            values[name] = tuple(float(v) for v in vector[start:start + length])
            start += length
        return cls(**values, label=label, ranges=ranges)

    def as_dict(self) -> dict:
        return {name: list(getattr(self, name)) for name in self.groups()}

    @classmethod
    def checked(cls, values, where: str, label: str = "calibrated") -> "CalibratedCoefficients":
        """The coefficients of ``values`` (group -> list, as :meth:`as_dict` gives them), each
        group of its length, finite and inside its admissible range (:class:`InputError`
        naming ``where``, the coefficient and its value)."""
        if not isinstance(values, dict):
            raise InputError(f"{where}: coefficients={values!r} is not an object of groups")
        checked = {}
        for name, ranges in cls.admissible().items():
            group = values.get(name)
            if not (isinstance(group, list) and len(group) == len(ranges) and all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                    for v in group)):
                raise InputError(f"{where}: coefficients {name}={group!r} are not "
                                 f"{len(ranges)} finite numbers")
            for k, (value, (low, high)) in enumerate(zip(group, ranges)):
                if not low <= value <= high:
                    raise InputError(f"{where}: coefficients {name}[{k}]={value!r} is outside "
                                     f"[{low:g}, {high:g}], the range a fit of the calibrated "
                                     "law can produce")
            checked[name] = tuple(float(v) for v in group)
        unknown = sorted(set(values) - set(checked))
        if unknown:
            raise InputError(f"{where}: coefficients {unknown[0]!r} is not a group of this "
                             f"hertz2d's calibrated law ({', '.join(checked)})")
        return cls(**checked, label=label)

    @classmethod
    def from_file(cls, path: str | Path, label: str | None = None) -> "CalibratedCoefficients":
        """The coefficients of a ``coefficients.json`` written by ``hertz2d calibrate``: its
        format and version, then :meth:`checked` (:class:`InputError` naming the file), with the
        ranges of its training contacts (``training.ranges``, each a pair of numbers) when it
        records them."""
        where = f"coefficients={str(path)!r}"
        data = json_object(read_json(path, "coefficients", "run `hertz2d calibrate` first"),
                           "coefficients", str(path))
        if data.get("format") != FORMAT:
            raise InputError(f"{where}: format={data.get('format')!r} is not {FORMAT!r} (a "
                             "calibrated law's coefficients.json)")
        version = data.get("format_version")
        if version != FORMAT_VERSION or isinstance(version, bool):
            raise InputError(f"{where}: format_version={version!r} is not {FORMAT_VERSION} "
                             "(the version this hertz2d reads; rerun `hertz2d calibrate`)")
        ranges = (data.get("training") or {}).get("ranges") or None
        if ranges is not None:
            if not isinstance(ranges, dict) or not all(
                    isinstance(v, list) and len(v) == 2 and all(
                        isinstance(x, (int, float)) and not isinstance(x, bool)
                        and math.isfinite(x) for x in v) and v[0] <= v[1]
                    for v in ranges.values()):
                raise InputError(f"{where}: training ranges={ranges!r} are not pairs of "
                                 "finite numbers, low <= high")
        return replace(cls.checked(data.get("coefficients"), where, label or "calibrated"),
                       ranges=ranges)


def coupling_beta(pair: ContactPair) -> np.ndarray:
    """``|beta|``, Dundurs' second constant of the physical contact (plane strain): the pair's own
    (:attr:`ContactPair.dundurs_beta`), or for a disc on a rigid wall ``(1 - 2 nu)/(2 (1 - nu))``
    (the wall's mirror image stands in for its compliance only)."""
    if pair.wall:
        return (1.0 - 2.0 * pair.nu1) / (2.0 * (1.0 - pair.nu1))
    return np.abs(pair.dundurs_beta)


def kappa_ceiling(pair: ContactPair, penalty) -> np.ndarray:
    """The largest kappa for which the structural compliance ``lambda(a) = (B(a) + kappa
    log a^2)/(pi E*)`` does not grow with a while the contact is at most 0.3 of either radius
    (:data:`CEILING_A_OVER_R`): ``-a dB/da = sum_i omega_i f_i(x_i)`` with ``f_i(x) = 1 + w_i
    - x w_i'(x) (log(4/x) + nu_i/(2(1 - nu_i)))``, so half of ``sum_i omega_i min f_i``, each
    body's least value over x, less :data:`CEILING_MARGIN`, keeps it for any radii (a ceiling of
    the materials alone: a DEM code computes it once per material pair). Below it the normal
    force's coupling term (which is ``-(T^2/2) d lambda/d(delta_n)``) is never negative, so
    ``|T| <= mu N_H <= mu N``: Coulomb's bound holds for the normal force the law reports."""
    p = penalty
    x = CEILING_A_OVER_R.reshape((-1,) + (1,) * np.ndim(pair.modulus))
    total = 0.0
    for omega, nu in zip(pair.bracket_weights, (pair.nu1, pair.nu2)):
        w = p[0] + p[1] * x + p[2] * nu + p[3] * x * x + p[4] * x * nu + p[5] * nu * nu
        slope = p[1] + 2.0 * p[3] * x + p[4] * nu
        total = total + omega * np.min(1.0 + w - x * slope * (np.log(4.0 / x) + poisson_term(nu)),
                                       axis=0)
    return 0.5 * total - CEILING_MARGIN


def stick_weight(ceiling, beta, s: float) -> np.ndarray:
    """The pair's stick-zone weight kappa: ``KAPPA_FLOOR + (k - KAPPA_FLOOR) exp(-s beta^2)``
    with ``k = max(ceiling, KAPPA_FLOOR)`` (:func:`kappa_ceiling`) and ``s >= 0``, so
    ``KAPPA_FLOOR <= kappa <= k``: below the ceiling the structural compliance still never grows
    with the contact and the admissibility argument holds as it is; s = 0 is the ceiling
    itself."""
    top = np.maximum(ceiling, KAPPA_FLOOR)
    return KAPPA_FLOOR + (top - KAPPA_FLOOR) * np.exp(-s * np.asarray(beta, float) ** 2)


def curve_data(pair: ContactPair, coefficients: CalibratedCoefficients) -> tuple:
    """The pair's :data:`~hertz2d.calibration.laws.calibrated_kernel.CURVE_DATA` numbers (arrays shaped
    as the pair's parameters): what (C1)'s B needs besides the half-width
    (:func:`~hertz2d.calibration.laws.calibrated_kernel.curves`), and the pair's kappa
    (:func:`stick_weight` below :func:`kappa_ceiling`). The Dundurs coupling's shift of B is
    ``phi (v0 + v1 |beta|) + v2 beta^2 + v3 wall`` with ``phi = b^2/(b^2 + b1^2)``, ``b =
    |beta|/mu`` (1 without friction), wall 1 for a disc on a wall; kappa is
    :func:`stick_weight`'s; the extra slips of Spence's locked-in shear are ``c_f phi`` and
    ``c_a phi`` (``first_slip``; the kernel scales the rim's by ``|T|/(mu N)``)."""
    p = coefficients.penalty
    bodies = []
    for omega, nu in zip(pair.bracket_weights, (pair.nu1, pair.nu2)):
        bodies += [omega, p[0] + p[2] * nu + p[5] * nu * nu, p[1] + p[4] * nu, poisson_term(nu)]
    beta = coupling_beta(pair)
    with np.errstate(divide="ignore", invalid="ignore"):
        b = np.where(pair.mu > 0, beta / np.where(pair.mu > 0, pair.mu, 1.0), np.inf)
        width = coefficients.coupling_width[0]
        phi = np.where(np.isfinite(b), b * b / (b * b + width * width), 1.0)
    wall = 1.0 if pair.wall else 0.0
    v = coefficients.bracket
    shift = phi * (v[0] + v[1] * beta) + v[2] * beta * beta + v[3] * wall
    kappa = stick_weight(kappa_ceiling(pair, p), beta, coefficients.stick[0])
    first, annulus = (c * phi for c in coefficients.first_slip)
    shape = np.broadcast(pair.R1, pair.R2, pair.E1, pair.E2, pair.nu1, pair.nu2, pair.mu).shape
    return tuple(np.broadcast_to(np.asarray(value, float), shape) for value in (
        *bodies, p[3], shift, kappa, first, annulus))


@dataclass(frozen=True)
class Curve:
    """(C1)'s constants per contact: B at the half-width, the pair's kappa, and the slope
    ``a dB/da + 2 kappa`` of the structural compliance; and the pair's extra slips of Spence's
    locked-in shear (the kernel's ``first_slip`` and ``annulus_slip``)."""

    B: np.ndarray
    kappa: np.ndarray
    slope: np.ndarray
    first_slip: np.ndarray
    annulus_slip: np.ndarray


def curve_constants(pair: ContactPair, a, coefficients: CalibratedCoefficients) -> Curve:
    """(C1)'s constants at half-width ``a`` (a > 0;
    :func:`~hertz2d.calibration.laws.calibrated_kernel.curves` on the pair's :func:`curve_data`)."""
    a = np.asarray(a, float)
    data = curve_data(pair, coefficients)
    B, slope = kernel.curves(a, np.log(a), pair.R1, pair.R2, np.log(4.0 * pair.R1),
                             np.log(4.0 * pair.R2), data)
    shape = np.shape(B)
    return Curve(B, np.broadcast_to(data[kernel.KAPPA], shape), slope,
                 np.broadcast_to(data[kernel.FIRST_SLIP], shape),
                 np.broadcast_to(data[kernel.ANNULUS_SLIP], shape))


def branch_displacement(t, B, kappa):
    """(C1): delta/(k s) at the branch fraction t in [0, 1]."""
    t = np.clip(np.asarray(t, float), 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_term = np.where(t < 1.0, (1.0 - t) * np.log1p(-np.minimum(t, 1.0 - 1e-300)), 0.0)
    return t * B + kappa * log_term


def normal_tangent(pair: ContactPair, a) -> np.ndarray:
    """``dN_H/d(delta_n) = pi E*/(u - 1)``, ``u = C - log a^2``: the tangent of Eqs. 4 + 22 (0
    where a = 0)."""
    a = np.asarray(a, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        u = _normal_constant(pair) - 2.0 * np.log(np.where(a > 0, a, 1.0))
        return np.where(a > 0, np.pi * pair.modulus / (u - 1.0), 0.0)


def sliding_ratio(pair: ContactPair, a, coefficients: CalibratedCoefficients,
                  growing: bool) -> np.ndarray:
    """``T/N`` of a sliding contact of half-width ``a``: while it grows beyond the largest area
    it has covered (``growing``), ``mu/(1 + mu^2 g)``, ``g = -slope k_n/(4 pi E*)`` (>= 0): the
    traction's bound is ``mu N_H`` and the normal force carries the coupling term ``C = -T^2
    slope k_n/(4 N_H pi E*)`` (:func:`~hertz2d.calibration.laws.calibrated_kernel.normal_coupling`),
    which at ``T = mu N_H`` is ``mu^2 g N_H``: the term raises N, not the friction it can carry,
    so the ratio is a little below mu (the more so the wider the contact and the larger mu).
    Inside that area the structural compliance is held
    (:func:`~hertz2d.calibration.laws.calibrated_kernel.held_curve`), C is 0 and the ratio is
    mu."""
    if not growing:
        return np.broadcast_to(np.asarray(pair.mu, float), np.shape(a)).copy()
    found = curve_constants(pair, a, coefficients)
    g = -found.slope * normal_tangent(pair, a) / (4.0 * np.pi * pair.modulus)
    return pair.mu / (1.0 + pair.mu ** 2 * g)


@dataclass
class CalibratedState:
    """The history of a batch of contacts (one row of
    :data:`~hertz2d.calibration.laws.calibrated_kernel.HISTORY` doubles each) and the last update's
    outputs (arrays, one entry per contact)."""

    history: np.ndarray
    #: normal force (Eqs. 4 + 22 and the coupling term) and tangential force (N/m), half-width
    #: (m), tangent stiffness dT/d(delta) per pair displacement, the slip front's half-width,
    #: where the contact slides, and the stored energy of the tangential traction (J/m)
    N: np.ndarray
    T: np.ndarray
    a: np.ndarray
    kt: np.ndarray
    front: np.ndarray
    slipping: np.ndarray
    energy: np.ndarray

    @classmethod
    def unloaded(cls, contacts: int = 1) -> "CalibratedState":
        zero = np.zeros(contacts)
        return cls(np.zeros((contacts, kernel.HISTORY)), zero, zero, zero, zero, zero,
                   np.zeros(contacts, dtype=bool), zero)


def calibrated_update(pair: ContactPair, delta_n, d_delta_t, state: CalibratedState,
                      coefficients: CalibratedCoefficients) -> CalibratedState:
    """One step of the calibrated law for a batch of contacts.

    Parameters
    ----------
    pair : ContactPair
        The bodies (scalars, or one entry per contact).
    delta_n : float or array_like
        The current overlap (m), of the disc relative to the other body in the contact's frame
        (doubled internally for a wall).
    d_delta_t : float or array_like
        This step's tangential increment (m), likewise.
    state : CalibratedState
        The previous step's state (:meth:`CalibratedState.unloaded` for new contacts); its
        ``history`` is updated in place.
    coefficients : CalibratedCoefficients
        The law's coefficients (``hertz2d calibrate``'s, or the shipped ones).

    Returns
    -------
    CalibratedState
        The contacts' history and outputs: N, T (N/m), a (m), kt, the slip front and
        ``slipping``, one entry per contact.
    """
    N_H, a = normal_force(pair, pair.pair_displacement(delta_n))
    contacts = state.history.shape[0]
    N_H, a, step = (np.broadcast_to(np.asarray(v, float), (contacts,)) for v in (
        N_H, a, pair.pair_displacement(d_delta_t)))
    found = curve_constants(pair, np.where(a > 0, a, 1.0), coefficients)
    mu, modulus, B, kappa, slope, k_normal, first, annulus = (
        np.broadcast_to(np.asarray(v, float), (contacts,)) for v in (
            pair.mu, pair.modulus, found.B, found.kappa, found.slope, normal_tangent(pair, a),
            found.first_slip, found.annulus_slip))
    outputs = np.zeros((6, contacts))
    for i in range(contacts):
        T, kt, front, full = kernel.tangential_step(state.history[i], N_H[i], a[i], step[i],
                                                    mu[i], modulus[i], B[i], kappa[i],
                                                    slope[i], first[i], annulus[i], kernel.FOLD)
        B_i, slope_i = kernel.held_curve(state.history[i], a[i] * a[i], B[i], kappa[i],
                                              slope[i])
        outputs[:, i] = (N_H[i] + kernel.normal_coupling(T, N_H[i], slope_i, k_normal[i],
                                                          modulus[i]),
                         T, kt, front, full,
                         kernel.stored_energy(state.history[i], N_H[i], a[i], mu[i], modulus[i],
                                              B_i, kappa[i]))
    return CalibratedState(state.history, outputs[0], outputs[1], a.copy(), outputs[2],
                           outputs[3], outputs[4].astype(bool), outputs[5])


#: range names of a pair (R2/R1 and E2/E1 of a disc pair; a wall has neither)
PAIR_RANGES = ("R2_over_R1", "E2_over_E1", "nu1", "nu2", "mu")


def range_excess(coefficients: CalibratedCoefficients, pair: ContactPair,
                 a_over_R) -> list[str]:
    """Where a contact lies outside the ranges the coefficients were fitted on: one phrase per
    quantity (``a_over_R 0.31 > 0.2`` for the largest a/R1 of ``a_over_R``), empty inside them
    or where the coefficients record no ranges. Parameters broadcast; the extremes count."""
    ranges = coefficients.ranges or {}
    values = {"nu1": pair.nu1, "mu": pair.mu, "a_over_R": np.asarray(a_over_R, float)}
    if not pair.wall:
        values.update(R2_over_R1=np.maximum(pair.R2 / pair.R1, pair.R1 / pair.R2),
                      E2_over_E1=np.maximum(pair.E2 / pair.E1, pair.E1 / pair.E2), nu2=pair.nu2)
    found = []
    for name, value in values.items():
        if name not in ranges or np.size(value) == 0:
            continue
        low, high = (float(v) for v in ranges[name])
        largest, smallest = float(np.max(value)), float(np.min(value))
        if largest > high * (1 + 1e-9):
            found.append(f"{name} {largest:.3g} > {high:g}")
        if smallest < low * (1 - 1e-9) - 1e-12 and name != "a_over_R":
            found.append(f"{name} {smallest:.3g} < {low:g}")
    return found


def warn_outside(coefficients: CalibratedCoefficients, what: str, excess: list[str]) -> None:
    """One ``hertz2d: warning:`` line for a run whose contacts leave the fitted ranges."""
    if excess:
        log.warning(f"{what} leave(s) the calibrated law's fitted ranges ({'; '.join(excess)}):"
                    " the law extrapolates there")


class CalibratedModel(ContactLaw):
    """The calibrated law on a load path of the two-body FEM, in the frame of the line of
    centres as a DEM code applies it (:mod:`hertz2d.calibration.laws.rigid_kinematics`)."""

    name = "calibrated"
    paths = ALL_PATHS
    admissible = True
    centres_frame = True

    def __init__(self, pair: ContactPair, coefficients: CalibratedCoefficients):
        if any(np.ndim(v) for v in (pair.R1, pair.R2, pair.E1, pair.E2, pair.nu1, pair.nu2,
                                    pair.mu)):
            raise InputError("the calibrated law runs one contact along a path: give the pair "
                             "scalar parameters")
        self.pair, self.coefficients = pair, coefficients

    @property
    def label(self) -> str:
        return self.coefficients.label

    def _run(self, path: LoadPath) -> pd.DataFrame:
        return run_contacts([self.pair], [path], self.coefficients)[0]


def run_contacts(pairs: list[ContactPair], paths: list[LoadPath],
                 coefficients: CalibratedCoefficients) -> list[pd.DataFrame]:
    """The calibrated law along several contacts' paths at once, as :class:`CalibratedModel`
    runs each: one step of :func:`calibrated_update` moves every contact, so the normal force and
    the curve constants are evaluated once a step for all of them.

    Parameters
    ----------
    pairs : list of ContactPair
        One pair per contact, scalar parameters, all disc pairs or all on walls.
    paths : list of LoadPath
        One path per contact, all of one length.
    coefficients : CalibratedCoefficients
        The law's coefficients.

    Returns
    -------
    list of pandas.DataFrame
        Per contact the law's per-step table (:func:`~hertz2d.calibration.laws.base.law_table`).
    """
    if len({len(path) for path in paths}) != 1 or len({p.wall for p in pairs}) != 1:
        raise ValueError("run_contacts takes paths of one length and one kind of counterpart")
    frames = [contact_frame(path.delta_n, path.delta_t, float(p.R1), float(p.R2), p.wall)
              for p, path in zip(pairs, paths)]
    pair = ContactPair(*(np.array([float(getattr(p, name)) for p in pairs]) for name in (
        "R1", "R2", "E1", "E2", "nu1", "nu2", "mu")), wall=pairs[0].wall)
    overlap = np.stack([frame.overlap for frame in frames], axis=1)
    increment = np.stack([frame.increment for frame in frames], axis=1)
    steps, contacts = overlap.shape
    columns = {name: np.zeros((steps, contacts)) for name in ("N", "T", "a", "kt", "c")}
    slipping = np.zeros((steps, contacts), dtype=bool)
    state = CalibratedState.unloaded(contacts)
    for k in range(steps):
        state = calibrated_update(pair, overlap[k], increment[k], state, coefficients)
        for name, value in (("N", state.N), ("T", state.T), ("a", state.a),
                            ("kt", state.kt), ("c", state.front)):
            columns[name][k] = value
        slipping[k] = state.slipping
    slip = np.where(columns["N"] <= 0, "open", np.where(
        slipping, "full", np.where(columns["c"] < columns["a"], "partial", "stick")))
    tables = []
    for j, (p, path, frame) in enumerate(zip(pairs, paths, frames)):
        mine = {name: values[:, j] for name, values in columns.items()}
        warn_outside(coefficients, "the path's contact", range_excess(
            coefficients, p, mine["a"] / float(min(p.R1, p.R2))))
        Fx, Fz = frame.driving_forces(mine["N"], mine["T"])
        tables.append(law_table(path, **mine, kn=normal_stiffness(p, mine["a"]),
                                slip=slip[:, j], Fx=Fx, Fz=Fz))
    return tables
