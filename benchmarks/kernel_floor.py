"""The floor of a contact step's cost: a C microbenchmark of the best Table 1 kernel one can write
(run: ``python benchmarks/kernel_floor.py``).

Exports the simplified law (Eq. 33) and the calibrated law with ``hertz2d export-law`` into a
temporary folder and compiles one C program (``cc -O3 -march=native -fno-math-errno``; a
translation unit per law's header) that times, on the same contacts, each kernel as
a loop over them (ns per contact step, process CPU time; the minimum of ``--runs`` interleaved
runs of ``--steps`` steps each, the median beside it). Every kernel writes its results to arrays,
as a DEM does: a sum over the contacts would chain the loop's iterations (floating-point
addition is not reassociated) and keep it from vectorising. The kernels:

- ``spring``: the linear spring, ``N = kn delta``, ``T = clip(T + kt d, -mu N, mu N)``;
- ``table inverse``: only ``u = -W_{-1}(-z)`` from the header's table (``hertz2d_normal_root``);
- ``W_{-1}``: only ``u`` from the header's ``hertz2d_lambert_w_minus1``;
- ``log``: only libm's ``log(z)``, for scale;
- ``header step``: the header's whole ``hertz2d_contact_prepared`` per contact (its history T and
  kt, its checks and status codes);
- ``Table 1, split``: the header step's arithmetic (the table inverse, N, a and dN/d(delta)
  from u, kt of Eq. 31 from ``log a = (C - u)/2``, the trapezoidal capped Eq. 32 with the
  previous kt kept), written as three loops over the contacts (u; N, a and the tangent; kt and
  T) so that each vectorises, the material's terms of Eq. 33 and 1/R taken out of the loop (the
  same values to rounding), with no per-contact checks (every contact touching, as in a loop
  over touching contacts) and the trapezoid every step (the approaches are held, so the header
  takes it too after a contact's first step);
- ``Table 1, fused``: the same in one loop;
- ``calibrated, header step``: the calibrated law's header (``hertz2d export-law --law
  calibrated``, the shipped coefficients: a second translation unit, :data:`CALIBRATED_PROGRAM`)
  and its whole ``hertz2d_contact_prepared`` per contact (checks, coupling term, the traction's
  stored energy every step);
- ``calibrated, floor``: the best calibrated kernel we can write: u by the table inverse, N, a,
  dN/d(delta) and (C1)'s B in loops over the contacts, then per contact the header's tangential
  step with memory (``hertz2d_tangential_step``, the law's own arithmetic and the only branchy
  part: a cheaper one would be another law) and the coupling term;
  no stored energy (a DEM ledger needs it only when it is read), no checks. Checked against the
  header's step (T to 1e-12 of mu N over 200 steps from new contacts) before the timings; the
  last line gives its ratio to Table 1's floor (the faster of split and fused).

The contacts: ``--contacts`` (2048) disc pairs of the paper's disc (R = 0.035 m, E 10 GPa, nu
0.25, mu 0.3), approaches log-uniform between 1e-6 and 1e-3 R (a settled bed's range), a
tangential increment per step of 1e-3 of the full-slip displacement alternating in sign every 37
steps (stick, slip and reversals; the calibrated law's memory then holds about five traction
pieces, the number printed). The split kernel's results are checked against the header's
(T to 1e-12 of mu N) before the timings. The table is also written to
``benchmarks/results/kernel_floor.json`` with the date, the machine and the load average.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hertz2d.calibration.cli import main  # noqa: E402
from benchmarks import record  # noqa: E402


#: the normal law's loops of both laws' floor kernels (each program is compiled against its own
#: law's header): u by the table inverse, then N, a and dN/d(delta) of every contact
NORMAL_LOOPS = r"""
static inline void normal_loops(int n, double scale, double pe, double four_r,
                                const double *restrict delta, double *restrict u,
                                double *restrict N, double *restrict a, double *restrict tangent)
{
    for (int i = 0; i < n; ++i)
        u[i] = hertz2d_normal_root(scale * delta[i]);
    for (int i = 0; i < n; ++i) {
        double inverse = 1.0 / u[i];
        N[i] = pe * delta[i] * inverse;
        a[i] = sqrt(four_r * delta[i] * inverse);
        tangent[i] = pe / (u[i] - 1.0);
    }
}
"""

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "hertz2d_law.h"
""" + NORMAL_LOOPS + r"""

static double seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* the calibrated law's kernels (CALIBRATED_PROGRAM, its own header) */
void calibrated_setup(int count, const double *approach, const double *increment);
double calibrated_header(int step);
double calibrated_floor(int step);
double calibrated_difference(void);
double calibrated_pieces(void);

typedef struct {
    int n;
    double *delta, *d, *T, *kt, *u, *N, *a, *tangent, *sink;
} contacts;

static double spring(contacts *c, int step, double kn, double kt, double mu)
{
    const double sign = (step / 37) % 2 ? -1.0 : 1.0;
    for (int i = 0; i < c->n; ++i) {
        double N = kn * c->delta[i], bound = mu * N, trial = c->T[i] + kt * sign * c->d[i];
        c->T[i] = trial > bound ? bound : (trial < -bound ? -bound : trial);
        c->N[i] = N;
    }
    return c->T[0];
}

static double inverse_only(contacts *c, double scale)
{
    for (int i = 0; i < c->n; ++i)
        c->u[i] = hertz2d_normal_root(scale * c->delta[i]);
    return c->u[0];
}

static double lambert_only(contacts *c, double scale)
{
    for (int i = 0; i < c->n; ++i)
        c->u[i] = -hertz2d_lambert_w_minus1(-scale * c->delta[i]);
    return c->u[0];
}

static double log_only(contacts *c, double scale)
{
    for (int i = 0; i < c->n; ++i)
        c->u[i] = log(scale * c->delta[i]);
    return c->u[0];
}

static double header_step(contacts *c, int step, const hertz2d_pair *p, const hertz2d_prepared *q,
                          double *history)
{
    const double sign = (step / 37) % 2 ? -1.0 : 1.0;
    hertz2d_state s;
    for (int i = 0; i < c->n; ++i) {
        if (hertz2d_contact_prepared(p, q, c->delta[i], sign * c->d[i], history + HERTZ2D_HISTORY_SIZE * i, &s)
            != HERTZ2D_OK)
            exit(3);
        c->sink[i] = s.T;
        c->N[i] = s.N;
    }
    return c->sink[0];
}

/* One body's Eq. 31 bracket from L = log(4R/a) and x = a/R, its material's terms given:
 * w = w_nu + x (w_x + w_xx x) clipped to [0, 1] (Eq. 33's form), nu/(2(1 - nu)) as nu_term.
 * The clips are comparisons, not fmin/fmax: with those, gcc does not vectorise the loop */
static inline double bracket(double L, double x, double w_nu, double w_x, double w_xx,
                             double nu_term)
{
    double w = w_nu + x * (w_x + w_xx * x);
    w = w < 0.0 ? 0.0 : (w > 1.0 ? 1.0 : w);
    return L - HERTZ2D_LOG_2 + 0.5 + w * (L + nu_term);
}

/* Table 1's step in three loops; k's constants (one size of disc) */
static double split_step(contacts *c, int step, const hertz2d_pair *p, const hertz2d_constants *k)
{
    const double sign = (step / 37) % 2 ? -1.0 : 1.0;
    const double scale = 4.0 * k->radius * k->exp_minus_C, pe = HERTZ2D_PI * k->modulus;
    const double four_r = 4.0 * k->radius, mu = p->mu, half_C = 0.5 * k->C;
    const double inv_R1 = 1.0 / p->R1, inv_R2 = 1.0 / p->R2;
    const double w1 = HERTZ2D_W_C0 + HERTZ2D_W_C2 * p->nu1 + HERTZ2D_W_C5 * p->nu1 * p->nu1;
    const double w2 = HERTZ2D_W_C0 + HERTZ2D_W_C2 * p->nu2 + HERTZ2D_W_C5 * p->nu2 * p->nu2;
    const double x1 = HERTZ2D_W_C1 + HERTZ2D_W_C4 * p->nu1, x2 = HERTZ2D_W_C1 + HERTZ2D_W_C4 * p->nu2;
    const double t1 = p->nu1 / (2.0 * (1.0 - p->nu1)), t2 = p->nu2 / (2.0 * (1.0 - p->nu2));
    const int n = c->n;
    double *restrict u = c->u, *restrict N = c->N, *restrict a = c->a;
    double *restrict tangent = c->tangent, *restrict T = c->T, *restrict kt = c->kt;
    const double *restrict delta = c->delta, *restrict d = c->d;
    /* k's members as locals: read through k in the loop, gcc does not vectorise it */
    const double omega1 = k->omega1, omega2 = k->omega2;
    const double log_4R1 = k->log_4R1, log_4R2 = k->log_4R2;
    normal_loops(n, scale, pe, four_r, delta, u, N, a, tangent);
    for (int i = 0; i < n; ++i) {
        double log_a = half_C - 0.5 * u[i];
        double B = omega1 * bracket(log_4R1 - log_a, a[i] * inv_R1, w1, x1, HERTZ2D_W_C3, t1)
                   + omega2 * bracket(log_4R2 - log_a, a[i] * inv_R2, w2, x2, HERTZ2D_W_C3, t2);
        double k_new = pe / B;
        double k_step = kt[i] > 0.0 ? 0.5 * (kt[i] + k_new) : k_new;
        double bound = mu * N[i], trial = T[i] + k_step * sign * d[i];
        T[i] = trial > bound ? bound : (trial < -bound ? -bound : trial);
        kt[i] = k_new;
    }
    return T[0];
}

static double fused_step(contacts *c, int step, const hertz2d_pair *p, const hertz2d_constants *k)
{
    const double sign = (step / 37) % 2 ? -1.0 : 1.0;
    const double scale = 4.0 * k->radius * k->exp_minus_C, pe = HERTZ2D_PI * k->modulus;
    const double four_r = 4.0 * k->radius, mu = p->mu;
    for (int i = 0; i < c->n; ++i) {
        double u = hertz2d_normal_root(scale * c->delta[i]), inverse = 1.0 / u;
        double N = pe * c->delta[i] * inverse, a = sqrt(four_r * c->delta[i] * inverse);
        double k_new = hertz2d_stiffness_of_log(p, k, a, 0.5 * (k->C - u));
        double k_step = c->kt[i] > 0.0 ? 0.5 * (c->kt[i] + k_new) : k_new;
        double bound = mu * N, trial = c->T[i] + k_step * sign * c->d[i];
        c->T[i] = trial > bound ? bound : (trial < -bound ? -bound : trial);
        c->kt[i] = k_new;
        c->N[i] = N;
        c->tangent[i] = pe / (u - 1.0);
    }
    return c->T[0];
}

int main(int argc, char **argv)
{
    const int n = atoi(argv[1]), steps = atoi(argv[2]), runs = atoi(argv[3]);
    hertz2d_pair p = {0.035, 0.035, 10e9, 10e9, 0.25, 0.25, 0.3};
    hertz2d_prepared q;
    hertz2d_constants *k = &q.normal;
    contacts c;
    double kn = 2.7e9, kts = 1.5e9, check = 0.0, worst = 0.0;
    double *history = calloc(HERTZ2D_HISTORY_SIZE * (size_t)n, sizeof(double));
    double **fields[] = {&c.delta, &c.d, &c.T, &c.kt, &c.u, &c.N, &c.a, &c.tangent, &c.sink};
    double best[9], all[9][64], calibrated_worst = 0.0, pieces = 0.0;
    const char *names[9] = {"spring", "table inverse", "W_{-1}", "log", "header step",
                            "Table 1, split", "Table 1, fused", "calibrated, header step",
                            "calibrated, floor"};
    c.n = n;
    for (int f = 0; f < 9; ++f)
        *fields[f] = calloc((size_t)n, sizeof(double));
    hertz2d_prepare_materials(&p, 0, &q);
    hertz2d_prepare_sizes(&p, log(4.0 * p.R1), log(4.0 * p.R2), &q);
    srand(1);
    for (int i = 0; i < n; ++i) {
        double fraction = 1e-6 * pow(1e3, (double)rand() / RAND_MAX), N, a, u;
        c.delta[i] = fraction * p.R1;
        hertz2d_normal_solve(&p, k, c.delta[i], &N, &a, &u);
        c.d[i] = 1e-3 * p.mu * N / hertz2d_stiffness_of_log(&p, k, a, 0.5 * (k->C - u));
    }
    /* the split kernel against the header, step by step, from the header's first step (a new
     * contact's stiffness is kt's mean over its first step: hertz2d_step_stiffness) */
    header_step(&c, 0, &p, &q, history);
    for (int i = 0; i < n; ++i) {
        c.T[i] = history[HERTZ2D_HISTORY_SIZE * i];
        c.kt[i] = history[HERTZ2D_HISTORY_SIZE * i + 1];
    }
    for (int s = 1; s < 200; ++s) {
        header_step(&c, s, &p, &q, history);
        split_step(&c, s, &p, k);
        for (int i = 0; i < n; ++i) {
            double e = fabs(c.T[i] - c.sink[i]) / (p.mu * c.N[i]);
            worst = e > worst ? e : worst;
        }
    }
    if (!(worst <= 1e-12)) {
        printf("split kernel differs from the header: %g of mu N\n", worst);
        return 2;
    }
    /* the calibrated floor against its header's step, step by step from new contacts */
    calibrated_setup(n, c.delta, c.d);
    for (int s = 0; s < 200; ++s) {
        calibrated_header(s);
        calibrated_floor(s);
        double e = calibrated_difference();
        calibrated_worst = e > calibrated_worst ? e : calibrated_worst;
    }
    if (!(calibrated_worst <= 1e-12)) {
        printf("calibrated floor differs from its header: %g of mu N\n", calibrated_worst);
        return 2;
    }
    for (int r = 0; r < runs; ++r)
        for (int j = 0; j < 9; ++j) {
            double start = seconds();
            for (int s = 0; s < steps; ++s) {
                switch (j) {
                case 0: check += spring(&c, s, kn, kts, p.mu); break;
                case 1: check += inverse_only(&c, 4.0 * k->radius * k->exp_minus_C); break;
                case 2: check += lambert_only(&c, 4.0 * k->radius * k->exp_minus_C); break;
                case 3: check += log_only(&c, 4.0 * k->radius * k->exp_minus_C); break;
                case 4: check += header_step(&c, s, &p, &q, history); break;
                case 5: check += split_step(&c, s, &p, k); break;
                case 6: check += fused_step(&c, s, &p, k); break;
                case 7: check += calibrated_header(s); break;
                default: check += calibrated_floor(s); break;
                }
            }
            all[j][r] = (seconds() - start) * 1e9 / ((double)steps * n);
        }
    for (int j = 0; j < 9; ++j) {
        double sorted[64];
        for (int r = 0; r < runs; ++r)
            sorted[r] = all[j][r];
        for (int r = 1; r < runs; ++r)
            for (int s = r; s > 0 && sorted[s] < sorted[s - 1]; --s) {
                double t = sorted[s];
                sorted[s] = sorted[s - 1];
                sorted[s - 1] = t;
            }
        best[j] = sorted[0];
        printf("%s|%.3f|%.3f\n", names[j], best[j], sorted[runs / 2]);
    }
    pieces = calibrated_pieces() / n;
    printf("check|%.6g|%.3g|%.3g|%.3g\n", check, worst, calibrated_worst, pieces);
    return 0;
}
"""

