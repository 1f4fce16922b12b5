"""The closed forms of calibration/laws/closed_forms.py against their own derivations (Eqs. 13-17, 20)."""
import numpy as np
import pytest
from scipy.integrate import quad

from hertz2d.calibration.laws import closed_forms as penalty


def test_eq13_constant_is_the_hertzian_average_of_log():
    # (2/pi) * int_{-1}^{1} sqrt(1-t^2) log|t| dt = -log 2 - 1/2 gives Eq. 13's "+ 1/2"
    # sqrt(1-t^2) log t = sqrt(1+t) * [(1-t)^(1/2) log t]: QUADPACK's algebraic-log weight
    integral = quad(lambda t: np.sqrt(1 + t), 0, 1, weight="alg-loga", wvar=(0, 0.5))[0]
    value = 2 / np.pi * 2 * integral
    assert value == pytest.approx(-np.log(2) - 0.5, rel=1e-10)
    R, a = 0.5, 0.025
    assert penalty.half_space_bracket(R, a) == pytest.approx(np.log(R / a) - value, rel=1e-12)


def test_eq17_is_the_sum_of_eqs_14_15_16():
    E, nu, N, R, a = 7e9, 0.3, 2e5, 0.4, 0.03
    scale = (1 - nu**2) / E * 2 * N / np.pi
    term = nu / (2 * (1 - nu))
    u14 = scale * (np.log(2 * R / a) - term)
    u15 = scale * np.log(2)
    u16 = scale * (-0.5 + term)
    assert penalty.normal_displacement_eq17(N, E, nu, R, a) == pytest.approx(u14 + u15 + u16,
                                                                              rel=1e-13)


@pytest.mark.parametrize("w", [0.0, 0.25, 0.5, 0.9])
def test_eq20_inversion_returns_the_penalty_factor(w):
    E, nu, T, R, a = 10e9, 0.25, 1e5, 0.5, 0.025
    u = penalty.tangential_displacement_eq20(T, E, nu, R, a, w)
    assert penalty.penalty_factor_from_displacement(u, T, E, nu, R, a) == pytest.approx(w, abs=1e-13)


def test_eq33_at_the_paper_baseline():
    # 0.22 + 0.1445 + 0.045 - 0.025775 + 0.021875 + 0.0225
    assert penalty.penalty_factor_eq33(0.05, 0.25) == pytest.approx(0.4281, abs=1e-12)
