"""A DEM run in Python: discs, walls, a law, damping and gravity, advanced in compiled chunks.

    >>> from hertz2d.dem import Discs, Law, Simulation, Walls, random_packing
    >>> centres, radii = random_packing(200, 0.06, 0.08, 1.0, 1.5, seed=1)
    >>> run = Simulation(Discs.from_arrays(centres, radii, 2700.0),
    ...                  Law.simplified(10e9, 0.25, 0.3), walls=Walls.box(1.0, 1.5), dt=1e-5)
    >>> table = run.run(100_000, output_every=1000)  # one row per 1000 steps
    >>> len(table), bool(table.contacts.iloc[-1] > 0)  # 1 s: the discs have fallen and touch
    (100, True)
    >>> bool(abs(table.residual.iloc[-1]) < 0.01 * table.work.iloc[-1])  # energy ledger within 1 %
    True

:meth:`Simulation.run` calls the compiled loop (:func:`hertz2d.dem.integrate.advance`) once per output
interval and records one row of observations after each: time, energies and the ledger
(:mod:`hertz2d.dem.energy`), contact counts and mean stiffnesses (:mod:`hertz2d.dem.observe`), each wall's
position and stress. Walls can be re-driven between runs (:meth:`hertz2d.dem.walls.Walls.set_servo`,
:meth:`~hertz2d.dem.walls.Walls.set_velocity`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm import tqdm

from hertz2d.calibration.laws import ContactPair
from hertz2d.calibration.laws.calibrated import range_excess, warn_outside
from hertz2d.dem.contacts import HALF_WIDTH, empty_contacts
from hertz2d.dem.damping import Damping
from hertz2d.dem.energy import TERMS, elastic_energy, gravity_potential, new_ledger
from hertz2d.dem.forces import OK, Forces, compute_forces
from hertz2d.dem.integrate import advance
from hertz2d.dem.laws import FRICTION, POISSON, Law
from hertz2d.dem.observe import contact_statistics
from hertz2d.dem.ordering import strip_order
from hertz2d.dem.state import Discs
from hertz2d.dem.walls import Walls
from hertz2d.checks import InputError, count, positive

#: the default Verlet skin, as a fraction of the largest radius
SKIN = 0.25
#: steps per call of the compiled loop when no output interval is given
CHUNK = 10_000
#: by default the discs are reordered (:mod:`hertz2d.dem.ordering`) at every REORDER_EVERY-th
#: rebuild of the lists: a reorder costs about as much as a rebuild, and between two reorders
#: no disc moves more than REORDER_EVERY/2 skins, so the order stays nearly sorted ...
REORDER_EVERY = 10
#: ... in systems of REORDER_FROM discs or more: in ``benchmarks/dem_size_sweep.py`` a shuffled
#: order of 2000 discs costs no more per disc-step than a sorted one (their arrays fit a core's
#: cache), one of 10 000 more; below, runs stay in their discs' order, bit for bit as before
REORDER_FROM = 5000


class LawFailure(ArithmeticError):
    """A contact left the domain of its law (beyond the largest approach of Eq. 23)."""


class Simulation:
    """One DEM system and its clock, energy ledger and recorded observations.

    Parameters
    ----------
    discs : Discs
        Positions, radii, masses and velocities (:class:`hertz2d.dem.state.Discs`); advanced in place.
    law : Law
        The contact law (:class:`hertz2d.dem.laws.Law`).
    dt : float
        The time step (s).
    walls : Walls, optional
        Straight walls (:class:`hertz2d.dem.walls.Walls`); none by default.
    gravity : tuple of float, optional
        (m/s^2), downward by default.
    damping : Damping, optional
        A contact damping ratio and a local damping coefficient (none by default).
    skin : float, optional
        The Verlet lists' skin (m); a fraction of the largest radius by default.
    reorder : int, optional
        Sort the discs in memory by strips of the neighbour grid (:mod:`hertz2d.dem.ordering`) at
        the start and at every ``reorder``-th rebuild of the lists; 0 never. By default every
        :data:`REORDER_EVERY`-th for :data:`REORDER_FROM` discs or more, else never. The results
        are the same but for rounding (sums taken in another order), and every array the
        simulation shows (``discs``, ``contacts``, ``forces``) is in the original
        order between calls.

    Raises
    ------
    checks.InputError
        Bad input, or an initial overlap beyond the law's largest approach.
    """

    def __init__(self, discs: Discs, law: Law, *, dt: float, walls: Walls | None = None,
                 gravity=(0.0, -9.81), damping: Damping = Damping(), skin: float | None = None,
                 reorder: int | None = None):
        self.discs, self.law, self.damping = discs, law, damping
        self.walls = Walls.none() if walls is None else walls
        self.dt = positive("dt", dt)
        self.gravity = np.asarray(gravity, dtype=float)
        if self.gravity.shape != (2,) or not np.all(np.isfinite(self.gravity)):
            raise InputError(f"gravity={gravity!r} must be two finite numbers")
        self.skin = positive("skin", SKIN * discs.radius.max() if skin is None else skin)
        if reorder is None:
            reorder = REORDER_EVERY if discs.count >= REORDER_FROM else 0
        #: rebuilds of the lists between reorders of the discs (0: never)
        self.reorder = count("reorder", reorder, minimum=0)
        #: the original index of the disc in each memory slot while the compiled loop runs
        self.order = (strip_order(discs.position, 2.0 * discs.radius.max() + self.skin)
                      if self.reorder else np.arange(discs.count))
        self._rebuilds_since_reorder = 0
        self.contacts = empty_contacts(discs, self.walls, self.skin, law, damping.ratio)
        self.forces = Forces.zeros(discs, self.walls)
        self.ledger = new_ledger()
        status = compute_forces(discs, self.walls, self.contacts, self.forces, self.ledger,
                                law.code, law.kernel, law.parameters, damping.ratio,
                                damping.local,
                                self.gravity, self.dt, False)
        if status != OK:
            raise InputError("an initial overlap is beyond the largest approach of the law")
        self.step = 0
        #: the largest contact half-width over the smaller radius seen, and how many contacts
        #: were beyond the calibrated law's fitted a/R at the checks (after every chunk)
        self.largest_contact, self.contacts_beyond, self._warned = 0.0, 0, False
        self._start = {"kinetic": discs.kinetic_energy(), "elastic": self.elastic_energy(),
                       "potential": gravity_potential(discs, self.gravity)}
        self.records: list[dict] = []

    @property
    def time(self) -> float:
        return self.step * self.dt

    def elastic_energy(self) -> float:
        return float(elastic_energy(self.discs, self.walls, self.contacts, self.law.code,
                                    self.law.kernel, self.law.parameters))

    def advance(self, steps: int) -> None:
        """``steps`` steps in one compiled call, recording nothing. With reordering the call
        also moves the state into its slots and back, about the cost of a rebuild of the lists:
        large systems advance best in many steps a call."""
        law, damping = self.law, self.damping
        self.contacts, status, done, self._rebuilds_since_reorder = advance(
            self.discs, self.walls, self.contacts, self.forces, self.ledger, law.code,
            law.kernel, law.parameters, damping.ratio, damping.local, self.gravity, self.dt,
            self.skin, self.order, self.reorder, self._rebuilds_since_reorder, steps)
        self.step += done
        self._watch_contact_sizes()
        if status != OK:
            raise LawFailure(f"at step {self.step} (t = {self.time:.6g} s) a contact passed the "
                             "largest approach of Eq. 23, 4 (R1 + R2)/e^2: the load is beyond "
                             "the law or dt is too large")

    def _watch_contact_sizes(self) -> None:
        """Keep :attr:`largest_contact` and :attr:`contacts_beyond` of the calibrated law, whose
        coefficients say what a/R they were fitted on."""
        ranges = (self.law.coefficients.ranges or {}) if self.law.coefficients else {}
        if "a_over_R" not in ranges:
            return
        radius = self.discs.radius
        pairs, history = self.contacts.pairs, self.contacts.pair_history
        smaller = np.minimum(radius[pairs[:, 0]], radius[pairs[:, 1]])
        sizes = np.r_[history[:, HALF_WIDTH] / smaller,
                      (self.contacts.wall_history[:, :, HALF_WIDTH] / radius).ravel()]
        if sizes.size:
            self.largest_contact = max(self.largest_contact, float(sizes.max()))
            self.contacts_beyond = max(self.contacts_beyond,
                                       int(np.sum(sizes > float(ranges["a_over_R"][1]))))

    def warn_outside_fitted_ranges(self) -> None:
        """One ``hertz2d: warning:`` line (once per simulation) if its contacts left the
        calibrated law's fitted ranges: its materials, and at most how many contacts at once
        went beyond its a/R and how far."""
        coefficients = self.law.coefficients
        if coefficients is None or not coefficients.ranges or self._warned:
            return
        p = self.law.parameters
        material = ContactPair.discs(1.0, 1.0, float(p[POISSON]), float(p[FRICTION]))
        excess = range_excess(coefficients, material, self.largest_contact)
        warn_outside(coefficients, f"{self.contacts_beyond} contact(s) of the DEM run at once "
                     f"(largest a/R {self.largest_contact:.3g})", excess)
        self._warned = bool(excess)

    def run(self, steps: int, output_every: int | None = None,
            progress: bool = False) -> pd.DataFrame:
        """Advance ``steps`` steps and record what the system did.

        Parameters
        ----------
        steps : int
            Steps of ``dt``.
        output_every : int, optional
            Steps between recorded rows; by default only the end is recorded.
        progress : bool, optional
            Show a progress bar on stderr.

        Returns
        -------
        pandas.DataFrame
            One row of :meth:`observe` per interval (time, energies and the ledger, contacts,
            mean stiffnesses, walls); the rows are also appended to :attr:`records`.
        """
        count("steps", steps, minimum=0)
        interval = count("output_every", output_every or min(steps, CHUNK) or 1, minimum=1)
        rows = []
        with tqdm(total=steps, disable=not progress, unit="step", unit_scale=True,
                  desc=self.law.name) as bar:
            done = 0
            while done < steps:
                chunk = min(interval, steps - done)
                self.advance(chunk)
                done += chunk
                bar.update(chunk)
                if output_every is not None or done == steps:
                    rows.append(self.observe())
        self.records.extend(rows)
        self.warn_outside_fitted_ranges()
        return pd.DataFrame(rows)

    def balance(self) -> dict:
        """The energy ledger since the start (:mod:`hertz2d.dem.energy`): every term, the work put in, and
        the residual ``work in - (kinetic + elastic + dissipated)``."""
        terms = dict(zip(TERMS, map(float, self.ledger)))
        kinetic = self.discs.kinetic_energy() - self._start["kinetic"]
        elastic = self.elastic_energy() - self._start["elastic"]
        gravity = self._start["potential"] - gravity_potential(self.discs, self.gravity)
        dissipated = (terms["dashpot"] + terms["local"] + terms["slip"]
                      + terms["stiffness_change"])
        work = terms["wall_work"] + gravity
        return {**terms, "gravity_work": gravity, "work": work, "kinetic_change": kinetic,
                "elastic_change": elastic, "dissipated": dissipated,
                "residual": work - (kinetic + elastic + dissipated)}

    def observe(self) -> dict:
        """One row: time, energies and ledger, contacts, mean stiffnesses, walls."""
        law = self.law
        pairs, walls_touching, kn, kt = contact_statistics(self.discs, self.walls, self.contacts,
                                                           law.code, law.kernel,
                                                           law.parameters)
        row = {"step": self.step, "time": self.time, "kinetic": self.discs.kinetic_energy(),
               "elastic": self.elastic_energy(), **self.balance(), "contacts": pairs,
               "wall_contacts": walls_touching, "mean_kn": kn, "mean_kt": kt}
        stresses = self.walls.stresses()
        for w in range(self.walls.count):
            row[f"wall{w}_x"], row[f"wall{w}_y"] = self.walls.point[w]
            row[f"wall{w}_stress"] = stresses[w]
        return row
