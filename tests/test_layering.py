"""The data flow runs one way: read from the sources' imports (AST), not from a running program.

- no stage imports the command line (``hertz2d.calibration.commands``, ``hertz2d.calibration.cli``);
- the law library (``calibration/laws``) and the DEM (``dem``), which a DEM code may use on their
  own, import nothing of ``meshes`` and of ``fem`` (the load paths are :mod:`hertz2d.checks.loadpath`),
  and the law library no stage;
- no two modules import each other, directly or through others (deferred imports included);
- the project is imported by one name, ``hertz2d``, and installs every package folder.
"""
import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
PACKAGES = ("checks", "meshes", "fem", "calibration", "dem")


def _module_name(path: Path) -> str:
    parts = ("hertz2d", *path.relative_to(PROJECT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for package in PACKAGES
           for path in sorted((PROJECT / package).rglob("*.py"))}


def _imported(module: str, node: ast.AST) -> list[str]:
    """The project modules an import statement names (``from p import m`` names p.m if that is
    a module, else p)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:  # relative: from the importing module's package
            package = module.split(".") if MODULES[module].name == "__init__.py" else \
                module.split(".")[:-1]
            base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                 for alias in node.names]
    return [name for name in names if name.split(".")[0] == "hertz2d"]


def _imports(module: str) -> set[str]:
    """The project modules ``module`` imports, at import time or inside a function (a deferred
    import is a dependency all the same)."""
    found, pending = set(), [ast.parse(MODULES[module].read_text())]
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update(_imported(module, node))
        pending.extend(ast.iter_child_nodes(node))
    return found


def test_the_sources_are_found():
    assert {"hertz2d.checks", "hertz2d.calibration.laws.scalar", "hertz2d.dem.forces", "hertz2d.calibration.commands.model",
            "hertz2d.checks.loadpath"} <= set(MODULES)
    assert "hertz2d.calibration.laws.penalty_factor" in _imports("hertz2d.calibration.fitted")


def test_no_stage_imports_the_command_line():
    offenders = {module: sorted(name for name in _imports(module)
                                if name.startswith(("hertz2d.calibration.commands", "hertz2d.calibration.cli")))
                 for module in MODULES
                 if not module.startswith(("hertz2d.calibration.commands", "hertz2d.calibration.cli",
                                           "hertz2d.calibration.__main__"))}
    assert {module: names for module, names in offenders.items() if names} == {}


def _offenders(package: str, forbidden) -> dict[str, list[str]]:
    found = {module: sorted(name for name in _imports(module) if forbidden(name))
             for module in MODULES if module == package or module.startswith(package + ".")}
    return {module: names for module, names in found.items() if names}


def _mesh_or_fem(name: str) -> bool:
    return name.split(".")[:2] in (["hertz2d", "meshes"], ["hertz2d", "fem"])


@pytest.mark.parametrize("package", ["hertz2d.calibration.laws", "hertz2d.dem"])
def test_the_law_library_and_the_dem_do_not_depend_on_meshes_or_the_fem(package):
    assert _offenders(package, _mesh_or_fem) == {}


@pytest.mark.parametrize("package", ["hertz2d.calibration.laws", "hertz2d.dem"])
def test_importing_the_law_library_or_the_dem_loads_no_fem(package):
    """What a running program loads, not only what the sources name: a fresh interpreter that
    imports ``package`` has none of the FEM's packages (nor gmsh, scikit-fem) in sys.modules."""
    if package == "hertz2d.dem":
        pytest.importorskip("numba")
    probe = (f"import sys, {package}; print(sorted({{'.'.join(name.split('.')[:2]) for name in "
             "sys.modules} & {'hertz2d.fem', 'hertz2d.meshes', 'skfem', 'gmsh'}))")
    run = subprocess.run([sys.executable, "-c", probe], cwd=PROJECT, capture_output=True,
                         text=True, check=True)
    assert run.stdout.strip() == "[]"


def test_the_law_library_imports_no_stage():
    def stage(name):
        return name.startswith(("hertz2d.calibration.export", "hertz2d.calibration.penalty",
                                "hertz2d.calibration.validation", "hertz2d.calibration.biaxial",
                                "hertz2d.calibration.report", "hertz2d.calibration.fitted",
                                "hertz2d.calibration.commands", "hertz2d.calibration.cli"))
    assert _offenders("hertz2d.calibration.laws", stage) == {}


def test_no_import_cycles():
    graph = {module: _imports(module) & set(MODULES) for module in MODULES}
    cycles, state = [], {}

    def visit(module, trail):
        state[module] = "open"
        for name in sorted(graph[module]):
            if state.get(name) == "open":
                cycles.append(trail[trail.index(name):] + [name])
            elif name not in state:
                visit(name, trail + [name])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []


#: a stage's files by name: a module that names one reads or writes it
STAGE_FILE = re.compile(r"(^|/)(fit|coefficients|summary|law|run)\.json$|(^|/)(grid|confined|"
                        r"errors|cases|runs|comparison|differences|damping|series|targets|"
                        r"by_coupling|domain|cycles|curves|verification|secant_drop|"
                        r"unit_free)\.csv$")
#: the modules that own them: each stage's outputs type, the results layout, and the law
#: library's file formats (law.json's name, the shipped coefficients)
OWNERS = {"hertz2d.calibration.results_layout", "hertz2d.calibration.penalty.outputs",
          "hertz2d.calibration.validation.outputs", "hertz2d.calibration.validation.map.outputs",
          "hertz2d.calibration.calibrate.outputs", "hertz2d.calibration.biaxial.outputs",
          "hertz2d.calibration.export.law_file", "hertz2d.calibration.laws.calibrated"}


def test_only_a_stages_outputs_type_names_its_files():
    """No stage, command or report section names another stage's files (or its own, outside
    its outputs type): they ask the type (:mod:`hertz2d.calibration.results_layout`)."""
    named = {}
    for module, path in MODULES.items():
        if module in OWNERS:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and STAGE_FILE.search(node.value.strip())):
                named.setdefault(module, []).append(node.value)
    assert named == {}


def test_the_project_is_imported_by_one_name():
    """Every import of a project module goes through ``hertz2d`` (the folders' own names are
    not import names: a user's ``dem.py`` or ``checks.py`` cannot shadow them), and the
    packages pyproject.toml installs are exactly the folders with an ``__init__.py``."""
    old = {}
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            found = [name for name in names if name.split(".")[0] in PACKAGES]
            if found:
                old.setdefault(module, []).extend(found)
    assert old == {}
    declared = set(tomllib.loads((PROJECT / "pyproject.toml").read_text())["tool"]["setuptools"]
                   ["packages"])
    assert declared == {name for name, path in MODULES.items() if path.name == "__init__.py"}
