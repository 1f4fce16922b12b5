"""The net work of a contact law around closed paths in (delta_n, delta_t): does it create energy?

A law is admissible when no closed path of the relative displacements yields net work: over a
loop that returns the bodies to where they were, ``W = closed integral of Fx d(delta_t) + Fz
d(delta_n) >= 0`` (energy leaves through slip or traction released as a stuck contact recedes,
it never enters). :func:`loop_work` drives a law (any :class:`~hertz2d.calibration.laws.base.ContactLaw`)
through a :class:`Loop` repeated :data:`REPEATS` times from the unloaded state and returns W over
the last repeat, normalised by ``mu N_max A`` (``N_max`` the law's largest normal force on that
repeat, ``A`` the loop's tangential amplitude, the largest ``|delta_t|``), so that a number is
comparable across contacts and laws. The repeats let a law settle into its periodic state (the
first repeat starts from a virgin contact); the issue's energy pump is a periodic state that does
negative work every cycle.

Quadrature. The forces are known at the path's steps only (a law's table), at the phases
``theta_k = 2 pi k/steps`` of the loop, whose velocity ``(A g', delta_n0 swing h')`` is known in
closed form (:class:`Loop`). W is the trapezoid rule in theta of the periodic integrand
``Fx A g' + Fz delta_n0 swing h'`` (:meth:`Loop.work`): for a smooth periodic integrand its error
falls faster than any power of the step h = 2 pi/steps (the rule is exact for trigonometric
polynomials of degree below ``steps``), so what is left is the kinks of the forces (a slip
onset, a reversal of the slip), each ``O(h^2)``: the error falls as the square of the step, 4
times the steps 16 times smaller. At a hard kink (a spring that hits its cap) it is of order
1e-4 mu N_max A at :data:`STEPS` (:data:`THRESHOLD`) and below 1e-6 at 16 times the steps
(:data:`QUADRATURE_BOUND`). (The polyline's trapezoid rule of
:func:`hertz2d.calibration.laws.energy.energy_per_cycle` errs by ``O(h^2)`` everywhere, of order 1e-6 mu
N_max A at 400 steps on a normal force that swings 40 %.) An incremental law's forces
themselves depend on the step: that error is the law's, and it too falls with the step.
:meth:`LoopWork.refined` reruns a loop with 4 and 16 times the steps; a negative W whose
extrapolation to a vanishing step (:attr:`LoopWork.extrapolated`) stays below
``-QUADRATURE_BOUND`` is energy created by the law, not by the quadrature or the law's own step
(an incremental law's W can be negative at a finite step and fall to 0 as the step: Table 1's law
does so on some loops in phase). ``tests/test_admissibility.py`` shows the quadrature exact on
smooth loops, its error falling as h^2 at kinks and below :data:`QUADRATURE_BOUND` at 16 times
:data:`STEPS`.

:func:`random_loops` draws the loops: equal discs, dissimilar pairs and discs on walls (nu
0-0.45, mu 0.05-1, a/R 0.02-0.2, Dundurs' ``|beta|`` to 0.5), the approach swinging 0-40 % (N
about as much) in and out of phase at once or twice the tangential frequency, or along a random
smooth closed curve, tangential amplitudes 0.05-1.5 times the slip onset (Eq. 27 at the mean
approach: pure stick for a spring law at the small ones, stick and slip mixed at the large ones).
:func:`stick_return` is the constant-N check: in stick (mu raised to :data:`STICK_MU`) the path
0 -> d -> 0 -> -d -> 0 at a constant N returns T to its start.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from hertz2d.calibration.laws.base import ContactLaw
from hertz2d.calibration.laws.calibrated import coupling_beta
from hertz2d.calibration.laws.hertz2d import full_slip_displacement, normal_approach
from hertz2d.calibration.laws.pair import ContactPair
from hertz2d.checks.loadpath import LoadPath

#: repeats of a loop; W is measured over the last
REPEATS = 3
#: steps per repeat of a loop
STEPS = 400
#: where the loops that W is the least over begin: a share of a repeat before the last one's start
STARTS = (0.0, 0.25, 0.5, 0.75)
#: steps of the normal stage that seats the contact at the loop's start
SEAT_STEPS = 20
#: a loop whose normalised W is below -THRESHOLD at STEPS is a violation, rerun with 4x and 16x
#: the steps (the quadrature's error at a hard slip onset is of this order at STEPS)
THRESHOLD = 1e-4
#: the quadrature's error at 16 x STEPS (mu N_max A): a violation persists below -QUADRATURE_BOUND
QUADRATURE_BOUND = 1e-6
#: the refinements of a violating loop
REFINEMENTS = (4, 16)
#: the loop shapes: the approach at once or twice the tangential frequency, or a random curve
SHAPES = ("once", "twice", "random")
#: the counterparts
KINDS = ("equal", "dissimilar", "wall")
#: friction coefficient of the stick check: a law with partial slip (Cattaneo-Mindlin's) slips
#: on a share of the contact of order T/(mu N) at any mu, and leaves that share of T behind
STICK_MU = 1e8
#: modes of a random smooth closed curve
MODES = 3


def _series(coefficients, theta: np.ndarray, derivative: bool = False
            ) -> tuple[np.ndarray, np.ndarray]:
    """A random curve's ``g = sum_k c_k0 sin k theta + c_k1 (cos k theta - 1)`` (0 at theta 0)
    and ``h = sum_k c_k2 sin k theta + c_k3 cos k theta``, before normalisation (or their
    derivatives in theta)."""
    c = np.asarray(coefficients, float).reshape(MODES, 4)
    k = np.arange(1, MODES + 1)[:, None]
    sin, cos = np.sin(k * theta), np.cos(k * theta)
    if derivative:
        return ((k * (c[:, 0:1] * cos - c[:, 1:2] * sin)).sum(axis=0),
                (k * (c[:, 2:3] * cos - c[:, 3:4] * sin)).sum(axis=0))
    return ((c[:, 0:1] * sin + c[:, 1:2] * (cos - 1.0)).sum(axis=0),
            (c[:, 2:3] * sin + c[:, 3:4] * cos).sum(axis=0))


@dataclass(frozen=True)
class Loop:
    """A closed path: ``delta_t = A g(theta)``, ``delta_n = delta_n0 (1 + swing h(theta))`` for
    theta over [0, 2 pi], with ``g(0) = 0`` and ``max |g| = max |h| = 1``.

    ``shape`` ``once``/``twice``: ``g = sin theta``, ``h = sin(m theta + phase)`` (m = 1, 2;
    phase 0: the approach in phase with delta_t, pi/2 out of phase); ``random``: g and h random
    Fourier series of :data:`MODES` modes (``coefficients``, 4 per mode: sin and cos of g, of h).
    ``amplitude`` is A over the slip onset (Eq. 27 at delta_n0).
    """

    pair: ContactPair
    kind: str
    a_over_R: float
    delta_n0: float
    A: float
    amplitude: float
    swing: float
    shape: str = "once"
    phase: float = 0.0
    coefficients: tuple[float, ...] = ()

    @property
    def beta(self) -> float:
        return float(coupling_beta(self.pair))

    def curve(self, theta: np.ndarray, derivative: bool = False
              ) -> tuple[np.ndarray, np.ndarray]:
        """``(g, h)`` at the phases ``theta``, or their derivatives ``(g', h')``."""
        if self.shape == "random":
            g, h = _series(self.coefficients, theta, derivative)
            g_fine, h_fine = _series(self.coefficients, np.linspace(0.0, 2 * math.pi, 2049))
            return (g / max(float(np.abs(g_fine).max()), 1e-300),
                    h / max(float(np.abs(h_fine).max()), 1e-300))
        m = 1 if self.shape == "once" else 2
        if derivative:
            return np.cos(theta), m * np.cos(m * theta + self.phase)
        return np.sin(theta), np.sin(m * theta + self.phase)

    def work(self, table, steps: int) -> tuple[float, float]:
        """``(W, N_max)`` over the last repeat of a law's ``table`` on :meth:`path` with
        ``steps`` steps a repeat: ``W = (2 pi/steps) sum_k Fx_k A g'(theta_k) + Fz_k delta_n0
        swing h'(theta_k)``, the trapezoid rule in theta of the periodic integrand (module
        docstring), the least of W over a whole loop that starts at each of :data:`STARTS`
        (the last repeat, and the loops that begin a share of a repeat earlier): in a periodic
        state they are one W, in a state that still drifts (a ratchet) the loop that starts
        where the drift has stored energy returns it."""
        if len(table) < steps + round(max(STARTS) * steps):
            raise ValueError(f"a table of {len(table)} steps holds no loop of {steps} steps "
                             f"that starts {max(STARTS)} of a repeat before the last one")
        theta = 2 * math.pi * np.arange(1, steps + 1) / steps
        dg, dh = self.curve(theta, derivative=True)
        Fx, Fz = table.Fx.to_numpy(), table.Fz.to_numpy()
        works = []
        for start in STARTS:
            shift = int(round(start * steps))
            end = len(table) - shift
            integrand = (np.roll(Fx[end - steps:end], -shift) * self.A * dg
                         + np.roll(Fz[end - steps:end], -shift) * self.delta_n0 * self.swing * dh)
            works.append(float(integrand.sum() * 2 * math.pi / steps))
        return min(works), float(table.N.to_numpy()[-steps:].max())

    def path(self, steps: int = STEPS, repeats: int = REPEATS) -> LoadPath:
        """The seat (the approach ramped to the loop's start at delta_t = 0), then ``repeats``
        times the loop in ``steps`` steps each (a ``file`` path: every law takes it)."""
        theta = 2 * math.pi * np.arange(1, repeats * steps + 1) / steps
        g, h = self.curve(theta)
        start = self.delta_n0 * (1.0 + self.swing * float(self.curve(np.zeros(1))[1][0]))
        seat = start * np.arange(1, SEAT_STEPS + 1) / SEAT_STEPS
        delta_n = np.concatenate([seat, self.delta_n0 * (1.0 + self.swing * h)])
        delta_t = np.concatenate([np.zeros(SEAT_STEPS), self.A * g])
        return LoadPath("file", delta_n, delta_t, np.full(len(delta_n), "file"))

    def row(self) -> dict:
        """The loop's parameters for a table."""
        return {"kind": self.kind, "nu1": float(self.pair.nu1), "nu2": float(self.pair.nu2),
                "E2_over_E1": float(self.pair.E2 / self.pair.E1),
                "R2_over_R1": float(self.pair.R2 / self.pair.R1), "mu": float(self.pair.mu),
                "beta": self.beta, "a_over_R": self.a_over_R, "amplitude": self.amplitude,
                "swing": self.swing, "shape": self.shape, "phase": self.phase}


def extrapolated(refined_W: tuple[float, ...]) -> float:
    """W at a vanishing step from the works at 4 and 16 times the steps, ``W_16 + (W_16 -
    W_4)/3``: Richardson's extrapolation for an error that falls as the step (the slowest of the
    laws' own step errors; an error that falls as h^2 is overshot a little past the limit)."""
    if len(refined_W) < 2:
        return math.nan
    return refined_W[-1] + (refined_W[-1] - refined_W[-2]) / 3.0


@dataclass(frozen=True)
class LoopWork:
    """A law's normalised net work over a loop: ``W`` at ``steps`` per repeat, and after
    :meth:`refined` the works at 4 and 16 times the steps."""

    law: ContactLaw
    loop: Loop
    steps: int
    W: float
    refined_W: tuple[float, ...] = ()

    @property
    def violates(self) -> bool:
        return self.W < -THRESHOLD

    def refined(self) -> "LoopWork":
        """This loop rerun at :data:`REFINEMENTS` times the steps."""
        return replace(self, refined_W=tuple(
            loop_work(self.law, self.loop, self.steps * r).W for r in REFINEMENTS))

    @property
    def extrapolated(self) -> float:
        """W at a vanishing step (:func:`extrapolated`; nan before :meth:`refined`)."""
        return extrapolated(self.refined_W)

    @property
    def persists(self) -> bool:
        """A violation whose extrapolation to a vanishing step stays below
        ``-QUADRATURE_BOUND``: the law's energy, not the step's."""
        return bool(self.refined_W) and self.extrapolated < -QUADRATURE_BOUND


def loop_work(law: ContactLaw, loop: Loop, steps: int = STEPS,
              repeats: int = REPEATS) -> LoopWork:
    """``law`` driven through ``loop`` ``repeats`` times; the last repeat's net work over
    ``mu N_max A`` (module docstring)."""
    return LoopWork(law, loop, steps, normalised_work(loop, law.run(loop.path(steps, repeats)),
                                                      steps))


def normalised_work(loop: Loop, table, steps: int) -> float:
    """The net work over the last repeat of a law's ``table`` on ``loop``'s path (``steps`` a
    repeat) over ``mu N_max A`` (0 for a loop that never closed the contact)."""
    work, N_max = loop.work(table, steps)
    scale = float(loop.pair.mu) * N_max * loop.A
    return work / scale if scale > 0 else 0.0


def seated(pair: ContactPair, a_over_R: float) -> tuple[float, float]:
    """The approach at which the 2D normal law (Eqs. 4, 22) opens the contact to ``a = a_over_R
    R`` (R the smaller radius) and the slip onset there (Eq. 27, Eq. 33's w), both as the path
    gives them (a disc's own displacement for a wall: half the pair's)."""
    R = float(min(pair.R1, pair.R2)) if not pair.wall else float(pair.R1)
    a = a_over_R * R
    N = math.pi * float(pair.modulus) * a * a / (4.0 * float(pair.radius))
    delta_n = float(normal_approach(pair, N))
    onset = float(full_slip_displacement(pair, N, a))
    share = 0.5 if pair.wall else 1.0
    return share * delta_n, share * onset


def make_loop(pair: ContactPair, kind: str, a_over_R: float, amplitude: float, swing: float,
              shape: str = "once", phase: float = 0.0,
              coefficients: tuple[float, ...] = ()) -> Loop:
    """A :class:`Loop` of ``pair`` at ``a_over_R`` with A ``amplitude`` times the slip onset."""
    delta_n0, onset = seated(pair, a_over_R)
    return Loop(pair, kind, a_over_R, delta_n0, amplitude * onset, amplitude, swing, shape,
                phase, tuple(coefficients))


def random_pair(rng: np.random.Generator, kind: str, mu: float) -> ContactPair:
    """A pair of ``kind``: equal discs, a dissimilar pair (E2/E1 log-uniform 1/1000-1000, R2/R1
    0.5-2, each nu 0-0.45: ``|beta|`` to 0.5) or a disc on a wall (nu 0-0.45: ``|beta|``
    0.09-0.5)."""
    R, E = 0.5, 10e9
    nu = float(rng.uniform(0.0, 0.45))
    if kind == "equal":
        return ContactPair.discs(R, E, nu, mu)
    if kind == "wall":
        return ContactPair.disc_on_wall(R, E, nu, mu)
    return ContactPair(R, R * float(rng.uniform(0.5, 2.0)), E,
                       E * 10 ** float(rng.uniform(-3.0, 3.0)), nu,
                       float(rng.uniform(0.0, 0.45)), mu)


def random_loops(count: int, seed: int = 0) -> list[Loop]:
    """``count`` loops drawn as the module docstring says (the counterparts and shapes in turn,
    the rest at random), reproducibly from ``seed``."""
    rng = np.random.default_rng(seed)
    loops = []
    for i in range(count):
        kind, shape = KINDS[i % len(KINDS)], SHAPES[(i // len(KINDS)) % len(SHAPES)]
        pair = random_pair(rng, kind, float(rng.uniform(0.05, 1.0)))
        phase = float(rng.choice([0.0, 0.5 * math.pi, math.pi, 1.5 * math.pi,
                                  rng.uniform(0.0, 2 * math.pi)]))
        loops.append(make_loop(pair, kind, float(rng.uniform(0.02, 0.2)),
                               float(rng.uniform(0.05, 1.5)), float(rng.uniform(0.0, 0.4)),
                               shape, phase, tuple(rng.normal(size=4 * MODES))
                               if shape == "random" else ()))
    return loops


def stick_return(law_of, pair: ContactPair, a_over_R: float = 0.1, amplitude: float = 0.5,
                 steps: int = 200) -> float:
    """``|T_end - T_start| / max |T|`` of ``law_of(pair)`` with mu raised to :data:`STICK_MU`
    on delta_t 0 -> d -> 0 -> -d -> 0 at a constant N, d ``amplitude`` times the slip onset at the
    pair's own mu and a_over_R: 0 for a law whose stick is elastic, of order T/(mu N) for one
    with Cattaneo-Mindlin's partial slip (falling as 1/mu), a share of T for a law that switches
    curves between its first loading and its later branches.

    Constant N: the approach is held, or for a law applied in the frame of the line of centres
    (``centres_frame``, the calibrated law) the centres' distance, ``delta_n = R1 + R2 -
    sqrt((R1 + R2 - delta_n0)^2 - delta_t^2)`` (a wall's normal does not turn: the approach)."""
    delta_n0, onset = seated(pair, a_over_R)
    d = amplitude * onset
    legs = [np.linspace(0.0, d, steps + 1)[1:], np.linspace(d, -d, 2 * steps + 1)[1:],
            np.linspace(-d, 0.0, steps + 1)[1:]]
    moving = np.concatenate(legs)
    law = law_of(replace(pair, mu=STICK_MU))
    if pair.wall or not law.centres_frame:
        held = np.full(len(moving), delta_n0)
    else:
        reach = float(pair.R1 + pair.R2)
        held = reach - np.sqrt((reach - delta_n0) ** 2 - moving ** 2)
    delta_t = np.concatenate([np.zeros(SEAT_STEPS), moving])
    delta_n = np.concatenate([delta_n0 * np.arange(1, SEAT_STEPS + 1) / SEAT_STEPS, held])
    table = law.run(LoadPath("file", delta_n, delta_t, np.full(len(delta_n), "file")))
    T = table["T"].to_numpy()
    return abs(T[-1] - T[SEAT_STEPS - 1]) / float(np.abs(T).max())
