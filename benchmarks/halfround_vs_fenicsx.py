"""hertz2d against a FEniCSx (DOLFINx) peer on the clamped a/R x nu grid of Fig. 8, serial.

``python benchmarks/halfround_vs_fenicsx.py [--repeats 3] [--peer-script F] [--peer-python P]``

Prints one table, each time the median of ``--repeats`` runs, each run a fresh process:

- hertz2d: ``hertz2d sweep --jobs 1`` on a spec holding exactly the clamped grid of the shipped
  default spec (15 a/R x 11 nu = 165 cases at its mesh level) with an empty case store, first with
  an empty mesh cache (cold), then with the meshes cached (warm);
- the peer: its grid script (DOLFINx with MUMPS, serial; P2, the same geometry, loads and Eq. 20;
  its own mesh rule), with an empty form-compilation cache (cold) and then with it (warm).

``printed s`` is the time each program reports for its work (after its imports), ``wall s`` the
process's wall time, interpreter start and imports included.

Accuracy: RMS and max ``|w - w_ref|`` over the cases of ``--reference-a-over-R`` (all 11 nu
each; ``all`` for the whole grid), against a reference computed here with hertz2d at the two
levels above the spec's (3 and 4), extrapolated by Richardson with order 2
(``w_ref = w_4 + (w_4 - w_3) / 3``). The table's last lines check that order: the RMS change
from one level to the next must shrink about 4 times. The reference cases are kept in the case
store (``$HERTZ2D_CACHE``), so a rerun of an unchanged solver reuses them.

The peer is skipped, with a message, when its Python (``--peer-python``, ``$HERTZ2D_PEER_PYTHON``,
default ``/tmp/peer-venv/bin/python``) or its grid script (``--peer-script``,
``$HERTZ2D_PEER_SCRIPT``) is missing.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY))  # the reference and the timed runs use this checkout's code
#: where the peer's files usually sit: a ``shared`` folder beside the repository (used if present)
PEER_SCRIPT = REPOSITORY.parent / "shared" / "peers" / "peer_dolfinx_grid.py"
PEER_PYTHON = "/tmp/peer-venv/bin/python"
DEFAULT_SUBSET = "0.01,0.05,0.1,0.15"


def grid_spec(path: Path) -> tuple[list[float], list[float], int]:
    """Write the clamped-only grid spec of the shipped default spec to ``path``."""
    from hertz2d.calibration.runs import spec_file

    spec = spec_file.read_spec(None, "hertz2d.calibration.penalty.specs", "default.toml")
    base, grid = spec["base"], spec["grid"]
    path.write_text("[base]\n" + "".join(f"{k} = {base[k]!r}\n" for k in ("R", "a", "E", "nu", "T"))
                    + f"level = {base['level']}\nsupports = [\"clamped\"]\n\n[grid]\n"
                    + f"a_over_R = {grid['a_over_R']}\nnu = {grid['nu']}\n")
    return grid["a_over_R"], grid["nu"], base["level"]


def timed(command: list[str], env: dict | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout


def hertz2d_run(spec: Path, cache: Path, results: Path) -> tuple[float, float, pd.DataFrame]:
    """One ``hertz2d sweep --jobs 1`` process: (printed s, wall s, its grid table)."""
    (cache / "cases.sqlite").unlink(missing_ok=True)
    env = {**os.environ, "HERTZ2D_CACHE": str(cache), "PYTHONPATH": str(REPOSITORY)}
    wall, out = timed([sys.executable, "-m", "hertz2d.calibration", "sweep", "--spec", str(spec),
                       "--jobs", "1", "--results", str(results), "--json"], env)
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["failed"] == 0, summary["failures"]
    return summary["seconds"], wall, pd.read_csv(summary["out"]).rename(columns={"w_fem": "w"})


def peer_run(python: str, script: str, compile_cache: Path) -> tuple[float, float, pd.DataFrame]:
    """One peer process: (printed s, wall s, its rows)."""
    wall, out = timed([python, script, "--cache-dir", str(compile_cache)])
    line = next(line for line in out.splitlines() if line.startswith("JSON "))
    printed = json.loads(line.split("JSON ", 1)[1])
    return printed["seconds"], wall, pd.DataFrame(printed["rows"]).rename(columns={"ndofs": "dofs"})


def reference(spec: Path, subset: list[float], level: int) -> tuple[pd.Series, dict]:
    """Richardson-extrapolated w on ``subset`` x every nu from levels ``level + 1, level + 2``;
    and the RMS change of w between successive levels (``level`` to ``level + 2``)."""
    from hertz2d.calibration.penalty.spec import load_spec
    from hertz2d.calibration.penalty.sweep import run_sweep

    cases = [c for c in load_spec(spec) if any(np.isclose(c.a_over_R, subset))]
    w = {}
    for fine in (level, level + 1, level + 2):
        table = run_sweep([replace(c, level=fine) for c in cases])  # serial, this process
        assert (table.status == "ok").all(), table.error.unique()
        w[fine] = table.set_index([table.a_over_R.round(6), table.nu.round(6)]).w_fem
    coarse, middle, finest = (w[level + k] for k in range(3))
    changes = {f"{level}->{level + 1}": rms(coarse - middle),
               f"{level + 1}->{level + 2}": rms(middle - finest)}
    return finest + (finest - middle) / 3.0, changes


def rms(values) -> float:
    return float(np.sqrt(np.mean(np.square(values))))


def errors(rows: pd.DataFrame, w_ref: pd.Series) -> tuple[float, float]:
    w = rows.set_index([rows.a_over_R.round(6), rows.nu.round(6)]).w
    difference = (w.reindex(w_ref.index) - w_ref).to_numpy()
    assert np.isfinite(difference).all(), "a reference case is missing from the rows"
    return rms(difference), float(np.abs(difference).max())


def load() -> str:
    return os.getloadavg().__repr__()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--peer-python", default=os.environ.get("HERTZ2D_PEER_PYTHON",
                                                                PEER_PYTHON))
    parser.add_argument("--peer-script", default=os.environ.get("HERTZ2D_PEER_SCRIPT",
                                                                str(PEER_SCRIPT)))
    parser.add_argument("--reference-a-over-R", default=DEFAULT_SUBSET,
                        help=f"comma-separated a/R of the accuracy subset, or 'all' "
                             f"(default {DEFAULT_SUBSET})")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="hertz2d-vs-fenicsx-"))
    spec = work / "grid_clamped.toml"
    a_over_R, nus, level = grid_spec(spec)
    subset = a_over_R if args.reference_a_over_R == "all" else [
        float(x) for x in args.reference_a_over_R.split(",")]
    peer = Path(args.peer_python).is_file() and Path(args.peer_script).is_file()
    if not peer:
        missing = args.peer_script if Path(args.peer_python).is_file() else args.peer_python
        print(f"peer skipped: {missing} is missing (--peer-python / --peer-script)")

    print(f"reference: hertz2d levels {level + 1}, {level + 2} + Richardson on a/R {subset} x "
          f"{len(nus)} nu (cached in the case store after the first run) ...", flush=True)
    w_ref, changes = reference(spec, subset, level)

    runs: dict[str, list[tuple[float, float, pd.DataFrame]]] = {}
    print(f"timing, {args.repeats} repeats; load average before: {load()}", flush=True)
    for repeat in range(args.repeats):
        cache = work / f"cache-{repeat}"
        cache.mkdir()
        for name in ("hertz2d cold", "hertz2d warm"):
            runs.setdefault(name, []).append(hertz2d_run(spec, cache, work / "results"))
        if peer:
            compile_cache = work / f"ffcx-{repeat}"
            for name in ("FEniCSx cold", "FEniCSx warm"):
                runs.setdefault(name, []).append(
                    peer_run(args.peer_python, args.peer_script, compile_cache))
    print(f"load average after: {load()}\n")

    cases = len(a_over_R) * len(nus)
    print(f"Clamped a/R x nu grid, {cases} cases, serial; median of {args.repeats} runs; "
          f"accuracy on {len(w_ref)} cases (a/R {subset}) against the reference")
    print(f"{'solver, cache':<16} {'printed s':>10} {'wall s':>8} {'DOFs':>13} "
          f"{'RMS |dw|':>9} {'max |dw|':>9}")
    for name, measured in runs.items():
        printed = statistics.median(m[0] for m in measured)
        wall = statistics.median(m[1] for m in measured)
        rows = measured[-1][2]
        dofs = rows.groupby("a_over_R").dofs.first()
        assert len(rows) == cases
        rms_error, max_error = errors(rows, w_ref)
        print(f"{name:<16} {printed:>10.2f} {wall:>8.2f} {f'{dofs.min()}-{dofs.max()}':>13} "
              f"{rms_error:>9.1e} {max_error:>9.1e}")
    print("\nreference check (order 2 means each change is about 4 times the next): RMS change "
          "of w " + ", ".join(f"{k}: {v:.1e}" for k, v in changes.items()))
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
