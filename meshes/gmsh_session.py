"""A gmsh API session that always finalises, safe in worker processes and threads."""
from __future__ import annotations

import signal
from contextlib import contextmanager

import gmsh


@contextmanager
def gmsh_session(model_name: str):
    """Initialise gmsh quietly, yield ``gmsh.model`` with a fresh model, finalise on exit.

    ``interruptible=False`` keeps gmsh from installing a SIGINT handler, so a build can run in a
    ``ProcessPoolExecutor`` worker (or a thread) and Ctrl-C still reaches Python. gmsh's
    initialisation also resets SIGPIPE to the C default (terminate the process), which Python
    ignores so that a write to a closed pipe or socket is an exception: a process that had meshed
    (a test process, a dask worker) would die of it when a peer closed a connection. The handler
    Python had is put back.
    """
    sigpipe = signal.getsignal(signal.SIGPIPE) if hasattr(signal, "SIGPIPE") else None
    gmsh.initialize(readConfigFiles=False, interruptible=False)
    if sigpipe is not None:
        try:  # gmsh changed the disposition behind Python's back: install Python's again
            signal.signal(signal.SIGPIPE, sigpipe)
        except ValueError:  # not the main thread: only the main thread may set handlers
            pass
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.option.setNumber("General.Verbosity", 1)
        gmsh.model.add(model_name)
        yield gmsh.model
    finally:
        gmsh.finalize()


def sizes_from_background_field() -> None:
    """Let the background size field alone decide element sizes (Frontal-Delaunay triangles)."""
    for option in ("MeshSizeExtendFromBoundary", "MeshSizeFromPoints", "MeshSizeFromCurvature"):
        gmsh.option.setNumber(f"Mesh.{option}", 0)
    gmsh.option.setNumber("Mesh.Algorithm", 6)
