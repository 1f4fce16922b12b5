"""Results roots: quick output never overwrites a full run."""
import json
from pathlib import Path

import pytest

from hertz2d.calibration.cli import main

PROJECT = Path(__file__).resolve().parents[1]
QUICK_COMMANDS = [["all"], ["sweep"], ["validate"], ["map"], ["dem", "biaxial"]]


def _tree(root: Path) -> dict:
    return {str(p.relative_to(root)): p.stat().st_mtime_ns for p in root.rglob("*")}


@pytest.mark.parametrize("command", QUICK_COMMANDS, ids=" ".join)
def test_quick_output_is_refused_over_a_full_run(tmp_path, capsys, command):
    root = tmp_path / "full"
    root.mkdir()
    (root / "run.json").write_text(json.dumps({"quick": False, "command": "hertz2d all",
                                               "date": "2026-01-01"}))
    before = _tree(root)
    assert main([*command, "--quick", "--results", str(root)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "holds a full run" in err, err
    assert "--results results-quick" in err
    assert _tree(root) == before  # nothing written


def test_the_committed_full_run_is_refused_to_the_obvious_quick_command(monkeypatch, capsys):
    monkeypatch.chdir(PROJECT)  # `hertz2d all --quick` where a user cloned the project
    before = _tree(PROJECT / "results")
    assert main(["all", "--quick"]) == 2
    assert "results='results' holds a full run" in capsys.readouterr().err
    assert _tree(PROJECT / "results") == before


@pytest.mark.parametrize("record", [None, {"quick": True, "command": "hertz2d all --quick",
                                           "date": "2026-01-01"}])
def test_a_root_without_a_full_run_takes_quick_output(tmp_path, record):
    from hertz2d.calibration.runs.run_record import check_quick_output
    if record is not None:
        (tmp_path / "run.json").write_text(json.dumps(record))
    check_quick_output(tmp_path)  # no error


def test_an_unreadable_record_is_taken_for_a_full_run(tmp_path):
    from hertz2d.calibration.runs.run_record import check_quick_output
    from hertz2d.checks import InputError
    (tmp_path / "run.json").write_text("{not json")
    with pytest.raises(InputError, match="unreadable record"):
        check_quick_output(tmp_path)


# -- the fitted coefficients: the results root's, else the copy shipped with hertz2d -----------

def _summary(capsys) -> dict:
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_every_shipped_fit_is_the_committed_full_runs_byte_for_byte():
    """After a new full run, copy its fitted files to calibration/data/ (same names)."""
    from hertz2d.calibration.fitted import SHIPPED
    from hertz2d.calibration.penalty.outputs import FIT
    shipped = [path for path in SHIPPED.rglob("*") if path.is_file()]
    assert SHIPPED / FIT in shipped
    for path in shipped:
        name = path.relative_to(SHIPPED)
        assert path.read_bytes() == (PROJECT / "results" / name).read_bytes(), name


def test_every_json_of_the_committed_full_run_is_strict_json(strict_json):
    """A missing number is null, never the bare NaN that strict parsers refuse: the committed
    tree as a full run writes it (the quick run's tree: tests/test_report.py)."""
    written = strict_json(PROJECT / "results")
    assert {"run.json", "penalty/fit.json", "validation/summary.json", "map/summary.json",
            "calibrated/coefficients.json", "calibrated/heldout/summary.json",
            "dem/biaxial/summary.json"} <= set(written)


def test_the_shipped_fits_are_package_data():
    import tomllib
    from hertz2d.calibration.fitted import SHIPPED
    patterns = tomllib.loads((PROJECT / "pyproject.toml").read_text())[
        "tool"]["setuptools"]["package-data"]["hertz2d.calibration"]
    packaged = {path for pattern in patterns for path in (PROJECT / "calibration").glob(pattern)}
    shipped = {path for path in SHIPPED.rglob("*") if path.is_file()}
    assert shipped and shipped <= packaged


@pytest.mark.parametrize("penalty", ["refit", "confined"])
def test_model_outside_the_project_uses_the_shipped_fit_and_says_so(tmp_path, monkeypatch, capsys,
                                                                    penalty):
    from hertz2d.calibration.fitted import SHIPPED
    from hertz2d.calibration.penalty.outputs import FIT, PenaltyFit
    monkeypatch.chdir(tmp_path)  # a folder with no results/ in it
    assert main(["model", "--path", "hold-normal", "--penalty", penalty, "--json"]) == 0
    summary = _summary(capsys)
    assert summary["fit_source"] == "shipped" and summary["fit"] == str(SHIPPED / FIT)
    expected = PenaltyFit.read(PROJECT / "results" / FIT).penalty(
        None if penalty == "refit" else "confined")
    assert expected.label in summary["law"]


def test_a_results_roots_own_fit_wins_over_the_shipped_one(tmp_path, capsys):
    fit = json.loads((PROJECT / "results" / "penalty" / "fit.json").read_text())
    fit["coefficients"] = [0.5, 0, 0, 0, 0, 0]  # w = 0.5 everywhere: a different law
    (tmp_path / "penalty").mkdir()
    (tmp_path / "penalty" / "fit.json").write_text(json.dumps(fit))
    argv = ["model", "--path", "hold-normal", "--json", "--out", str(tmp_path / "m.csv")]
    assert main([*argv, "--penalty", "refit", "--results", str(tmp_path)]) == 0
    own = _summary(capsys)
    assert own["fit_source"] == "results"
    assert own["fit"] == str(tmp_path / "penalty" / "fit.json")
    assert main([*argv, "--penalty", "0.5", "--results", str(tmp_path)]) == 0
    constant = _summary(capsys)
    assert constant["fit_source"] is None and constant["Fx_peak"] == own["Fx_peak"]


def test_export_law_outside_the_project_records_the_shipped_fit(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["export-law", "--penalty", "refit", "--json"]) == 0
    summary = _summary(capsys)
    assert summary["fit_source"] == "shipped"
    law = json.loads((tmp_path / "results" / "law" / "law.json").read_text())
    assert law["provenance"]["source"]["fit_source"] == "shipped"
    committed = json.loads((PROJECT / "results" / "penalty" / "fit.json").read_text())
    assert summary["coefficients"] == pytest.approx(committed["coefficients"])


def test_dem_impact_outside_the_project_uses_the_shipped_fit(tmp_path, monkeypatch, capsys):
    pytest.importorskip("numba")
    monkeypatch.chdir(tmp_path)
    assert main(["dem", "impact", "--wall", "--speed", "1", "--penalty", "confined",
                 "--json"]) == 0
    assert _summary(capsys)["fit_source"] == "shipped"


def test_validate_reports_the_fit_it_used(quick_results):
    results, summary = quick_results
    assert summary.as_json()["fit_source"] == "results"
    assert summary.as_json()["fit"] == str(results / "penalty" / "fit.json")
