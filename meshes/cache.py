"""A cache of gmsh ``.msh`` files keyed by everything that determines them.

The key hashes the builder's name, its parameters, the gmsh version and the source text of the
module that builds the geometry, so editing a geometry invalidates its cached meshes. Files are
written to a temporary name and renamed, so concurrent workers and a killed run never leave a
half-written mesh behind. The directory is ``$HERTZ2D_CACHE`` or ``~/.cache/hertz2d``.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import os
import tempfile
from pathlib import Path
from typing import Callable

import gmsh
import meshio


def cache_root() -> Path:
    """``$HERTZ2D_CACHE``, or ``hertz2d`` under ``$XDG_CACHE_HOME`` (default ``~/.cache``)."""
    root = os.environ.get("HERTZ2D_CACHE") or Path(
        os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "hertz2d"
    return Path(root)


def cache_dir() -> Path:
    path = cache_root() / "meshes"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _key(builder: Callable, params: dict) -> str:
    source = inspect.getsource(inspect.getmodule(builder))
    blob = json.dumps({"builder": builder.__qualname__, "params": params,
                       "gmsh": gmsh.__version__, "source": source}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def cached_mesh(builder: Callable[..., None], **params) -> meshio.Mesh:
    """Return the meshio mesh that ``builder(path, **params)`` writes, building it once.

    ``builder`` writes a ``.msh`` file to the path it is given; it runs only on a cache miss.
    """
    target = cache_dir() / f"{builder.__name__}-{_key(builder, params)}.msh"
    if not target.exists():
        fd, tmp = tempfile.mkstemp(suffix=".msh", dir=target.parent)
        os.close(fd)
        try:
            builder(tmp, **params)
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
    return meshio.read(target, file_format="gmsh")
