"""The calibrated law inside LAMMPS (``hertz2d export-law --law calibrated --lammps``), against
the Python law.

The plugin calls only the header's generic interface and keeps HERTZ2D_HISTORY_SIZE doubles per
contact (27 for the calibrated law), so these tests check that the whole history goes through:

- prescribed motion: two dissimilar discs and a disc on a wall moved by ``fix move`` along a
  path with reversals, full slip, the normal force rising and falling and the contact opening
  and re-closing twice; the forces and torques LAMMPS reports each step against
  ``calibrated_update`` on the same kinematics in hertz2d's DEM geometry (the contact frame of
  the centres, the middle of the overlap, v_t dt with v_t at the step's middle: frame and lever
  arms half a step back), to 1e-6 of the run's largest force;
- impacts (normal and oblique, on a wall and between discs): the plugin's trajectory against a
  velocity-Verlet integration in Python of the same contact with ``calibrated_update`` (the
  step of LAMMPS's ``fix nve/sphere disc``), at equal dt, to 1e-6;
- the restart of a calibrated history is in tests/test_lammps_plugin.py, 2 MPI ranks against 1
  in tests/test_lammps_runs.py (slow).

Needs the ``lammps`` extra and a C++ compiler (skips with the reason otherwise).
"""
import math
import tempfile
from pathlib import Path

import numpy as np
import pytest

from hertz2d.calibration.laws import ContactPair
from hertz2d.calibration.laws.calibrated import CalibratedState, calibrated_update, curve_constants
from hertz2d.calibration.export.calibrated_law_file import read_calibrated_law
from hertz2d.calibration.laws.hertz2d import normal_stiffness
from hertz2d.calibration.export.lammps import runtime
from hertz2d.calibration.export.lammps.impact import impact_record
from hertz2d.calibration.export.lammps.inputs import number, write_data

REASON = runtime.supported()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"LAMMPS plugin: {REASON}")

EQUAL = 1e-6
DT = 1e-6
#: two dissimilar discs (types 1 and 2) and the friction between them; the wall's disc
R1, R2, E1, E2, NU1, NU2, MU_PAIR = 0.03, 0.05, 10e9, 70e9, 0.25, 0.35, 0.2
R, E, NU, MU, DENSITY, SPEED = 0.035, 10e9, 0.25, 0.3, 2700.0, 1.0


def coefficients_of(plugin):
    """The coefficients the plugin was built with (its law.json)."""
    return read_calibrated_law(plugin / "law.json")[0]


# -- prescribed motion ---------------------------------------------------------------------------

def motion(approach: float, amplitude: float) -> dict[str, str]:
    """The moving disc's displacement and velocity from its start as LAMMPS variables (and Python
    expressions of sin, cos, PI, time): the approach follows 1.2 sin^2(pi t/P) - 0.1 of
    ``approach`` (open at the start and twice more), the tangential displacement
    ``amplitude`` sin(2 pi t/Q) (reversals every 65 steps)."""
    P, Q = number(2e-4), number(1.3e-4)
    D, U = number(approach), number(amplitude)
    return {"dx": f"{U}*sin(2*PI*time/{Q})", "vx": f"{U}*2*PI/{Q}*cos(2*PI*time/{Q})",
            "dy": f"-{D}*(1.2*sin(PI*time/{P})*sin(PI*time/{P})-0.1)",
            "vy": f"-{D}*1.2*2*sin(PI*time/{P})*cos(PI*time/{P})*PI/{P}"}


def evaluate(formula: str, time: float) -> float:
    return eval(formula, {"sin": math.sin, "cos": math.cos, "PI": math.pi, "time": time})


def scales(pair: ContactPair, wall: bool, coefficients, a_over_R: float = 0.02):
    """The disc's approach at a = a_over_R R1 and 1.5 times its full-slip displacement there."""
    a = a_over_R * float(pair.R1)
    N = math.pi * float(pair.modulus) * a * a / (4.0 * float(pair.radius))
    approach = N / float(normal_stiffness(pair, a))  # Eq. 28
    slip = float(pair.mu) * N / (math.pi * float(pair.modulus)) * float(
        curve_constants(pair, a, coefficients).B)
    half = 0.5 if wall else 1.0  # the disc's displacements are half the pair's on a wall
    return half * approach, 1.5 * half * slip


