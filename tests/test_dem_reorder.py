"""Spatial reordering of the discs (:mod:`hertz2d.dem.ordering`): the same run per disc, but for
the order of sums (rounding), whatever the slots."""
import numpy as np
import pytest

pytest.importorskip("numba")

from hertz2d.calibration.laws.calibrated import SHIPPED_COEFFICIENTS, CalibratedCoefficients  # noqa: E402
from hertz2d.checks import InputError  # noqa: E402
from hertz2d.dem import Damping, Discs, Law, Simulation, Walls  # noqa: E402
from hertz2d.dem.contacts import NORMAL, TANGENTIAL  # noqa: E402
from hertz2d.dem.neighbours import candidate_pairs  # noqa: E402
from hertz2d.dem.ordering import permuted, strip_order  # noqa: E402

LAWS = {"simplified": Law.simplified(10e9, 0.25, 0.3), "linear": Law.linear(2.7e9, 1.5e9, 0.3),
        "calibrated": Law.calibrated(10e9, 0.25, 0.3,
                                     CalibratedCoefficients.from_file(SHIPPED_COEFFICIENTS))}
#: the lattice: rows and columns, spacing (m), largest radius (m), disc-to-disc gaps up to +-GAP
ROWS, COLUMNS, SPACING, RADIUS, GAP = 15, 20, 0.1, 0.05, 1e-5


def lattice_bed(law, reorder, skin=1e-6, seed=1):
    """300 discs on a triangular lattice, listed in a shuffled order, neighbours overlapping or
    apart by up to :data:`GAP`, moving and spinning at random in a box under gravity: hundreds
    of contacts from the first step, sticking and slipping. The tiny skin rebuilds the lists
    (and with ``reorder`` 1 reorders the discs) nearly every step."""
    rng = np.random.default_rng(seed)
    centres = np.array([(SPACING * (c + 0.5 + 0.5 * (r % 2)), RADIUS + r * SPACING * 3**0.5 / 2)
                        for r in range(ROWS) for c in range(COLUMNS)])
    centres = centres[rng.permutation(len(centres))]
    radii = rng.uniform(0.5 * SPACING - GAP, 0.5 * SPACING, len(centres))
    velocities = np.column_stack([rng.normal(0.0, 0.05, (len(radii), 2)),
                                  rng.normal(0.0, 1.0, len(radii))])
    return Simulation(Discs.from_arrays(centres, radii, 2700.0, velocities), law, dt=1e-5,
                      walls=Walls.box((COLUMNS + 1) * SPACING, 1.5), damping=Damping(ratio=0.2),
                      skin=skin, reorder=reorder)


@pytest.mark.parametrize("name", ["simplified", "calibrated"])
def test_a_reordered_run_is_the_same_run_per_disc_but_for_rounding(name):
    """Reordered at (nearly) every step, the discs are in other slots at every call's end than
    at its start (the permutation composes over hundreds of reorders), yet every disc, every
    contact's history (sticking contacts keep their T) and every ledger term are the run
    without reordering's, per original index, to rounding: only sums are taken in another
    order."""
    plain, sorted_ = lattice_bed(LAWS[name], 0), lattice_bed(LAWS[name], 1)
    assert np.array_equal(plain.order, np.arange(len(plain.order)))
    starts = [sorted_.order.copy()]
    for _ in range(3):
        plain.advance(100)
        sorted_.advance(100)
        starts.append(sorted_.order.copy())
        np.testing.assert_array_equal(np.sort(sorted_.order), np.arange(len(sorted_.order)))
        np.testing.assert_array_equal(plain.contacts.pairs, sorted_.contacts.pairs)
        np.testing.assert_array_equal(plain.contacts.wall_pairs, sorted_.contacts.wall_pairs)
        np.testing.assert_allclose(sorted_.discs.position, plain.discs.position, rtol=0,
                                   atol=1e-14)
        np.testing.assert_allclose(sorted_.discs.velocity, plain.discs.velocity, rtol=0,
                                   atol=1e-11 * np.abs(plain.discs.velocity).max())
        history, expected = sorted_.contacts.pair_history, plain.contacts.pair_history
        np.testing.assert_array_equal(history[:, NORMAL] != 0, expected[:, NORMAL] != 0)
        # each column to the rounding of its own scale: N and T in N/m, kt in N/m per m (1e9
        # times N's numbers), the calibrated memory's widths in m^2
        excess = np.abs(history - expected) - 1e-9 * np.abs(expected).max(axis=0)
        row, column = np.unravel_index(excess.argmax(), excess.shape)
        assert excess[row, column] <= 0.0, (row, column, history[row, column],
                                            expected[row, column])
        mine, theirs = sorted_.balance(), plain.balance()
        for term, value in theirs.items():
            assert mine[term] == pytest.approx(value, rel=1e-12, abs=1e-12 * theirs["work"])
    sticking = (expected[:, NORMAL] != 0) & (expected[:, TANGENTIAL] != 0)
    assert sticking.sum() > 100  # the bed kept its contacts and their tangential springs
    assert all((a != b).any() for a, b in zip(starts, starts[1:]))  # reordered in every call


