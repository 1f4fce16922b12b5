"""An export folder that appears whole or not at all, whatever stops the export.

``hertz2d export-law --lammps DIR`` writes the law, the plugin's sources and the compiled plugin
into a hidden folder beside DIR (:func:`staged_folder`: ``.DIR.<pid>-<random>.build``) and moves
them onto DIR only when all are written: a new DIR by one rename, an existing one file by file
(each file replaced in one step, so DIR holds the previous export or the new one, never a
mixture of a new law with an old plugin, except for the moment of those renames). Ctrl-C
(SIGINT) and SIGTERM remove the hidden folder and stop the compiler; SIGKILL cannot be caught,
so the next export beside DIR removes what a killed one left (:func:`remove_leftovers`).

The compiler (:func:`run_compiler`) runs in a process group of its own under a small supervisor
process: the supervisor kills the group when this process is interrupted, and when this process
dies (Linux's parent-death signal), so no compiler runs on after its export was stopped.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from hertz2d.calibration.runs.atomic import ORPHAN_AGE, _alive

#: runs the command of its arguments after the first (this process's pid) in its own process
#: group and kills the group on SIGTERM, which it also receives when this process dies
SUPERVISOR = r"""
import ctypes, os, signal, subprocess, sys
signal.signal(signal.SIGTERM, lambda *_: os.killpg(0, signal.SIGKILL))
try:
    ctypes.CDLL(None).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG (Linux)
except (AttributeError, OSError):
    pass
if os.getppid() != int(sys.argv[1]):  # the export died before the line above
    os.killpg(0, signal.SIGKILL)
sys.exit(subprocess.call(sys.argv[2:]))
"""


def run_compiler(command: list[str]) -> subprocess.CompletedProcess:
    """``command`` run to completion under the supervisor (module docstring), its output
    captured; the whole process group is killed if this call is interrupted."""
    process = subprocess.Popen([sys.executable, "-c", SUPERVISOR, str(os.getpid()), *command],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        out, err = process.communicate()
    except BaseException:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
        raise
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def _leftover_pattern(target: Path) -> re.Pattern:
    return re.compile(rf"\.{re.escape(target.name)}\.(\d+)-[a-z0-9_]+\.build")


def remove_leftovers(target: Path) -> None:
    """Remove the hidden folders of exports to ``target`` that were killed (their process is
    gone, or they are older than a day); a running export's folder is kept."""
    pattern, now = _leftover_pattern(target), time.time()
    if not target.parent.is_dir():
        return
    for candidate in target.parent.iterdir():
        found = pattern.fullmatch(candidate.name)
        if found is None or not candidate.is_dir():
            continue
        try:
            stale = now - candidate.stat().st_mtime > ORPHAN_AGE
        except FileNotFoundError:
            continue
        if stale or not _alive(int(found.group(1))):
            shutil.rmtree(candidate, ignore_errors=True)


def _exit_on_signal(signum, frame):
    raise SystemExit(128 + signum)


@contextmanager
def _terminate_as_exit():
    """SIGTERM raises SystemExit inside the block (so that it cleans up as Ctrl-C does)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _exit_on_signal)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _install(staged: Path, target: Path) -> None:
    """Move the staged files onto ``target`` (module docstring)."""
    if target.is_dir() and not any(target.iterdir()):
        target.rmdir()
    if not target.exists():
        os.rename(staged, target)
        return
    for path in sorted(staged.iterdir()):
        os.replace(path, target / path.name)


@contextmanager
def staged_folder(target):
    """A hidden folder beside ``target`` to export into; its files are moved onto ``target``
    when the block ends, and it is removed whatever happens (module docstring)."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(target)
    staged = Path(tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}-", suffix=".build",
                                   dir=target.parent))
    try:
        with _terminate_as_exit():
            yield staged
            _install(staged, target)
    finally:
        shutil.rmtree(staged, ignore_errors=True)
