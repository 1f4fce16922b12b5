"""The penalty-factor stage: half-round FEM cases -> Eq. 20 inversion -> Eq. 33 refit, Figs. 7-9.

:mod:`~calibration.penalty.spec` (the TOML studies and the cases they expand to; shipped specs in
``specs/``), :mod:`~calibration.penalty.cases` (one mesh's cases solved: the worker task),
:mod:`~calibration.penalty.sweep` (every case, parallel, resumable), :mod:`~calibration.penalty.regression`
(the Eq. 33 refit and the constant-w errors), :mod:`~calibration.penalty.figures` (Figs. 7-9 and
the mesh convergence), :mod:`~calibration.penalty.stage` (``hertz2d sweep`` and ``hertz2d fit``);
the disc held by K contacts: :mod:`~calibration.penalty.confined_cases` (its spec table and worker
task), :mod:`~calibration.penalty.confined` (its sweep table and summary).
"""
