"""The paper's biaxial compression test (Section 4.3): the schedule and what it measures.

Schedule (:class:`BiaxialSettings`, the paper's numbers by default): ``discs`` discs of diameters
uniform in [d_min, d_max] placed at random in a ``width`` x ``height`` box
(:func:`hertz2d.dem.packing.random_packing`, seeded), rho 2700 kg/m^3, E 10 GPa, nu 0.25, mu 0.3, dt
1e-5 s:

1. ``settle``: the discs fall under gravity for ``settle`` s inside the box (walls 0-3: bottom,
   right, top, left; :meth:`hertz2d.dem.walls.Walls.box`);
2. ``isotropic``: the top wall is placed on the packing (at its highest point) and the right, top
   and left walls are driven by the stress servo (:mod:`hertz2d.dem.walls`) to ``stress`` (the paper's
   0.1 GPa) for ``isotropic`` s; the bottom wall stays fixed;
3. ``shear``: the top wall moves down at ``shear_speed`` (0.1 m/s) for ``shear`` s (about 20 %
   axial strain) while the side walls stay on the servo at ``stress``.

The time loop is the engine's (:meth:`hertz2d.dem.simulation.Simulation.advance`); every ``output_every``
s :func:`run_biaxial` records a row of :meth:`~hertz2d.dem.simulation.Simulation.observe` (energies and
the ledger, contacts, the mean kn and kt of Fig. 17c, the walls) and of :func:`measure`: the
stage, the axial (top wall) and lateral (mean of the side walls) stresses and their difference,
the deviator ``q`` (Fig. 17b), the box's width, height and volume (its area per unit thickness,
Fig. 18), the heights of the bed's top and of the discs' centroid, the solid fraction (disc area
over the box's area below the bed's top), the kinetic energy of the discs that touch something,
overlaps and the coordination number (:mod:`hertz2d.dem.analysis`). It also keeps, at the end of every stage, the table of the
contacts; during the shear stage, velocity profiles; and with ``frames`` the discs' state every
``frame_every`` s and at the end of each stage (Fig. 16, the ParaView series and the animation,
:mod:`hertz2d.dem.output`).

Strains of the shear stage are measured from its start (compression positive): axial
``1 - H/H0``, volumetric ``1 - V/V0``. :func:`headline` condenses a run: the peak and residual
deviator (the mean over the last :data:`RESIDUAL_FRACTION` of the shear stage), the volumetric
strain at the end, the state the packing starts from (over the last :data:`SETTLED_WINDOW` of the
settling: kinetic over contact potential energy, how fast the centroid still sinks; the bed's
height, solid fraction and coordination, and the same after the isotropic stage), how close the
servo came to its target, and the energy balance of the whole run.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd

from hertz2d.dem import analysis
from hertz2d.dem.damping import PAPER, Damping
from hertz2d.dem.laws import Law
from hertz2d.dem.packing import random_packing
from hertz2d.dem.simulation import Simulation
from hertz2d.dem.state import Discs
from hertz2d.dem.walls import Walls
from hertz2d.checks import InputError, count, non_negative, positive

#: the box's walls (:meth:`hertz2d.dem.walls.Walls.box`)
BOTTOM, RIGHT, TOP, LEFT = 0, 1, 2, 3
STAGES = ("settle", "isotropic", "shear")
#: the residual deviator is the mean over this last fraction of the shear stage
RESIDUAL_FRACTION = 0.25
#: the servo's target is judged on this last fraction of the isotropic stage, the settled state
#: on this last fraction of the settling
SERVO_WINDOW = SETTLED_WINDOW = 0.1
#: slices of the box in the velocity profiles
PROFILE_BINS = 10
#: the largest schedule accepted, in steps (about 10 minutes of CPU for 200 discs)
MAX_STEPS = 2 * 10**7

@dataclass(frozen=True)
class BiaxialSettings:
    """The biaxial test's sample, material and schedule (SI units; defaults: Section 4.3)."""

    discs: int = 200
    d_min: float = 0.06
    d_max: float = 0.08
    width: float = 1.0
    height: float = 1.5
    density: float = 2700.0
    E: float = 10e9
    nu: float = 0.25
    mu: float = 0.3
    dt: float = 1e-5
    #: stage durations, s
    settle: float = 5.0
    isotropic: float = 1.0
    shear: float = 2.0
    #: confining stress, Pa, and the top wall's speed in the shear stage, m/s
    stress: float = 1e8
    shear_speed: float = 0.1
    #: the servo's gain and largest wall speed (:mod:`hertz2d.dem.walls`)
    servo_gain: float = 0.5
    servo_speed: float = 1.0
    #: interval of the recorded rows and of the frames, s
    output_every: float = 0.01
    frame_every: float = 0.05

    @classmethod
    def quick(cls) -> "BiaxialSettings":
        """A quarter of the sample (48 discs in a 0.5 x 0.75 m box, the same solid fraction) on
        a shortened schedule: 0.6 s settling, 0.15 s isotropic, 0.6 s shear (about 12 % axial
        strain), a frame every 0.1 s."""
        return cls(discs=48, width=0.5, height=0.75, settle=0.6, isotropic=0.15, shear=0.6,
                   frame_every=0.1)

    def steps(self, seconds: float) -> int:
        return int(round(seconds / self.dt))

    @property
    def output_steps(self) -> int:
        return max(1, self.steps(self.output_every))

    @property
    def total_steps(self) -> int:
        return sum(self.steps(getattr(self, stage)) for stage in STAGES)

    def check(self) -> "BiaxialSettings":
        """Every value in its domain (one :class:`InputError` naming the first bad one)."""
        count("discs", self.discs, minimum=2)
        for name in ("d_min", "d_max", "width", "height", "density", "E", "dt", "output_every",
                     "frame_every", "stress", "servo_speed"):
            positive(name, getattr(self, name))
        for name in ("settle", "isotropic", "shear"):
            positive(name, getattr(self, name))
        for name in ("shear_speed", "mu"):
            non_negative(name, getattr(self, name))
        if not 0.0 <= self.nu < 0.5:
            raise InputError(f"nu={self.nu!r} is outside [0, 0.5)")
        if not 0.0 < self.servo_gain <= 1.0:
            raise InputError(f"servo_gain={self.servo_gain!r} must be in (0, 1]")
        count("steps", self.total_steps, minimum=1, maximum=MAX_STEPS,
              why="about 10 minutes of CPU for 200 discs")
        frames = self.frame_every / self.output_every
        if abs(frames - round(frames)) > 1e-9 or round(frames) < 1:
            raise InputError(f"frame_every={self.frame_every!r} is not a multiple of "
                             f"output_every={self.output_every!r}")
        return self


