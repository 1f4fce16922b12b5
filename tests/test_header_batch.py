"""``hertz2d_contacts_prepared``, the exported headers' step of many contacts at once, against one
``hertz2d_contact_prepared`` per contact: the same doubles (compared bit for bit), the same
status codes and histories, for both laws' headers. ``hertz2d_contacts_deferred`` (the energy
left to the host) gives the same doubles but the energy, whose parts
(``hertz2d_energy_parts``) made whole from the history (``hertz2d_whole_energy``) are the
one-contact step's energy to rounding.

The contacts are more than one batch (``HERTZ2D_BATCH``), of random radii and materials, disc
pairs and walls, stepped along random paths that open and re-close, step beyond the largest
approach (``HERTZ2D_BEYOND_RANGE``) and carry a zero radius (``HERTZ2D_BAD_PARAMETER``), so every
branch of the batch (the normal solves, a failure's NaNs and untouched history, new contacts)
meets its one-contact twin.
"""
import shutil
import subprocess

import pytest

from hertz2d.calibration.cli import main

#: steps every contact of a random set one at a time, in a batch and in a deferred batch, and
#: prints "contacts C steps S differences D failures F energy E" (D: outputs but the deferred
#: energy, statuses or histories that differ bit for bit; F: failed steps, so the test can see the
#: failure branches were taken; E: the largest difference of the deferred energy made whole from
#: the one-contact step's, over the largest energy of the run)
DRIVER = r"""
#include <stdio.h>
#include <string.h>
#include "hertz2d_law.h"

#define CONTACTS (2 * HERTZ2D_BATCH + 37)
#define STEPS 60

static unsigned long long seed = 88172645463325252ull;
static double uniform(void) /* xorshift64 in [0, 1) */
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return (double)(seed >> 11) * (1.0 / 9007199254740992.0);
}

static int differ(double x, double y) { return memcmp(&x, &y, sizeof x) != 0; }

static int states_differ(const hertz2d_state *x, const hertz2d_state *y, int energy)
{
    return differ(x->N, y->N) || differ(x->T, y->T) || differ(x->a, y->a) || differ(x->kn, y->kn)
           || differ(x->kt, y->kt) || differ(x->kn_tangent, y->kn_tangent)
           || differ(x->coupling, y->coupling) || (energy && differ(x->energy, y->energy))
           || x->slipping != y->slipping
#ifdef HERTZ2D_PIECES
           || differ(x->front, y->front)
#endif
        ;
}

static hertz2d_pair pairs[CONTACTS];
static hertz2d_prepared prepared[CONTACTS];
static double one[CONTACTS][HERTZ2D_HISTORY_SIZE], many[CONTACTS][HERTZ2D_HISTORY_SIZE];
static double later[CONTACTS][HERTZ2D_HISTORY_SIZE], *deferred_histories[CONTACTS];
static double *histories[CONTACTS], delta[CONTACTS], increment[CONTACTS], largest[CONTACTS];
static hertz2d_state single[CONTACTS], batch[CONTACTS], deferred[CONTACTS];
static int status[CONTACTS], deferred_status[CONTACTS], expected[CONTACTS];

int main(void)
{
    int c, k, step, differences = 0, failures = 0;
    double plain, weight, whole, energy_scale = 0.0, energy_difference = 0.0;
    for (c = 0; c < CONTACTS; ++c) {
        const int wall = c % 5 == 0;
        hertz2d_pair p;
        p.R1 = 0.01 + 0.09 * uniform();
        p.R2 = wall || c == 7 ? p.R1 : 0.01 + 0.09 * uniform();
        p.E1 = 1e9 * (5.0 + 70.0 * uniform());
        p.E2 = wall ? p.E1 : 1e9 * (5.0 + 70.0 * uniform());
        p.nu1 = 0.45 * uniform();
        p.nu2 = wall ? p.nu1 : 0.45 * uniform();
        p.mu = 0.05 + uniform();
        pairs[c] = p;
        if (hertz2d_prepare_materials(&p, wall, &prepared[c]) != HERTZ2D_OK)
            return 3;
        hertz2d_prepare_sizes(&p, log(4.0 * p.R1), log(4.0 * p.R2), &prepared[c]);
        if (c % 2) /* a time step for half of them: the simplified law's trapezoid, now and then */
            hertz2d_prepare_step(1e-6 * (1.0 + uniform()), 1.0, &prepared[c]);
        largest[c] = hertz2d_max_normal_approach(&p) / (wall ? 2.0 : 1.0);
        histories[c] = many[c];
        deferred_histories[c] = later[c];
    }
    for (step = 0; step < STEPS; ++step) {
        for (c = 0; c < CONTACTS; ++c) {
            const double r = uniform();
            /* mostly small approaches that drift; now and then open, beyond the largest */
            delta[c] = r < 0.05 ? -1e-6 : r < 0.07 ? 1.5 * largest[c]
                                        : 1e-6 * pairs[c].R1 * (1.0 + 20.0 * uniform());
            increment[c] = 1e-7 * pairs[c].R1 * (2.0 * uniform() - 1.0);
        }
        pairs[7].R2 = step == 7 ? 0.0 : pairs[7].R1; /* one step with a zero radius */
        for (c = 0; c < CONTACTS; ++c)
            expected[c] = hertz2d_contact_prepared(&pairs[c], &prepared[c], delta[c],
                                                   increment[c], one[c], &single[c]);
        hertz2d_contacts_prepared(CONTACTS, pairs, prepared, delta, increment, histories, batch,
                                  status);
        hertz2d_contacts_deferred(CONTACTS, pairs, prepared, delta, increment,
                                  deferred_histories, deferred, deferred_status);
        for (c = 0; c < CONTACTS; ++c) {
            failures += expected[c] != HERTZ2D_OK;
            differences += status[c] != expected[c] || states_differ(&single[c], &batch[c], 1);
            differences += deferred_status[c] != expected[c]
                           || states_differ(&single[c], &deferred[c], 0);
            for (k = 0; k < HERTZ2D_HISTORY_SIZE; ++k)
                differences += differ(one[c][k], many[c][k]) + differ(one[c][k], later[c][k]);
            if (expected[c] != HERTZ2D_OK)
                continue;
            hertz2d_energy_parts(&deferred[c], &plain, &weight);
            whole = hertz2d_whole_energy(later[c], deferred[c].a, plain, weight);
            energy_scale = fmax(energy_scale, fabs(hertz2d_tangential_energy(&single[c])));
            energy_difference = fmax(energy_difference,
                                     fabs(whole - hertz2d_tangential_energy(&single[c])));
        }
    }
    printf("contacts %d steps %d differences %d failures %d energy %.3g\n", CONTACTS, STEPS,
           differences, failures, energy_difference / energy_scale);
    return 0;
}
"""


@pytest.fixture(scope="module", params=["simplified", "calibrated"])
def header(request, tmp_path_factory):
    """The exported header of each law."""
    out = tmp_path_factory.mktemp(request.param)
    results = tmp_path_factory.mktemp("empty-results")
    assert main(["export-law", "--law", request.param, "--results", str(results), "--out",
                 str(out)]) == 0
    return out / "hertz2d_law.h"


def test_many_contacts_at_once_are_the_one_contact_steps_bit_for_bit(strict_c99, header,
                                                                     tmp_path):
    shutil.copy(header, tmp_path)
    run = subprocess.run([str(strict_c99.build(tmp_path, "batch", DRIVER))], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    words = run.stdout.split()[1::2]
    contacts, steps, differences, failures = (int(word) for word in words[:4])
    assert contacts > 512 and steps == 60 and differences == 0, run.stdout
    assert float(words[4]) < 1e-13, run.stdout  # the deferred energy, to rounding
    # the failure branches were taken: about 2 % of the steps beyond the largest approach
    assert 0.01 * contacts * steps < failures < 0.05 * contacts * steps, run.stdout
