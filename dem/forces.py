"""Forces and moments on every disc at the current positions: contacts, gravity, damping.

Geometry of a contact between discs i and j (i: the smaller original index): unit normal ``n``
from i to j, tangent ``t = (-n_y, n_x)``, approach ``delta = r_i + r_j - |x_j - x_i|``. The
contact point is the middle of the overlap, at lever arms ``l_i = r_i - delta/2`` and ``l_j =
r_j - delta/2`` from the centres (``l = r - delta`` for a wall: the point on the wall). The
relative velocity of j's material point there with respect to i's has the normal component
``v_n`` (> 0 separating) and the tangential component ``v_t = (v_j - v_i) . t - (omega_i l_i +
omega_j l_j)``; the law's tangential increment is ``v_t dt``, with v_t at the middle of the step
(:func:`mid_step_pair_v_t`, :func:`mid_step_wall_v_t`). The pair law
(:mod:`hertz2d.dem.laws`) gives N and T; disc i receives ``-N n + T t`` and the moment ``l_i
T``, disc j the opposite force and the moment ``l_j T``. A wall is body j with the wall's
velocity and no rotation, and the pair is the disc with its mirror image (Section 3.2): the law
sees twice the disc's approach and tangential increment, the disc receives the pair's force.

The forces are kept apart by kind (springs, dashpots, local damping) because the energy ledger
(:mod:`hertz2d.dem.energy`) needs the power of each. Each contact also adds to the ledger the
energy its tangential spring dissipates by slip and by changes of kt (see
:mod:`hertz2d.dem.energy`).

One gather pass (:func:`gather_pairs`, :func:`gather_walls`) computes each contact's geometry
(and releases the contacts that opened). The paper's law (Table 1) and the calibrated law
(:func:`blocked`) take the contacts in blocks of :data:`BLOCK` touching ones, in three passes a
block: the gather pass puts each touching contact's approach, relative velocity, normal and
lever arms into contiguous rows of a scratch array (made once per call of the time loop,
:func:`block_scratch`), with the law's inputs (the radii, the pair constants and the history
the law reads), the law's pass (:func:`block_pass`, :func:`law_pass`) steps them, and a
scatter loop adds their forces to the discs. The paper's law runs its arithmetic in
loops over the whole block that the compiler vectorises (:func:`simplified_pass`,
:func:`hertz2d.dem.laws.simplified_steps`: Eqs. 4 + 22/23 by the table inverse, Eqs. 29, 31,
32), leaving to the scalar step (:func:`contact`) only the few contacts that need another branch
(a new contact's first step; an approach outside the table); the calibrated law finds the
block's normal forces the same way (:func:`hertz2d.dem.laws.calibrated_normals`) and steps each
contact's tangential state with memory with :func:`calibrated_contact`. The other laws (the
linear spring, Hertz-Mindlin, a registered kernel) step each contact with :func:`contact`
alone: the gather pass steps them as it computes their geometry and adds their forces to the
discs, without the scratch's round trip. Either way each contact's arithmetic is the scalar
step's, so the forces are the same doubles.

The helpers inlined into these loops (numba's ``inline``) take arrays, never a tuple of them
(:class:`Forces`, the contacts): an inlined function's array argument is a new reference, which
the compiled code counts and uncounts at every call unless the compiler can drop the pair,
which it does for straight-line helpers (:func:`kept`, :func:`add_pair_force`) but not always
where the helper branches (a wall's two dashpot arrays), so the loops add a wall contact's
forces themselves. A compiled function also counts a reference to each array it takes at every
call: the gather pass of the blocked laws takes none of the arrays the other laws' pass steps
with.

The calibrated law keeps columns of its own in the history rows
(:func:`hertz2d.dem.laws.calibrated_step` updates them in place): the loops call
:func:`calibrated_contact` with the history array and the row for it, and :func:`contact` with
the row's :data:`~hertz2d.dem.laws.HISTORY` values (a tuple) for every other law.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from hertz2d.dem.damping import dashpot, local_damping
from hertz2d.dem.energy import SLIP, STIFFNESS_CHANGE
from hertz2d.dem.jit import address, njit
from hertz2d.dem.laws import (APPROACH, BASE_NORMAL, CALIBRATED, COUPLING, EXP_C, EXP_MINUS_C,
                              FORCE_0, FRICTION, INCREMENT, KERNEL, KN, KT, LINEAR, LOG_1, LOG_2,
                              LOG_4R1, LOG_4R2, MASS_OVER_STEP_SQUARED, MIDDLE, NEW_HALF_WIDTH,
                              NEW_K_NORMAL, NEW_K_STEP, NEW_LOG_HALF_WIDTH, NEW_NORMAL,
                              NEW_SLIPPING, NEW_STIFFNESS, NEW_TANGENTIAL, NORMAL, NORMAL_DASHPOT,
                              PAIR_CURVES, RADIUS_1, RADIUS_2, REDUCED_MASS, SIMPLIFIED, STEP_ROWS,
                              STIFFNESS, STIFFNESS_0, TANGENTIAL, TANGENTIAL_0,
                              TANGENTIAL_DASHPOT, WALL_CURVES,
                              calibrated_normal, calibrated_normals, calibrated_tangential,
                              constants_row, history_row, kernel_step, law_step, linear_step,
                              parameters_tuple, simplified_steps, stored_tangential, store_row)

#: the ``status`` of a force evaluation
OK, LAW_FAILED = 0, 1

#: the :func:`blocked` laws' contacts are taken in blocks of at most this many touching ones,
#: each gathered, stepped by the law and scattered (module docstring) while its scratch stays
#: in cache (not 256: the scratch's rows would then lie 2 KiB apart, and a load from one row
#: 4 KiB from a store still in flight to another, which the processor orders as if they were
#: the same address, "4K aliasing": the gather pass took 4.4 us instead of 2.4 for 140 contacts)
BLOCK = 250
#: the scratch of a block, a row per quantity and a column per touching contact: what the
#: gather pass reads of each (the disc-to-disc or disc-to-wall approach, the normal and
#: tangential relative velocity, the unit normal, the lever arms) ...
DELTA, V_N, V_T, NX, NY, LEVER_I, LEVER_J = range(7)
#: ... what the law's pass leaves (the spring's N and T, the dashpots' N and T, the tangent
#: normal stiffness) ...
SPRING_N, SPRING_T, DAMPED_N, DAMPED_T, K_NORMAL = range(7, 12)
#: ... then the rows of the laws' array steps (:func:`hertz2d.dem.laws.simplified_steps`,
#: :func:`hertz2d.dem.laws.calibrated_normals`), whose inputs (the radii among them) the gather
#: pass writes too
STEPS = 12
#: ... and after them the paper's law's dashpot coefficients over 2 zeta dt, ``sqrt(m* k/dt^2)``
#: for k = k_n and kt (:func:`simplified_pass`)
DASHPOT_N, DASHPOT_T = STEPS + STEP_ROWS, STEPS + STEP_ROWS + 1
SCRATCH_ROWS = STEPS + STEP_ROWS + 2
#: the scratch's integer rows: each touching contact's history row, its index in its candidate
#: list, its disc (of a disc-wall pair) and 1 where the law's array step left it (``rare``)
HISTORY_ROW, LISTED, DISC, RARE = range(4)


class Forces(NamedTuple):
    """Generalised forces (fx, fy, moment) per disc, by kind, and the walls' forces on discs."""

    #: (n, 3) contact springs
    elastic: np.ndarray
    #: (n, 3) contact dashpots
    dashpot: np.ndarray
    #: (n, 3) local damping
    local: np.ndarray
    #: (n, 3) everything, gravity included: what the integrator uses
    total: np.ndarray
    #: (w, 2) force each wall's springs exert on the discs
    wall_elastic: np.ndarray
    #: (w, 2) force each wall's dashpots exert on the discs
    wall_dashpot: np.ndarray

    @classmethod
    def zeros(cls, discs, walls) -> "Forces":
        n, w = discs.count, walls.count
        return cls(np.zeros((n, 3)), np.zeros((n, 3)), np.zeros((n, 3)), np.zeros((n, 3)),
                   np.zeros((w, 2)), np.zeros((w, 2)))


