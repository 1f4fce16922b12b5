"""Atomic writers for everything the pipeline puts under a results root (CSV, JSON, text, PNG),
and the check, made before any long work, that an output path can be written at all.

A file is written to a temporary name beside its target and renamed over it, so an interrupted
run leaves either the previous complete file or the new complete file, never half of one. A set
of files that belong together (a stage's tables and figures, an exported law's folder) is written
inside :func:`together`: every file goes to its temporary name first and all are renamed into
place only when the last one is written, so a full disk or Ctrl-C midway leaves the previous set
(or none), never some new files beside old ones. The temporaries sit beside their targets rather
than in a folder swapped in whole, because a folder may hold other files (the penalty stage's
``penalty/`` is written by two commands; ``export-law --out`` may name the user's own folder).

A write that fails (disk full, permission, quota) raises :class:`OSError` naming the target file,
never the temporary one. A run killed outright (SIGKILL) cannot remove its temporaries; the next
write of the same file does (:func:`remove_orphans`).
"""
from __future__ import annotations

import contextvars
import functools
import glob
import os
import re
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from hertz2d.calibration.runs import json_file
from hertz2d.checks import InputError, no_file_creatable


def check_writable(name: str, path, directory: bool = False) -> Path:
    """Fail early (:class:`InputError` naming ``name=path``) if ``path`` cannot be written.

    ``path`` is a file to write, or with ``directory=True`` a folder to write into; folders that
    do not exist yet must be creatable. The nearest existing folder is probed by creating and
    removing a file in it, which also catches read-only file systems and runs as root. An empty
    name is refused (``Path("")`` would be the current folder).
    """
    if not str(path).strip():
        raise InputError(f"{name}={str(path)!r} is empty: give a file or folder name")
    path = Path(path)
    if path.exists() and path.is_dir() != directory:
        kind = "a folder" if path.is_dir() else "a file"
        raise InputError(f"{name}={str(path)!r} is {kind}")
    existing = path if directory and path.exists() else path.parent
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise InputError(f"{name}={str(path)!r} cannot be written: {str(existing)!r} is a file")
    reason = no_file_creatable(existing)
    if reason:
        raise InputError(f"{name}={str(path)!r} cannot be written: no file can be created in "
                         f"{str(existing)!r} ({reason})")
    return path


#: a temporary older than this (s) is an orphan whatever its name says (a day: no single file
#: takes that long to write)
ORPHAN_AGE = 86400.0

#: the open :func:`together` block's pending renames ``(temporary, target)``, or None
_PENDING: contextvars.ContextVar[list | None] = contextvars.ContextVar("pending", default=None)


@contextmanager
def together():
    """Files written (by :func:`atomic_path` and the writers below) inside the block appear
    together when it ends, or not at all if it raises. A block inside another joins it."""
    if _PENDING.get() is not None:
        yield
        return
    pending: list[tuple[str, Path]] = []
    token = _PENDING.set(pending)
    try:
        yield
        for tmp, path in pending:
            os.replace(tmp, path)
    finally:
        _PENDING.reset(token)
        for tmp, _ in pending:
            if os.path.exists(tmp):
                os.remove(tmp)


def writes_together(function):
    """Decorate a stage: the files ``function`` writes appear together when it returns
    (:func:`together`), or none of them if it raises."""
    @functools.wraps(function)
    def in_one_set(*args, **kwargs):
        with together():
            return function(*args, **kwargs)
    return in_one_set


@contextmanager
def atomic_path(path, suffix: str = ""):
    """Yield a temporary path next to ``path``; rename it onto ``path`` if the block succeeds
    (at the end of the enclosing :func:`together` block, if any)."""
    path = Path(path)
    suffix = suffix or path.suffix
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_orphans(path, suffix)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.{os.getpid()}-", suffix=suffix,
                                   dir=path.parent)
    except OSError as error:
        raise _naming(error, path) from None
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; results are ordinary files
    pending, handed_on = _PENDING.get(), False
    try:
        try:
            yield Path(tmp)
        except OSError as error:
            raise _naming(error, path) from None
        if pending is None:
            os.replace(tmp, path)
        else:
            pending.append((tmp, path))
            handed_on = True
    finally:
        if not handed_on and os.path.exists(tmp):
            os.remove(tmp)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def remove_orphans(path: Path, suffix: str) -> None:
    """Remove the temporaries of ``path`` left by a run that was killed before it could rename
    or remove them (SIGKILL, a power cut): those whose writer (the process id in the name,
    ``.<stem>.<pid>-<random><suffix>``) is gone, and any older than :data:`ORPHAN_AGE` (a
    process id reused since, a name without one). A running writer's temporaries are kept, so
    two runs into one folder do not disturb each other."""
    named = re.compile(rf"\.{re.escape(path.stem)}\.(?:(\d+)-)?[a-z0-9_]+{re.escape(suffix)}")
    now = time.time()
    for candidate in path.parent.glob(f".{glob.escape(path.stem)}.*{glob.escape(suffix)}"):
        found = named.fullmatch(candidate.name)
        if found is None:
            continue
        try:
            stale = now - candidate.stat().st_mtime > ORPHAN_AGE
            if stale or (found.group(1) and not _alive(int(found.group(1)))):
                candidate.unlink()
        except FileNotFoundError:  # another run removed it first
            pass


def _naming(error: OSError, path: Path) -> OSError:
    """``error`` (raised while writing ``path`` or its temporary) as an OSError naming ``path``:
    the user never sees, and cannot act on, the temporary's name."""
    return type(error)(error.errno, error.strerror or str(error), str(path))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_csv(frame, path, float_format: str | None = None) -> Path:
    """Write the DataFrame ``frame`` (no index) to ``path``, floats in ``float_format`` (e.g.
    ``%.7g``) if given, else to full precision."""
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False, float_format=float_format)
    return Path(path)


def write_json(data: dict, path) -> Path:
    """Write ``data`` as indented strict JSON (:func:`hertz2d.calibration.runs.json_file.dumps`: a
    number that is not finite becomes null, numpy scalars and arrays plain numbers and lists)."""
    return write_text(json_file.dumps(data, indent=2) + "\n", path)


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
