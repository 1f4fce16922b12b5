"""``hertz2d calibrate``: the fit recovers known coefficients from paths made by the law itself,
and the stage runs end to end (training FEM, fit, coefficients.json, held-out map, targets)."""
import json
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from hertz2d.calibration.calibrate.fit import BASE_GROUPS, fit
from hertz2d.calibration.calibrate.judgement import (NORMAL_SHARE, cycle_energies,
                                                     energy_by_normal_loop, floor_misses)
from hertz2d.calibration.calibrate.masing import FIRST
from hertz2d.calibration.calibrate.objective import (PATH_NORM, floor_errors, force_errors,
                                                     path_norms, run_batch)
from hertz2d.calibration.calibrate.training import batches
from hertz2d.calibration.cli import main
from hertz2d.calibration.laws.calibrated import (SHIPPED_COEFFICIENTS, CalibratedCoefficients,
                                         KAPPA_FLOOR, CalibratedModel, curve_constants)
from hertz2d.calibration.laws.energy import last_cycle, loop_work
from hertz2d.calibration.validation.comparison import with_stiffness
from hertz2d.calibration.validation.map.errors import ENERGY, case_errors
from hertz2d.calibration.validation.map.spec import expand
from hertz2d.checks.loadpath import LoadPath
from hertz2d.calibration.runs.spec_file import tomllib
from tests.test_readme_performance import benchmark_module

pytest.importorskip("numba")  # the fit runs the law compiled

SPEC = """
[base]
counterpart = "disc"
R1 = 0.5
E1 = 10e9
nu1 = 0.25
R2_over_R1 = 1.0
E2_over_E1 = 1.0
nu2 = 0.25
mu = 0.3
a_over_R = 0.05
support = "symmetric"
level = 0

[paths]
normal_steps = 3
steps = 12
cycle_steps = 6
cycles = 2
normal_swing = 0.2

[paths.loads]
hold-normal = [1.5]
cycle = [0.5]
coupled-cycle = [0.5]

[studies.size]
a_over_R = [0.01, 0.05, 0.15]
nu = [0.0, 0.25, 0.45]

[studies.wall]
counterpart = ["wall"]
nu1 = [0.5e-1]
"""


def test_the_fit_recovers_the_coefficients_of_paths_the_law_made():
    """Tables made by the law with a known w (paths of bodies of one material: beta = 0, so w,
    and kappa derived from it, are all the law has): the fit, started from Eq. 33, finds it."""
    truth = CalibratedCoefficients(penalty=(0.1, 1.2, 0.1, -4.0, 1.5, 0.4))
    spec = expand(tomllib.loads(SPEC.replace("nu1 = [0.5e-1]", "nu1 = [0.45]")))
    paths = []
    for run in spec.default_runs:
        if run.case.wall:
            continue  # beta != 0 there: the base groups' fit leaves those out
        table = CalibratedModel(run.case.pair(), truth).run(run.fem_path().path())
        paths.append((run, table))
    found = fit(paths, BASE_GROUPS)
    assert found.rms < 1e-8
    np.testing.assert_allclose(found.coefficients.penalty, truth.penalty, atol=2e-4)


def test_the_laws_normal_swing_on_paths_it_made_is_the_swing_those_paths_carry():
    """On tables made by the law's Python model (its N carrying the tangential state), the cycle
    table's law column, computed with the fit's compiled batch kernel on the same paths, equals
    the swing the tables themselves show: two implementations of the coupling term agree, and a
    held delta_n does move the law's N."""
    truth = CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS)
    spec = expand(tomllib.loads(SPEC))
    paths = [(run, CalibratedModel(run.case.pair(), truth).run(run.fem_path().path()))
             for run in spec.default_runs]
    cycles = cycle_energies(paths, truth)
    assert len(cycles) >= 2 and set(cycles.counterpart) == {"disc", "wall"}
    np.testing.assert_allclose(cycles["law N swing / N"], cycles["N swing / N"], rtol=1e-6)
    assert (cycles["N swing / N"] > 1e-6).all()


def law_made_paths_with_one_step_moved(truth: CalibratedCoefficients) -> list:
    """``[(run, table)]`` of :data:`SPEC`'s default runs made by the law with ``truth``, and on
    each cycle path the Fx at the unloading step nearest zero moved by 1.5 % of the path's
    largest |Fx|."""
    paths = []
    for run in expand(tomllib.loads(SPEC)).default_runs:
        table = CalibratedModel(run.case.pair(), truth).run(run.fem_path().path())
        if run.case.path == "cycle":
            unloading = np.flatnonzero(table.stage.to_numpy() == "unloading")
            step = unloading[np.argmin(np.abs(table.Fx.to_numpy()[unloading]))]
            table.loc[step, "Fx"] += 0.015 * np.abs(table.Fx).max()
        paths.append((run, table))
    return paths


