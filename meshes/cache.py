"""A cache of gmsh ``.msh`` files keyed by everything that determines them.

The key hashes the builder's name, its parameters, the gmsh version and the source of every
project module the builder's module imports (:func:`hertz2d.meshes.digest.code_digest`), so editing a
geometry, or the gmsh session it runs in, invalidates its cached meshes. A mesh is built under a
temporary name (``.partial-*.msh``) and renamed, so concurrent workers and a killed run never
leave a half-written mesh under a cache name; partial files older than an hour are removed.

A cached file is parsed and checked (points, triangles, the builder's physical groups) every time
it is read. One that fails (truncated, empty, garbage) is moved aside to ``*.msh.corrupt`` with a
one-line warning and rebuilt. The directory is ``$HERTZ2D_CACHE/meshes`` (default
``~/.cache/hertz2d/meshes``).
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import time
from pathlib import Path
from typing import Callable

import gmsh
import meshio
import meshio.gmsh

from hertz2d.meshes.cache_root import cache_root
from hertz2d.meshes.digest import code_digest

log = logging.getLogger("hertz2d")

#: partial files older than this (s) belong to a build that was killed
STALE_PARTIAL = 3600.0


def cache_dir() -> Path:
    path = cache_root() / "meshes"
    path.mkdir(parents=True, exist_ok=True)
    now = time.time()
    for partial in path.glob(".partial-*.msh"):
        try:
            if now - partial.stat().st_mtime > STALE_PARTIAL:
                partial.unlink()
        except FileNotFoundError:  # another process cleaned it up first
            pass
    return path


def _key(builder: Callable, params: dict) -> str:
    blob = json.dumps({"builder": builder.__qualname__, "params": params,
                       "gmsh": gmsh.__version__, "code": code_digest(builder.__module__)},
                      sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


class CorruptMesh(ValueError):
    """A cached mesh file that does not parse or lacks what its builder writes."""


def read_checked(path: Path) -> meshio.Mesh:
    """Parse a ``.msh`` file; :class:`CorruptMesh` unless it has points, triangles and groups."""
    try:  # gmsh's reader itself: meshio.read would print and sys.exit on a damaged file
        mesh = meshio.gmsh.read(path)
    except Exception as error:  # it raises many types on a damaged file
        raise CorruptMesh(f"{type(error).__name__}: {error}") from None
    if not len(mesh.points) or "triangle" not in mesh.cells_dict or not mesh.field_data:
        raise CorruptMesh("no points, triangles or physical groups")
    return mesh


def _build(builder: Callable[..., None], target: Path, params: dict) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".partial-", suffix=".msh", dir=target.parent)
    os.close(fd)
    try:
        builder(tmp, **params)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def cached_mesh(builder: Callable[..., None], **params) -> meshio.Mesh:
    """Return the meshio mesh that ``builder(path, **params)`` writes, building it once.

    ``builder`` writes a ``.msh`` file to the path it is given; it runs only on a cache miss or
    when the cached file is corrupt.
    """
    target = cache_dir() / f"{builder.__name__}-{_key(builder, params)}.msh"
    if target.exists():
        try:
            return read_checked(target)
        except CorruptMesh as error:
            aside = target.with_name(target.name + ".corrupt")
            target.replace(aside)
            log.warning(f"cached mesh {target.name} is unreadable ({error}); moved to "
                        f"{aside.name}, rebuilding")
    _build(builder, target, params)
    return read_checked(target)
