"""The calibrated law in the DEM engine: its compiled step against the law library's Python law
(calibrated_update) on one contact, disc-disc and disc-wall, along loading, partial slip,
reversals, cycles at a varying N, opening and re-closing; and the engine's impacts with it (the
normal law is Table 1's; an oblique rebound converges with dt)."""
import math

import numpy as np
import pytest

pytest.importorskip("numba")

from hertz2d.calibration.laws import ContactPair  # noqa: E402
from hertz2d.calibration.laws.calibrated import (SHIPPED_COEFFICIENTS, CalibratedCoefficients,  # noqa
                                         CalibratedState, calibrated_update, curve_constants)
from hertz2d.calibration.laws.hertz2d import normal_force  # noqa: E402
from hertz2d.dem import Law  # noqa: E402
from hertz2d.dem.impact import impact  # noqa: E402
from hertz2d.dem import laws  # noqa: E402
from hertz2d.dem.laws import (BASE_NORMAL, CALIBRATED_HISTORY, PAIR_CONSTANTS, PAIR_CURVES,  # noqa
                              WALL_CURVES, calibrated_step, pair_constants, parameters_tuple,
                              traction_energy)
from hertz2d.calibration.laws.normal_table import Z_HIGH, Z_LOW  # noqa: E402

E, NU, MU = 10e9, 0.25, 0.3
#: the coefficients the engine and the Python law both take (whatever their values)
COEFFICIENTS = CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS)
LAW = Law.calibrated(E, NU, MU, COEFFICIENTS)
#: a disc-disc pair of unequal radii, and a disc on a wall
CASES = {"disc-disc": (ContactPair.discs(0.03, E, NU, MU, R2=0.04), 0.03, 0.04, False),
         "disc-wall": (ContactPair.disc_on_wall(0.035, E, NU, MU), 0.035, 0.035, True)}


def path(pair, delta0=1e-4):
    """(delta_n, d_delta_t) of the disc relative to its counterpart, step by step: seating,
    loading into partial slip, a reversal, cycles at a varying N, full slip while N falls,
    unloading until the contact opens, open steps, re-closing under a proportional load, and
    small cycles that drift; increments in units of the first loading's full-slip travel s B.
    (No cycle returns exactly to its turning point: there a front meets an earlier one's edge,
    a tie that rounding decides, and kt jumps between the inner branch's last slope and the
    outer branch's, T being the same.)"""
    N, a = (float(v) for v in normal_force(pair, pair.pair_displacement(delta0)))
    travel = MU * N / (math.pi * float(pair.modulus)) * float(
        curve_constants(pair, a, COEFFICIENTS).B)
    travel /= 2.0 if pair.wall else 1.0  # a wall's pair displacement is twice the disc's
    k = np.arange(200)
    steps = [(delta0, 0.0)]
    steps += [(delta0, 0.6 * travel / 50)] * 50
    steps += [(delta0, -travel / 100)] * 100
    steps += list(zip(delta0 * (1 + 0.3 * np.sin(2 * np.pi * k / 50)),
                      0.02 * travel * np.cos(2 * np.pi * k / 37)))
    steps += list(zip(np.linspace(delta0, 0.5 * delta0, 30), np.full(30, 1.5 * travel / 30)))
    steps += list(zip(np.linspace(0.5 * delta0, -0.1 * delta0, 20), np.full(20, 0.01 * travel)))
    steps += [(-0.1 * delta0, 0.0)] * 3
    steps += list(zip(np.linspace(0.05 * delta0, delta0, 30), np.full(30, 0.01 * travel)))
    steps += list(zip(np.full(100, delta0),
                      0.05 * travel * (np.sin(2 * np.pi * k[:100] / 25) + 0.1)))
    return steps


def engine_walk(R1, R2, wall, steps):
    """N, T, kt, a and the stored energy of the engine's compiled step along ``steps`` (the
    energy from the history row, as the ledger reads it); an open contact's row is zeroed, as
    the force loops do."""
    p = LAW.parameters
    law = parameters_tuple(p)
    constants = np.zeros(PAIR_CONSTANTS)
    pair_constants(LAW.code, law, 0.0, 1.0, R1, R2, constants)
    row = np.zeros(CALIBRATED_HISTORY)
    curves = WALL_CURVES if wall else PAIR_CURVES
    scale = 2.0 if wall else 1.0
    rows = []
    for delta_n, d in steps:
        if delta_n <= 0.0:
            row[:] = 0.0
            rows.append((0.0, 0.0, 0.0, 0.0, 0.0))
            continue
        state, _, _ = calibrated_step(law, p, tuple(constants), row[BASE_NORMAL:],
                                      scale * delta_n, scale * d, R1, R2, curves)
        row[:len(state)] = state
        rows.append((*state, traction_energy(p, curves, row)))
    return np.array(rows)


