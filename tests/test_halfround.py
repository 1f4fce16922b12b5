"""Verification of the half-round FEM before any penalty factor it produces is trusted."""
import numpy as np
import pytest
from scipy.sparse.linalg import spsolve

from hertz2d.calibration.laws.closed_forms import (normal_displacement_eq17, penalty_factor_eq33,
                                 penalty_factor_from_displacement)
from hertz2d.fem.halfround import HalfRoundBody
from hertz2d.meshes.halfround import DEFAULT_LEVEL

E, NU, R = 10e9, 0.25, 0.5


def w_of(body: HalfRoundBody, E: float, nu: float, support: str) -> float:
    return float(penalty_factor_from_displacement(
        body.compliance(E, nu, support).tangential, 1.0, E, nu, body.R, body.a))


@pytest.fixture(scope="module")
def baseline():
    return HalfRoundBody(R, 0.025)


@pytest.mark.parametrize("a_over_R", [0.02, 0.05, 0.1])
def test_symmetric_support_reproduces_eq17(a_over_R):
    # Johnson's result for a disc between two Hertzian loads; the mirror plane is the base
    body = HalfRoundBody(R, a_over_R * R)
    approach = body.compliance(E, NU, "symmetric").normal
    assert approach == pytest.approx(normal_displacement_eq17(1.0, E, NU, R, a_over_R * R),
                                     rel=0.005)


def test_clamped_base_is_stiffer_than_the_mirror_plane(baseline):
    # fixing the base's tangential displacement too removes its Poisson spreading
    clamped = baseline.compliance(E, NU, "clamped").normal
    symmetric = baseline.compliance(E, NU, "symmetric").normal
    assert clamped < symmetric
    assert clamped == pytest.approx(normal_displacement_eq17(1.0, E, NU, R, 0.025), rel=0.05)


@pytest.mark.parametrize("support", ["clamped", "symmetric"])
def test_penalty_factor_is_independent_of_size(support):
    reference = w_of(HalfRoundBody(R, 0.025, level=1), E, NU, support)
    for radius in (0.05, 5.0):
        assert w_of(HalfRoundBody(radius, 0.05 * radius, level=1), E, NU, support) == \
            pytest.approx(reference, abs=1e-9)


@pytest.mark.parametrize("support", ["clamped", "symmetric"])
def test_solutions_scaled_from_unit_modulus_equal_a_direct_solve(support):
    # the body solves at E = 1 and scales by 1/E (so w cannot depend on E): check that shortcut
    body = HalfRoundBody(R, 0.025, level=1)
    free, parts, _, relief = body.support(support)
    for modulus in (1e8, 2e11):
        field = np.zeros(body.dofs)
        field[free] = spsolve(parts.combine(modulus, NU).tocsc(),
                              (body.tangential_load + relief)[free])
        direct = field[body.top[0]] - field[body.base_centre[0]]
        assert body.compliance(modulus, NU, support).tangential == pytest.approx(direct,
                                                                                 rel=1e-9)


def test_symmetric_support_pin_carries_no_force(baseline):
    # inertia relief balances T, so the pin at the base centre reacts nothing (no added stiffness)
    _, fields = baseline.solve(E, NU, "symmetric")
    stiffness = baseline.parts.combine(E, NU)
    load = baseline.tangential_load + baseline.support("symmetric")[3]
    residual = stiffness @ fields[:, 0] - load
    assert abs(residual[baseline.base_centre[0]]) < 1e-9  # per unit T


def test_clamped_reactions_balance_the_load(baseline):
    _, fields = baseline.solve(E, NU, "clamped")
    reaction = baseline.parts.combine(E, NU) @ fields[:, 0] - baseline.tangential_load
    base = baseline.basis.get_dofs("base")
    assert reaction[base.all("u^1")].sum() == pytest.approx(-1.0, rel=1e-9)
    assert reaction[base.all("u^2")].sum() == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("support", ["clamped", "symmetric"])
def test_penalty_factor_converges_with_refinement(support):
    # level 0 is pre-asymptotic; from level 1 on, each level divides the change by about 4 (h^2)
    w = [w_of(HalfRoundBody(R, 0.025, level), E, NU, support) for level in (1, 2, 3)]
    first, second = abs(w[1] - w[0]), abs(w[2] - w[1])
    assert second < first / 3


def test_clamped_base_ends_do_not_dominate_the_error_near_incompressibility():
    # the base's ends are fixed-free corners whose singularity grows as nu -> 1/2; without the
    # mesh grading towards them w changed 2.6 times more from level 2 to 3 at nu = 0.49 than at
    # nu = 0.25 (and converged at order ~1 there)
    change = {}
    for nu in (0.25, 0.49):
        w2, w3 = (w_of(HalfRoundBody(R, 0.025, level), E, nu, "clamped") for level in (2, 3))
        change[nu] = abs(w3 - w2)
    assert change[0.49] < change[0.25]


@pytest.mark.slow
@pytest.mark.parametrize("support", ["clamped", "symmetric"])
def test_default_level_is_within_0002_of_the_finest(support):
    finest = w_of(HalfRoundBody(R, 0.025, level=4), E, NU, support)
    assert w_of(HalfRoundBody(R, 0.025, DEFAULT_LEVEL), E, NU, support) == \
        pytest.approx(finest, abs=0.002)


def test_clamped_penalty_factor_is_near_the_papers_eq33(baseline):
    # the paper's Eq. 33 at its own baseline: 0.4281 (Section 4.1 set-up)
    assert w_of(baseline, E, NU, "clamped") == pytest.approx(penalty_factor_eq33(0.05, 0.25),
                                                             abs=0.02)
