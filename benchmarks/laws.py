"""Throughput of the contact laws (run: ``python benchmarks/laws.py``).

1. The DEM hot paths on batches of random contacts, in contact updates per second, with BLAS
   limited to one thread (numpy's elementwise work does not use it anyway):
   :func:`hertz2d.calibration.laws.simplified_update` (Table 1: the normal law solved exactly by
   Lambert's W, Eqs. 29, 31, 33, the capped trapezoidal Eq. 32 from the previous half-width) and :func:`hertz2d.calibration.laws.hysteretic_update` (the same normal law,
   the accurate model's branch inverted by Newton, Masing's rule).
2. The linear spring's update on the same batch, for scale.
3. Whole load paths (60 steps; a 260-step cycle) through each law, milliseconds per path.
"""
from __future__ import annotations

import time

import numpy as np
from threadpoolctl import threadpool_limits

from hertz2d.calibration.laws import (EQ33, LAWS, ContactPair, HystereticState, hysteretic_update,
                              make_law, normal_force, simplified_update)
from hertz2d.calibration.laws.incremental import capped_update
from hertz2d.checks.loadpath import LoadPath


def batch(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    pair = ContactPair(rng.uniform(0.03, 0.04, n), rng.uniform(0.03, 0.04, n), 10e9, 10e9,
                       0.25, 0.25, 0.3)
    delta_n = rng.uniform(-1e-5, 1.5e-3, n)  # some contacts open, a/R up to ~0.13
    return pair, delta_n, rng.uniform(-1e-5, 1e-5, n), rng.uniform(-1e5, 1e5, n)


def rate(update, repeats: int) -> float:
    update()  # warm up
    start = time.perf_counter()
    for _ in range(repeats):
        update()
    return (time.perf_counter() - start) / repeats


def main() -> None:
    print("Contact updates per second (one call updates the whole batch)")
    print(f"{'contacts':>9} {'law':>12} {'ms per call':>12} {'updates/s':>12}")
    for n in (10**3, 10**4, 10**5, 10**6):
        pair, delta_n, step, previous = batch(n)
        repeats = max(3, 2 * 10**6 // n)
        a_previous = normal_force(pair, 0.999 * np.maximum(delta_n, 0.0))[1]
        seconds = rate(lambda: simplified_update(pair, delta_n, step, previous, EQ33, a_previous),
                       repeats)
        print(f"{n:>9} {'simplified':>12} {1e3 * seconds:>12.2f} {n / seconds:>12.3g}")
        state = hysteretic_update(pair, delta_n, step, HystereticState.unloaded(n))
        seconds = rate(lambda: hysteretic_update(pair, delta_n, -step, state), repeats)
        print(f"{n:>9} {'hysteretic':>12} {1e3 * seconds:>12.2f} {n / seconds:>12.3g}")
        N = 2.7e9 * np.maximum(delta_n, 0)
        seconds = rate(lambda: capped_update(previous, 1.5e9, step, N, 0.3), repeats)
        print(f"{n:>9} {'linear':>12} {1e3 * seconds:>12.2f} {n / seconds:>12.3g}")

    pair = ContactPair.discs(0.5, 10e9, 0.25, 0.3)
    hold = LoadPath.build("hold-normal", 0.025, 0.025, 50)
    cycle = LoadPath.build("cycle", 0.025, 0.01, 50)
    print("\nOne load path, milliseconds")
    print(f"  {'law':<48} {'hold-normal':>12} {'cycle':>8}")
    for name in LAWS:
        law = make_law(name, pair)
        times = [f"{1e3 * rate(lambda: law.run(path), 5):8.2f}" if path.kind in law.paths
                 else f"{'-':>8}" for path in (hold, cycle)]
        print(f"  {law.label:<48} {times[0]:>12} {times[1]:>8}")


if __name__ == "__main__":
    with threadpool_limits(1):
        main()
