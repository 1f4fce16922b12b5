"""The reduced parametric solve over the Poisson ratio against direct solves on the same mesh."""
import numpy as np
import pytest

from hertz2d.calibration.laws.closed_forms import penalty_factor_from_displacement
from hertz2d.fem.halfround import HalfRoundBody
from hertz2d.fem.parametric import TOLERANCE, parametric_outputs, shifts_for

E, R = 10e9, 0.5
GRID_NUS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.49)


def ratio(nu):
    return 2.0 * nu / (1.0 - 2.0 * nu)


def direct_w(body, nu, support):
    return float(penalty_factor_from_displacement(
        body.solve(E, nu, support)[0].tangential, 1.0, E, nu, body.R, body.a))


@pytest.mark.parametrize("support", ["clamped", "symmetric"])
def test_swept_poisson_ratios_equal_direct_solves(support):
    # a fresh body per support: compliance() must come from sweep_poisson, solve() directly
    swept = HalfRoundBody(R, 0.05 * R)
    swept.sweep_poisson(GRID_NUS, support)
    for nu in GRID_NUS:
        reduced = swept.compliance(E, nu, support)
        direct = swept.solve(E, nu, support)[0]
        assert reduced.tangential == pytest.approx(direct.tangential, rel=TOLERANCE)
        assert reduced.normal == pytest.approx(direct.normal, rel=TOLERANCE)
        w = penalty_factor_from_displacement(reduced.tangential, 1.0, E, nu, R, swept.a)
        assert w == pytest.approx(direct_w(swept, nu, support), abs=1e-6)


@pytest.fixture(scope="module", params=["clamped", "symmetric"])
def problem(request):
    """A level-1 body's operands and the direct solve (tolerance 0) at every grid ratio."""
    body = HalfRoundBody(R, 0.05 * R, level=1)
    free, parts, factorizer, relief = body.support(request.param)
    measured = np.zeros((body.dofs, 2))
    measured[body.top, [0, 1]] += 1.0
    measured[body.base_centre, [0, 1]] -= 1.0
    loads = np.column_stack([body.tangential_load + relief, body.normal_load])
    operands = (parts, loads[free], measured[free], [ratio(nu) for nu in GRID_NUS], factorizer)
    exact = parametric_outputs(*operands, tolerance=0.0)
    assert exact.direct.all() and exact.factorisations == len(GRID_NUS)
    return operands, exact


def test_error_bound_holds_for_a_poor_basis(problem):
    # one Krylov block at two shifts leaves errors above the tolerance: each inside its bound
    operands, exact = problem
    poor = parametric_outputs(*operands, tolerance=np.inf, step=100.0, moments=1)
    error = np.abs(poor.outputs - exact.outputs)
    reduced = ~poor.direct
    assert reduced.sum() == len(GRID_NUS) - 2 and poor.factorisations == 2
    assert (error[reduced] <= poor.bounds[reduced]).all()
    assert error[reduced].max() > TOLERANCE * np.abs(exact.outputs).max()  # the test has teeth


def test_default_basis_needs_few_factorisations_and_meets_its_tolerance(problem):
    operands, exact = problem
    result = parametric_outputs(*operands)
    assert result.factorisations <= 4
    assert np.all(np.abs(result.outputs - exact.outputs) <= TOLERANCE * np.abs(exact.outputs))


def test_shifts_span_the_ratios_in_bounded_steps():
    ratios = [ratio(nu) for nu in GRID_NUS]
    shifts = shifts_for(ratios, step=10.0)
    assert shifts[0] == min(ratios) and shifts[-1] == max(ratios)
    assert set(shifts) <= set(ratios)
    assert all((1 + b) / (1 + a) <= 10.0 for a, b in zip(shifts, shifts[1:]))
    assert shifts_for([0.5], step=10.0) == [0.5]