#: the calibrated law's kernels, a second translation unit compiled against its own header (every
#: header function is static inline, so the two headers' names do not meet at link time)
CALIBRATED_PROGRAM = r"""
#include <stdlib.h>
#include "hertz2d_law.h"
""" + NORMAL_LOOPS + r"""

static hertz2d_pair pair = {0.035, 0.035, 10e9, 10e9, 0.25, 0.25, 0.3};
static hertz2d_prepared q;
static int n;
static const double *delta, *d;
static double *history, *u, *N, *a, *tangent, *B, *slope, *T, *sink, *normal, *stiffness;

/* the same contacts as the Table 1 rows; the header's step and the floor kernel each keep a
 * history per contact */
void calibrated_setup(int count, const double *approach, const double *increment)
{
    double **fields[] = {&u, &N, &a, &tangent, &B, &slope, &T, &sink, &normal, &stiffness};
    n = count;
    delta = approach;
    d = increment;
    history = calloc(2 * HERTZ2D_HISTORY_SIZE * (size_t)n, sizeof(double));
    for (int f = 0; f < 10; ++f)
        *fields[f] = calloc((size_t)n, sizeof(double));
    hertz2d_prepare_materials(&pair, 0, &q);
    hertz2d_prepare_sizes(&pair, log(4.0 * pair.R1), log(4.0 * pair.R2), &q);
}

/* the header's whole step per contact (its checks, the coupling term and the stored energy) */
double calibrated_header(int step)
{
    const double sign = (step / 37) % 2 ? -1.0 : 1.0;
    hertz2d_state s;
    for (int i = 0; i < n; ++i) {
        if (hertz2d_contact_prepared(&pair, &q, delta[i], sign * d[i],
                                     history + HERTZ2D_HISTORY_SIZE * i, &s) != HERTZ2D_OK)
            exit(3);
        sink[i] = s.T;
        normal[i] = s.N;
    }
    return sink[0];
}

/* the floor: u by the table inverse; N, a, dN/d(delta) and (C1)'s B and slope in loops over
 * the contacts; the header's tangential step with memory and the coupling term per contact;
 * no stored energy (a DEM ledger needs it only when read), no checks */
double calibrated_floor(int step)
{
    const double sign = (step / 37) % 2 ? -1.0 : 1.0;
    const hertz2d_pair p = pair;  /* local copies: the stores below cannot alias them */
    const hertz2d_prepared prepared = q;
    const hertz2d_constants *k = &prepared.normal;
    const double scale = 4.0 * k->radius * k->exp_minus_C, pe = HERTZ2D_PI * k->modulus;
    const double four_r = 4.0 * k->radius, mu = p.mu, wall = prepared.wall ? 1.0 : 0.0;
    double *own = history + HERTZ2D_HISTORY_SIZE * (size_t)n;
    hertz2d_state s;
    normal_loops(n, scale, pe, four_r, delta, u, N, a, tangent);
    for (int i = 0; i < n; ++i)
        B[i] = hertz2d_curve(&p, k, prepared.beta, wall, prepared.kappa, a[i],
                             0.5 * (k->C - u[i]), &slope[i]);
    for (int i = 0; i < n; ++i) {
        /* discs of one material: no extra slip of Spence's locked-in shear */
        hertz2d_tangential_step(own + HERTZ2D_HISTORY_SIZE * i, N[i], a[i], sign * d[i], mu,
                                k->modulus, B[i], prepared.kappa, slope[i], 0.0, 0.0, &s);
        T[i] = s.T;
        normal[i] = N[i] - s.T * s.T * slope[i] * tangent[i] / (4.0 * N[i] * pe);
        stiffness[i] = s.kt;
    }
    return T[0];
}

/* the floor's T against the header's, over mu N (after a step of each) */
double calibrated_difference(void)
{
    double worst = 0.0;
    for (int i = 0; i < n; ++i) {
        double e = fabs(T[i] - sink[i]) / (pair.mu * N[i]);
        worst = e > worst ? e : worst;
    }
    return worst;
}

/* the pieces the floor's contacts hold, summed */
double calibrated_pieces(void)
{
    double total = 0.0;
    for (int i = 0; i < n; ++i)
        total += history[HERTZ2D_HISTORY_SIZE * ((size_t)n + i)];
    return total;
}
"""

