"""Results roots: quick output never overwrites a full run."""
import json
from pathlib import Path

import pytest

from calibration.cli import main

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
    from calibration.runs.run_record import check_quick_output
    if record is not None:
        (tmp_path / "run.json").write_text(json.dumps(record))
    check_quick_output(tmp_path)  # no error


def test_an_unreadable_record_is_taken_for_a_full_run(tmp_path):
    from calibration.runs.run_record import check_quick_output
    from checks import InputError
    (tmp_path / "run.json").write_text("{not json")
    with pytest.raises(InputError, match="unreadable record"):
        check_quick_output(tmp_path)
