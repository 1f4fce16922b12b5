"""The reversing load paths with a swinging approach (stick cycles, sliding reversals, random
walks): closed periods, counted reversals, the swing's closed form, seeds, bad values."""
import numpy as np
import pytest

from hertz2d.calibration.laws import energy_per_cycle
from hertz2d.calibration.laws.energy import last_cycle, loop_works
from hertz2d.checks import InputError
from hertz2d.checks.loadpath import MINOR_BACK, SWINGING, LoadPath, walk_turning_points

DN, A = 0.02, 0.004


def reversals(path: LoadPath) -> int:
    """Sign changes of the tangential increments (held steps skipped)."""
    moves = np.diff(path.delta_t)
    signs = np.sign(moves[moves != 0])
    return int(np.sum(signs[1:] != signs[:-1]))


def period_ends(path: LoadPath) -> np.ndarray:
    """The last step of the first loading and of every period (the end of each reloading)."""
    stage = path.stage
    after = np.append(stage[1:], "")
    return np.flatnonzero(((stage == "reloading") | (stage == "tangential"))
                          & (after != stage))


@pytest.mark.parametrize("kind", list(SWINGING))
@pytest.mark.parametrize("cycles", [1, 3])
def test_every_period_returns_to_its_start(kind, cycles):
    path = LoadPath.build(kind, DN, A, steps=6, normal_steps=3, cycles=cycles,
                          normal_swing=0.3, seed=11)
    ends = period_ends(path)
    assert len(ends) == cycles + 1
    np.testing.assert_allclose(path.delta_t[ends], A, rtol=1e-12)
    np.testing.assert_allclose(path.delta_n[ends], path.delta_n[ends[0]], rtol=1e-12)
    assert np.all(np.abs(path.delta_t) <= A * (1 + 1e-12))
    assert path.delta_t.min() == pytest.approx(-A)
    assert list(dict.fromkeys(path.stage)) == ["normal", "tangential", "unloading", "reloading"]


@pytest.mark.parametrize("kind", list(SWINGING))
def test_conservative_forces_do_no_work_over_the_last_period(kind):
    """Linear springs in delta_t and delta_n (forces of a potential): the trapezoid rule is
    exact on them, so the last period's work is zero exactly when the period is closed."""
    path = LoadPath.build(kind, DN, A, steps=5, normal_steps=2, cycles=2, normal_swing=0.4,
                          seed=3)
    table = path.frame().assign(Fx=2e9 * path.delta_t, Fz=3e9 * path.delta_n)
    scale = 3e9 * DN * DN
    assert abs(energy_per_cycle(table)) < 1e-12 * scale


@pytest.mark.parametrize("kind", list(SWINGING))
def test_the_normal_loop_of_a_force_coupled_to_delta_t_is_the_area_the_period_encloses(kind):
    """Fz = kn delta_n + c delta_t: by Green's theorem the closed integral of Fz d(delta_n) is
    c times the signed area the period encloses in (delta_n, delta_t), which the shoelace
    formula gives for the polygon of its steps (the trapezoid rule is exact on it); Fx = kt
    delta_t does no work, and the two loops add up to the energy per cycle. A sliding reversal's
    approach swings twice a cycle: its figure eight encloses no net area."""
    path = LoadPath.build(kind, DN, A, steps=7, normal_steps=2, cycles=2, normal_swing=0.3,
                          seed=5)
    coupling = 4e8
    table = path.frame().assign(Fx=2e9 * path.delta_t,
                                Fz=3e9 * path.delta_n + coupling * path.delta_t)
    cycle = last_cycle(table)
    x, y = cycle.delta_n.to_numpy(), cycle.delta_t.to_numpy()
    area = 0.5 * np.sum(x[:-1] * y[1:] - x[1:] * y[:-1])
    tangential, normal = loop_works(table)
    scale = coupling * DN * A
    opens = kind != "sliding-reversal"
    assert (abs(area) > 1e-3 * DN * A) == opens
    assert tangential == pytest.approx(0.0, abs=1e-12 * scale)
    assert normal == pytest.approx(-coupling * area, rel=1e-9, abs=1e-12 * scale)
    assert tangential + normal == pytest.approx(energy_per_cycle(table), rel=1e-12)


@pytest.mark.parametrize("kind", ["stick-cycle", "sliding-reversal"])
@pytest.mark.parametrize("cycles", [1, 2, 5])
def test_a_cycle_reverses_twice_per_cycle(kind, cycles):
    path = LoadPath.build(kind, DN, A, steps=4, cycles=cycles, normal_swing=0.1)
    assert reversals(path) == 2 * cycles
    assert len(path) == 10 + 4 * (1 + 4 * cycles)


