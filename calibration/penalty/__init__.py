"""The penalty-factor stage: half-round FEM cases -> Eq. 20 inversion -> Eq. 33 refit, Figs. 7-9.

:mod:`~hertz2d.calibration.penalty.spec` (the TOML studies and the cases they expand to; shipped specs in
``specs/``), :mod:`~hertz2d.calibration.penalty.cases` (one mesh's cases solved: the worker task),
:mod:`~hertz2d.calibration.penalty.sweep` (every case, parallel, resumable), :mod:`~hertz2d.calibration.penalty.regression`
(the Eq. 33 refit and the constant-w errors), :mod:`~hertz2d.calibration.penalty.figures` (Figs. 7-9 and
the mesh convergence), :mod:`~hertz2d.calibration.penalty.stage` (``hertz2d sweep`` and ``hertz2d fit``);
the disc held by K contacts: :mod:`~hertz2d.calibration.penalty.confined_cases` (its spec table and worker
task), :mod:`~hertz2d.calibration.penalty.confined` (its sweep table and summary).
"""
