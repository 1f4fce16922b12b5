"""The biaxial test (Section 4.3): the schedule, its measurements, the stage and ``hertz2d dem
biaxial``."""
import io
import json
import math
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("numba")

from hertz2d.calibration import fitted  # noqa: E402
from hertz2d.calibration.biaxial.comparison import differences, spread  # noqa: E402
from hertz2d.calibration.biaxial.laws import selection  # noqa: E402
from hertz2d.calibration.biaxial.runs import BiaxialCase, biaxial_runs  # noqa: E402
from hertz2d.calibration.cli import main  # noqa: E402
from hertz2d.calibration.laws.calibrated import (FORMAT, FORMAT_VERSION, SHIPPED_COEFFICIENTS,  # noqa
                                         CalibratedCoefficients)
from hertz2d.calibration.runs.store import CaseStore  # noqa: E402
from hertz2d.checks import InputError  # noqa: E402
from hertz2d.dem import Damping, Law, analysis  # noqa: E402
from hertz2d.dem.biaxial import (BOTTOM, LEFT, RIGHT, TOP, BiaxialSettings, headline,  # noqa: E402
                         new_simulation, run_biaxial, start_stage)
from hertz2d.dem.jit import DRIVERS  # noqa: E402

QUICK = BiaxialSettings.quick()
LINEAR = Law.linear(2.7e9, 1.5e9, 0.3)
G = 9.81


def compressed(law, seed=1):
    """A quick packing after its settling and isotropic stages."""
    run = new_simulation(law, Damping(local=0.7), QUICK, seed)
    run.advance(QUICK.steps(QUICK.settle))
    start_stage(run, "isotropic", QUICK)
    run.advance(QUICK.steps(QUICK.isotropic))
    return run


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def quick_stage(tmp_path_factory):
    """``hertz2d dem biaxial --quick --json`` on a results root without fits, and none shipped
    (the paper's laws: Eq. 33, w = 0.5, the paper's spring, Hertz-Mindlin, on 2 packings, and the
    damping study), then ``--law linear`` alone: ``(results root, the first run's JSON, the
    second's)``."""
    results = tmp_path_factory.mktemp("biaxial")
    summaries = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fitted, "SHIPPED", tmp_path_factory.mktemp("nothing-shipped"))
        for extra in ([], ["--law", "linear"]):
            printed = io.StringIO()
            with redirect_stdout(printed):
                assert main(["dem", "biaxial", "--quick", "--results", str(results), "--jobs",
                             "2", "--json", *extra]) == 0
            summaries.append(json.loads(printed.getvalue().strip().splitlines()[-1]))
    return results, *summaries


def test_quick_stage_writes_every_output_and_closes_its_energy_balance(quick_stage):
    results, summary, rerun = quick_stage
    assert {"laws", "peak_deviator", "volumetric_strain", "energy_balance_error", "steps",
            "seconds", "residual_deviator", "law_source", "failures"} <= set(summary)
    assert summary["reused"] == 0 and not summary["failures"]
    assert set(summary["laws"]) == {"simplified-eq33", "simplified-w0.5", "linear-paper",
                                    "hertz-mindlin"}
    assert summary["fit_source"] is None  # no law read a fit
    assert summary["steps"] == QUICK.total_steps
    assert summary["energy_balance_error"] < 0.01
    for key in summary["laws"]:
        assert summary["peak_deviator"][key]["n"] == 2
        assert summary["peak_deviator"][key]["mean"] > 0
    # the linear spring's rerun finds its runs in the case store: the same numbers
    assert list(rerun["laws"]) == ["linear-paper"] and rerun["reused"] == rerun["runs"] == 2
    for quantity in ("peak_deviator", "residual_deviator", "volumetric_strain"):
        assert rerun[quantity]["linear-paper"] == summary[quantity]["linear-paper"]
    folder = results / "dem" / "biaxial"
    for name in ("runs.csv", "comparison.csv", "differences.csv", "damping.csv", "summary.json",
                 "fig16_snapshots.png", "fig17_comparison.png", "fig18_volume.png",
                 "deviator.png", "contacting_kinetic.png", "overlaps.png",
                 "tangential_forces.png", "velocity_profiles.png", "damping.png"):
        assert (folder / name).stat().st_size > 0, name
    runs = pd.read_csv(folder / "runs.csv")
    assert (runs.energy_balance_error < 0.01).all()
    for key in summary["laws"]:
        law = folder / key
        for name in ("series.csv", "shear.csv", "contacts.csv", "profiles.csv", "summary.json",
                     "fig16_snapshots.png", "fig17.png", "energies.png", "paraview/biaxial.pvd"):
            assert (law / name).stat().st_size > 0, (key, name)
        assert list(law.glob("animation.*"))
        frames = len(list((law / "paraview").glob("biaxial_discs_*.vtu")))
        pvd = (law / "paraview" / "biaxial.pvd").read_text()
        assert frames > 5 and pvd.count("<DataSet") == 2 * frames