#: -fno-math-errno: sqrt need not set errno (no kernel reads it), so gcc vectorises the loops
#: that take it
FLAGS = ["-std=c99", "-O3", "-march=native", "-fno-math-errno"]


def main_benchmark() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contacts", type=int, default=2048)
    parser.add_argument("--steps", type=int, default=500, help="steps per timed run (500)")
    parser.add_argument("--runs", type=int, default=7, help="interleaved runs, <= 64 (7)")
    args = parser.parse_args()
    compiler = shutil.which("cc") or shutil.which("gcc")
    started = record.load_average()
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}; "
          f"{compiler} {' '.join(FLAGS)}; {args.contacts} contacts, {args.runs} interleaved runs "
          f"of {args.steps} steps")
    with tempfile.TemporaryDirectory() as folder:
        objects = []
        for law, source in (("simplified", PROGRAM), ("calibrated", CALIBRATED_PROGRAM)):
            out = Path(folder) / law
            with contextlib.redirect_stdout(io.StringIO()):
                assert main(["export-law", "--law", law, "--results", str(Path(folder) / "none"),
                             "--out", str(out)]) == 0
            (out / "floor.c").write_text(source)
            objects.append(str(out / "floor.o"))
            subprocess.run([compiler, *FLAGS, f"-I{out}", "-c", str(out / "floor.c"), "-o",
                            objects[-1]], check=True)
        program = str(Path(folder) / "floor")
        subprocess.run([compiler, *objects, "-o", program, "-lm"], check=True)
        done = subprocess.run([program, str(args.contacts), str(args.steps),
                               str(min(64, max(1, args.runs)))], capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(done.stdout + done.stderr)
    rows = [line.split("|") for line in done.stdout.split("\n") if line]
    times = {name: (float(best), float(median)) for name, best, median in rows[:-1]}
    spring = times["spring"][0]
    print(f"{'kernel':<24} {'ns/contact':>10} {'median':>8} {'/ spring':>9}")
    for name, (best, median) in times.items():
        print(f"{name:<24} {best:>10.2f} {median:>8.2f} {best / spring:>9.2f}")
    check = rows[-1]
    print(f"(split kernel vs header: T within {float(check[2]):.2g} of mu N over 200 steps, the "
          f"calibrated floor vs its header's step within {float(check[3]):.2g}; the calibrated "
          f"contacts hold {float(check[4]):.2f} pieces on average at the end; "
          f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())})")
    ratio = times["calibrated, floor"][0] / min(times["Table 1, split"][0],
                                                times["Table 1, fused"][0])
    print(f"calibrated floor / Table 1's floor: {ratio:.2f}")
    record.write("kernel_floor", [{"kernel": name, "ns_fastest": best, "ns_median": median}
                                  for name, (best, median) in times.items()], started,
                 compiler=" ".join([Path(compiler).name, *FLAGS]), contacts=args.contacts,
                 steps=args.steps, runs=args.runs, calibrated_pieces=float(check[4]),
                 calibrated_floor_over_table1=ratio)


if __name__ == "__main__":
    main_benchmark()
