"""The validation stage: error metrics on tables with known answers, and one quick end-to-end run."""

import numpy as np
import pandas as pd
import pytest

from hertz2d.calibration.validation.comparison import (error_table, linear_spring_from, regimes,
                                               with_stiffness)
from hertz2d.calibration.validation.fem_runs import FemRun
from hertz2d.calibration.validation.outputs import ValidationRecord


def fem_table():
    """A made-up FEM table: normal stage, partial slip (c > 0), full slip (c = 0)."""
    delta_t = np.array([0, 0, 0.001, 0.002, 0.003, 0.004])
    return pd.DataFrame({"step": np.arange(1, 7), "delta_n": [0.01, 0.02, 0.02, 0.02, 0.02, 0.02],
                         "delta_t": delta_t, "Fx": [0.0, 0.0, 1.0, 1.8, 2.2, 2.1],
                         "N": [5.0, 10.0, 10.0, 10.0, 10.0, 10.0],
                         "c": [1.0, 1.0, 0.6, 0.3, 0.0, 0.0],
                         "stage": ["normal"] * 2 + ["tangential"] * 4})


def law_from(table, scale):
    law = table.copy()
    law[["Fx", "N"]] *= scale
    return with_stiffness(law).assign(source=f"x{scale}", case="case 1")


def test_regimes_follow_the_fem_stick_zone():
    assert list(regimes(fem_table())) == ["normal loading"] * 2 + ["partial slip"] * 2 + [
        "full slip"] * 2


def test_error_table_measures_relative_errors_per_regime():
    fem = FemRun("case 1", "clamped", 3, fem_table(), pd.DataFrame(), None)
    curves = pd.concat([law_from(fem_table(), 1.0), law_from(fem_table(), 1.1)])
    errors = error_table([fem], curves).set_index(["law", "quantity", "regime"])
    exact, off = errors.loc["x1.0"], errors.loc["x1.1"]
    assert np.allclose(exact[["max_rel_error", "rms_rel_error"]], 0.0)
    # scaling every force by 1.1 is a 10 % error of force and of stiffness in every regime
    assert np.allclose(off[["max_rel_error", "rms_rel_error"]], 0.1)
    assert set(off.index) == {("normal force", "normal loading"), ("normal force", "partial slip"),
                              ("normal force", "full slip"), ("horizontal force", "partial slip"),
                              ("horizontal force", "full slip"),
                              ("tangential stiffness", "partial slip"),
                              ("tangential stiffness", "full slip")}


def test_linear_spring_regression_reads_the_case2_forces():
    delta = np.linspace(0.001, 0.025, 25)
    table = pd.DataFrame({"delta_n": delta, "delta_t": delta, "Fz": 2.7e9 * delta,
                          "Fx": 1.5e9 * delta})
    spring = linear_spring_from(table, mu=0.3)
    assert (spring.kn, spring.kt) == (pytest.approx(2.7e9), pytest.approx(1.5e9))


def test_quick_validation_writes_every_output(quick_results):
    results, summary = quick_results
    folder = results / "validation"
    for name in ("curves.csv", "profiles.csv", "verification.csv", "errors.csv", "summary.json",
                 "fig11_tractions.png", "fig12_horizontal_force.png",
                 "fig13_secant_stiffness.png", "fig14_simplified.png", "fig15_case2.png",
                 "laws_case1.png", "secant_drop.csv", "unit_free.csv"):
        assert (folder / name).stat().st_size > 0, name
    errors = pd.read_csv(folder / "errors.csv")
    assert set(errors.law) == set(summary.laws) and not summary.failures
    assert not list(folder.glob(".*"))  # no temporary file left behind


def test_the_papers_models_match_the_clamped_fem_as_the_paper_says(quick_results):
    # "the horizontal forces evaluated from the proposed contact model are a fairly good match"
    results, _ = quick_results
    errors = pd.read_csv(results / "validation" / "errors.csv")
    mine = errors[(errors.support == "clamped") & (errors.case == "case 1")
                  & (errors.quantity == "horizontal force")].set_index(["law", "regime"])
    appendix = [law for law in mine.index.levels[0] if law.startswith("Appendix C")][0]
    assert mine.loc[(appendix, "partial slip"), "max_rel_error"] < 0.06
    assert mine.loc[(appendix, "full slip"), "max_rel_error"] < 0.02
    # the 3D sphere law misapplied to discs is far off (its force scales differently)
    assert mine.loc[("3D Hertz-Mindlin on discs", "full slip"), "max_rel_error"] > 0.5


def test_verification_of_the_two_disc_fem_in_the_quick_run(quick_results):
    results, _ = quick_results
    table = pd.read_csv(results / "validation" / "verification.csv")
    finer = table[table.level == table.level.max()].set_index("support")
    assert finer.loc["symmetric", "N / Eq. 23"] == pytest.approx(1.0, abs=0.005)
    assert (finer["p RMS error / p0"] < 0.02).all()
    assert finer.loc["clamped", "c / Eq. 7"] == pytest.approx(1.0, abs=0.03)
    assert (finer["gap residual (element lengths)"] < 1e-9).all()
    assert ValidationRecord.read(results).spring("clamped").kn == pytest.approx(2.7e9, rel=0.1)