def test_quick_stage_servo_holds_the_confining_stress(quick_stage):
    """At the end of the isotropic stage the three servo walls hold 0.1 GPa; in the shear stage
    the side walls stay there."""
    runs = pd.read_csv(quick_stage[0] / "dem" / "biaxial" / "runs.csv")
    assert (runs.servo_error < 1e-3).all()
    assert (runs.lateral_stress_error_in_shear < 0.01).all()
    series = pd.read_csv(quick_stage[0] / "dem" / "biaxial" / "linear-paper" / "series.csv")
    end = series[series.stage == "isotropic"].iloc[-1]
    for wall in (RIGHT, TOP, LEFT):
        assert end[f"wall{wall}_stress"] == pytest.approx(QUICK.stress, rel=1e-3)


def test_quick_stage_damping_study_and_comparison_tables(quick_stage):
    folder = quick_stage[0] / "dem" / "biaxial"
    damping = pd.read_csv(folder / "damping.csv")
    assert set(damping.damping) == {"local damping 0.7", "local damping 0.3",
                                    "damping ratio 0.7, dt 5e-06 s", "damping ratio 0.3",
                                    "local damping 0.7, dt 5e-06 s"}
    runs = pd.read_csv(folder / "runs.csv")
    mine = runs[runs.damping == "local damping 0.7"]
    table = pd.read_csv(folder / "comparison.csv")
    row = table[(table.law == "linear-paper") & (table.quantity == "peak_deviator")].iloc[0]
    values = mine[mine.law == "linear-paper"].peak_deviator
    assert row["mean"] == pytest.approx(values.mean()) and row["n"] == len(values)


def test_a_fixed_seed_reproduces_the_run_to_the_bit():
    first = run_biaxial(LINEAR, settings=QUICK, seed=4)
    second = run_biaxial(LINEAR, settings=QUICK, seed=4)
    pd.testing.assert_frame_equal(first.series, second.series, check_exact=True)
    pd.testing.assert_frame_equal(first.contacts, second.contacts, check_exact=True)
    other = run_biaxial(LINEAR, settings=QUICK, seed=5)
    assert not np.allclose(other.series.deviator, first.series.deviator)


def test_runs_are_stored_and_a_rerun_reuses_them(tmp_path):
    store = CaseStore("biaxial-test", tmp_path / "cases.sqlite")
    cases = [BiaxialCase("linear-paper", LINEAR, Damping(local=0.7), QUICK, 2)]
    first = biaxial_runs(cases, store=store, progress=False)
    again = biaxial_runs(cases, store=store, progress=False)
    assert not first[0].reused and again[0].reused
    pd.testing.assert_frame_equal(first[0].series, again[0].series, check_exact=True)
    assert first[0].headline == again[0].headline


