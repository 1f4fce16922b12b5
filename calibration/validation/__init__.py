"""Validation of contact laws against the two-disc frictional contact FEM (Section 4.2).

:mod:`~hertz2d.calibration.validation.fem_runs` (cached FEM runs), :mod:`~hertz2d.calibration.validation.verification`
(the FEM against closed forms), :mod:`~hertz2d.calibration.validation.comparison` (every law on the same
paths, error metrics), :mod:`~hertz2d.calibration.validation.figures` (Figs. 11-15),
:mod:`~hertz2d.calibration.validation.stage` (the ``hertz2d validate`` stage);
:mod:`~hertz2d.calibration.validation.domain_checks` (the FEM on a wall, dissimilar discs and any load
path, against :mod:`~hertz2d.calibration.validation.reference_forms` and the half-plane model of
:mod:`~hertz2d.calibration.validation.halfplane`), run inside the stage by
:mod:`~hertz2d.calibration.validation.domain_stage` (with :mod:`~hertz2d.calibration.validation.domain_figures`);
:mod:`~hertz2d.calibration.validation.stick_zone_term` (Eq. 26's stick-zone term in three forms) and
:mod:`~hertz2d.calibration.validation.corrections` (the numbers behind the report's corrected statements);
:mod:`~hertz2d.calibration.validation.map` (the validity map: every law against the FEM over a declared
space of contacts, ``hertz2d map``).
"""
