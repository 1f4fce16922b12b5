"""``hertz2d export-law``: law.json round-trips, the C99 header reproduces the Python law.

The header is checked against the test vectors made by ``simplified_update`` (an independent
implementation in another language, compiled here with the system C compiler), to 1e-12
relative, in both forms of a dissimilar pair (per-body, the default, and composite); the vectors
themselves reach every branch of Table 1 and tell the two forms apart (checked below, so a vector
set that missed slip, walls, open contacts or the form would fail).
"""
import json
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from hertz2d.calibration.cli import main
from hertz2d.calibration.laws import ContactPair, simplified_update
from hertz2d.calibration.laws.hertz2d import max_normal_approach
from hertz2d.calibration.export.law_file import FORMAT_VERSION, PENALTY_TERMS, law_description, read_law
from hertz2d.calibration.laws.penalty_factor import EQ33, ConstantPenalty, PolynomialPenalty
from hertz2d.calibration.export.reference_vectors import COLUMNS

TOLERANCE = 1e-12

#: reads test_vectors.csv, runs the header on every row, prints the largest relative differences
DRIVER = r"""
#include <stdio.h>
#include <string.h>
#include "hertz2d_law.h"

static double worst[5];

static int close_to(double got, double want, int column)
{
    double diff = fabs(got - want);
    double scale = fabs(want);
    double relative = scale > 0.0 ? diff / scale : diff; /* absolute at zero */
    if (relative > worst[column])
        worst[column] = relative;
    return relative <= TOLERANCE;
}

int main(int argc, char **argv)
{
    const char *expected = "wall,R1,R2,E1,E2,nu1,nu2,mu,delta_n,d_delta_t,T_previous,"
                           "a_previous,N,T,a,kn,kt,slipping\n";
    char line[512];
    double R1, R2, E1, E2, nu1, nu2, mu, dn, ddt, T0, a0, N, T, a, kn, kt;
    int wall, slipping, rows = 0, failures = 0, status;
    hertz2d_state s;
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (f == NULL || fgets(line, sizeof line, f) == NULL || strcmp(line, expected) != 0) {
        printf("bad vector file or header\n");
        return 3;
    }
    while (fscanf(f, "%d,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%d",
                  &wall, &R1, &R2, &E1, &E2, &nu1, &nu2, &mu, &dn, &ddt, &T0, &a0, &N, &T, &a,
                  &kn, &kt, &slipping) == 18) {
        hertz2d_pair pair = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
        pair.R1 = R1; pair.R2 = R2; pair.E1 = E1; pair.E2 = E2;
        pair.nu1 = nu1; pair.nu2 = nu2; pair.mu = mu;
        ++rows;
        if (wall && (R2 != R1 || E2 != E1 || nu2 != nu1)) {
            printf("row %d: a wall row whose body 2 is not the mirror image\n", rows);
            ++failures;
            continue;
        }
        status = wall ? hertz2d_wall_update(R1, E1, nu1, mu, dn, ddt, T0, a0, &s)
                      : hertz2d_update(&pair, dn, ddt, T0, a0, &s);
        if (status != HERTZ2D_OK || !close_to(s.N, N, 0) + !close_to(s.T, T, 1)
            + !close_to(s.a, a, 2) + !close_to(s.kn, kn, 3) + !close_to(s.kt, kt, 4)
            || s.slipping != slipping) {
            if (failures++ < 10)
                printf("row %d: status %d N %.17g/%.17g T %.17g/%.17g a %.17g/%.17g "
                       "kn %.17g/%.17g kt %.17g/%.17g slipping %d/%d\n", rows, status, s.N, N,
                       s.T, T, s.a, a, s.kn, kn, s.kt, kt, s.slipping, slipping);
        }
    }
    fclose(f);
    printf("rows %d failures %d worst N %.3g T %.3g a %.3g kn %.3g kt %.3g\n", rows, failures,
           worst[0], worst[1], worst[2], worst[3], worst[4]);
    return failures != 0;
}
"""

