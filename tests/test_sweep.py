"""The sweep engine: spec expansion, failures recorded, finished cases reused."""
import numpy as np
import pytest

from hertz2d.calibration.penalty.spec import expand, load_spec
from hertz2d.calibration.runs.executors import LocalPool
from hertz2d.calibration.runs.store import CaseStore
from hertz2d.calibration.penalty.sweep import run_sweep
from hertz2d.fem.halfround import HalfRoundBody
from hertz2d.checks import InputError

SMALL_SPEC = {
    "base": {"R": 0.5, "a": 0.025, "E": 10e9, "nu": 0.25, "T": 1e5, "level": 0,
             "supports": ["clamped", "symmetric"]},
    "studies": {"radius": {"R": [0.25, 1.0], "hold": "a_over_R"},
                "stiff": {"nu": [0.0, 0.45], "hold": "plane_modulus"}},
    "grid": {"a_over_R": [0.02, 0.1], "nu": [0.1, 0.3]},
}


def test_spec_expansion_holds_what_it_says():
    cases = expand(SMALL_SPEC)
    assert len(cases) == 2 * (2 + 2 + 4)
    radius = [c for c in cases if c.study == "radius"]
    assert all(c.a / c.R == pytest.approx(0.05) for c in radius)
    stiff = [c for c in cases if c.study == "stiff"]
    plane = [c.E / (1 - c.nu**2) for c in stiff]
    assert np.allclose(plane, 10e9 / (1 - 0.25**2))


@pytest.mark.parametrize("change, message", [
    ({"studies": {"bad": {"R": [1.0], "E": [2.0]}}}, "exactly one"),
    ({"studies": {"bad": {"nu": [0.5]}}}, "nu=0.5"),
    ({"studies": {"bad": {"a_over_R": [1.2]}}}, "must be smaller than R"),
    ({"studies": {"bad": {"nu": [0.1], "hold": "volume"}}}, "hold"),
    ({"base": {k: v for k, v in SMALL_SPEC["base"].items() if k != "level"}}, "missing level"),
    ({"base": {**SMALL_SPEC["base"], "G": 1.0}}, "unknown G"),
    ({"grid": {"nu": [0.1]}}, r"\[grid\] in the spec: missing a_over_R"),
])
def test_bad_specs_name_the_bad_value(change, message):
    with pytest.raises(InputError, match=message):
        expand({**SMALL_SPEC, **change})


def test_shipped_specs_cover_the_papers_studies():
    cases = load_spec()
    grid = [c for c in cases if c.study == "grid"]
    assert min(c.a_over_R for c in grid) <= 0.01 and max(c.a_over_R for c in grid) >= 0.15
    assert min(c.nu for c in grid) == 0.0 and max(c.nu for c in grid) == 0.49
    assert {"radius", "contact_width", "modulus", "poisson", "poisson_plane_modulus",
            "convergence"} <= {c.study for c in cases}
    assert load_spec(quick=True)


def test_a_failed_case_is_recorded_and_the_sweep_goes_on(tmp_path, monkeypatch):
    original = HalfRoundBody.compliance

    def flaky(self, E, nu, support):
        if nu == 0.3:
            raise ArithmeticError("injected failure")
        return original(self, E, nu, support)

    monkeypatch.setattr(HalfRoundBody, "compliance", flaky)
    store = CaseStore("test", tmp_path / "cases.sqlite")
    table = run_sweep(expand(SMALL_SPEC), store=store, progress=False)
    failed = table[table.status == "failed"]
    assert len(failed) == 2 * 2 and (failed.nu == 0.3).all()
    assert failed.error.str.contains("ArithmeticError: injected failure").all()
    assert failed.w_fem.isna().all()
    ok = table[table.status == "ok"]
    assert len(ok) == len(table) - 4 and np.isfinite(ok.w_fem).all()
    # failures are not stored: a rerun without the fault computes exactly them
    monkeypatch.setattr(HalfRoundBody, "compliance", original)
    rerun = run_sweep(expand(SMALL_SPEC), store=store, progress=False)
    assert (rerun.status == "ok").all()
    assert set(rerun[~rerun.reused].nu) == {0.3}


def test_rerun_reuses_finished_cases_with_identical_numbers(tmp_path):
    store = CaseStore("test", tmp_path / "cases.sqlite")
    first = run_sweep(expand(SMALL_SPEC), store=store, progress=False)
    second = run_sweep(expand(SMALL_SPEC), store=store, progress=False)
    assert not first.reused.any() and second.reused.all()
    np.testing.assert_array_equal(first.w_fem, second.w_fem)


def test_parallel_sweep_gives_the_serial_numbers(tmp_path):
    serial = run_sweep(expand(SMALL_SPEC), store=CaseStore("a", tmp_path / "a.sqlite"),
                       progress=False)
    with LocalPool(2) as pool:
        parallel = run_sweep(expand(SMALL_SPEC), pool, store=CaseStore("b", tmp_path / "b.sqlite"),
                             progress=False)
    np.testing.assert_allclose(parallel.w_fem, serial.w_fem, rtol=1e-12)
