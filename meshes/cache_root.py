"""Where hertz2d keeps its caches (meshes, finished FEM cases): ``$HERTZ2D_CACHE``, else
``hertz2d`` under ``$XDG_CACHE_HOME`` (default ``~/.cache``).

Apart from the mesh cache (:mod:`hertz2d.meshes.cache`, which needs gmsh) so that the command line checks
the variable before any work without importing gmsh.
"""
from __future__ import annotations

import os
from pathlib import Path

from hertz2d.checks import InputError, no_file_creatable


def _variable() -> tuple[Path, str]:
    """The cache's folder and the words that name the variable it comes from, with its value."""
    variable = "HERTZ2D_CACHE" if os.environ.get("HERTZ2D_CACHE") else "XDG_CACHE_HOME"
    root = Path(os.environ.get("HERTZ2D_CACHE") or Path(
        os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "hertz2d")
    return root, f"{variable}={os.environ.get(variable, str(root))!r} cannot hold the cache"


def _nearest_folder(root: Path, named: str) -> Path:
    existing = root
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise InputError(f"{named}: {str(existing)!r} is a file, not a folder")
    return existing


def cache_root() -> Path:
    """``$HERTZ2D_CACHE``, or ``hertz2d`` under ``$XDG_CACHE_HOME`` (default ``~/.cache``);
    :class:`InputError` naming the variable when it cannot be a folder (a file is in the way)."""
    root, named = _variable()
    _nearest_folder(root, named)
    return root


def check_cache_root() -> Path:
    """:func:`cache_root`, checked before any work: also an :class:`InputError` naming the
    variable and its value when no file can be created where the cache would go (``/proc``, a
    read-only file system). Nothing is left behind."""
    root, named = _variable()
    existing = _nearest_folder(root, named)
    reason = no_file_creatable(existing)
    if reason:
        raise InputError(f"{named}: no file can be created in {str(existing)!r} ({reason})")
    return root
