"""The calibrated law's oblique impacts in the DEM with its memory as shipped, without its folds,
and with room for every piece (run: ``python benchmarks/calibrated_impact_memory.py``).

The paper's disc (R 0.035 m, E 10 GPa, nu 0.25, mu 0.3, the shipped coefficients) against a
rigid wall at 1 m/s and 5 to 60 degrees, dt from 2e-6 s halving to 6.25e-8 s, with three
memories under one law:

- as shipped: :data:`hertz2d.calibration.laws.calibrated_kernel.PIECES` pieces, the pieces of one
  cell of a fixed grid in b^2 folded into one
  (:func:`hertz2d.calibration.laws.calibrated_kernel.fold_cells`), reduced beyond that size;
- the same size without the folds (reduced only when full): a growing contact lays one piece a
  step, so the memory fills within the impact's first steps and every later step reduces it;
- no folds and room for :data:`UNMERGED` pieces, more than the impact's steps at the finest dt
  lay, so that nothing folds or merges: the memory the other two approximate.

The memory's size and its folds are constants of the kernel that the law catalogue and the DEM
read when they are imported (the width of a contact's history) and that numba compiles in, so a
run of another memory is a copy of the package with those constants changed, in a process of its
own with a numba cache of its own; the shipped run uses the package as it is, also in a process
with a fresh cache.

The table gives per memory and angle the rebound angle at the finest dt, its change as dt halves,
the observed order (the least-squares slope of log |change| on log dt, over every halving and
over those to dt 1.25e-7 s), and for the first two memories how far the finest rebound angle is
from the third's. The rows are also written to
``benchmarks/results/calibrated_impact_memory.json``.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from benchmarks import record  # noqa: E402
from hertz2d.calibration.laws import calibrated_kernel as kernel  # noqa: E402

ANGLES = (5.0, 10.0, 20.0, 30.0, 45.0, 60.0)
STEPS = [2e-6 * 2.0**-k for k in range(6)]
#: room for more pieces than the finest dt's impact lays (about 1400 while the contact grows)
UNMERGED = 4096
#: the memories run, (pieces, folds): as shipped, without its folds, unfolded and unmerged
MEMORIES = ((kernel.PIECES, True), (kernel.PIECES, False), (UNMERGED, False))
#: the finest dt of the issue's order target, for the second observed order
TARGET_FINEST = 1.25e-7


def rebound_angles() -> dict[float, list[float]]:
    """In this process: the rebound angle (degrees) per angle and dt."""
    from hertz2d.calibration.laws.calibrated import SHIPPED_COEFFICIENTS, CalibratedCoefficients
    from hertz2d.dem import Law
    from hertz2d.dem.impact import impact
    law = Law.calibrated(10e9, 0.25, 0.3, CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS))
    return {angle: [impact(law, speed=1.0, angle=angle, dt=dt).rebound_angle for dt in STEPS]
            for angle in ANGLES}


def _copy_with(pieces: int, folds: bool, into: Path) -> Path:
    """A copy of the package under ``into`` whose kernel keeps ``pieces`` pieces, folded or not;
    its root."""
    package = into / "hertz2d"
    shutil.copytree(ROOT, package, ignore=shutil.ignore_patterns(
        ".git", ".venv", "results*", "docs", "meshes", "notebooks", "__pycache__", "*.egg-info"))
    source = package / "calibration" / "laws" / "calibrated_kernel.py"
    text = source.read_text()
    for name, shipped, wanted in (("PIECES", kernel.PIECES, pieces), ("FOLD", kernel.FOLD, folds)):
        line = f"\n{name} = {shipped}\n"
        if text.count(line) != 1:
            raise SystemExit("benchmarks/calibrated_impact_memory.py: the kernel's line "
                             f"{line.strip()!r} is not there once; update _copy_with()")
        text = text.replace(line, f"\n{name} = {wanted}\n")
    source.write_text(text)
    return package


def label(pieces: int, folds: bool) -> str:
    """A memory's name in the table."""
    return f"{pieces} pieces" + ("" if folds else ", no folds")