def test_a_floor_miss_at_a_zero_crossing_is_found_where_it_was_put():
    """Tables made by the law, then on each cycle path the FEM's Fx at the unloading step
    nearest zero moved by 1.5 % of the path's largest |Fx|: by the floor metric that step's
    error is 1.5 % / 0.2 = 7.5 %, by the amplitude-relative one 1.5 %. Every such path is a
    miss, found at that step; the paths left alone are not (the compiled and the Python law
    agree to rounding)."""
    truth = CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS)
    paths = law_made_paths_with_one_step_moved(truth)
    moved = sum(run.case.path == "cycle" for run, _ in paths)
    misses = floor_misses(paths, truth)
    assert misses.paths.sum() == len(paths) and misses.misses.sum() == moved > 0
    missed = misses[misses.misses > 0]
    np.testing.assert_allclose(missed["misses where |FEM| < floor"], 1.0)
    np.testing.assert_allclose(missed["misses with amplitude-relative < 5 %"], 1.0)
    np.testing.assert_allclose(missed["median amplitude-relative at the worst step"], 0.015,
                               rtol=1e-4)
    assert (missed["floor: Fx < 10 %"] == 1.0).all()


def test_a_law_without_the_fems_normal_loop_misses_the_energy_by_that_loops_share():
    """Forces of a stick cycle with a swinging approach, coupled across the two loops: with Fx =
    kt delta_t + c1 delta_n and Fz = kn delta_n + c delta_t the loops are c1 I and -c I (I the
    closed integral of delta_n d(delta_t), by Green's theorem), so the normal loop's share of
    the energy is -c/(c1 - c). A "law" with the same Fx and c = 0 dissipates the tangential loop
    alone: its signed energy error is minus that share, and its tangential loop's error is
    zero. The map records all three, and the cycles fall into the bands of the share they were
    built with."""
    path = LoadPath.build("stick-cycle", 0.02, 0.004, steps=8, normal_steps=2, cycles=2,
                          normal_swing=0.3)
    frame = path.frame().assign(c=1.0)
    base = {"law": "calibrated", "variant": "default", "counterpart": "disc", "R1": 0.5,
            "R2_over_R1": 1.0, "E1": 1e10, "E2_over_E1": 1.0, "nu1": 0.25, "nu2": 0.25,
            "mu": 0.3}
    cycle = last_cycle(frame)
    c1 = 1e8 * np.sign(loop_work(cycle.delta_t, cycle.delta_n))  # the tangential loop c1 I > 0
    rows = []
    for share in (0.0, 0.01, 0.05, 0.2, 0.5):
        c = -share * c1 / (1.0 - share)
        Fx = 2e9 * path.delta_t + c1 * path.delta_n
        fem = frame.assign(Fx=Fx, N=3e9 * path.delta_n, Fz=3e9 * path.delta_n + c * path.delta_t)
        law = frame.assign(Fx=Fx, N=3e9 * path.delta_n, Fz=3e9 * path.delta_n)
        found = case_errors(with_stiffness(fem), with_stiffness(law))[ENERGY]
        assert found["fem_normal_share"] == pytest.approx(share, abs=1e-12)
        assert found["signed_rel_error"] == pytest.approx(-share, abs=1e-12)
        assert found["tangential_loop_error"] == pytest.approx(0.0, abs=1e-12)
        rows.append({**base, "quantity": ENERGY, **found})
    rows.append({**base, "quantity": ENERGY, **found, "law": "other"})  # another law's: not counted
    bands = energy_by_normal_loop(pd.DataFrame(rows), "calibrated")
    assert list(bands[NORMAL_SHARE]) == ["up to 2 %", "2-10 %", "10-30 %", "over 30 %"]
    assert list(bands.cycles) == [2, 1, 1, 1]
    assert list(bands["energy within 10 %"]) == [1.0, 1.0, 0.0, 0.0]
    np.testing.assert_allclose(bands["median signed energy error"], [-0.005, -0.05, -0.2, -0.5],
                               atol=1e-12)
    assert list(bands["tangential loop within 10 %"]) == [1.0, 1.0, 1.0, 1.0]
    np.testing.assert_allclose(bands["median signed tangential-loop error"], 0.0, atol=1e-12)


