"""Load paths of the two-body contact problem: prescribed relative displacements per step.

Kinds (``--path``), all starting from the unloaded state:

``hold-normal`` (the paper's case 1, Section 4.2)
    the approach delta_n is applied in ``normal_steps`` equal increments with delta_t = 0, then
    held while delta_t rises to its final value in ``steps`` increments.
``proportional`` (case 2)
    delta_n and delta_t rise together in ``steps`` increments.
``cycle`` (reversing tangential load at constant approach)
    the normal stage of ``hold-normal``, then delta_t goes 0 -> +A (first loading), and
    ``cycles`` times +A -> -A (unloading) -> +A (reloading), A = ``delta_t``; ``steps`` increments
    for every A of travel, so a full cycle has 4 ``steps``.
``coupled-cycle`` (reversing tangential load with the normal load varying in phase)
    ``cycle``, but from the first loading on the approach follows delta_t:
    ``delta_n = delta_n0 (1 + s delta_t / A)``, s = ``normal_swing`` (default 0.2): the contact is
    pressed harder while it is pushed one way and relieved while it is pushed the other, as a
    disc rocked in a packing. The normal force changes during every branch, so a law's memory
    rules for a varying N are exercised; the energy per cycle includes the work of the normal
    force (:func:`hertz2d.calibration.laws.energy_per_cycle`).
``unload-normal`` (the paper's Fig. 6b, in displacement control)
    ``hold-normal``, then delta_t held while delta_n falls to ``delta_n_end`` (default half of
    delta_n) in ``steps`` increments: the contact loses normal force under a held tangential
    displacement, and the slip zone grows.
``stick-cycle`` (small reversing cycles, the normal load swinging out of phase)
    the normal stage, the first loading 0 -> +A, then ``cycles`` times +A -> -A -> +A, with
    ``delta_n = delta_n0 (1 + s sin(2 pi tau))``, tau the fraction of the cycle's travel done:
    the approach peaks a quarter cycle after the tangential displacement (s = ``normal_swing``, 0
    for a constant approach); meant for amplitudes below the onset of slip (a contact vibrating in
    a packing).
``sliding-reversal`` (full sliding that reverses, the normal load swinging twice a cycle)
    as ``stick-cycle`` with ``sin(4 pi tau)``: N swings at twice the tangential frequency; meant
    for amplitudes past the onset of full slip.
``random-walk`` (seeded: multi-reversal walks, the normal load out of phase)
    the normal stage, the first loading 0 -> +A, then ``cycles`` periods, each from +A down to -A
    and back, every half with ``reversals`` minor reversals inside [-A, A] drawn by a generator
    seeded with ``seed`` (:func:`walk_turning_points`); the approach is
    ``delta_n0 (1 + s sin(2 pi k tau + phi))`` over a period (k 1 or 2 and phi drawn too),
    reached on the first loading. Each period returns to +A and to its starting approach.
``file``
    any path, one step per row of a CSV table with columns ``delta_n`` and ``delta_t``
    (:meth:`LoadPath.from_file`).

Stages (the ``stage`` column): ``normal``, ``tangential`` (the first tangential loading),
``unloading`` and ``reloading`` (delta_t reversed after a turning point), ``proportional``,
``normal-unloading``, ``file`` (a ``coupled-cycle``, ``stick-cycle`` or ``sliding-reversal``
path's stages are named as a cycle's; a ``random-walk`` period's descending half, minor
reversals included, is ``unloading`` and its ascending half ``reloading``, so that a period is
a cycle of :func:`hertz2d.calibration.laws.energy_per_cycle`). The FEM (:mod:`hertz2d.fem.twodisc`) and every
contact law run the same :class:`LoadPath`, so their tables line up row by row. Displacements
in m, approach positive, the upper body's displacement relative to the lower one.
"""
from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from hertz2d.checks import InputError, count, non_negative, one_of, positive, unique_columns

PATHS = ("hold-normal", "proportional", "cycle", "coupled-cycle", "unload-normal",
         "stick-cycle", "sliding-reversal", "random-walk")
