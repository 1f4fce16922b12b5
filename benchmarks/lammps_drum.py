"""A rotating drum in LAMMPS with the plugin: its dynamic angle of repose per law, on 1 MPI rank
and on 2, over several seeds, beside LAMMPS's built-in Hertz style at matched stiffness (run:
``python benchmarks/lammps_drum.py [--seeds 5] [--discs 500] [--duration 3.0] [--settle 1.0]``;
writes ``benchmarks/results/lammps_drum.json`` after every run and resumes from it: a rerun
with the same scene runs only what is missing).

Needs the ``lammps`` extra and a C++ compiler. Both laws' plugins are exported into a temporary
folder. The scene is docs/lammps/examples/in.drum's at a size of its own: ``--discs`` discs of
diameters 5-8 mm (E 1e8 Pa, nu 0.3, mu 0.4, dashpot ratio 0.3, 2500 kg/m^3) dropped into a drum of
radius 0.2 m (a region's circle, fix wall/hertz2d/region) turning at 2 rad/s, dt 5e-6 s, for
``--duration`` s. The angle of repose is the bed's free surface's slope: the bed is a circular
segment, whose centre of mass lies on the perpendicular to its chord through the drum's centre,
so the angle of the centre of mass from the vertical is the surface's angle. At 2 rad/s in a drum
of 0.2 m (Froude number 0.08) the bed slumps: in a 3 s run of seed 1 it turned with the drum to
31 deg, avalanched back to 12 and went on oscillating by +-5 deg with a period of about 1 s
around its dynamic angle. So the angle is the mean over the run after ``--settle`` s (default
1 s, after the first avalanche), and the means over that window's two halves (``first half``,
``second half`` of the JSON's rows) show whether it has settled; each run's smallest and
largest angle in the window are kept.

Each seed runs, in this order: the simplified law on 1 rank and on 2, the calibrated law on 1 and
on 2, and the built-in ``pair_style gran/hertz/history`` with ``fix wall/gran/region
hertz/history`` on 1 rank (same scene, friction, dt). The built-in style is matched to the
simplified law on the bed the first seed's simplified 1-rank run ends with
(:func:`hertz_match.matched_hertz`: kn and kt the medians over the bed's touching pairs of the 2D
law's N / (sqrt(R* delta) delta) and kt / sqrt(R* delta), so each contact carries its load at
about the same overlap; the drum's wall 2 kn, 2 kt, the mirror rule; dashpots with the same
damping ratio at the mean-radius pair and the median overlap).
Per law (or style) and number of ranks: each seed's angle, their mean and standard deviation;
the means of 1 and 2 ranks should agree within that scatter (2 ranks sum some contact forces in
another order, so each run is another realisation of the flow), and the laws' within theirs.
Each run's wall time and the load average when it started are kept with it.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the project before this folder, whose dem.py shadows dem

from hertz2d.calibration.cli import main as hertz2d  # noqa: E402
from hertz2d.calibration.export.lammps.runtime import lmp_command, mpiexec  # noqa: E402
from hertz_match import matched_hertz  # noqa: E402

from benchmarks import record  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "lammps_drum.json"
DT, SPIN, DRUM = 5e-6, 2.0, 0.2
E, NU, MU, RATIO, DENSITY = 1e8, 0.3, 0.4, 0.3, 2500.0
#: thermo output every this many steps
EVERY = 2000
LAWS = ("simplified", "calibrated")
BUILT_IN = "gran/hertz/history"
#: one seed's runs in the order they run: (law or built-in style, ranks)
RUNS = (("simplified", 1), ("simplified", 2), ("calibrated", 1), ("calibrated", 2),
        (BUILT_IN, 1))
#: the run whose final bed the built-in style is matched on (with the first seed)
MATCH_RUN = ("simplified", 1)


def plugin_lines(plugin: Path) -> tuple[list[str], str]:
    """The plugin's pair style and its drum wall."""
    return ([f"pair_style hertz2d {plugin / 'law.json'} damping {RATIO!r}",
             f"pair_coeff * * {E!r} {NU!r} {MU!r}"],
            f"fix drum all wall/hertz2d/region {MU!r} drum")


def built_in_lines(hertz: dict) -> tuple[list[str], str]:
    """gran/hertz/history and its region wall with the matched constants."""
    def law(prefix: str) -> str:
        return " ".join(f"{hertz[prefix + key]!r}" for key in ("kn", "kt", "gamma_n", "gamma_t"))
    return ([f"pair_style gran/hertz/history {law('')} {MU!r} 1", "pair_coeff * *"],
            f"fix drum all wall/gran/region hertz/history {law('wall_')} {MU!r} 1 region drum")