def run_prescribed(plugin, wall: bool, steps: int, variables: dict[str, str]) -> np.ndarray:
    """LAMMPS with the moving disc (atom 2, or the only atom above a wall at y = 0) on
    ``fix move``: per step after step 0, (fx, fy, torque) of every atom."""
    with tempfile.TemporaryDirectory(prefix="hertz2d-move-") as folder:
        folder = Path(folder)
        if wall:
            write_data(folder / "discs.data", [(0.0, R)], [R], DENSITY, (-1, 1, -1, 1))
            materials = [f"pair_coeff * * {number(E)} {number(NU)} {number(MU)}",
                         f"fix walls all wall/hertz2d {number(MU)} ylo 0.0"]
            moving = "all"
        else:
            write_data(folder / "discs.data", [(0.0, 0.0), (0.0, R1 + R2)], [R1, R2], DENSITY,
                       (-1, 1, -1, 1))
            data = (folder / "discs.data").read_text().replace("1 atom types", "2 atom types")
            (folder / "discs.data").write_text(data.replace(f"2 1 {number(2 * R2)}",
                                                            f"2 2 {number(2 * R2)}"))
            materials = [f"pair_coeff 1 1 {number(E1)} {number(NU1)} 0.3",
                         f"pair_coeff 2 2 {number(E2)} {number(NU2)} 0.5",
                         f"pair_coeff 1 2 {number(MU_PAIR)}", "group still id 1",
                         "fix still still move linear 0.0 0.0 0.0"]
            moving = "upper"
        lines = ["units si", "dimension 2", "atom_style sphere", "atom_modify map array",
                 "boundary f f p", "comm_modify vel yes", f"read_data {folder / 'discs.data'}",
                 f"set group all density/disc {number(DENSITY)}",
                 f"pair_style hertz2d {plugin / 'law.json'}", *materials, "group upper id 2",
                 *[f"variable {name} equal {formula}" for name, formula in variables.items()],
                 f"fix drive {moving} move variable v_dx v_dy NULL v_vx v_vy NULL",
                 "fix plane all enforce2d", f"timestep {number(DT)}", "neighbor 0.01 bin",
                 "neigh_modify delay 0 every 1 check yes",
                 f"dump record all custom 1 {folder / 'record.dump'} id fx fy tqz omegaz",
                 "dump_modify record sort id format float %.17g", f"run {steps}"]
        lmp = runtime.open_lammps(plugin)
        try:
            for line in lines:
                lmp.command(line)
        finally:
            lmp.close()
        text = (folder / "record.dump").read_text().splitlines()
    atoms = 1 if wall else 2
    snapshots = [text[k + 9:k + 9 + atoms] for k in range(0, len(text), 9 + atoms)]
    values = np.array([[[float(v) for v in line.split()[1:]] for line in snapshot]
                       for snapshot in snapshots])
    assert np.all(values[:, :, 3] == 0.0)  # fix move leaves the discs unrotated
    return values[1:, :, :3]


def python_prescribed(pair: ContactPair, wall: bool, steps: int, variables: dict[str, str],
                      coefficients) -> tuple[np.ndarray, np.ndarray]:
    """The same steps by calibrated_update in hertz2d's DEM geometry (dem/forces.py): the
    forces as run_prescribed's, and per step whether the contact slid."""
    state = CalibratedState.unloaded()
    forces, sliding = np.zeros((steps, 1 if wall else 2, 3)), np.zeros(steps, dtype=bool)
    for k in range(1, steps + 1):
        t = k * DT
        x, vx = evaluate(variables["dx"], t), evaluate(variables["vx"], t)
        vy = evaluate(variables["vy"], t)
        if wall:  # n from the disc to the wall (0, -1), t = (1, 0), the wall at rest
            y = R + evaluate(variables["dy"], t)
            delta = R - y
            state = calibrated_update(pair, delta, -vx * DT, state, coefficients)
            N, T, sliding[k - 1] = state.N[0], state.T[0], state.slipping[0]
            forces[k - 1, 0] = (T, N, (R - delta) * T) if delta > 0 else (0.0, 0.0, 0.0)
            continue
        y = (R1 + R2) + evaluate(variables["dy"], t)  # disc 2 relative to disc 1 at rest
        distance = math.hypot(x, y)
        nx, ny = x / distance, y / distance
        delta = R1 + R2 - distance
        v_n = vx * nx + vy * ny
        v_t = (vx * -ny + vy * nx) * (1.0 + 0.5 * DT * v_n / distance)  # the frame mid-step
        state = calibrated_update(pair, delta, v_t * DT, state, coefficients)
        N, T = (state.N[0], state.T[0]) if delta > 0 else (0.0, 0.0)
        sliding[k - 1] = state.slipping[0]
        fx, fy = -N * nx - T * ny, -N * ny + T * nx
        forces[k - 1] = [(fx, fy, (R1 - 0.5 * delta) * T), (-fx, -fy, (R2 - 0.5 * delta) * T)]
    return forces, sliding