@pytest.mark.parametrize("minor", [0, 1, 2, 4])
@pytest.mark.parametrize("cycles", [1, 2])
def test_a_random_walk_has_its_minor_reversals(minor, cycles):
    """Per period: each half's minor reversals (two turning points each) and its end."""
    for seed in range(5):
        path = LoadPath.build("random-walk", DN, A, steps=8, cycles=cycles, seed=seed,
                              reversals=minor, normal_swing=0.2)
        assert reversals(path) == cycles * 2 * (2 * minor + 1)


def test_a_stick_cycle_swings_a_quarter_cycle_out_of_phase():
    """delta_n = dn (1 + s sin(2 pi tau)): highest a quarter cycle after +A, where delta_t
    passes 0 on its way down, lowest where it passes 0 on its way up; the first loading held."""
    path = LoadPath.build("stick-cycle", DN, A, steps=4, normal_steps=2, cycles=1,
                          normal_swing=0.1)
    assert np.all(path.delta_n[path.stage == "tangential"] == DN)
    high, low = np.argmax(path.delta_n), np.argmin(path.delta_n[2:]) + 2
    assert path.delta_n[high] == pytest.approx(1.1 * DN)
    assert path.delta_n[low] == pytest.approx(0.9 * DN)
    assert path.delta_t[high] == pytest.approx(0, abs=1e-15) and path.stage[high] == "unloading"
    assert path.delta_t[low] == pytest.approx(0, abs=1e-15) and path.stage[low] == "reloading"


def test_a_sliding_reversal_swings_twice_a_cycle():
    path = LoadPath.build("sliding-reversal", DN, A, steps=4, normal_steps=2, cycles=1,
                          normal_swing=0.2)
    cycle = path.stage != "normal"
    cycle[: np.flatnonzero(path.stage == "unloading")[0]] = False
    top = np.flatnonzero(np.isclose(path.delta_n, 1.2 * DN) & cycle)
    assert len(top) == 2  # at tau = 1/8 and 5/8: delta_t = A/2 going down, -A/2 going up
    np.testing.assert_allclose(path.delta_t[top], [A / 2, -A / 2])


def test_the_same_seed_walks_the_same_way():
    first = LoadPath.build("random-walk", DN, A, steps=8, cycles=2, seed=42)
    again = LoadPath.build("random-walk", DN, A, steps=8, cycles=2, seed=42)
    other = LoadPath.build("random-walk", DN, A, steps=8, cycles=2, seed=43)
    assert np.array_equal(first.delta_t, again.delta_t)
    assert np.array_equal(first.delta_n, again.delta_n)
    assert not (len(first) == len(other) and np.array_equal(first.delta_t, other.delta_t))


def test_a_walks_minor_reversals_step_back_part_of_the_descent():
    """Each half: levels in (-A, A) making net progress, each followed by a step back of a
    MINOR_BACK share of the descent from the level before (from +-A for the first)."""
    rng = np.random.default_rng(9)
    for _ in range(50):
        points = walk_turning_points(A, 3, rng)
        assert len(points) == 1 + 2 * (2 * 3 + 1) and points[0] == A and points[-1] == A
        assert points[7] == -A
        for half, sign in ((points[:8], 1.0), (points[7:], -1.0)):
            levels, backs = half[1:-1:2], half[2:-1:2]
            before = np.concatenate([[sign * A], levels[:-1]])
            assert np.all(sign * np.diff(np.concatenate([[sign * A], levels])) < 0)
            share = (backs - levels) / (before - levels)
            assert np.all((MINOR_BACK[0] <= share) & (share <= MINOR_BACK[1]))


@pytest.mark.parametrize("changes, message", [
    (dict(normal_swing=1.0), "normal_swing=1.0 must be < 1"),
    (dict(normal_swing=-0.1), "normal_swing=-0.1"),
    (dict(reversals=-1), "reversals=-1 must be >= 0"),
    (dict(reversals=1.5), "reversals=1.5 is not an integer"),
    (dict(seed=-3), "seed=-3 must be >= 0"),
    (dict(seed="x"), "seed='x' is not an integer"),
    (dict(cycles=0), "cycles=0 must be >= 1"),
    (dict(delta_t=0.0), "delta_t=0.0 must be > 0"),
])
@pytest.mark.parametrize("kind", list(SWINGING))
def test_bad_values_are_named(kind, changes, message):
    values = dict(delta_n=DN, delta_t=A, steps=4, cycles=1, normal_swing=0.2, seed=1,
                  reversals=2)
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        LoadPath.build(kind, **{**values, **changes})


def test_the_command_line_knows_the_swinging_kinds():
    from hertz2d.calibration.commands.pathargs import SWINGING as NAMED

    assert NAMED == tuple(SWINGING)