@njit
def release(code, p, curves, history, row, scale, ledger):
    """Put in the ``ledger`` the energy a contact's tangential state still holds when the contact
    opens (:func:`hertz2d.dem.laws.stored_tangential`, the calibrated law's from its (C1) numbers
    at ``p[curves]``; half of it for a wall's mirrored pair), dissipated as the history row is
    reset. The calibrated law's slip term has counted the contact's work alone
    (:func:`calibrated_contact`): the energy it took off there is this."""
    held = stored_tangential(code, p, curves, history, row) / scale
    ledger[STIFFNESS_CHANGE] += held
    if code == CALIBRATED:
        ledger[SLIP] -= held


@njit(inline=True)
def dashpots(code, ratio, pair, k_normal, kt, v_n, v_t, scale, slipping):
    """The contact dashpots' forces ``(N, T)`` at the damping ratio ``ratio``
    (:mod:`hertz2d.dem.damping`) from the step's stiffnesses (the linear spring's coefficients
    computed with the list); no tangential dashpot while the contact slides."""
    if not ratio > 0.0:
        return 0.0, 0.0
    if code == LINEAR:  # constant stiffnesses: coefficients computed with the list
        normal, tangential = pair[NORMAL_DASHPOT], pair[TANGENTIAL_DASHPOT]
    else:
        normal = dashpot(ratio, pair[REDUCED_MASS], k_normal)
        tangential = dashpot(ratio, pair[REDUCED_MASS], kt)
    return dashpot_forces(normal, tangential, scale, v_n, v_t, slipping)


@njit(inline=True)
def dashpot_forces(normal, tangential, scale, v_n, v_t, slipping):
    """``(N, T)`` of dashpots of coefficients ``normal`` and ``tangential`` on the relative
    velocities (``scale`` 2 for a wall's mirror pair): ``-normal v_n`` and ``tangential v_t``,
    no tangential dashpot while the contact slides (:func:`dashpots`, and the paper's law's
    array pass, :func:`simplified_pass`)."""
    N_dashpot = -normal * scale * v_n
    T_dashpot = 0.0 if slipping else tangential * scale * v_t
    return N_dashpot, T_dashpot


@njit(inline=True)
def mid_step_pair_v_t(rvx, rvy, tx, ty, v_n, omega_i, omega_j, lever_i, lever_j, distance, dt):
    """A pair's tangential velocity v_t at the middle of the step, whose increment ``v_t dt``
    the law takes. The velocities are the half-step ones (:mod:`hertz2d.dem.integrate`), the
    frame and the lever arms the step's end's; taken back half a step (the approach by ``v_n
    dt/2``, so each lever arm by ``v_n dt/4``; the tangent turns with the line of centres at
    ``(v_j - v_i) . t / distance``, which adds ``dt/2`` times that rate times ``v_n``). With the
    end's arms and frame, each step's increment is off by O(dt^2), and the tangential
    displacement over a contact by O(dt): a wall impact's rebound angle then converges at first
    order (tests/test_dem_convergence.py)."""
    rv_t = rvx * tx + rvy * ty
    back = 0.25 * v_n * dt
    return rv_t * (1.0 + 0.5 * dt * v_n / distance) - (omega_i * (lever_i - back)
                                                        + omega_j * (lever_j - back))