@pytest.mark.parametrize("wall", [False, True], ids=["dissimilar-discs", "wall"])
def test_prescribed_motion_gives_the_python_laws_forces(calibrated_plugin, wall):
    coefficients = coefficients_of(calibrated_plugin)
    pair = (ContactPair.disc_on_wall(R, E, NU, MU) if wall
            else ContactPair(R1, R2, E1, E2, NU1, NU2, MU_PAIR))
    approach, amplitude = scales(pair, wall, coefficients)
    variables, steps = motion(approach, amplitude), 460
    theirs = run_prescribed(calibrated_plugin, wall, steps, variables)
    ours, sliding = python_prescribed(pair, wall, steps, variables, coefficients)
    peak = np.abs(ours[:, :, :2]).max()
    force_error = np.abs(theirs[:, :, :2] - ours[:, :, :2]).max() / peak
    torque_error = np.abs(theirs[:, :, 2] - ours[:, :, 2]).max() / np.abs(ours[:, :, 2]).max()
    print(f"largest difference: force {force_error:.2g}, torque {torque_error:.2g} of the peak")
    assert force_error < EQUAL and torque_error < EQUAL
    # the path did what it claims: contact opened and re-closed twice, stuck and slid both ways
    touching = np.abs(ours[:, 0, :2]).sum(axis=1) > 0
    assert np.sum(touching[1:] & ~touching[:-1]) == 3
    torque = ours[:, 0, 2]
    assert torque.max() > 0 > torque.min()
    assert (sliding & (torque > 0)).sum() > 10 and (sliding & (torque < 0)).sum() > 10
    assert (touching & ~sliding).sum() > 100


# -- impacts -------------------------------------------------------------------------------------

def python_impact(coefficients, angle: float, wall: bool, steps: int) -> np.ndarray:
    """The impact of hertz2d.calibration.export.lammps.impact integrated as LAMMPS's fix nve/sphere disc
    does (velocity Verlet, forces at the half-step velocities, I = m r^2/2), the contact by
    calibrated_update in hertz2d's DEM geometry; rows as impact_record's."""
    theta = math.radians(angle)
    count = 1 if wall else 2
    x = np.array([[0.0, R], [0.0, -R]])[:count]
    v = np.array([[SPEED * math.sin(theta), -SPEED * math.cos(theta)], [0.0, 0.0]])[:count]
    omega = np.zeros(count)
    mass = DENSITY * math.pi * R * R
    half = 0.5 * DT
    pair = (ContactPair.disc_on_wall(R, E, NU, MU) if wall
            else ContactPair(R, R, E, E, NU, NU, MU))
    state = CalibratedState.unloaded()

    def forces():
        nonlocal state
        force, torque = np.zeros((count, 2)), np.zeros(count)
        if wall:  # n = (0, -1) to the wall, t = (1, 0), lever r - delta
            delta = R - x[0, 1]
            lever = R - delta
            v_n = v[0, 1]  # > 0 separating
            v_t = -v[0, 0] - omega[0] * (lever - 0.5 * v_n * DT)  # the arm at the step's middle
            state = calibrated_update(pair, delta, v_t * DT, state, coefficients)
            if delta > 0:
                force[0] = (state.T[0], state.N[0])
                torque[0] = lever * state.T[0]
            return force, torque
        d = x[1] - x[0]
        distance = math.hypot(*d)
        n = d / distance
        t = np.array([-n[1], n[0]])
        delta = 2 * R - distance
        lever = R - 0.5 * delta
        v_n = (v[1] - v[0]) @ n
        # at the step's middle: the frame turned back by half a step, the arms longer by v_n dt/4
        v_t = ((v[1] - v[0]) @ t * (1.0 + 0.5 * DT * v_n / distance)
               - (omega[0] + omega[1]) * (lever - 0.25 * v_n * DT))
        state = calibrated_update(pair, delta, v_t * DT, state, coefficients)
        if delta > 0:
            force[0] = -state.N[0] * n + state.T[0] * t
            force[1] = -force[0]
            torque[:] = lever * state.T[0]
        return force, torque

    rows = [[0.0, *np.column_stack([x, v, omega]).ravel()]]
    force, torque = np.zeros((count, 2)), np.zeros(count)  # first touch: no overlap
    for k in range(1, steps + 1):
        v += half * force / mass
        x += DT * v
        omega += (half / 0.5) * torque / (R * R * mass)
        force, torque = forces()
        v += half * force / mass
        omega += (half / 0.5) * torque / (R * R * mass)
        rows.append([float(k), *np.column_stack([x, v, omega]).ravel()])
    return np.array(rows)


