"""Throughput of the contact laws (run: ``python benchmarks/laws.py``).

1. The DEM hot path: :func:`calibration.laws.simplified_update` (Table 1: Newton on Eqs. 4 + 23,
   Eqs. 29, 31, 33, the capped Eq. 32) on batches of random contacts, in contact updates per
   second, with BLAS limited to one thread (numpy's elementwise work does not use it anyway).
2. The linear spring's update on the same batch, for scale.
3. Whole load paths (60 steps) through each law, milliseconds per path.
"""
from __future__ import annotations

import time

import numpy as np
from threadpoolctl import threadpool_limits

from calibration.laws import (AccurateModel, AppendixC, ContactPair, HertzMindlin, LinearSpring,
                              MindlinDeresiewicz, SimplifiedModel, simplified_update)
from calibration.laws.incremental import capped_update
from fem.loadpath import LoadPath


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
        seconds = rate(lambda: simplified_update(pair, delta_n, step, previous), repeats)
        print(f"{n:>9} {'simplified':>12} {1e3 * seconds:>12.2f} {n / seconds:>12.3g}")
        N = 2.7e9 * np.maximum(delta_n, 0)
        seconds = rate(lambda: capped_update(previous, 1.5e9, step, N, 0.3), repeats)
        print(f"{n:>9} {'linear':>12} {1e3 * seconds:>12.2f} {n / seconds:>12.3g}")

    pair = ContactPair.discs(0.5, 10e9, 0.25, 0.3)
    hold = LoadPath.build("hold-normal", 0.025, 0.025, 50)
    print("\nOne load path (hold-normal, 60 steps), milliseconds")
    for law in (SimplifiedModel(pair), AccurateModel(pair), AppendixC(pair),
                LinearSpring(2.7e9, 1.5e9, 0.3), HertzMindlin(pair), MindlinDeresiewicz(pair)):
        print(f"  {law.label:<48} {1e3 * rate(lambda: law.run(hold), 20):8.2f}")


if __name__ == "__main__":
    with threadpool_limits(1):
        main()
