"""The validity map: every contact law against the two-body FEM over a declared space of contacts.

:mod:`~calibration.validation.map.spec` (the TOML axes and the FEM paths they expand to),
:mod:`~calibration.validation.map.runs` (the FEM paths, cached and parallel, failures recorded),
:mod:`~calibration.validation.map.errors` (every law on every case: the tidy error table),
:mod:`~calibration.validation.map.regions` (where each law holds, mesh and step convergence),
:mod:`~calibration.validation.map.figures` (heatmaps), :mod:`~calibration.validation.map.stage`
(the ``hertz2d map`` stage).
"""
