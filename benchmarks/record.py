"""A benchmark's table kept as a file beside the one it prints: ``benchmarks/results/NAME.json``
with the date, the machine, the load average when the benchmark started and when it ended, the
command that ran it and its rows (a list of flat objects, one per printed row), which the
documentation's performance page and the README's performance section are rendered from.

The file is written whole or not at all (a partial file renamed over the old one), so a killed
benchmark leaves the previous run's table.
"""
from __future__ import annotations

import json
import math
import os
import platform
import sys
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from benchmarks.arguments import mesh_levels

RESULTS = Path(__file__).resolve().parent / "results"


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages, two decimals."""
    return [round(value, 2) for value in os.getloadavg()]


def write(name: str, rows: list[dict], started: list[float], **fields) -> Path:
    """Write ``RESULTS/name.json``: the run's provenance, ``fields`` (settings of the run: steps,
    repetitions, the compiler) and ``rows``; ``started`` is :func:`load_average` when the
    benchmark began. Returns the file."""
    out = RESULTS / f"{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                    "python": platform.python_version()},
        "load_average": {"before": started, "after": load_average()},
        "command": " ".join(["python", f"benchmarks/{Path(sys.argv[0]).name}", *sys.argv[1:]]),
        **fields, "rows": rows}, indent=2) + "\n"
    partial = out.with_suffix(".json.partial")
    partial.write_text(text)
    partial.replace(out)
    return out


def show_and_write(name: str, table: pd.DataFrame, started: list[float], **fields) -> None:
    """Print ``table`` (4 decimals) and :func:`write` it (5 decimals) as ``name``'s rows."""
    with pd.option_context("display.width", 250, "display.max_columns", 20):
        print(table.round(4).to_string(index=False))
    print(f"written: {write(name, table.round(5).to_dict('records'), started, **fields)}")


def at_mesh_levels(name: str, description: str, measure, **fields) -> None:
    """A benchmark that runs every contact at the mesh levels of its command line
    (:func:`~benchmarks.arguments.mesh_levels`): :func:`show_and_write` of ``measure(levels)``'s
    table, with the levels and ``fields``."""
    levels = mesh_levels(description)
    started = load_average()
    show_and_write(name, measure(levels), started, levels=levels, **fields)


def resumed(table: Path, columns: list[str], key: str, finite: tuple[str, ...] = ()):
    """The rows a killed run of a benchmark appended to ``table`` (a CSV of ``columns``, the last
    ``key``: what the rows depend on), to resume from; none if there is no file, and none if it
    does not parse, has other columns, a value not finite in a ``finite`` column, or rows of
    another key: then it is set aside (renamed ``.csv.bad``, with a line on stderr), never
    trusted."""
    empty = pd.DataFrame(columns=columns)
    if not table.exists():
        return empty
    try:
        rows = pd.read_csv(table, dtype={"key": str}, keep_default_na=False, na_values=["nan"])
        if list(rows.columns) != columns:
            raise ValueError("unexpected columns")
        for column in finite:
            if not pd.to_numeric(rows[column]).map(math.isfinite).all():
                raise ValueError(f"a {column} that is not finite")
        if (rows.key != key).any():
            raise ValueError(f"rows computed for another key than {key}")
        return rows
    except (ValueError, TypeError, pd.errors.ParserError) as error:
        table.rename(table.with_suffix(".csv.bad"))
        print(f"{table.stem}: {table.name} set aside ({error}); starting over", file=sys.stderr)
        return empty