def python_walk(pair, steps):
    state, rows = CalibratedState.unloaded(), []
    for delta_n, d in steps:
        state = calibrated_update(pair, delta_n, d, state, COEFFICIENTS)
        rows.append((state.N[0], state.T[0], state.kt[0], state.a[0], state.energy[0]))
    return np.array(rows)


@pytest.mark.parametrize("case", CASES)
def test_the_engines_step_is_the_python_law(case):
    pair, R1, R2, wall = CASES[case]
    steps = path(pair)
    engine, python = engine_walk(R1, R2, wall, steps), python_walk(pair, steps)
    N = python[:, 0]
    # the path goes through every regime: partial slip, full slip, open, re-closed
    assert np.any((python[:, 2] > 0) & (np.abs(python[:, 1]) < 0.99 * MU * N))
    assert np.any((python[:, 2] == 0) & (N > 0)) and np.any(N == 0) and N[-1] > 0
    np.testing.assert_allclose(engine[:, 0], N, rtol=1e-12, atol=0)
    np.testing.assert_allclose(engine[:, 3], python[:, 3], rtol=1e-12, atol=0)
    np.testing.assert_array_less(np.abs(engine[:, 1] - python[:, 1]), 1e-12 * MU * N + 1e-300)
    np.testing.assert_allclose(engine[:, 2], python[:, 2], rtol=1e-12, atol=0)
    np.testing.assert_allclose(engine[:, 4], python[:, 4], rtol=1e-11, atol=1e-12 * np.max(
        python[:, 4]))


def test_a_blocks_normal_forces_at_once_are_the_scalar_solves_doubles():
    """The force loop finds a block's normal forces at once (calibrated_normals: u from the
    table read through the bits of z, in loops that vectorise): the doubles of the scalar solve
    (calibrated_normal: the table by frexp, W_{-1} outside it) for every contact whose z the
    table holds, and exactly the others marked for the scalar solve."""
    rng = np.random.default_rng(7)
    count = 300
    R1, R2 = rng.uniform(0.03, 0.04, count), rng.uniform(0.03, 0.04, count)
    delta = R1 * R2 / (R1 + R2) * 10.0 ** rng.uniform(-20.0, 0.0, count)
    law = parameters_tuple(LAW.parameters)
    steps = np.zeros((laws.STEP_ROWS, count))
    pairs = np.zeros((count, PAIR_CONSTANTS))
    for m in range(count):
        pair_constants(LAW.code, law, 0.0, 1.0, R1[m], R2[m], pairs[m])
    steps[laws.APPROACH], steps[laws.RADIUS_1], steps[laws.RADIUS_2] = delta, R1, R2
    steps[laws.LOG_1], steps[laws.LOG_2] = pairs[:, laws.LOG_4R1], pairs[:, laws.LOG_4R2]
    steps[laws.EXP_C] = pairs[:, laws.EXP_MINUS_C]
    rare = np.full(count, -1, dtype=np.int64)
    laws.calibrated_normals(law, steps, count, rare)
    z = steps[laws.ARGUMENT]
    np.testing.assert_array_equal(rare, np.where((z >= Z_LOW) & (z < Z_HIGH), 0, 1))
    assert 0 < rare.sum() < count
    rows = (laws.NEW_NORMAL, laws.NEW_HALF_WIDTH, laws.NEW_LOG_HALF_WIDTH, laws.NEW_K_NORMAL)
    for m in np.flatnonzero(rare == 0):
        expected = laws.calibrated_normal(law, tuple(pairs[m]), delta[m], R1[m], R2[m])
        assert tuple(steps[rows, m]) == expected