@dataclass
class Frames:
    """The discs' state at regular times (for snapshots, ParaView and the animation)."""

    radius: np.ndarray
    time: list = field(default_factory=list)
    stage: list = field(default_factory=list)
    #: per frame: (n, 3) x, y, theta; (n, 3) vx, vy, omega; (n, 3) Love stress sxx, syy, sxy;
    #: (n,) contacts per disc; (4,) the box: x_left, x_right, y_bottom, y_top
    position: list = field(default_factory=list)
    velocity: list = field(default_factory=list)
    stress: list = field(default_factory=list)
    contacts: list = field(default_factory=list)
    box: list = field(default_factory=list)

    def add(self, run: Simulation, stage: str, table: pd.DataFrame) -> None:
        discs, walls = run.discs, run.walls
        self.time.append(run.time)
        self.stage.append(stage)
        self.position.append(discs.position.copy())
        self.velocity.append(discs.velocity.copy())
        self.stress.append(analysis.disc_stresses(discs, table))
        per_disc = np.bincount(table.i, minlength=discs.count)
        per_disc += np.bincount(table.j[table.wall == analysis.DISC_PAIR],
                                minlength=discs.count)
        self.contacts.append(per_disc)
        self.box.append(box_of(walls))

    def __len__(self) -> int:
        return len(self.time)


@dataclass
class BiaxialRun:
    """What :func:`run_biaxial` recorded."""

    settings: BiaxialSettings
    law: str
    damping: str
    seed: int
    #: one row per output interval
    series: pd.DataFrame
    #: every touching contact at the end of each stage (column ``instant``: the stage)
    contacts: pd.DataFrame
    #: velocity profiles of the shear stage, one set per output row (:mod:`hertz2d.dem.analysis`,
    #: column ``time``)
    profiles: pd.DataFrame
    #: the energy ledger of the whole run (:meth:`hertz2d.dem.simulation.Simulation.balance`)
    balance: dict
    steps: int
    frames: Frames | None = None


