"""The DEM engine's parts: neighbour list, history, integrator, walls, damping, energy ledger."""
import math

import numpy as np
import pytest

pytest.importorskip("numba")

from hertz2d.calibration.laws.calibrated import SHIPPED_COEFFICIENTS, CalibratedCoefficients  # noqa: E402
from hertz2d.dem import Damping, Discs, Law, LawFailure, Simulation, Walls, random_packing  # noqa: E402
from hertz2d.dem.contacts import NORMAL, TANGENTIAL  # noqa: E402
from hertz2d.dem.forces import Forces, compute_forces  # noqa: E402
from hertz2d.dem.laws import MEMORY  # noqa: E402
from hertz2d.dem.energy import SLIP, STIFFNESS_CHANGE  # noqa: E402
from hertz2d.dem.neighbours import candidate_pairs  # noqa: E402
from hertz2d.checks import InputError  # noqa: E402

LAWS = {"simplified": Law.simplified(10e9, 0.25, 0.3), "linear": Law.linear(2.7e9, 1.5e9, 0.3),
        "hertz-mindlin": Law.hertz_mindlin(10e9, 0.25, 0.3),
        "calibrated": Law.calibrated(10e9, 0.25, 0.3,
                                     CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS))}
G = 9.81


def packing(count=40, width=0.5, height=0.75, seed=3):
    return random_packing(count, 0.06, 0.08, width, height, seed=seed)


def test_random_packing_is_inside_the_box_without_overlaps_and_reproducible():
    centres, radii = packing(200, 1.0, 1.5, seed=12)
    assert np.all((radii >= 0.03) & (radii <= 0.04))
    assert np.all(centres - radii[:, None] >= 0) and np.all(centres[:, 0] + radii <= 1.0)
    assert np.all(centres[:, 1] + radii <= 1.5)
    gaps = (np.linalg.norm(centres[:, None] - centres[None], axis=2)
            - (radii[:, None] + radii[None]))
    assert np.all(gaps[np.triu_indices(len(radii), 1)] >= 0)
    again, _ = packing(200, 1.0, 1.5, seed=12)
    np.testing.assert_array_equal(centres, again)
    with pytest.raises(InputError, match="do not fit"):
        random_packing(30, 0.3, 0.35, 1.0, 1.0)  # 2.6 m^2 of discs in 1 m^2


@pytest.mark.parametrize("skin", [0.0, 0.005, 0.05])
def test_verlet_list_is_every_pair_within_the_skin(skin):
    centres, radii = packing(200, 1.0, 1.5, seed=5)
    position = np.column_stack([centres, np.zeros(len(radii))])
    pairs = candidate_pairs(position, radii, skin, np.arange(len(radii)))
    i, j = np.triu_indices(len(radii), 1)
    reach = np.linalg.norm(centres[j] - centres[i], axis=1) < radii[i] + radii[j] + skin
    expected = np.column_stack([i[reach], j[reach]])
    np.testing.assert_array_equal(pairs, expected)  # same pairs, sorted by (i, j)


def settle(law, skin, steps=4000):
    centres, radii = packing()
    run = Simulation(Discs.from_arrays(centres, radii, 2700.0), law, dt=1e-5,
                     walls=Walls.box(0.5, 0.75), damping=Damping(ratio=0.2), skin=skin)
    run.advance(steps)
    return run


@pytest.mark.parametrize("name", ["simplified", "calibrated"])
def test_history_carried_across_list_rebuilds_gives_the_same_trajectory(name):
    """A skin of 1e-6 m rebuilds the list nearly every step, 0.02 m a few times: the contacts and
    their tangential history (the calibrated law's memory columns too) must be the same, so the
    two runs are identical to the bit."""
    law = LAWS[name]
    often, rarely = settle(law, 1e-6, 30000), settle(law, 0.02, 30000)
    assert np.count_nonzero(often.contacts.pair_history[:, NORMAL]) > 10  # the bed has formed
    assert np.any(often.contacts.pair_history[:, TANGENTIAL] != 0)
    if name == "calibrated":  # contacts with traction pieces in memory: the count > 1
        assert np.any(often.contacts.pair_history[:, MEMORY] > 1)
    np.testing.assert_array_equal(often.discs.position, rarely.discs.position)
    np.testing.assert_array_equal(often.discs.velocity, rarely.discs.velocity)


