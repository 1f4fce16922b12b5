"""Every law of the catalogue around random closed loops: the admissibility table of the map.

The same loops (:func:`hertz2d.calibration.laws.admissibility.random_loops`, seeded) for every law of the
catalogue, once each (the paper's 2D laws with Eq. 33's w, the calibrated law with the map's
coefficients, the linear spring with the paper's kn and kt). A law defined at a constant
approach only (``varying_approach`` False: Mindlin-Deresiewicz) runs the same loops with the
approach held; a law that runs no closed path (``admissible`` None: the accurate model and
Appendix C, monotonic loads) gets a row that says so. Per loop, the net work W of the last of 3
repeats over ``mu N_max A``; the loops with W below ``-THRESHOLD`` are violations, and the
:data:`REFINED` most negative of each law are rerun with 4 and 16 times the steps to tell the
quadrature's error from energy the law creates (:class:`~hertz2d.calibration.laws.admissibility.LoopWork`).
Besides, the constant-N stick check (:func:`~hertz2d.calibration.laws.admissibility.stick_return`) on an
equal pair, a dissimilar one (E2/E1 = 10) and a disc on a wall at nu = 0 (``|beta|`` 0, 0.27, 0.5),
the largest of the three.

Tables: ``loops.csv`` (one row per law x loop: the loop's parameters, W and the refined works),
``admissibility.csv`` (one row per law: its declaration, the loops, those with W < 0, the worst
W and its loop, how many of the refined violations persist (their W extrapolated to a
vanishing step below ``-QUADRATURE_BOUND``), the worst W at 16 times the steps and extrapolated,
the stick return).
"""
from __future__ import annotations

import logging
from contextlib import contextmanager
from dataclasses import replace

import numpy as np
import pandas as pd
from tqdm import tqdm

from hertz2d.calibration.laws import LAWS, ContactPair, make_law
from hertz2d.calibration.laws.admissibility import (QUADRATURE_BOUND, REFINEMENTS, REPEATS, STICK_MU,
                                            THRESHOLD, Loop, extrapolated, loop_work,
                                            random_loops, stick_return)
from hertz2d.calibration.runs.executors import Executor, Inline, completed
from hertz2d.calibration.validation.map.errors import PAPER_KN, PAPER_KT, LawChoice

#: loops per law and steps per repeat: the full run's and ``--quick``'s
LOOPS, QUICK_LOOPS = 27, 9
STEPS, QUICK_STEPS = 400, 100
#: the most negative violations of a law rerun with finer steps
REFINED, QUICK_REFINED = 3, 1
#: loops per task
CHUNK = 9
#: the loops' seed (the issue's number)
SEED = 22
#: the stick check's pairs: equal discs, a stiff counterpart, a disc on a wall (``|beta|`` to 0.5)
STICK_PAIRS = (ContactPair.discs(0.5, 10e9, 0.25, 0.3),
               ContactPair(0.5, 0.5, 10e9, 100e9, 0.25, 0.25, 0.3),
               ContactPair.disc_on_wall(0.5, 10e9, 0.0, 0.3))


def settings(quick: bool, loops: int | None = None) -> dict:
    """The loops' settings (the map's ``summary.json`` records them): ``loops`` of them, or the
    full run's or ``quick``'s count."""
    count = (QUICK_LOOPS if quick else LOOPS) if loops is None else loops
    return {"loops": count, "steps": QUICK_STEPS if quick else STEPS,
            "repeats": REPEATS, "threshold": THRESHOLD, "quadrature_bound": QUADRATURE_BOUND,
            "refinements": list(REFINEMENTS),
            "refined": QUICK_REFINED if quick else REFINED, "seed": SEED, "stick_mu": STICK_MU}


def build(choice: LawChoice, pair: ContactPair):
    return make_law(choice.name, pair, choice.penalty, kn=PAPER_KN, kt=PAPER_KT,
                    coefficients=choice.coefficients)


def held(choice: LawChoice, loop: Loop) -> Loop:
    """``loop`` as ``choice`` runs it: with the approach held for a constant-approach law."""
    return loop if LAWS[choice.name].varying_approach else replace(loop, swing=0.0)


@contextmanager
def quiet():
    """The loops leave the calibrated law's fitted ranges on purpose (the table says where):
    its once-per-run warning would be one line per loop; it is held back here."""
    logger = logging.getLogger("hertz2d")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def loop_works(choice: LawChoice, indexed: list[tuple[int, Loop]], steps: int
               ) -> dict[int, float]:
    """Worker task: ``{loop index: W}`` of ``choice`` on the ``(index, loop)`` pairs."""
    with quiet():
        return {i: loop_work(build(choice, loop.pair), held(choice, loop), steps).W
                for i, loop in indexed}


