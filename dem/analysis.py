"""What a packing's contacts and motion say: per-contact tables, disc stresses, distributions.

The analyses of a DEM comparison of contact laws (Cundall-Strack against Hertz-Mindlin, say):
the kinetic energy of the discs that touch something (the collisions' share of the motion), the
overlaps (how stiff a law makes the grains), the distribution of the tangential forces (how much
of the friction is mobilised) and velocity profiles (how the motion is spread through the
sample), plus the per-disc stress a ParaView time series shows. Plain numpy on the engine's state
(:class:`hertz2d.dem.state.Discs`, :class:`hertz2d.dem.walls.Walls`, :class:`hertz2d.dem.contacts.Contacts`); nothing
here is compiled.

Contact geometry and forces are the engine's (:mod:`hertz2d.dem.forces`): for discs i < j the normal n
points from i to j, the tangent is ``t = (-n_y, n_x)``, disc i receives ``f = -N n + T t`` at
the contact point ``x_i + (r_i - delta/2) n``, disc j the opposite; for a wall, n points from the
disc to the wall and the contact point is on the wall, ``x_i + (r_i - delta) n``. ``overlap`` is
the approach the law sees (twice the disc's for a wall, Section 3.2), so ``overlap / (R1 + R2)``
compares disc and wall contacts alike.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from hertz2d.dem.contacts import NORMAL, STIFFNESS, TANGENTIAL

#: ``wall`` of a contact between two discs in :func:`contact_table`
DISC_PAIR = -1


def contact_table(discs, walls, contacts) -> pd.DataFrame:
    """One row per touching contact: ``i, j`` (j = -1 for a wall), ``wall`` (its index, or
    :data:`DISC_PAIR`), ``overlap`` (the law's approach, m), ``relative_overlap`` (over R1 + R2),
    ``N, T`` (N/m), ``kt`` (N/m per m), the unit normal ``nx, ny`` and the lever arm
    ``lever`` from disc i's centre to the contact point."""
    position, radius = discs.position[:, :2], discs.radius
    history = contacts.pair_history
    touching = history[:, NORMAL] > 0.0
    i, j = contacts.pairs[touching, 0], contacts.pairs[touching, 1]
    branch = position[j] - position[i]
    distance = np.hypot(branch[:, 0], branch[:, 1])
    normal = branch / distance[:, None]
    overlap = radius[i] + radius[j] - distance
    frames = [pd.DataFrame({
        "i": i, "j": j, "wall": DISC_PAIR, "overlap": overlap,
        "relative_overlap": overlap / (radius[i] + radius[j]),
        "N": history[touching, NORMAL], "T": history[touching, TANGENTIAL],
        "kt": history[touching, STIFFNESS], "nx": normal[:, 0], "ny": normal[:, 1],
        "lever": radius[i] - 0.5 * overlap})]
    for w in range(walls.count):
        rows = contacts.wall_history[w]
        k = np.flatnonzero(rows[:, NORMAL] > 0.0)
        approach = radius[k] - (position[k] - walls.point[w]) @ walls.normal[w]
        frames.append(pd.DataFrame({
            "i": k, "j": -1, "wall": w, "overlap": 2.0 * approach,
            "relative_overlap": approach / radius[k], "N": rows[k, NORMAL],
            "T": rows[k, TANGENTIAL], "kt": rows[k, STIFFNESS],
            "nx": -walls.normal[w, 0], "ny": -walls.normal[w, 1], "lever": radius[k] - approach}))
    return pd.concat(frames, ignore_index=True)


def touching_discs(table: pd.DataFrame, discs: int) -> np.ndarray:
    """(n,) bool: the discs with at least one contact in ``table``."""
    touching = np.zeros(discs, dtype=bool)
    touching[table.i.to_numpy()] = True
    touching[table.j[table.wall == DISC_PAIR].to_numpy()] = True
    return touching


def contacting_kinetic_energy(discs, table: pd.DataFrame) -> float:
    """Kinetic energy (translation and rotation, J/m) of the discs that touch a disc or a wall."""
    mask = touching_discs(table, discs.count)
    return float(0.5 * np.sum(discs.inertia[mask] * discs.velocity[mask] ** 2))


def coordination_number(table: pd.DataFrame, discs: int) -> float:
    """Mean contacts per disc, ``(2 disc pairs + wall contacts) / n``."""
    pairs = int(np.sum(table.wall == DISC_PAIR))
    return (2 * pairs + (len(table) - pairs)) / discs


def disc_stresses(discs, table: pd.DataFrame) -> np.ndarray:
    """(n, 3) Love-Weber stress of each disc, ``sigma = (1/(pi r^2)) sum_c (x_c - x_i) (x) f_c``
    symmetrised (Pa, tension positive): ``sxx, syy, sxy``. Summed over the discs and multiplied by
    their areas it is the sample's mean stress times its area (in equilibrium, minus the walls'
    stresses along their normals)."""
    n = discs.count
    normal = table[["nx", "ny"]].to_numpy()
    tangent = np.column_stack([-normal[:, 1], normal[:, 0]])
    force_i = -table["N"].to_numpy()[:, None] * normal + table["T"].to_numpy()[:, None] * tangent
    arm_i = table.lever.to_numpy()[:, None] * normal
    moment = np.zeros((n, 3))
    _add_dyad(moment, table.i.to_numpy(), arm_i, force_i)
    pairs = (table.wall == DISC_PAIR).to_numpy()
    j = table.j.to_numpy()[pairs]
    # disc j: the opposite force, at the same point seen from j's centre (lever along -n)
    arm_j = -(discs.radius[j] - (table.overlap.to_numpy()[pairs] / 2.0))[:, None] * normal[pairs]
    _add_dyad(moment, j, arm_j, -force_i[pairs])
    return moment / (np.pi * discs.radius**2)[:, None]


def _add_dyad(moment: np.ndarray, index: np.ndarray, arm: np.ndarray, force: np.ndarray) -> None:
    """``moment[index] += (sxx, syy, sxy)`` of the symmetrised ``arm (x) force``."""
    np.add.at(moment[:, 0], index, arm[:, 0] * force[:, 0])
    np.add.at(moment[:, 1], index, arm[:, 1] * force[:, 1])
    np.add.at(moment[:, 2], index, 0.5 * (arm[:, 0] * force[:, 1] + arm[:, 1] * force[:, 0]))


def velocity_profiles(discs, walls, bins: int, left: int, right: int, bottom: int,
                      top: int) -> pd.DataFrame:
    """Mean velocities of the discs in ``bins`` equal slices of the box: ``vy`` against the
    height ``(y - y_bottom)/H`` and ``vx`` against the abscissa ``(x - x_left)/W``, W and H the
    box's current width and height. Rows ``axis ('y' or 'x'), position (slice centre), velocity
    (m/s), discs, affine`` (empty slices give NaN); ``affine`` is the homogeneous deformation's
    velocity there, linear from the bottom wall's velocity to the top wall's (``vy``), from the
    left wall's to the right's (``vx``)."""
    centre, velocity = discs.position[:, :2], discs.velocity
    edges = np.linspace(0.0, 1.0, bins + 1)
    middle = 0.5 * (edges[1:] + edges[:-1])
    frames = []
    for axis, c, low, high in (("y", 1, bottom, top), ("x", 0, left, right)):
        start, end = walls.point[low, c], walls.point[high, c]
        which = np.clip(np.digitize((centre[:, c] - start) / (end - start), edges) - 1, 0,
                        bins - 1)
        number = np.bincount(which, minlength=bins)
        total = np.bincount(which, weights=velocity[:, c], minlength=bins)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = total / number
        v_low, v_high = walls.velocity[low, c], walls.velocity[high, c]
        frames.append(pd.DataFrame({"axis": axis, "position": middle, "velocity": mean,
                                    "discs": number,
                                    "affine": v_low + (v_high - v_low) * middle}))
    return pd.concat(frames, ignore_index=True)


def histogram(values, edges) -> pd.DataFrame:
    """Probability density of ``values`` on ``edges`` (rows ``low, high, density, count``)."""
    values = np.asarray(values, dtype=float)
    counts, edges = np.histogram(values, bins=edges)
    widths = np.diff(edges)
    total = max(len(values), 1)
    return pd.DataFrame({"low": edges[:-1], "high": edges[1:],
                         "density": counts / (total * widths), "count": counts})


def mobilised_friction(table: pd.DataFrame, friction: float) -> np.ndarray:
    """``|T| / (mu N)`` of every contact: 1 where it slides (Coulomb's cap, Eq. 32)."""
    if friction <= 0:
        return np.zeros(len(table))
    return np.abs(table["T"].to_numpy()) / (friction * table["N"].to_numpy())