def test_a_permutation_moves_every_row_with_its_disc_and_composes():
    """:func:`permuted` with a random permutation, then another: every per-disc array is the
    original one indexed by the composed permutation, every pair's history row (loaded
    tangential springs included) is found under its discs' new slots, in the orientation of the
    original indices, and the inverse permutation gives back the state to the bit."""
    run = lattice_bed(LAWS["simplified"], 0, skin=0.01)
    run.advance(50)
    before_discs = [array.copy() for array in run.discs]
    before_forces = [array.copy() for array in run.forces]
    before = {name: array.copy() for name, array in run.contacts._asdict().items()}
    rows = {tuple(pair): row for pair, row in zip(before["pairs"], before["pair_history"])}
    rng = np.random.default_rng(7)
    order = np.arange(run.discs.count)
    contacts = run.contacts
    for _ in range(2):
        perm = rng.permutation(run.discs.count)
        contacts = permuted(run.discs, run.forces, contacts, perm)
        order = order[perm]
    for array, original in zip(run.discs, before_discs):
        np.testing.assert_array_equal(array, original[order])
    for array, original in zip(run.forces[:4], before_forces[:4]):
        np.testing.assert_array_equal(array, original[order])
    np.testing.assert_array_equal(contacts.wall_history, before["wall_history"][:, order])
    keys = contacts.pairs[:, 0] * len(order) + contacts.pairs[:, 1]
    assert np.all(np.diff(keys) > 0)  # sorted by slots again, the key the history is carried by
    assert np.all(order[contacts.pairs[:, 0]] < order[contacts.pairs[:, 1]])
    assert len(contacts.pairs) == len(rows)
    for (a, b), row in zip(contacts.pairs, contacts.pair_history):
        np.testing.assert_array_equal(row, rows[(order[a], order[b])])
    assert np.count_nonzero(before["pair_history"][:, TANGENTIAL]) > 100
    back = permuted(run.discs, run.forces, contacts, np.argsort(order))
    for name, array in back._asdict().items():
        np.testing.assert_array_equal(array, before[name])
    for array, original in zip(run.discs, before_discs):
        np.testing.assert_array_equal(array, original)


def test_the_lists_are_oriented_by_original_index_whatever_the_slots():
    """With shuffled original indices the candidate list is every pair within the skin,
    listed once with the smaller original index first, sorted by slots."""
    run = lattice_bed(LAWS["linear"], 0)
    position, radius = run.discs.position, run.discs.radius
    ids = np.random.default_rng(3).permutation(len(radius))
    pairs = candidate_pairs(position, radius, 1e-3, ids)
    expected = candidate_pairs(position, radius, 1e-3, np.arange(len(radius)))
    oriented = np.where((ids[expected[:, 0]] < ids[expected[:, 1]])[:, None], expected,
                        expected[:, ::-1])
    oriented = oriented[np.lexsort((oriented[:, 1], oriented[:, 0]))]
    np.testing.assert_array_equal(pairs, oriented)


@pytest.mark.parametrize("long_side", [0, 1])
def test_strip_order_is_strip_by_strip_then_along_each(long_side):
    """Points on a 12 x 5 grid of unit spacing (and the transposed grid), strips 2 wide: they
    come out strip by strip along the longer side, and along the shorter side within each
    (points level with each other in a strip in the order they came in)."""
    rng = np.random.default_rng(2)
    cells = np.array([(x, y) for x in range(12) for y in range(5)])[rng.permutation(60)]
    position = np.column_stack([cells[:, ::-1] if long_side else cells, np.zeros(60)])
    expected = sorted(range(60), key=lambda i: (cells[i, 0] // 2, cells[i, 1]))
    np.testing.assert_array_equal(strip_order(position.astype(float), 2.0), expected)
    first = cells[expected[:10]]
    assert np.all(first[:, 0] < 2) and np.all(np.diff(first[:, 1]) >= 0)  # the first strip


def test_a_bad_reorder_is_refused():
    with pytest.raises(InputError, match="reorder=-1"):
        lattice_bed(LAWS["linear"], -1)
