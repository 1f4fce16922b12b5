"""The DEM engine's verification table (run: ``python benchmarks/dem_verification.py``).

The DEM engine's verification (docs/guide/dem.md computes part of it), each against its closed form (:mod:`hertz2d.dem.impact`,
:mod:`hertz2d.dem.rolling`); the tests assert them. A disc of R = 0.035 m, rho = 2700 kg/m^3 (E 10 GPa,
nu 0.25, mu 0.3; the linear spring kn 2.7e9, kt 1.5e9 N/m) at 1 m/s.

1. Elastic normal impact on a wall: contact time against the law's own integral and the relative
   energy error, as dt falls (second order expected).
2. Damped normal impact: restitution and contact time against the closed forms (viscous: linear
   spring; local: any elastic law).
3. Oblique impact on a wall: rebound angle and spin against the Coulomb-impulse closed form of
   the sliding regime, over the normalised incident angle ``psi = tan(angle) / (mu (1 + e))``
   (a disc slides throughout for psi > 3).
4. A disc on an incline: acceleration against 2/3 g sin(theta) (rolling) and g (sin - mu cos)
   (sliding, tan(theta) > 3 mu).
5. Oblique impact on a wall against an independent reference (:mod:`hertz2d.dem.impact_reference`: the
   single contact as an ODE, scipy at a tolerance of 1e-12, the stick-slip switches as events):
   the rebound angle's error as dt halves, and the error over dt^2 (bounded for a second-order
   scheme, growing as 1/dt for a first-order one).
   Then the speed issue's measure over its range: at 5 to 60 degrees, the root mean square of
   the error against the same reference over twelve steps within each octave
   (:func:`hertz2d.dem.impact_reference.rebound_error_rms`: where the contact's end falls between
   two steps moves a single step's error), at dt 2e-6 s halving to 1.25e-7 s, and the observed
   order (the least-squares slope of log rms on log dt) there and from 2.5e-7 s to 1.5625e-8 s,
   for the paper's law (Eq. 33) and the linear spring, beside the slope of the single steps'
   |error|.
   Also written to ``benchmarks/results/impact_order.json``.
6. The same impacts with the calibrated law, whose memory of the traction no ODE reference here
   solves: the rebound angle's change as dt halves from 2e-6 s (to 3.125e-8 s) and the observed
   order, the least-squares slope of log |change| against log dt, over every halving and over
   those to 1.25e-7 s, the speed target's range (a convergence trend; the paper's law beside
   it, measured the same way).
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from hertz2d.calibration.laws import ConstantPenalty  # noqa: E402
from hertz2d.calibration.laws.calibrated import (SHIPPED_COEFFICIENTS,  # noqa: E402
                                                 CalibratedCoefficients)
from hertz2d.dem import Damping, Law  # noqa: E402
from hertz2d.dem.impact import (DENSITY, RADIUS, elastic_contact_time, impact, sliding_impact,  # noqa
                        spring_dashpot, spring_local_damping)
from hertz2d.dem.impact_reference import (PHASES, rebound_error_rms,  # noqa: E402
                                          rebound_errors, reference_impact)
from hertz2d.dem.rolling import roll  # noqa: E402

from benchmarks import record  # noqa: E402

MASS = DENSITY * math.pi * RADIUS**2
LAWS = {"simplified (Eq. 33)": Law.simplified(10e9, 0.25, 0.3),
        "simplified (w = 0.5)": Law.simplified(10e9, 0.25, 0.3, ConstantPenalty(0.5)),
        "linear": Law.linear(2.7e9, 1.5e9, 0.3),
        "3D Hertz-Mindlin": Law.hertz_mindlin(10e9, 0.25, 0.3)}


def elastic() -> None:
    print("1. Elastic normal impact on a wall: contact time error and energy error vs dt")
    print(f"{'law':<22} {'closed form t_c (s)':>19} " + " ".join(
        f"{'dt=%g: t_c err' % dt:>17} {'energy err':>10}" for dt in (1e-5, 1e-6, 1e-7)))
    for name, law in LAWS.items():
        exact = elastic_contact_time(law, 0.5 * MASS, 2.0, RADIUS)
        cells = []
        for dt in (1e-5, 1e-6, 1e-7):
            result = impact(law, speed=1.0, dt=dt)
            cells.append(f"{result.contact_time / exact - 1:>17.2e} {result.energy_error:>10.2e}")
        print(f"{name:<22} {exact:>19.6e} " + " ".join(cells))


def damped() -> None:
    print("\n2. Damped normal impact (dt = 1e-7): restitution and contact time, measured / closed")
    print(f"{'law':<22} {'damping':<20} {'e':>8} {'closed':>8} {'t_c':>11} {'closed':>11}")
    for name in ("linear", "simplified (Eq. 33)", "3D Hertz-Mindlin"):
        for damping in (Damping(ratio=0.3), Damping(ratio=0.7), Damping(local=0.7)):
            if damping.ratio and name != "linear":
                continue  # no closed form for a nonlinear spring-dashpot
            result = impact(LAWS[name], speed=1.0, dt=1e-7, damping=damping)
            if damping.local:
                e = spring_local_damping(1.0, 1.0, damping.local)[1]
                t = (spring_local_damping(2 * 2.7e9, MASS, damping.local)[0]
                     if name == "linear" else math.nan)
            else:
                t, e = spring_dashpot(2 * 2.7e9, MASS, damping.ratio)
            print(f"{name:<22} {damping.label:<20} {result.restitution:>8.4f} {e:>8.4f} "
                  f"{result.contact_time:>11.4e} {t:>11.4e}")


def oblique() -> None:
    print("\n3. Oblique impact on a wall (dt = 1e-6): rebound angle (deg) and spin (rad/s); "
          "closed forms of the sliding regime")
    print(f"{'law':<22} {'angle':>5} {'psi':>6} {'rebound':>8} {'sliding':>8} {'spin':>8} "
          f"{'sliding':>8}")
    for name in ("simplified (Eq. 33)", "linear", "3D Hertz-Mindlin"):
        for angle in (5, 20, 40, 55, 65, 75, 85):
            result = impact(LAWS[name], speed=1.0, angle=angle, dt=1e-6)
            rebound, spin = sliding_impact(1.0, angle, 0.3, result.restitution, RADIUS, True)
            psi = math.tan(math.radians(angle)) / (0.3 * (1 + result.restitution))
            print(f"{name:<22} {angle:>5} {psi:>6.2f} {result.rebound_angle:>8.3f} "
                  f"{rebound:>8.3f} {result.spin:>8.3f} {spin:>8.3f}")


def rolling() -> None:
    print("\n4. A disc on an incline (dt = 1e-5, 0.05 s): acceleration, measured / closed form")
    print(f"{'law':<22} {'angle':>5} {'regime':>8} {'a (m/s^2)':>10} {'closed':>10} "
          f"{'rel. err':>9}")
    for name in ("simplified (Eq. 33)", "linear", "3D Hertz-Mindlin"):
        for angle in (20.0, 50.0):
            result = roll(LAWS[name], angle=angle)
            print(f"{name:<22} {angle:>5.0f} {'slides' if result.sliding else 'rolls':>8} "
                  f"{result.acceleration:>10.5f} {result.expected_acceleration:>10.5f} "
                  f"{result.acceleration / result.expected_acceleration - 1:>9.1e}")


def convergence() -> None:
    steps = [1e-5 * 2.0**-k for k in range(9)]
    print("\n5. Oblique impact on a wall, 1 m/s: rebound angle error (degrees) against the "
          "event-driven ODE reference, as dt halves from 1e-5 s")
    print(f"{'law':<22} {'angle':>5} {'regimes':<18} {'reference':>12} "
          + " ".join(f"{dt:>8.2e}" for dt in steps) + f" {'max |err|/dt^2, dt<=2.5e-6':>27}")
    for name in ("simplified (Eq. 33)", "linear"):
        for angle in (10.0, 20.0, 30.0, 45.0, 60.0):
            reference = reference_impact(LAWS[name], speed=1.0, angle=angle)
            errors = rebound_errors(LAWS[name], angle=angle, steps=steps, reference=reference)
            ratio = max(abs(e) / dt**2 for e, dt in zip(errors, steps) if dt <= 2.5e-6)
            print(f"{name:<22} {angle:>5.0f} {'-'.join(reference.regimes):<18} "
                  f"{reference.rebound_angle:>12.8f} " + " ".join(f"{e:>8.1e}" for e in errors)
                  + f" {ratio:>27.2e}")


def slope(steps, errors) -> float:
    """The observed order: the least-squares slope of log ``errors`` on log ``steps``."""
    return np.polyfit(np.log(steps), np.log(errors), 1)[0]


def phase_errors(law, angle: float, reference, steps: list[float]) -> list[np.ndarray]:
    """Per time step dt of ``steps``, the rebound errors at dt * PHASES (the first at dt)."""
    return [rebound_errors(law, angle=angle, steps=dt * PHASES, reference=reference)
            for dt in steps]


def target_order() -> None:
    target = [2e-6 * 2.0**-k for k in range(5)]
    fine = [2.5e-7 * 2.0**-k for k in range(5)]
    started = record.load_average()
    print("\n5b. The same against the reference, as the root mean square of the error (degrees) "
          "over twelve steps within each octave (rebound_error_rms), at dt 2e-6 ... 1.25e-7 s; "
          "the observed order (slope of log rms on log dt) there and at 2.5e-7 ... 1.5625e-8 s, "
          "and the slope of log |error| of the single steps dt, dt/2, ...")
    print(f"{'angle':>5} {'law':<22} " + " ".join(f"{dt:>8.2e}" for dt in target)
          + f" {'order':>6} {'fine':>6} {'single':>6}")
    rows = []
    for angle in (5.0, 10.0, 20.0, 30.0, 45.0, 60.0):
        for name in ("simplified (Eq. 33)", "linear"):
            law = LAWS[name]
            reference = reference_impact(law, speed=1.0, angle=angle)
            levels = phase_errors(law, angle, reference, target)
            shown = [rebound_error_rms(errors) for errors in levels]
            fine_rms = [rebound_error_rms(errors)
                        for errors in phase_errors(law, angle, reference, fine)]
            orders = {"target": slope(target, shown), "fine": slope(fine, fine_rms),
                      "single": slope(target, [abs(errors[0]) for errors in levels])}
            print(f"{angle:>5.0f} {name:<22} " + " ".join(f"{e:>8.1e}" for e in shown)
                  + "".join(f" {orders[k]:>6.2f}" for k in ("target", "fine", "single")))
            rows.append({"angle": angle, "law": name,
                         "order (rms)": round(float(orders["target"]), 2),
                         "order below, 2.5e-7 ... 1.6e-8 (rms)": round(float(orders["fine"]), 2),
                         "order of single steps": round(float(orders["single"]), 2),
                         **{f"rms error at {dt:.3g}": float(e) for dt, e in zip(target, shown)}})
    record.write("impact_order", rows, started)


def self_convergence() -> None:
    steps = [2e-6 * 2.0**-k for k in range(7)]
    laws = {"calibrated": Law.calibrated(10e9, 0.25, 0.3, CalibratedCoefficients.from_file(
        SHIPPED_COEFFICIENTS)), "simplified (Eq. 33)": LAWS["simplified (Eq. 33)"]}
    print("\n6. Oblique impact on a wall, 1 m/s: the rebound angle's change (degrees) as dt halves "
          "from 2e-6 s, and the observed order (slope of log |change| on log dt), over every "
          "halving and over those to dt 1.25e-7 s")
    print(f"{'law':<22} {'angle':>5} " + " ".join(f"{dt:>8.2e}" for dt in steps[1:])
          + f" {'order':>6} {'to 1.25e-7':>10}")
    target = steps.index(1.25e-7)
    for name, law in laws.items():
        for angle in (5.0, 10.0, 20.0, 30.0, 45.0, 60.0):
            angles = [impact(law, speed=1.0, angle=angle, dt=dt).rebound_angle for dt in steps]
            changes = np.abs(np.diff(angles))
            order = slope(steps[1:], changes)
            to_target = slope(steps[1:target + 1], changes[:target])
            print(f"{name:<22} {angle:>5.0f} " + " ".join(f"{c:>8.1e}" for c in changes)
                  + f" {order:>6.2f} {to_target:>10.2f}")


if __name__ == "__main__":
    elastic()
    damped()
    oblique()
    rolling()
    convergence()
    target_order()
    self_convergence()
