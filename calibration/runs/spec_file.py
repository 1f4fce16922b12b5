"""Declarative run specifications in TOML: reading them and checking every value by its type.

A spec is data a user edits by hand, so nothing in it is trusted: each value is checked where it
is read, and a wrong one is an :class:`~hertz2d.checks.InputError` that names the table, the key
and the value (``[base] R='half a metre' is not a number``), which the command line turns into
exit 2. The stages build their cases from the checked values only.
"""
from __future__ import annotations

import math
import sys
from importlib import resources
from pathlib import Path

from hertz2d.calibration.runs.json_file import BYTE_ORDER_MARK
from hertz2d.checks import InputError

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


def read_spec(path: str | Path | None, package: str, shipped: str) -> dict:
    """The parsed TOML at ``path``, or the spec ``shipped`` inside ``package`` when no path is given."""
    if path is None:
        text, name = resources.files(package).joinpath(shipped).read_text(), shipped
    else:
        name = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")  # TOML is UTF-8
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or type(error).__name__
            raise InputError(f"spec={name!r} cannot be read ({reason})") from None
        if text.startswith(BYTE_ORDER_MARK):  # TOML forbids it; its parser says "line 1"
            raise InputError(f"spec={name!r} starts with a UTF-8 byte-order mark (BOM); save "
                             "it as UTF-8 without one")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"spec={name!r} is not valid TOML ({error})") from None


def table(spec: dict, name: str, required: bool = True) -> dict:
    """The sub-table ``[name]`` (empty if absent and not required)."""
    value = spec.get(name)
    if value is None and not required:
        return {}
    if not isinstance(value, dict):
        raise InputError(f"spec has no [{name}] table" if value is None else
                         f"[{name}] in the spec is not a table")
    return value


def require_keys(where: str, given: dict, required: set[str], optional: set[str] = frozenset()):
    """Every key of ``required`` present, none outside ``required | optional``."""
    missing = sorted(required - set(given))
    unknown = sorted(set(given) - required - set(optional))
    if missing or unknown:
        problems = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"unknown {', '.join(unknown)}"] if unknown else [])
        raise InputError(f"[{where}] in the spec: {'; '.join(problems)}")


def number(where: str, key: str, value) -> float:
    """A finite TOML number (an integer or a float, not a string or a boolean)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InputError(f"[{where}] {key}={value!r} is not a finite number")
    return float(value)


def integer(where: str, key: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"[{where}] {key}={value!r} is not an integer")
    return value


def _items(where: str, key: str, value) -> list:
    if not isinstance(value, list):
        raise InputError(f"[{where}] {key}={value!r} is not a list")
    if not value:
        raise InputError(f"[{where}] {key} is an empty list")
    return value


def numbers(where: str, key: str, value) -> list[float]:
    """A non-empty list of finite numbers."""
    return [number(where, key, v) for v in _items(where, key, value)]


def integers(where: str, key: str, value) -> list[int]:
    return [integer(where, key, v) for v in _items(where, key, value)]


def words(where: str, key: str, value, choices) -> list[str]:
    """A non-empty list of strings, each one of ``choices``."""
    out = []
    for v in _items(where, key, value):
        if v not in choices:
            raise InputError(f"[{where}] {key}: {v!r} is not one of {', '.join(choices)}")
        out.append(v)
    return out