@pytest.mark.parametrize("wall", [True, False], ids=["wall", "disc"])
def test_a_normal_impact_is_table_1s(wall):
    """Without a tangential increment the calibrated law is Table 1's normal law, solved by the
    same kernel: the engine's normal impact gives Table 1's contact time and restitution."""
    calibrated = impact(LAW, speed=1.0, wall=wall, dt=1e-6)
    table1 = impact(Law.simplified(E, NU, MU), speed=1.0, wall=wall, dt=1e-6)
    assert calibrated.contact_time == pytest.approx(table1.contact_time, rel=1e-12)
    assert calibrated.restitution == pytest.approx(table1.restitution, rel=1e-12)
    assert calibrated.energy_error < 1e-4


def rebound_differences(angle, wall, steps):
    """The rebound angle's change (degrees) from each of ``steps`` to the next."""
    angles = [impact(LAW, speed=1.0, angle=angle, wall=wall, dt=dt).rebound_angle
              for dt in steps]
    return [abs(b - a) for a, b in zip(angles[:-1], angles[1:])]


#: the time steps of the rebound's convergence test, each 4 times the next
REBOUND_STEPS = (2e-7, 5e-8, 1.25e-8, 3.125e-9, 7.8125e-10)


@pytest.mark.parametrize("angle, wall", [
    pytest.param(10.0, False, id="disc-10deg"),
    pytest.param(30.0, False, id="disc-30deg", marks=pytest.mark.slow),
    pytest.param(45.0, True, id="wall-45deg", marks=pytest.mark.slow)])
def test_an_oblique_rebound_converges_with_the_time_step(angle, wall):
    """The rebound angle of an oblique impact (sticking, then slip as the contact unloads) at
    five steps dt from 2e-7 s, each 4 times the next: every refinement changes it less than the
    one before, and from the first change to the last (three refinements) it falls at least 4^3 =
    64 times (a mean observed order of at least 1). First order is what the law allows: its
    normal force's coupling term acts while the contact grows beyond the largest area it has
    covered and is 0 inside it (the structural compliance held), so it switches off as the
    contact turns from loading to unloading, a step in the force that a time step integrates at
    first order. Seen with the shipped coefficients: two discs at 10 degrees, 4.1e-6, 1.2e-7,
    5.1e-8 then 8.7e-9 degrees (470 times over the last three: the pieces the first touch lays
    have the step's width, and the fixed grid of cells in b^2 they fold on makes single
    refinements uneven, 35 then 2.3 then 5.8 times); at 30 degrees 6.2e-6 to 8.6e-9 (720 times);
    a disc on a wall at 45 degrees 2.6e-5 to 6.4e-8 (400 times, the last refinement 1.1 times).
    The pieces of traction a sticking contact lays fold into one per cell of that grid, at no
    slip where the energy allows, so the memory's resolution does not change with the step. The
    first change stands above 1e-6 degrees, far above rounding. The default suite runs the
    10-degree impact; the other two (25 s each) are marked slow."""
    changes = rebound_differences(angle, wall, REBOUND_STEPS)
    assert changes[0] > 1e-6
    assert all(later < earlier for earlier, later in zip(changes[:-1], changes[1:]))
    assert changes[-1] < changes[0] / 4 ** 3


def test_a_run_beyond_the_fitted_contact_size_says_so_once(hertz2d_records):
    """A disc pressed into a wall by gravity beyond the (here narrowed) fitted a/R: one warning
    naming how many contacts and the largest a/R, after the run, however many runs."""
    from dataclasses import replace

    from hertz2d.dem import Discs, Simulation, Walls
    narrow = replace(COEFFICIENTS, ranges={"a_over_R": [0.0, 1e-4], "mu": [0.1, 1.0]})
    law = Law.calibrated(E, NU, MU, narrow)

    def disc():
        return Discs.from_arrays(np.array([[0.5, 0.05 - 1e-5]]), np.array([0.05]), 2700.0)

    run = Simulation(disc(), law, walls=Walls.box(1.0, 1.0), dt=1e-6, gravity=(0.0, -1e4))
    run.run(200)
    run.run(200)
    messages = [r.getMessage() for r in hertz2d_records]
    assert len(messages) == 1
    assert "1 contact(s)" in messages[0] and "a_over_R" in messages[0]
    assert run.largest_contact > 1e-4
    plain = Simulation(disc(), LAW, walls=Walls.box(1.0, 1.0), dt=1e-6, gravity=(0.0, -1e4))
    plain.run(200)
    assert len(hertz2d_records) == 1  # the shipped ranges hold this contact (or none recorded)
