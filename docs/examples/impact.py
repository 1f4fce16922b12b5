"""A disc dropped on a rigid wall in hertz2d's DEM, against the closed forms.

The paper's disc (R = 0.035 m, 2700 kg/m^3, E 10 GPa, nu 0.25, mu 0.3) hits a wall at 1 m/s with
the paper's simplified law (Table 1, Eq. 33's penalty factor):

1. undamped and head-on: the contact time against the law's own integral
   ``2 int d(delta) / sqrt(v^2 - 2 U(delta) / m)`` and the energy ledger's residual;
2. with local damping 0.7 (the reading of the paper's "contact damping is 0.7"): the restitution
   against ``sqrt((1 - alpha) / (1 + alpha))``, which holds for any elastic law;
3. at 65 degrees from the normal, where the disc slides throughout: the rebound angle and spin
   against the Coulomb impulse (the spin's closed form takes the lever arm R; the DEM's is the
   distance to the contact point, R minus the overlap, which moves the spin by about 1e-3).

Run it: ``python docs/examples/impact.py`` (needs numba, the ``dem`` extra).
"""
import math

from hertz2d.dem import Damping, Law
from hertz2d.dem.impact import DENSITY, RADIUS, elastic_contact_time, impact, sliding_impact

SPEED, DT = 1.0, 1e-7
LAW = Law.simplified(10e9, 0.25, 0.3)  # Table 1 with Eq. 33's w
MASS = DENSITY * math.pi * RADIUS**2    # per unit thickness, kg/m


def rows() -> list[tuple[str, float, float]]:
    """``(quantity, hertz2d's DEM, closed form)`` for the three impacts."""
    head_on = impact(LAW, speed=SPEED, dt=DT)
    # a wall is a disc's mirror image: twice the approach, the disc's own mass (Section 3.2)
    exact_time = elastic_contact_time(LAW, 0.5 * MASS, 2.0 * SPEED, RADIUS)
    damped = impact(LAW, speed=SPEED, dt=DT, damping=Damping(local=0.7))
    oblique = impact(LAW, speed=SPEED, angle=65.0, dt=1e-6)
    coulomb = sliding_impact(SPEED, 65.0, mu=0.3, restitution=oblique.restitution,
                             radius=RADIUS, wall=True)
    return [("contact time (s), undamped", head_on.contact_time, exact_time),
            ("energy error of the ledger, undamped", head_on.energy_error, 0.0),
            ("restitution, local damping 0.7", damped.restitution, math.sqrt(0.3 / 1.7)),
            ("rebound angle (deg), 65 deg, sliding", oblique.rebound_angle, coulomb[0]),
            ("spin (rad/s), 65 deg, sliding", oblique.spin, coulomb[1])]


if __name__ == "__main__":
    print(f"{'quantity':<38} {'DEM':>12} {'closed form':>12}")
    for name, dem_value, closed in rows():
        print(f"{name:<38} {dem_value:>12.6g} {closed:>12.6g}")
