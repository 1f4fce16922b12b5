"""Flags shared by the commands that run FEM tasks (``sweep``, ``validate``, ``all``): where.

``--jobs N`` (local processes) and ``--scheduler ADDRESS`` (a dask.distributed cluster) exclude
each other; :func:`executor_from` opens what they ask for
(:func:`hertz2d.calibration.runs.executor_choice.open_executor`, which also reads ``$HERTZ2D_SCHEDULER``).
"""
from __future__ import annotations

import argparse

from hertz2d.calibration.runs.executor_choice import DEFAULT_JOBS, SCHEDULER_VARIABLE, open_executor
from hertz2d.calibration.runs.executors import Executor


def add_executor_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=int, default=None, metavar="N",
                       help=f"run the FEM tasks in N worker processes on this machine (default "
                            f"{DEFAULT_JOBS}; 1 runs them in this process)")
    where.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="run the FEM tasks on the dask.distributed cluster whose scheduler "
                            "is at ADDRESS (tls://HOST:PORT, or tcp:// on a private network); its workers need hertz2d "
                            "installed, the results and the case store stay on this machine. "
                            f"Default: ${SCHEDULER_VARIABLE} when set and --jobs is not given")


def executor_from(args: argparse.Namespace) -> Executor:
    """The executor ``--jobs`` / ``--scheduler`` ask for (a context manager)."""
    return open_executor(args.jobs, args.scheduler)