#: the kinds whose approach swings with the fraction of a period's travel, and at which
#: harmonic of it (a random walk draws its own, 1 or 2)
SWINGING = {"stick-cycle": 1, "sliding-reversal": 2, "random-walk": None}
#: a random walk's minor reversals in each half period by default
REVERSALS = 2
#: a random walk's minor reversal goes back this share (drawn uniformly) of the descent from
#: the level before (:func:`walk_turning_points`)
MINOR_BACK = (0.2, 0.8)
#: the approach swing of a ``coupled-cycle`` path by default (20 % of delta_n0 each way)
NORMAL_SWING = 0.2
#: the longest path: its arrays and the tables run on it take ~200 bytes a step (0.2 GB here)
MAX_STEPS = 1_000_000
STEPS_LIMIT = "a load path's tables take ~200 bytes a step; 1e6 steps is 0.2 GB"

#: the first columns of every per-step table, the FEM's (``hertz2d twodisc``) and every law's
#: (``hertz2d model``), so the two line up row by row: the step, the prescribed displacements,
#: the horizontal and vertical driving forces, the contact resultants and half-widths
STEP_COLUMNS = ("step", "delta_n", "delta_t", "Fx", "Fz", "N", "T", "a", "c")


def _ramp(start: float, end: float, steps: int) -> np.ndarray:
    """``steps`` equal increments from ``start`` (excluded) to ``end`` (included)."""
    return start + (end - start) * np.arange(1, steps + 1) / steps


def walk_turning_points(amplitude: float, reversals: int, rng: np.random.Generator) -> np.ndarray:
    """One period of a random walk, +A -> -A -> +A, as its turning points: each half has
    ``reversals`` minor reversals, a descent to a level drawn uniformly in (-A, A) (the levels
    sorted, so the half makes net progress) followed by a step back of a :data:`MINOR_BACK` share
    of that descent. ``2 reversals + 1`` turning points a half, the last at -A (then +A)."""
    points = [amplitude]
    for sign in (1.0, -1.0):
        start = sign * amplitude
        levels = np.sort(rng.uniform(-amplitude, amplitude, reversals))[::-1] * sign
        backs = rng.uniform(*MINOR_BACK, reversals)
        for level, back in zip(levels, backs):
            points += [level, level + back * (start - level)]
            start = level
        points.append(-sign * amplitude)
    return np.array(points)


def _legs(points: np.ndarray, amplitude: float, steps: int) -> np.ndarray:
    """delta_t along straight legs between turning points, ``steps`` per amplitude of travel
    (at least one a leg)."""
    return np.concatenate([_ramp(a, b, max(1, round(steps * abs(b - a) / amplitude)))
                           for a, b in zip(points[:-1], points[1:])])


def _swinging(kind: str, delta_n: float, delta_t: float, steps: int, cycles: int, swing: float,
              seed: int, reversals: int) -> list[tuple[np.ndarray, np.ndarray, str]]:
    """The tangential legs of a ``stick-cycle``, ``sliding-reversal`` or ``random-walk`` path
    (module docstring): the first loading, then per period a descending (``unloading``) and an
    ascending (``reloading``) half."""
    rng = np.random.default_rng(seed)
    harmonic, phase = SWINGING[kind], 0.0
    if harmonic is None:
        harmonic, phase = int(rng.integers(1, 3)), float(rng.uniform(0.0, 2.0 * np.pi))
    reached = delta_n * (1.0 + swing * math.sin(phase))
    legs = [(_ramp(delta_n, reached, steps), _ramp(0.0, delta_t, steps), "tangential")]
    for _ in range(cycles):
        points = (walk_turning_points(delta_t, reversals, rng) if kind == "random-walk"
                  else np.array([delta_t, -delta_t, delta_t]))
        lowest = int(np.argmin(points))
        down = _legs(points[:lowest + 1], delta_t, steps)
        up = _legs(points[lowest:], delta_t, steps)
        tau = np.arange(1, len(down) + len(up) + 1) / (len(down) + len(up))
        approach = delta_n * (1.0 + swing * np.sin(2.0 * np.pi * harmonic * tau + phase))
        legs += [(approach[:len(down)], down, "unloading"),
                 (approach[len(down):], up, "reloading")]
    return legs


def _check_rows(path, name: str) -> None:
    """The header of a path file names no column twice (pandas would rename the second and the
    first be used in silence), and every row has as many fields as the header (pandas would take
    the extra field of a row for an index and shift the others)."""
    with open(path, newline="", encoding="utf-8-sig") as text:
        rows = csv.reader(text)
        header = unique_columns(f"path_file={name!r}", next(rows, []))
        for number, row in enumerate(rows, start=1):
            if row and len(row) != len(header):
                raise InputError(f"path_file={name!r}: row {number} ({','.join(row)!r}) has "
                                 f"{len(row)} fields, the header {len(header)} "
                                 f"({','.join(header)})")


