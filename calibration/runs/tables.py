"""Reading a CSV table hertz2d wrote (a stage's output read back by another stage or the report),
checked before anything uses it.

A table may have been edited, truncated or replaced since it was written, so
:func:`read_table` refuses, in one :class:`~hertz2d.checks.InputError` line naming the file, the column
and the value: a missing file (saying which command writes it), a file that is not a CSV table,
a column named twice in the header (pandas would rename the second and a reader use the first),
a missing column, and a number that is not finite (``inf``) or not a number at all where the
table holds numbers. An empty cell is a missing value (NaN), as the stages write one.
"""
from __future__ import annotations

import csv
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from hertz2d.checks import InputError, unique_columns


def header(path: Path, name: str) -> list[str]:
    """The column names of a CSV file (its first row), each once."""
    with open(path, newline="", encoding="utf-8-sig") as text:
        return unique_columns(f"{name}={str(path)!r}", next(csv.reader(text), []))


def read_table(path: str | Path, name: str, columns: Iterable[str] = (),
               numeric: Iterable[str] = (), command: str = "",
               rows: Callable[[pd.DataFrame], pd.Series] | None = None) -> pd.DataFrame:
    """The table at ``path`` (reported as ``name=path``) with every column of ``columns``.

    The ``numeric`` columns hold finite numbers in every row that ``rows`` selects (all rows by
    default; in the others a cell may be empty); every other column that pandas reads as
    numbers holds no infinity. ``command`` is what writes the table, for the message when it is
    missing.
    """
    path = Path(path)
    where = f"{name}={str(path)!r}"
    if not path.is_file():
        raise InputError(f"{where} does not exist" + (f"; run `{command}` first"
                                                      if command else ""))
    try:
        header(path, name)
        table = pd.read_csv(path, keep_default_na=False, na_values=[""], low_memory=False)
    except InputError:
        raise
    except (OSError, ValueError, UnicodeDecodeError, csv.Error,
            pd.errors.ParserError) as error:
        reason = getattr(error, "strerror", None) or str(error).splitlines()[0]
        raise InputError(f"{where} is not a CSV table ({type(error).__name__}: {reason})"
                         ) from None
    missing = [column for column in columns if column not in table.columns]
    if missing:
        raise InputError(f"{where} lacks the column(s) {', '.join(missing)}"
                         + (f" of a `{command}` table" if command else ""))
    selected = np.ones(len(table), bool) if rows is None else np.asarray(rows(table), bool)
    for column in numeric:
        values = pd.to_numeric(table[column], errors="coerce")
        _refuse(where, table, column, selected & ~np.isfinite(values.to_numpy(float)))
        table[column] = values
    for column in table.columns:
        if pd.api.types.is_float_dtype(table[column]):
            _refuse(where, table, column, np.isinf(table[column].to_numpy()))
    return table


def _refuse(where: str, table: pd.DataFrame, column: str, bad: np.ndarray) -> None:
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        value = table[column].iloc[row]
        value = value.item() if hasattr(value, "item") else value  # numpy -> Python
        raise InputError(f"{where}: {column}={value!r} in row {row + 1} is not a finite number")
