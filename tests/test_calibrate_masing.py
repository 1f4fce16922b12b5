"""The FEM's cycles against Masing's rule (``masing.csv``): the two measures on constructed
cycles whose answer is known (the FEM of bodies of one material obeys the rule:
``tests/test_calibrate.py``'s run of the stage)."""
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from hertz2d.calibration.calibrate.masing import (FIRST, LARGEST, masing_branch, masing_by_band,
                                                  masing_defects)
from hertz2d.calibration.validation.map.spec import MapCase

#: the constructed virgin curve's slip onset and largest force
ONSET, LIMIT = 1e-5, 3e5
STEPS = 400


def virgin(u):
    """A Cattaneo-like first loading: stiff at first, flat at the onset."""
    u = np.minimum(np.asarray(u, float), ONSET)
    return LIMIT * (1.0 - (1.0 - u / ONSET) ** 1.5)


def cycle_table(amplitude: float, first, branch) -> pd.DataFrame:
    """Two cycles at +-``amplitude``: the first loading on ``first``, every branch Masing's
    doubling of ``branch`` from its turning point."""
    rise = np.linspace(0.0, amplitude, STEPS + 1)[1:]
    rows = [("tangential", d, first(d)) for d in rise]
    peak = first(amplitude)
    grid = np.linspace(0.0, 2.0 * amplitude, 2 * STEPS + 1)[1:]
    for _ in range(2):
        rows += [("unloading", amplitude - s, peak - 2.0 * branch(s / 2)) for s in grid]
        trough = rows[-1][2]
        rows += [("reloading", -amplitude + s, trough + 2.0 * branch(s / 2)) for s in grid]
        peak = rows[-1][2]
    return pd.DataFrame(rows, columns=["stage", "delta_t", "Fx"])


def run(load: float, nu1: float = 0.0):
    case = MapCase("wall", 0.5, 10e9, nu1, None, None, None, 0.3, 0.05, "symmetric", "cycle",
                   load)
    return SimpleNamespace(case=case)


def test_masing_branch_is_the_virgin_curve_doubled_from_the_turning_point():
    u = np.linspace(0.0, ONSET, 50)
    found = masing_branch((ONSET, LIMIT), u, virgin(u), ONSET - 2 * u)
    assert np.allclose(found, LIMIT - 2 * virgin(u), rtol=0, atol=1e-9 * LIMIT)


def test_a_cycle_on_its_first_loading_obeys_masings_rule():
    table = cycle_table(0.5 * ONSET, virgin, virgin)
    defects = masing_defects([(run(0.5), table)])
    assert defects[FIRST].iloc[0] < 1e-4  # the linear interpolation's error on 400 steps


def test_branches_on_another_curve_are_measured_by_their_difference():
    """Branches on H = 0.8 G: at the far end of the first unloading (s = 2 A) Masing's rule
    from G is off by 2 (G - H)(A) = 0.4 G(A), the path's largest |Fx| being G(A); the smaller
    loop's branches are the larger loop's doubled (both on H)."""
    other = lambda u: 0.8 * virgin(u)
    big, small = 0.6 * ONSET, 0.3 * ONSET
    defects = masing_defects([(run(0.6), cycle_table(big, virgin, other)),
                              (run(0.3), cycle_table(small, virgin, other))])
    by_load = defects.set_index("load")
    assert by_load.loc[0.6, FIRST] == pytest.approx(0.4, abs=1e-3)
    assert by_load.loc[0.3, FIRST] == pytest.approx(0.4, abs=1e-3)
    assert by_load.loc[0.3, LARGEST] < 1e-4
    assert np.isnan(by_load.loc[0.6, LARGEST])  # the contact's largest loop is the reference
    band = masing_by_band(defects)
    assert list(band["cycle paths"]) == [2] and band[LARGEST + ": paths"].iloc[0] == 1


def test_paths_at_or_past_the_slip_onset_and_other_kinds_are_not_checked():
    table = cycle_table(0.5 * ONSET, virgin, virgin)
    slipping = run(1.0)
    coupled = SimpleNamespace(case=MapCase("wall", 0.5, 10e9, 0.0, None, None, None, 0.3, 0.05,
                                           "symmetric", "coupled-cycle", 0.5))
    assert masing_defects([(slipping, table), (coupled, table)]).empty
