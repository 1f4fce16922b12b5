"""The Eq. 33 refit and the constant-w errors, on tables whose answers are known."""
import math

import numpy as np
import pandas as pd
import pytest

from hertz2d.calibration.laws.closed_forms import EQ33_COEFFICIENTS, penalty_factor_eq33
from hertz2d.calibration.penalty.regression import constant_w_errors, fit_eq33
from hertz2d.checks import InputError


def grid_table(w_function, support="clamped"):
    ratios, poissons = np.meshgrid(np.linspace(0.01, 0.15, 8), np.linspace(0, 0.49, 6))
    frame = pd.DataFrame({"a_over_R": ratios.ravel(), "nu": poissons.ravel()})
    frame["R"], frame["a"] = 0.5, 0.5 * frame.a_over_R
    frame["w_fem"] = w_function(frame.a_over_R, frame.nu)
    frame["study"], frame["support"], frame["status"] = "grid", support, "ok"
    return frame


def test_refit_recovers_coefficients_of_an_exact_eq33_table():
    coefficients = (0.3, 1.0, 0.2, -5.0, 2.0, 0.1)
    fit = fit_eq33(grid_table(lambda x, n: penalty_factor_eq33(x, n, coefficients)), "clamped")
    np.testing.assert_allclose(fit.coefficients, coefficients, atol=1e-10)
    assert fit.r2 == pytest.approx(1.0, abs=1e-12) and fit.rmse < 1e-12


def test_paper_coefficients_are_judged_on_the_same_cases():
    table = grid_table(lambda x, n: penalty_factor_eq33(x, n, EQ33_COEFFICIENTS) + 0.01)
    fit = fit_eq33(table, "clamped")
    assert fit.paper_rmse == pytest.approx(0.01, rel=1e-9)  # a constant offset of 0.01
    assert fit.rmse < 1e-12  # the offset is absorbed by the intercept


def test_refit_refuses_too_few_cases():
    table = grid_table(lambda x, n: penalty_factor_eq33(x, n)).head(5)
    with pytest.raises(InputError, match="support='clamped' has 5 finished grid cases"):
        fit_eq33(table, "clamped")


def test_constant_w_errors_vanish_where_fem_w_is_the_constant_and_have_opposite_signs():
    errors = constant_w_errors(grid_table(lambda x, n: 0.5 + 0.2 * (n - 0.25)))
    at_half = errors[np.isclose(errors.w_fem, 0.5)]
    assert np.allclose(at_half[["displacement_error", "force_error"]], 0.0, atol=1e-14)
    # one case by hand from Eq. 20's bracket: a/R = 0.05 (R = 0.5, a = 0.025), nu = 0.294, w_fem 0.7
    table = grid_table(lambda x, n: 0.7 + 0 * x)
    row = constant_w_errors(table[np.isclose(table.a_over_R, 0.05) & np.isclose(table.nu, 0.294)])
    nu = 0.294

    def bracket(w):
        return math.log(2 / 0.05) + 0.5 + w * (math.log(4 / 0.05) + nu / (2 * (1 - nu)))

    assert len(row) == 1
    assert row.displacement_error.iloc[0] == pytest.approx(bracket(0.5) / bracket(0.7) - 1,
                                                           rel=1e-12)
    assert row.force_error.iloc[0] == pytest.approx(bracket(0.7) / bracket(0.5) - 1, rel=1e-12)
    # w = 0.5 below the FEM's w: too little displacement at a given force, too much force
    assert row.displacement_error.iloc[0] < 0 < row.force_error.iloc[0]
