"""``hertz2d export-law --law calibrated``: law.json round-trips, the C99 header reproduces the
Python law's histories.

The header is compiled here with the system C compiler (strict C99) and run, contact by contact,
on the exported test vectors made by ``calibrated_update``: every output to 1e-12 relative (T
relative to mu N, the scale of the sum it is computed as: T passes through zero at every
reversal). The vectors themselves are checked to reach what they claim (walls, dissimilar
pairs, reversals, full slip both ways, N rising and falling, opening and re-closing, merged
pieces), and to tell the wall's own Dundurs constant from the mirror pair's, so a port that
missed any of these could not pass them.
"""
import json
import math
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from hertz2d.calibration.cli import main
from hertz2d.calibration.laws import ContactPair
from hertz2d.calibration.laws import calibrated_kernel as kernel
from hertz2d.calibration.laws.calibrated import (CalibratedCoefficients, CalibratedState,
                                         SHIPPED_COEFFICIENTS, calibrated_update)
from hertz2d.calibration.export.calibrated_law_file import (CONSTANTS, HISTORY_SIZE, LAW_ID,
                                                  calibrated_law_description, read_calibrated_law)
from hertz2d.calibration.export.history_vectors import COLUMNS, PATHS, history_vectors
from hertz2d.checks import InputError

TOLERANCE = 1e-12

#: runs the header on every contact of test_vectors.csv from a zero history, step by step, and
#: prints the largest relative differences (T: relative to mu N, and on its own; the slip front,
#: a position in [0, a], relative to a: near the centre it is a small difference of two lengths;
#: kt, which follows log(front), relative to itself times a/front where a front is inside)
DRIVER = r"""
#include <stdio.h>
#include <string.h>
#include "hertz2d_law.h"

#define OUTPUTS 8
static const char *NAMES[OUTPUTS + 1] = {"N", "T", "a", "kn", "kt", "kn_tangent", "front",
                                         "energy", "T_own"};
static double worst[OUTPUTS + 1];

static double relative(double got, double want, double scale)
{
    double difference = fabs(got - want);
    if (got != got || want != want)
        return HUGE_VAL;
    return scale > 0.0 ? difference / scale : difference; /* absolute where the scale is 0 */
}

int main(int argc, char **argv)
{
    const char *expected = "contact,step,wall,R1,R2,E1,E2,nu1,nu2,mu,delta_n,d_delta_t,"
                           "N,T,a,kn,kt,kn_tangent,front,slipping,energy\n";
    char line[1024];
    double R1, R2, E1, E2, nu1, nu2, mu, dn, ddt, want[OUTPUTS], got[OUTPUTS], error;
    double history[HERTZ2D_HISTORY_SIZE];
    int contact, step, wall, slipping, rows = 0, failures = 0, own = 0, status, k;
    int current = -1;
    hertz2d_state s;
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (f == NULL || fgets(line, sizeof line, f) == NULL || strcmp(line, expected) != 0) {
        printf("bad vector file or header\n");
        return 3;
    }
    while (fscanf(f, "%d,%d,%d,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,"
                     "%lf,%d,%lf", &contact, &step, &wall, &R1, &R2, &E1, &E2, &nu1, &nu2, &mu,
                  &dn, &ddt, &want[0], &want[1], &want[2], &want[3], &want[4], &want[5],
                  &want[6], &slipping, &want[7]) == 21) {
        hertz2d_pair pair = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
        int bad = 0;
        pair.R1 = R1; pair.R2 = R2; pair.E1 = E1; pair.E2 = E2;
        pair.nu1 = nu1; pair.nu2 = nu2; pair.mu = mu;
        ++rows;
        if (contact != current) { /* a new contact: from a zero history, at step 0 */
            bad += step != 0;
            current = contact;
            for (k = 0; k < HERTZ2D_HISTORY_SIZE; ++k)
                history[k] = 0.0;
        }
        status = wall ? hertz2d_wall_contact(R1, E1, nu1, mu, dn, ddt, history, &s)
                      : hertz2d_contact(&pair, dn, ddt, history, &s);
        got[0] = s.N; got[1] = s.T; got[2] = s.a; got[3] = s.kn; got[4] = s.kt;
        got[5] = s.kn_tangent; got[6] = s.front; got[7] = s.energy;
        for (k = 0; k < OUTPUTS; ++k) {
            /* T relative to mu N; the front to a; kt (which follows the log of the front's
               position) to itself times a/front where a front is inside; the stored energy to
               mu N's traction's at the stick stiffness kn (an energy scale that does not pass
               through zero) */
            error = relative(got[k], want[k], k == 1 ? mu * want[0]
                                              : k == 6 ? want[2]
                                              : k == 4 && want[6] > 0.0 && want[6] < want[2]
                                                  ? fabs(want[4]) * want[2] / want[6]
                                              : k == 7 ? (mu * want[0]) * (mu * want[0])
                                                             / want[3]
                                              : fabs(want[k]));
            worst[k] = error > worst[k] ? error : worst[k];
            bad += !(error <= TOLERANCE);
        }
        error = relative(got[1], want[1], fabs(want[1]));
        worst[OUTPUTS] = error > worst[OUTPUTS] ? error : worst[OUTPUTS];
        own += !(error <= TOLERANCE);
        if (status != HERTZ2D_OK || bad || s.slipping != slipping) {
            if (failures++ < 10)
                printf("row %d (contact %d, step %d): status %d N %.17g/%.17g T %.17g/%.17g "
                       "kt %.17g/%.17g front %.17g/%.17g slipping %d/%d\n", rows, contact, step,
                       status, s.N, want[0], s.T, want[1], s.kt, want[4], s.front, want[6],
                       s.slipping, slipping);
        }
    }
    fclose(f);
    printf("rows %d contacts %d failures %d\nworst", rows, current + 1, failures);
    for (k = 0; k <= OUTPUTS; ++k)
        printf(" %s %.2g", NAMES[k], worst[k]);
    printf("\nrows whose T is not within the tolerance of its own size: %d\n", own);
    return failures != 0;
}
"""