@njit(inline=True)
def mid_step_wall_v_t(rvx, rvy, tx, ty, v_n, omega, lever, dt):
    """A disc-wall contact's tangential velocity at the middle of the step
    (:func:`mid_step_pair_v_t`): the lever arm ``r - delta`` at the step's middle, ``v_n dt/2``
    shorter; the wall's frame does not turn."""
    return rvx * tx + rvy * ty - omega * (lever - 0.5 * v_n * dt)


@njit(inline=True)
def entry_fraction(delta, v_n, dt):
    """The part of the last step a contact that was open before it has been in contact: its
    approach ``delta`` over the approach the step made, ``-v_n dt`` (the positions moved with
    the step's velocities), at most 1. A new contact's tangential increment is this part of
    ``v_t dt``."""
    made = -v_n * dt
    return delta / made if made > delta else 1.0


@njit(inline=True)
def step_increment(normal_before, delta, v_n, v_t, dt, scale, accumulate):
    """The law's tangential increment of the step, ``scale v_t dt`` (0 unless ``accumulate``),
    of which a new contact (``normal_before``, its N of the last step, 0) takes the part of the
    step it was in contact (:func:`entry_fraction`): every law's, :func:`contact` and
    :func:`calibrated_contact` (the LAMMPS plugin's ``hertz2d_step_increment`` is the same)."""
    d_delta_t = scale * v_t * dt if accumulate else 0.0
    if normal_before == 0.0:
        d_delta_t *= entry_fraction(delta, v_n, dt)
    return d_delta_t


@njit
def contact(code, kernel, law, vector, ratio, dt, delta, v_n, v_t, pair, state, R1, R2, scale,
            accumulate):
    """One touching contact, from its constants ``pair`` and history ``state`` (tuples,
    :mod:`hertz2d.dem.laws`); ``scale`` is 1 for two discs, 2 for a disc and its mirror (a wall); a
    registered law's ``kernel`` (:func:`hertz2d.dem.laws.kernel_step`) reads the parameter vector at
    the address ``vector`` (an address, not the array: an array passed to this call per contact
    would be reference-counted).

    Returns ``(state, N_dashpot, T_dashpot, k_normal, slip, kt_change)``: the contact's new
    history (:func:`hertz2d.dem.laws.law_step`), the dashpot forces, the tangent normal
    stiffness and the energy the step dissipates by slip and by the change of kt (for the
    ledger; 0 unless ``accumulate``). Its N is NaN if the law fails. A new contact (N 0 in
    ``state``) takes the increment of the part of the step it was in contact
    (:func:`step_increment`).

    Ledger: the step's stiffness k (:func:`hertz2d.dem.laws.law_step`: Eq. 32's trapezoid, or a new
    contact's mean) moves the force elastically by ``k (d(delta_t) - slip)``, the work
    ``(T0 + T)/2`` times that, while the spring's energy ``T^2/(2 kt)`` changes by
    ``T^2/(2 kt) - T0^2/(2 kt0)``: the difference, ``T0^2/2 (1/kt0 - 1/k) - T^2/2 (1/kt -
    1/k)`` (the first term 0 for a new contact), is what a varying kt dissipates (0 for a
    constant kt); the slip dissipates the step's mean force times the slip."""
    d_delta_t = step_increment(state[NORMAL], delta, v_n, v_t, dt, scale, accumulate)
    T_previous, kt_previous = state[TANGENTIAL], state[STIFFNESS]
    if code == LINEAR:  # the commonest law without the parameter tuple's copy (measured)
        new, k_normal, slipping, k_step = linear_step(law[KN], law[KT], law[FRICTION], state,
                                                      scale * delta, d_delta_t)
    elif code == KERNEL:
        new, k_normal, slipping, k_step = kernel_step(kernel, vector, state, scale * delta,
                                                      d_delta_t, R1, R2)
    else:
        new, k_normal, slipping, k_step = law_step(code, law, pair, state, scale * delta,
                                                   d_delta_t, R1, R2,
                                                   scale * (delta + 0.5 * v_n * dt), dt)
    N, T, kt = new[NORMAL], new[TANGENTIAL], new[STIFFNESS]
    if not N > 0.0:  # NaN: the law failed; 0 cannot happen for a touching contact
        return new, 0.0, 0.0, 0.0, 0.0, 0.0
    slip = change = 0.0
    if accumulate:
        slip, change = ledger_terms(slipping, T_previous, T, kt_previous, kt, k_step, d_delta_t,
                                    scale)
    N_dashpot, T_dashpot = dashpots(code, ratio, pair, k_normal, kt, v_n, v_t, scale, slipping)
    return new, N_dashpot, T_dashpot, k_normal, slip, change


@njit(inline=True)
def ledger_terms(slipping, T_previous, T, kt_previous, kt, k_step, d_delta_t, scale):
    """The energy a step of an incremental law dissipates, ``(slip, kt_change)``
    (:func:`contact`'s ledger: the slip times the step's mean force, and what the change of kt
    releases; 0 for a constant kt that sticks)."""
    slip = change = 0.0
    if slipping or kt != k_step or kt != kt_previous:
        if slipping:
            slip = 0.5 * (T_previous + T) * ((T_previous + k_step * d_delta_t - T) / k_step) / scale
        if kt != k_step or kt != kt_previous:
            change = -0.5 * T * T * (1.0 / kt - 1.0 / k_step) / scale
            if kt_previous > 0.0:
                change += 0.5 * T_previous * T_previous * (1.0 / kt_previous - 1.0 / k_step) / scale
    return slip, change


