"""Single impacts in hertz2d's DEM and in LAMMPS with the plugin, side by side (run:
``python benchmarks/lammps_impacts.py``): the verification table of the simplified law.

Needs the ``lammps`` extra, a C++ compiler and numba. Exports the plugin of the simplified law
(Eq. 33) into a temporary folder and runs the ten impacts of ``tests/test_lammps_plugin.py`` (the
paper's disc, R = 0.035 m, 2700 kg/m^3, E 10 GPa, nu 0.25, mu 0.3, at 1 m/s, dt = 1e-6 s: normal,
30 and 65 degrees on a wall, 0 and 30 degrees between discs, undamped, with dashpots of ratio 0.3
and with local damping 0.7) in both engines, measured alike (``hertz2d.dem.impact.impact`` and
``hertz2d.calibration.export.lammps.impact.lammps_impact``: the contact time, the normal restitution and
the rebound angle of the relative velocity, the disc's spin). The last column is the largest
difference over the four, relative to the scales the tests use (the contact time, 1, the angle
or 1 degree, v/R). Then the closed forms: the law's contact time (the quadrature of
``hertz2d.dem.impact.elastic_contact_time``) and the kinetic energy of an undamped frictionless impact,
the sliding impact's rebound and spin (Coulomb's impulse), and the restitution under local
damping 0.7, sqrt(0.3/1.7).
"""
from __future__ import annotations

import contextlib
import io
import math
import sys
import tempfile
from pathlib import Path

# the project before this folder, whose dem.py would shadow the dem package
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hertz2d.calibration.cli import main as hertz2d  # noqa: E402
from hertz2d.calibration.export.lammps.impact import lammps_impact  # noqa: E402
from hertz2d.calibration.laws.penalty_factor import EQ33  # noqa: E402
from hertz2d.dem import Damping, Law  # noqa: E402
from hertz2d.dem.impact import (check_impact, elastic_contact_time, impact,  # noqa: E402
                        sliding_impact)

E, NU, MU, RADIUS, DENSITY, SPEED, DT = 10e9, 0.25, 0.3, 0.035, 2700.0, 1.0, 1e-6
#: (angle in degrees, on a wall, dashpot ratio, local damping): the tests' impacts
IMPACTS = [(0.0, True, 0.0, 0.0), (30.0, True, 0.0, 0.0), (65.0, True, 0.0, 0.0),
           (0.0, False, 0.0, 0.0), (30.0, False, 0.0, 0.0),
           (0.0, True, 0.3, 0.0), (30.0, True, 0.3, 0.0), (30.0, False, 0.3, 0.0),
           (0.0, True, 0.0, 0.7), (30.0, False, 0.0, 0.7)]


def both(plugin: Path, angle: float, wall: bool, ratio: float = 0.0, local: float = 0.0,
         mu: float = MU):
    """(hertz2d's result, LAMMPS's result) of one impact at equal dt."""
    law, damping = Law.simplified(E, NU, mu, EQ33), Damping(ratio=ratio, local=local)
    steps = check_impact(law, SPEED, angle, RADIUS, DENSITY, DT, wall, damping)
    ours = impact(law, speed=SPEED, angle=angle, wall=wall, dt=DT, damping=damping)
    theirs = lammps_impact(plugin, "law.json", E=E, nu=NU, mu=mu, speed=SPEED, angle=angle,
                           wall=wall, radius=RADIUS, density=DENSITY, dt=DT, steps=steps,
                           ratio=ratio, local=local)
    return law, ours, theirs


def label(angle: float, wall: bool, ratio: float, local: float) -> str:
    damping = (f"ratio {ratio:g}" if ratio else f"local {local:g}" if local else "undamped")
    return f"{angle:g} deg, {'wall' if wall else 'disc'}, {damping}"


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="hertz2d-impacts-") as folder:
        plugin = Path(folder) / "plugin"
        with contextlib.redirect_stdout(io.StringIO()):
            assert hertz2d(["export-law", "--lammps", str(plugin)]) == 0
        print("| impact | contact time (s) hertz2d / LAMMPS | restitution | rebound angle (deg) "
              "| spin (rad/s) | largest relative difference |")
        print("|---|---|---|---|---|---|")
        for angle, wall, ratio, local in IMPACTS:
            _, ours, theirs = both(plugin, angle, wall, ratio, local)
            difference = max(abs(theirs.contact_time - ours.contact_time) / ours.contact_time,
                             abs(theirs.restitution - ours.restitution),
                             abs(theirs.rebound_angle - ours.rebound_angle) / max(angle, 1.0),
                             abs(theirs.spin - ours.spin) / (SPEED / RADIUS))
            print(f"| {label(angle, wall, ratio, local)} | {ours.contact_time:.6e} / "
                  f"{theirs.contact_time:.6e} | {ours.restitution:.6f} / {theirs.restitution:.6f}"
                  f" | {ours.rebound_angle:.4f} / {theirs.rebound_angle:.4f} | {ours.spin:.4f} / "
                  f"{theirs.spin:.4f} | {difference:.2g} |")

        law, ours, theirs = both(plugin, 0.0, True, mu=0.0)
        closed = elastic_contact_time(law, 0.5 * DENSITY * math.pi * RADIUS**2, 2 * SPEED,
                                      RADIUS)
        print(f"\nundamped frictionless normal impact on a wall: contact time / the law's "
              f"{ours.contact_time / closed - 1:+.2e} (hertz2d), "
              f"{theirs.contact_time / closed - 1:+.2e} (LAMMPS); kinetic energy changed by "
              f"{ours.energy_error:.3g} (hertz2d), {theirs.energy_error:.3g} (LAMMPS), which "
              f"differ by {abs(theirs.energy_error / ours.energy_error - 1):.2g} of it")
        _, ours, theirs = both(plugin, 65.0, True)
        angle, spin = sliding_impact(SPEED, 65.0, MU, theirs.restitution, RADIUS, wall=True)
        print(f"sliding impact (65 deg, wall): rebound {theirs.rebound_angle:.4f} deg against "
              f"Coulomb's {angle:.4f}, spin {theirs.spin:.4f} against {spin:.4f} rad/s (the closed "
              "form's lever arm is R, the engines' R - delta)")
        _, ours, theirs = both(plugin, 0.0, True, local=0.7)
        print(f"local damping 0.7: restitution {theirs.restitution:.6f} against sqrt(0.3/1.7) = "
              f"{math.sqrt(0.3 / 1.7):.6f}")


if __name__ == "__main__":
    main()