#: a step the law cannot take leaves the history as it was (beyond the largest approach, a bad
#: parameter); HERTZ2D_HISTORY_SIZE is the kernel's
FAILURE_DRIVER = r"""
#include <stdio.h>
#include <string.h>
#include "hertz2d_law.h"

int main(void)
{
    hertz2d_pair p = {0.03, 0.05, 10e9, 70e9, 0.25, 0.35, 0.3}, bad_nu = {0.03, 0.05, 10e9, 70e9,
                                                                          0.5, 0.35, 0.3};
    double history[HERTZ2D_HISTORY_SIZE] = {0.0}, kept[HERTZ2D_HISTORY_SIZE];
    hertz2d_state s;
    int k, bad = 0;
    for (k = 0; k < 20; ++k) /* load, then slide: a history worth keeping */
        bad += hertz2d_contact(&p, 1e-5 * (k + 1), k > 5 ? 1e-7 : 0.0, history, &s) != HERTZ2D_OK;
    memcpy(kept, history, sizeof history);
    bad += hertz2d_contact(&p, hertz2d_max_normal_approach(&p), 1e-7, history, &s)
           != HERTZ2D_BEYOND_RANGE;
    bad += s.T == s.T || s.N == s.N || memcmp(kept, history, sizeof history) != 0;
    bad += hertz2d_contact(&bad_nu, 1e-5, 1e-7, history, &s) != HERTZ2D_BAD_PARAMETER;
    bad += s.T == s.T || memcmp(kept, history, sizeof history) != 0;
    bad += hertz2d_wall_contact(0.03, 10e9, 0.25, -0.1, 1e-5, 0.0, history, &s)
           != HERTZ2D_BAD_PARAMETER;
    bad += memcmp(kept, history, sizeof history) != 0;
    printf("history %d bad %d\n", HERTZ2D_HISTORY_SIZE, bad);
    return bad != 0;
}
"""


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """One export of the calibrated law with the shipped coefficients."""
    out = tmp_path_factory.mktemp("calibrated")
    results = tmp_path_factory.mktemp("empty-results")
    assert main(["export-law", "--law", "calibrated", "--results", str(results), "--out",
                 str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def vectors(exported):
    return pd.read_csv(exported / "test_vectors.csv")


def test_c_header_reproduces_the_python_law_step_by_step(strict_c99, exported, vectors,
                                                         tmp_path):
    shutil.copy(exported / "hertz2d_law.h", tmp_path)
    binary = strict_c99.build(tmp_path, "check_histories", DRIVER, [f"-DTOLERANCE={TOLERANCE}"])
    run = subprocess.run([str(binary), str(exported / "test_vectors.csv")], capture_output=True,
                         text=True, timeout=120)
    print(run.stdout)
    assert run.returncode == 0, run.stdout
    assert f"rows {len(vectors)} contacts {vectors.contact.nunique()} failures 0" in run.stdout


def test_a_failed_step_leaves_the_history_and_the_size_is_the_kernels(strict_c99, exported,
                                                                      tmp_path):
    shutil.copy(exported / "hertz2d_law.h", tmp_path)
    run = subprocess.run([str(strict_c99.build(tmp_path, "failures", FAILURE_DRIVER))],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and f"history {kernel.HISTORY} bad 0" in run.stdout, run.stdout


def test_header_alone_compiles_as_strict_c99(strict_c99, exported, tmp_path):
    shutil.copy(exported / "hertz2d_law.h", tmp_path)
    strict_c99.build(tmp_path, "only_header", '#include "hertz2d_law.h"\n'
                     '#include "hertz2d_law.h"\nint main(void) { return 0; }\n', link=False)


def test_vectors_reach_what_they_claim(vectors):
    assert list(vectors.columns) == list(COLUMNS)
    steps = vectors.groupby("contact").step
    assert (steps.min() == 0).all() and (steps.diff().dropna() == 1).all()
    touching = vectors.N > 0
    rubbing = touching & (vectors.mu > 0)
    assert (vectors.wall == 1).any() and (vectors.R1 != vectors.R2).any()
    assert (vectors.E1 != vectors.E2).any() and ((vectors.mu == 0) & touching).sum() > 100
    a_over_R = vectors.a / np.minimum(vectors.R1, vectors.R2)
    assert a_over_R[touching].min() < 0.01 and a_over_R.max() > 0.2
    partial = rubbing & (vectors.front > 0) & (vectors.front < vectors.a)
    assert partial.sum() > 1000
    for sign in (-1, 1):  # full slip both ways
        assert (rubbing & (vectors.slipping == 1) & (np.sign(vectors["T"]) == sign)).sum() > 50
    reversed_contacts = vectors[rubbing].groupby("contact")["T"].agg(
        lambda T: (np.diff(np.sign(T.to_numpy())) != 0).sum())
    assert (reversed_contacts >= 3).sum() > 40
    rising = vectors.groupby("contact").N.diff()
    assert ((rising > 0) & rubbing).sum() > 200 and ((rising < 0) & rubbing).sum() > 200
    reopened = vectors.groupby("contact").N.agg(
        lambda N: ((N.to_numpy()[:-1] == 0) & (N.to_numpy()[1:] > 0)).sum())
    assert (reopened >= 2).sum() > 10  # first touch and a re-closing


def test_the_decaying_path_makes_the_kernel_merge_pieces():
    """Nested reversals need more pieces than a contact keeps: the merge is in the vectors."""
    coefficients = CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS)
    pair = ContactPair(0.03, 0.05, 10e9, 70e9, 0.25, 0.35, 0.3)
    state, most = CalibratedState.unloaded(), 0
    path = PATHS["decaying"]
    for dn, d in zip(path[:, 0] * 1e-5, np.diff(path[:, 1], prepend=0.0) * 2e-7):
        state = calibrated_update(pair, dn, d, state, coefficients)
        most = max(most, int(state.history[0, 0]))
    assert most >= kernel.PIECES - 1


def test_walls_need_the_walls_own_coupling(vectors):
    """The wall rows run as the plain mirror pair (Dundurs' constant 0, no wall term) give
    other forces: the vectors test the wall rule."""
    coefficients = CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS)
    differences = []
    for _, contact in vectors[(vectors.wall == 1) & (vectors.mu > 0)].groupby("contact"):
        first = contact.iloc[0]
        mirror = ContactPair(first.R1, first.R1, first.E1, first.E1, first.nu1, first.nu1,
                             first.mu)
        state = CalibratedState.unloaded()
        for dn, d, T, N in zip(contact.delta_n, contact.d_delta_t, contact["T"], contact.N):
            state = calibrated_update(mirror, 2 * dn, 2 * d, state, coefficients)
            if N > 0:
                differences.append(abs(state.T[0] - T) / (first.mu * N))
    assert np.median(differences) > 1e-3


def test_law_json_round_trips_and_names_its_coefficients(exported):
    coefficients, law = read_calibrated_law(exported / "law.json")
    shipped = CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS)
    assert coefficients == shipped and law["law"] == LAW_ID and law["form"] == "per-body"
    assert law["coefficients"]["source"] == f"shipped: {SHIPPED_COEFFICIENTS}"
    assert law["history"]["size"] == HISTORY_SIZE == kernel.HISTORY
    assert law["constants"] == CONSTANTS
    assert law["formulas"]["branch"]["equation"] == "(C1)"
    assert law["formulas"]["normal-solve"]["equation"] == "Eqs. 4 + 22/23"


