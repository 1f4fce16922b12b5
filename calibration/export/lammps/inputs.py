"""LAMMPS data files and input lines for discs with the hertz2d plugin.

:func:`write_data` writes discs as an ``atom_style sphere`` data file (atom k + 1 is disc k, every
number to the last digit); :func:`disc_lines` is the input that runs them as hertz2d's DEM does:
units si, dimension 2, the plugin's pair style with one material, disc masses per unit thickness
(``set ... density/disc``: rho pi r^2) and inertia m r^2/2 (``fix nve/sphere disc``), velocity
Verlet, ghost velocities for the contacts between ranks; then walls, gravity and local damping in
the order the forces must be added (local damping sees the whole unbalanced force, so it is last).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: the walls of a box by hertz2d's DEM numbering (hertz2d.dem.walls.Walls.box: bottom, right, top, left)
BOX_SIDES = ("ylo", "xhi", "yhi", "xlo")


def number(x) -> str:
    """``x`` as LAMMPS reads it back exactly."""
    return repr(float(x))


def write_data(path, centres, radii, density: float, box, velocities=None) -> Path:
    """A data file of discs (``box`` = xlo, xhi, ylo, yhi; ``velocities`` rows vx, vy, omega)."""
    xlo, xhi, ylo, yhi = map(number, box)
    lines = ["hertz2d discs", "", f"{len(radii)} atoms", "1 atom types", "",
             f"{xlo} {xhi} xlo xhi", f"{ylo} {yhi} ylo yhi", "-0.5 0.5 zlo zhi", "",
             "Atoms # sphere", ""]
    lines += [f"{k + 1} 1 {number(2.0 * r)} {number(density)} {number(x)} {number(y)} 0.0"
              for k, ((x, y), r) in enumerate(zip(centres, radii))]
    if velocities is not None:
        lines += ["", "Velocities", ""]
        lines += [f"{k + 1} {number(vx)} {number(vy)} 0.0 0.0 0.0 {number(w)}"
                  for k, (vx, vy, w) in enumerate(velocities)]
    Path(path).write_text("\n".join(lines) + "\n")
    return Path(path)


@dataclass(frozen=True)
class DiscSystem:
    """What the input says about the discs' physics (SI units, per unit thickness)."""

    E: float
    nu: float
    mu: float
    density: float
    dt: float
    #: the Verlet skin, m
    skin: float
    #: dashpot damping ratio and local damping coefficient (hertz2d.dem.damping.Damping's)
    ratio: float = 0.0
    local: float = 0.0
    #: gravity along -y, m/s^2
    gravity: float = 0.0
    #: walls: side -> position, among BOX_SIDES (they are given to the fix in that order)
    walls: tuple[tuple[str, float], ...] = ()


def disc_lines(plugin_folder, law_file: str, system: DiscSystem, data, boundary: str = "f f p",
               load_plugin: bool = True) -> list[str]:
    """The input lines (module docstring) that run the data file ``data`` with the plugin of
    ``plugin_folder`` (``plugin load`` first with ``load_plugin``). The walls' fix is
    ``walls``."""
    folder = Path(plugin_folder).resolve()
    s = system
    lines = ["units si", "dimension 2", "atom_style sphere", "atom_modify map array",
             f"boundary {boundary}", "comm_modify vel yes", f"read_data {Path(data).resolve()}",
             f"set group all density/disc {number(s.density)}",
             f"pair_style hertz2d {folder / law_file} damping {number(s.ratio)}",
             f"pair_coeff * * {number(s.E)} {number(s.nu)} {number(s.mu)}",
             "fix integrate all nve/sphere disc"]
    if load_plugin:
        lines.insert(0, f"plugin load {folder / 'hertz2dplugin.so'}")
    if s.gravity:
        lines.append(f"fix gravity all gravity {number(s.gravity)} vector 0 -1 0")
    if s.walls:
        ordered = sorted(s.walls, key=lambda wall: BOX_SIDES.index(wall[0]))
        sides = " ".join(f"{side} {number(position)}" for side, position in ordered)
        lines.append(f"fix walls all wall/hertz2d {number(s.mu)} {sides}")
    lines.append("fix plane all enforce2d")
    if s.local:
        lines.append(f"fix local all damping/hertz2d {number(s.local)}")
    lines += [f"timestep {number(s.dt)}", f"neighbor {number(s.skin)} bin",
              "neigh_modify delay 0 every 1 check yes"]
    return lines


def plugin_lines(plugin_folder, law_file: str) -> list[str]:
    """The LAMMPS lines that use the plugin of ``plugin_folder``, with the values to fill in as
    UPPER-CASE names (what ``hertz2d export-law --lammps`` prints)."""
    folder = Path(plugin_folder).resolve()
    return ["# units si, dimension 2, atom_style sphere, comm_modify vel yes, and after the discs:",
            "#   set group all density/disc RHO and fix ID all nve/sphere disc",
            f"plugin load {folder / 'hertz2dplugin.so'}",
            f"pair_style hertz2d {folder / law_file} damping ZETA",
            "pair_coeff * * E NU MU",
            "fix walls all wall/hertz2d MU ylo Y0 xhi X1 yhi Y1 xlo X0    # optional",
            "fix local all damping/hertz2d ALPHA    # optional, after gravity and the walls",
            "compute contact all hertz2d/contact    # optional: a row per contact, dump local"]