@njit(inline=True)
def calibrated_contact(law, p, ratio, dt, delta, v_n, v_t, pair, history, row, R1, R2, scale,
                       curves, accumulate, normal):
    """:func:`contact` for the calibrated law, whose step (:func:`hertz2d.dem.laws.calibrated_step`
    from the pair's normal force ``normal``: :func:`hertz2d.dem.laws.calibrated_tangential`, (C1)'s
    numbers from ``p[curves]`` on: the disc pair's or the wall's) updates the contact's own
    columns of ``history[row]`` in place; the same returns. A new contact takes the increment
    of the part of the step it was in contact, as :func:`contact`'s laws do
    (:func:`step_increment`).

    Ledger: the step's work on the pair by the tangential force and by the normal force's
    coupling term is ``(T0 + T)/2 d(delta_t) + (C0 + C)/2 d(delta_n)`` (the trapezoid, as for the
    other laws; the rest of N is the normal potential's); the law stores the energy of its
    traction (:func:`hertz2d.dem.laws.traction_energy`), so the step dissipates the work less the
    change of that energy, all of it counted as slip (the law's memory rules only ever lower it).
    Those changes telescope: over a contact's steps they sum to the energy it holds at the end
    (0 when it is new), so the step returns its work alone and the energy is taken off when the
    contact opens (:func:`release`) or a run of steps ends
    (:func:`hertz2d.dem.energy.settle_slip`): no stored energy per step.

    Inlined into the law's pass, and :func:`hertz2d.dem.laws.calibrated_tangential` into it:
    called, the two counted the references of their arrays at every contact (module
    docstring). The tangential step with memory stays a call: inlined too, it tripled the
    engine's compile time."""
    d_delta_t = step_increment(history[row, NORMAL], delta, v_n, v_t, dt, scale, accumulate)
    T_previous, coupling_previous = history[row, TANGENTIAL], history[row, COUPLING]
    new, k_normal, slipping = calibrated_tangential(law, p, pair, history[row, BASE_NORMAL:],
                                                    normal, d_delta_t, R1, R2, curves)
    N, T = new[NORMAL], new[TANGENTIAL]
    if not N > 0.0:  # NaN: the law failed
        return new, 0.0, 0.0, 0.0, 0.0, 0.0
    slip = 0.0
    if accumulate:
        slip = (0.5 * (T_previous + T) * d_delta_t
                - 0.5 * (coupling_previous + history[row, COUPLING]) * scale * v_n * dt) / scale
    N_dashpot, T_dashpot = dashpots(CALIBRATED, ratio, pair, k_normal, new[STIFFNESS], v_n,
                                    v_t, scale, slipping)
    return new, N_dashpot, T_dashpot, k_normal, slip, 0.0


@njit(inline=True)
def add_pair_force(target, i, j, N, T, nx, ny, lever_i, lever_j):
    """Add a pair contact's normal force N (along n, from i to j, pushing them apart) and
    tangential force T (along t = (-ny, nx)) to discs i and j: forces and torques (lever arms)."""
    fx, fy = -N * nx - T * ny, -N * ny + T * nx
    target[i, 0] += fx
    target[i, 1] += fy
    target[i, 2] += lever_i * T
    target[j, 0] -= fx
    target[j, 1] -= fy
    target[j, 2] += lever_j * T


@njit(inline=True)
def add_wall_force(target, wall_target, i, w, N, T, nx, ny, lever):
    """Add a wall contact's forces to disc i (force and torque) and to wall w (the force the
    disc receives, summed; the wall's own force is its negative)."""
    fx, fy = -N * nx - T * ny, -N * ny + T * nx
    target[i, 0] += fx
    target[i, 1] += fy
    target[i, 2] += lever * T
    wall_target[w, 0] += fx
    wall_target[w, 1] += fy


@njit(inline=True)
def add_pair_forces(elastic, damped, i, j, N, T, N_d, T_d, nx, ny, lever_i, lever_j):
    """Add a pair contact's spring forces ``N, T`` to ``elastic`` and its dashpots' ``N_d, T_d``
    to ``damped`` (:func:`add_pair_force`; the arrays, not :class:`Forces`, whose every array an
    inlined function would count a reference to per call)."""
    add_pair_force(elastic, i, j, N, T, nx, ny, lever_i, lever_j)
    if N_d != 0.0 or T_d != 0.0:
        add_pair_force(damped, i, j, N_d, T_d, nx, ny, lever_i, lever_j)


@njit(inline=True)
def gather(scratch, c, delta, v_n, v_t, nx, ny, lever_i, lever_j, R_i, R_j, constants, constant,
           history, row, scale, dt, increment_dt):
    """Column ``c`` of a block's scratch: its geometry rows (:data:`DELTA` ...) and the inputs of
    the law's array step (:mod:`hertz2d.dem.laws`: the pair's approach, the tangential increment,
    the approach at the step's middle, the radii, then log(4 R1), log(4 R2) and e^(-C) from row
    ``constant`` of the pair ``constants`` and N, T, kt from row ``row`` of ``history``).
    Written here, as the contact's geometry is found, rather than copied from the geometry rows
    by a loop of their own (measured: that loop cost about 8 ns a contact)."""
    scratch[DELTA, c], scratch[V_N, c], scratch[V_T, c] = delta, v_n, v_t
    scratch[NX, c], scratch[NY, c] = nx, ny
    scratch[LEVER_I, c], scratch[LEVER_J, c] = lever_i, lever_j
    scratch[STEPS + APPROACH, c] = scale * delta
    scratch[STEPS + INCREMENT, c] = scale * v_t * increment_dt
    scratch[STEPS + MIDDLE, c] = scale * (delta + 0.5 * v_n * dt)
    scratch[STEPS + RADIUS_1, c], scratch[STEPS + RADIUS_2, c] = R_i, R_j
    scratch[STEPS + LOG_1, c] = constants[constant, LOG_4R1]
    scratch[STEPS + LOG_2, c] = constants[constant, LOG_4R2]
    scratch[STEPS + EXP_C, c] = constants[constant, EXP_MINUS_C]
    scratch[STEPS + FORCE_0, c] = history[row, NORMAL]
    scratch[STEPS + TANGENTIAL_0, c] = history[row, TANGENTIAL]
    scratch[STEPS + STIFFNESS_0, c] = history[row, STIFFNESS]
    scratch[STEPS + MASS_OVER_STEP_SQUARED, c] = constants[constant, REDUCED_MASS] / (dt * dt)


