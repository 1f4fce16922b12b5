"""Atomic writers for everything the pipeline puts under a results root (CSV, JSON, text, PNG),
and the check, made before any long work, that an output path can be written at all.

A file is written to a temporary name beside its target and renamed over it, so an interrupted
run leaves either the previous complete file or the new complete file, never half of one.
"""
from __future__ import annotations

import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

from checks import InputError


def check_writable(name: str, path, directory: bool = False) -> Path:
    """Fail early (:class:`InputError` naming ``name=path``) if ``path`` cannot be written.

    ``path`` is a file to write, or with ``directory=True`` a folder to write into; folders that
    do not exist yet must be creatable. The nearest existing folder is probed by creating and
    removing a file in it, which also catches read-only file systems and runs as root.
    """
    path = Path(path)
    if path.exists() and path.is_dir() != directory:
        kind = "a folder" if path.is_dir() else "a file"
        raise InputError(f"{name}={str(path)!r} is {kind}")
    existing = path if directory and path.exists() else path.parent
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise InputError(f"{name}={str(path)!r} cannot be written: {str(existing)!r} is a file")
    try:
        fd, probe = tempfile.mkstemp(prefix=".write-check-", dir=existing)
    except OSError as error:
        raise InputError(f"{name}={str(path)!r} cannot be written ({existing}: "
                         f"{error.strerror})") from None
    os.close(fd)
    os.remove(probe)
    return path


@contextmanager
def atomic_path(path, suffix: str = ""):
    """Yield a temporary path next to ``path``; rename it onto ``path`` if the block succeeds."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=suffix or path.suffix,
                               dir=path.parent)
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; results are ordinary files
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_csv(frame: pd.DataFrame, path, float_format: str | None = None) -> Path:
    """Write ``frame`` (no index) to ``path``, floats in ``float_format`` (e.g. ``%.7g``) if
    given, else to full precision."""
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False, float_format=float_format)
    return Path(path)


def json_default(value):
    """``json.dumps`` fallback: numpy scalars and arrays as plain numbers and lists."""
    return value.tolist() if hasattr(value, "tolist") else str(value)


def write_json(data: dict, path) -> Path:
    """Write ``data`` as indented JSON (numpy scalars and arrays become plain numbers/lists)."""
    return write_text(json.dumps(data, indent=2, default=json_default) + "\n", path)


def write_text(text: str, path) -> Path:
    with atomic_path(path) as tmp:
        tmp.write_text(text)
    return Path(path)


def save_figure(fig, path, dpi: int = 130) -> Path:
    """Save a matplotlib figure as PNG and close it."""
    import matplotlib.pyplot as plt
    try:
        with atomic_path(path, suffix=".png") as tmp:
            fig.savefig(tmp, dpi=dpi)
    finally:
        plt.close(fig)
    return Path(path)
