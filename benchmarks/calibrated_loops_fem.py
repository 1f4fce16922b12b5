"""The two-body FEM around the closed loops on which the calibrated law does negative work (run
after ``benchmarks/calibrated_loops.py``: ``python benchmarks/calibrated_loops_fem.py --jobs 2``).

``calibrated_loops.py`` lists the loops whose W over the last of 3 repeats is below zero, and the
law's W on them after 30 repeats. This runs the FEM (:func:`hertz2d.fem.twodisc.solve_two_disc`,
its default mesh, the flats held as in the law's training: :data:`TRAINING_SUPPORT`) along
each of those loops' paths, with the same steps and repeats, and measures
its W the same way (:func:`hertz2d.calibration.laws.admissibility.normalised_work`: the least over
four starting points of the last repeat, over ``mu N_max A``). Where the FEM's W is positive from
every start while the law's is not, the law's state drifts over repeats where the bodies' does not:
a defect of the law's transient, not energy it creates (each of its steps dissipates). The FEM's
W within ``QUADRATURE_BOUND`` of zero, either way, is a loop that sticks throughout (elastic: no
work), rounding. Each FEM
result is appended to ``benchmarks/results/calibrated_loops_fem.csv`` with the key of the law's
run it answers, so a killed run resumes where it stopped; a file that does not parse, or answers
another run, is set aside. The table, printed and written to ``calibrated_loops_fem.json``, has
one row per loop.
"""
from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hertz2d.calibration.laws.admissibility import (QUADRATURE_BOUND, REPEATS,  # noqa: E402
                                                    Loop, normalised_work, random_loops)
from hertz2d.calibration.calibrate.stage import TRAINING_SUPPORT  # noqa: E402
from hertz2d.fem.twodisc import Disc, RigidFlat, solve_two_disc  # noqa: E402
from benchmarks import record  # noqa: E402
from benchmarks.arguments import positive_int  # noqa: E402
from hertz2d.calibration.validation.map.loops import STEPS, quiet  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
LAW_RUN = RESULTS / "calibrated_loops.json"
TABLE = RESULTS / "calibrated_loops_fem.csv"
COLUMNS = ["loop", "W_fem", "failure", "key"]


def fem_work(index: int, loop: Loop) -> tuple[int, float, str]:
    """Worker task: ``(index, W, failure)`` of the FEM along ``loop``'s path (W nan where the
    FEM stopped early, with its reason)."""
    pair = loop.pair
    upper = Disc(float(pair.R1), float(pair.E1), float(pair.nu1))
    lower = RigidFlat() if pair.wall else Disc(float(pair.R2), float(pair.E2), float(pair.nu2))
    with quiet():
        result = solve_two_disc(loop.path(STEPS, REPEATS), upper, lower, mu=float(pair.mu),
                                support=TRAINING_SUPPORT, progress=False)
    if result.failure:
        return index, float("nan"), str(result.failure)
    return index, normalised_work(loop, result.table, STEPS), ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=positive_int, default=2)
    args = parser.parse_args()
    if not LAW_RUN.exists():
        print(f"calibrated_loops_fem: {LAW_RUN.name} is missing: run "
              "benchmarks/calibrated_loops.py first", file=sys.stderr)
        return 2
    started = record.load_average()
    law_run = json.loads(LAW_RUN.read_text())
    negative = pd.DataFrame(law_run["negative loops"])
    law_W = pd.read_csv(RESULTS / "calibrated_loops.csv", dtype={"key": str})
    law_W = law_W[law_W.key == law_run["key"]].drop_duplicates("loop").set_index("loop").W
    loops = random_loops(int(negative.loop.max()) + 1, law_run["seed"])
    found = record.resumed(TABLE, COLUMNS, law_run["key"])
    todo = [int(i) for i in negative.loop if int(i) not in set(found.loop.astype(int))]
    if not TABLE.exists():
        TABLE.write_text(",".join(COLUMNS) + "\n")
    with ProcessPoolExecutor(args.jobs) as pool, tqdm(total=len(todo), unit="loop") as bar:
        futures = [pool.submit(fem_work, i, loops[i]) for i in todo]
        for future in as_completed(futures):
            index, work, failure = future.result()
            with TABLE.open("a") as out:
                out.write(f"{index},{work!r},{failure.replace(',', ';')},{law_run['key']}\n")
            bar.update()
    fem = record.resumed(TABLE, COLUMNS, law_run["key"]).drop_duplicates("loop").set_index("loop")
    rows = []
    for _, row in negative.iterrows():
        loop = loops[int(row.loop)]
        rows.append({"loop": int(row.loop), "kind": loop.kind, "|beta|": round(loop.beta, 3),
                     "a/R": round(loop.a_over_R, 3), "mu": round(float(loop.pair.mu), 3),
                     "law W": float(law_W[int(row.loop)]),
                     f"law W after {law_run['settled_repeats']} repeats": row["W settled"],
                     "FEM W": float(fem.W_fem[int(row.loop)]),
                     "FEM failure": fem.failure[int(row.loop)]})
    table = pd.DataFrame(rows).sort_values("law W")
    finished = table[np.isfinite(table["FEM W"])]
    summary = {"law_key": law_run["key"], "steps": STEPS, "repeats": REPEATS,
               "loops": len(table), "FEM finished": len(finished),
               "quadrature_bound": QUADRATURE_BOUND,
               "FEM W < -quadrature bound": int((finished["FEM W"] < -QUADRATURE_BOUND).sum()),
               "FEM |W| within the bound": int(
                   (finished["FEM W"].abs() <= QUADRATURE_BOUND).sum()),
               "smallest FEM W": float(finished["FEM W"].min()) if len(finished) else None}
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3e}"))
    print(f"{len(table)} loops on which the law's W < 0 after {REPEATS} repeats; the FEM "
          f"finished {len(finished)}, its W below -{QUADRATURE_BOUND:g} on "
          f"{summary['FEM W < -quadrature bound']} (smallest {summary['smallest FEM W']:.2e}), "
          f"within +-{QUADRATURE_BOUND:g} (a loop in stick) on "
          f"{summary['FEM |W| within the bound']}")
    record.write("calibrated_loops_fem", table.to_dict("records"), started, **summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
