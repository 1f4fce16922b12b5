"""What the paper's "contact damping 0.7" changes (run: ``python benchmarks/dem_damping.py``).

Not a timing: the sensitivity of the two readings of Section 4.3's damping (see
:mod:`hertz2d.dem.damping`), printed as tables.

1. Normal restitution of one impact (a disc at 1 m/s on a wall, the paper's material; dt = 1e-7
   so the time step does not blur it), measured and from the closed forms: viscous damping ratio
   zeta (``exp(-zeta pi / sqrt(1 - zeta^2))`` for the linear spring) and local damping alpha
   (``sqrt((1 - alpha)/(1 + alpha))``), for the linear spring and the paper's law.
2. The settling of the paper's packing (200 discs, simplified law with Eq. 33's w, dt = 1e-5 s):
   the ratio of kinetic to contact (elastic) energy, the paper's Fig. 17a quantity, and the bed's
   height after 1, 2 and 5 s, for each damping.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hertz2d.dem import Damping, Discs, Law, Simulation, Walls, random_packing  # noqa: E402
from hertz2d.dem.impact import DENSITY, RADIUS, impact, spring_dashpot, spring_local_damping  # noqa

LINEAR = Law.linear(2.7e9, 1.5e9, 0.3)
PAPER_LAW = Law.simplified(10e9, 0.25, 0.3)
DAMPINGS = [Damping(local=0.7), Damping(local=0.3), Damping(ratio=0.7), Damping(ratio=0.3),
            Damping(ratio=0.05)]


def restitution_table() -> None:
    mass = DENSITY * math.pi * RADIUS**2
    print("Normal restitution of a 1 m/s impact on a wall (dt = 1e-7 s)")
    print(f"{'damping':<22} {'linear: measured':>17} {'closed form':>12} "
          f"{'paper law: measured':>20}")
    for damping in [Damping()] + DAMPINGS:
        linear = impact(LINEAR, speed=1.0, wall=True, dt=1e-7, damping=damping).restitution
        paper = impact(PAPER_LAW, speed=1.0, wall=True, dt=1e-7, damping=damping).restitution
        if damping.local:
            closed = spring_local_damping(2 * 2.7e9, mass, damping.local)[1]
        else:
            closed = spring_dashpot(2 * 2.7e9, mass, damping.ratio)[1]
        print(f"{damping.label:<22} {linear:>17.4f} {closed:>12.4f} {paper:>20.4f}")


def settling_table() -> None:
    print("\nSettling of the paper's packing (simplified law, Eq. 33): kinetic / elastic energy "
          "and bed height (m)")
    times = (1.0, 2.0, 5.0)
    print(f"{'damping':<22} " + " ".join(f"{'KE/U at %g s' % t:>13} {'height':>7}"
                                          for t in times))
    centres, radii = random_packing(200, 0.06, 0.08, 1.0, 1.5, seed=1)
    for damping in DAMPINGS:
        run = Simulation(Discs.from_arrays(centres, radii, DENSITY), PAPER_LAW, dt=1e-5,
                         walls=Walls.box(1.0, 1.5), damping=damping)
        cells = []
        for t in times:
            run.advance(int(round((t - run.time) / 1e-5)))
            ratio = run.discs.kinetic_energy() / run.elastic_energy()
            height = (run.discs.position[:, 1] + run.discs.radius).max()
            cells.append(f"{ratio:>13.2e} {height:>7.3f}")
        print(f"{damping.label:<22} " + " ".join(cells))


if __name__ == "__main__":
    restitution_table()
    settling_table()
