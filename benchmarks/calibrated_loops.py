"""The calibrated law around many random closed loops: does any yield energy? (run:
``python benchmarks/calibrated_loops.py --loops 10000 --jobs 2``)

The map's admissibility table runs a few dozen loops per law; this runs the shipped calibrated
law (``calibration/data/calibrated/coefficients.json``) around as many as asked, drawn by
:func:`hertz2d.calibration.laws.admissibility.random_loops` with a seed of its own (equal, dissimilar and
wall contacts, |beta| to 0.5, a/R 0.02-0.2, mu 0.05-1, N swinging 0-40 % in and out of phase or
along random smooth closed curves, amplitudes 0.05-1.5 x the slip onset). Per loop the net work W
of the last of 3 repeats over ``mu N_max A`` at the map's steps, as a DEM code drives the law
(the turning line of centres) and closed in the law's own variables, (delta_n, delta_t) (the
closed path the law must not draw energy from; on a wall the two are one); the loops below
``-THRESHOLD``
are rerun at 4 and 16 times the steps and their W extrapolated to a vanishing step
(:class:`~hertz2d.calibration.laws.admissibility.LoopWork`). Every loop with W < 0 is then rerun
for what its W is made of: W over the last of :data:`SETTLED_REPEATS` repeats (a state that was
still drifting after 3 has settled, and returns nothing; also with the loop closed in the law's
own variables, without the turning line of centres), the least dissipation of any of its
steps (:func:`~hertz2d.calibration.laws.passivity.step_dissipation`, at the map's steps and at 4
times them: a value below zero that falls as the step's cube is the trapezoid rule's, not energy
the law created) and the tangential increment the turning line of centres adds over a repeat (a
DEM code's increments along a closed loop of the centres need not sum to zero). Each finished
chunk is appended to ``benchmarks/results/calibrated_loops.csv``, each row with the key of what
its W depends on (the coefficients, the memory's size, the seed, the steps: :func:`law_key`), so
a killed run resumes where it stopped; a file that does not parse, or whose rows were computed
for another key, is set aside and the run starts over. The summary, printed and written to
``calibrated_loops.json``, counts the loops by band of |beta| and names the key, and how many
loops are below the quadrature's bound after :data:`SETTLED_REPEATS` repeats though the
centres' frame adds no increment (:data:`UNEXPLAINED`: what the law's own drift would leave).
"""
from __future__ import annotations

import argparse
import hashlib
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
                                            THRESHOLD, Loop, extrapolated, loop_work,
                                            normalised_work, random_loops)
from hertz2d.calibration.laws.calibrated import (FORMAT_VERSION,  # noqa: E402
                                                 SHIPPED_COEFFICIENTS, CalibratedCoefficients,
                                                 CalibratedModel, run_contacts)
from hertz2d.calibration.laws.pair import ContactPair  # noqa: E402
from hertz2d.calibration.laws.calibrated_kernel import PIECES  # noqa: E402
from hertz2d.calibration.laws.passivity import own_frame, step_dissipation  # noqa: E402
from hertz2d.calibration.laws.rigid_kinematics import contact_frame  # noqa: E402
from benchmarks import record  # noqa: E402
from benchmarks.arguments import positive_int  # noqa: E402
from hertz2d.calibration.validation.map.errors import LawChoice  # noqa: E402
from hertz2d.calibration.validation.map.loops import STEPS, quiet, refined_works  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
TABLE = RESULTS / "calibrated_loops.csv"
#: the loops' seed: not the map's (22) nor the tests'
SEED = 2210
CHUNK = 50
#: repeats after which the loops with W < 0 are measured again
SETTLED_REPEATS = 30
#: the refinement of the steps at which their least step dissipation is measured again
FINER = 4
BANDS = (0.0, 1e-9, 0.1, 0.2, 0.3, 0.5 + 1e-9)
#: the summary's count of loops whose W after :data:`SETTLED_REPEATS` repeats is below the
#: quadrature's bound though the centres' frame adds no increment: the law's own drift
UNEXPLAINED = f"W < -quadrature bound after {SETTLED_REPEATS} repeats, no frame increment"


