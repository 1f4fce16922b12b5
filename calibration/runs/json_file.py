"""JSON as every hertz2d file and ``--json`` line holds it: strict (RFC 8259), checked on read.

Written: a number that is not finite (a NaN for "not measured", an infinite ratio) becomes
``null``, numpy scalars and arrays plain numbers and lists, so a strict parser (JavaScript's
``JSON.parse``, ``jq``, Go, Rust) reads every file; Python's ``json`` would otherwise write the
bare tokens ``NaN`` and ``Infinity``, which are not JSON.

Read: :func:`read_json` refuses, in one :class:`~hertz2d.checks.InputError` line naming the file, what a
hand edit or another program may leave in a file hertz2d reads back: a missing or unreadable
file, a UTF-8 byte-order mark (named as such: the parser would report "line 1, column 1"),
text that is not JSON, and the non-standard ``NaN`` / ``Infinity`` tokens.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

from hertz2d.checks import InputError

#: what a file that starts with a UTF-8 byte-order mark starts with, read as text
BYTE_ORDER_MARK = "\ufeff"


def strict(value):
    """``value`` with every non-finite float replaced by None and numpy values made plain
    (recursively through dicts, lists and tuples)."""
    if isinstance(value, dict):
        return {str(key): strict(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict(item) for item in value]
    if hasattr(value, "tolist"):  # numpy scalar or array
        return strict(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)  # a path, a date: as the text it prints


def dumps(data, indent: int | None = None) -> str:
    """``data`` as strict JSON (see :func:`strict`)."""
    return json.dumps(strict(data), indent=indent, allow_nan=False)


def _refuse_constant(token: str):
    raise ValueError(f"{token} is not a JSON number (write null for a missing one)")


def loads(text: str, name: str, where: str):
    """The JSON value of ``text`` (the contents of ``where``, reported as ``name=where``)."""
    if text.startswith(BYTE_ORDER_MARK):
        raise InputError(f"{name}={where!r} starts with a UTF-8 byte-order mark (BOM); save it "
                         "as UTF-8 without one")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except ValueError as error:
        raise InputError(f"{name}={where!r} is not JSON ({error})") from None


def read_json(path: str | Path, name: str, missing: str = ""):
    """The JSON value of the file ``path`` (:class:`InputError` naming ``name=path`` when it is
    missing, ``missing`` then saying what writes it, unreadable, or not strict JSON)."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{name}={where!r} does not exist" + (f"; {missing}" if missing else "")
                         ) from None
    except UnicodeDecodeError as error:
        raise InputError(f"{name}={where!r} is not UTF-8 text ({error.reason} at byte "
                         f"{error.start})") from None
    except OSError as error:
        raise InputError(f"{name}={where!r} cannot be read ({error.strerror})") from None
    return loads(text, name, where)


def json_object(value, name: str, where: str) -> dict:
    """``value`` if it is a JSON object, else :class:`InputError`."""
    if not isinstance(value, dict):
        raise InputError(f"{name}={where!r} is not a JSON object")
    return value


class Field:
    """A field of a stage's JSON record, read as an attribute of the type that reads the record
    (the record is its ``summary``): the key is named once, in the stage's outputs module, and
    the rest of hertz2d uses the attribute."""

    def __init__(self, key: str, doc: str = ""):
        self.key, self.__doc__ = key, doc

    def __get__(self, owner, kind=None):
        return self if owner is None else owner.summary[self.key]
