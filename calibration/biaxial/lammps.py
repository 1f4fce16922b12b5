"""The paper's biaxial test (Section 4.3) run in LAMMPS with the hertz2d plugin.

The schedule of :mod:`hertz2d.dem.biaxial` on the same packing (``random_packing`` with the settings and
seed): the discs settle under gravity in the four walls of the box; the top wall is placed on the
packing and the right, top and left walls go on the stress servo; the top wall moves down at the
shear speed while the side walls stay on the servo. In LAMMPS the walls are one ``fix
wall/hertz2d`` (the mirror rule and PFC's servo, as ``dem/walls.py``) changed between the three
``run`` commands with ``fix_modify``; local damping is ``fix damping/hertz2d`` and dashpots are
the pair style's (hertz2d's damping). Every ``output_every`` s ``fix print`` writes the walls'
positions and stresses, from which :func:`lammps_biaxial` returns the rows :func:`headline`
needs (stage, time, deviator, width, height, volume), as ``hertz2d.dem.biaxial.measure`` defines them.
One rank, in this process (:func:`hertz2d.calibration.export.lammps.open_lammps`).
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from hertz2d.calibration.export.lammps import open_lammps
from hertz2d.calibration.export.lammps.inputs import DiscSystem, disc_lines, write_data
from hertz2d.dem.biaxial import RESIDUAL_FRACTION, STAGES, BiaxialSettings, shear_strains
from hertz2d.dem.damping import Damping
from hertz2d.dem.packing import random_packing
from hertz2d.dem.simulation import SKIN

#: fix wall/hertz2d's vector, per side (xlo, xhi, ylo, yhi): position is value 1, stress 5
SIDES = ("xlo", "xhi", "ylo", "yhi")
GRAVITY = 9.81


def _row_line(every: int, path: Path) -> str:
    values = " ".join(f"$(f_walls[{6 * s + 1}]:%.17g) $(f_walls[{6 * s + 5}]:%.17g)"
                      for s in range(len(SIDES)))
    return f'fix rows all print {every} "$(step) {values}" file {path} screen no'


def lammps_biaxial(plugin_folder, law_file: str, settings: BiaxialSettings, damping: Damping,
                   seed: int) -> pd.DataFrame:
    """The rows of one run (module docstring)."""
    s = settings.check()
    centres, radii = random_packing(s.discs, s.d_min, s.d_max, s.width, s.height, seed=seed)
    margin = s.width  # the walls hold the discs; the LAMMPS box only has to contain them
    system = DiscSystem(E=s.E, nu=s.nu, mu=s.mu, density=s.density, dt=s.dt,
                        skin=SKIN * radii.max(), ratio=damping.ratio, local=damping.local,
                        gravity=GRAVITY, walls=(("ylo", 0.0), ("xhi", s.width),
                                                ("yhi", s.height), ("xlo", 0.0)))
    with tempfile.TemporaryDirectory(prefix="hertz2d-biaxial-") as folder:
        folder = Path(folder)
        write_data(folder / "discs.data", centres, radii, s.density,
                   (-margin, s.width + margin, -margin, s.height + margin))
        lmp = open_lammps(plugin_folder)
        try:
            for line in disc_lines(plugin_folder, law_file, system, folder / "discs.data",
                                   load_plugin=False):
                lmp.command(line)
            lmp.command("thermo 0")
            lmp.command(_row_line(s.output_steps, folder / "rows.txt"))
            for stage in STAGES:
                _start_stage(lmp, stage, s)
                lmp.command(f"run {s.steps(getattr(s, stage))}")
        finally:
            lmp.close()
        rows = np.loadtxt(folder / "rows.txt", comments="#", ndmin=2)
    return _series(rows, s)


def _start_stage(lmp, stage: str, s: BiaxialSettings) -> None:
    """hertz2d.dem.biaxial.start_stage in LAMMPS commands."""
    if stage == "isotropic":
        n = lmp.extract_global("nlocal")
        top = float(np.max(lmp.numpy.extract_atom("x")[:n, 1]
                           + lmp.numpy.extract_atom("radius")[:n]))
        lmp.command(f"fix_modify walls position yhi {top!r}")
        for side in ("xhi", "yhi", "xlo"):
            lmp.command(f"fix_modify walls servo {side} {s.stress!r} {s.servo_gain!r} "
                        f"{s.servo_speed!r}")
    elif stage == "shear":
        lmp.command(f"fix_modify walls velocity yhi {-s.shear_speed!r}")


def _series(rows: np.ndarray, s: BiaxialSettings) -> pd.DataFrame:
    """The printed rows as hertz2d.dem.biaxial's columns."""
    table = pd.DataFrame(rows, columns=["step"] + [f"{side}_{q}" for side in SIDES
                                                   for q in ("position", "stress")])
    ends = np.cumsum([s.steps(getattr(s, stage)) for stage in STAGES])
    table["stage"] = [STAGES[int(np.searchsorted(ends, step))] for step in table.step]
    table["time"] = table.step * s.dt
    table["width"] = table.xhi_position - table.xlo_position
    table["height"] = table.yhi_position - table.ylo_position
    table["volume"] = table.width * table.height
    table["axial_stress"] = table.yhi_stress
    table["lateral_stress"] = 0.5 * (table.xhi_stress + table.xlo_stress)
    table["deviator"] = table.axial_stress - table.lateral_stress
    return table


def headline(series: pd.DataFrame, settings: BiaxialSettings) -> dict:
    """Peak and residual deviator (Pa) and the volumetric strain at the end, as
    ``hertz2d.dem.biaxial.headline`` computes them."""
    shear = shear_strains(series)
    late = shear[shear.time >= shear.time.iloc[-1] - RESIDUAL_FRACTION * settings.shear - 1e-12]
    return {"peak_deviator": float(shear.deviator.max()),
            "residual_deviator": float(late.deviator.mean()),
            "volumetric_strain": float(shear.volumetric_strain.iloc[-1])}
