"""Adding a law is its kernel plus one registry entry: a toy law registered the way a user would
runs through ``hertz2d model``, the DEM and the export's refusal, and the registry's
declarations agree with the engine's layout."""
import json
import math

import numpy as np
import pandas as pd
import pytest

from hertz2d.calibration.cli import main
from hertz2d.calibration.laws import ContactPair, registry
from hertz2d.calibration.laws.base import ContactLaw, law_table
from hertz2d.calibration.laws.incremental import capped_history
from hertz2d.calibration.laws.registry import LawEntry, register, unregister
from hertz2d.checks import InputError, positive

NAME = "toy-spring"
#: the toy's one stiffness (normal and tangential), N/m per m
STIFFNESS = 2.0e9


class ToySpring(ContactLaw):
    """One stiffness k for both directions: ``N = k delta_n``, ``T`` incremental with kt = k,
    capped at mu N."""

    name = NAME
    admissible = True

    def __init__(self, pair: ContactPair, k: float):
        self.k, self.mu = positive("k", k), float(pair.mu)

    def _run(self, path):
        N = self.k * np.maximum(path.delta_n, 0.0)
        T, slipping = capped_history(path.delta_t, N, self.k, self.mu)
        slip = np.where(N <= 0, "open", np.where(slipping, "full", "stick"))
        return law_table(path, N=N, T=T, a=np.nan, kn=self.k, kt=self.k, slip=slip)


try:  # the DEM is an optional extra: without numba the toy runs in model only
    import numba

    from hertz2d.dem.laws import (FRICTION, K_NORMAL, K_POTENTIAL, K_SLIPPING, K_STEP, KERNEL_STATE,
                          PARAMETERS, law_kernel)
except ImportError:
    numba = None

if numba is not None:
    @law_kernel
    def toy_step(p, state, delta_n, d_delta_t, R1, R2):
        """The toy's DEM kernel (:func:`hertz2d.dem.laws.law_kernel`): its own stiffness after the
        shared parameters, the friction coefficient among them."""
        parameters = numba.carray(p, PARAMETERS + 1, dtype=np.float64)
        out = numba.carray(state, KERNEL_STATE, dtype=np.float64)
        k, mu = parameters[PARAMETERS], parameters[FRICTION]
        N = k * delta_n
        trial, bound = out[1] + k * d_delta_t, mu * N
        T = min(max(trial, -bound), bound)
        out[0], out[1], out[2], out[3] = N, T, k, 0.0
        out[K_NORMAL], out[K_STEP] = k, k
        out[K_SLIPPING] = 1.0 if T != trial else 0.0
        out[K_POTENTIAL] = 0.5 * k * delta_n * delta_n


@pytest.fixture
def toy():
    """The toy law, registered for one test (with a DEM kernel when numba is there)."""
    kernel = toy_step if numba is not None else None
    entry = register(LawEntry(
        NAME, ToySpring, normal="N = k delta_n", tangential="kt = k, capped at mu N",
        damping="dashpots 2 zeta sqrt(m* k)", options=("kn",),
        engines=("model", "dem") if kernel is not None else ("model",), dem_kernel=kernel))
    yield entry
    unregister(NAME)


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_toy_runs_in_model_as_its_closed_form(toy, capsys, tmp_path):
    out = tmp_path / "toy.csv"
    code, text, _ = run_cli(capsys, "model", "--law", NAME, "--kn", str(STIFFNESS), "--path",
                            "proportional", "--delta-n", "1e-4", "--delta-t", "1e-4",
                            "--steps", "40", "--out", str(out), "--json")
    assert code == 0
    table = pd.read_csv(out)
    N = STIFFNESS * table.delta_n
    assert np.allclose(table.N, N, rtol=1e-12)
    # a monotonic proportional load: the capped spring is min(k delta_t, mu N)
    assert np.allclose(table["T"], np.minimum(STIFFNESS * table.delta_t, 0.3 * N), rtol=1e-12)
    assert (table.slip == "full").all()  # k delta_t > mu k delta_n at every step
    assert json.loads(text.strip().splitlines()[-1])["law"] == NAME


def test_the_model_command_lists_the_toy_and_refuses_flags_it_does_not_take(toy, capsys):
    code, _, err = run_cli(capsys, "model", "--law", NAME, "--penalty", "eq33")
    assert code == 2 and "penalty='eq33'" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(SystemExit):
        run_cli(capsys, "model", "--help")
    assert NAME in "".join(capsys.readouterr().out.split())  # argparse wraps at hyphens


