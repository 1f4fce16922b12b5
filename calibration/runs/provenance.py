"""What produced a result: package versions, machine, date, command line."""
from __future__ import annotations

import datetime
import platform
import sys
from importlib import metadata

PACKAGES = ("hertz2d", "scikit-fem", "numpy", "scipy", "gmsh", "meshio", "pandas", "qdldl",
            "matplotlib")


def versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def provenance() -> dict:
    return {"versions": versions(), "platform": platform.platform(),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "command": " ".join(["hertz2d", *sys.argv[1:]])}
