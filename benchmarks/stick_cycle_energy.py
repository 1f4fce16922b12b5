"""The FEM's energy per cycle on small stick cycles against the mesh level: the level at which
the held-out energy verdicts on stick cycles are taken.

``python benchmarks/stick_cycle_energy.py [--levels 1 2 3 4] [--save F.json]`` runs a few
``stick-cycle`` paths (:mod:`hertz2d.checks.loadpath`; the held-out spec's ``[paths]`` settings: steps per
amplitude, cycles, the approach's swing) on contacts from the centre to the corners of the
space (equal discs at a/R 0.05 and 0.2, a disc on a ten times stiffer disc, a disc on a rigid
wall at nu = 0, Dundurs' |beta| = 0.5), each at every ``--levels`` mesh level, in the map's own
task (:func:`hertz2d.calibration.validation.map.runs.run_group`, one BLAS thread). It prints per path
and level the FEM's energy per cycle (:func:`hertz2d.calibration.laws.energy_per_cycle`, the last
cycle, J/m per unit thickness), its change from the level before and its difference from the
finest level, and the wall seconds of the path (set-up included). A level is good enough for a
10 % verdict when every path's energy there is within a few per cent of the finest level's.
Every path runs from an empty case store (no FEM is reused); wall times depend on the machine's
load.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HERTZ2D_CACHE", tempfile.mkdtemp(prefix="hertz2d-stick-"))

import pandas as pd  # noqa: E402  (after the mesh cache is chosen)

from hertz2d.calibration.laws import energy_per_cycle  # noqa: E402
from hertz2d.calibration.runs.json_file import dumps  # noqa: E402
from hertz2d.calibration.validation.map.runs import run_group  # noqa: E402
from hertz2d.calibration.validation.map.spec import (DEFAULT_VARIANT, MapCase, MapRun,  # noqa: E402
                                             read)

#: (label, the case's axes) of the contacts; every one runs the stick cycles of :data:`LOADS`
CONTACTS = {
    "equal discs, a/R 0.05": dict(counterpart="disc", R2_over_R1=1.0, E2_over_E1=1.0, nu2=0.25,
                                  a_over_R=0.05),
    "equal discs, a/R 0.2": dict(counterpart="disc", R2_over_R1=1.0, E2_over_E1=1.0, nu2=0.25,
                                 a_over_R=0.2),
    "E2/E1 = 10, a/R 0.05": dict(counterpart="disc", R2_over_R1=1.0, E2_over_E1=10.0, nu2=0.25,
                                 a_over_R=0.05),
    "wall, nu 0, a/R 0.1": dict(counterpart="wall", R2_over_R1=None, E2_over_E1=None, nu2=None,
                                nu1=0.0, a_over_R=0.1),
}
#: stick-cycle amplitudes over the onset of full slip
LOADS = (0.1, 0.3)


def cases() -> list[tuple[str, MapCase]]:
    base = dict(R1=0.5, E1=10e9, nu1=0.25, mu=0.3, support="symmetric", path="stick-cycle")
    return [(label, MapCase(**{**base, **axes, "load": load}))
            for label, axes in CONTACTS.items() for load in LOADS]


def measure(levels: list[int]) -> pd.DataFrame:
    settings = read(shipped="heldout.toml").settings
    rows = []
    for label, case in cases():
        for level in levels:
            run = MapRun(case, DEFAULT_VARIANT, level, settings, ((case.path, case.load),))
            start = time.perf_counter()
            row = run_group((run.fem_path(),))[0]
            seconds = time.perf_counter() - start
            if row["failure"] is not None:
                raise SystemExit(f"{label}, load {case.load}, level {level}: {row['failure']}")
            table = pd.DataFrame(row["table"])
            rows.append({"contact": label, "load": case.load, "level": level,
                         "steps": len(table), "energy (J/m)": energy_per_cycle(table),
                         "seconds": seconds})
            print(f"  {label}, load {case.load:g}, level {level}: "
                  f"{rows[-1]['energy (J/m)']:.5g} J/m, {seconds:.1f} s", flush=True)
    table = pd.DataFrame(rows)
    by_path = table.groupby(["contact", "load"], sort=False)["energy (J/m)"]
    finest = by_path.transform("last")
    table["change from the level before (%)"] = 100 * by_path.pct_change()
    table["from the finest (%)"] = 100 * (table["energy (J/m)"] / finest - 1)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--save", default=None, help="write the table as JSON here")
    args = parser.parse_args()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    table = measure(sorted(args.levels))
    with pd.option_context("display.width", 160, "display.max_columns", 20):
        print(table.round(3).to_string(index=False))
    worst = table.groupby("level")["from the finest (%)"].apply(lambda s: s.abs().max())
    print("largest |difference from the finest level| per level (%):")
    print(worst.round(2).to_string())
    print(f"load average at the start: {load}")
    if args.save:
        Path(args.save).write_text(dumps({"load average": load,
                                          "rows": table.to_dict("records")}, indent=1))


if __name__ == "__main__":
    main()
