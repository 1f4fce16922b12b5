"""The calibrated law (``calibrated``): the paper's 2D law, its free functions fitted on the
two-body FEM's force-displacement paths, extended only where the FEM shows it must be.

Normal law: Eqs. 4 and 22 (Table 1's, per-body form). Tangential law: at constant N a branch
from a turning point T* (T* = 0 for the first loading) follows, in the fraction
``t = |T - T*|/(k mu N)`` of its range (k = 1 the first loading, 2 a branch after a reversal:
Masing's rule) and per pair displacement with ``s = mu N/(pi E*)``,

    ``delta / (k s) = t B + kappa (1 - t) log(1 - t)``                         (C1)

and every history of N and delta follows the accurate model's rules with memory (Section 3.3:
raising N at constant T changes no tangential stress, the entering annulus sticks while
``|dT| <= mu dN``; lowering N releases the traction outside the new contact; a front reaching
an earlier one's position passes it at no cost; full slip erases the memory): the contact's
traction is a superposition of Hertzian tractions whose displacements (C1) gives
(:mod:`calibration.laws.calibrated_kernel` holds the arithmetic, a few pieces of traction per
contact). Term by term, and what each stands for:

- ``B = sum_i omega_i [log(2 R_i/a) + 1/2 + w(a/R_i, nu_i) (log(4 R_i/a) + nu_i/(2(1 - nu_i)))]``
  is Eq. 27's bracket: delta at full slip is ``s B``. The penalty factor w has Eq. 33's form; its
  six coefficients are fitted on the FEM's paths of two bodies (not inverted from a one-body
  problem, so no choice of a reference point enters).
- ``kappa (1 - t) log(1 - t)`` is what the stick zone ``c = a sqrt(1 - t)`` (Eq. 7) takes off
  full slip: Eq. 26's term with the penalty term held at the contact's half-width a (the finite
  body's share of the displacement is set by the resultant, not by how it is spread inside a
  contact of fixed width). For two half-planes it is exact with ``kappa = 1`` (omega1 + omega2 =
  2); for bodies of finite size ``kappa0 = 1 + sum_i (omega_i/2) (a/R_i) (k0 + k1 nu_i)``, the
  finite-size correction of the stick zone's displacement, fitted. Printed Eq. 26, which takes
  the penalty term at c, makes the curve's curvature, and so the energy per cycle, about twice
  the FEM's.
- Dundurs coupling. Two bodies of different elastic constants, or a disc on a rigid wall, have
  Dundurs' constant ``beta != 0`` (:func:`coupling_beta`); under normal load with friction their
  contact edges already slip (Spence's self-similar problem), the more so the larger
  ``b = |beta|/mu``. The share ``phi = b^2/(b^2 + b1^2)`` (zero for beta = 0, one for a
  frictionless contact; the width b1 fitted) moves the curve of the first loading,

      ``B = B0 + phi (v0 + v1 |beta|) + v2 beta^2 + v3 [wall]``

  and kappa likewise (q0..q3), and with coefficients of their own the curve of the branches
  after the first reversal: the FEM shows the first loading of such a contact with another
  curvature than the loops that follow, which are centred off the origin (the shear locked in
  under normal load is released by the first cycle). The curve cannot depend on the sign of
  beta (swapping the bodies flips it), so |beta| and beta^2 are its first terms: ``v2 beta^2``
  is the part of the coupling that friction does not switch on or off (it acts at any mu), and
  ``v3 [wall]`` (1 for a disc on a rigid wall, else 0) what separates a rigid flat from the
  disc's mirror image, which stands in for the wall in the normal law (Section 3.2).

(C1) is explicit in both directions: given delta, ``t = 1 - exp(B/kappa + W_{-1}((delta/(k s) -
B)/kappa e^{-B/kappa}))`` with Lambert's W on its lower branch. Its slope at t is
``dT/d(delta) = pi E*/(B - kappa - kappa log(1 - t))``: ``pi E*/(B - kappa)`` at the first
touch, 0 at full slip.

A DEM code applies the law in the frame of the line of centres
(:mod:`calibration.laws.rigid_kinematics`); :class:`CalibratedModel` does the same on a load path
of the two-body FEM. The coefficients come from ``hertz2d calibrate``
(:func:`CalibratedCoefficients.from_file`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np
import pandas as pd

from calibration.laws import calibrated_kernel as kernel
from calibration.laws.base import ALL_PATHS, ContactLaw, law_table
from calibration.laws.closed_forms import poisson_term
from calibration.laws.hertz2d import normal_force, normal_stiffness
from calibration.laws.pair import ContactPair
from calibration.laws.rigid_kinematics import contact_frame
from calibration.runs.json_file import json_object, read_json
from checks import InputError
from fem.loadpath import LoadPath

#: the coefficients of the committed full run's ``hertz2d calibrate``, shipped with the package
SHIPPED_COEFFICIENTS = Path(__file__).resolve().parents[1] / "data" / "calibrated" / "coefficients.json"


#: ``coefficients.json``'s format and the version this hertz2d reads and writes
FORMAT, FORMAT_VERSION = "hertz2d-calibrated", 1


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


#: the shifts of B and kappa, phi (c0 + c1 |beta|) + c2 beta^2 + c3 [wall]
_SHIFT = ((-50.0, 50.0), (-100.0, 100.0), (-200.0, 200.0), (-50.0, 50.0))


@dataclass(frozen=True)
class CalibratedCoefficients:
    """The fitted constants of the calibrated law (see the module docstring for each)."""

    #: w(x, nu) of Eq. 33's form: 1, x, nu, x^2, x nu, nu^2 with x = a/R_i (w at x = nu = 0,
    #: a fraction of order 1, within [-5, 5])
    penalty: tuple[float, ...] = _group((0.22, 2.89, 0.18, -10.31, 1.75, 0.36), (-5.0, 5.0),
                                        (-100.0, 100.0), (-50.0, 50.0), (-500.0, 500.0),
                                        (-500.0, 500.0), (-100.0, 100.0))
    #: (k0, k1) of kappa0 = 1 + sum_i (omega_i/2) x_i (k0 + k1 nu_i)
    stick: tuple[float, ...] = _group((0.0, 0.0), (-500.0, 500.0), (-2000.0, 2000.0))
    #: (b1,): the width of the share phi = b^2/(b^2 + b1^2), b = |beta|/mu (positive; the fit's
    #: bounds)
    coupling_width: tuple[float, ...] = _group((0.5,), (0.05, 30.0))
    #: (v0, v1, v2, v3), (q0, q1, q2, q3): the first loading's B and kappa move by
    #: phi (c0 + c1 |beta|) + c2 beta^2 + c3 [wall]
    first_bracket: tuple[float, ...] = _group((0.0, 0.0, 0.0, 0.0), *_SHIFT)
    first_stick: tuple[float, ...] = _group((0.0, 0.0, 0.0, 0.0), *_SHIFT)
    #: the same for the branches after the first reversal
    cyclic_bracket: tuple[float, ...] = _group((0.0, 0.0, 0.0, 0.0), *_SHIFT)
    cyclic_stick: tuple[float, ...] = _group((0.0, 0.0, 0.0, 0.0), *_SHIFT)
    label: str = "calibrated"

    @classmethod
    def groups(cls) -> dict[str, int]:
        """Coefficient group -> its length, in the order of :meth:`vector`."""
        return {name: len(ranges) for name, ranges in cls.admissible().items()}

    @classmethod
    def admissible(cls) -> dict[str, tuple[tuple[float, float], ...]]:
        """Coefficient group -> the admissible range of each of its coefficients."""
        return {f.name: f.metadata["admissible"] for f in fields(cls) if f.name != "label"}

    def vector(self) -> np.ndarray:
        return np.concatenate([getattr(self, name) for name in self.groups()]).astype(float)

    @classmethod
    def from_vector(cls, vector, label: str = "calibrated") -> "CalibratedCoefficients":
        values, start = {}, 0
        for name, length in cls.groups().items():
            values[name] = tuple(float(v) for v in vector[start:start + length])
            start += length
        return cls(**values, label=label)

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
        format and version, then :meth:`checked` (:class:`InputError` naming the file)."""
        where = f"coefficients={str(path)!r}"
        data = json_object(read_json(path, "coefficients", "run `hertz2d calibrate` first"),
                           "coefficients", str(path))
        if data.get("format") != FORMAT:
            raise InputError(f"{where}: format={data.get('format')!r} is not {FORMAT!r} (a "
                             "calibrated law's coefficients.json)")
        version = data.get("format_version")
        if version != FORMAT_VERSION or isinstance(version, bool):
            raise InputError(f"{where}: format_version={version!r} is not {FORMAT_VERSION} "
                             "(the version this hertz2d reads)")
        return cls.checked(data.get("coefficients"), where, label or "calibrated")