@pytest.mark.parametrize("angle, wall", [(0.0, True), (30.0, True), (65.0, True), (30.0, False)],
                         ids=["normal-wall", "oblique-wall", "sliding-wall", "oblique-discs"])
def test_impact_trajectory_equals_a_python_integration(calibrated_plugin, angle, wall):
    coefficients = coefficients_of(calibrated_plugin)
    steps = 260  # the contact lasts about 180 steps
    theirs = impact_record(calibrated_plugin, "law.json", E=E, nu=NU, mu=MU, speed=SPEED,
                           angle=angle, wall=wall, radius=R, density=DENSITY, dt=DT, steps=steps)
    ours = python_impact(coefficients, angle, wall, steps)
    assert theirs.shape == ours.shape and np.array_equal(theirs[:, 0], ours[:, 0])
    columns = (theirs.shape[1] - 1) // 5
    scale = np.tile([SPEED * steps * DT] * 2 + [SPEED] * 2 + [SPEED / R], columns)
    start = ours[0, 1:]
    error = np.abs((theirs[:, 1:] - start) - (ours[:, 1:] - start)) / scale
    print(f"largest difference along the trajectory: {error.max():.2g} (of the scales)")
    assert error.max() < EQUAL
    # the discs parted (the centres' normal velocity reversed) and, obliquely, spun
    assert ours[-1, 4] - (0.0 if wall else ours[-1, 9]) > 0.5 * SPEED * math.cos(
        math.radians(angle))
    assert angle == 0.0 or abs(ours[-1, 5]) > 1.0


# -- two laws in one process ---------------------------------------------------------------------

def test_one_process_switches_between_the_laws_plugins(plugin, calibrated_plugin, tmp_path):
    """LAMMPS keeps a plugin's styles for the process's later instances and ignores another
    plugin's styles of the same names: open_lammps unloads them, and each plugin (built with
    hidden symbols) runs its own classes. Each instance accepts only its own law.json (the
    pair style checks the digest the plugin was built with)."""
    write_data(tmp_path / "discs.data", [(0.0, 0.0), (0.0, 2 * R - 1e-5)], [R, R], DENSITY,
               (-1, 1, -1, 1))
    for folder in (calibrated_plugin, plugin, calibrated_plugin):
        lmp = runtime.open_lammps(folder)
        try:
            for line in ["units si", "dimension 2", "atom_style sphere", "boundary f f p",
                         "comm_modify vel yes", f"read_data {tmp_path / 'discs.data'}",
                         f"set group all density/disc {number(DENSITY)}",
                         f"pair_style hertz2d {folder / 'law.json'}",
                         f"pair_coeff * * {number(E)} {number(NU)} {number(MU)}", "run 0"]:
                lmp.command(line)
        finally:
            lmp.close()
