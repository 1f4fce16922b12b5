"""Run infrastructure shared by every stage: nothing here knows about contact mechanics.

The identity of the code behind a cached result is :func:`meshes.digest.code_digest` (upstream,
because the mesh cache needs it too).

:mod:`~calibration.runs.atomic`
    writers that leave either the old or the new complete file, and output-path checks made
    before any long work.
:mod:`~calibration.runs.store`
    the case store: finished FEM cases in SQLite, checked on open, rebuilt when corrupt.
:mod:`~calibration.runs.parallel`
    independent tasks in worker processes, results in completion order, no orphaned workers.
:mod:`~calibration.runs.provenance`
    package versions, machine, date and command line of a run.
"""