def test_a_law_failure_is_recorded_with_its_reason_and_not_stored(tmp_path):
    """A contact law pushed beyond its domain (the paper's law with a modulus so low that 0.1
    GPa passes Eq. 23's largest approach) fails that run only."""
    store = CaseStore("biaxial-test", tmp_path / "cases.sqlite")
    soft = Law.simplified(1e7, 0.25, 0.3)
    cases = [BiaxialCase("soft", soft, Damping(local=0.7), QUICK, 1),
             BiaxialCase("linear-paper", LINEAR, Damping(local=0.7), QUICK, 1)]
    runs = biaxial_runs(cases, store=store, progress=False)
    assert "largest approach" in runs[0].failure and runs[1].failure is None
    assert [run.reused for run in biaxial_runs(cases, store=store, progress=False)] == [
        False, True]


@pytest.mark.parametrize("law", [Law.linear(2.7e9, 1.5e9, 0.0), Law.simplified(10e9, 0.25, 0.0)],
                         ids=["linear", "simplified"])
def test_disc_stresses_sum_to_the_walls_moments_in_equilibrium(law):
    """Sum over the discs of area x Love-Weber stress = sum of x (x) f over the wall contacts
    plus the weights' moment (frictionless walls: only the walls' normal forces, from the
    engine), once the isotropic stage has jammed the packing."""
    run = compressed(law)
    walls = run.walls
    assert run.discs.kinetic_energy() < 1e-12  # static
    table = analysis.contact_table(run.discs, walls, run.contacts)
    total = np.sum(analysis.disc_stresses(run.discs, table)
                   * (math.pi * run.discs.radius**2)[:, None], axis=0)
    xx = -(walls.point[RIGHT, 0] * walls.force[RIGHT, 0]
           + walls.point[LEFT, 0] * walls.force[LEFT, 0])
    yy = (-(walls.point[TOP, 1] * walls.force[TOP, 1]
            + walls.point[BOTTOM, 1] * walls.force[BOTTOM, 1])
          - G * np.sum(run.discs.mass * run.discs.position[:, 1]))
    assert total[0] == pytest.approx(xx, rel=1e-9)
    assert total[1] == pytest.approx(yy, rel=1e-9)


def test_contact_table_forces_are_the_engines():
    """Per disc, the forces of the contact table add up to the engine's spring forces and
    moments (signs, lever arms, mirror rule)."""
    run = compressed(Law.simplified(10e9, 0.25, 0.3), seed=3)
    run.walls.set_velocity(TOP, (0.0, -0.1))
    run.advance(5000)  # shearing: sliding contacts
    table = analysis.contact_table(run.discs, run.walls, run.contacts)
    assert len(table) > run.discs.count and (table.wall >= 0).any()
    assert (analysis.mobilised_friction(table, 0.3) > 1 - 1e-9).any()
    normal = table[["nx", "ny"]].to_numpy()
    tangent = np.column_stack([-normal[:, 1], normal[:, 0]])
    force = -table["N"].to_numpy()[:, None] * normal + table["T"].to_numpy()[:, None] * tangent
    total = np.zeros((run.discs.count, 3))
    pairs = (table.wall == analysis.DISC_PAIR).to_numpy()
    j = table.j.to_numpy()[pairs]
    for c in range(2):
        np.add.at(total[:, c], table.i.to_numpy(), force[:, c])
        np.add.at(total[:, c], j, -force[pairs, c])
    np.add.at(total[:, 2], table.i.to_numpy(), table.lever.to_numpy() * table["T"].to_numpy())
    lever_j = run.discs.radius[j] - table.overlap.to_numpy()[pairs] / 2
    np.add.at(total[:, 2], j, lever_j * table["T"].to_numpy()[pairs])
    scale = np.abs(run.forces.elastic).max()
    assert np.abs(total - run.forces.elastic).max() < 1e-9 * scale