#: the normal solve is exact for every admissible approach and reports the inadmissible ones
NORMAL_DRIVER = r"""
#include <stdio.h>
#include "hertz2d_law.h"

int main(void)
{
    const double radii[8][2] = {{1e-6, 1e-6}, {0.5, 0.5}, {1e-3, 10.0}, {1e3, 2e3},
                                {1e-6, 1e-6}, {0.5, 0.5}, {1e-3, 10.0}, {10.0, 1e-3}};
    int r, k, bad = 0;
    double N, a;
    for (r = 0; r < 8; ++r) { /* one material, then dissimilar (E 1 / 200 GPa, nu 0.45 / 0.1) */
        hertz2d_pair p = {0.0, 0.0, 1e9, 1e9, 0.3, 0.3, 0.5};
        double limit;
        p.R1 = radii[r][0];
        p.R2 = radii[r][1];
        if (r >= 4) {
            p.E2 = 2e11;
            p.nu1 = 0.45;
            p.nu2 = 0.1;
        }
        limit = hertz2d_max_normal_approach(&p);
        for (k = 0; k <= 300; ++k) { /* 1e-15 R to 1 - 1e-15 of the limit */
            double t = k / 300.0;
            double dn = k < 150 ? 1e-15 * p.R1 * pow(1e15 * limit / p.R1, t / 0.5)
                                : limit * (1.0 - pow(10.0, -1.0 - 14.0 * (t - 0.5) / 0.5));
            /* Eq. 23 = Eq. 28 with Eq. 29: the approach the solution gives back */
            if (hertz2d_normal_force(&p, dn, &N, &a) != HERTZ2D_OK || !(N > 0.0)
                || !(fabs(N / hertz2d_normal_stiffness(&p, a) - dn) <= 1e-13 * dn)) {
                printf("not the approach back: R1 %g R2 %g delta_n %.17g\n", p.R1, p.R2, dn);
                ++bad;
            }
        }
        if (hertz2d_normal_force(&p, limit, &N, &a) != HERTZ2D_BEYOND_RANGE || N == N
            || hertz2d_normal_force(&p, NAN, &N, &a) != HERTZ2D_BEYOND_RANGE)
            ++bad;
    }
    {
        hertz2d_pair p = {0.5, 0.5, 1e9, 1e9, 0.5, 0.3, 0.5};
        hertz2d_state s;
        if (hertz2d_update(&p, 1e-3, 0.0, 0.0, 0.0, &s) != HERTZ2D_BAD_PARAMETER || s.T == s.T)
            ++bad;
    }
    printf("bad %d\n", bad);
    return bad != 0;
}
"""