@dataclass(frozen=True)
class LoadPath:
    """Prescribed ``delta_n``, ``delta_t`` per step and the stage each step belongs to."""

    kind: str
    delta_n: np.ndarray
    delta_t: np.ndarray
    stage: np.ndarray

    @classmethod
    def build(cls, kind: str, delta_n: float, delta_t: float, steps: int,
              normal_steps: int = 10, cycles: int = 1,
              delta_n_end: float | None = None,
              normal_swing: float = NORMAL_SWING, seed: int = 0,
              reversals: int = REVERSALS) -> "LoadPath":
        """A path of one of the built kinds (see the module docstring for each kind's steps).

        Parameters
        ----------
        kind : {"hold-normal", "proportional", "cycle", "coupled-cycle", "unload-normal", \
                "stick-cycle", "sliding-reversal", "random-walk"}
            The kind of path.
        delta_n : float
            The approach (m): held (``hold-normal``, the cycles), reached
            (``proportional``), or the start of the unloading (``unload-normal``).
        delta_t : float
            The final tangential displacement (m), or a cycle's amplitude.
        steps : int
            Tangential increments (per amplitude of travel for the cycles).
        normal_steps : int, optional
            Increments of the normal stage.
        cycles : int, optional
            Full cycles of a cycle path.
        delta_n_end : float, optional
            Where ``unload-normal`` takes the approach (half of ``delta_n`` by default).
        normal_swing : float, optional
            The relative swing of the approach of a ``coupled-cycle`` and of the swinging kinds
            (:data:`SWINGING`).
        seed : int, optional
            A ``random-walk``'s generator seed: the same seed, the same path.
        reversals : int, optional
            A ``random-walk``'s minor reversals per half period.

        Returns
        -------
        LoadPath
            One step per increment, with its stage; the FEM and every law run it.
        """
        one_of("path", kind, PATHS)
        positive("delta_n", delta_n)
        non_negative("delta_t", delta_t)
        steps = count("steps", steps, maximum=MAX_STEPS, why=STEPS_LIMIT)
        if kind == "proportional":
            return cls._checked(kind, [(_ramp(0.0, delta_n, steps), _ramp(0.0, delta_t, steps),
                                        "proportional")])
        normal_steps = count("normal_steps", normal_steps, maximum=MAX_STEPS, why=STEPS_LIMIT)
        legs = [(_ramp(0.0, delta_n, normal_steps), np.zeros(normal_steps), "normal"),
                (np.full(steps, delta_n), _ramp(0.0, delta_t, steps), "tangential")]
        if kind in ("cycle", "coupled-cycle", *SWINGING):
            cycles = count("cycles", cycles, maximum=MAX_STEPS, why=STEPS_LIMIT)
            if delta_t <= 0:
                raise InputError(f"delta_t={delta_t!r} must be > 0: it is the cycle's amplitude")
        if kind in SWINGING:
            swing = non_negative("normal_swing", normal_swing)
            if swing >= 1:
                raise InputError(f"normal_swing={normal_swing!r} must be < 1: the contact "
                                 "would open")
            reversals = count("reversals", reversals, minimum=0, maximum=MAX_STEPS,
                              why=STEPS_LIMIT)
            seed = count("seed", seed, minimum=0, maximum=2**63 - 1, why="a generator seed")
            return cls._checked(kind, legs[:1] + _swinging(kind, delta_n, delta_t, steps, cycles,
                                                           swing, seed, reversals))
        if kind in ("cycle", "coupled-cycle"):
            for _ in range(cycles):
                legs += [(np.full(2 * steps, delta_n), _ramp(delta_t, -delta_t, 2 * steps),
                          "unloading"),
                         (np.full(2 * steps, delta_n), _ramp(-delta_t, delta_t, 2 * steps),
                          "reloading")]
            if kind == "coupled-cycle":
                swing = non_negative("normal_swing", normal_swing)
                if swing >= 1:
                    raise InputError(f"normal_swing={normal_swing!r} must be < 1: the contact "
                                     "would open at -A")
                legs = [legs[0]] + [(n * (1.0 + swing * t / delta_t), t, stage)
                                    for n, t, stage in legs[1:]]
        elif kind == "unload-normal":
            end = 0.5 * delta_n if delta_n_end is None else positive("delta_n_end", delta_n_end)
            if end >= delta_n:
                raise InputError(f"delta_n_end={end!r} must be smaller than delta_n={delta_n!r}")
            legs.append((_ramp(delta_n, end, steps), np.full(steps, float(delta_t)),
                         "normal-unloading"))
        return cls._checked(kind, legs)

    @classmethod
    def _checked(cls, kind: str, legs: list[tuple[np.ndarray, np.ndarray, str]]) -> "LoadPath":
        total = sum(len(n) for n, _, _ in legs)
        count("steps", total, maximum=MAX_STEPS, why="the whole path: " + STEPS_LIMIT)
        return cls(kind, np.concatenate([n for n, _, _ in legs]),
                   np.concatenate([t for _, t, _ in legs]),
                   np.concatenate([np.full(len(n), stage) for n, _, stage in legs]))

    @classmethod
    def from_file(cls, path: str | Path) -> "LoadPath":
        """A ``file`` path: one step per row of a CSV table with columns ``delta_n, delta_t``.

        Parameters
        ----------
        path : str or pathlib.Path
            The CSV file: the header ``delta_n,delta_t``, then one row per step (m); every
            delta_n > 0 (the bodies touch at every step), every value finite.

        Returns
        -------
        LoadPath

        Raises
        ------
        checks.InputError
            A missing file, or a row or value that is wrong (named in the message).
        """
        name = str(path)
        try:
            _check_rows(path, name)
            table = pd.read_csv(path)
        except (OSError, ValueError, UnicodeDecodeError, csv.Error,
                pd.errors.ParserError) as error:
            if isinstance(error, InputError):
                raise
            reason = getattr(error, "strerror", None) or str(error).splitlines()[0]
            raise InputError(f"path_file={name!r} is not a readable CSV table ({reason})") from None
        missing = [c for c in ("delta_n", "delta_t") if c not in table.columns]
        if missing:
            raise InputError(f"path_file={name!r} lacks the column(s) {', '.join(missing)}")
        try:
            count("steps", len(table), maximum=MAX_STEPS, why=STEPS_LIMIT)
        except InputError as error:
            raise InputError(f"path_file={name!r} has {len(table)} rows: {error}") from None
        values = {}
        for column in ("delta_n", "delta_t"):
            numbers = pd.to_numeric(table[column], errors="coerce").to_numpy(float)
            bad = ~np.isfinite(numbers) | ((numbers <= 0) if column == "delta_n" else False)
            if bad.any():
                row = int(np.flatnonzero(bad)[0])
                rule = "a number > 0" if column == "delta_n" else "a finite number"
                value = table[column].iloc[row]
                value = value.item() if hasattr(value, "item") else value  # numpy -> Python
                raise InputError(f"path_file={name!r}: {column}={value!r} in row {row + 1} is "
                                 f"not {rule}")
            values[column] = numbers
        return cls("file", values["delta_n"], values["delta_t"], np.full(len(table), "file"))

    def check_touching(self, reach: float, scale: float = 1.0,
                       bodies: str = "the bodies") -> None:
        """Every step presses two bodies whose radii add up to ``reach`` together (``math.inf``
        for a disc on a rigid wall: any positive approach): the rigid overlap of the displacements
        times ``scale`` is positive. Else :class:`InputError` naming the largest delta_t and the
        first step at which ``bodies`` would not touch, before any arithmetic on the path (a
        displacement of 1e300 would overflow a law's force)."""
        delta_n, delta_t = scale * self.delta_n, scale * self.delta_t
        if math.isinf(reach):
            bad = np.flatnonzero(delta_n <= 0.0)
        else:  # hypot(delta_t, reach - delta_n) < reach, without rounding reach - delta_n
            with np.errstate(over="ignore"):  # an infinite side is the verdict, not an error
                bad = np.flatnonzero(~(delta_t * delta_t < delta_n * (2.0 * reach - delta_n)))
        if bad.size:
            k = bad[0]
            extreme = float(self.delta_t[np.argmax(np.abs(self.delta_t))])
            raise InputError(f"delta_t={extreme!r} is too large for delta_n="
                             f"{float(self.delta_n.max())!r}: {bodies} would not touch from step "
                             f"{k + 1} on (delta_t={float(self.delta_t[k]):.6g}, "
                             f"delta_n={float(self.delta_n[k]):.6g})")

    def __len__(self) -> int:
        return len(self.delta_n)

    def frame(self) -> pd.DataFrame:
        """``step, delta_n, delta_t, stage``: the first columns of every load-path table."""
        return pd.DataFrame({"step": np.arange(1, len(self) + 1), "delta_n": self.delta_n,
                             "delta_t": self.delta_t, "stage": self.stage})
