"""The laws stepping one and the same packing (run: ``python benchmarks/dem_same_geometry.py``).

``benchmarks/dem.py`` times each law on the bed it settled itself and gives its cost per contact
update: a step's CPU time over that bed's touching contacts. A step also pays for what does not
grow with the touching contacts (the discs' integration, the walls, every candidate pair's
distance), so a bed that touches more contacts in a timing window shows a lower cost per update:
the settling beds' contacts move by a third between windows, and two laws' beds differ. Here every
law steps the same packing: the paper's 200 discs settled by Table 1 (Eq. 33's w) in 1e5 steps
(``dem.py``'s bed), whose positions and velocities each law takes up afresh (empty histories, the
paper's local damping) and steps ``--steps`` times, the laws interleaved over ``--rounds``
rounds. The table gives per law the microseconds per step (CPU time; fastest and median), its
touching contacts after the steps (they barely move: the packing rests), and the ratio of its
fastest and of its median to the linear spring's and to Table 1's.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import record  # noqa: E402
from benchmarks.arguments import positive_int  # noqa: E402
from benchmarks.dem import DENSITY, DT, HEIGHT, WIDTH, laws, system  # noqa: E402
from hertz2d.dem import PAPER_DAMPING, Discs, Simulation, Walls  # noqa: E402

TABLE_1, SPRING, CALIBRATED = "simplified, Eq. 33 w", "linear, paper's kn kt", "calibrated"
#: the steps that settle the packing (dem.py's fall and settling)
SETTLE = 100_000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=positive_int, default=10_000)
    parser.add_argument("--rounds", type=positive_int, default=7)
    args = parser.parse_args()
    started = record.load_average()
    chosen = {name: law for name, law in laws().items() if name in (TABLE_1, SPRING, CALIBRATED)}
    bed = system(chosen[TABLE_1], PAPER_DAMPING)
    bed.advance(SETTLE)
    centres, velocities = bed.discs.position[:, :2].copy(), bed.discs.velocity.copy()
    radii = bed.discs.radius.copy()
    times = {name: [] for name in chosen}
    touching = {}
    for _ in range(args.rounds):
        for name, law in chosen.items():
            run = Simulation(Discs.from_arrays(centres, radii, DENSITY, velocities), law, dt=DT,
                             walls=Walls.box(WIDTH, HEIGHT), damping=PAPER_DAMPING)
            run.advance(1)  # compiled (or loaded) and the lists built before the clock starts
            start = time.process_time()
            run.advance(args.steps)
            times[name].append(1e6 * (time.process_time() - start) / args.steps)
            row = run.observe()
            touching[name] = int(row["contacts"] + row["wall_contacts"])
    fastest = {name: min(values) for name, values in times.items()}
    median = {name: statistics.median(values) for name, values in times.items()}
    rows = [{"law": name, "us/step (fastest)": round(fastest[name], 3),
             "us/step (median)": round(median[name], 3), "touching contacts": touching[name],
             "/ spring (fastest)": round(fastest[name] / fastest[SPRING], 3),
             "/ spring (median)": round(median[name] / median[SPRING], 3),
             "/ Table 1 (fastest)": round(fastest[name] / fastest[TABLE_1], 3),
             "/ Table 1 (median)": round(median[name] / median[TABLE_1], 3)} for name in chosen]
    for row in rows:
        print("  ".join(f"{key} {value}" for key, value in row.items()))
    record.write("dem_same_geometry", rows, started, steps=args.steps, rounds=args.rounds,
                 settle=SETTLE)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