def test_velocity_profiles_of_an_affine_motion():
    """Discs moving with the box's affine velocity field: every slice's mean velocity is the
    field at the slice's mean coordinate, and ``affine`` is the field at the slice centre."""
    run = new_simulation(LINEAR, Damping(), QUICK, 2)
    walls, discs = run.walls, run.discs
    walls.set_velocity(TOP, (0.0, -0.1))
    walls.set_velocity(RIGHT, (0.02, 0.0))
    x, y = discs.position[:, 0], discs.position[:, 1]
    discs.velocity[:, 0] = 0.02 * x / QUICK.width
    discs.velocity[:, 1] = -0.1 * y / QUICK.height
    table = analysis.velocity_profiles(discs, walls, 5, LEFT, RIGHT, BOTTOM, TOP)
    bins = np.clip((y / QUICK.height * 5).astype(int), 0, 4)
    rows = table[table.axis == "y"]
    for k, row in enumerate(rows.itertuples()):
        assert row.velocity == pytest.approx(-0.1 * y[bins == k].mean() / QUICK.height)
        assert row.affine == pytest.approx(-0.1 * row.position)
    assert rows.discs.sum() == discs.count


def test_differences_exceed_the_scatter_only_for_a_real_shift():
    rng = np.random.default_rng(0)
    base = rng.normal(100.0, 5.0, 5)
    rows = [{"law": law, "seed": seed, "failure": np.nan, "peak_deviator": value,
             "residual_deviator": value, "volumetric_strain": value}
            for law, values in (("a", base), ("b", base + 50.0 + rng.normal(0.0, 1.0, 5)),
                                ("c", base + rng.normal(0.0, 1.0, 5)))
            for seed, value in enumerate(values)]
    runs = pd.DataFrame(rows)
    table = spread(runs)
    a = table[(table.law == "a") & (table.quantity == "peak_deviator")].iloc[0]
    assert a["mean"] == pytest.approx(base.mean()) and a["std"] == pytest.approx(base.std(ddof=1))
    pairs = differences(runs).set_index(["a", "b", "quantity"])
    assert pairs.loc[("a", "b", "peak_deviator"), "exceeds_scatter"]
    assert not pairs.loc[("a", "c", "peak_deviator"), "exceeds_scatter"]
    assert pairs.loc[("a", "b", "peak_deviator"), "difference"] == pytest.approx(-50.0, abs=2.0)


def test_the_exported_law_json_is_the_law_the_dem_runs(tmp_path, capsys):
    assert run_cli(capsys, "export-law", "--penalty", "0.45", "--results", str(tmp_path))[0] == 0
    laws, _, _ = selection(tmp_path, 10e9, 0.25, 0.3)
    assert laws[0].key == "simplified-exported" and "law.json" in laws[0].source
    assert laws[0].law.parameters[-6:].tolist() == [0.45, 0, 0, 0, 0, 0]
    # a law.json holding Eq. 33 is the Eq. 33 entry, read from the file, not a second run
    assert run_cli(capsys, "export-law", "--penalty", "eq33", "--results", str(tmp_path))[0] == 0
    laws, _, _ = selection(tmp_path, 10e9, 0.25, 0.3)
    assert laws[0].key == "simplified-eq33" and "law.json" in laws[0].source
    assert [law.key for law in laws].count("simplified-eq33") == 1
    chosen, _, comparing = selection(tmp_path, 10e9, 0.25, 0.3, law="simplified")
    assert not comparing and chosen[0].key == "simplified-eq33"


def test_an_empty_results_root_runs_the_refits_shipped_with_hertz2d(tmp_path):
    laws, notes, _ = selection(tmp_path, 10e9, 0.25, 0.3)
    by_key = {law.key: law for law in laws}
    for key in ("simplified-refit", "simplified-confined", "calibrated"):
        assert by_key[key].fit.source == "shipped" and "shipped" in by_key[key].source
    assert by_key["calibrated"].law.name == "calibrated"
    assert [note.split(":")[0] for note in notes] == ["linear-fem"]


