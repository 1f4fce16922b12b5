"""The command-line contract (docs/cli.md): JSON summary, exit 0, exit 2 with one line."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pandas as pd
import pytest

from hertz2d.calibration.cli import main


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv, bad", [
    (["halfround", "--a", "0.6"], "a=0.6"),
    (["halfround", "--a", "0"], "a=0.0"),
    (["halfround", "--nu", "0.5"], "nu=0.5"),
    (["halfround", "--nu", "-0.1"], "nu=-0.1"),
    (["halfround", "--E", "-1"], "E=-1.0"),
    (["halfround", "--support", "glued"], "support='glued'"),
    (["sweep", "--jobs", "0"], "jobs=0"),
    (["sweep", "--spec", "/nonexistent.toml"], "spec='/nonexistent.toml'"),
    (["fit", "--grid", "/nonexistent.csv"], "grid='/nonexistent.csv'"),
])
def test_bad_input_exits_2_with_one_line_naming_the_value(capsys, argv, bad):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert bad in err and len(err.strip().splitlines()) == 1


def test_unparsable_flag_exits_2_with_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["halfround", "--E", "stiff"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--E" in err and len(err.strip().splitlines()) == 1


#: what parsing the command line must not import (each a second or more of CPU with its
#: dependencies): the stages, the law library, the FEM, gmsh, numpy, pandas, scipy, matplotlib
HEAVY = ("numpy", "pandas", "scipy", "matplotlib", "gmsh", "skfem", "meshio", "numba",
         "hertz2d.calibration.laws", "hertz2d.calibration.penalty", "hertz2d.calibration.validation",
         "hertz2d.calibration.calibrate", "hertz2d.calibration.biaxial", "hertz2d.calibration.report",
         "hertz2d.fem", "hertz2d.meshes", "hertz2d.dem")


@pytest.mark.parametrize("argv", [["--help"], ["model", "--bogus"], ["halfround", "--E", "x"],
                                  ["map", "--max-cpu-hours", "many"], ["dem", "impact"],
                                  ["export-law", "--law"], ["all", "--jobs", "two"]])
def test_help_and_argument_errors_import_no_stage(argv, tmp_path):
    """``hertz2d --help`` and a rejected argument answer without importing a stage, the law
    library or numpy (their time: benchmarks/cli.py)."""
    probe = ("import sys\nfrom hertz2d.calibration.cli import main\ntry:\n    main(sys.argv[1:])\n"
             "except SystemExit:\n    pass\nprint(sorted(m for m in sys.modules if "
             f"m.startswith({HEAVY!r})))")
    done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout[-500:]


def test_a_warning_the_checks_let_through_is_one_hertz2d_line(capsys, tmp_path):
    """A stiffness near the largest double is not refused; numpy's overflow warnings on it reach
    the user as one ``hertz2d: warning:`` line each, never numpy's two raw lines."""
    code, _, err = run_cli(capsys, "model", "--path", "hold-normal", "--law", "linear", "--kn",
                           "1e308", "--kt", "1e308", "--out", str(tmp_path / "m.csv"))
    lines = err.strip().splitlines()
    assert code == 0 and lines, err
    assert all(line.startswith("hertz2d: warning: RuntimeWarning: ") for line in lines), err


def test_halfround_json_summary(capsys):
    code, out, _ = run_cli(capsys, "halfround", "--load", "normal", "--support", "symmetric",
                           "--refine", "1", "--json")
    summary = json.loads(out.strip().splitlines()[-1])
    assert code == 0 and summary["w"] is None
    assert summary["u_top"] == pytest.approx(summary["reference"], rel=0.005)  # Eq. 17
    assert summary["dofs"] > 0 and summary["seconds"] > 0


def test_sweep_then_fit_writes_the_tables(capsys, tmp_path):
    out = tmp_path / "penalty" / "grid.csv"
    code, text, _ = run_cli(capsys, "sweep", "--quick", "--jobs", "1", "--results", str(tmp_path),
                            "--json")
    summary = json.loads(text.strip().splitlines()[-1])
    assert code == 0 and summary["failed"] == 0 and summary["rows"] == len(pd.read_csv(out))
    code, text, _ = run_cli(capsys, "fit", "--results", str(tmp_path), "--json")
    fit = json.loads(text.strip().splitlines()[-1])
    assert code == 0 and len(fit["coefficients"]) == 6 and fit["paper"][0] == 0.22
    for name in ("fit.json", "fig7_parameters.png", "fig8_grid.png", "fig9_constant_w.png",
                 "convergence.png"):
        assert (tmp_path / "penalty" / name).stat().st_size > 0


def stored_cases(cache) -> int:
    path = cache / "cases.sqlite"
    if not path.exists():
        return 0
    with sqlite3.connect(path, timeout=30) as db:
        try:
            return db.execute("SELECT COUNT(*) FROM cases").fetchone()[0]
        except sqlite3.OperationalError:
            return 0


def test_ctrl_c_keeps_finished_cases_and_leaves_no_partial_file(tmp_path):
    cache, results = tmp_path / "cache", tmp_path / "results"
    env = {**os.environ, "HERTZ2D_CACHE": str(cache)}
    command = [sys.executable, "-m", "hertz2d.calibration", "sweep", "--quick", "--jobs", "2",
               "--results", str(results)]
    # a terminal's foreground job: own process group, SIGINT not inherited as ignored (as it is
    # when the test runner itself was started in the background)
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 120
    while stored_cases(cache) == 0 and process.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    assert process.poll() is None, "the sweep finished before it could be interrupted"
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err.decode()[-500:]
    assert not results.exists() or not any(results.iterdir())  # nothing half-written
    kept = stored_cases(cache)
    assert kept > 0
    rerun = subprocess.run(command + ["--json"], env=env, capture_output=True, check=True)
    summary = json.loads(rerun.stdout.decode().strip().splitlines()[-1])
    assert summary["failed"] == 0 and summary["reused"] >= kept


@pytest.mark.parametrize("command", [["export-law"], ["model"], ["dem", "impact"]])
def test_every_penalty_flag_lists_the_confined_refit(capsys, command):
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    assert "confined" in " ".join(capsys.readouterr().out.split())