def test_the_calibrated_ledger_telescoped_over_a_run_is_its_per_step_sum():
    """The calibrated law's steps count their work as slip and the ledger takes off the energy
    its tractions hold at the end of each run of steps (and when a contact opens): 3000 steps
    in one run and in 3000 runs of one step (each step then settled, the work less the change
    of the stored energy) give the same trajectory to the bit and the same ledger to rounding,
    while contacts form, slide and open (the bed is forming)."""
    law = LAWS["calibrated"]
    whole, stepped = settle(law, 0.02, 15000), settle(law, 0.02, 15000)
    before = whole.ledger.copy()
    whole.advance(3000)
    for _ in range(3000):
        stepped.advance(1)
    np.testing.assert_array_equal(whole.discs.position, stepped.discs.position)
    np.testing.assert_array_equal(whole.contacts.pair_history, stepped.contacts.pair_history)
    change = whole.ledger - before
    assert change[SLIP] > 0 and change[STIFFNESS_CHANGE] > 0  # slip; contacts opened holding T
    np.testing.assert_allclose(stepped.ledger, whole.ledger, rtol=1e-12,
                               atol=1e-12 * np.abs(whole.ledger).max())
    assert abs(whole.balance()["residual"]) < 0.01 * whole.balance()["work"]


def test_free_fall_is_exact_and_local_damping_scales_gravity():
    """Velocity Verlet is exact for a constant force; local damping opposes the whole unbalanced
    force (PFC), so a disc falling (already moving down) accelerates at (1 - alpha) g, and its
    force-free horizontal motion is not damped at all."""
    for alpha in (0.0, 0.7):
        run = Simulation(Discs.from_arrays([[0.0, 10.0]], [0.035], 2700.0, [[0.3, -0.5, 0.0]]),
                         LAWS["linear"], dt=1e-4, damping=Damping(local=alpha))
        run.advance(1000)
        t, a = run.time, (1 - alpha) * G
        assert run.discs.position[0, 1] == pytest.approx(10.0 - 0.5 * t - 0.5 * a * t * t,
                                                         rel=1e-12)
        assert run.discs.velocity[0, 1] == pytest.approx(-0.5 - a * t, rel=1e-12)
        assert run.discs.position[0, 0] == pytest.approx(0.3 * t, rel=1e-12)


def test_forces_turn_with_the_contact_stored_tangential_force_included():
    """Rotating a configuration (positions and velocities) by any angle rotates its forces and
    keeps its moments: the stored scalar T (below mu N here) follows the contact's tangent."""
    law = LAWS["simplified"]
    centres = np.array([[0.0, 0.0], [0.069, 0.01]])
    results = []
    for angle in (0.0, 0.7, 2.5):
        turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
        velocities = np.array([[0.01, 0.02, 3.0], [-0.02, 0.0, -1.0]])
        velocities[:, :2] = velocities[:, :2] @ turn.T
        discs = Discs.from_arrays(centres @ turn.T, [0.035, 0.035], 2700.0, velocities)
        run = Simulation(discs, law, dt=1e-6, gravity=(0.0, 0.0), skin=0.01)
        run.contacts.pair_history[0, TANGENTIAL] = 3e4  # a loaded tangential spring
        forces = Forces.zeros(discs, run.walls)
        compute_forces(discs, run.walls, run.contacts, forces, run.ledger, law.code,
                       law.kernel, law.parameters, 0.0, 0.0, run.gravity, 1e-6, True)
        T, N = run.contacts.pair_history[0, TANGENTIAL], run.contacts.pair_history[0, NORMAL]
        assert 0 < abs(T) < 0.3 * N
        results.append((turn, forces.total.copy()))
    reference = results[0][1]
    for turn, total in results[1:]:
        np.testing.assert_allclose(total[:, :2], reference[:, :2] @ turn.T, rtol=1e-12,
                                   atol=1e-9 * np.abs(reference).max())
        np.testing.assert_allclose(total[:, 2], reference[:, 2], rtol=1e-12)


def test_a_disc_resting_on_the_floor_presses_it_with_its_weight():
    radius = 0.035
    run = Simulation(Discs.from_arrays([[0.5, radius]], [radius], 2700.0), LAWS["simplified"],
                     dt=1e-5, walls=Walls.box(1.0, 1.0), damping=Damping(local=0.7))
    run.advance(20000)
    weight = 2700.0 * math.pi * radius**2 * G
    assert run.walls.stresses()[0] * 1.0 == pytest.approx(weight, rel=1e-9)


