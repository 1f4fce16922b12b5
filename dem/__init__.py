"""A 2D discrete element engine for discs, the discrete counterpart of :mod:`hertz2d.fem`.

It runs the contact laws of :mod:`hertz2d.calibration.laws` in particle systems: the paper's simplified
model (Section 3.3, Table 1) with any penalty factor, the linear spring and Hertz-Mindlin as 2D
codes apply it. Discs translate and rotate (:mod:`hertz2d.dem.state`, units per unit thickness stated
there); velocity-Verlet integration, many steps per compiled call (:mod:`hertz2d.dem.integrate`); a
Verlet list built with a cell list (:mod:`hertz2d.dem.neighbours`); contacts with their tangential
history carried across list rebuilds (:mod:`hertz2d.dem.contacts`); rigid walls by the mirror rule of
Section 3.2, moving with a prescribed velocity or a stress servo (:mod:`hertz2d.dem.walls`); gravity;
viscous or local damping (:mod:`hertz2d.dem.damping`); an energy ledger (:mod:`hertz2d.dem.energy`). The
verification runs: single impacts (:mod:`hertz2d.dem.impact`) and a disc on an incline
(:mod:`hertz2d.dem.rolling`).

Needs numba (``pip install 'hertz2d[dem]'``); nothing outside this package does.
"""
from hertz2d.dem.damping import PAPER as PAPER_DAMPING
from hertz2d.dem.damping import Damping
from hertz2d.dem.laws import Law
from hertz2d.dem.packing import random_packing
from hertz2d.dem.simulation import LawFailure, Simulation
from hertz2d.dem.state import Discs
from hertz2d.dem.walls import Walls

__all__ = ["Damping", "Discs", "Law", "LawFailure", "PAPER_DAMPING", "Simulation", "Walls",
           "random_packing"]