def test_the_fits_path_residuals_see_one_far_off_step_under_both_metrics():
    """Tables made by the law, then on each cycle path the FEM's Fx at the unloading step
    nearest zero moved by 1.5 % of the path's largest |Fx|. The law's own errors elsewhere are
    rounding, so a moved path's floor error there is 1.5 % / 0.2 = 7.5 % and its
    amplitude-relative one 1.5 %, and each path residual is that error times
    ``(1/judged steps)^(1/PATH_NORM)`` (one step far off out of n); paths left alone have
    residuals at rounding."""
    truth = CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS)
    paths = law_made_paths_with_one_step_moved(truth)
    for batch in batches(paths):
        Fx, _ = run_batch(batch, truth)
        moved = np.array([run.case.path == "cycle" for run in batch.runs])
        steps = batch.judged.sum(axis=1)
        for errors, expected in ((force_errors(batch, Fx), 0.015),
                                 (floor_errors(batch, Fx), 0.075)):
            norms = path_norms(batch, errors)
            np.testing.assert_allclose(np.abs(errors).max(axis=1)[moved], expected, rtol=2e-3)
            np.testing.assert_allclose(norms[moved], expected * (1.0 / steps[moved])
                                       ** (1.0 / PATH_NORM), rtol=2e-3)
            assert np.all(norms[~moved] < 1e-6)


def test_the_memory_order_benchmark_resizes_the_kernels_whole_history_layout():
    """``calibrated_memory_order.py`` resizes the kernel's memory by setting its module
    constants. At the kernel's own number of pieces its layout is the kernel's (a part of the
    history it did not move, the untouched area, once stopped it), and at any other size the
    parts stay apart: count, displacement and area, then three blocks of one value per piece,
    then the untouched area's outer edge, the largest area, the untouched area's inner edge and
    the structural compliance held, the history's last values."""
    from hertz2d.calibration.laws import calibrated_kernel as kernel
    bench = benchmark_module("calibrated_memory_order")
    assert bench.layout(kernel.PIECES) == tuple(getattr(kernel, name) for name in bench.LAYOUT)
    for pieces in (1, 8, 64, 4096):
        at = dict(zip(bench.LAYOUT, bench.layout(pieces)))
        assert at["AREA"] == 2 and at["WIDTHS"] == 3
        assert at["RATIOS"] - at["WIDTHS"] == at["DENSITIES"] - at["RATIOS"] == pieces
        assert at["UNTOUCHED"] - at["DENSITIES"] == pieces
        assert at["UNTOUCHED"] == at["HISTORY"] - 4 and at["LARGEST"] == at["HISTORY"] - 3
        assert at["SLID"] == at["HISTORY"] - 2 and at["HELD"] == at["HISTORY"] - 1


def test_calibrate_runs_end_to_end_and_the_model_uses_what_it_wrote(tmp_path, capsys):
    eq33 = [0.22, 2.89, 0.18, -10.31, 1.75, 0.36]
    fit_json = {"default_support": "clamped", "coefficients": eq33,
                "by_support": {"clamped": {"coefficients": eq33}}}
    (tmp_path / "penalty").mkdir()
    (tmp_path / "penalty" / "fit.json").write_text(json.dumps(fit_json))
    spec = tmp_path / "training.toml"
    spec.write_text(SPEC)
    argv = ["calibrate", "--spec", str(spec), "--quick", "--results", str(tmp_path), "--jobs",
            "1", "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["training_paths"] == 3 * 9 + 3 and summary["fit"]["groups"] == list(
        BASE_GROUPS)
    written = json.loads((tmp_path / "calibrated" / "coefficients.json").read_text())
    assert written["format"] == "hertz2d-calibrated" and written["training"]["paths"] == 30
    targets = pd.read_csv(tmp_path / "calibrated" / "targets.csv")
    assert "calibrated" in set(targets.law) and summary["heldout_paths"] > 0
    assert (tmp_path / "calibrated" / "heldout" / "errors.csv").exists()
    energy = pd.read_csv(tmp_path / "calibrated" / "energy.csv")
    assert {"cycle", "random-walk", "stick-cycle", "all cycles"} <= set(energy["cycles of"])
    by_kind = energy.set_index("cycles of")
    assert by_kind.loc["all cycles", "cycles"] == by_kind.cycles.drop("all cycles").sum()
    assert by_kind["target met"].tolist() == (by_kind["energy within 10 %"] >= 0.9).tolist()
    misses = pd.read_csv(tmp_path / "calibrated" / "floor_misses.csv")
    assert misses.paths.sum() == summary["training_paths"]
    # Cattaneo and Mindlin: at constant N the first unloading of two bodies of one material is
    # their first loading doubled (Masing's rule), on the FEM too (level 0: a few nodes across
    # the contact; 0.7 % at the full run's level 2); a disc on a rigid wall at nu = 0.05 (beta
    # 0.47) is not (12-20 % on the full run's walls of beta > 0.3)
    masing = pd.read_csv(tmp_path / "calibrated" / "masing.csv").set_index("counterpart")
    assert len(masing.loc["disc"]) == 9 and masing.loc["disc", FIRST].max() < 0.02
    assert masing.loc["wall", FIRST] > 0.1
    out = tmp_path / "model.csv"
    assert main(["model", "--law", "calibrated", "--path", "cycle", "--delta-n", "0.005",
                 "--delta-t", "0.0005", "--steps", "5", "--results", str(tmp_path), "--out",
                 str(out), "--json"]) == 0
    model = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert model["energy_per_cycle"] > 0 and model["law"] == "calibrated"