def box_of(walls: Walls) -> np.ndarray:
    """``(x_left, x_right, y_bottom, y_top)`` of the box's walls."""
    return np.array([walls.point[LEFT, 0], walls.point[RIGHT, 0], walls.point[BOTTOM, 1],
                     walls.point[TOP, 1]])


def measure(run: Simulation, stage: str, table: pd.DataFrame) -> dict:
    """The biaxial test's own columns of a row (module docstring)."""
    discs, walls = run.discs, run.walls
    stresses = walls.stresses()
    left, right, bottom, top = box_of(walls)
    width, height = right - left, top - bottom
    lateral = 0.5 * (stresses[RIGHT] + stresses[LEFT])
    relative = table.relative_overlap
    bed = float(np.max(discs.position[:, 1] + discs.radius) - bottom)
    solid = float(np.sum(np.pi * discs.radius**2))
    return {"stage": stage, "axial_stress": stresses[TOP], "lateral_stress": lateral,
            "deviator": stresses[TOP] - lateral, "width": width, "height": height,
            "volume": width * height, "bed_height": bed,
            "centroid_height": float(np.mean(discs.position[:, 1]) - bottom),
            "solid_fraction": solid / (width * min(height, bed)),
            "kinetic_contacting": analysis.contacting_kinetic_energy(discs, table),
            "max_overlap": float(relative.max()) if len(table) else 0.0,
            "mean_overlap": float(relative.mean()) if len(table) else 0.0,
            "coordination": analysis.coordination_number(table, discs.count)}


def new_simulation(law: Law, damping: Damping, settings: BiaxialSettings,
                   seed: int) -> Simulation:
    """The settings' random packing (``seed``) in its box, at rest."""
    s = settings
    centres, radii = random_packing(s.discs, s.d_min, s.d_max, s.width, s.height, seed=seed)
    return Simulation(Discs.from_arrays(centres, radii, s.density), law, dt=s.dt,
                      walls=Walls.box(s.width, s.height), damping=damping)


def start_stage(run: Simulation, stage: str, settings: BiaxialSettings) -> None:
    """Set the walls for ``stage`` (module docstring): place the top wall and start the servo
    for ``isotropic``, drive the top wall down for ``shear``."""
    walls, s = run.walls, settings
    if stage == "isotropic":
        walls.point[TOP, 1] = float(np.max(run.discs.position[:, 1] + run.discs.radius))
        for wall in (RIGHT, TOP, LEFT):
            walls.set_servo(wall, s.stress, gain=s.servo_gain, max_speed=s.servo_speed)
    elif stage == "shear":
        walls.set_velocity(TOP, (0.0, -s.shear_speed))


def run_biaxial(law: Law, damping: Damping = PAPER, settings: BiaxialSettings = BiaxialSettings(),
                seed: int = 1, frames: bool = False) -> BiaxialRun:
    """The whole schedule for one law, damping and packing ``seed`` (module docstring).

    Raises :class:`hertz2d.dem.simulation.LawFailure` if a contact leaves its law's domain.
    """
    settings.check()
    count("seed", seed, minimum=0)
    run = new_simulation(law, damping, settings, seed)
    interval = settings.output_steps
    frame_interval = int(round(settings.frame_every / settings.output_every)) * interval
    recorded = Frames(run.discs.radius.copy()) if frames else None
    rows, contact_tables, profiles = [], [], []

    def record(stage: str, last: bool = False) -> pd.DataFrame:
        """A row; a frame every ``frame_every`` and at the end of each stage (``last``)."""
        table = analysis.contact_table(run.discs, run.walls, run.contacts)
        rows.append({**run.observe(), **measure(run, stage, table)})
        if recorded is not None and (run.step % frame_interval == 0 or last):
            recorded.add(run, stage, table)
        return table

    record("settle")
    for stage in STAGES:
        start_stage(run, stage, settings)
        steps = settings.steps(getattr(settings, stage))
        table = None
        while steps > 0:
            chunk = min(interval, steps)
            run.advance(chunk)
            steps -= chunk
            table = record(stage, last=steps == 0)
            if stage == "shear":
                profiles.append(analysis.velocity_profiles(
                    run.discs, run.walls, PROFILE_BINS, LEFT, RIGHT, BOTTOM, TOP).assign(
                        time=run.time))
        if table is not None:
            contact_tables.append(table.assign(instant=stage))
    return BiaxialRun(settings, law.label, damping.label, seed, pd.DataFrame(rows),
                      pd.concat(contact_tables, ignore_index=True) if contact_tables
                      else pd.DataFrame(),
                      pd.concat(profiles, ignore_index=True) if profiles else pd.DataFrame(),
                      run.balance(), run.step, recorded)