@njit(inline=True)
def blocked(code):
    """Whether the law ``code`` steps its contacts a block at a time (:func:`law_pass`: the
    paper's law and the calibrated one); the others are stepped one at a time by the gather
    pass (module docstring)."""
    return code == SIMPLIFIED or code == CALIBRATED


@njit(inline=True)
def kept(history, row, state, ledger, slip, change):
    """Store a stepped contact's new history ``state`` in ``history[row]`` and add its ledger
    terms ``slip`` and ``change`` (:func:`contact`'s returns; a zero adds nothing): without a
    branch, so that the compiler drops the reference counts of its arrays (module docstring)."""
    store_row(history, row, state)
    ledger[SLIP] += slip
    ledger[STIFFNESS_CHANGE] += change


@njit(counted=False)
def gather_pairs(discs, contacts, forces, ledger, code, kernel, law, p, ratio, dt, accumulate,
                 start, scratch, indices):
    """The gather pass over the disc pairs from list row ``start`` on, up to :data:`BLOCK`
    touching ones: each touching pair's list row into ``indices[HISTORY_ROW]`` and its geometry
    (module docstring) into a column of ``scratch``'s geometry rows (:data:`DELTA` ...); a pair
    that has opened is released (its history reset, what its spring held put in the ledger).
    With ``scratch`` and ``indices`` None (a law that is not :func:`blocked`) it steps each
    touching pair instead (:func:`contact`, the new history and ledger terms :func:`kept`) and
    adds its forces to ``forces``, all the list in one call: numba compiles the two apart, each
    without the other's branch. Returns how many pairs it gathered, the list row to go on from
    and False where the law failed (else True)."""
    position, velocity, radius = discs.position, discs.velocity, discs.radius
    pairs, history, constants = contacts.pairs, contacts.pair_history, contacts.pair_constants
    if scratch is None:  # the arrays of the stepping pass, taken in its compilation only
        elastic, damped = forces.elastic, forces.dashpot
        vector = address(p.ctypes.data)
    count, k = 0, start
    increment_dt = dt if accumulate else 0.0
    while k < pairs.shape[0] and count < BLOCK:
        i, j = pairs[k, 0], pairs[k, 1]
        k += 1
        dx = position[j, 0] - position[i, 0]
        dy = position[j, 1] - position[i, 1]
        reach = radius[i] + radius[j]
        distance_squared = dx * dx + dy * dy
        if distance_squared >= reach * reach:
            if history[k - 1, NORMAL] != 0.0:
                if accumulate:
                    release(code, p, PAIR_CURVES, history, k - 1, 1.0, ledger)
                history[k - 1, :] = 0.0
            continue
        distance = math.sqrt(distance_squared)
        nx, ny = dx / distance, dy / distance
        tx, ty = -ny, nx
        delta = reach - distance
        lever_i, lever_j = radius[i] - 0.5 * delta, radius[j] - 0.5 * delta
        rvx = velocity[j, 0] - velocity[i, 0]
        rvy = velocity[j, 1] - velocity[i, 1]
        v_n = rvx * nx + rvy * ny
        v_t = mid_step_pair_v_t(rvx, rvy, tx, ty, v_n, velocity[i, 2], velocity[j, 2], lever_i,
                                lever_j, distance, dt)
        if scratch is not None:
            indices[HISTORY_ROW, count] = k - 1
            gather(scratch, count, delta, v_n, v_t, nx, ny, lever_i, lever_j, radius[i],
                   radius[j], constants, k - 1, history, k - 1, 1.0, dt, increment_dt)
            count += 1
            continue
        state, N_d, T_d, _, slip, change = contact(
            code, kernel, law, vector, ratio, dt, delta, v_n, v_t, constants_row(constants, k - 1),
            history_row(history, k - 1), radius[i], radius[j], 1.0, accumulate)
        if math.isnan(state[NORMAL]):
            return count, k, False
        kept(history, k - 1, state, ledger, slip, change)
        add_pair_forces(elastic, damped, i, j, state[NORMAL], state[TANGENTIAL], N_d, T_d, nx, ny,
                        lever_i, lever_j)
    return count, k, True