def in_own_process(pieces: int, folds: bool) -> dict[float, list[float]]:
    """:func:`rebound_angles` with a memory of ``pieces`` pieces, folded or not, in a child
    process with a numba cache of its own (a copy of the package where the memory is not the
    shipped one)."""
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        env = {**os.environ, "NUMBA_CACHE_DIR": str(scratch / "numba")}
        root = ROOT
        if (pieces, folds) != (kernel.PIECES, kernel.FOLD):
            root = _copy_with(pieces, folds, scratch)
            env["PYTHONPATH"] = str(scratch)  # ahead of the installed package
        done = subprocess.run(
            [sys.executable, str(root / "benchmarks" / Path(__file__).name), "--memory",
             str(pieces), str(int(folds))], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"benchmarks/calibrated_impact_memory.py: the run with "
                         f"{label(pieces, folds)} failed (exit {done.returncode}): "
                         f"{done.stderr.strip()[-2000:]}")
    return {float(angle): values
            for angle, values in json.loads(done.stdout.strip().splitlines()[-1]).items()}


def order(changes: np.ndarray, steps=STEPS) -> float:
    """The slope of log |change| on log dt (the finer dt of each change)."""
    return float(np.polyfit(np.log(steps[1:len(changes) + 1]), np.log(np.abs(changes)), 1)[0])


def main() -> None:
    started = record.load_average()
    found = {}
    for memory in MEMORIES:  # about a minute each, most of it numba compiling the DEM
        clock = time.perf_counter()
        found[memory] = in_own_process(*memory)
        print(f"{label(*memory)}: {time.perf_counter() - clock:.0f} s", file=sys.stderr,
              flush=True)
    reference = found[MEMORIES[-1]]
    to_target = STEPS.index(TARGET_FINEST)
    print("The calibrated law's oblique impact on a wall, 1 m/s: the rebound angle (degrees) at "
          f"dt {STEPS[-1]:.3g} s, its change as dt halves from {STEPS[0]:g} s, the observed "
          f"order (over every halving; to dt {TARGET_FINEST:g} s), and the angle less the "
          f"memory's with room for {UNMERGED} pieces")
    print(f"{'memory':>22} {'angle':>5} {'rebound':>10} "
          + " ".join(f"{dt:>8.2e}" for dt in STEPS[1:]) + f" {'order':>6} {'to tgt':>6}"
          + f" {'off':>9}")
    rows = []
    for memory, angles in found.items():
        for angle, values in angles.items():
            changes = np.diff(values)
            off = values[-1] - reference[angle][-1]
            overall, targeted = order(changes), order(changes[:to_target])
            print(f"{label(*memory):>22} {angle:>5.0f} {values[-1]:>10.6f} "
                  + " ".join(f"{c:>+8.1e}" for c in changes) + f" {overall:>6.2f}"
                  + f" {targeted:>6.2f}"
                  + (f" {off:>+9.1e}" if memory != MEMORIES[-1] else ""))
            rows.append({"memory": label(*memory), "angle": angle,
                         f"rebound angle at dt = {STEPS[-1]:.3g}": values[-1],
                         **{f"change to dt = {dt:.3g}": float(c)
                            for dt, c in zip(STEPS[1:], changes)},
                         "order": round(overall, 2),
                         f"order to dt = {TARGET_FINEST:g}": round(targeted, 2),
                         f"off {UNMERGED} pieces": float(off) if memory != MEMORIES[-1]
                         else None})
    record.write("calibrated_impact_memory", rows, started, steps=STEPS, unmerged=UNMERGED)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--memory"]:  # a child of in_own_process()
        if (kernel.PIECES, kernel.FOLD) != (int(sys.argv[2]), bool(int(sys.argv[3]))):
            raise SystemExit(f"the kernel at {kernel.__file__} keeps {kernel.PIECES} pieces, "
                             f"folded {kernel.FOLD}, not {sys.argv[2:4]}")
        print(json.dumps(rebound_angles()))
    else:
        main()