def coupling_beta(pair: ContactPair) -> np.ndarray:
    """|beta|, Dundurs' second constant of the physical contact (plane strain): the pair's own
    (:attr:`ContactPair.dundurs_beta`), or for a disc on a rigid wall ``(1 - 2 nu)/(2 (1 - nu))``
    (the wall's mirror image stands in for its compliance only)."""
    if pair.wall:
        return (1.0 - 2.0 * pair.nu1) / (2.0 * (1.0 - pair.nu1))
    return np.abs(pair.dundurs_beta)


@dataclass(frozen=True)
class Curves:
    """(C1)'s constants per contact: the first loading's (B, kappa) and the branches'."""

    B_first: np.ndarray
    kappa_first: np.ndarray
    B_cyclic: np.ndarray
    kappa_cyclic: np.ndarray


def curve_data(pair: ContactPair, coefficients: CalibratedCoefficients) -> tuple:
    """The pair's :data:`~calibration.laws.calibrated_kernel.CURVE_DATA` numbers (arrays shaped
    as the pair's parameters): what (C1)'s constants need besides the half-width
    (:func:`~calibration.laws.calibrated_kernel.curves`). The Dundurs coupling's shift of a
    constant is ``phi (c0 + c1 |beta|) + c2 beta^2 + c3 wall`` with ``phi = b^2/(b^2 + b1^2)``,
    ``b = |beta|/mu`` (1 without friction), wall 1 for a disc on a wall."""
    p, (k0, k1) = coefficients.penalty, coefficients.stick
    bodies = []
    for omega, nu in zip(pair.bracket_weights, (pair.nu1, pair.nu2)):
        bodies += [omega, p[0] + p[2] * nu + p[5] * nu * nu, p[1] + p[4] * nu,
                   poisson_term(nu), 0.5 * omega * (k0 + k1 * nu)]
    beta = coupling_beta(pair)
    with np.errstate(divide="ignore", invalid="ignore"):
        b = np.where(pair.mu > 0, beta / np.where(pair.mu > 0, pair.mu, 1.0), np.inf)
        width = coefficients.coupling_width[0]
        phi = np.where(np.isfinite(b), b * b / (b * b + width * width), 1.0)
    wall = 1.0 if pair.wall else 0.0

    def shift(change):
        return phi * (change[0] + change[1] * beta) + change[2] * beta * beta + change[3] * wall

    shape = np.broadcast(pair.R1, pair.R2, pair.E1, pair.E2, pair.nu1, pair.nu2, pair.mu).shape
    return tuple(np.broadcast_to(np.asarray(value, float), shape) for value in (
        *bodies, p[3], shift(coefficients.first_bracket), shift(coefficients.first_stick),
        shift(coefficients.cyclic_bracket), shift(coefficients.cyclic_stick)))


