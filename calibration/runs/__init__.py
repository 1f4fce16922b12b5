"""Run infrastructure shared by every stage: nothing here knows about contact mechanics.

The identity of the code behind a cached result is :func:`hertz2d.meshes.digest.code_digest` (upstream,
because the mesh cache needs it too).

:mod:`~hertz2d.calibration.runs.atomic`
    writers that leave either the old or the new complete file, and output-path checks made
    before any long work.
:mod:`~hertz2d.calibration.runs.store`
    the case store: finished FEM cases in SQLite, checked on open, rebuilt when corrupt.
:mod:`~hertz2d.calibration.runs.executors`
    where independent tasks run (this process, local worker processes, a dask cluster), results
    in completion order, no orphaned workers; :func:`~hertz2d.calibration.runs.executor_choice.open_executor`
    opens the one ``--jobs`` / ``--scheduler`` ask for.
:mod:`~hertz2d.calibration.runs.cluster`
    the dask.distributed executor (imported only when a scheduler is given).
:mod:`~hertz2d.calibration.runs.security`
    the client's TLS certificates for a ``tls://`` scheduler, from dask's configuration, checked
    before it is contacted; a warning for a plain TCP one beyond loopback.
:mod:`~hertz2d.calibration.runs.provenance`
    package versions, machine, date and command line of a run.
"""
