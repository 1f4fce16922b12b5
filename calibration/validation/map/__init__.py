"""The validity map: every contact law against the two-body FEM over a declared space of contacts.

:mod:`~hertz2d.calibration.validation.map.spec` (the TOML axes and the FEM paths they expand to),
:mod:`~hertz2d.calibration.validation.map.runs` (the FEM paths, cached and parallel, failures recorded),
:mod:`~hertz2d.calibration.validation.map.errors` (every law on every case: the tidy error table),
:mod:`~hertz2d.calibration.validation.map.regions` (where each law holds, mesh and step convergence),
:mod:`~hertz2d.calibration.validation.map.figures` (heatmaps), :mod:`~hertz2d.calibration.validation.map.stage`
(the ``hertz2d map`` stage).
"""