def export(capsys, out, *flags, results=None):
    argv = ["export-law", "--out", str(out), "--json", *flags]
    if results is not None:
        argv += ["--results", str(results)]
    code = main(argv)
    text, err = capsys.readouterr()
    return code, (json.loads(text.strip().splitlines()[-1]) if code == 0 else None), err


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """One export with Eq. 33 (the default penalty), per-body (the default form)."""
    out = tmp_path_factory.mktemp("law")
    assert main(["export-law", "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def exported_composite(tmp_path_factory):
    """One export with Eq. 33 in the composite form (Table 1 as printed)."""
    out = tmp_path_factory.mktemp("law")
    assert main(["export-law", "--form", "composite", "--out", str(out)]) == 0
    return out


def pair_of(vectors, form):
    return ContactPair(*(vectors[k].to_numpy() for k in ("R1", "R2", "E1", "E2", "nu1", "nu2",
                                                         "mu")), form=form)


#: a refit whose w leaves [0, 1] on both sides within the vectors' range (the clip's branches)
WIDE_REFIT = (0.9, 3.0, 0.5, -10.0, 1.0, 0.3)


@pytest.fixture(scope="module")
def exported_wide_refit(tmp_path_factory):
    """One export with a refit read from a fit.json, w above 1 at a/R = 0.15 and below 0 at 1."""
    results, out = tmp_path_factory.mktemp("results"), tmp_path_factory.mktemp("law")
    write_fit(results, WIDE_REFIT)
    assert main(["export-law", "--penalty", "refit", "--results", str(results), "--out",
                 str(out)]) == 0
    vectors = pd.read_csv(out / "test_vectors.csv")
    w = PolynomialPenalty(WIDE_REFIT)(vectors.a / vectors.R1, vectors.nu1)[vectors.N > 0]
    assert (w > 1).sum() > 50 and (w < 0).sum() > 50
    return out


def write_fit(results, coefficients, support="clamped"):
    (results / "penalty").mkdir(parents=True)
    (results / "penalty" / "fit.json").write_text(json.dumps(
        {"coefficients": list(coefficients), "default_support": support, "r2": 0.99,
         "by_support": {support: {"coefficients": list(coefficients), "r2": 0.99}}}))


def test_summary_names_the_files_and_coefficients(capsys, tmp_path):
    code, summary, _ = export(capsys, tmp_path / "law")
    assert code == 0 and set(summary) == {"out", "files", "penalty", "coefficients", "form", "fit",
                                         "fit_source"}
    assert sorted(p.name for p in (tmp_path / "law").iterdir()) == sorted(summary["files"])
    assert summary["penalty"] == "Eq. 33" and summary["coefficients"] == list(EQ33.coefficients)
    assert summary["form"] == "per-body"


@pytest.mark.parametrize("export_fixture, form", [("exported", "per-body"),
                                                   ("exported_composite", "composite")])
def test_law_json_round_trips_to_the_same_law(request, export_fixture, form):
    exported = request.getfixturevalue(export_fixture)
    penalty, law = read_law(exported / "law.json")
    assert penalty.coefficients == EQ33.coefficients and law["penalty"]["terms"] == list(
        PENALTY_TERMS)
    assert law["form"] == form and law["format_version"] == FORMAT_VERSION
    assert law["validity"]["a_over_R"] == [0.01, 0.15] and law["validity"]["nu"] == [0.0, 0.49]
    assert "clamped" in law["penalty"]["base_support"] and law["hertz2d_version"]
    vectors = pd.read_csv(exported / "test_vectors.csv")
    pair = pair_of(vectors, law["form"])
    args = (vectors.delta_n.to_numpy(), vectors.d_delta_t.to_numpy(),
            vectors.T_previous.to_numpy())
    original, read = (simplified_update(pair, *args, p, vectors.a_previous.to_numpy())
                      for p in (EQ33, penalty))
    for name in ("N", "T", "kt"):
        np.testing.assert_allclose(getattr(read, name), getattr(original, name), rtol=1e-15,
                                   atol=0)


@pytest.mark.parametrize("flag, expected", [("0.5", "w = 0.5"), ("refit", "refit")])
def test_constant_and_refit_penalties_round_trip(capsys, tmp_path, flag, expected):
    refit = (0.25, 2.5, 0.2, -9.0, 1.5, 0.4)
    write_fit(tmp_path / "results", refit)
    code, summary, _ = export(capsys, tmp_path / "law", "--penalty", flag,
                              results=tmp_path / "results")
    penalty, law = read_law(tmp_path / "law" / "law.json")
    assert code == 0 and penalty.label.startswith(expected)
    assert summary["penalty"] == penalty.label
    original = ConstantPenalty(0.5) if flag == "0.5" else PolynomialPenalty(refit)
    x, nu = np.meshgrid(np.linspace(0, 1, 41), np.linspace(0, 0.49, 11))
    np.testing.assert_array_equal(penalty(x, nu), original(x, nu))  # exact: (w, 0, ..., 0)
    assert law["penalty"]["base_support"] == ("constant" if flag == "0.5" else "clamped")
    if flag == "refit":
        assert law["provenance"]["source"]["fit"].endswith("fit.json")


def test_vectors_reach_every_branch_of_table_1(exported):
    vectors = pd.read_csv(exported / "test_vectors.csv")
    assert list(vectors.columns) == list(COLUMNS)
    touching = vectors.N > 0
    pair = pair_of(vectors, "per-body")
    reach = (vectors.delta_n * np.where(vectors.wall, 2, 1) / max_normal_approach(pair))
    assert reach.max() > 1 - 1e-5 and reach[touching].min() < 1e-14  # Eq. 23's whole range
    assert (~touching).sum() > 0 and (vectors.wall == 1).sum() > 0
    assert (vectors.R1 != vectors.R2).any() and (vectors.E1 != vectors.E2).any()
    for sign in (-1, 1):
        stick = touching & (vectors.slipping == 0) & (np.sign(vectors.d_delta_t) == sign)
        slip = touching & (vectors.slipping == 1) & (np.sign(vectors["T"]) == sign)
        assert stick.sum() > 50 and slip.sum() > 50
    assert ((vectors.mu == 0) & touching).sum() > 50 and ((vectors.mu > 0) & touching).sum() > 50


def test_the_forms_agree_for_one_material_and_differ_for_dissimilar_pairs(exported):
    """The per-body vectors run through the composite law: the same law where both bodies are of
    one material (walls included: omega_i = 1), several per cent apart where they are not, so a
    port of the wrong form cannot pass the vectors at 1e-12."""
    vectors = pd.read_csv(exported / "test_vectors.csv")
    per_body, composite = pair_of(vectors, "per-body"), pair_of(vectors, "composite")
    # inside both forms' ranges of the normal approach
    pair_approach = vectors.delta_n * np.where(vectors.wall, 2, 1)
    inside = ((pair_approach < 0.5 * max_normal_approach(per_body))
              & (pair_approach < 0.5 * max_normal_approach(composite)) & (vectors.N > 0))
    vectors, scale = vectors[inside], np.where(vectors.wall[inside], 2.0, 1.0)
    state = simplified_update(pair_of(vectors, "composite"), scale * vectors.delta_n.to_numpy(),
                              scale * vectors.d_delta_t.to_numpy(), vectors.T_previous.to_numpy(),
                              EQ33, vectors.a_previous.to_numpy())
    same = ((vectors.E1 == vectors.E2) & (vectors.nu1 == vectors.nu2)).to_numpy()
    relative = np.abs(state.N / vectors.N.to_numpy() - 1.0)
    assert same.sum() > 500 and (~same).sum() > 500
    assert relative[same].max() < 1e-13
    assert np.median(relative[~same]) > 1e-2


@pytest.mark.parametrize("export_fixture", ["exported", "exported_composite",
                                            "exported_wide_refit"])
def test_c_header_reproduces_the_python_law_to_1e_12(strict_c99, request, tmp_path,
                                                    export_fixture):
    exported = request.getfixturevalue(export_fixture)
    shutil.copy(exported / "hertz2d_law.h", tmp_path)
    binary = strict_c99.build(tmp_path, "check_vectors", DRIVER, [f"-DTOLERANCE={TOLERANCE}"])
    run = subprocess.run([str(binary), str(exported / "test_vectors.csv")], capture_output=True,
                         text=True, timeout=60)
    print(run.stdout)
    rows = len(pd.read_csv(exported / "test_vectors.csv"))
    assert run.returncode == 0, run.stdout
    assert f"rows {rows} failures 0" in run.stdout


@pytest.mark.parametrize("export_fixture", ["exported", "exported_composite"])
def test_c_normal_solve_is_exact_on_the_whole_admissible_range(strict_c99, request, tmp_path,
                                                               export_fixture):
    shutil.copy(request.getfixturevalue(export_fixture) / "hertz2d_law.h", tmp_path)
    run = subprocess.run([str(strict_c99.build(tmp_path, "normal", NORMAL_DRIVER))],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "bad 0" in run.stdout, run.stdout


@pytest.mark.parametrize("export_fixture", ["exported", "exported_composite"])
def test_header_alone_compiles_as_strict_c99(strict_c99, request, tmp_path, export_fixture):
    shutil.copy(request.getfixturevalue(export_fixture) / "hertz2d_law.h", tmp_path)
    strict_c99.build(tmp_path, "only_header", '#include "hertz2d_law.h"\n'
                     '#include "hertz2d_law.h"\nint main(void) { return 0; }\n', link=False)


@pytest.mark.parametrize("mutate, message", [
    (lambda law: law.update(format="other"), "format='other'"),
    (lambda law: law.update(format_version=1), "format_version=1"),
    (lambda law: law.update(form="mixed"), "form='mixed'"),
    (lambda law: law.update(form="composite"), "formulas['bracket-weights']"),
    (lambda law: law["penalty"].update(coefficients=[0.2, 1.0]), "penalty coefficients"),
    (lambda law: law["penalty"].update(coefficients=[0.2, 1, 2, 3, 4, "x"]),
     "penalty coefficients"),
    (lambda law: law["penalty"].update(clip=[0.0, 2.0]), "penalty clip=[0.0, 2.0]"),
    (lambda law: law["formulas"].pop("tangential-stiffness"), "formulas['tangential-stiffness']"),
    (lambda law: law["validity"].update(nu=[0.49, 0.0]), "validity nu"),
    (lambda law: law.pop("units"), "no units"),
])
def test_a_bad_law_file_is_an_input_error_naming_what_is_wrong(tmp_path, mutate, message):
    from hertz2d.checks import InputError
    law = law_description(EQ33, "clamped")
    mutate(law)
    path = tmp_path / "law.json"
    path.write_text(json.dumps(law))
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("]", r"\]")):
        read_law(path)


def test_unreadable_law_files_are_input_errors(tmp_path):
    from hertz2d.checks import InputError
    (tmp_path / "broken.json").write_text("{not json")
    for name in ("missing.json", "broken.json"):
        with pytest.raises(InputError, match=name):
            read_law(tmp_path / name)


@pytest.mark.parametrize("flags, bad", [
    (["--penalty", "big"], "penalty='big'"), (["--penalty", "1.5"], "penalty=1.5"),
    (["--form", "mixed"], "form='mixed'"),
])
def test_bad_input_exits_2_and_writes_nothing(capsys, tmp_path, flags, bad):
    out = tmp_path / "law"
    code, _, err = export(capsys, out, *flags, results=tmp_path / "no-results")
    assert code == 2 and bad in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_an_output_folder_that_is_a_file_exits_2(capsys, tmp_path):
    (tmp_path / "law").write_text("a file")
    code, _, err = export(capsys, tmp_path / "law")
    assert code == 2 and "out=" in err


#: the history interface (hertz2d_contact, which keeps T, kt and the approach): a walk through
#: stick, slip, a reversal and an opening gives, step by step, what hertz2d_update's N and kt
#: give with the step stiffness of hertz2d_step_stiffness and T, kt and the approach carried by
#: hand (to 1e-13 of mu N: hertz2d_update derives log a with a logarithm); the first step's
#: stiffness is kt's mean over the approach from 0 (below the step's own kt), later steps'
#: Simpson's rule where the approach changes (no time step prepared) or, with a time step
#: prepared (hertz2d_prepare_step: omega dt about 0.013 while the approach changes by 2 % to 1 %
#: a step), Simpson's rule or the trapezoid, both taken; kn_tangent is the derivative of N (a
#: central difference of hertz2d_normal_force)
HISTORY_DRIVER = r"""
#include <stdio.h>
#include "hertz2d_law.h"

static double clip(double x, double bound) { return x > bound ? bound : (x < -bound ? -bound : x); }

int main(void)
{
    hertz2d_pair p = {0.3, 0.7, 10e9, 70e9, 0.2, 0.35, 0.3};
    hertz2d_pair m = hertz2d_disc_on_wall(0.5, 10e9, 0.25, 0.3);
    hertz2d_constants c, cm;
    hertz2d_prepared q;
    double history[HERTZ2D_HISTORY_SIZE] = {0.0}, wall_history[HERTZ2D_HISTORY_SIZE] = {0.0};
    double timed_history[HERTZ2D_HISTORY_SIZE] = {0.0};
    double T = 0.0, T_wall = 0.0, T_timed = 0.0, kt = 0.0, kt_wall = 0.0, dn_before = 0.0;
    double N_lo, N_hi, a, h;
    /* each set unless a call before it in one condition failed */
    hertz2d_state s = {0}, by_hand = {0}, w = {0}, w_by_hand = {0}, timed = {0};
    int k, bad = 0, trapezoids = 0;
    hertz2d_pair_constants(&p, &c);
    hertz2d_pair_constants(&m, &cm);
    hertz2d_prepare_materials(&p, 0, &q);
    hertz2d_prepare_sizes(&p, log(4.0 * p.R1), log(4.0 * p.R2), &q);
    hertz2d_prepare_step(2.4e-6, 100.0, &q);
    for (k = 0; k < 60; ++k) {
        double dn = k < 50 ? 1e-3 * (1.0 + 0.02 * k) : -1e-4; /* open for the last ten */
        double dn_step = k < 50 ? dn : 0.0;
        double ddt = k < 20 ? 2e-5 : (k < 35 ? -3e-5 : 1e-5);
        if (hertz2d_contact(&p, dn, ddt, history, &s) != HERTZ2D_OK
            || hertz2d_update(&p, dn, 0.0, 0.0, 0.0, &by_hand) != HERTZ2D_OK
            || hertz2d_wall_contact(0.5, 10e9, 0.25, 0.3, dn, ddt, wall_history, &w) != HERTZ2D_OK
            || hertz2d_wall_update(0.5, 10e9, 0.25, 0.3, dn, 0.0, 0.0, 0.0, &w_by_hand)
                   != HERTZ2D_OK
            || hertz2d_contact_prepared(&p, &q, dn, ddt, timed_history, &timed) != HERTZ2D_OK)
            ++bad;
        if (dn > 0.0) {
            double kstep = hertz2d_step_stiffness(&p, &c, dn, dn_before, kt, by_hand.kt,
                                                  by_hand.kn_tangent, 0.0);
            double kwall = hertz2d_step_stiffness(&m, &cm, 2.0 * dn, 2.0 * dn_before, kt_wall,
                                                  w_by_hand.kt, w_by_hand.kn_tangent, 0.0);
            double ktimed = hertz2d_step_stiffness(&p, &c, dn, dn_before, kt, by_hand.kt,
                                                   by_hand.kn_tangent, q.step_squared_over_mass);
            if (k == 0 && !(kstep < 0.97 * by_hand.kt && kwall < 0.97 * w_by_hand.kt))
                ++bad;
            if (k > 0 && ktimed == 0.5 * (kt + by_hand.kt))
                ++trapezoids;
            if (k > 0 && kstep == 0.5 * (kt + by_hand.kt))  /* no time step: Simpson's rule */
                ++bad;
            T = clip(T + kstep * ddt, p.mu * by_hand.N);
            T_wall = clip(T_wall + kwall * 2.0 * ddt, m.mu * w_by_hand.N);
            T_timed = clip(T_timed + ktimed * ddt, p.mu * by_hand.N);
        } else {
            T = T_wall = T_timed = 0.0;
        }
        kt = by_hand.kt;
        kt_wall = w_by_hand.kt;
        dn_before = dn_step;
        if (fabs(s.T - T) > 1e-13 * p.mu * by_hand.N || history[0] != s.T
            || history[1] != s.kt || fabs(w.T - T_wall) > 1e-13 * p.mu * w_by_hand.N
            || wall_history[0] != w.T || history[2] != dn_step || wall_history[2] != 2.0 * dn_step
            || fabs(timed.T - T_timed) > 1e-13 * p.mu * by_hand.N)
            ++bad;
        if (dn > 0.0) {
            h = 1e-6 * dn;
            hertz2d_normal_force(&p, dn - h, &N_lo, &a);
            hertz2d_normal_force(&p, dn + h, &N_hi, &a);
            if (!(fabs((N_hi - N_lo) / (2.0 * h) - s.kn_tangent) <= 1e-6 * s.kn_tangent))
                ++bad;
        } else if (history[0] != 0.0 || history[1] != 0.0 || history[2] != 0.0
                   || s.kn_tangent != 0.0) {
            ++bad;
        }
    }
    if (!(trapezoids > 5 && trapezoids < 45))  /* both rules taken */
        ++bad;
    printf("bad %d trapezoids %d\n", bad, trapezoids);
    return bad != 0;
}
"""


def test_history_interface_is_the_update_with_its_history_kept(strict_c99, exported, tmp_path):
    (tmp_path / "hertz2d_law.h").write_text((exported / "hertz2d_law.h").read_text())
    run = subprocess.run([str(strict_c99.build(tmp_path, "history", HISTORY_DRIVER))],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
