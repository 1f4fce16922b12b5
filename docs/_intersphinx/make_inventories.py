"""Write the intersphinx inventories (``*.inv``) the documentation links to other projects through.

The documentation is built offline (CI has no network beyond the package registries), so
intersphinx cannot download each project's ``objects.inv``. These small inventories hold the
objects hertz2d's pages and signatures name, each at the address where that project's
documentation puts it, and are committed beside this script. A name the build cannot resolve
fails it (``nitpicky``): add the object to :data:`PROJECTS` and rerun
``python docs/_intersphinx/make_inventories.py``.

Every object is imported first (a name that no longer exists stops the script; glossary terms,
``std:term``, are not objects), and also listed under the module path Python reports for it (``scipy.sparse._csc.csc_matrix`` for
``scipy.sparse.csc_matrix``): autodoc writes that path in signatures.
"""
from __future__ import annotations

import importlib
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: project -> {object: (role, page and anchor in that project's documentation)}
PROJECTS: dict[str, dict[str, tuple[str, str]]] = {
    "python": {
        "pathlib.Path": ("py:class", "library/pathlib.html#pathlib.Path"),
        "pathlib.PurePosixPath": ("py:class", "library/pathlib.html#pathlib.PurePosixPath"),
        "argparse.ArgumentParser": ("py:class", "library/argparse.html#argparse.ArgumentParser"),
        "argparse.Namespace": ("py:class", "library/argparse.html#argparse.Namespace"),
        "abc.ABC": ("py:class", "library/abc.html#abc.ABC"),
        "collections.abc.Callable": ("py:class",
                                     "library/collections.abc.html#collections.abc.Callable"),
        "collections.abc.Iterable": ("py:class",
                                     "library/collections.abc.html#collections.abc.Iterable"),
        "collections.abc.Iterator": ("py:class",
                                     "library/collections.abc.html#collections.abc.Iterator"),
        "concurrent.futures.Executor": (
            "py:class", "library/concurrent.futures.html#concurrent.futures.Executor"),
        "concurrent.futures.Future": (
            "py:class", "library/concurrent.futures.html#concurrent.futures.Future"),
        "types.SimpleNamespace": ("py:class", "library/types.html#types.SimpleNamespace"),
        "logging.Logger": ("py:class", "library/logging.html#logging.Logger"),
        "sqlite3.Connection": ("py:class", "library/sqlite3.html#sqlite3.Connection"),
        "subprocess.CompletedProcess": ("py:class",
                                        "library/subprocess.html#subprocess.CompletedProcess"),
        "ssl.SSLContext": ("py:class", "library/ssl.html#ssl.SSLContext"),
        "sequence": ("std:term", "glossary.html#term-sequence"),
    },
    "numpy": {
        "numpy.ndarray": ("py:class", "reference/generated/numpy.ndarray.html#numpy.ndarray"),
        "numpy.random.Generator": ("py:class",
                                   "reference/random/generator.html#numpy.random.Generator"),
        "numpy.dtype": ("py:class", "reference/generated/numpy.dtype.html#numpy.dtype"),
        "array_like": ("std:term", "glossary.html#term-array_like"),
    },
    "scipy": {
        name: ("py:class", f"reference/generated/{name}.html#{name}")
        for name in ("scipy.sparse.csc_matrix", "scipy.sparse.csr_matrix", "scipy.sparse.spmatrix",
                     "scipy.sparse.linalg.LinearOperator", "scipy.optimize.OptimizeResult")
    },
    "pandas": {
        "pandas.DataFrame": ("py:class", "reference/api/pandas.DataFrame.html#pandas.DataFrame"),
        "pandas.Series": ("py:class", "reference/api/pandas.Series.html#pandas.Series"),
    },
    "matplotlib": {
        "matplotlib.figure.Figure": (
            "py:class", "api/_as_gen/matplotlib.figure.Figure.html#matplotlib.figure.Figure"),
        "matplotlib.axes.Axes": ("py:class", "api/_as_gen/matplotlib.axes.Axes.html"
                                             "#matplotlib.axes.Axes"),
    },
    # scikit-fem documents its API on one page, under the names its api.rst gives
    "skfem": {
        "skfem.MeshTri1": ("py:class", "api.html#skfem.mesh.mesh.MeshTri1"),
        "skfem.MeshTri": ("py:class", "api.html#skfem.mesh.MeshTri"),
        "skfem.Mesh": ("py:class", "api.html#skfem.mesh.Mesh"),
        "skfem.CellBasis": ("py:class", "api.html#skfem.assembly.CellBasis"),
        "skfem.Basis": ("py:class", "api.html#skfem.assembly.Basis"),
        "skfem.FacetBasis": ("py:class", "api.html#skfem.assembly.FacetBasis"),
        "skfem.BilinearForm": ("py:class", "api.html#skfem.assembly.BilinearForm"),
        "skfem.LinearForm": ("py:class", "api.html#skfem.assembly.LinearForm"),
        "skfem.ElementTriP1": ("py:class", "api.html#skfem.element.ElementTriP1"),
        "skfem.ElementTriP2": ("py:class", "api.html#skfem.element.ElementTriP2"),
        "skfem.ElementVector": ("py:class", "api.html#skfem.element.ElementVector"),
        "skfem.condense": ("py:function", "api.html#skfem.utils.condense"),
        "skfem.solve": ("py:function", "api.html#skfem.utils.solve"),
    },
}
PROJECT_NAMES = {"python": "Python", "numpy": "NumPy", "scipy": "SciPy", "pandas": "pandas",
                 "matplotlib": "Matplotlib", "skfem": "scikit-fem"}


def _import(name: str):
    parts = name.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            value = getattr(value, attribute)
        return value
    raise ImportError(name)


def entries(objects: dict[str, tuple[str, str]]) -> list[str]:
    """Inventory lines ``name role priority uri dispname``, with each object's own module path."""
    lines = {}
    for name, (role, uri) in objects.items():
        names = {name}
        if role.startswith("py:"):  # a glossary term is not imported
            value = _import(name)  # a renamed or removed object stops the script here
            if getattr(value, "__module__", None) and getattr(value, "__qualname__", None):
                names.add(f"{value.__module__}.{value.__qualname__}")
        for each in names:
            lines[each] = f"{each} {role} 1 {uri} {name if each != name else '-'}"
    return [lines[name] for name in sorted(lines)]


def write(project: str, objects: dict[str, tuple[str, str]]) -> Path:
    header = ("# Sphinx inventory version 2\n"
              f"# Project: {PROJECT_NAMES[project]}\n"
              "# Version: \n"
              "# The remainder of this file is compressed using zlib.\n")
    body = "".join(line + "\n" for line in entries(objects))
    path = HERE / f"{project}.inv"
    path.write_bytes(header.encode() + zlib.compress(body.encode(), 9))
    return path


if __name__ == "__main__":
    for project, objects in PROJECTS.items():
        print(write(project, objects))
