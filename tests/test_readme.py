"""What the README tells a user agrees with what runs: the examples it gives, the numbers it
quotes for a command, the schedules the commands' help states."""
import json
import re
from pathlib import Path

import pytest

from calibration.cli import main

PROJECT = Path(__file__).resolve().parents[1]
README = (PROJECT / "README.md").read_text()


def _help(capsys, *argv) -> str:
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_the_path_file_example_runs(tmp_path, capsys):
    example = re.search(r"```\n(delta_n,delta_t\n.*?)```", README, re.S).group(1)
    (tmp_path / "path.csv").write_text(example)
    assert main(["model", "--path-file", str(tmp_path / "path.csv"), "--json",
                 "--out", str(tmp_path / "m.csv")]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["steps"] == 4 and summary["Fx_peak"] > 0


def test_the_quick_biaxial_schedule_in_the_help_is_the_one_that_runs(capsys):
    pytest.importorskip("numba")
    from dem.biaxial import BiaxialSettings
    quick = BiaxialSettings.quick()
    text = _help(capsys, "dem", "biaxial")
    stated = (f"{quick.discs} discs in a {quick.width:g} x {quick.height:g} m box, "
              f"{quick.settle:g} s settling, {quick.isotropic:g} s isotropic, "
              f"{quick.shear:g} s shear")
    assert stated in text
    assert f"({quick.settle:g} s, {quick.isotropic:g} s, {quick.shear:g} s)" in README


def test_every_penalty_flag_lists_the_confined_refit(capsys):
    for command in (["export-law"], ["model"], ["dem", "impact"]):
        assert "confined" in _help(capsys, *command), command


@pytest.mark.parametrize("flags, restitution", [
    (["--dt", "1e-7", "--local-damping", "0.7"], "0.4201"),
    ([], "1.0020"), (["--local-damping", "0.7"], "0.4728")])
def test_the_impact_restitutions_the_readme_quotes(capsys, flags, restitution):
    pytest.importorskip("numba")
    assert main(["dem", "impact", "--wall", "--speed", "1", "--json", *flags]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert f"{summary['restitution']:.4f}" == restitution
    assert restitution in README
