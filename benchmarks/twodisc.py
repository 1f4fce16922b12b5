"""Two-disc frictional contact FEM: performance, and (``--verify``) accuracy against closed forms.

``python benchmarks/twodisc.py [--levels 2 3 4]`` prints, per mesh level and support, for case 1 of
Section 4.2 (delta_n = 0.025 m in 10 steps, then delta_t 0 -> 0.025 m in 50 steps): nodes, contact
(slave) nodes, set-up (gmsh meshing with a cold cache, assembly, factorisation and condensation),
mean and max time per load step, and the total. A second table shows the per-step time with the
BLAS thread pools left alone instead of limited to one thread (CONTACT-NOTES).

``python benchmarks/twodisc.py --verify [--levels 2 3 4]`` prints the issue's "Must show" numbers
per level: frictionless normal loading against Eqs. 23, 4 and 1, partial slip at delta_t = 0.01 m
against Eqs. 7 and 2, the onset of full slip against Eq. 27, the peak and final forces of cases 1
and 2 with their change from the previous level, and the worst equilibrium mismatch. The closed
forms come from :mod:`calibration.laws` (checked against an independent transcription in
tests/test_laws.py).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import time

import numpy as np

import fem.contact.frictional as frictional
from calibration.laws import (EQ33, ConstantPenalty, ContactPair, full_slip_displacement,
                              half_width, normal_force, pressure, shear_traction, stick_half_width)
from calibration.penalty import penalty_factor_from_displacement
from fem.halfround import HalfRoundBody
from fem.loadpath import LoadPath
from fem.twodisc import TwoDisc

R, E, NU, MU = 0.5, 10e9, 0.25, 0.3
PAIR = ContactPair.discs(R, E, NU, MU)
SUPPORTS = ("clamped", "symmetric")


def case(kind: str, steps: int = 50) -> LoadPath:
    return LoadPath.build(kind, 0.025, 0.025, steps)


def timing(levels) -> None:
    path = case("hold-normal")
    print("\nCase 1 (hold-normal, 10 + 50 steps), R = 0.5 m, E = 10 GPa, nu = 0.25, mu = 0.3")
    print(f"{'support':>9} {'level':>5} {'nodes':>7} {'contact':>7} {'mesh s':>7} {'assembly s':>10} "
          f"{'factor s':>8} {'mean step ms':>12} {'max step ms':>11} {'total s':>7}")
    single = {}
    for support in SUPPORTS:
        for level in levels:
            os.environ["HERTZ2D_CACHE"] = tempfile.mkdtemp(prefix="hertz2d-bench-")  # cold mesh
            start = time.perf_counter()
            model = TwoDisc.for_path(path, support=support, level=level)
            result = model.run(path, progress=False)
            total = time.perf_counter() - start
            steps = np.array(result.info["step_seconds"])
            single[support, level] = steps.mean()
            print(f"{support:>9} {level:>5} {model.nodes:>7} {model.contact.n_slave:>7} "
                  f"{model.timings['mesh']:>7.2f} {model.timings['assembly']:>10.2f} "
                  f"{model.timings['factorisation']:>8.2f} {1e3 * steps.mean():>12.1f} "
                  f"{1e3 * steps.max():>11.1f} {total:>7.2f}")
    print("\nPer-step time with the BLAS thread pools unlimited instead of one thread")
    print(f"{'support':>9} {'level':>5} {'1 thread ms':>11} {'unlimited ms':>12}")
    limiter = frictional.threadpool_limits
    frictional.threadpool_limits = lambda *args, **kwargs: contextlib.nullcontext()
    try:
        for support in SUPPORTS:
            for level in levels:
                result = TwoDisc.for_path(path, support=support, level=level).run(
                    path, progress=False)
                print(f"{support:>9} {level:>5} {1e3 * single[support, level]:>11.1f} "
                      f"{1e3 * np.mean(result.info['step_seconds']):>12.1f}")
    finally:
        frictional.threadpool_limits = limiter


def _rms(values, reference, inside, scale):
    return float(np.sqrt(np.mean((values - reference)[inside] ** 2)) / scale)


def verify(levels) -> None:
    case1, case2 = case("hold-normal"), case("proportional")
    previous = {}
    for support in SUPPORTS:
        print(f"\n== support: {support}")
        print(f"{'level':>5} {'N/Eq23':>8} {'a/Eq4':>7} {'p rms':>7} | {'c':>8} {'c/Eq7':>7} "
              f"{'q rms':>7} | {'onset':>8} {'/Eq27 w_hr':>10} {'w_hr':>6} {'/Eq27 w33':>9} | "
              f"{'Fx peak':>10} {'chg':>7} {'final Fx':>10} {'chg':>7} {'final Fz':>10} {'chg':>7} | "
              f"{'c2 Fx end':>10} {'chg':>7} {'c2 Fz end':>10} {'chg':>7} | {'equil':>7}")
        for level in levels:
            model = TwoDisc.for_path(case1, support=support, level=level)
            result = model.run(case1, profiles=True, progress=False)
            table, profiles = result.table, result.profiles
            loaded = table[table["stage"] == "normal"].iloc[-1]
            a4 = float(half_width(PAIR, loaded.N))
            prof = profiles[profiles["step"] == loaded.step]
            x = prof["s"].to_numpy() - loaded.centre
            p0 = 2 * loaded.N / (np.pi * a4)
            p_rms = _rms(prof["p"].to_numpy(), pressure(x, loaded.N, a4), np.abs(x) <= 0.9 * a4,
                         p0)
            slip = table[np.isclose(table["delta_t"], 0.01)].iloc[0]
            a4s = float(half_width(PAIR, slip.N))
            c7 = float(stick_half_width(slip.N, slip["T"], a4s, MU))
            prof = profiles[profiles["step"] == slip.step]
            x = prof["s"].to_numpy() - slip.centre
            q_rms = _rms(prof["q"].to_numpy(), shear_traction(x, slip.N, a4s, c7, MU),
                         np.abs(x) <= 0.9 * a4s, MU * 2 * slip.N / (np.pi * a4s))
            tangential = table[table["stage"] == "tangential"]
            partial, full = tangential[tangential["c"] > 0], tangential[tangential["c"] == 0]
            last = partial.iloc[-2:]
            onset = float(np.polyval(np.polyfit(last["c"] ** 2, last["delta_t"], 1), 0.0))
            first_full = full.iloc[0]
            a_on = float(half_width(PAIR, first_full.N))
            w_hr = float(penalty_factor_from_displacement(
                HalfRoundBody(R, a_on).compliance(E, NU, support).tangential, 1.0, E, NU, R, a_on))
            eq27 = [float(full_slip_displacement(PAIR, first_full.N, a_on, penalty))
                    for penalty in (ConstantPenalty(w_hr), EQ33)]
            result2 = model.run(case2, progress=False)
            forces = {"peak": table["Fx"].max(), "Fx": table["Fx"].iloc[-1],
                      "Fz": table["Fz"].iloc[-1], "Fx2": result2.table["Fx"].iloc[-1],
                      "Fz2": result2.table["Fz"].iloc[-1]}
            change = {k: (v / previous[support, k] - 1 if (support, k) in previous else np.nan)
                      for k, v in forces.items()}
            previous.update({(support, k): v for k, v in forces.items()})
            equilibrium = max(table["equilibrium"].max(), result2.table["equilibrium"].max())
            print(f"{level:>5} {loaded.N / float(normal_force(PAIR, loaded.delta_n)[0]):>8.4f} "
                  f"{loaded.a / a4:>7.4f} {p_rms:>7.4f} | {slip.c:>8.5f} {slip.c / c7:>7.4f} "
                  f"{q_rms:>7.4f} | {onset:>8.5f} {onset / eq27[0]:>10.4f} {w_hr:>6.3f} "
                  f"{onset / eq27[1]:>9.4f} | {forces['peak']:>10.4e} {change['peak']:>+7.2%} "
                  f"{forces['Fx']:>10.4e} {change['Fx']:>+7.2%} {forces['Fz']:>10.4e} "
                  f"{change['Fz']:>+7.2%} | {forces['Fx2']:>10.4e} {change['Fx2']:>+7.2%} "
                  f"{forces['Fz2']:>10.4e} {change['Fz2']:>+7.2%} | {equilibrium:>7.1e}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--verify", action="store_true",
                        help="accuracy against the closed forms instead of timings")
    args = parser.parse_args()
    (verify if args.verify else timing)(args.levels)


if __name__ == "__main__":
    main()