def test_laws_missing_their_files_are_left_out_with_a_note(tmp_path, monkeypatch):
    monkeypatch.setattr(fitted, "SHIPPED", tmp_path / "nothing-shipped")
    laws, notes, comparing = selection(tmp_path, 10e9, 0.25, 0.3)
    assert comparing
    assert [law.key for law in laws] == ["simplified-eq33", "simplified-w0.5", "linear-paper",
                                        "hertz-mindlin"]
    assert any("simplified-refit" in note and "fit.json" in note for note in notes)
    assert any("linear-fem" in note and "summary.json" in note for note in notes)
    assert any("calibrated" in note and "coefficients.json" in note for note in notes)
    with pytest.raises(InputError, match="law='calibrated' cannot run: calibrated: no "):
        selection(tmp_path, 10e9, 0.25, 0.3, law="calibrated")


def test_the_results_roots_calibrated_coefficients_take_precedence(tmp_path):
    """``--law calibrated`` runs the coefficients of <results>/calibrated/coefficients.json
    when there is one (as hertz2d calibrate writes it), else the shipped ones."""
    shipped, _, _ = selection(tmp_path, 10e9, 0.25, 0.3, law="calibrated")
    assert shipped[0].fit.source == "shipped"
    own = CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS)
    own = CalibratedCoefficients(**{**own.as_dict(), "bracket": (0.1, 0.2, 0.3, 0.4)})
    (tmp_path / "calibrated").mkdir()
    (tmp_path / "calibrated" / "coefficients.json").write_text(json.dumps(
        {"format": FORMAT, "format_version": FORMAT_VERSION, "coefficients": own.as_dict()}))
    chosen, _, comparing = selection(tmp_path, 10e9, 0.25, 0.3, law="calibrated")
    assert not comparing and chosen[0].fit.source == "results"
    np.testing.assert_array_equal(chosen[0].law.parameters,
                                  Law.calibrated(10e9, 0.25, 0.3, own).parameters)
    assert not np.array_equal(chosen[0].law.parameters, shipped[0].law.parameters)


@pytest.mark.parametrize("content", ['{"coefficients": {"penalty": [1, 2]}}', "{not json",
                                     '{"coefficients": null}'])
def test_a_corrupt_calibrated_coefficients_file_exits_2_naming_it(capsys, tmp_path, content):
    (tmp_path / "calibrated").mkdir()
    (tmp_path / "calibrated" / "coefficients.json").write_text(content)
    for argv in (["--law", "calibrated"], []):
        code, out, err = run_cli(capsys, "dem", "biaxial", "--quick", "--results",
                                 str(tmp_path), *argv)
        assert code == 2 and "coefficients.json" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "dem" / "biaxial" / "calibrated").exists()


def test_all_skips_the_dem_stage_without_numba(monkeypatch, tmp_path, hertz2d_records):
    from hertz2d.calibration.commands import all_stages
    from hertz2d.calibration.runs.executors import Inline

    monkeypatch.setattr(all_stages.importlib.util, "find_spec", lambda name: None)
    assert all_stages._biaxial(True, Inline(), tmp_path) is None
    assert "numba" in hertz2d_records[0].getMessage() and not (tmp_path / "dem").exists()


def test_every_driver_module_of_the_engine_is_pure_python():
    """The engine's numba cache ignores hertz2d.dem.jit.DRIVERS: none may define compiled code."""
    folder = Path(analysis.__file__).parent
    for name in DRIVERS:
        source = (folder / name).read_text()
        assert "njit" not in source and "hertz2d.dem.jit" not in source, name


