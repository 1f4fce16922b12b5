"""``hertz2d twodisc``: the command-line contract (CSV columns, JSON keys, exit codes) and outputs."""
import json

import meshio
import numpy as np
import pandas as pd
import pytest

import hertz2d.fem.contact.frictional as frictional
from hertz2d.calibration.cli import main

SMALL = ["--refine", "1", "--steps", "4", "--normal-steps", "2", "--delta-t", "0.004"]


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv, bad", [
    (["--path", "hold-normal", "--mu", "-0.1"], "mu=-0.1"),
    (["--path", "hold-normal", "--delta-n", "-0.01"], "delta_n=-0.01"),
    (["--path", "proportional", "--delta-n", "0"], "delta_n=0.0"),
    (["--path", "hold-normal", "--steps", "0"], "steps=0"),
    (["--path", "hold-normal", "--delta-t", "0.5"], "would not touch"),
    (["--path", "hold-normal", "--support", "glued"], "support='glued'"),
    (["--path", "hold-normal", "--refine", "-1"], "refine=-1"),
])
def test_bad_input_exits_2_with_one_line(capsys, tmp_path, argv, bad):
    code, _, err = run_cli(capsys, "twodisc", *argv, "--out", str(tmp_path / "t.csv"))
    assert code == 2
    assert bad in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "t.csv").exists()


def test_a_run_writes_the_table_profiles_and_vtu(capsys, tmp_path):
    out, profiles, vtu = tmp_path / "case1.csv", tmp_path / "profiles.csv", tmp_path / "vtu"
    code, text, _ = run_cli(capsys, "twodisc", "--path", "hold-normal", *SMALL, "--json",
                            "--out", str(out), "--profiles", str(profiles), "--vtu", str(vtu))
    assert code == 0
    summary = json.loads(text.strip().splitlines()[-1])
    assert {"N0", "a0", "Fx_peak", "delta_t_at_peak", "steps", "seconds"} <= set(summary)
    table = pd.read_csv(out)
    assert list(table.columns[:9]) == ["step", "delta_n", "delta_t", "Fx", "Fz", "N", "T", "a",
                                       "c"]
    assert summary["steps"] == len(table) == 6
    assert summary["N0"] == pytest.approx(table["N"].iloc[1])  # end of the normal stage
    assert summary["Fx_peak"] == table["Fx"].max() > 0
    sidecar = json.loads(out.with_suffix(".json").read_text())
    assert sidecar["parameters"]["refine"] == 1 and "versions" in sidecar["provenance"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["case1.csv", "case1.json",
                                                          "profiles.csv", "vtu"]  # no temp files
    prof = pd.read_csv(profiles)
    assert set(prof["step"]) == set(table["step"]) and {"x", "p", "q", "stick"} <= set(prof)
    last = prof[prof["step"] == 6]
    assert np.trapezoid(last["p"], last["s"]) == pytest.approx(table["N"].iloc[-1], rel=0.02)
    files = sorted(vtu.glob("*.vtu"))
    assert len(files) == 6
    mesh = meshio.read(files[-1])
    assert mesh.point_data["displacement"].shape == (len(mesh.points), 3)
    assert {"stress_xx", "stress_yy", "stress_xy", "von_mises"} <= set(mesh.cell_data)
    # the upper body's flat moved rigidly by (delta_t, -delta_n)
    top = np.isclose(mesh.points[:, 1], 0.5)
    assert np.allclose(mesh.point_data["displacement"][top, :2], [0.004, -0.025])


def test_a_failed_step_keeps_the_table_and_exits_2(capsys, tmp_path, monkeypatch):
    """The fourth step never converges (not even cut back): three steps are kept."""
    original, calls = frictional.NodeToSegmentContact.increment, []

    def increment(self, state, rigid):
        calls.append(rigid)
        if rigid[0] > 0.0015:
            raise frictional.ContactNotConverged("stalled (relative change 1e-3)")
        return original(self, state, rigid)

    monkeypatch.setattr(frictional.NodeToSegmentContact, "increment", increment)
    out = tmp_path / "failed.csv"
    code, _, err = run_cli(capsys, "twodisc", "--path", "hold-normal", *SMALL, "--out", str(out))
    message = err.replace("\r", "\n").strip().splitlines()[-1]
    assert code == 2 and message.startswith("hertz2d twodisc: error: step 4 ")
    assert "did not converge" in message and str(out) in message
    assert len(calls) > 4 + 6  # the fourth increment was bisected before giving up
    assert list(pd.read_csv(out)["step"]) == [1, 2, 3]
