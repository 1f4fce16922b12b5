"""Load paths: every kind's steps, stages and turning points, and paths read from a file."""
import numpy as np
import pandas as pd
import pytest

from hertz2d.checks.loadpath import MAX_STEPS, LoadPath
from hertz2d.checks import InputError


def test_cycle_reverses_at_plus_and_minus_the_amplitude():
    path = LoadPath.build("cycle", 0.02, 0.004, steps=5, normal_steps=3, cycles=2)
    assert len(path) == 3 + 5 * (1 + 4 * 2)
    tangential = path.delta_t[3:]
    turning = np.flatnonzero(np.diff(np.sign(np.diff(tangential))) != 0) + 1
    assert np.allclose(tangential[turning], [0.004, -0.004, 0.004, -0.004])
    assert tangential[-1] == pytest.approx(0.004)
    assert np.all(path.delta_n[3:] == 0.02)
    steps = np.abs(np.diff(tangential))
    assert np.allclose(steps, 0.004 / 5)  # one increment size along the whole cycle
    stages = list(dict.fromkeys(path.stage))
    assert stages == ["normal", "tangential", "unloading", "reloading"]


def test_unload_normal_holds_delta_t_while_the_approach_falls():
    path = LoadPath.build("unload-normal", 0.02, 0.003, steps=4, normal_steps=2,
                          delta_n_end=0.005)
    last = path.stage == "normal-unloading"
    assert last.sum() == 4 and np.all(path.delta_t[last] == 0.003)
    assert np.all(np.diff(path.delta_n[last]) < 0) and path.delta_n[-1] == pytest.approx(0.005)
    default = LoadPath.build("unload-normal", 0.02, 0.003, steps=4, normal_steps=2)
    assert default.delta_n[-1] == pytest.approx(0.01)


def test_the_paper_paths_are_unchanged():
    case1 = LoadPath.build("hold-normal", 0.025, 0.025, 50)
    assert len(case1) == 60 and case1.delta_n[9] == 0.025 and case1.delta_t[-1] == 0.025
    case2 = LoadPath.build("proportional", 0.025, 0.025, 50)
    assert np.allclose(case2.delta_n, case2.delta_t) and case2.delta_n[0] == 0.025 / 50


def test_a_path_file_round_trips(tmp_path):
    table = pd.DataFrame({"delta_n": [0.01, 0.02, 0.015], "delta_t": [0.0, 0.001, -0.002]})
    table.to_csv(tmp_path / "p.csv", index=False)
    path = LoadPath.from_file(tmp_path / "p.csv")
    assert path.kind == "file" and np.array_equal(path.delta_t, table.delta_t)
    assert path.frame().step.tolist() == [1, 2, 3]


def test_the_whole_path_is_bounded():
    with pytest.raises(InputError, match="must be <= 1000000"):
        LoadPath.build("cycle", 0.02, 0.004, steps=MAX_STEPS // 4, cycles=2)


def test_a_coupled_cycle_moves_the_approach_in_phase_with_delta_t():
    path = LoadPath.build("coupled-cycle", 0.02, 0.004, steps=4, normal_steps=2, cycles=2,
                          normal_swing=0.25)
    tangential = path.stage != "normal"
    np.testing.assert_allclose(path.delta_n[tangential],
                               0.02 * (1 + 0.25 * path.delta_t[tangential] / 0.004))
    assert path.delta_n.max() == pytest.approx(0.025) and path.delta_n[tangential].min() == (
        pytest.approx(0.015))
    assert list(dict.fromkeys(path.stage)) == ["normal", "tangential", "unloading", "reloading"]
    with pytest.raises(InputError, match="normal_swing=1.0 must be < 1"):
        LoadPath.build("coupled-cycle", 0.02, 0.004, steps=4, normal_swing=1.0)
