"""The calibrated law's oblique impacts in the DEM with its memory as shipped and with room for
every piece (run: ``python benchmarks/calibrated_impact_memory.py``).

``benchmarks/dem_verification.py`` (its table 6) finds the calibrated law first order in dt where
an impact sticks. ``benchmarks/calibrated_memory_order.py`` traces that to the memory's merges on
one prescribed path. This script measures it in the DEM itself: the paper's disc (R 0.035 m, E 10
GPa, nu 0.25, mu 0.3, the shipped coefficients) against a rigid wall at 1 m/s and 5 to 60
degrees, dt from 2e-6 s halving to 6.25e-8 s, with the memory as shipped
(:data:`hertz2d.calibration.laws.calibrated_kernel.PIECES` pieces, merged beyond that), with two
and four times as many pieces under the same merges, and with room for :data:`UNMERGED` pieces,
more than the impact's steps at the finest dt lay, so that no step merges. The law is otherwise
the same. The memory's size is a constant of the kernel that the law catalogue and the DEM read
when they are imported (the width of a contact's history) and that numba compiles in, so a run
of another size is a copy of the package with that one constant changed, in a process of its
own with a numba cache of its own; the shipped run uses the package as it is, also in a process
with a fresh cache.

The table gives per memory and angle the rebound angle at the finest dt, its change as dt halves,
the observed order (the least-squares slope of log |change| on log dt), and for the merged
memories how far the finest rebound angle is from the unmerged memory's. The rows are also
written to ``benchmarks/results/calibrated_impact_memory.json``.
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
#: the memories run: as shipped, two and four times its size under the same merges, unmerged
MEMORIES = (kernel.PIECES, 2 * kernel.PIECES, 4 * kernel.PIECES, UNMERGED)


def rebound_angles() -> dict[float, list[float]]:
    """In this process: the rebound angle (degrees) per angle and dt."""
    from hertz2d.calibration.laws.calibrated import SHIPPED_COEFFICIENTS, CalibratedCoefficients
    from hertz2d.dem import Law
    from hertz2d.dem.impact import impact
    law = Law.calibrated(10e9, 0.25, 0.3, CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS))
    return {angle: [impact(law, speed=1.0, angle=angle, dt=dt).rebound_angle for dt in STEPS]
            for angle in ANGLES}


def _copy_with(pieces: int, into: Path) -> Path:
    """A copy of the package under ``into`` whose kernel keeps ``pieces`` pieces; its root."""
    package = into / "hertz2d"
    shutil.copytree(ROOT, package, ignore=shutil.ignore_patterns(
        ".git", ".venv", "results*", "docs", "meshes", "notebooks", "__pycache__", "*.egg-info"))
    source = package / "calibration" / "laws" / "calibrated_kernel.py"
    shipped = f"\nPIECES = {kernel.PIECES}\n"
    text = source.read_text()
    if text.count(shipped) != 1:
        raise SystemExit("benchmarks/calibrated_impact_memory.py: the kernel's PIECES line is not "
                         f"{shipped.strip()!r}; update _copy_with()")
    source.write_text(text.replace(shipped, f"\nPIECES = {pieces}\n"))
    return package


def in_own_process(pieces: int) -> dict[float, list[float]]:
    """:func:`rebound_angles` with a memory of ``pieces`` pieces, in a child process with a numba
    cache of its own (a copy of the package where ``pieces`` is not the shipped size)."""
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        env = {**os.environ, "NUMBA_CACHE_DIR": str(scratch / "numba")}
        root = ROOT
        if pieces != kernel.PIECES:
            root = _copy_with(pieces, scratch)
            env["PYTHONPATH"] = str(scratch)  # ahead of the installed package
        done = subprocess.run(
            [sys.executable, str(root / "benchmarks" / Path(__file__).name), "--pieces",
             str(pieces)], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"benchmarks/calibrated_impact_memory.py: the run with {pieces} pieces "
                         f"failed (exit {done.returncode}): {done.stderr.strip()[-2000:]}")
    return {float(angle): values
            for angle, values in json.loads(done.stdout.strip().splitlines()[-1]).items()}


def order(changes: np.ndarray) -> float:
    """The slope of log |change| on log dt."""
    return float(np.polyfit(np.log(STEPS[1:]), np.log(np.abs(changes)), 1)[0])


def main() -> None:
    started = record.load_average()
    found = {}
    for pieces in MEMORIES:  # about a minute each, most of it numba compiling the DEM
        clock = time.perf_counter()
        found[pieces] = in_own_process(pieces)
        print(f"{pieces} pieces: {time.perf_counter() - clock:.0f} s", file=sys.stderr,
              flush=True)
    print("The calibrated law's oblique impact on a wall, 1 m/s: the rebound angle (degrees) at "
          f"dt {STEPS[-1]:.3g} s, its change as dt halves from {STEPS[0]:g} s, the observed "
          "order, and a merged memory's angle less the unmerged memory's")
    print(f"{'memory':>12} {'angle':>5} {'rebound':>10} "
          + " ".join(f"{dt:>8.2e}" for dt in STEPS[1:]) + f" {'order':>6} {'off':>9}")
    rows = []
    for pieces, angles in found.items():
        for angle, values in angles.items():
            changes = np.diff(values)
            off = values[-1] - found[UNMERGED][angle][-1]
            label = f"{pieces} pieces"
            print(f"{label:>12} {angle:>5.0f} {values[-1]:>10.6f} "
                  + " ".join(f"{c:>+8.1e}" for c in changes) + f" {order(changes):>6.2f}"
                  + (f" {off:>+9.1e}" if pieces != UNMERGED else ""))
            rows.append({"memory": label, "angle": angle,
                         f"rebound angle at dt = {STEPS[-1]:.3g}": values[-1],
                         **{f"change to dt = {dt:.3g}": float(c)
                            for dt, c in zip(STEPS[1:], changes)},
                         "order": round(order(changes), 2),
                         f"off {UNMERGED} pieces": float(off) if pieces != UNMERGED else None})
    record.write("calibrated_impact_memory", rows, started, steps=STEPS, unmerged=UNMERGED)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--pieces"]:  # a child of in_own_process()
        if kernel.PIECES != int(sys.argv[2]):
            raise SystemExit(f"the kernel at {kernel.__file__} keeps {kernel.PIECES} pieces, not "
                             f"{sys.argv[2]}")
        print(json.dumps(rebound_angles()))
    else:
        main()