@njit(counted=False)
def gather_walls(discs, walls, contacts, history, forces, ledger, code, kernel, law, p, ratio,
                 dt, accumulate, start, scratch, indices):
    """:func:`gather_pairs` over the disc-wall pairs (``history``: the wall histories as one
    array, a row per wall and disc): also each touching one's index in the wall list and its
    disc (``indices[LISTED]``, ``indices[DISC]``); the disc is body i, the wall body j, of
    lever arm 0. The forces of the contacts it steps also go to the walls' sums and their
    tangent normal stiffness to ``walls.stiffness``, as :func:`wall_forces` scatters them."""
    position, velocity, radius = discs.position, discs.velocity, discs.radius
    n = radius.shape[0]
    wall_pairs, constants = contacts.wall_pairs, contacts.wall_constants
    if scratch is None:  # as in gather_pairs
        elastic, damped = forces.elastic, forces.dashpot
        wall_elastic, wall_damped = forces.wall_elastic, forces.wall_dashpot
        stiffness, vector = walls.stiffness, address(p.ctypes.data)
    count, m = 0, start
    increment_dt = dt if accumulate else 0.0
    while m < wall_pairs.shape[0] and count < BLOCK:
        w, i = wall_pairs[m, 0], wall_pairs[m, 1]
        m += 1
        wnx, wny = walls.normal[w, 0], walls.normal[w, 1]
        nx, ny = -wnx, -wny  # from the disc to the wall
        tx, ty = -ny, nx
        row = w * n + i
        delta = radius[i] - ((position[i, 0] - walls.point[w, 0]) * wnx
                             + (position[i, 1] - walls.point[w, 1]) * wny)
        if delta <= 0.0:
            if history[row, NORMAL] != 0.0:
                if accumulate:
                    release(code, p, WALL_CURVES, history, row, 2.0, ledger)
                history[row, :] = 0.0
            continue
        lever = radius[i] - delta
        rvx = walls.velocity[w, 0] - velocity[i, 0]
        rvy = walls.velocity[w, 1] - velocity[i, 1]
        v_n = rvx * nx + rvy * ny
        v_t = mid_step_wall_v_t(rvx, rvy, tx, ty, v_n, velocity[i, 2], lever, dt)
        if scratch is not None:
            indices[LISTED, count], indices[HISTORY_ROW, count] = m - 1, row
            indices[DISC, count] = i
            gather(scratch, count, delta, v_n, v_t, nx, ny, lever, 0.0, radius[i], radius[i],
                   constants, i, history, row, 2.0, dt, increment_dt)
            count += 1
            continue
        state, N_d, T_d, k_normal, slip, change = contact(
            code, kernel, law, vector, ratio, dt, delta, v_n, v_t, constants_row(constants, i),
            history_row(history, row), radius[i], radius[i], 2.0, accumulate)
        if math.isnan(state[NORMAL]):
            return count, m, False
        kept(history, row, state, ledger, slip, change)
        add_wall_force(elastic, wall_elastic, i, w, state[NORMAL], state[TANGENTIAL], nx, ny,
                       lever)
        if N_d != 0.0 or T_d != 0.0:
            add_wall_force(damped, wall_damped, i, w, N_d, T_d, nx, ny, lever)
        stiffness[w] += 2.0 * k_normal  # d(N)/d(disc's approach), mirror
    return count, m, True


@njit(inline=True)
def block_pass(code, kernel, law, p, ratio, dt, accumulate, history, constants, constant_rows,
               scratch, indices, count, scale, curves, ledger):
    """The law's pass over a block (:func:`law_pass`'s arguments and return): for the paper's
    law its array step (:func:`simplified_pass`), and :func:`law_pass` only when that left
    contacts to step one at a time (new ones, the table's outside), which a settled bed seldom
    needs (measured on the bed of ``benchmarks/dem.py``, 221 contacts: 0.9 us a step less than
    calling :func:`law_pass` for every block); for the calibrated law :func:`law_pass`."""
    if code == SIMPLIFIED and simplified_pass(law, ratio, dt, accumulate, history, scratch,
                                              indices, count, scale, ledger) == 0:
        return True
    return law_pass(code, kernel, law, p, ratio, dt, accumulate, history, constants,
                    constant_rows, scratch, indices, count, scale, curves, ledger)


@njit(counted=False)
def law_pass(code, kernel, law, p, ratio, dt, accumulate, history, constants, constant_rows,
             scratch, indices, count, scale, curves, ledger):
    """The law's pass over the ``count`` touching contacts gathered in ``scratch``: their new
    history (rows ``indices[HISTORY_ROW]`` of ``history``; their pair constants are rows
    ``constant_rows`` of ``constants``), their forces into the scratch's result rows
    (:data:`SPRING_N` ...) and the ledger's slip and kt-change terms. ``scale`` is
    1 for disc pairs, 2 for a disc and its mirror (a wall), ``curves`` where the calibrated
    law's (C1) numbers start in ``p`` (and a registered ``kernel`` its parameters).

    For the :func:`blocked` laws (:func:`block_pass` calls it). The paper's law has run in
    loops over all contacts at once (:func:`simplified_pass`); the contacts it left
    (``indices[RARE]``: new contacts, the table's outside) take :func:`contact` one at a time
    here. The calibrated law steps every contact with :func:`calibrated_contact`, from its
    normal force found for all at once (:func:`hertz2d.dem.laws.calibrated_normals`; the scalar
    solve where the table does not hold it). Returns False where the law failed (N NaN)."""
    rows, rare = indices[HISTORY_ROW], indices[RARE]
    steps = scratch[STEPS:]
    vector = address(p.ctypes.data)
    if code == CALIBRATED:
        calibrated_normals(law, steps, count, rare)
    for c in range(count):
        if code == SIMPLIFIED and rare[c] == 0:
            continue
        row = rows[c]
        pair = constants_row(constants, constant_rows[c])
        delta, v_n, v_t = scratch[DELTA, c], scratch[V_N, c], scratch[V_T, c]
        R1, R2 = steps[RADIUS_1, c], steps[RADIUS_2, c]
        if code == CALIBRATED:
            if rare[c] == 0:
                normal = (steps[NEW_NORMAL, c], steps[NEW_HALF_WIDTH, c],
                          steps[NEW_LOG_HALF_WIDTH, c], steps[NEW_K_NORMAL, c])
            else:
                normal = calibrated_normal(law, pair, scale * delta, R1, R2)
            state, N_d, T_d, k_normal, slip, change = calibrated_contact(
                law, p, ratio, dt, delta, v_n, v_t, pair, history, row, R1, R2, scale, curves,
                accumulate, normal)
        else:
            state, N_d, T_d, k_normal, slip, change = contact(
                code, kernel, law, vector, ratio, dt, delta, v_n, v_t, pair,
                history_row(history, row), R1, R2, scale, accumulate)
        if math.isnan(state[NORMAL]):
            return False
        kept(history, row, state, ledger, slip, change)
        scratch[SPRING_N, c], scratch[SPRING_T, c] = state[NORMAL], state[TANGENTIAL]
        scratch[DAMPED_N, c], scratch[DAMPED_T, c], scratch[K_NORMAL, c] = N_d, T_d, k_normal
    return True


