"""The plugin's walls beyond axis-aligned planes moving along their normal: walls that slide in
their plane (``fix_modify ... shear``, ``wiggle``) and the surfaces of LAMMPS regions
(``fix wall/hertz2d/region``: lines at any angle, circles, moving or rotating).

- A region plane y = 0 gives the plane wall's impact to rounding, and an incline (the scene
  turned by 25 degrees) the same impact turned;
- a disc at rest in a drum (a circle) carries its weight; in a rotating drum, started rolling
  with it (spinning at Omega R_drum/(r - delta)), it stays rolling at the bottom (a wrong wall
  velocity at the contact would make it slide and climb);
- a disc on a floor sheared at V ends rolling at V/3 (momentum and the moment about the contact
  point: m v = J, (m r^2/2) omega = J r), whatever the friction law between, and the floor's work
  is what the disc gained and the contact dissipated, to velocity Verlet's second order;
- a wiggling wall is where its wiggle says;
- a contact beyond the law's largest approach stops the run with an error naming the style, the
  wall (or the two atoms) and the approach.

Needs the ``lammps`` extra and a C++ compiler (skips with the reason otherwise).
"""
import math
import tempfile
from pathlib import Path

import numpy as np
import pytest

from hertz2d.calibration.export.lammps import runtime
from hertz2d.calibration.export.lammps.inputs import number, write_data

REASON = runtime.supported()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"LAMMPS plugin: {REASON}")

E, NU, MU, RADIUS, DENSITY = 10e9, 0.25, 0.3, 0.035, 2700.0
MASS = DENSITY * math.pi * RADIUS**2


def run(plugin: Path, centres, velocities, walls: list[str], steps: int, dt: float,
        extra=(), gravity: float = 0.0, ratio: float = 0.0, radius: float = RADIUS,
        box: float = 1.0, printed=()) -> tuple[np.ndarray, list[float]]:
    """Discs with the walls' input lines: per step (x, y, vx, vy, omega) of disc 1, and the
    values of ``printed`` (LAMMPS expressions) at the end."""
    with tempfile.TemporaryDirectory(prefix="hertz2d-walls-") as folder:
        folder = Path(folder)
        write_data(folder / "discs.data", centres, [radius] * len(centres), DENSITY,
                   (-box, box, -box, box), velocities)
        lines = ["units si", "dimension 2", "atom_style sphere", "atom_modify map array",
                 "boundary f f p", "comm_modify vel yes", f"read_data {folder / 'discs.data'}",
                 f"set group all density/disc {number(DENSITY)}",
                 f"pair_style hertz2d {plugin / 'law.json'} damping {number(ratio)}",
                 f"pair_coeff * * {number(E)} {number(NU)} {number(MU)}",
                 "fix integrate all nve/sphere disc", *walls]
        if gravity:
            lines.append(f"fix gravity all gravity {number(gravity)} vector 0 -1 0")
        lines += ["fix plane all enforce2d", f"timestep {number(dt)}", "neighbor 0.01 bin",
                  "neigh_modify delay 0 every 1 check yes", *extra,
                  f"dump record all custom 1 {folder / 'record.dump'} id x y vx vy omegaz",
                  "dump_modify record sort id format float %.17g", f"run {steps}"]
        lmp = runtime.open_lammps(plugin)
        try:
            for line in lines:
                lmp.command(line)
            values = []
            for expression in printed:
                lmp.command(f"variable value equal {expression}")
                values.append(lmp.extract_variable("value"))
        finally:
            lmp.close()
        text = (folder / "record.dump").read_text().splitlines()
        count = len(centres)
        rows = np.array([[float(v) for v in text[k + 9].split()[1:]]
                         for k in range(0, len(text), 9 + count)])
    return rows, values


def turned(vectors: np.ndarray, angle: float) -> np.ndarray:
    """(x, y) columns turned by ``angle`` radians."""
    c, s = math.cos(angle), math.sin(angle)
    return np.column_stack([c * vectors[:, 0] - s * vectors[:, 1],
                            s * vectors[:, 0] + c * vectors[:, 1]])