def test_the_toy_runs_in_the_dem_as_the_built_in_spring_of_the_same_stiffness(toy):
    pytest.importorskip("numba")
    from hertz2d.dem import Law
    from hertz2d.dem.impact import impact
    from hertz2d.dem.laws import KERNEL

    law = Law.registered(NAME, 10e9, 0.25, 0.3, own=(STIFFNESS,))
    assert law.code == KERNEL and law.name == NAME and law.history_width == 4
    spring = Law.linear(STIFFNESS, STIFFNESS, 0.3)
    for angle in (0.0, 40.0):  # head-on, then oblique enough to slide
        mine = impact(law, speed=1.0, angle=angle, wall=True, dt=1e-6)
        theirs = impact(spring, speed=1.0, angle=angle, wall=True, dt=1e-6)
        for field in ("contact_time", "restitution", "rebound_angle", "spin", "energy_error",
                      "steps"):
            assert getattr(mine, field) == pytest.approx(getattr(theirs, field), rel=1e-12,
                                                         abs=1e-12)
        assert abs(mine.energy_error) < 1e-4  # the energy ledger reads the kernel's potential
    # an undamped linear spring bounces back whole, after half a period of the disc on the
    # wall's doubled stiffness (the mirror rule)
    head_on = impact(law, speed=1.0, wall=True, dt=1e-6)
    mass = 2700.0 * math.pi * 0.035**2
    assert head_on.restitution == pytest.approx(1.0, abs=1e-4)
    assert head_on.contact_time == pytest.approx(math.pi * math.sqrt(mass / (2 * STIFFNESS)),
                                                 rel=1e-3)


def test_the_dem_command_refuses_the_toy_from_flags_in_one_line(toy, capsys):
    pytest.importorskip("numba")
    code, _, err = run_cli(capsys, "dem", "impact", "--law", NAME, "--speed", "1")
    assert code == 2 and "Law.registered" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("flags", [(), ("--lammps", "plugin")])
def test_the_export_refuses_a_law_that_declares_no_export_in_one_line(toy, capsys, tmp_path,
                                                                      flags):
    flags = tuple(str(tmp_path / f) if f == "plugin" else f for f in flags)
    code, _, err = run_cli(capsys, "export-law", "--law", NAME, "--out", str(tmp_path / "x"),
                           *flags)
    assert code == 2 and f"law={NAME!r} declares no law-file" in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "x").exists()


def test_the_registry_lists_the_toy_where_it_declares_and_nowhere_else(toy):
    assert NAME in registry.names(engine="model") and NAME not in registry.names(engine="map")
    assert NAME in registry.names(option="kn") and NAME not in registry.names(export="law-file")


def test_an_entry_that_contradicts_itself_is_refused():
    with pytest.raises(InputError, match="dem_code or a dem_kernel"):
        register(LawEntry("half-declared", ToySpring, "n", "t", "d", engines=("dem",)))
    with pytest.raises(InputError, match="already registered"):
        register(registry.entry("linear"))
    assert "half-declared" not in registry.names()


def test_the_engine_reads_its_codes_and_widths_from_the_registry():
    pytest.importorskip("numba")
    from hertz2d.dem import Law
    from hertz2d.dem import laws

    codes = {name: registry.entry(name).dem_code for name in registry.names(engine="dem")}
    assert len(set(codes.values())) == len(codes) and laws.KERNEL not in codes.values()
    assert registry.entry("calibrated").history == laws.CALIBRATED_HISTORY
    assert Law.linear(1.0, 1.0, 0.3).name == "linear"
    assert Law.simplified(10e9, 0.25, 0.3).history_width == laws.HISTORY


def test_the_export_refuses_a_law_that_declares_exports_it_has_no_writer_for(capsys, tmp_path):
    """A law may declare law.json, header and vectors, but export-law writes only the laws it
    has a writer for: any other is refused in one line, never written as another law's file."""
    register(LawEntry(NAME, ToySpring, normal="N = k delta_n", tangential="kt = k",
                      damping="none", options=("kn",), engines=("model",),
                      exports=("law-file", "c99", "vectors")))
    try:
        code, _, err = run_cli(capsys, "export-law", "--law", NAME, "--out",
                               str(tmp_path / "x"))
    finally:
        unregister(NAME)
    assert code == 2 and f"law={NAME!r} declares exports but export-law has no writer" in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "x").exists()
