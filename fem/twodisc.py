"""The two-body frictional contact example of Section 4.2 (Fig. 10) solved along a load path.

The upper body is a half disc (:class:`Disc`: radius, E, nu), the lower body a second half disc of
any radius and material or a rigid flat wall (:class:`RigidFlat`); plane strain, small strain, P1
triangles (:mod:`hertz2d.meshes.twodisc`). The lower disc is held on its flat, the upper one's flat is
translated rigidly by ``(delta_t, -delta_n)`` per load step of a :class:`hertz2d.checks.loadpath.LoadPath`
(any path: delta_t may reverse and turn negative, delta_n may fall). Contact is node-to-segment
Signorini-Coulomb with finite sliding (:mod:`hertz2d.fem.contact.frictional`), the upper body the slave;
each disc is condensed on its contact window (:mod:`hertz2d.fem.contact.body`), a wall is a rigid master
line with no compliance (:class:`hertz2d.fem.contact.body.RigidWindow`) on the same solver path. Supports
of the discs' flats: ``clamped`` (the paper's statement) and ``symmetric`` (roller flats with
inertia relief; the configuration of Eqs. 17, 22 and 23).

Why P1 node-to-segment on a condensed bulk: the bulk is linear, so a load step is a problem on the
~100 contact nodes only (milliseconds) once each body is factorised; P1 makes a slave node's
force its tributary traction (P2 corner/midside lumping is not positive), and a uniform window
of P1 facets resolves the contact well. At the default level 3 (a/40 on the window) and
delta_n = 0.025 m, two equal discs: N within 0.2 % of Eq. 23 (symmetric support), a within 0.8 %
of Eq. 4, pressure within 0.5 % RMS of Eq. 1, c within 0.5 % of Eq. 7 at delta_t = 0.01 m, the
onset of full slip within 1.2 % of Eq. 27 (with w of the half-round FEM of the same support), peak
and final forces within 0.2 % of level 4 (``python benchmarks/twodisc.py --verify``). A disc on a
wall and a dissimilar pair against Eqs. 17 and 22: :mod:`hertz2d.calibration.validation.domain_checks`.

A load step whose contact iteration does not converge is cut back: its increment is bisected,
up to :data:`MAX_CUTS` times. A step that still fails stops the path; every step before it is
kept and the result carries the message (``TwoDiscResult.failure``).

A step that brings the bodies into contact while they move tangentially (the first step of a
``proportional`` path) is taken in :data:`FORMATION_INCREMENTS` equal increments. In one increment
the whole contact would form at once with the step's tangential displacement already applied:
a Cattaneo state with slipping edges, about 8 % stiffer than the sticking contact that grows
while both displacements rise (Mindlin and Deresiewicz's proportional loading), an error of the
first increment that the later steps only dilute (still 0.7 % after 20 steps). With 32
increments the first step is within 0.2 % of 128 (tests/test_twodisc.py).

Per step, the step columns shared with the laws (:data:`hertz2d.checks.loadpath.STEP_COLUMNS`): ``Fx``, ``Fz`` the force that drives the upper
flat (along +delta_t, and downward), minus the contact force on the upper body (the only load
on a linear bulk, so the support balances it exactly; for ``symmetric`` through the inertia
relief, the pin carrying nothing, tests/test_contact_parts.py);
``N``, ``T`` the contact resultants in the contact frame (T resisting +delta_t); ``a``, ``c`` the
contact and stick half-widths on the upper surface's reference configuration
(:mod:`hertz2d.fem.contact.measure`). Then diagnostics: ``stage``, ``centre`` and ``stick_centre`` (arc
coordinate on the upper surface), ``contact_nodes``, ``slip_nodes``, ``iterations`` (of the last
increment), ``increments`` (more than 1 after a cut-back), ``fallbacks`` (Tresca steps) and
``gap_residual``, the violation of Signorini's conditions left in the converged geometry, in
element lengths (:meth:`hertz2d.fem.contact.frictional.NodeToSegmentContact.gap_residual`).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import meshio
import numpy as np
import pandas as pd
from tqdm import tqdm

from hertz2d.fem.contact.body import CondensedBody, RigidWindow
from hertz2d.fem.contact.frictional import (ContactNotConverged, ContactOutsideWindow, ContactState,
                                    Increment, NodeToSegmentContact)
from hertz2d.fem.contact.measure import arc_coordinate, measure, tractions
from hertz2d.fem.elasticity import lame
from hertz2d.checks.loadpath import STEP_COLUMNS, LoadPath
from hertz2d.fem.supports import SUPPORTS
from hertz2d.checks import count, non_negative, one_of, positive
from hertz2d.meshes.twodisc import DEFAULT_LEVEL, LEVEL_LIMIT, MAX_LEVEL, two_body_meshes, window_element

#: bisections of a load increment before a step counts as failed
MAX_CUTS = 6
#: equal increments of a step in which the bodies come into contact while moving tangentially
FORMATION_INCREMENTS = 32
#: the longest path the FEM runs: a step of a cycle takes ~5 ms at level 3 on one quiet core
#: (hertz2d twodisc --path cycle --refine 3, 200 against 50 steps; more on finer meshes)
MAX_STEPS = 20_000
STEPS_LIMIT = "the two-disc FEM takes ~5 ms a step at level 3: 20000 steps is ~2 minutes"



@dataclass(frozen=True)
class Disc:
    """An elastic disc: radius R (m), Young's modulus E (Pa), Poisson's ratio nu (Section 4.2's
    values by default)."""

    R: float = 0.5
    E: float = 10e9
    nu: float = 0.25

    def __post_init__(self):
        positive("R", self.R), lame(self.E, self.nu)

    @property
    def compliance(self) -> float:
        """``(1 - nu^2)/E``, the body's term of Eq. 5."""
        return (1.0 - self.nu**2) / self.E