@pytest.mark.parametrize("law", ["plugin", "calibrated_plugin"])
def test_region_lines_give_the_plane_walls_impact(request, law):
    plugin = request.getfixturevalue(law)
    speed, steps, dt = 1.0, 260, 1e-6
    start = np.array([[0.0, RADIUS]])
    velocity = np.array([[0.5 * speed, -math.sqrt(0.75) * speed]])
    plane, _ = run(plugin, start, [(*velocity[0], 0.0)],
                   [f"fix walls all wall/hertz2d {MU} ylo 0.0"], steps, dt)
    flat, _ = run(plugin, start, [(*velocity[0], 0.0)],
                  ["region floor plane 0 0 0 0 1 0",
                   f"fix walls all wall/hertz2d/region {MU} floor"], steps, dt)
    scale = np.array([speed * steps * dt] * 2 + [speed] * 2 + [speed / RADIUS])
    assert np.all(np.abs(flat - plane) <= 1e-12 * scale)
    angle = math.radians(25.0)
    incline, _ = run(plugin, turned(start, angle), [(*turned(velocity, angle)[0], 0.0)],
                     [f"region slope plane 0 0 0 {-math.sin(angle)!r} {math.cos(angle)!r} 0",
                      f"fix walls all wall/hertz2d/region {MU} slope"], steps, dt)
    back = np.column_stack([turned(incline[:, 0:2], -angle), turned(incline[:, 2:4], -angle),
                            incline[:, 4]])
    error = np.abs(back - plane) / scale
    print(f"incline against the plane wall: {error.max():.2g} of the scales")
    assert error.max() < 1e-9
    assert abs(plane[-1, 4]) > 1.0  # it rebounded spinning: friction acted


def test_a_disc_in_a_drum_carries_its_weight_and_rolls_with_it(plugin):
    drum, gravity, dt = 0.2, 9.81, 1e-5
    bottom = -(drum - RADIUS)
    rows, (force_y, touching) = run(
        plugin, [(0.0, bottom)], [(0.0, 0.0, 0.0)],
        ["region drum cylinder z 0 0 0.2 INF INF side in",
         f"fix walls all wall/hertz2d/region {MU} drum"], 20000, dt, gravity=gravity, ratio=0.5,
        printed=("f_walls[3]", "f_walls[1]"))
    assert touching == 1 and force_y == pytest.approx(-MASS * gravity, rel=1e-6)
    assert np.abs(rows[-1, 2:5]).max() < 1e-6  # at rest at the bottom
    spin = 2.0  # the drum's, rad/s, counter-clockwise; the disc starts rolling with it
    rolling = spin * drum / RADIUS
    rows, _ = run(plugin, [(0.0, bottom)], [(0.0, 0.0, rolling)],
                  ["variable theta equal 2.0*time",  # radians
                   "region drum cylinder z 0 0 0.2 INF INF side in rotate v_theta 0 0 0 0 0 1",
                   f"fix walls all wall/hertz2d/region {MU} drum"], 30000, dt, gravity=gravity,
                  ratio=0.5)
    lever = drum - np.hypot(rows[:, 0], rows[:, 1])  # r - delta: the disc's lever arm
    angle = np.degrees(np.arctan2(rows[:, 0], -rows[:, 1]))
    error = np.abs(rows[:, 4] * lever / (spin * drum) - 1.0)
    print(f"drum: spin {rows[-1, 4]:.8g} rad/s, rolling off by {error.max():.2g}, the disc "
          f"within {np.abs(angle).max():.2g} degrees of the bottom")
    assert error.max() < 1e-4 and np.abs(angle).max() < 0.05


def test_a_sheared_floor_leaves_the_disc_rolling_at_a_third_of_its_speed(plugin):
    """... and the floor's work (f_walls[27]) is the disc's kinetic energy, the change of what
    the contact stores and the work the law and the dashpots dissipated (f_walls[25], [26]), to
    a residual that falls fourfold when dt halves (velocity Verlet's second order)."""
    V, gravity = 0.2, 9.81
    y0 = RADIUS - MASS * gravity / 4e10
    residuals = []
    for dt in (1e-5, 5e-6):
        rows, (stored0, stored, slip, dashpots, work, y) = run(
            plugin, [(0.0, y0)], [(0.0, 0.0, 0.0)],
            [f"fix walls all wall/hertz2d {MU} ylo 0.0", "run 0",
             "variable stored0 equal $(f_walls:%.17g)", f"fix_modify walls shear ylo {V!r}"],
            round(0.4 / dt), dt, gravity=gravity, ratio=0.3,
            printed=("v_stored0", "f_walls", "f_walls[25]", "f_walls[26]", "f_walls[27]",
                     "y[1]"))
        vx, vy, omega = rows[-1, 2:5]
        print(f"sheared floor: v {vx:.6g} m/s, omega r {omega * RADIUS:.6g} m/s, V/3 {V / 3:.6g}")
        assert vx == pytest.approx(V / 3.0, rel=1e-3)
        assert omega * RADIUS == pytest.approx(2.0 * V / 3.0, rel=1e-3)
        kinetic = 0.5 * MASS * (vx**2 + vy**2) + 0.25 * MASS * RADIUS**2 * omega**2
        residual = work - (kinetic + stored - stored0 + slip + dashpots
                           + MASS * gravity * (y - y0))
        residuals.append(abs(residual) / work)
        print(f"dt {dt:g}: the floor's work {work:.6g} J/m, kinetic {kinetic:.6g}, dissipated "
              f"{slip:.6g} + {dashpots:.6g}, residual {residual:.3g}")
        assert work > kinetic > 0.0 and slip > 0.0
    assert residuals[0] < 1e-2 and 3.0 < residuals[0] / residuals[1] < 5.0


