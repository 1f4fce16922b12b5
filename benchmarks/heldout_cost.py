"""The FEM cost of the held-out spec's samples: every default path of the named samples once.

``python benchmarks/heldout_cost.py [SAMPLE ...] [--spec F.toml]`` runs, in this process and
from an empty case store (a temporary one; the mesh cache is ``HERTZ2D_CACHE``'s), every default
FEM path of the named samples of the held-out spec (the shipped ``heldout.toml`` unless
``--spec``; all its samples when none is named), as the map runs them
(:func:`hertz2d.calibration.validation.map.runs.run_paths`: a contact's paths on bodies meshed once). It
prints per sample the paths, their mesh levels, the failures (each with its reason), the wall
seconds, the spec's own estimate (:func:`hertz2d.calibration.validation.map.spec.estimate`) and the FEM
seconds per path kind. A full run on N worker processes takes about 1/N of the wall time on a
quiet machine; the load average is printed with it.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections import Counter
from pathlib import Path

from hertz2d.calibration.runs.store import CaseStore
from hertz2d.calibration.validation.map.runs import run_paths, solver_namespace
from hertz2d.calibration.validation.map.spec import estimate, read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("samples", nargs="*", help="samples of the spec (all of them)")
    parser.add_argument("--spec", default=None, help="a held-out spec (heldout.toml)")
    args = parser.parse_args()
    spec = read(args.spec, shipped="heldout.toml")
    names = args.samples or list(spec.samples)
    unknown = sorted(set(names) - set(spec.samples))
    if unknown:
        raise SystemExit(f"samples={unknown!r} are not in the spec ({', '.join(spec.samples)})")
    print(f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="hertz2d-heldout-cost-") as folder:
        store = CaseStore(solver_namespace(), Path(folder) / "cases.sqlite")
        for name in names:
            sample = spec.samples[name]
            runs = [run for run in spec.default_runs if spec.case_studies[run.case][0] == name]
            paths = {run: run.fem_path() for run in runs}
            start = time.perf_counter()
            rows = run_paths(list(paths.values()), store=store, progress=False)
            wall = time.perf_counter() - start
            _, estimated = estimate({name: (sample.cases, list(sample.loads))}, spec.level,
                                    spec.settings, [],
                                    {name: sample.level} if sample.level else {})
            failed = [(run.case.path, rows[path]["failure"]) for run, path in paths.items()
                      if rows[path]["failure"] is not None]
            seconds = Counter()
            for run, path in paths.items():
                seconds[run.case.path] += rows[path]["seconds"]["total"]
            levels = sorted({run.level for run in runs})
            print(f"{name}: {len(runs)} paths at level {', '.join(map(str, levels))}, "
                  f"{len(failed)} failed, {wall:.0f} s wall (the spec estimates "
                  f"{estimated:.0f} CPU s); FEM s per kind: "
                  + ", ".join(f"{kind} {s:.1f}" for kind, s in seconds.items()), flush=True)
            for kind, reason in failed:
                print(f"  failed: {kind}: {reason}")
    print(f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
