"""The paper's statements about w (Section 4.1, Figs. 7-9), checked on the quick a/R x nu grid
with the default (clamped) base."""
import numpy as np
import pandas as pd
import pytest

from hertz2d.calibration.penalty.regression import constant_w_errors, fit_eq33
from hertz2d.fem.supports import DEFAULT_SUPPORT


@pytest.fixture(scope="module")
def grid(quick_results):
    results, _ = quick_results  # the quick sweep the session already ran
    table = pd.read_csv(results / "penalty" / "grid.csv", keep_default_na=False, na_values=[""])
    table = table[(table.study == "grid") & (table.support == DEFAULT_SUPPORT)]
    assert len(table) and (table.status == "ok").all()
    return table


def test_w_stays_in_about_025_to_075_with_mean_about_05(grid):
    assert 0.24 <= grid.w_fem.min() and grid.w_fem.max() <= 0.76
    assert grid.w_fem.mean() == pytest.approx(0.5, abs=0.05)


def test_w_increases_with_contact_width_and_poisson_ratio(grid):
    table = grid.pivot(index="a_over_R", columns="nu", values="w_fem").to_numpy()
    assert (np.diff(table, axis=0) > 0).all()
    assert (np.diff(table, axis=1) > 0).all()


def test_eq33_describes_the_fem_as_well_as_the_paper_says(grid):
    fit = fit_eq33(grid, DEFAULT_SUPPORT)
    assert fit.paper_r2 > 0.95  # the paper reports R^2 ~ 0.97 for its own fit


def test_constant_w_errors_are_within_the_papers_bounds(grid):
    errors = constant_w_errors(grid)
    assert errors.displacement_error.abs().max() < 0.25  # paper: < 25 %
    assert errors.force_error.abs().max() < 0.20  # paper: < 20 %
