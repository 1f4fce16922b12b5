"""How long the command line takes to answer without doing any work: ``hertz2d --help``, a
command's help, and rejected arguments (argparse's and a command's own first check).

``python benchmarks/cli.py [--runs 7] [--before REV]`` prints, per command line, the median wall
and CPU (user + system) seconds of the whole process over ``--runs`` runs, started as
``python -m hertz2d.calibration ARGS`` from an empty folder. With ``--before REV`` the same command lines
run, interleaved run by run, against the sources of that git revision (exported to a temporary
folder and put first on ``PYTHONPATH``), with the ratio of the medians. The table is also
written to ``benchmarks/results/cli.json`` with the date, the machine, the load average before
and after, and the command. Wall time on a shared machine depends on the load (printed beside
it); CPU time much less.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import record  # noqa: E402

#: what a user types that ends before any work, and why it is there
LINES = {
    "--help": "the commands",
    "model --help": "a command's help (its law list is built on demand)",
    "model --bogus": "an unknown flag (argparse)",
    "halfround --E stiff": "a value that is not a number (argparse)",
    "export-law --law": "a flag without its value (argparse)",
    "map --max-cpu-hours 0": "a bad value the command refuses (after its imports)",
}


def timed(args: list[str], sources: Path | None, folder: str) -> tuple[float, float]:
    """Wall and CPU seconds of one ``python -m hertz2d.calibration ARGS`` process."""
    env = dict(os.environ)
    if sources is not None:
        env["PYTHONPATH"] = str(sources) + os.pathsep + env.get("PYTHONPATH", "")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "hertz2d.calibration", *args], cwd=folder, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def export(revision: str, into: Path) -> Path:
    """The sources of ``revision`` in ``into`` (``git archive``)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "calibration",
                              "checks", "fem", "meshes", "dem"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--before", default=None, metavar="REV")
    options = parser.parse_args()
    if options.runs < 1:
        parser.error(f"--runs={options.runs!r} must be at least 1")
    started, rows = record.load_average(), []
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as old:
        before = export(options.before, Path(old)) if options.before else None
        print(f"python -m hertz2d.calibration ARGS, median of {options.runs} runs; load average "
              f"{started}")
        header = f"{'ARGS':<24} {'wall s':>7} {'CPU s':>6}"
        if before:
            header += f" {'before wall':>11} {'before CPU':>10} {'CPU ratio':>9}"
        print(header)
        for line, why in LINES.items():
            args = line.split()
            timed(args, None, folder)  # warm the file cache
            now, then = [], []
            for _ in range(options.runs):
                now.append(timed(args, None, folder))
                if before:
                    then.append(timed(args, before, folder))
            row = {"args": line, "why": why,
                   "wall": statistics.median(w for w, _ in now),
                   "cpu": statistics.median(c for _, c in now)}
            text = f"{line:<24} {row['wall']:>7.3f} {row['cpu']:>6.3f}"
            if before:
                row.update(before_wall=statistics.median(w for w, _ in then),
                           before_cpu=statistics.median(c for _, c in then))
                text += (f" {row['before_wall']:>11.3f} {row['before_cpu']:>10.3f} "
                         f"{row['cpu'] / row['before_cpu']:>9.2f}")
            rows.append(row)
            print(text, flush=True)
    print(f"load average after: {record.load_average()}")
    record.write("cli", rows, started, runs=options.runs, before=options.before)

if __name__ == "__main__":
    main()
