"""Validation of contact laws against the two-disc frictional contact FEM (Section 4.2).

:mod:`~calibration.validation.fem_runs` (cached FEM runs), :mod:`~calibration.validation.verification`
(the FEM against closed forms), :mod:`~calibration.validation.comparison` (every law on the same
paths, error metrics), :mod:`~calibration.validation.figures` (Figs. 11-15),
:mod:`~calibration.validation.stage` (the ``hertz2d validate`` stage);
:mod:`~calibration.validation.domain_checks` (the FEM on a wall, dissimilar discs and any load
path, against :mod:`~calibration.validation.reference_forms` and the half-plane model of
:mod:`~calibration.validation.halfplane`), run inside the stage by
:mod:`~calibration.validation.domain_stage` (with :mod:`~calibration.validation.domain_figures`);
:mod:`~calibration.validation.stick_zone_term` (Eq. 26's stick-zone term in three forms) and
:mod:`~calibration.validation.corrections` (the numbers behind the report's corrected statements);
:mod:`~calibration.validation.map` (the validity map: every law against the FEM over a declared
space of contacts, ``hertz2d map``).
"""