@dataclass(frozen=True)
class RigidFlat:
    """A rigid straight wall (a flat of infinite radius and zero compliance)."""

    R: float = math.inf
    compliance: float = 0.0


def check_touching(upper: Disc, lower: Disc | RigidFlat, path: LoadPath) -> None:
    """Every step must press the bodies together: the rigid overlap has to be positive."""
    path.check_touching(upper.R + lower.R)


@dataclass
class TwoDiscResult:
    """The per-step table, the traction profiles (if asked for) and why the path stopped."""

    table: pd.DataFrame
    profiles: pd.DataFrame | None
    failure: str | None
    info: dict = field(default_factory=dict)


class TwoBody:
    """Meshed, assembled and condensed two-body problem, ready to run load paths.

    ``upper`` is the disc whose flat is driven, ``lower`` a second disc or a rigid flat. The
    contact windows are sized for the largest ``delta_n`` and the range of ``delta_t`` a path
    will reach (:func:`hertz2d.meshes.twodisc.contact_windows`); :meth:`for_path` does that for a path.
    ``timings`` records the set-up: mesh, assembly, factorisation (seconds).
    """

    def __init__(self, upper: Disc, lower: Disc | RigidFlat, mu: float, support: str,
                 delta_n: float, delta_t: tuple[float, float], level: int = DEFAULT_LEVEL):
        self.mu = non_negative("mu", mu)
        self.support = one_of("support", support, SUPPORTS)
        self.level = count("refine", level, minimum=0, maximum=MAX_LEVEL, why=LEVEL_LIMIT)
        self.upper_body, self.lower_body = upper, lower
        clock = time.perf_counter()
        lower_mesh, upper_mesh, windows = two_body_meshes(
            delta_n, delta_t, (lower.R, upper.R), (lower.compliance, upper.compliance), level)
        mesh_seconds = time.perf_counter() - clock
        clock = time.perf_counter()
        self.upper = CondensedBody(upper_mesh, upper.E, upper.nu, support)
        self.lower = (CondensedBody(lower_mesh, lower.E, lower.nu, support)
                      if isinstance(lower, Disc) else
                      RigidWindow(windows.lower, window_element(windows.half_width, level)))
        #: the bodies that deform and their roles in the contact (the upper body is the slave)
        self.elastic = [(self.upper, "slave")] + (
            [(self.lower, "master")] if isinstance(lower, Disc) else [])
        assembly_seconds = time.perf_counter() - clock
        clock = time.perf_counter()
        self.contact = NodeToSegmentContact(self.upper, self.lower, mu)
        self.timings = {"mesh": mesh_seconds, "assembly": assembly_seconds,
                        "factorisation": time.perf_counter() - clock}
        self.s = arc_coordinate(self.upper.window_reference)

    @classmethod
    def for_path(cls, path: LoadPath, upper: Disc | None = None,
                 lower: Disc | RigidFlat | None = None, mu: float = 0.3,
                 support: str = "clamped", level: int = DEFAULT_LEVEL) -> "TwoBody":
        """The problem sized for ``path``; ``upper`` defaults to :class:`Disc`'s values and
        ``lower`` to a copy of ``upper``."""
        upper = Disc() if upper is None else upper
        lower = upper if lower is None else lower
        count("path steps", len(path), maximum=MAX_STEPS, why=STEPS_LIMIT)
        check_touching(upper, lower, path)
        return cls(upper, lower, mu, support, float(path.delta_n.max()),
                   (float(path.delta_t.min()), float(path.delta_t.max())), level)

    @property
    def nodes(self) -> int:
        return sum(body.nodes for body, _ in self.elastic)

    @property
    def dofs(self) -> int:
        return sum(body.dofs for body, _ in self.elastic)

    # -- stepping -----------------------------------------------------------------------------

    def _advance(self, state: ContactState, rigid: tuple[float, float], cuts: int = 0):
        """The increment to ``rigid``, bisected while the contact iteration does not converge.

        Returns the final increment and the number of sub-increments it took.
        """
        try:
            return self.contact.increment(state, rigid), 1
        except ContactNotConverged:
            if cuts >= MAX_CUTS:
                raise
        middle = tuple(0.5 * (np.asarray(state.rigid) + np.asarray(rigid)))
        first, n_first = self._advance(state, middle, cuts + 1)
        second, n_second = self._advance(first.state, rigid, cuts + 1)
        return second, n_first + n_second

    def _step(self, state: ContactState, rigid: tuple[float, float]):
        """One load step: one increment, or :data:`FORMATION_INCREMENTS` when the bodies come
        into contact during it while moving tangentially. Returns the last increment and the
        number of increments taken."""
        start = np.asarray(state.rigid, float)
        forming = not (state.multipliers[:, 0] > 0).any() and rigid[0] != start[0]
        parts = FORMATION_INCREMENTS if forming else 1
        taken = 0
        for part in range(1, parts + 1):
            target = tuple(start + (np.asarray(rigid) - start) * part / parts)
            increment, pieces = self._advance(state, target)
            state, taken = increment.state, taken + pieces
        return increment, taken

    def run(self, path: LoadPath, profiles: bool = False, vtu: str | Path | None = None,
            progress: bool = True) -> TwoDiscResult:
        """Run ``path`` from the unloaded state; one table row per step that converged."""
        check_touching(self.upper_body, self.lower_body, path)
        state = self.contact.initial_state()
        rows, profile_frames, seconds, failure = [], [], [], None
        if vtu is not None:
            Path(vtu).mkdir(parents=True, exist_ok=True)
        steps = tqdm(range(len(path)), desc="twodisc", unit="step", disable=not progress,
                     leave=False)
        for k in steps:
            rigid = (float(path.delta_t[k]), -float(path.delta_n[k]))
            clock = time.perf_counter()
            try:
                increment, pieces = self._step(state, rigid)
            except ContactNotConverged as error:
                failure = (f"step {k + 1} (delta_n={path.delta_n[k]:.6g}, "
                           f"delta_t={path.delta_t[k]:.6g}) did not converge with its increment "
                           f"cut to 1/{2 ** MAX_CUTS}: {error}; {k} steps kept")
                break
            except ContactOutsideWindow as error:
                failure = f"step {k + 1}: {error}; {k} steps kept"
                break
            state = increment.state
            Fx, Fz = _driving_force(state)
            seconds.append(time.perf_counter() - clock)
            m = measure(increment, self.s, self.mu)
            rows.append({"step": k + 1, "delta_n": path.delta_n[k], "delta_t": path.delta_t[k],
                         "Fx": Fx, "Fz": Fz, "N": m.N, "T": m.T, "a": m.a, "c": m.c,
                         "stage": path.stage[k], "centre": m.centre,
                         "stick_centre": m.stick_centre,
                         "contact_nodes": int((state.multipliers[:, 0] > 0).sum()),
                         "slip_nodes": int(increment.slipping.sum()),
                         "iterations": increment.iterations, "increments": pieces,
                         "fallbacks": increment.fallbacks,
                         "gap_residual": self.contact.gap_residual(increment)})
            if profiles:
                profile_frames.append(self._profile(k + 1, increment, m))
            if vtu is not None:
                self.write_vtu(Path(vtu) / f"twodisc_{k + 1:04d}.vtu", increment)
        table = pd.DataFrame(rows, columns=list(STEP_COLUMNS) + [
            "stage", "centre", "stick_centre", "contact_nodes", "slip_nodes", "iterations",
            "increments", "fallbacks", "gap_residual"])
        info = {"nodes": self.nodes, "dofs": self.dofs, "level": self.level,
                "support": self.support, "contact_nodes": self.contact.n_slave,
                "step_seconds": seconds, **{f"{k}_seconds": v for k, v in self.timings.items()}}
        return TwoDiscResult(table, pd.concat(profile_frames, ignore_index=True)
                             if profile_frames else None, failure, info)

    # -- outputs ------------------------------------------------------------------------------

    def _profile(self, step: int, increment: Increment, m) -> pd.DataFrame:
        """p(s), q(s) at the slave nodes: reference arc coordinate from the contact centre."""
        p, q = tractions(increment, self.s)
        in_contact = increment.state.multipliers[:, 0] > 0
        return pd.DataFrame({"step": step, "s": self.s, "x": self.s - m.centre,
                             "x_ref": self.upper.window_reference[:, 0], "p": p, "q": q,
                             "contact": in_contact,
                             "stick": in_contact & ~increment.slipping})

    def write_vtu(self, path: Path, increment: Increment) -> None:
        """The deformable bodies (cell data ``body``: 0 upper, 1 lower), reference configuration,
        with displacement and stress (ParaView)."""
        points, cells, displacement, stress, body = [], [], [], [], []
        offset = 0
        state = increment.state
        for index, (part, role) in enumerate(self.elastic):
            rigid, forces = ((state.rigid, state.slave_forces) if role == "slave" else
                             ((0.0, 0.0), state.master_forces))
            u = part.displacement(rigid, forces.ravel())
            points.append(part.mesh.p.T)
            cells.append(part.mesh.t.T + offset)
            displacement.append(u.reshape(-1, 2))
            stress.append(part.stress(u))
            body.append(np.full(part.mesh.t.shape[1], index))
            offset += part.mesh.p.shape[1]
        sigma = np.hstack(stress)
        xx, yy, xy, zz = sigma
        mises = np.sqrt(0.5 * ((xx - yy) ** 2 + (yy - zz) ** 2 + (zz - xx) ** 2) + 3 * xy ** 2)
        u = np.vstack(displacement)
        mesh = meshio.Mesh(
            np.column_stack([np.vstack(points), np.zeros(len(u))]), [("triangle", np.vstack(cells))],
            point_data={"displacement": np.column_stack([u, np.zeros(len(u))])},
            cell_data={"stress_xx": [xx], "stress_yy": [yy], "stress_xy": [xy], "stress_zz": [zz],
                       "von_mises": [mises], "body": [np.concatenate(body)]})
        mesh.write(path)