COLUMNS = ["loop", "W", "W own frame", "key"]


def law_key(coefficients: CalibratedCoefficients) -> str:
    """A digest of what a loop's W depends on besides the code: the law's coefficients and the
    format they are read in (:data:`~hertz2d.calibration.laws.calibrated.FORMAT_VERSION`, which
    changes with the law's rules), the size of its memory
    (:data:`~hertz2d.calibration.laws.calibrated_kernel.PIECES`), the loops' seed and their
    steps."""
    text = json.dumps({"coefficients": coefficients.as_dict(), "format": FORMAT_VERSION,
                       "pieces": PIECES, "seed": SEED, "steps": STEPS}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def chunk_works(coefficients: CalibratedCoefficients, indexed: list[tuple[int, Loop]]
                ) -> dict[int, tuple[float, float]]:
    """Worker task: ``{loop index: (W, W own frame)}`` of the law on the ``(index, loop)`` pairs:
    as a DEM code drives it (the turning line of centres) and closed in its own variables; the
    loops on discs and those on walls each run together
    (:func:`~hertz2d.calibration.laws.calibrated.run_contacts`: the tables are those of one loop
    at a time, bit for bit; the run is several times faster). A wall's two are one: its frame
    does not turn."""
    works = {}
    with quiet():
        for wall in (False, True):
            mine = [(i, loop) for i, loop in indexed if loop.pair.wall == wall]
            if mine:
                tables = run_contacts([loop.pair for _, loop in mine],
                                      [loop.path(STEPS) for _, loop in mine], coefficients)
                own = tables if wall else own_frame_tables(coefficients, [l for _, l in mine])
                works.update({i: (normalised_work(loop, table, STEPS),
                                  normalised_work(loop, closed, STEPS))
                              for (i, loop), table, closed in zip(mine, tables, own)})
    return works


def own_frame_tables(coefficients: CalibratedCoefficients, loops: list[Loop]
                     ) -> list[pd.DataFrame]:
    """The law's forces along each of ``loops`` (disc pairs) closed in its own variables, all
    moved together a step at a time (:func:`~hertz2d.calibration.laws.passivity.own_frame`):
    per loop a table of T as Fx and N as Fz."""
    paths = [loop.path(STEPS) for loop in loops]
    pair = ContactPair(*(np.array([float(getattr(loop.pair, name)) for loop in loops])
                         for name in ("R1", "R2", "E1", "E2", "nu1", "nu2", "mu")))
    overlap = np.stack([np.asarray(path.delta_n, float) for path in paths], axis=1)
    increment = np.stack([np.diff(np.asarray(path.delta_t, float), prepend=0.0)
                          for path in paths], axis=1)
    T, N, _ = own_frame(pair, overlap, increment, coefficients)
    return [pd.DataFrame({"Fx": T[:, j], "Fz": N[:, j], "N": N[:, j]})
            for j in range(len(loops))]


def centres_frame(loop: Loop, steps: int, repeats: int = REPEATS):
    """The frame a DEM code drives the law in along ``loop``'s path (the turning line of centres;
    on a wall, the wall's)."""
    path = loop.path(steps, repeats)
    return contact_frame(path.delta_n, path.delta_t, float(loop.pair.R1), float(loop.pair.R2),
                         loop.pair.wall)


def least_dissipation(coefficients: CalibratedCoefficients, loop: Loop, steps: int) -> float:
    """The least dissipation of a step of the law along ``loop``'s path of ``steps`` a repeat,
    as a DEM code drives it (the centres' frame), over ``mu N_max A`` (the pair's A)."""
    frame = centres_frame(loop, steps)
    dissipated, N_max = step_dissipation(loop.pair, frame.overlap, frame.increment, coefficients)
    return float(dissipated.min()) / (float(loop.pair.mu) * N_max
                                      * float(loop.pair.pair_displacement(loop.A)))


def frame_increment(loop: Loop) -> float:
    """The tangential increment the centres' frame sums to over one repeat of ``loop``, over
    A: zero where the line of centres turns back along the path it turned on (and on a wall)."""
    return float(centres_frame(loop, STEPS, 1).increment.sum()) / loop.A


def settled_in_own_frame(coefficients: CalibratedCoefficients, loop: Loop) -> float:
    """W (as :func:`normalised_work` measures it) after :data:`SETTLED_REPEATS` repeats of
    ``loop`` closed in the law's own variables: the overlap ``delta_n`` and the tangential
    increments of ``delta_t``, with no turning line of centres (on a wall, the DEM's frame)."""
    path = loop.path(STEPS, SETTLED_REPEATS)
    T, N, _ = own_frame(loop.pair, path.delta_n, np.diff(path.delta_t, prepend=0.0),
                        coefficients)
    return normalised_work(loop, pd.DataFrame({"Fx": T, "Fz": N, "N": N}), STEPS)


def what_w_is_made_of(coefficients: CalibratedCoefficients, index: int, loop: Loop) -> dict:
    """Worker task: for a loop with W < 0, W after :data:`SETTLED_REPEATS` repeats (as a DEM
    code drives the law, and closed in the law's own variables), the least step dissipation at
    :data:`STEPS` and at :data:`FINER` times them, and the frame's increment over a repeat."""
    with quiet():
        return {"loop": index,
                "W settled": loop_work(CalibratedModel(loop.pair, coefficients), loop, STEPS,
                                       SETTLED_REPEATS).W,
                "W settled, own frame": settled_in_own_frame(coefficients, loop),
                "least step": least_dissipation(coefficients, loop, STEPS),
                "least step finer": least_dissipation(coefficients, loop, FINER * STEPS),
                "frame increment": frame_increment(loop)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loops", type=positive_int, default=1000)
    parser.add_argument("--jobs", type=positive_int, default=2)
    args = parser.parse_args()
    started = record.load_average()
    law = LawChoice("calibrated", coefficients=CalibratedCoefficients.from_file(
        SHIPPED_COEFFICIENTS))
    key = law_key(law.coefficients)
    loops = random_loops(args.loops, SEED)
    RESULTS.mkdir(exist_ok=True)
    found = record.resumed(TABLE, COLUMNS, key, finite=("W", "W own frame"))
    todo = [i for i in range(args.loops) if i not in set(found.loop.astype(int))]
    if not TABLE.exists():
        TABLE.write_text(",".join(COLUMNS) + "\n")
    with ProcessPoolExecutor(args.jobs) as pool, tqdm(total=len(todo), unit="loop") as bar:
        chunks = [todo[i:i + CHUNK] for i in range(0, len(todo), CHUNK)]
        futures = [pool.submit(chunk_works, law.coefficients, [(i, loops[i]) for i in chunk])
                   for chunk in chunks]
        for future in as_completed(futures):
            works = future.result()
            with TABLE.open("a") as out:
                out.writelines(f"{i},{w!r},{own!r},{key}\n" for i, (w, own) in works.items())
            bar.update(len(works))
        table = pd.read_csv(TABLE, dtype={"key": str})
        table = table[table.loop < args.loops].drop_duplicates("loop")
        violations = table[table.W < -THRESHOLD]
        refined = {i: w for i, w in pool.map(refined_works, [law] * len(violations),
                                             violations.loop.astype(int),
                                             [loops[i] for i in violations.loop.astype(int)],
                                             [STEPS] * len(violations))}
        negative = table[table.W < 0].loop.astype(int).tolist()
        made_of = pd.DataFrame(list(tqdm(pool.map(
            what_w_is_made_of, [law.coefficients] * len(negative), negative,
            [loops[i] for i in negative]), total=len(negative), unit="loop", desc="W < 0")),
            columns=["loop", "W settled", "W settled, own frame", "least step",
                     "least step finer", "frame increment"])
    beta = np.array([loops[int(i)].beta for i in table.loop])
    table = table.assign(beta=beta, kind=[loops[int(i)].kind for i in table.loop])
    made_of = made_of.assign(beta=[loops[i].beta for i in made_of.loop])
    rows = []
    for low, high in zip(BANDS[:-1], BANDS[1:]):
        band = table[(table.beta >= low) & (table.beta < high)]
        settled = made_of[(made_of.beta >= low) & (made_of.beta < high)]
        rows.append({"|beta| from": low, "to": min(high, 0.5), "loops": len(band),
                     "W < 0": int((band.W < 0).sum()),
                     "smallest W": float(band.W.min()) if len(band) else float("nan"),
                     "W < 0, own frame": int((band["W own frame"] < 0).sum()),
                     "smallest W, own frame": (float(band["W own frame"].min()) if len(band)
                                               else float("nan")),
                     f"W < 0 after {SETTLED_REPEATS} repeats":
                         int((settled["W settled"] < 0).sum()),
                     "the same, own frame": int((settled["W settled, own frame"] < 0).sum()),
                     "least step dissipation": (float(settled["least step"].min())
                                                if len(settled) else float("nan"))})
    by_band = pd.DataFrame(rows)
    persisting = [i for i, works in refined.items() if extrapolated(works) < -QUADRATURE_BOUND]
    summary = {"loops": len(table), "key": key, "seed": SEED, "steps": STEPS,
               "threshold": THRESHOLD,
               "quadrature_bound": QUADRATURE_BOUND, "W < 0": int((table.W < 0).sum()),
               "W < -threshold": len(violations), "smallest W": float(table.W.min()),
               "W < 0, own frame": int((table["W own frame"] < 0).sum()),
               "W < -quadrature bound, own frame": int(
                   (table["W own frame"] < -QUADRATURE_BOUND).sum()),
               "smallest W, own frame": float(table["W own frame"].min()),
               "persisting": persisting, "settled_repeats": SETTLED_REPEATS,
               f"W < 0 after {SETTLED_REPEATS} repeats": int((made_of["W settled"] < 0).sum()),
               "smallest settled W": float(made_of["W settled"].min()),
               f"W < 0 after {SETTLED_REPEATS} repeats, own frame":
                   int((made_of["W settled, own frame"] < 0).sum()),
               "smallest settled W, own frame": float(made_of["W settled, own frame"].min()),
               "least step dissipation": float(made_of["least step"].min()),
               f"least step dissipation at {FINER}x the steps":
                   float(made_of["least step finer"].min()),
               "loops whose frame adds an increment": int(
                   (made_of["frame increment"].abs() > 1e-9).sum()),
               UNEXPLAINED: int(((made_of["W settled"] < -QUADRATURE_BOUND)
                                 & (made_of["frame increment"].abs() <= 1e-9)).sum()),
               "negative loops": made_of.drop(columns="beta").to_dict("records")}
    print(by_band.to_string(index=False))
    print(f"{len(table)} loops, W < 0 on {summary['W < 0']}, below -{THRESHOLD:g} on "
          f"{len(violations)}, persisting under refinement {len(persisting)}; smallest W "
          f"{summary['smallest W']:.3e} mu N_max A; closed in the law's own variables W < 0 on "
          f"{summary['W < 0, own frame']}, below -{QUADRATURE_BOUND:g} on "
          f"{summary['W < -quadrature bound, own frame']}, smallest "
          f"{summary['smallest W, own frame']:.3e}")
    print(f"of the {len(made_of)} loops with W < 0: W < 0 after {SETTLED_REPEATS} repeats on "
          f"{summary[f'W < 0 after {SETTLED_REPEATS} repeats']} (least "
          f"{summary['smallest settled W']:.3e}; closed in the law's own variables on "
          f"{summary[f'W < 0 after {SETTLED_REPEATS} repeats, own frame']}, least "
          f"{summary['smallest settled W, own frame']:.3e}); least step dissipation "
          f"{summary['least step dissipation']:.2e} mu N_max A at {STEPS} steps a repeat, "
          f"{summary[f'least step dissipation at {FINER}x the steps']:.2e} at {FINER * STEPS}; "
          f"the centres' frame adds an increment on "
          f"{summary['loops whose frame adds an increment']}; of the others, below "
          f"-{QUADRATURE_BOUND:g} after {SETTLED_REPEATS} repeats: {summary[UNEXPLAINED]}")
    record.write("calibrated_loops", rows, started, **summary)  # the bands are its rows
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
