"""``hertz2d model``: the same load-path flags and summary keys as ``hertz2d twodisc``."""
import json

import pandas as pd
import pytest

from hertz2d.calibration.cli import main
from hertz2d.calibration.laws import COLUMNS, LAWS


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("law", list(LAWS))
def test_every_law_writes_the_twodisc_columns_and_summary(capsys, tmp_path, law):
    out = tmp_path / f"{law}.csv"
    code, text, _ = run_cli(capsys, "model", "--path", "hold-normal", "--law", law,
                            "--steps", "20", "--out", str(out), "--json")
    summary = json.loads(text.strip().splitlines()[-1])
    table = pd.read_csv(out)
    assert code == 0 and list(table.columns) == list(COLUMNS)
    assert len(table) == summary["steps"] == 30  # 10 normal + 20 tangential steps
    for key in ("N0", "Fx_peak", "delta_t_at_peak", "seconds"):
        assert summary[key] is not None
    # strict JSON: a law without a contact half-width (the spring) reports a0 as null, not NaN
    assert (summary["a0"] is None) == table.a.isna().all()
    assert summary["Fx_peak"] == pytest.approx(table.Fx.max())


def test_wall_contact_halves_the_displacement_for_the_same_force(capsys, tmp_path):
    def summary(*flags):
        code, text, _ = run_cli(capsys, "model", "--path", "proportional", "--steps", "5",
                                "--out", str(tmp_path / "m.csv"), "--json", *flags)
        assert code == 0
        return json.loads(text.strip().splitlines()[-1])
    wall = summary("--counterpart", "wall", "--delta-n", "0.0125", "--delta-t", "0.0125")
    pair = summary("--delta-n", "0.025", "--delta-t", "0.025")
    assert wall["N0"] == pytest.approx(pair["N0"], rel=1e-12)


def test_cycle_summary_has_the_energy_per_cycle(capsys, tmp_path):
    def energy(law):
        code, text, _ = run_cli(capsys, "model", "--path", "cycle", "--law", law, "--delta-t",
                                "0.005", "--steps", "10", "--out", str(tmp_path / f"{law}.csv"),
                                "--json")
        assert code == 0
        return json.loads(text.strip().splitlines()[-1])["energy_per_cycle"]
    # below full slip (about 0.013 m here) Table 1's spring is elastic, the memory laws dissipate
    assert abs(energy("simplified")) < 1e-6 * energy("accurate-memory")
    assert energy("simplified-hysteretic") == pytest.approx(energy("accurate-memory"), rel=1e-9)


def test_form_changes_a_dissimilar_pair_and_not_a_similar_one(capsys, tmp_path):
    def n0(*flags):
        code, text, _ = run_cli(capsys, "model", "--path", "hold-normal", "--steps", "2",
                                "--out", str(tmp_path / "m.csv"), "--json", *flags)
        assert code == 0
        return json.loads(text.strip().splitlines()[-1])["N0"]
    similar = ("--R2", "0.7")  # one material: per-body is the E* form
    assert n0(*similar) == pytest.approx(n0(*similar, "--form", "composite"), rel=1e-12)
    dissimilar = ("--R", "0.3", "--R2", "0.7", "--E2", "70e9", "--nu2", "0.35")
    assert n0(*dissimilar) > 1.01 * n0(*dissimilar, "--form", "composite")


@pytest.mark.parametrize("flags, bad", [
    (["--R", "-1"], "R=-1.0"), (["--E", "0"], "E=0.0"), (["--nu", "0.5"], "nu=0.5"),
    (["--mu", "-0.3"], "mu=-0.3"), (["--law", "elastic"], "law='elastic'"),
    (["--penalty", "big"], "penalty='big'"), (["--steps", "0"], "steps=0"),
    (["--law", "accurate", "--path", "proportional"], "path='proportional'"),
    (["--form", "mixed"], "form='mixed'"),
    (["--law", "mindlin-deresiewicz", "--path", "unload-normal"], "path='unload-normal'"),
])
def test_bad_input_exits_2_with_one_line(capsys, tmp_path, flags, bad):
    argv = ["model", "--path", "hold-normal", "--out", str(tmp_path / "m.csv"), *flags]
    if "--path" in flags:
        argv = ["model", "--out", str(tmp_path / "m.csv"), *flags]
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and bad in err and len(err.strip().splitlines()) == 1
