"""``hertz2d dem impact``: the JSON summary, bad input, and the engine as an optional extra."""
import json
import math
import os
import subprocess
import sys

import pytest

from hertz2d.calibration.cli import main

MASS = 2700.0 * math.pi * 0.035**2


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_impact_json_summary_has_the_documented_keys_and_the_closed_form(capsys):
    pytest.importorskip("numba")
    code, out, _ = run_cli(capsys, "dem", "impact", "--law", "linear", "--wall", "--speed", "1",
                           "--dt", "1e-7", "--json")
    assert code == 0
    summary = json.loads(out.strip().splitlines()[-1])
    assert {"law", "contact_time", "restitution", "rebound_angle", "spin", "energy_error",
            "steps", "seconds"} <= set(summary)
    omega = math.sqrt(2 * 2.7e9 / MASS)  # a wall doubles kn (Section 3.2)
    assert summary["contact_time"] == pytest.approx(math.pi / omega, rel=1e-5)
    assert summary["restitution"] == pytest.approx(1.0, abs=1e-5)
    assert summary["energy_error"] < 1e-5


def test_impact_damping_flag_is_the_damping_ratio(capsys):
    pytest.importorskip("numba")
    code, out, _ = run_cli(capsys, "dem", "impact", "--law", "linear", "--speed", "1",
                           "--damping", "0.3", "--dt", "1e-7", "--json")
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["restitution"] == pytest.approx(
        math.exp(-0.3 * math.pi / math.sqrt(1 - 0.09)), rel=1e-3)


@pytest.mark.parametrize("argv, bad", [
    (["--speed", "0"], "speed=0.0"),
    (["--speed", "1", "--law", "spring"], "law='spring'"),
    (["--speed", "1", "--nu", "0.5"], "nu=0.5"),
    (["--speed", "1", "--R", "-0.035"], "R=-0.035"),
    (["--speed", "1", "--angle", "90"], "angle=90.0"),
    (["--speed", "1", "--damping", "1"], "damping ratio=1.0"),
    (["--speed", "1", "--local-damping", "-0.1"], "local damping=-0.1"),
    (["--speed", "1", "--penalty", "often"], "penalty='often'"),
    (["--speed", "1", "--dt", "1e-3"], "dt=0.001"),
    (["--speed", "1", "--dt", "1e-12"], "steps="),
    (["--speed", "1", "--law", "linear", "--kn", "0"], "kn=0.0"),
    (["--speed", "1", "--law", "calibrated", "--penalty", "0.5"], "penalty='0.5'"),
    (["--speed", "1", "--law", "calibrated", "--kt", "1e9"], "kt=1000000000.0"),
    (["--speed", "1", "--law", "calibrated", "--nu", "-0.1"], "nu=-0.1"),
    # a damping ratio this close to 1 makes the discrete contact overdamped: no rebound
    (["--speed", "1", "--law", "linear", "--wall", "--damping", "0.99"], "damping ratio=0.99"),
])
def test_bad_impact_input_exits_2_with_one_line_naming_the_value(capsys, argv, bad):
    pytest.importorskip("numba")
    code, out, err = run_cli(capsys, "dem", "impact", *argv)
    assert code == 2 and out == ""
    assert bad in err and len(err.strip().splitlines()) == 1
    assert err.startswith("hertz2d dem impact: error:")


def test_impact_with_the_calibrated_law_reports_its_coefficients_file(capsys, tmp_path):
    """``--law calibrated`` takes <results>/calibrated/coefficients.json, else the shipped copy,
    and says which (fit, fit_source); a file there that is not the law's coefficients is one
    line naming it, exit 2, before any run."""
    pytest.importorskip("numba")
    code, out, _ = run_cli(capsys, "dem", "impact", "--law", "calibrated", "--speed", "1",
                           "--angle", "30", "--results", str(tmp_path), "--json")
    summary = json.loads(out.strip().splitlines()[-1])
    assert code == 0 and summary["fit_source"] == "shipped"
    assert summary["law"].startswith("calibrated") and summary["energy_error"] < 1e-2
    (tmp_path / "calibrated").mkdir()
    (tmp_path / "calibrated" / "coefficients.json").write_text('{"coefficients": {}}')
    code, out, err = run_cli(capsys, "dem", "impact", "--law", "calibrated", "--speed", "1",
                             "--results", str(tmp_path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "coefficients.json" in err and "calibrated law's coefficients" in err


def test_dem_without_a_run_type_exits_2(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["dem"])
    assert stop.value.code == 2


def test_without_numba_the_dem_exits_2_and_everything_else_runs(tmp_path):
    """numba is the ``dem`` extra: a numba that cannot be imported must leave the law library
    (with its scalar DEM kernels) and the command line working, and make ``hertz2d dem`` say what
    to install."""
    (tmp_path / "numba.py").write_text("raise ImportError('no numba here')\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), root])}
    script = (
        "import sys\n"
        "from hertz2d.calibration.laws import ContactPair, simplified_update, scalar\n"
        "pair = ContactPair.discs(0.035, 10e9, 0.25, 0.3)\n"
        "assert simplified_update(pair, 1e-5, 0.0, 0.0).N > 0\n"
        "assert scalar.hertz2d_normal(1e-5, 0.035, 0.035, 5e9)[0] > 0\n"
        "from hertz2d.calibration.cli import main\n"
        "sys.exit(main(['dem', 'impact', '--speed', '1']))\n")
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                            text=True)
    assert result.returncode == 2, result.stderr
    assert "numba" in result.stderr and "hertz2d[dem]" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_quick_biaxial_schedule_in_the_help_is_the_one_that_runs(capsys):
    """The help states the quick schedule; the docs render it from the same settings."""
    pytest.importorskip("numba")
    from hertz2d.dem.biaxial import BiaxialSettings
    quick = BiaxialSettings.quick()
    with pytest.raises(SystemExit):
        main(["dem", "biaxial", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert (f"{quick.discs} discs in a {quick.width:g} x {quick.height:g} m box, "
            f"{quick.settle:g} s settling, {quick.isotropic:g} s isotropic, "
            f"{quick.shear:g} s shear") in text
