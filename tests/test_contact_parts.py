"""The parts of the contact solver, each against something independent of it."""
import numpy as np
import pytest
from scipy.optimize import lsq_linear
from scipy.sparse.linalg import splu

from hertz2d.fem.contact.body import CondensedBody, fill_reducing_order
from hertz2d.fem.contact.boxqp import solve_box_lcp
from hertz2d.fem.contact.coulomb import solve_coulomb
from hertz2d.fem.contact.frictional import NodeToSegmentContact
from hertz2d.fem.contact.measure import _edges, arc_coordinate, tributary_lengths
from hertz2d.fem.contact.surface import nodal_normals, project
from hertz2d.meshes.twodisc import two_body_meshes

#: (1 - nu^2)/E of the paper's discs (E = 10 GPa, nu = 0.25)
COMPLIANCE = (1 - 0.25**2) / 10e9


# -- surface --------------------------------------------------------------------------------

def test_projection_on_a_straight_master_is_the_orthogonal_foot():
    master = np.column_stack([np.linspace(-1, 1, 9), np.zeros(9)])
    slave = np.array([[0.1, 0.3], [-0.77, -0.2], [0.25, 0.0], [1.5, 0.1]])
    found = project(slave, master)
    assert np.allclose(found.normal[:3], [0, 1]) and np.allclose(found.tangent[:3], [1, 0])
    assert np.allclose(found.gap[:3], [0.3, -0.2, 0.0])
    assert np.allclose(np.interp(found.zeta[:3], np.arange(9), master[:, 0]), slave[:3, 0])
    assert list(found.inside) == [True, True, True, False]


def test_smoothed_normals_make_the_gap_continuous_over_a_curved_master():
    angles = np.linspace(np.pi / 2 + 0.3, np.pi / 2 - 0.3, 13)
    master = np.column_stack([np.cos(angles), np.sin(angles)])  # unit circle arc, left to right
    assert np.allclose(nodal_normals(master)[1:-1], master[1:-1])  # radial at interior nodes
    x = np.linspace(-0.2, 0.2, 2001)
    found = project(np.column_stack([x, np.full_like(x, 1.05)]), master)
    assert found.inside.all()
    # at a master node the projection is radial; the gap has no jumps between segments
    on_node = project(1.05 * master[4:5] / 1.0, master)
    assert on_node.zeta[0] == pytest.approx(4.0) and on_node.gap[0] == pytest.approx(0.05)
    assert np.abs(np.diff(found.gap)).max() < 1e-4
    assert np.all(np.diff(found.zeta) > 0)


# -- box LCP (Tresca) and Coulomb active sets -----------------------------------------------

def _random_spd(rng, n):
    factor = rng.standard_normal((n, n))
    return factor @ factor.T + 0.1 * np.eye(n)


def _complementarity_violation(x, y, lower, upper):
    """How far (x, y) is from the box complementarity conditions, relative."""
    scale = np.abs(y).max()
    free = lower < upper  # fixed variables take any y
    inside = (x > lower) & (x < upper)
    return max(np.abs(y[inside]).max(initial=0) / scale,
               -y[free & (x <= lower)].min(initial=0) / scale,
               y[free & (x >= upper)].max(initial=0) / scale,
               np.maximum(lower - x, x - upper).max(initial=0))


@pytest.mark.parametrize("seed", range(5))
def test_box_lcp_matches_bounded_least_squares_and_handles_the_rank_one_term(seed):
    rng = np.random.default_rng(seed)
    n = 30
    A, b = _random_spd(rng, n), 5 * rng.standard_normal(n)
    lower = np.where(rng.random(n) < 0.5, 0.0, -rng.random(n))
    upper = np.where(lower == 0, np.inf, -lower)
    upper[:3] = lower[:3]  # fixed variables
    x = solve_box_lcp(A, b, lower, upper, np.zeros(n)).x
    free = lower < upper
    reference = lsq_linear(np.linalg.cholesky(A[np.ix_(free, free)]).T, np.linalg.solve(
        np.linalg.cholesky(A[np.ix_(free, free)]), -(b[free] + A[np.ix_(free, ~free)] @ lower[~free])),
        bounds=(lower[free], upper[free]), method="bvls", tol=1e-14).x
    assert np.allclose(x[free], reference, atol=1e-8 * np.abs(reference).max())
    a, c = 0.3 * rng.standard_normal(n), 0.3 * rng.standard_normal(n)
    solution = solve_box_lcp(A, b, lower, upper, np.zeros(n), (a, c))
    assert solution.method == "active-set"  # exact for A + a c^T (bvls would freeze c . x)
    x = solution.x
    assert _complementarity_violation(x, A @ x + b + a * (c @ x), lower, upper) < 1e-10


@pytest.fixture(scope="module")
def frozen_problem():
    """A frozen contact problem of the two discs at level 0, mid-way through partial slip."""
    lower, upper, _ = two_body_meshes(0.025, (0.0, 0.01), (0.5, 0.5), (COMPLIANCE, COMPLIANCE),
                                      level=0)
    contact = NodeToSegmentContact(CondensedBody(upper, 10e9, 0.25, "clamped"),
                                   CondensedBody(lower, 10e9, 0.25, "clamped"), 0.3)
    state = contact.initial_state()
    for delta_n in (0.0125, 0.025):
        state = contact.increment(state, (0.0, -delta_n)).state
    return contact, state