@pytest.mark.parametrize("argv, bad", [
    (["--law", "spring"], "law='spring'"),
    (["--penalty", "1.5"], "penalty=1.5"),
    (["--penalty", "often"], "penalty='often'"),
    (["--law", "linear", "--penalty", "0.5"], "penalty='0.5'"),
    (["--law", "linear-fem"], "law='linear-fem'"),
    (["--seeds", "0"], "seeds=0"),
    (["--seeds", "51"], "seeds=51"),
    (["--jobs", "0"], "jobs=0"),
])
def test_bad_biaxial_input_exits_2_with_one_line_naming_the_value(capsys, tmp_path, argv, bad):
    code, out, err = run_cli(capsys, "dem", "biaxial", "--quick", "--results", str(tmp_path),
                             *argv)
    assert code == 2 and bad in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "dem").exists()


def test_a_corrupt_law_json_exits_2_naming_it(capsys, tmp_path):
    (tmp_path / "law").mkdir()
    (tmp_path / "law" / "law.json").write_text("{not json")
    code, _, err = run_cli(capsys, "dem", "biaxial", "--quick", "--results", str(tmp_path))
    assert code == 2 and "law.json" in err


def test_a_results_root_that_is_a_file_exits_2(capsys, tmp_path):
    target = tmp_path / "file"
    target.write_text("")
    code, _, err = run_cli(capsys, "dem", "biaxial", "--quick", "--results", str(target))
    assert code == 2 and "results=" in err


@pytest.mark.slow
@pytest.mark.parametrize("law", [Law.simplified(10e9, 0.25, 0.3), LINEAR,
                                 Law.hertz_mindlin(10e9, 0.25, 0.3),
                                 Law.calibrated(10e9, 0.25, 0.3, CalibratedCoefficients.from_file(
                                     SHIPPED_COEFFICIENTS))],
                         ids=["simplified", "linear", "hertz-mindlin", "calibrated"])
def test_the_papers_whole_schedule_closes_its_energy_balance(law):
    """The paper's 200 discs, 5 s settling, 1 s isotropic servo to 0.1 GPa, 2 s shear at
    0.1 m/s, local damping 0.7: work of walls and gravity = kinetic + elastic + dissipated
    within 1 %, and the servo at its target."""
    run = run_biaxial(law, seed=1)
    numbers = headline(run)
    assert numbers["energy_balance_error"] < 0.01
    assert numbers["servo_error"] < 1e-3 and numbers["lateral_stress_error_in_shear"] < 0.01
    # the top wall moved 0.1 m/s x 2 s = 0.2 m down from the height the isotropic stage left
    # (about 20 % axial strain for the 2D laws; more for Hertz-Mindlin, whose packing the
    # isotropic stress compresses far more)
    start = run.series[run.series.stage != "shear"].iloc[-1]
    settings = run.settings
    assert numbers["axial_strain"] == pytest.approx(
        settings.shear_speed * settings.shear / start.height, rel=1e-3)


@pytest.mark.parametrize("difference, exceeds, expected", [
    (+20e6, True, "reproduced, beyond the scatter"),
    (-20e6, True, "the opposite, beyond the scatter"),
    (-20e6, False, "opposite ordering, within the packings' scatter"),
    (+2e6, False, "same ordering, within the packings' scatter"),
])
def test_the_report_judges_the_papers_ordering_against_the_scatter(difference, exceeds,
                                                                    expected):
    from types import SimpleNamespace

    from hertz2d.calibration.report.dem_sections import _verdict

    results = SimpleNamespace(
        differences=pd.DataFrame([{"a": "hertz", "b": "linear", "quantity": "residual_deviator",
                                   "difference": difference, "exceeds_scatter": exceeds,
                                   "paired_p": 0.01 if exceeds else 0.4}]),
        value=lambda key, quantity: {"n": 5})
    verdict = _verdict(results, "hertz", "linear", "residual_deviator", +1)
    assert verdict.startswith(expected)
    assert _verdict(results, "hertz", "linear", "volumetric_strain", +1) == "not compared"
