"""The identity of the code behind a result: a digest over every project module it depends on.

A cached result (a finished FEM case, a gmsh mesh) is valid only for the code that computed it.
The list of modules is derived, not maintained by hand: starting from the module that computes the
result, every ``import`` statement (at any depth, lazy imports inside functions included) is
followed through the project's own modules (those under :data:`PROJECT`), and the source text of
each module reached, package ``__init__`` files included, enters the digest. Editing any of them,
even a comment, changes the digest; third-party code enters through its version number instead.

It lives in ``meshes``, the most upstream package, because the first cache of the pipeline (the
gmsh mesh cache, :mod:`hertz2d.meshes.cache`) keys on it; the case store of every stage uses it too.
"""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
from functools import lru_cache
from pathlib import Path

#: the import name whose modules' source is hashed (everything else is identified by its version)
PROJECT = "hertz2d"


def _is_project(name: str) -> bool:
    return name.split(".", 1)[0] == PROJECT


def _source_file(name: str) -> Path | None:
    """The ``.py`` file of module ``name``, or None if ``name`` is not a module (an attribute)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, AttributeError, ValueError):
        return None
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _imported_names(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Every module name an ``import`` in ``tree`` may refer to (candidates, unresolved)."""
    names: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)  # submodules, if any
    return names


@lru_cache(maxsize=None)
def module_closure(root: str) -> tuple[str, ...]:
    """The project modules ``root`` depends on through imports (itself and its packages included)."""
    found: dict[str, Path] = {}
    todo = [root]
    while todo:
        name = todo.pop()
        if name in found or not _is_project(name):
            continue
        path = _source_file(name)
        if path is None:
            continue
        found[name] = path
        parts = name.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]  # the enclosing packages
        tree = ast.parse(path.read_text(), filename=str(path))
        todo += sorted(_imported_names(tree, name, path.name == "__init__.py"))
    return tuple(sorted(found))


def code_digest(root: str, versions: dict[str, str] | None = None) -> str:
    """Hash of the source of every module in ``module_closure(root)`` and of ``versions``."""
    sources = {name: _source_file(name).read_text() for name in module_closure(root)}
    blob = json.dumps({"sources": sources, "versions": versions or {}}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:20]