def test_coulomb_active_set_is_the_fixed_point_of_tresca_problems(frozen_problem):
    from hertz2d.fem.contact.frictional import _ForceMap
    contact, state = frozen_problem
    rigid = (0.004, -0.025)
    slave_x, master_x = contact._positions(rigid, state.slave_forces, state.master_forces)
    projection = project(slave_x, master_x)
    G = _ForceMap(projection, contact.n_master)
    A, b, _ = contact._frozen_problem(G, rigid, projection, state.zeta, master_x)
    coulomb = solve_coulomb(A, b, 0.3, projection.inside, state.multipliers)
    assert coulomb is not None
    lam = coulomb.multipliers
    n = len(lam)
    assert 0 < coulomb.slipping.sum() < (lam[:, 0] > 0).sum()  # partial slip
    # the Tresca problem with the bound mu lambda_n of the Coulomb solution reproduces it
    bound = 0.3 * lam[:, 0]
    lower = np.concatenate([np.zeros(n), -bound])
    upper = np.concatenate([np.where(projection.inside, np.inf, 0.0), bound])
    tresca = solve_box_lcp(A, b, lower, upper, np.zeros(2 * n)).x.reshape(2, n).T
    assert np.allclose(tresca, lam, atol=1e-9 * np.abs(lam).max())
    # and Coulomb's law holds node by node: slip against the force, none where sticking
    y = (A @ lam.T.ravel() + b).reshape(2, n).T
    closed = lam[:, 0] > 0
    assert np.all(y[closed, 0] < 1e-12 * np.abs(y[:, 0]).max())
    assert np.all(lam[coulomb.slipping, 1] * y[coulomb.slipping, 1] <= 0)
    stick = closed & ~coulomb.slipping
    assert np.abs(y[stick, 1]).max() < 1e-9 * np.abs(y[coulomb.slipping, 1]).max()


# -- condensed bodies -----------------------------------------------------------------------

@pytest.mark.parametrize("support", ["clamped", "symmetric"])
def test_condensed_compliance_and_reactions_agree_with_the_full_solution(support):
    _, upper, _ = two_body_meshes(0.025, (0.0, 0.0), (0.5, 0.5), (COMPLIANCE, COMPLIANCE),
                                      level=0)
    body = CondensedBody(upper, 10e9, 0.25, support)
    operators = body.condense()
    C = operators.compliance
    assert np.linalg.eigvalsh(C).min() > 0  # C is symmetrised by construction; SPD is not
    forces = np.random.default_rng(1).standard_normal(len(C)) * 1e5
    rigid = (0.003, -0.02)
    u = body.displacement(rigid, forces)
    window = (u[body.window_dofs] - np.tile(rigid, len(body.window_nodes)))
    condensed = C @ forces + operators.relief * forces[0::2].sum()
    assert np.allclose(window, condensed, atol=1e-10 * np.abs(window).max())
    # global equilibrium: support reactions + contact forces + inertia relief = 0
    body_force = body.relief_load[0::2].sum() * forces[0::2].sum()
    total = body.reaction(u, forces) + [forces[0::2].sum() + body_force, forces[1::2].sum()]
    assert np.abs(total).max() < 1e-8 * np.abs(forces).sum()
    if support == "symmetric":  # the pin carries nothing: the relief balances the x-force
        assert abs(body.reaction(u, forces)[0]) < 1e-8 * np.abs(forces).sum()


@pytest.mark.parametrize("level", [0, 1, 2])
def test_the_elimination_order_ends_with_the_window_and_fills_in_as_minimum_degree_does(level):
    _, upper, _ = two_body_meshes(0.025, (0.0, 0.0), (0.5, 0.5), (COMPLIANCE, COMPLIANCE),
                                  level=level)
    body = CondensedBody(upper, 10e9, 0.25, "symmetric")
    K = body.stiffness[body.free][:, body.free].tocsc()
    row = np.full(body.dofs, -1)
    row[body.free] = np.arange(len(body.free))
    window = row[body.window_dofs]
    node = np.empty(body.dofs, dtype=int)
    node[body.basis.nodal_dofs] = np.arange(body.nodes)
    order = fill_reducing_order(K, node[body.free], window)
    assert np.array_equal(np.sort(order), np.arange(K.shape[0]))
    assert np.array_equal(order[-len(window):], window)
    ordered_nodes = node[body.free][order[:-len(window)]]
    assert np.count_nonzero(np.diff(ordered_nodes)) == len(np.unique(ordered_nodes)) - 1

    def fill(permutation):
        return splu(K[permutation][:, permutation].tocsc(), permc_spec="NATURAL",
                    diag_pivot_thresh=0.0, options=dict(SymmetricMode=True)).L.nnz

    # SuperLU's minimum degree on the DOFs themselves, the window then moved to the end
    ranked = np.argsort(splu(K, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                             options=dict(SymmetricMode=True)).perm_c)
    minimum_degree = np.concatenate([ranked[~np.isin(ranked, window)], window])
    assert fill(order) < 1.1 * fill(minimum_degree)
    assert fill(order) < 0.3 * fill(np.arange(K.shape[0]))


# -- measures --------------------------------------------------------------------------------

def test_square_root_edges_are_found_between_nodes():
    s = np.linspace(-1, 1, 41)
    for edge in (0.61, 0.6234, 0.649):
        field = np.sqrt(np.clip(edge - np.abs(s), 0, None))
        left, right = _edges(s, field, field > 0)
        assert left == pytest.approx(-edge, abs=1e-12) and right == pytest.approx(edge, abs=1e-12)


def test_arc_coordinate_and_tributary_lengths():
    x = np.linspace(-0.3, 0.5, 17)
    points = np.column_stack([x, 2 * x])
    s = arc_coordinate(points)
    assert s[np.argmin(np.abs(x))] == pytest.approx(0.0, abs=1e-12)
    assert np.allclose(np.diff(s), np.sqrt(5) * 0.05)
    assert tributary_lengths(s).sum() == pytest.approx(s[-1] - s[0])