def curve_constants(pair: ContactPair, a, coefficients: CalibratedCoefficients) -> Curves:
    """(C1)'s constants at half-width ``a`` (a > 0; :func:`~calibration.laws.calibrated_kernel.
    curves` on the pair's :func:`curve_data`)."""
    a = np.asarray(a, float)
    return Curves(*kernel.curves(a, np.log(a), pair.R1, pair.R2, np.log(4.0 * pair.R1),
                                 np.log(4.0 * pair.R2), curve_data(pair, coefficients)))


def branch_displacement(t, B, kappa):
    """(C1): delta/(k s) at the branch fraction t in [0, 1]."""
    t = np.clip(np.asarray(t, float), 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_term = np.where(t < 1.0, (1.0 - t) * np.log1p(-np.minimum(t, 1.0 - 1e-300)), 0.0)
    return t * B + kappa * log_term


@dataclass
class CalibratedState:
    """The history of a batch of contacts (one row of :data:`~calibration.laws.calibrated_kernel.
    HISTORY` doubles each) and the last update's outputs (arrays, one entry per contact)."""

    history: np.ndarray
    #: normal and tangential force (N/m), half-width (m), tangent stiffness dT/d(delta) per pair
    #: displacement, the slip front's half-width, and where the contact slides
    N: np.ndarray
    T: np.ndarray
    a: np.ndarray
    kt: np.ndarray
    front: np.ndarray
    slipping: np.ndarray

    @classmethod
    def unloaded(cls, contacts: int = 1) -> "CalibratedState":
        zero = np.zeros(contacts)
        return cls(np.zeros((contacts, kernel.HISTORY)), zero, zero, zero, zero, zero,
                   np.zeros(contacts, dtype=bool))


def calibrated_update(pair: ContactPair, delta_n, d_delta_t, state: CalibratedState,
                      coefficients: CalibratedCoefficients) -> CalibratedState:
    """One step of the calibrated law for a batch of contacts.

    ``delta_n`` the current overlap and ``d_delta_t`` this step's tangential increment, both of
    the disc relative to the other body in the contact's frame (doubled internally for a wall);
    ``state`` the previous step's (:meth:`CalibratedState.unloaded` for new contacts), whose
    history is updated in place.
    """
    N, a = normal_force(pair, pair.pair_displacement(delta_n))
    contacts = state.history.shape[0]
    N, a, step = (np.broadcast_to(np.asarray(v, float), (contacts,)) for v in (
        N, a, pair.pair_displacement(d_delta_t)))
    found = curve_constants(pair, np.where(a > 0, a, 1.0), coefficients)
    mu, modulus, B_first, kappa_first, B_cyclic, kappa_cyclic = (
        np.broadcast_to(np.asarray(v, float), (contacts,)) for v in (
            pair.mu, pair.modulus, found.B_first, found.kappa_first, found.B_cyclic,
            found.kappa_cyclic))
    outputs = np.zeros((4, contacts))
    for i in range(contacts):
        outputs[:, i] = kernel.tangential_step(
            state.history[i], N[i], a[i], math.log(a[i]) if a[i] > 0 else 0.0, step[i], mu[i],
            modulus[i], B_first[i], kappa_first[i], B_cyclic[i], kappa_cyclic[i])
    return CalibratedState(state.history, N.copy(), outputs[0], a.copy(), outputs[1],
                           outputs[2], outputs[3].astype(bool))


class CalibratedModel(ContactLaw):
    """The calibrated law on a load path of the two-body FEM, in the frame of the line of
    centres as a DEM code applies it (:mod:`calibration.laws.rigid_kinematics`)."""

    name = "calibrated"
    paths = ALL_PATHS

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
        pair = self.pair
        frame = contact_frame(path.delta_n, path.delta_t, float(pair.R1), float(pair.R2),
                              pair.wall)
        steps = len(path)
        columns = {name: np.zeros(steps) for name in ("N", "T", "a", "kt", "c")}
        slip = np.empty(steps, dtype=object)
        state = CalibratedState.unloaded()
        for k in range(steps):
            state = calibrated_update(pair, frame.overlap[k], frame.increment[k], state,
                                      self.coefficients)
            for name, value in (("N", state.N), ("T", state.T), ("a", state.a),
                                ("kt", state.kt), ("c", state.front)):
                columns[name][k] = value[0]
            slip[k] = ("open" if state.N[0] <= 0 else "full" if state.slipping[0] else
                       "partial" if state.front[0] < state.a[0] else "stick")
        Fx, Fz = frame.driving_forces(columns["N"], columns["T"])
        return law_table(path, **columns, kn=normal_stiffness(pair, columns["a"]),
                         slip=slip.astype(str), Fx=Fx, Fz=Fz)