def drum_input(contact: tuple[list[str], str], discs: int, seed: int, steps: int, plugin: Path | None,
               end_dump: bool) -> str:
    """The drum's LAMMPS input with the contact lines of :func:`plugin_lines` or
    :func:`built_in_lines`; ``end_dump`` writes the final bed (id x y radius) to ``end.dump``."""
    return "\n".join([
        *([f"plugin load {plugin / 'hertz2dplugin.so'}"] if plugin else []),
        "units si", "dimension 2",
        "atom_style sphere", "atom_modify map array", "boundary f f p", "comm_modify vel yes",
        f"region box block -{DRUM + 0.01} {DRUM + 0.01} -{DRUM + 0.01} {DRUM + 0.01} -0.5 0.5",
        "create_box 1 box", "region feed block -0.135 0.135 -0.135 0.135 -0.5 0.5",
        f"create_atoms 1 random {discs} {seed} feed overlap 0.0085 maxtry 1000",
        f"variable diameter atom 0.005+0.003*random(0,1,{seed + 1})",
        "set group all diameter v_diameter", f"set group all density/disc {DENSITY!r}",
        *contact[0],
        "fix integrate all nve/sphere disc", "fix gravity all gravity 9.81 vector 0 -1 0",
        f"variable theta equal {SPIN}*time",
        f"region drum cylinder z 0 0 {DRUM} INF INF side in rotate v_theta 0 0 0 0 0 1",
        contact[1], "fix plane all enforce2d",
        f"timestep {DT}", "neighbor 0.002 bin", "neigh_modify delay 0 every 1 check yes",
        "variable tilt equal atan2(xcm(all,x),-xcm(all,y))*180/PI",
        "thermo_style custom step atoms v_tilt", "thermo_modify format float %.10g",
        f"thermo {EVERY}", f"run {steps}",
        *(["write_dump all custom end.dump id x y radius modify sort id"] if end_dump else []),
        ""])


def run(contact: tuple[list[str], str], plugin: Path | None, folder: Path, discs: int, seed: int,
        steps: int, settle: int, ranks: int, end_dump: bool = False) -> dict:
    """One run: its angle of repose (degrees, module docstring) over the steps from ``settle`` on,
    over that window's halves, the window's smallest and largest angle, its wall time (s) and the
    load average when it started."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "in.drum").write_text(drum_input(contact, discs, seed, steps, plugin, end_dump))
    command = [lmp_command(), "-nocite", "-log", "none", "-in", "in.drum"]
    if ranks > 1:
        command = [mpiexec(), "-n", str(ranks), *command]
    load = os.getloadavg()[0]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode:
        raise RuntimeError(f"lmp failed: {(done.stdout + done.stderr)[-2000:]}")
    rows = [line.split() for line in done.stdout.splitlines()]
    rows = [(int(r[0]), int(r[1]), float(r[2])) for r in rows
            if len(r) == 3 and r[0].isdigit() and r[1].isdigit()]
    if any(atoms != discs for _, atoms, _ in rows):
        raise RuntimeError(f"seed {seed}: not all {discs} discs were placed or kept")
    middle = (settle + steps) // 2
    first = [tilt for step, _, tilt in rows if settle <= step < middle]
    second = [tilt for step, _, tilt in rows if step >= middle]
    return {"angle": statistics.fmean(first + second),
            "halves": [statistics.fmean(first), statistics.fmean(second)],
            "range": [min(first + second), max(first + second)], "seconds": seconds,
            "load": load}


def final_bed(folder: Path) -> tuple[np.ndarray, np.ndarray]:
    """The centres and radii ``end.dump`` holds."""
    lines = (folder / "end.dump").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("ITEM: ATOMS")) + 1
    table = np.array([[float(v) for v in line.split()] for line in lines[start:]])
    return table[:, 1:3], table[:, 3]


def bed_hertz(folder: Path) -> dict:
    """The built-in style's constants matched on the final bed of a run in ``folder``."""
    centres, radii = final_bed(folder)
    wall = radii - (DRUM - np.hypot(*centres.T))
    return matched_hertz(centres, radii, wall[wall > 0], E=E, nu=NU, mu=MU, density=DENSITY,
                         ratio=RATIO)


