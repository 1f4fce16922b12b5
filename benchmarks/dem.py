"""Speed of the DEM engine on the paper's biaxial packing (run: ``python benchmarks/dem.py``).

200 discs of diameters U(0.06, 0.08) m placed at random in a 1.0 x 1.5 m box (the engine's own
seeded packing, the statistics of Section 4.3), rho 2700 kg/m^3, E 10 GPa, nu 0.25, mu 0.3, the
paper's damping (local, 0.7), gravity, dt = 1e-5 s, one core. For every law:

1. JIT: the first call's compilation, in a fresh process with an empty cache, and the same with
   the cache filled (what every later process pays);
2. phases from rest, as a LAMMPS comparison would time them: 1e4 steps (free fall, almost no
   contacts), 1e5 steps (fall, impact, settling), then 1e4 more on the bed; microseconds per step
   (process CPU time), mean touching contacts (disc-disc and disc-wall) and contact updates per
   second; for every law with the paper's damping, and for the linear spring also with the
   damping a LAMMPS run of it uses (restitution 0.5, a damping ratio of 0.2155), whose bed
   settles within the 1.1 s;
3. the paper's whole schedule (``--full``, about a minute per law): 5 s settling, 1 s isotropic
   compression to 0.1 GPa by servo walls, 2 s of shearing with the top wall at 0.1 m/s and the
   side walls on the servo: 8e5 steps, timed, with the energy balance of the whole run. (The
   protocol here only times the engine; ``hertz2d dem biaxial`` (:mod:`hertz2d.dem.biaxial`) is the
   paper's test with its measurements.)

Laws: the simplified model with hertz2d's refit w (``results/penalty/fit.json``), Eq. 33's w and
w = 0.5; the calibrated law (``results/calibrated/coefficients.json``, else the coefficients
shipped with hertz2d); the linear spring with the paper's kn, kt and with hertz2d's
FEM-regressed ones (``results/validation/summary.json``); 3D Hertz-Mindlin on discs. CPU time is
reported because wall time on a shared machine varies by 2x; the load average is printed with
it. The bed's 1e4 steps are timed ``--repeats`` times (the table gives the fastest); the last
table is each law's cost per contact update on the bed, the step's time over its touching
contacts (fastest and median), beside Table 1's with Eq. 33.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hertz2d.calibration import results_layout as layout  # noqa: E402
from hertz2d.calibration.fitted import calibrated_coefficients  # noqa: E402
from hertz2d.calibration.laws import ConstantPenalty  # noqa: E402
from hertz2d.calibration.penalty.outputs import FIT, PenaltyFit  # noqa: E402
from hertz2d.calibration.validation.outputs import ValidationRecord  # noqa: E402
from hertz2d.calibration.laws.penalty_factor import EQ33  # noqa: E402
from hertz2d.dem import PAPER_DAMPING, Damping, Discs, Law, Simulation, Walls, random_packing  # noqa
from benchmarks import record  # noqa: E402

E, NU, MU, DENSITY, DT = 10e9, 0.25, 0.3, 2700.0, 1e-5
WIDTH, HEIGHT = 1.0, 1.5
#: the paper's confining stress (Section 4.3), Pa
STRESS = 1e8


def laws() -> dict[str, Law]:
    chosen = {}
    fit = layout.under(ROOT / "results", FIT)
    if fit.exists():
        chosen["simplified, refit w"] = Law.simplified(E, NU, MU, PenaltyFit.read(fit).penalty())
    chosen["simplified, Eq. 33 w"] = Law.simplified(E, NU, MU, EQ33)
    chosen["simplified, w = 0.5"] = Law.simplified(E, NU, MU, ConstantPenalty(0.5))
    chosen["calibrated"] = Law.calibrated(E, NU, MU,
                                          calibrated_coefficients(ROOT / "results")[0])
    chosen["linear, paper's kn kt"] = Law.linear(2.7e9, 1.5e9, MU)
    if ValidationRecord.present(ROOT / "results"):
        regressed = ValidationRecord.read(ROOT / "results").spring()
        chosen["linear, FEM-regressed"] = Law.linear(regressed.kn, regressed.kt, MU)
    chosen["3D Hertz-Mindlin"] = Law.hertz_mindlin(E, NU, MU)
    return chosen


def system(law: Law, damping: Damping = PAPER_DAMPING, seed: int = 1) -> Simulation:
    centres, radii = random_packing(200, 0.06, 0.08, WIDTH, HEIGHT, seed=seed)
    return Simulation(Discs.from_arrays(centres, radii, DENSITY), law, dt=DT,
                      walls=Walls.box(WIDTH, HEIGHT), damping=damping)


def timed(run: Simulation, steps: int) -> tuple[float, float, float]:
    """``(microseconds per step, contact updates per second, mean contacts)`` of ``steps`` steps
    (CPU time; contacts sampled every 1000 steps)."""
    interval = 1000
    contacts = 0.0
    start = time.process_time()
    for _ in range(steps // interval):
        run.advance(interval)
        row = run.observe()
        contacts += (row["contacts"] + row["wall_contacts"]) * interval
    seconds = time.process_time() - start
    return 1e6 * seconds / steps, contacts / seconds, contacts / steps


def compile_times() -> list[tuple[float, float]]:
    """``(CPU, wall)`` seconds of a new process's first step, imports included: with an empty
    numba cache (compilation), then with the cache it filled (loading)."""
    probe = ("import time; t, c = time.perf_counter(), time.process_time(); import sys\n"
             "sys.path.insert(0, %r)\n"
             "from benchmarks.dem import system, Law\n"
             "run = system(Law.simplified(1e10, 0.25, 0.3)); run.advance(1); run.observe()\n"
             "print(time.process_time() - c, time.perf_counter() - t)" % str(ROOT))
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        return [tuple(map(float, subprocess.run(
            [sys.executable, "-c", probe], env=env, check=True, capture_output=True,
            text=True).stdout.split()[-2:])) for _ in range(2)]


def paper_schedule(run: Simulation) -> None:
    """5 s settling, 1 s isotropic servo to 0.1 GPa, 2 s shearing (top wall at 0.1 m/s)."""
    walls = run.walls
    run.advance(int(round(5.0 / DT)))
    walls.point[2, 1] = (run.discs.position[:, 1] + run.discs.radius).max()
    for wall in (1, 2, 3):
        walls.set_servo(wall, STRESS, gain=0.5, max_speed=1.0)
    run.advance(int(round(1.0 / DT)))
    walls.set_velocity(2, (0.0, -0.1))
    run.advance(int(round(2.0 / DT)))


def load() -> str:
    return "load average " + " ".join(f"{v:.2f}" for v in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="also time the 8e5-step schedule")
    parser.add_argument("--repeats", type=int, default=3,
                        help="timings of the bed's 1e4 steps per law (3)")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error(f"--repeats={args.repeats!r} must be at least 1")
    started = record.load_average()
    print(f"DEM engine, 200 discs, dt = {DT:g} s, one core ({load()})")
    (cold_cpu, cold_wall), (warm_cpu, warm_wall) = compile_times()
    print(f"JIT, a new process's first step with imports: {cold_cpu:.1f} s CPU ({cold_wall:.1f} s "
          f"wall) compiling into an empty cache, {warm_cpu:.1f} s CPU ({warm_wall:.1f} s wall) "
          "loading it\n")
    print(f"{'law':<28} {'phase':<24} {'us/step':>8} {'contacts':>9} {'contact updates/s':>18}")
    chosen = laws()
    runs = {name: system(law) for name, law in chosen.items()}
    # LAMMPS's set-up in a comparison: linear spring, restitution 0.5 (damping ratio 0.2155)
    runs["linear, damping ratio 0.2155"] = system(chosen["linear, paper's kn kt"],
                                                  Damping(ratio=0.2155))
    per_contact, phases = {}, {}
    for name, run in runs.items():
        run.advance(1)  # compile or load, outside the timings
        run.observe()
        phases[name] = {}
        for label, steps in (("1e4 from rest", 10_000), ("next 9e4 (impact, bed)", 90_000)):
            per_step, rate, contacts = timed(run, steps)
            phases[name][label] = per_step
            print(f"{name:<28} {label:<24} {per_step:>8.2f} {contacts:>9.0f} {rate:>18.3g}")
        bed = [timed(run, 10_000) for _ in range(args.repeats)]
        per_step, rate, contacts = min(bed)
        phases[name]["+1e4 on the bed"] = per_step
        print(f"{name:<28} {'+1e4 on the bed':<24} {per_step:>8.2f} {contacts:>9.0f} "
              f"{max(r for _, r, _ in bed):>18.3g}")
        per_contact[name] = sorted(1e3 * t / c for t, _, c in bed)
    print(f"({load()})")
    reference = per_contact["simplified, Eq. 33 w"][0]
    spring = per_contact["linear, paper's kn kt"][0]
    print(f"\nPer contact update on the bed, ns (the step's CPU time over its touching contacts; "
          f"{args.repeats} timings of 1e4 steps)")
    print(f"{'law':<28} {'fastest':>8} {'median':>8} {'/ Table 1 (Eq. 33)':>19} "
          f"{'/ spring':>9}")
    rows = []
    for name, values in per_contact.items():
        median = values[len(values) // 2]
        print(f"{name:<28} {values[0]:>8.0f} {median:>8.0f} {values[0] / reference:>19.2f} "
              f"{values[0] / spring:>9.2f}")
        rows.append({"law": name, **{f"us/step ({label})": round(value, 3)
                                     for label, value in phases[name].items()},
                     "ns/update (fastest)": round(values[0], 1),
                     "ns/update (median)": round(median, 1),
                     "/ Table 1": round(values[0] / reference, 3),
                     "/ spring": round(values[0] / spring, 3)})
    print(f"({load()})")
    record.write("dem", rows, started, discs=200, dt=DT, repeats=args.repeats,
                 jit_seconds={"compile": round(cold_cpu, 2), "load": round(warm_cpu, 2)})
    if not args.full:
        return
    print(f"\nThe paper's schedule, 8e5 steps (CPU seconds; {load()})")
    print(f"{'law':<24} {'CPU s':>7} {'us/step':>8} {'contacts':>9} {'axial MPa':>10} "
          f"{'lateral MPa':>12} {'energy residual / work in':>26}")
    for name, law in chosen.items():
        run = system(law)
        run.advance(1)
        start = time.process_time()
        try:
            paper_schedule(run)
        except ArithmeticError as error:
            print(f"{name:<24} failed: {error}")
            continue
        seconds = time.process_time() - start
        row, balance = run.observe(), run.balance()
        stresses = run.walls.stresses() / 1e6
        print(f"{name:<24} {seconds:>7.1f} {1e6 * seconds / 8e5:>8.2f} "
              f"{row['contacts'] + row['wall_contacts']:>9d} {stresses[2]:>10.1f} "
              f"{0.5 * (stresses[1] + stresses[3]):>12.1f} "
              f"{balance['residual'] / balance['work']:>26.2e}")
    print(f"({load()})")


if __name__ == "__main__":
    main()
