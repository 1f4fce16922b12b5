"""A gmsh API session that always finalises, safe in worker processes and threads."""
from __future__ import annotations

from contextlib import contextmanager

import gmsh


@contextmanager
def gmsh_session(model_name: str):
    """Initialise gmsh quietly, yield ``gmsh.model`` with a fresh model, finalise on exit.

    ``interruptible=False`` keeps gmsh from installing a SIGINT handler, so a build can run in a
    ``ProcessPoolExecutor`` worker (or a thread) and Ctrl-C still reaches Python.
    """
    gmsh.initialize(readConfigFiles=False, interruptible=False)
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