def biaxial(law, damping, stress=1e7):
    """A short biaxial test: settling under gravity, an isotropic servo stage, then the top wall
    pressed down at 0.1 m/s with the side walls on the servo."""
    centres, radii = packing()
    walls = Walls.box(0.5, 0.75)
    run = Simulation(Discs.from_arrays(centres, radii, 2700.0), law, walls=walls, dt=1e-5,
                     damping=damping)
    run.run(20000)
    walls.point[2, 1] = (run.discs.position[:, 1] + run.discs.radius).max() + 1e-3
    for wall in (1, 2, 3):
        walls.set_servo(wall, stress)
    isotropic = run.run(20000, output_every=500)
    walls.set_velocity(2, (0.0, -0.1))
    run.run(10000)
    return run, isotropic


@pytest.mark.parametrize("damping", [Damping(local=0.7), Damping(ratio=0.3)],
                         ids=["local", "viscous"])
@pytest.mark.parametrize("name", LAWS)
def test_energy_balance_of_a_biaxial_run(name, damping):
    """Work of walls and gravity = kinetic + elastic + dissipated, within 1 % (it closes to about
    1e-3 at dt = 1e-5; the slow test shows the residual shrinking with dt)."""
    run, _ = biaxial(LAWS[name], damping)
    balance = run.balance()
    assert balance["wall_work"] > 1e4 and balance["dissipated"] > 0.1 * balance["work"]
    assert abs(balance["residual"]) < 0.01 * balance["work"]


@pytest.mark.parametrize("damping", [Damping(local=0.7), Damping(ratio=0.3)],
                         ids=["local", "viscous"])
@pytest.mark.parametrize("name", LAWS)
def test_servo_walls_reach_their_target_stress(name, damping):
    """By the end of the isotropic stage (0.2 s) the three servo walls hold 10 MPa (with contact
    dashpots too: the servo acts on the springs' force, see hertz2d.dem.walls)."""
    _, isotropic = biaxial(LAWS[name], damping)
    late = isotropic.tail(5)
    for wall in (1, 2, 3):
        assert late[f"wall{wall}_stress"].mean() == pytest.approx(1e7, rel=0.02)


@pytest.mark.slow
@pytest.mark.parametrize("name", LAWS)
def test_biaxial_energy_residual_shrinks_with_the_time_step(name):
    residuals = []
    for dt in (1e-5, 2.5e-6):
        centres, radii = packing()
        walls = Walls.box(0.5, 0.75)
        run = Simulation(Discs.from_arrays(centres, radii, 2700.0), LAWS[name], walls=walls,
                         dt=dt, damping=Damping(ratio=0.3))
        run.advance(int(0.2 / dt))
        for wall in (1, 2, 3):
            walls.set_servo(wall, 1e7)
        run.advance(int(0.1 / dt))
        balance = run.balance()
        residuals.append(abs(balance["residual"]) / balance["work"])
    assert residuals[1] < 0.5 * residuals[0]


@pytest.mark.slow
@pytest.mark.parametrize("name", LAWS)
def test_energy_balance_of_the_papers_packing_under_its_confinement(name):
    """The paper's 200 discs in the 1.0 x 1.5 m box with its damping: settling, 0.2 s of
    isotropic servo compression to 0.1 GPa, 0.2 s of shearing at 0.1 m/s."""
    centres, radii = random_packing(200, 0.06, 0.08, 1.0, 1.5, seed=1)
    walls = Walls.box(1.0, 1.5)
    run = Simulation(Discs.from_arrays(centres, radii, 2700.0), LAWS[name], walls=walls,
                     dt=1e-5, damping=Damping(local=0.7))
    run.advance(100_000)
    walls.point[2, 1] = (run.discs.position[:, 1] + run.discs.radius).max()
    for wall in (1, 2, 3):
        walls.set_servo(wall, 1e8)
    run.advance(20_000)
    walls.set_velocity(2, (0.0, -0.1))
    run.advance(20_000)
    balance = run.balance()
    assert balance["wall_work"] > 1e5
    assert abs(balance["residual"]) < 0.01 * balance["work"]