def refined_works(choice: LawChoice, index: int, loop: Loop, steps: int
                  ) -> tuple[int, tuple[float, ...]]:
    """Worker task: W of ``choice`` on ``loop`` at :data:`REFINEMENTS` times ``steps``."""
    with quiet():
        return index, loop_work(build(choice, loop.pair), held(choice, loop),
                                steps).refined().refined_W


def judged_laws(laws: list[LawChoice]) -> list[LawChoice]:
    """The first choice of every catalogue law among ``laws`` (the map's: Eq. 33's w)."""
    first = {}
    for law in laws:
        first.setdefault(law.name, law)
    return list(first.values())


def loop_table(laws: list[LawChoice], chosen: dict, executor: Executor = Inline(),
               progress: bool = True) -> pd.DataFrame:
    """One row per law x loop of the ``chosen`` :func:`settings`: the loop's parameters, W,
    and for the refined violations the works at 4 and 16 times the steps."""
    loops = random_loops(chosen["loops"], chosen["seed"])
    steps = chosen["steps"]
    running = [law for law in laws if LAWS[law.name].admissible is not None]
    indexed = list(enumerate(loops))
    tasks = [(law, indexed[i:i + CHUNK], steps) for law in running
             for i in range(0, len(loops), CHUNK)]
    works: dict[str, dict] = {law.label: {} for law in running}
    with tqdm(total=len(tasks), desc="map: closed loops", unit="task",
              disable=not progress) as bar:
        for (law, _, _), found in completed(loop_works, tasks, executor):
            works[law.label].update(found)
            bar.update(1)
    rows = [{"law": law.label, "law_name": law.name, "loop": i, **held(law, loop).row(),
             "steps": steps, "W": works[law.label][i]}
            for law in running for i, loop in enumerate(loops)]
    table = pd.DataFrame(rows)
    for r in REFINEMENTS:
        table[f"W_{r}x"] = np.nan
    worst = []
    for law in running:
        mine = table[(table.law == law.label) & (table.W < -THRESHOLD)]
        worst += [(law, int(i)) for i in mine.nsmallest(chosen["refined"], "W").loop]
    table["W_extrapolated"] = np.nan
    for (law, *_), (i, found) in completed(
            refined_works, [(law, i, loops[i], steps) for law, i in worst], executor):
        index = table.index[(table.law == law.label) & (table.loop == i)]
        for r, value in zip(REFINEMENTS, found):
            table.loc[index, f"W_{r}x"] = value
        table.loc[index, "W_extrapolated"] = extrapolated(found)
    return table


def _worst_loop(row: pd.Series) -> str:
    return (f"{row.kind}, |beta| {row.beta:.2f}, mu {row.mu:.2f}, a/R {row.a_over_R:.2f}, "
            f"{row['shape']} at swing {row.swing:.2f}, A {row.amplitude:.2f} x slip onset")


#: the table's counts (empty for a law that runs no closed path)
COUNTS = ("loops", "loops with W < 0", "refined", "persists under refinement")


def admissibility_table(laws: list[LawChoice], loops: pd.DataFrame) -> pd.DataFrame:
    """One row per law (module docstring)."""
    finest = f"W_{REFINEMENTS[-1]}x"
    rows = []
    for law in laws:
        declared = LAWS[law.name].admissible
        row = {"law": law.label, "law_name": law.name,
               "declared admissible": {True: "yes", False: "no", None: "no closed paths"}[
                   declared]}
        mine = loops[loops.law == law.label]
        if declared is None or mine.empty:
            rows.append(row)
            continue
        row["approach"] = "varying" if LAWS[law.name].varying_approach else "held"
        worst = mine.loc[mine.W.idxmin()]
        refined = mine.dropna(subset=[finest])
        persisting = refined[refined.W_extrapolated < -QUADRATURE_BOUND]
        row.update({
            "loops": len(mine), "loops with W < 0": int((mine.W < -THRESHOLD).sum()),
            "worst W": float(worst.W), "worst loop": _worst_loop(worst),
            "refined": len(refined),
            "persists under refinement": len(persisting),
            "worst W at 16x steps": float(refined[finest].min()) if len(refined) else np.nan,
            "worst W extrapolated": float(refined.W_extrapolated.min()) if len(refined)
            else np.nan})
        with quiet():
            row["stick return"] = max(stick_return(lambda pair: build(law, pair), pair)
                                      for pair in STICK_PAIRS)
        rows.append(row)
    table = pd.DataFrame(rows)
    for column in COUNTS:
        if column in table:
            table[column] = table[column].astype("Int64")
    return table