def _driving_force(state: ContactState) -> tuple[float, float]:
    """(Fx, Fz): the force on the upper flat along +delta_t and downward.

    The bulk carries no load but the contact forces, so the flat's support (with the inertia
    relief of the ``symmetric`` support) balances their resultant exactly: the flat's force is
    minus the contact force on the upper body, with no solve for the full field.
    """
    resultant = state.slave_forces.sum(axis=0)
    return float(-resultant[0]), float(resultant[1])


def solve_two_disc(path: LoadPath, upper: Disc | None = None,
                   lower: Disc | RigidFlat | None = None, mu: float = 0.3,
                   support: str = "clamped", level: int = DEFAULT_LEVEL, profiles: bool = False,
                   vtu: str | Path | None = None, progress: bool = True) -> TwoDiscResult:
    """Mesh, assemble and run ``path``: the per-step table (and profiles) of Section 4.2.

    Parameters
    ----------
    path : LoadPath
        The prescribed displacements of the upper body's flat.
    upper : Disc, optional
        The driven disc; :class:`Disc`'s values (the paper's disc) by default.
    lower : Disc or RigidFlat, optional
        The other body: a copy of ``upper`` by default; ``RigidFlat()`` puts the disc on a rigid
        wall.
    mu : float, optional
        The friction coefficient.
    support : {"clamped", "symmetric"}, optional
        How each disc's flat is held (:mod:`hertz2d.fem.supports`).
    level : int, optional
        The mesh level (each level halves the element size).
    profiles : bool, optional
        Also return the traction profiles p(x), q(x) of every step.
    vtu : str or pathlib.Path, optional
        A folder for the displacement fields of every step (ParaView).
    progress : bool, optional
        Show a progress bar on stderr.

    Returns
    -------
    TwoDiscResult
        The per-step table (the columns every law's table starts with, then the solver's
        diagnostics), the profiles, and why the path stopped early (``failure``, else None).
    """
    model = TwoBody.for_path(path, upper, lower, mu, support, level)
    return model.run(path, profiles=profiles, vtu=vtu, progress=progress)
