"""Single impacts in LAMMPS with the plugin, measured as hertz2d's DEM measures them.

The geometry of :mod:`hertz2d.dem.impact`: one disc of radius R at (0, R) moves at ``speed``, ``angle``
degrees from the normal (velocity ``(v sin, -v cos)``), onto a wall y = 0 or an equal disc at rest
at (0, -R), without gravity, starting at first touch (or ``gap`` before it, the disc at (0, R +
gap): the contact then begins inside a step). LAMMPS runs ``steps`` steps in one ``run``
and dumps every step's positions and velocities (17 digits, :func:`impact_record`);
:func:`lammps_impact` then finds the step where the overlap closes and measures what
``hertz2d.dem.impact.impact`` does: the contact time (the crossing interpolated linearly between steps),
the normal restitution and the rebound angle of the relative velocity of the centres, the disc's
spin, and the relative change of the kinetic energy (the energy error of an undamped
frictionless impact).
"""
from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hertz2d.calibration.export.lammps.inputs import DiscSystem, disc_lines, write_data
from hertz2d.calibration.export.lammps.runtime import open_lammps

#: the record's columns: step, then per disc x, y, vx, vy, omega
COLUMNS = ("x", "y", "vx", "vy", "omega")


@dataclass(frozen=True)
class LammpsImpact:
    """What :func:`lammps_impact` measures (hertz2d.dem.impact.ImpactResult's quantities)."""

    contact_time: float
    restitution: float
    rebound_angle: float
    spin: float
    energy_error: float
    steps: int


def _record_lines(path: Path) -> list[str]:
    """Every step's positions and velocities (COLUMNS per disc, by atom ID) dumped to ``path``."""
    return [f"dump record all custom 1 {path} id x y vx vy omegaz",
            "dump_modify record sort id format float %.17g"]


def _read_record(path: Path, discs: int) -> np.ndarray:
    """The dump as rows ``step, (x, y, vx, vy, omega) per disc``."""
    lines = path.read_text().splitlines()
    rows, k = [], 0
    while k < len(lines):
        step = float(lines[k + 1])                       # ITEM: TIMESTEP, then the step
        atoms = [line.split()[1:] for line in lines[k + 9:k + 9 + discs]]
        rows.append([step] + [float(value) for atom in atoms for value in atom])
        k += 9 + discs                                   # 9 header lines per snapshot
    return np.array(rows)


def lammps_impact(plugin_folder, law_file: str, *, E: float, nu: float, mu: float,
                  speed: float, angle: float, wall: bool, radius: float, density: float,
                  dt: float, steps: int, ratio: float = 0.0, local: float = 0.0,
                  gap: float = 0.0) -> LammpsImpact:
    """One impact (module docstring) of ``steps`` steps at most."""
    record = impact_record(plugin_folder, law_file, E=E, nu=nu, mu=mu, speed=speed, angle=angle,
                           wall=wall, radius=radius, density=density, dt=dt, steps=steps,
                           ratio=ratio, local=local, gap=gap)
    return measure(record, wall, radius, density, speed, math.radians(angle), dt, gap)


def impact_record(plugin_folder, law_file: str, *, E: float, nu: float, mu: float,
                  speed: float, angle: float, wall: bool, radius: float, density: float,
                  dt: float, steps: int, ratio: float = 0.0, local: float = 0.0,
                  gap: float = 0.0) -> np.ndarray:
    """The trajectory of one impact (module docstring) over ``steps`` steps: row k after step
    k (row 0 the start), ``step`` then :data:`COLUMNS` per disc (the moving disc first)."""
    theta = math.radians(angle)
    velocity = [(speed * math.sin(theta), -speed * math.cos(theta), 0.0)]
    centres, radii = [(0.0, radius + gap)], [radius]
    if not wall:
        centres.append((0.0, -radius))
        radii.append(radius)
        velocity.append((0.0, 0.0, 0.0))
    system = DiscSystem(E=E, nu=nu, mu=mu, density=density, dt=dt, skin=0.5 * radius,
                        ratio=ratio, local=local, walls=(("ylo", 0.0),) if wall else ())
    with tempfile.TemporaryDirectory(prefix="hertz2d-impact-") as folder:
        folder = Path(folder)
        write_data(folder / "discs.data", centres, radii, density,
                   (-10 * radius, 10 * radius, -10 * radius, 10 * radius), velocity)
        lmp = open_lammps(plugin_folder)
        try:
            for line in (disc_lines(plugin_folder, law_file, system, folder / "discs.data",
                                    load_plugin=False)
                         + _record_lines(folder / "record.dump")):
                lmp.command(line)
            lmp.command(f"run {steps}")
        finally:
            lmp.close()
        return _read_record(folder / "record.dump", len(radii))


def measure(record: np.ndarray, wall: bool, radius: float, density: float, speed: float,
            theta: float, dt: float, gap: float = 0.0) -> LammpsImpact:
    """The impact's quantities from the per-step record (row k: after step k); the contact
    time from first touch, ``gap / (speed cos theta)`` after the start."""
    per_disc = record[:, 1:].reshape(len(record), -1, len(COLUMNS))
    if wall:
        overlap = radius - per_disc[:, 0, 1]
    else:
        overlap = 2.0 * radius - np.hypot(per_disc[:, 0, 0] - per_disc[:, 1, 0],
                                          per_disc[:, 0, 1] - per_disc[:, 1, 1])
    touched = np.maximum.accumulate(overlap > 0.0)  # from the first row in contact on
    step = int(np.argmax((overlap <= 0.0) & touched))
    if overlap[step] > 0.0 or step == 0:
        raise ArithmeticError("the disc did not leave the contact within the steps run")
    previous, current = overlap[step - 1], overlap[step]
    after = per_disc[step]
    relative = after[0, 2:4] - (0.0 if wall else after[1, 2:4])
    mass = density * math.pi * radius**2
    kinetic = 0.5 * mass * np.sum(after[:, 2] ** 2 + after[:, 3] ** 2
                                  + 0.5 * radius**2 * after[:, 4] ** 2)
    initial = 0.5 * mass * speed**2
    return LammpsImpact(
        contact_time=dt * (record[step, 0] - 1 + previous / (previous - current))
        - gap / (speed * math.cos(theta)),
        restitution=relative[1] / (speed * math.cos(theta)),
        rebound_angle=math.degrees(math.atan2(relative[0], relative[1])),
        spin=float(after[0, 4]), energy_error=abs(kinetic - initial) / initial,
        steps=int(record[step, 0]))