def summary(runs: list[dict]) -> list[dict]:
    """Per law (or style) and ranks: the seeds' angles, their mean and standard deviation, the
    mean of each half of the window and the wall times."""
    rows = []
    for law, ranks in RUNS:
        mine = sorted((r for r in runs if r["law"] == law and r["ranks"] == ranks),
                      key=lambda r: r["seed"])
        if not mine:
            continue
        angles = [r["angle"] for r in mine]
        halves = [statistics.fmean(r["halves"][k] for r in mine) for k in range(2)]
        rows.append({"law": law, "ranks": ranks, "seeds": [r["seed"] for r in mine],
                     "angles": angles, "mean": statistics.fmean(angles),
                     "stdev": statistics.stdev(angles) if len(angles) > 1 else None,
                     "first half": halves[0], "second half": halves[1],
                     "seconds": [r["seconds"] for r in mine]})
    return rows


def save(scene: dict, hertz: dict | None, runs: list[dict], started: list[float]) -> None:
    """Write the results so far (``benchmarks/record.py``: whole or not at all); ``started`` is
    the load average when this invocation began."""
    record.write("lammps_drum", summary(runs), started, **scene, hertz=hertz, runs=runs)


def resumed(scene: dict) -> tuple[dict | None, list[dict]]:
    """The matched constants and finished runs of an earlier run of the same scene."""
    try:
        old = json.loads(OUT.read_text())
    except (OSError, ValueError):
        return None, []
    if any(old.get(key) != value for key, value in scene.items()) or "runs" not in old:
        return None, []
    return old["hertz"], old["runs"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--discs", type=int, default=500)
    parser.add_argument("--duration", type=float, default=3.0, help="s")
    parser.add_argument("--settle", type=float, default=1.0,
                        help="s; the angle is averaged from here to the end")
    options = parser.parse_args()
    for name in ("seeds", "discs", "duration"):
        if getattr(options, name) <= 0:
            parser.error(f"--{name}={getattr(options, name)!r} must be positive")
    if not 0 <= options.settle < options.duration - 2 * EVERY * DT:
        parser.error(f"--settle={options.settle!r} must lie in [0, --duration) with output "
                     "after it")
    steps = round(options.duration / DT)
    settle = round(options.settle / DT)
    scene = {"discs": options.discs, "duration": options.duration, "settle": options.settle,
             "dt": DT, "spin": SPIN, "drum": DRUM}
    hertz, runs = resumed(scene)
    started = record.load_average()
    with tempfile.TemporaryDirectory(prefix="hertz2d-drum-") as folder:
        folder = Path(folder)
        plugins = {}
        for law in LAWS:
            plugins[law] = folder / law
            with contextlib.redirect_stdout(io.StringIO()):
                assert hertz2d(["export-law", "--law", law, "--results", str(folder / "none"),
                                "--lammps", str(plugins[law])]) == 0
        for seed in range(1, options.seeds + 1):
            for law, ranks in RUNS:
                if any((r["law"], r["ranks"], r["seed"]) == (law, ranks, seed) for r in runs):
                    continue
                where = folder / f"{law.replace('/', '-')}-{ranks}-{seed}"
                match = hertz is None and (law, ranks) == MATCH_RUN
                if law == BUILT_IN:
                    result = run(built_in_lines(hertz), None, where, options.discs, seed, steps,
                                 settle, ranks)
                else:
                    result = run(plugin_lines(plugins[law]), plugins[law], where, options.discs,
                                 seed, steps, settle, ranks, end_dump=match)
                if match:
                    hertz = bed_hertz(where)
                runs.append({"law": law, "ranks": ranks, "seed": seed, **result})
                save(scene, hertz, runs, started)
                print(f"seed {seed} {law:18s} {ranks} rank(s): {result['angle']:.2f} deg "
                      f"(halves {result['halves'][0]:.2f}, {result['halves'][1]:.2f}; range "
                      f"{result['range'][0]:.1f}-{result['range'][1]:.1f}), "
                      f"{result['seconds']:.0f} s, load {result['load']:.2f}", flush=True)
    save(scene, hertz, runs, started)  # the summary again, also when every run was there already
    for row in summary(runs):
        print(f"{row['law']:18s} {row['ranks']} rank(s): {row['mean']:.2f} +- "
              f"{row['stdev'] or 0:.2f} deg over {len(row['angles'])} seeds")


if __name__ == "__main__":
    main()
