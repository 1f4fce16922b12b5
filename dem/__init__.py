"""A 2D discrete element engine for discs, the discrete counterpart of :mod:`fem`.

It runs the contact laws of :mod:`calibration.laws` in particle systems: the paper's simplified
model (Section 3.3, Table 1) with any penalty factor, the linear spring and Hertz-Mindlin as 2D
codes apply it. Discs translate and rotate (:mod:`dem.state`, units per unit thickness stated
there); velocity-Verlet integration, many steps per compiled call (:mod:`dem.integrate`); a
Verlet list built with a cell list (:mod:`dem.neighbours`); contacts with their tangential
history carried across list rebuilds (:mod:`dem.contacts`); rigid walls by the mirror rule of
Section 3.2, moving with a prescribed velocity or a stress servo (:mod:`dem.walls`); gravity;
viscous or local damping (:mod:`dem.damping`); an energy ledger (:mod:`dem.energy`). The
verification runs: single impacts (:mod:`dem.impact`) and a disc on an incline
(:mod:`dem.rolling`).

Needs numba (``pip install 'hertz2d[dem]'``); nothing outside this package does.
"""
from dem.damping import PAPER as PAPER_DAMPING
from dem.damping import Damping
from dem.laws import Law
from dem.packing import random_packing
from dem.simulation import LawFailure, Simulation
from dem.state import Discs
from dem.walls import Walls

__all__ = ["Damping", "Discs", "Law", "LawFailure", "PAPER_DAMPING", "Simulation", "Walls",
           "random_packing"]