def test_a_broken_coefficients_file_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "calibrated").mkdir()
    (tmp_path / "calibrated" / "coefficients.json").write_text("{not json")
    assert main(["model", "--law", "calibrated", "--path", "hold-normal", "--results",
                 str(tmp_path), "--out", str(tmp_path / "m.csv")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "coefficients.json" in err and "is not JSON" in err


def test_the_form_floor_benchmark_runs_the_law_on_a_contacts_own_constants():
    """``benchmarks/calibrated_form_floor.py`` runs the law on (C1)'s constants of its grid: on
    tables the shipped law made (a wall and discs), the contact's own shift of B and kappa put
    back on the uncoupled curve give those tables again, and the grid's best pair puts every
    path of the contact under 5 %."""
    bench = benchmark_module("calibrated_form_floor")
    truth, uncoupled = bench.uncoupled_coefficients()
    spec = expand(tomllib.loads(SPEC))
    walls = [(run, CalibratedModel(run.case.pair(), truth).run(run.fem_path().path()))
             for run in spec.default_runs if run.case.wall]
    for group in bench.contacts(walls):
        batch = batches(group)[0]
        a = np.where(batch.a > 0, batch.a, 1.0)
        base, shipped = curve_constants(batch.pair, a, uncoupled), curve_constants(batch.pair, a,
                                                                                  truth)
        shift = float(np.ravel(shipped.B - base.B)[0])
        kappa = float(np.ravel(shipped.kappa)[0])
        assert shift != 0.0 and kappa < float(np.ravel(base.kappa)[0])  # the wall's coupling
        again = bench.path_errors(batch, bench.with_constants(base, shift, kappa))
        assert np.abs(again).max() < 1e-9
        best, _, _ = bench.best_constants(batch, base, KAPPA_FLOOR)
        assert np.abs(best).max() < 0.05


def test_the_two_curve_emulation_with_one_curve_is_the_law_at_a_held_approach():
    """``benchmarks/two_curve_cycles.py`` emulates the law on cycles at a held delta_n in closed
    form, at the first reversal's N: with one pair of constants for both curves (the contact's
    shipped shift of B and kappa) it gives the tables the shipped law without its extra slips
    made (one curve, the law's form before them), to 1e-3 of their amplitude (the overlap, and
    so N, moves a little with delta_t: up to 2.8e-4 at a/R 0.15)."""
    bench = benchmark_module("two_curve_cycles")
    shipped, uncoupled = bench.uncoupled_coefficients()
    truth = replace(shipped, first_slip=(0.0, 0.0))
    made = [(run, CalibratedModel(run.case.pair(), truth).run(run.fem_path().path()))
            for run in expand(tomllib.loads(SPEC)).default_runs if run.case.path == "cycle"]
    groups = bench.contacts(made)
    assert {group[0][0].case.counterpart for group in groups} == {"disc", "wall"}
    for group in groups:
        batch = batches(group)[0]
        stages = [table.stage.to_numpy() for _, table in group]
        turns = [np.flatnonzero(stage == "tangential")[-1] for stage in stages]
        a = np.where(batch.a > 0, batch.a, 1.0)
        base, shipped = (curve_constants(batch.pair, a, uncoupled),
                         curve_constants(batch.pair, a, truth))
        B = np.array([base.B[row, turn] for row, turn in enumerate(turns)])
        pair = (float(shipped.B[0, turns[0]] - base.B[0, turns[0]]),
                float(np.ravel(shipped.kappa)[0]))
        assert bench.cycle_errors(batch, stages, B, pair, pair).max() < 1e-3
