"""The example scripts of docs/examples/, which the documentation shows with their output: each
runs as a script, and what it prints agrees with an independent value (a closed form, Masing's
rule from the virgin curve, the exported test vectors)."""
import json
import math
import runpy
from pathlib import Path

import numpy as np
import pytest

from hertz2d.calibration.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*.py"))
NEEDS_NUMBA = {"impact.py"}


def example(name: str) -> dict:
    """The example's functions, without running its ``__main__`` part."""
    if name in NEEDS_NUMBA:
        pytest.importorskip("numba")
    return runpy.run_path(str(EXAMPLES / name), run_name="example")


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_runs_as_a_script(script, capsys, monkeypatch, tmp_path):
    if script.name in NEEDS_NUMBA:
        pytest.importorskip("numba")
    monkeypatch.chdir(tmp_path)  # as the documentation runs it: nothing written beside it
    runpy.run_path(str(script), run_name="__main__")
    assert capsys.readouterr().out.strip()
    assert list(tmp_path.iterdir()) == []


def test_contact_law_sticks_elastically_then_slides_at_the_coulomb_bound():
    rows = example("contact_law.py")["shear"]()
    for row in rows:
        ratio, slipping = row["T/(mu N)"], row["slipping"]
        assert np.all(ratio <= 1 + 1e-12)
        assert np.allclose(ratio[slipping], 1.0, rtol=0, atol=1e-12)
    # at constant approach the stick branch is linear in delta_t: T doubles when delta_t does
    first, second = rows[0], rows[1]
    sticking = ~second["slipping"]
    assert sticking.any()
    assert np.allclose(second["T/(mu N)"][sticking], 2 * first["T/(mu N)"][sticking], rtol=1e-12)


def test_contact_law_energy_per_cycle_is_masings_loop_of_the_virgin_curve():
    from hertz2d.calibration.laws import (AccurateModel, full_slip_displacement, normal_force)
    from hertz2d.calibration.validation.reference_forms import masing_loop_energy
    from hertz2d.checks.loadpath import LoadPath
    namespace = example("contact_law.py")
    memory, table1 = namespace["cycle_energy"]()
    pair = namespace["PAIR"]
    N0, a0 = normal_force(pair, 0.025)
    onset = float(full_slip_displacement(pair, N0, a0))
    virgin = AccurateModel(pair).run(LoadPath.build("hold-normal", 0.025, onset, 400))
    loading = virgin[virgin.stage != "normal"]
    expected = masing_loop_energy(loading.delta_t.to_numpy(), loading.Fx.to_numpy(), 0.6 * onset)
    assert memory == pytest.approx(expected, rel=2e-3)
    assert abs(table1) < 1e-9 * memory  # Table 1 is elastic below full slip


def test_impact_agrees_with_the_closed_forms():
    rows = {name: (dem, closed) for name, dem, closed in example("impact.py")["rows"]()}
    dem, closed = rows["contact time (s), undamped"]
    assert dem == pytest.approx(closed, rel=1e-5)
    assert rows["energy error of the ledger, undamped"][0] < 1e-5
    dem, closed = rows["restitution, local damping 0.7"]
    assert dem == pytest.approx(closed, abs=1e-3)
    assert closed == pytest.approx(math.sqrt(0.3 / 1.7))
    dem, closed = rows["rebound angle (deg), 65 deg, sliding"]
    assert dem == pytest.approx(closed, abs=5e-3)
    dem, closed = rows["spin (rad/s), 65 deg, sliding"]
    assert dem == pytest.approx(closed, rel=2e-3)  # the lever arm R - delta against R


def test_export_law_replays_its_own_test_vector(tmp_path):
    checked = example("export_law.py")["export_and_check"](tmp_path)
    assert {"law.json", "hertz2d_law.h", "test_vectors.csv"} <= set(checked["files"])
    for key in ("N (vector, replayed)", "T (vector, replayed)"):
        vector, replayed = checked[key]
        assert vector != 0 and replayed == pytest.approx(vector, rel=1e-12)


def test_the_ramp_path_file_runs_in_model(tmp_path, capsys):
    assert main(["model", "--path-file", str(EXAMPLES / "ramp_path.csv"), "--json",
                 "--out", str(tmp_path / "m.csv")]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["steps"] == 4 and summary["Fx_peak"] > 0