@njit(vectorised=True, counted=False)
def simplified_pass(law, ratio, dt, accumulate, history, scratch, indices, count, scale,
                    ledger):
    """:func:`contact` of the paper's law for the ``count`` gathered contacts at once, from the
    inputs the gather pass wrote (:func:`gather`): the loops of
    :func:`hertz2d.dem.laws.simplified_steps`, the ledger's terms (:func:`ledger_terms`), the
    dashpots and the forces of every contact in one more loop, which also adds to the ledger
    and stores the new history of every contact the array step did not mark rare (those
    :func:`law_pass` steps one at a time); returns how many it marked. (The ledger's sums and
    the stores were a loop of their own; in this one, measured, they cost 2.5 ns a contact
    less.) With dashpots, their coefficients ``2 zeta sqrt(m* k)`` (:func:`dashpots`) come
    first from a loop of their own, as ``2 zeta dt sqrt(m*/dt^2 k)`` from the array step's rows
    (the same to rounding), whose square roots vectorise where the loop below branches
    (measured, interleaved, on a bed settled with dashpots: the step is faster; with m* taken
    into the scratch by the gather pass instead, it was not)."""
    rows, rare = indices[HISTORY_ROW], indices[RARE]
    steps = scratch[STEPS:]
    simplified_steps(law, steps, count, rare)
    if ratio > 0.0:
        for c in range(count):
            scratch[DASHPOT_N, c] = math.sqrt(steps[MASS_OVER_STEP_SQUARED, c]
                                              * steps[NEW_K_NORMAL, c])
            scratch[DASHPOT_T, c] = math.sqrt(steps[MASS_OVER_STEP_SQUARED, c]
                                              * steps[NEW_STIFFNESS, c])
    damping = 2.0 * ratio * dt * scale
    left = 0
    for c in range(count):
        N, T, kt = steps[NEW_NORMAL, c], steps[NEW_TANGENTIAL, c], steps[NEW_STIFFNESS, c]
        slipping = steps[NEW_SLIPPING, c] != 0.0
        slip = change = 0.0
        if accumulate:
            slip, change = ledger_terms(slipping, steps[TANGENTIAL_0, c], T,
                                        steps[STIFFNESS_0, c], kt, steps[NEW_K_STEP, c],
                                        steps[INCREMENT, c], scale)
        k_normal = steps[NEW_K_NORMAL, c]
        N_d = T_d = 0.0
        if ratio > 0.0:  # the scale is in damping
            N_d, T_d = dashpot_forces(damping * scratch[DASHPOT_N, c],
                                      damping * scratch[DASHPOT_T, c], 1.0, scratch[V_N, c],
                                      scratch[V_T, c], slipping)
        scratch[SPRING_N, c], scratch[SPRING_T, c] = N, T
        scratch[DAMPED_N, c], scratch[DAMPED_T, c], scratch[K_NORMAL, c] = N_d, T_d, k_normal
        if rare[c] == 0:
            kept(history, rows[c], (N, T, kt, steps[NEW_HALF_WIDTH, c]), ledger, slip, change)
        left += rare[c]
    return left


@njit(counted=False)
def pair_forces(discs, contacts, forces, ledger, code, kernel, law, p, ratio, dt, accumulate,
                scratch, indices):
    """The disc-disc contacts' forces, added to the discs (:data:`OK` or :data:`LAW_FAILED`):
    block by block (:data:`BLOCK`, in the block's ``scratch`` and ``indices`` of
    :func:`block_scratch`), the gather pass (:func:`gather_pairs`), the law's
    (:func:`block_pass`), then the forces scattered to the discs. For the :func:`blocked`
    laws (:func:`contact_forces` calls the gather passes of the others itself)."""
    pairs = contacts.pairs
    rows = indices[HISTORY_ROW]
    elastic, damped = forces.elastic, forces.dashpot
    start = 0
    while start < pairs.shape[0]:
        count, start, _ = gather_pairs(discs, contacts, forces, ledger, code, kernel, law, p,
                                       ratio, dt, accumulate, start, scratch, indices)
        if count and not block_pass(code, kernel, law, p, ratio, dt, accumulate,
                                    contacts.pair_history, contacts.pair_constants, rows,
                                    scratch, indices, count, 1.0, PAIR_CURVES, ledger):
            return LAW_FAILED
        for c in range(count):
            add_pair_forces(elastic, damped, pairs[rows[c], 0], pairs[rows[c], 1],
                            scratch[SPRING_N, c], scratch[SPRING_T, c], scratch[DAMPED_N, c],
                            scratch[DAMPED_T, c], scratch[NX, c], scratch[NY, c],
                            scratch[LEVER_I, c], scratch[LEVER_J, c])
    return OK


