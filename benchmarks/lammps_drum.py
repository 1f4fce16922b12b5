"""A rotating drum in LAMMPS with the plugin: its dynamic angle of repose per law, on 1 MPI rank
and on 2, over several seeds (run: ``python benchmarks/lammps_drum.py [--seeds 5] [--discs 500]
[--duration 2.0]``; writes ``benchmarks/results/lammps_drum.json``).

Needs the ``lammps`` extra and a C++ compiler. Both laws' plugins are exported into a temporary
folder. The scene is docs/lammps/examples/in.drum's at a size of its own: ``--discs`` discs of
diameters 5-8 mm (E 1e8 Pa, nu 0.3, mu 0.4, dashpot ratio 0.3, 2500 kg/m^3) dropped into a drum of
radius 0.2 m (a region's circle, fix wall/hertz2d/region) turning at 2 rad/s, dt 5e-6 s, for
``--duration`` s. The angle of repose is the bed's free surface's slope: the bed is a circular
segment, whose centre of mass lies on the perpendicular to its chord through the drum's centre,
so the angle of the centre of mass from the vertical is the surface's angle; it is averaged over
the second half of the run (the drum has turned a radian by then and the bed flows steadily).
Per law and number of ranks: each seed's angle, their mean and standard deviation; the means of
1 and 2 ranks should agree within that scatter (2 ranks sum some contact forces in another order,
so each run is another realisation of the flow), and the two laws' within theirs.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the project before this folder, whose dem.py shadows dem

from calibration.cli import main as hertz2d  # noqa: E402
from calibration.export.lammps.runtime import lmp_command, mpiexec  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "lammps_drum.json"
DT, SPIN, DRUM = 5e-6, 2.0, 0.2
#: thermo output every this many steps
EVERY = 2000


def drum_input(plugin: Path, discs: int, seed: int, steps: int) -> str:
    """The drum's LAMMPS input."""
    return "\n".join([
        f"plugin load {plugin / 'hertz2dplugin.so'}", "units si", "dimension 2",
        "atom_style sphere", "atom_modify map array", "boundary f f p", "comm_modify vel yes",
        f"region box block -{DRUM + 0.01} {DRUM + 0.01} -{DRUM + 0.01} {DRUM + 0.01} -0.5 0.5",
        "create_box 1 box", "region feed block -0.135 0.135 -0.135 0.135 -0.5 0.5",
        f"create_atoms 1 random {discs} {seed} feed overlap 0.0085 maxtry 1000",
        f"variable diameter atom 0.005+0.003*random(0,1,{seed + 1})",
        "set group all diameter v_diameter", "set group all density/disc 2500",
        f"pair_style hertz2d {plugin / 'law.json'} damping 0.3", "pair_coeff * * 1e8 0.3 0.4",
        "fix integrate all nve/sphere disc", "fix gravity all gravity 9.81 vector 0 -1 0",
        f"variable theta equal {SPIN}*time",
        f"region drum cylinder z 0 0 {DRUM} INF INF side in rotate v_theta 0 0 0 0 0 1",
        "fix drum all wall/hertz2d/region 0.4 drum", "fix plane all enforce2d",
        f"timestep {DT}", "neighbor 0.002 bin", "neigh_modify delay 0 every 1 check yes",
        "variable tilt equal atan2(xcm(all,x),-xcm(all,y))*180/PI",
        "thermo_style custom step atoms v_tilt", "thermo_modify format float %.10g",
        f"thermo {EVERY}", f"run {steps}", ""])


def angle(plugin: Path, folder: Path, discs: int, seed: int, steps: int, ranks: int) -> float:
    """The run's angle of repose (degrees, module docstring)."""
    folder.mkdir(parents=True)
    (folder / "in.drum").write_text(drum_input(plugin, discs, seed, steps))
    command = [lmp_command(), "-nocite", "-log", "none", "-in", "in.drum"]
    if ranks > 1:
        command = [mpiexec(), "-n", str(ranks), *command]
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"lmp failed: {(done.stdout + done.stderr)[-2000:]}")
    rows = [line.split() for line in done.stdout.splitlines()]
    rows = [(int(r[0]), int(r[1]), float(r[2])) for r in rows
            if len(r) == 3 and r[0].isdigit() and r[1].isdigit()]
    if any(atoms != discs for _, atoms, _ in rows):
        raise RuntimeError(f"seed {seed}: not all {discs} discs were placed or kept")
    late = [tilt for step, _, tilt in rows if step >= steps // 2]
    return statistics.fmean(late)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--discs", type=int, default=500)
    parser.add_argument("--duration", type=float, default=2.0, help="s")
    options = parser.parse_args()
    steps = round(options.duration / DT)
    rows = []
    with tempfile.TemporaryDirectory(prefix="hertz2d-drum-") as folder:
        folder = Path(folder)
        for law in ("simplified", "calibrated"):
            plugin = folder / law
            with contextlib.redirect_stdout(io.StringIO()):
                assert hertz2d(["export-law", "--law", law, "--results", str(folder / "none"),
                                "--lammps", str(plugin)]) == 0
            for ranks in (1, 2):
                angles = [angle(plugin, folder / f"{law}-{ranks}-{seed}", options.discs, seed,
                                steps, ranks) for seed in range(1, options.seeds + 1)]
                row = {"law": law, "ranks": ranks, "angles": angles,
                       "mean": statistics.fmean(angles),
                       "stdev": statistics.stdev(angles) if len(angles) > 1 else None}
                rows.append(row)
                print(f"{law:10s} {ranks} rank(s): angle of repose {row['mean']:.2f} deg "
                      f"(seeds {', '.join(f'{a:.2f}' for a in angles)})", flush=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                    "python": platform.python_version()},
        "command": " ".join(["python", "benchmarks/lammps_drum.py", *sys.argv[1:]]),
        "discs": options.discs, "duration": options.duration, "spin": SPIN, "drum": DRUM,
        "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