def test_the_results_roots_coefficients_and_training_ranges_are_exported(tmp_path, capsys):
    """A ``hertz2d calibrate`` result under --results: its coefficients in law.json, header and
    vectors, its training ranges as the law's validity."""
    shipped = json.loads(SHIPPED_COEFFICIENTS.read_text())
    refit = {name: [v * 1.01 for v in values] for name, values in
             shipped["coefficients"].items()}
    ranges = {"R2_over_R1": [1.0, 10.0], "mu": [0.1, 1.0], "a_over_R": [0.01, 0.2]}
    (tmp_path / "results" / "calibrated").mkdir(parents=True)
    (tmp_path / "results" / "calibrated" / "coefficients.json").write_text(json.dumps(
        {**shipped, "coefficients": refit,
         "training": {"spec": "default", "paths": 12, "ranges": ranges}}))
    assert main(["export-law", "--law", "calibrated", "--results", str(tmp_path / "results"),
                 "--out", str(tmp_path / "law"), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["fit_source"] == "results" and summary["fit"].endswith("coefficients.json")
    coefficients, law = read_calibrated_law(tmp_path / "law" / "law.json")
    assert coefficients.as_dict() == refit
    assert law["validity"]["ranges"] == ranges and law["validity"]["training"]["paths"] == 12
    header = (tmp_path / "law" / "hertz2d_law.h").read_text()
    assert f"#define HERTZ2D_PENALTY_0 {refit['penalty'][0]!r}" in header
    assert "R2_over_R1 [1, 10], mu [0.1, 1], a_over_R [0.01, 0.2]" in header
    vectors = pd.read_csv(tmp_path / "law" / "test_vectors.csv")
    pd.testing.assert_frame_equal(vectors, history_vectors(coefficients), check_dtype=False,
                                  check_exact=True)


def test_the_shipped_coefficients_without_training_say_so(exported):
    _, law = read_calibrated_law(exported / "law.json")
    if "training" in json.loads(SHIPPED_COEFFICIENTS.read_text()):
        assert law["validity"]["ranges"]
    else:
        assert law["validity"]["ranges"] is None and "no training" in law["validity"]["note"]


@pytest.mark.parametrize("mutate, message", [
    (lambda law: law.update(law="hertz2d-other"), "law='hertz2d-other'"),
    (lambda law: law.update(form="composite"), "form='composite'"),
    (lambda law: law["formulas"].pop("front-inverse"), "formulas['front-inverse']"),
    (lambda law: law["coefficients"]["values"].update(bracket=[1.0]), "coefficients bracket"),
    (lambda law: law["coefficients"]["values"]["penalty"].__setitem__(0, math.nan),
     "NaN is not a JSON number"),
    (lambda law: law["coefficients"]["values"]["penalty"].__setitem__(0, -50.0),
     "coefficients penalty[0]=-50.0 is outside [-5, 5]"),
    (lambda law: law["history"].update(size=2), "history size=2"),
    (lambda law: law["constants"].update(PIECES=4), "constants="),
    (lambda law: law["validity"].update(ranges={"mu": [1.0, 0.1]}), "validity ranges mu"),
    (lambda law: law.pop("units"), "no units"),
])
def test_a_bad_law_file_is_an_input_error_naming_what_is_wrong(tmp_path, mutate, message):
    law = json.loads(json.dumps(calibrated_law_description(
        CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS), "shipped with hertz2d")))
    mutate(law)
    (tmp_path / "law.json").write_text(json.dumps(law))
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("]", r"\]")):
        read_calibrated_law(tmp_path / "law.json")


def test_export_again_from_a_calibrated_law_file(exported, tmp_path):
    assert main(["export-law", "--from", str(exported / "law.json"), "--out",
                 str(tmp_path / "again")]) == 0
    for name in ("hertz2d_law.h", "test_vectors.csv"):
        assert (tmp_path / "again" / name).read_text() == (exported / name).read_text()


@pytest.mark.parametrize("flags, bad", [
    (["--penalty", "refit"], "penalty='refit'"), (["--penalty", "eq33"], "penalty='eq33'"),
    (["--form", "composite"], "form='composite'"), (["--form", "mixed"], "form='mixed'"),
])
def test_flags_of_the_simplified_law_exit_2_and_write_nothing(capsys, tmp_path, flags, bad):
    out = tmp_path / "law"
    code = main(["export-law", "--law", "calibrated", "--out", str(out), *flags])
    err = capsys.readouterr().err
    assert code == 2 and bad in err and len(err.strip().splitlines()) == 1
    assert not out.exists()