@njit(counted=False)
def wall_forces(discs, walls, contacts, forces, ledger, code, kernel, law, p, ratio, dt,
                accumulate, scratch, indices):
    """The disc-wall contacts' forces, added to the discs and summed per wall, and each wall's
    tangent stiffness for its servo (:data:`OK` or :data:`LAW_FAILED`): the passes of
    :func:`pair_forces`, for the :func:`blocked` laws."""
    history = wall_histories(discs, walls, contacts)
    wall_pairs = contacts.wall_pairs
    elastic, damped = forces.elastic, forces.dashpot
    start = 0
    while start < wall_pairs.shape[0]:
        count, start, _ = gather_walls(discs, walls, contacts, history, forces, ledger, code,
                                       kernel, law, p, ratio, dt, accumulate, start, scratch,
                                       indices)
        if count and not block_pass(code, kernel, law, p, ratio, dt, accumulate, history,
                                    contacts.wall_constants, indices[DISC], scratch, indices,
                                    count, 2.0, WALL_CURVES, ledger):
            return LAW_FAILED
        for c in range(count):
            w, i = wall_pairs[indices[LISTED, c], 0], indices[DISC, c]
            nx, ny, lever = scratch[NX, c], scratch[NY, c], scratch[LEVER_I, c]
            add_wall_force(elastic, forces.wall_elastic, i, w, scratch[SPRING_N, c],
                           scratch[SPRING_T, c], nx, ny, lever)
            N_d, T_d = scratch[DAMPED_N, c], scratch[DAMPED_T, c]
            if N_d != 0.0 or T_d != 0.0:
                add_wall_force(damped, forces.wall_dashpot, i, w, N_d, T_d, nx, ny, lever)
            walls.stiffness[w] += 2.0 * scratch[K_NORMAL, c]  # d(N)/d(approach), mirror
    return OK


@njit(inline=True)
def wall_histories(discs, walls, contacts):
    """The wall histories as one array, a row per wall and disc (``w * n + i``)."""
    return contacts.wall_history.reshape((walls.point.shape[0] * discs.radius.shape[0],
                                          contacts.wall_history.shape[2]))


@njit(inline=True)
def block_scratch():
    """A block's ``scratch`` and ``indices`` (:func:`pair_forces`), made once per call of the
    time loop (:func:`hertz2d.dem.integrate.steps_in_slots`) and passed down, not at every
    step's two force passes (measured on the same bed as :func:`block_pass`'s change, with it:
    1.2 us a step less for the paper's law)."""
    return np.empty((SCRATCH_ROWS, BLOCK)), np.empty((4, BLOCK), dtype=np.int64)


@njit(counted=False)
def contact_forces(discs, walls, contacts, forces, ledger, code, kernel, law, p, ratio, dt,
                   accumulate, scratch, indices):
    """Every contact's forces at the current positions (velocities: the latest half step) with
    the law ``code`` (its ``kernel`` for :data:`hertz2d.dem.laws.KERNEL`) of parameters ``law``
    (:func:`hertz2d.dem.laws.parameters_tuple` of the vector ``p``, which the calibrated law
    reads its (C1) numbers from and a registered kernel its parameters), into
    ``forces.elastic``, ``forces.dashpot`` and the walls' arrays (the blocked laws' block in
    ``scratch`` and ``indices``, :func:`block_scratch`). With ``accumulate`` False (the
    first evaluation of a run) no tangential increment is applied and the ledger is untouched.
    Returns :data:`OK` or :data:`LAW_FAILED`.

    A law that is not :func:`blocked` is stepped by the gather passes called from here:
    :func:`pair_forces` and :func:`wall_forces` are the blocked laws' block loops, and for the
    others would only be one more call each with the whole state."""
    forces.elastic[:] = 0.0
    forces.dashpot[:] = 0.0
    forces.wall_elastic[:] = 0.0
    forces.wall_dashpot[:] = 0.0
    walls.stiffness[:] = 0.0
    if blocked(code):
        status = pair_forces(discs, contacts, forces, ledger, code, kernel, law, p, ratio, dt,
                             accumulate, scratch, indices)
        if status == OK:
            status = wall_forces(discs, walls, contacts, forces, ledger, code, kernel, law, p,
                                 ratio, dt, accumulate, scratch, indices)
    else:
        _, _, ok = gather_pairs(discs, contacts, forces, ledger, code, kernel, law, p, ratio, dt,
                                accumulate, 0, None, None)
        if ok:
            _, _, ok = gather_walls(discs, walls, contacts, wall_histories(discs, walls, contacts),
                                    forces, ledger, code, kernel, law, p, ratio, dt, accumulate,
                                    0, None, None)
        status = OK if ok else LAW_FAILED
    if status != OK:
        return status
    wall_force, wall_elastic, wall_dashpot = walls.force, forces.wall_elastic, forces.wall_dashpot
    for w in range(wall_force.shape[0]):
        wall_force[w, 0] = -(wall_elastic[w, 0] + wall_dashpot[w, 0])
        wall_force[w, 1] = -(wall_elastic[w, 1] + wall_dashpot[w, 1])
    return OK


@njit(inline=True)
def total_force(forces, velocity, inertia, gravity, alpha, i):
    """Disc i's total force (contacts, gravity, local damping) into ``forces.total`` and its local
    damping into ``forces.local``."""
    for c in range(3):
        force = forces.elastic[i, c] + forces.dashpot[i, c]
        if c < 2:
            force += inertia[i, c] * gravity[c]
        local = local_damping(alpha, force, velocity[i, c]) if alpha > 0.0 else 0.0
        forces.local[i, c] = local
        forces.total[i, c] = force + local


@njit
def compute_forces(discs, walls, contacts, forces, ledger, code, kernel, p, ratio, alpha, gravity,
                   dt, accumulate):
    """Every force at the current positions (:func:`contact_forces`, then each disc's
    :func:`total_force`). Returns :data:`OK` or :data:`LAW_FAILED`."""
    scratch, indices = block_scratch()
    status = contact_forces(discs, walls, contacts, forces, ledger, code, kernel,
                            parameters_tuple(p), p, ratio, dt, accumulate, scratch, indices)
    for i in range(discs.radius.shape[0]):
        total_force(forces, discs.velocity, discs.inertia, gravity, alpha, i)
    return status
