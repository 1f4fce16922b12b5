"""Input validation shared by every package: the one error type and the range checks.

A package of its own, below every stage and importing nothing of the project, so that the law
library and the DEM (which a DEM code may use on their own) raise the same error as the FEM
without depending on the mesh or FEM packages.

Each check raises :class:`InputError` (a ``ValueError``) whose message names the offending
parameter and its value in one line, e.g. ``nu=0.5 is outside [0, 0.5)``. The command line turns
it into exit code 2; library users get an ordinary ``ValueError``.
"""
from __future__ import annotations

import math
import os
import tempfile


class InputError(ValueError):
    """A parameter is outside the domain where the model is defined."""


def _finite(name: str, value) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{name}={value!r} is not a number") from None
    if not math.isfinite(number):
        raise InputError(f"{name}={value!r} is not finite")
    return number


def positive(name: str, value) -> float:
    """``value > 0`` (radii, moduli, forces, half-widths)."""
    number = _finite(name, value)
    if number <= 0:
        raise InputError(f"{name}={value!r} must be > 0")
    return number


def non_negative(name: str, value) -> float:
    """``value >= 0`` (friction coefficient, prescribed displacements)."""
    number = _finite(name, value)
    if number < 0:
        raise InputError(f"{name}={value!r} must be >= 0")
    return number


def poisson(name: str, value) -> float:
    """Poisson's ratio of an isotropic solid in plane strain: ``0 <= nu < 0.5``."""
    number = _finite(name, value)
    if not 0.0 <= number < 0.5:
        raise InputError(f"{name}={value!r} is outside [0, 0.5)")
    return number


def one_of(name: str, value, choices) -> str:
    """``value`` is one of ``choices`` (support conditions, load types, paths)."""
    if value not in choices:
        raise InputError(f"{name}={value!r} is not one of {', '.join(map(str, choices))}")
    return value


def count(name: str, value, minimum: int = 1, maximum: int | None = None,
          why: str = "") -> int:
    """An integer in ``[minimum, maximum]`` (load steps, refinement levels, jobs).

    ``why`` says where ``maximum`` comes from (memory, time); it ends the message.
    """
    if isinstance(value, bool) or not isinstance(value, int) and not (
            isinstance(value, float) and value.is_integer()):
        raise InputError(f"{name}={value!r} is not an integer")
    if value < minimum:
        raise InputError(f"{name}={value!r} must be >= {minimum}")
    if maximum is not None and value > maximum:
        raise InputError(f"{name}={value!r} must be <= {maximum}" + (f" ({why})" if why else ""))
    return int(value)


def unique_columns(name, header) -> list[str]:
    """A table's ``header`` (its column names) with none twice: a reader would take one of two
    columns of the same name and drop the other without a word."""
    seen = set()
    for column in header:
        if column in seen:
            raise InputError(f"{name}: the column {column!r} appears twice in the header "
                             f"({','.join(header)})")
        seen.add(column)
    return list(header)


def within(name: str, value, low: float, high: float, why: str = "") -> float:
    """A finite ``value`` in ``[low, high]``; ``why`` says where the range comes from."""
    number = _finite(name, value)
    if not low <= number <= high:
        raise InputError(f"{name}={value!r} is outside [{low:g}, {high:g}]"
                         + (f" ({why})" if why else ""))
    return number


def no_file_creatable(folder) -> str | None:
    """Why no file can be created in the existing ``folder`` (the system's reason: read-only
    file system, permission, a pseudo-file system such as ``/proc``), or None when one can. A
    probe file is created and removed at once, which also catches runs as root."""
    try:
        descriptor, probe = tempfile.mkstemp(prefix=".write-check-", dir=folder)
    except OSError as error:
        return error.strerror or str(error)
    os.close(descriptor)
    os.remove(probe)
    return None
