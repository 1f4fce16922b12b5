"""The executor that ``--jobs`` / ``--scheduler`` / ``$HERTZ2D_SCHEDULER`` ask for.

Kept apart from :mod:`hertz2d.calibration.runs.executors` (the local executors) and
:mod:`hertz2d.calibration.runs.cluster` (the dask one, which needs the optional ``cluster`` extra) so that
neither imports the other: this module is the one place that knows both.
"""
from __future__ import annotations

import os

from hertz2d.calibration.runs.executors import Executor, Inline, LocalPool
from hertz2d.checks import InputError, count

#: the environment variable that names a dask scheduler when neither --jobs nor --scheduler is given
SCHEDULER_VARIABLE = "HERTZ2D_SCHEDULER"
#: local worker processes when neither --jobs nor a scheduler is given
DEFAULT_JOBS = 2
#: the most local worker processes per CPU: the FEM is single-threaded, so more only share the
#: CPUs, while each holds its own meshes and solver (0.2 GB, up to 1 GB at the finest levels)
MAX_JOBS_PER_CPU = 4


def open_executor(jobs: int | None = None, scheduler: str | None = None) -> Executor:
    """The executor that ``--jobs`` / ``--scheduler`` ask for; use it as ``with ... as executor``.

    ``scheduler`` (``tcp://HOST:PORT``) sends the tasks to the dask.distributed cluster it names;
    with neither argument, ``$HERTZ2D_SCHEDULER`` does when it is set; otherwise ``jobs`` local
    processes (default :data:`DEFAULT_JOBS`, at most :data:`MAX_JOBS_PER_CPU` per CPU; 1 runs
    the tasks in this process). An explicit ``jobs`` therefore overrides the environment
    variable. A bad ``jobs``, or a scheduler that does not answer within a few seconds, raises
    :class:`InputError` naming it.
    """
    if jobs is not None and scheduler is not None:
        raise InputError(f"jobs={jobs!r} and scheduler={scheduler!r} exclude each other; give one")
    name = "scheduler"
    if jobs is None and scheduler is None and os.environ.get(SCHEDULER_VARIABLE):
        name, scheduler = SCHEDULER_VARIABLE, os.environ[SCHEDULER_VARIABLE]
    if scheduler is None:
        cpus = os.cpu_count() or 1
        jobs = count("jobs", DEFAULT_JOBS if jobs is None else jobs,
                     maximum=cpus * MAX_JOBS_PER_CPU,
                     why=f"{MAX_JOBS_PER_CPU} worker processes per CPU, {cpus} CPUs here: more "
                         "only share the CPUs, and each holds its own FEM, up to 1 GB")
        return Inline() if jobs == 1 else LocalPool(jobs)
    try:
        from hertz2d.calibration.runs.cluster import DaskCluster
    except ImportError as error:
        raise InputError(f"{name}={scheduler!r} needs dask.distributed ({error}); install it "
                         "with pip install 'hertz2d[cluster]'") from None
    return DaskCluster.connect(scheduler, name)