def test_a_wiggling_wall_is_where_its_wiggle_says(plugin):
    amplitude, period, dt, steps = 1e-3, 2e-3, 1e-5, 137
    _, (position, sheared) = run(
        plugin, [(0.0, 0.5)], [(0.0, 0.0, 0.0)],
        [f"fix walls all wall/hertz2d {MU} ylo 0.0 xlo -0.5",
         f"fix_modify walls wiggle ylo normal {amplitude!r} {period!r}",
         f"fix_modify walls wiggle xlo tangent {amplitude!r} {period!r}"], steps, dt,
        printed=("f_walls[13]", "f_walls[1]"))
    t = steps * dt
    assert position == pytest.approx(amplitude * math.sin(2 * math.pi * t / period), abs=1e-15)
    assert sheared == -0.5  # the xlo wall did not move along its normal


def test_a_rotating_drums_work_is_what_the_disc_gained_and_the_contact_dissipated(plugin):
    """A disc at rest at the bottom of a drum that starts turning: the drum's work (f_drum[6],
    its forces at the wall's velocity at the contacts) is the disc's kinetic and potential
    energy, the change of what the contact stores (the scalar) and the work the law and the
    dashpots dissipated (f_drum[4], [5]), to a residual that falls fourfold when dt halves."""
    drum, gravity, spin = 0.2, 9.81, 2.0
    y0 = -(drum - RADIUS)
    residuals = []
    for dt in (1e-5, 5e-6):
        rows, (stored0, stored, slip, dashpots, work, y) = run(
            plugin, [(0.0, y0)], [(0.0, 0.0, 0.0)],
            [f"variable theta equal {spin!r}*time",
             "region drum cylinder z 0 0 0.2 INF INF side in rotate v_theta 0 0 0 0 0 1",
             f"fix drum all wall/hertz2d/region {MU} drum", "run 0",
             "variable stored0 equal $(f_drum:%.17g)"],
            round(0.2 / dt), dt, gravity=gravity, ratio=0.3,
            printed=("v_stored0", "f_drum", "f_drum[4]", "f_drum[5]", "f_drum[6]", "y[1]"))
        vx, vy, omega = rows[-1, 2:5]
        kinetic = 0.5 * MASS * (vx**2 + vy**2) + 0.25 * MASS * RADIUS**2 * omega**2
        residual = work - (kinetic + stored - stored0 + slip + dashpots
                           + MASS * gravity * (y - y0))
        residuals.append(abs(residual) / work)
        print(f"dt {dt:g}: the drum's work {work:.6g} J/m, kinetic {kinetic:.6g}, potential "
              f"{MASS * gravity * (y - y0):.6g}, dissipated {slip:.6g} + {dashpots:.6g}, "
              f"residual {residual:.3g}")
        assert work > kinetic > 0.0 and slip > 0.0 and y > y0
    assert residuals[0] < 1e-2 and 3.0 < residuals[0] / residuals[1] < 5.0


@pytest.mark.parametrize("centres, walls, named", [
    ([[0.0, 0.2 * RADIUS]], [f"fix walls all wall/hertz2d {MU} ylo 0.0"],
     "fix wall/hertz2d: the ylo wall: atom 1 left the law's domain"),
    ([[0.0, 0.2 * RADIUS]], ["region floor plane 0 0 0 0 1 0",
                             f"fix walls all wall/hertz2d/region {MU} floor"],
     "fix wall/hertz2d/region: surface 0 of region floor: atom 1 left the law's domain"),
    ([[0.0, 0.5], [0.3 * RADIUS, 0.5]], [],
     "pair hertz2d: the contact of atoms 1 and 2 left the law's domain")],
    ids=["plane", "region", "pair"])
def test_a_contact_beyond_the_largest_approach_is_an_error_naming_it(plugin, centres, walls,
                                                                       named):
    """A disc 0.8 R into a wall (the mirror pair's approach 1.6 R) or two discs 1.7 R into each
    other: beyond the largest approach of Eqs. 4 + 22 (8 R / e^2 = 1.08 R for this pair)."""
    with pytest.raises(Exception, match=named.replace("(", r"\(")):
        run(plugin, np.array(centres), [(0.0, 0.0, 0.0)] * len(centres), walls, 1, 1e-6)
