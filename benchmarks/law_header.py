"""Cost of one contact step of the exported C99 headers (run: ``python benchmarks/law_header.py``).

Exports the simplified law (Eq. 33) and the calibrated law (the shipped coefficients) with
``hertz2d export-law`` into a temporary folder, compiles one small C program per header
(``cc -O2``, the header's generic interface ``hertz2d_contact`` with HERTZ2D_HISTORY_SIZE doubles
per contact) and times 2000 contacts x 2000 steps of the paper's disc pair (R = 0.035 m, E 10 GPa,
nu 0.25, mu 0.3) on a DEM-like path: the approach oscillating by +-30 % about that of
a/R = 0.02, the tangential displacement oscillating with an amplitude of 0.8 times the full-slip
displacement there (partial slip with reversals, full slip where N is low), each contact at its
own phase. Prints the CPU time per contact step (process time, as the machine is shared) and the
share of steps in full slip.
"""
from __future__ import annotations

import contextlib
import io
import math
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hertz2d.calibration.cli import main  # noqa: E402
from hertz2d.calibration.laws import ContactPair  # noqa: E402
from hertz2d.calibration.laws.calibrated import CalibratedCoefficients, SHIPPED_COEFFICIENTS  # noqa: E402
from hertz2d.calibration.laws.calibrated import curve_constants  # noqa: E402
from hertz2d.calibration.laws.hertz2d import normal_stiffness  # noqa: E402

CONTACTS, STEPS = 2000, 2000

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "hertz2d_law.h"

int main(int argc, char **argv)
{
    const int contacts = atoi(argv[1]), steps = atoi(argv[2]);
    const double approach = atof(argv[3]), amplitude = atof(argv[4]), two_pi = 6.283185307179586;
    hertz2d_pair pair = {0.035, 0.035, 10e9, 10e9, 0.25, 0.25, 0.3};
    double *history = calloc((size_t)contacts * HERTZ2D_HISTORY_SIZE, sizeof(double));
    double *previous = calloc((size_t)contacts, sizeof(double)), checksum = 0.0;
    long sliding = 0;
    int c, k;
    clock_t start;
    hertz2d_state s;
    /* the increments, computed outside the timed loop */
    double *normal = malloc((size_t)steps * contacts * sizeof(double));
    double *tangential = malloc((size_t)steps * contacts * sizeof(double));
    for (k = 0; k < steps; ++k)
        for (c = 0; c < contacts; ++c) {
            double phase = (double)c / contacts, u;
            normal[(size_t)k * contacts + c] =
                approach * (1.0 + 0.3 * sin(two_pi * (k / 97.0 + phase)));
            u = amplitude * sin(two_pi * (k / 61.0 + 2.0 * phase));
            tangential[(size_t)k * contacts + c] = u - previous[c];
            previous[c] = u;
        }
    start = clock();
    for (k = 0; k < steps; ++k)
        for (c = 0; c < contacts; ++c) {
            if (hertz2d_contact(&pair, normal[(size_t)k * contacts + c],
                                tangential[(size_t)k * contacts + c],
                                history + (size_t)c * HERTZ2D_HISTORY_SIZE, &s) != HERTZ2D_OK)
                return 1;
            checksum += s.T;
            sliding += s.slipping;
        }
    printf("%.6g %.6g %.17g\n", (double)(clock() - start) / CLOCKS_PER_SEC * 1e9
                                    / ((double)contacts * steps),
           (double)sliding / ((double)contacts * steps), checksum);
    return 0;
}
"""


def path_scales() -> tuple[float, float]:
    """The approach of a/R = 0.02 and 0.8 times the calibrated law's full-slip displacement."""
    pair = ContactPair.discs(0.035, 10e9, 0.25, 0.3)
    a = 0.02 * 0.035
    N = math.pi * float(pair.modulus) * a * a / (4.0 * float(pair.radius))
    coefficients = CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS)
    slip = 0.3 * N / (math.pi * float(pair.modulus)) * float(
        curve_constants(pair, a, coefficients).B)
    return N / float(normal_stiffness(pair, a)), 0.8 * slip


def main_benchmark() -> None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    approach, amplitude = path_scales()
    print(f"load average {os.getloadavg()[0]:.1f}; {CONTACTS} contacts x {STEPS} steps, "
          f"approach {approach:.4g} m, tangential amplitude {amplitude:.4g} m")
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        for law in ("simplified", "calibrated"):
            out = folder / law
            with contextlib.redirect_stdout(io.StringIO()):  # the export's summary
                assert main(["export-law", "--law", law, "--results", str(folder / "none"),
                             "--out", str(out)]) == 0
            (out / "bench.c").write_text(PROGRAM)
            subprocess.run([compiler, "-std=c99", "-O2", f"-I{out}", str(out / "bench.c"), "-o",
                            str(out / "bench"), "-lm"], check=True)
            done = subprocess.run([str(out / "bench"), str(CONTACTS), str(STEPS), repr(approach),
                                   repr(amplitude)], capture_output=True, text=True, check=True)
            ns, sliding, _ = done.stdout.split()
            print(f"{law}: {float(ns):.0f} ns per contact step (CPU), {float(sliding):.1%} of "
                  "the steps in full slip")


if __name__ == "__main__":
    main_benchmark()