def test_a_contact_beyond_the_law_is_refused():
    radius = 0.035
    with pytest.raises(InputError, match="beyond"):
        Simulation(Discs.from_arrays([[0.0, 0.0], [0.02, 0.0]], [radius, radius], 2700.0),
                   LAWS["simplified"], dt=1e-5)
    run = Simulation(Discs.from_arrays([[0.0, 0.04]], [radius], 2700.0, [[0.0, -1000.0, 0.0]]),
                     LAWS["simplified"], dt=2e-5, walls=Walls.build([(0, 0)], [(0, 1)]))
    with pytest.raises(LawFailure, match="Eq. 23"):
        run.advance(10)


def test_bad_walls_and_runs_are_refused():
    walls = Walls.build([(0, 0)], [(0, 1)])
    with pytest.raises(InputError, match="span"):
        walls.set_servo(0, 1e6)
    with pytest.raises(InputError, match="normal"):
        Walls.build([(0, 0)], [(0, 0)])
    with pytest.raises(InputError, match="dt"):
        Simulation(Discs.from_arrays([[0, 0]], [0.03], 2700.0), LAWS["linear"], dt=0.0)
    with pytest.raises(InputError, match="local damping"):
        Damping(local=1.0)


@pytest.mark.parametrize("name", ["linear", "simplified", "calibrated"])
def test_a_law_sent_to_a_worker_process_has_the_engine_s_types(name):
    """A law pickled to a worker (the biaxial runs, the map) arrives with what it left with and
    as numba types it in the parent: a writable copy of the parameters would make every worker
    compile the whole engine again, its cache of no use to the parent."""
    import pickle

    import numba

    law = LAWS[name]
    copy = pickle.loads(pickle.dumps(law))
    assert numba.typeof(copy.parameters) == numba.typeof(law.parameters)
    assert not copy.parameters.flags.writeable
    assert np.array_equal(copy.parameters, law.parameters)
    assert (copy.code, copy.label, copy.name, copy.coefficients) == (
        law.code, law.label, law.name, law.coefficients)


def test_no_two_rows_of_a_block_s_scratch_lie_a_multiple_of_4_kib_apart():
    """The blocked laws' scratch (:data:`hertz2d.dem.forces.BLOCK` contacts a row) must not put
    two rows 4 KiB apart, or within 64 bytes of it: the processor takes a load and a store that
    far apart for the same address and orders them ("4K aliasing"). With 256 contacts a row
    (2 KiB), every other row was, and the gather pass took 4.4 us instead of 2.4 for 140
    contacts."""
    from hertz2d.dem.forces import BLOCK, SCRATCH_ROWS
    stride = BLOCK * np.dtype(np.float64).itemsize
    apart = [(k * stride) % 4096 for k in range(1, SCRATCH_ROWS)]
    assert min(min(offset, 4096 - offset) for offset in apart) >= 64


_ALLOCATIONS = """
import sys
sys.path.insert(0, sys.argv[2])
from numba.core.runtime import rtsys
from test_dem_engine import LAWS, settle
run = settle(LAWS[sys.argv[1]], None, 40000)
before = rtsys.get_allocation_stats()
run.advance(5000)
after = rtsys.get_allocation_stats()
print(after.alloc - before.alloc, after.free - before.free, run.observe()["contacts"])
"""


@pytest.mark.parametrize("law", ["simplified", "linear", "calibrated"])
def test_the_force_passes_without_reference_counts_leave_every_allocation_freed(law):
    """The force passes are compiled without numba's reference counts
    (:func:`hertz2d.dem.jit.njit`, ``counted=False``): over 5000 steps of a packing landed on
    its floor (:func:`settle`, in a new process with numba's runtime statistics on,
    ``NUMBA_NRT_STATS``) as many arrays must be freed as allocated, but for the few the run
    holds when it returns (its contact lists, rebuilt in the meantime); a pass that leaked would
    leave at least one a step."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    out = subprocess.run([sys.executable, "-c", _ALLOCATIONS, law, str(Path(__file__).parent)],
                         check=True, capture_output=True, text=True,
                         env={**os.environ, "NUMBA_NRT_STATS": "1"}).stdout.split()
    allocated, freed, contacts = map(int, out[-3:])
    assert contacts > 0  # the discs touch: the passes ran on contacts
    assert allocated > 0 and abs(allocated - freed) <= 50, (allocated, freed)
