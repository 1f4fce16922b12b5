"""The ``>>>`` examples in the modules' docstrings run and show what they say.

Every project module whose source has one is found (a new example runs without an edit here);
the DEM's need numba and skip without it, as the DEM tests do.
"""
import doctest
import importlib
import importlib.util
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
PACKAGES = ("checks", "meshes", "fem", "calibration", "dem")


def _modules_with_examples() -> list[str]:
    names = []
    for package in PACKAGES:
        for path in sorted((PROJECT / package).rglob("*.py")):
            if ">>> " in path.read_text():
                parts = ("hertz2d", *path.relative_to(PROJECT).with_suffix("").parts)
                names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = _modules_with_examples()


def test_the_examples_are_found():
    assert {"hertz2d.calibration.laws", "hertz2d.calibration.laws.catalogue", "hertz2d.dem.simulation"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    if name.startswith("hertz2d.dem.") and importlib.util.find_spec("numba") is None:
        pytest.skip("the DEM's examples need numba (pip install '.[dem]')")
    result = doctest.testmod(importlib.import_module(name),
                             optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0, result