def shear_strains(series: pd.DataFrame) -> pd.DataFrame:
    """The shear stage's rows with ``axial_strain``, ``lateral_strain``, ``volumetric_strain``
    from the start of the stage (the last row before it), compression positive."""
    start = series[series.stage != "shear"].iloc[-1]
    shear = series[series.stage == "shear"].copy()
    shear["axial_strain"] = 1.0 - shear.height / start.height
    shear["lateral_strain"] = 1.0 - shear.width / start.width
    shear["volumetric_strain"] = 1.0 - shear.volume / start.volume
    return shear


def headline(run: BiaxialRun) -> dict:
    """The numbers that compare runs (module docstring); stresses in Pa."""
    series, s = run.series, run.settings
    settling = series[series.stage == "settle"]
    settled = settling.iloc[-1]
    late_settling = settling[settling.time >= settled.time - SETTLED_WINDOW * s.settle - 1e-12]
    sinking = late_settling.centroid_height.iloc[[0, -1]]
    isotropic = series[series.stage == "isotropic"]
    window = isotropic[isotropic.time >= isotropic.time.iloc[-1]
                       - SERVO_WINDOW * s.isotropic - 1e-12]
    shear = shear_strains(series)
    late = shear[shear.time >= shear.time.iloc[-1] - RESIDUAL_FRACTION * s.shear - 1e-12]
    peak = shear.deviator.idxmax()
    balance = run.balance
    return {
        "peak_deviator": float(shear.deviator.max()),
        "axial_strain_at_peak": float(shear.axial_strain[peak]),
        "residual_deviator": float(late.deviator.mean()),
        "volumetric_strain": float(shear.volumetric_strain.iloc[-1]),
        "axial_strain": float(shear.axial_strain.iloc[-1]),
        "settled_kinetic_over_elastic": float(late_settling.kinetic.mean()
                                              / late_settling.elastic.mean())
        if late_settling.elastic.mean() > 0 else float("inf"),
        "settled_sinking_speed": float((sinking.iloc[0] - sinking.iloc[1])
                                       / (late_settling.time.iloc[-1]
                                          - late_settling.time.iloc[0])),
        "settled_bed_height": float(settled.bed_height),
        "settled_coordination": float(settled.coordination),
        "settled_solid_fraction": float(settled.solid_fraction),
        "isotropic_solid_fraction": float(isotropic.solid_fraction.iloc[-1]),
        "isotropic_coordination": float(isotropic.coordination.iloc[-1]),
        "isotropic_volume": float(isotropic.volume.iloc[-1]),
        "servo_error": float(max(abs(window[f"{side}_stress"].mean() / s.stress - 1.0)
                                 for side in ("axial", "lateral"))),
        "lateral_stress_error_in_shear": float(abs(shear.lateral_stress.mean() / s.stress
                                                   - 1.0)),
        "energy_work": float(balance["work"]),
        "energy_balance_error": float(abs(balance["residual"]) / balance["work"]),
        "steps": int(run.steps),
    }


def mean_profiles(profiles: pd.DataFrame) -> pd.DataFrame:
    """The velocity profiles of a run averaged over its shear stage: ``axis, position,
    velocity, affine, discs`` (:func:`hertz2d.dem.analysis.velocity_profiles`)."""
    return profiles.groupby(["axis", "position"], sort=False).agg(
        velocity=("velocity", "mean"), affine=("affine", "mean"),
        discs=("discs", "mean")).reset_index()


def settings_dict(settings: BiaxialSettings) -> dict:
    return asdict(settings)
