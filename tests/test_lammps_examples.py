"""The LAMMPS example inputs of docs/lammps/examples/ (pour, shear cell, rotating drum, hopper,
biaxial test), run as a user runs them (``lmp -var plugin DIR -in in.NAME``, also on 2 MPI
ranks) with both laws' plugins, at fewer steps: each runs every one of its ``run`` commands
without an ERROR or a WARNING line; the pour's energy budget, as its header comment states it,
closes; the hopper empties through its orifice with no disc inside a plate.

Needs the ``lammps`` extra and a C++ compiler (skips with the reason otherwise).
"""
import math
import subprocess
from pathlib import Path

import numpy as np
import pytest

from hertz2d.calibration.export.lammps import runtime

REASON = runtime.supported()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"LAMMPS plugin: {REASON}")

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "lammps" / "examples"
INPUTS = sorted(EXAMPLES.glob("in.*"))


def run_example(path: Path, plugin: Path, folder: Path, steps: int, ranks: int = 1) -> str:
    command = [runtime.lmp_command(), "-nocite", "-log", "none", "-var", "plugin", str(plugin),
               "-var", "steps", str(steps), "-in", str(path)]
    if ranks > 1:
        command = [runtime.mpiexec(), "-n", str(ranks), *command]
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    return done.stdout


def test_there_are_the_five_scenes():
    assert [path.name for path in INPUTS] == ["in.biaxial", "in.drum", "in.hopper", "in.pour",
                                              "in.shear"]


@pytest.mark.parametrize("law, ranks", [("plugin", 1), ("calibrated_plugin", 1),
                                        ("calibrated_plugin", 2)])
@pytest.mark.parametrize("path", INPUTS, ids=[path.name for path in INPUTS])
def test_example_runs_cleanly(request, law, ranks, path, tmp_path):
    output = run_example(path, request.getfixturevalue(law), tmp_path, 3000, ranks)
    runs = sum(line.split()[:1] == ["run"] for line in path.read_text().splitlines())
    assert output.count("Loop time of") == runs
    assert not [line for line in output.splitlines() if line.startswith(("ERROR", "WARNING"))]


@pytest.mark.parametrize("ranks", [1, 2])
def test_the_pours_budget_closes(calibrated_plugin, tmp_path, ranks):
    """ke + rotation + pe + gravity's potential + dissipated stays at its start (the example's
    own thermo columns), once the discs have landed, to the residual of its dt (1e-3 of the
    energy gravity gave; it falls as dt^2: tests/test_lammps_outputs.py), on 1 rank and on 2
    (each output summed over the ranks once)."""
    output = run_example(EXAMPLES / "in.pour", calibrated_plugin, tmp_path, 60000, ranks)
    lines = output.splitlines()
    header = next(k for k, line in enumerate(lines) if line.split()[:1] == ["Step"])
    names = lines[header].split()
    rows = [dict(zip(names, map(float, line.split()))) for line in lines[header + 1:]
            if line.split() and line.split()[0].isdigit()]
    dissipated = ("c_pair[1]", "c_pair[2]", "f_walls[25]", "f_walls[26]", "f_local")

    def total(row):
        return (row["KinEng"] + row["c_rotation"] + row["PotEng"] + row["c_height"]
                + sum(row[name] for name in dissipated))
    start, end = rows[0], rows[-1]
    drop = start["c_height"] - end["c_height"]
    print(f"pour: dissipated {sum(end[name] for name in dissipated):.6g} J/m of {drop:.6g}, "
          f"residual {total(end) - total(start):.3g} J/m")
    assert end["f_walls[18]"] >= 10  # discs rest on the floor
    assert sum(end[name] for name in dissipated) > 0.5 * drop
    assert abs(total(end) - total(start)) < 1e-3 * drop


def test_the_hopper_empties_through_its_orifice(plugin, tmp_path):
    """Discs pass the orifice, and none has gone into a plate (each plate a turned block: the
    contacts with its faces and corners hold the discs out of it)."""
    path = tmp_path / "in.hopper"
    path.write_text((EXAMPLES / "in.hopper").read_text()
                    + f"write_dump all custom {tmp_path / 'end.dump'} id x y radius\n")
    output = run_example(path, plugin, tmp_path, 120000)
    out = float([line for line in output.splitlines() if line.split()[:1] == ["120000"]][0]
                .split()[-1])
    discs = np.array([[float(v) for v in line.split()[1:]]
                      for line in (tmp_path / "end.dump").read_text().splitlines()[9:]])
    deepest = 0.0
    for pivot, turn in ((-0.02, math.radians(-30.0)), (0.02, math.radians(30.0))):
        # the disc centres in the plate's own frame (turned back about its pivot)
        c, s = math.cos(-turn), math.sin(-turn)
        x, y = discs[:, 0] - pivot, discs[:, 1]
        u, v = pivot + c * x - s * y, s * x + c * y
        low, high = (-0.3, -0.02) if pivot < 0 else (0.02, 0.3)
        gap = np.hypot(np.maximum(0.0, np.maximum(low - u, u - high)),
                       np.maximum(0.0, np.maximum(-0.01 - v, v - 0.0)))
        deepest = max(deepest, float(np.max(1.0 - gap / discs[:, 2])))
    print(f"hopper: {out:.0f} of 150 discs passed the orifice; deepest overlap with a plate "
          f"{deepest:.3g} of a radius")
    assert out > 30
    assert deepest < 0.05
