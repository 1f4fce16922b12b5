"""``<results>/run.json``, the record ``hertz2d all`` leaves in a results root, and the rule it
guards: quick output never overwrites a full run.

A root whose record says it holds a full run (``"quick": false``, as the committed ``results/``)
is refused to every command given ``--quick``, before any work, with a one-line reason; quick
runs go to a root of their own (the quick start's ``results-quick/``). A root without a record,
or with the record of a quick run, takes quick output.
"""
from __future__ import annotations

import json
from pathlib import Path

from checks import InputError

#: the record's name under a results root
RUN_RECORD = "run.json"


def check_quick_output(results: str | Path) -> None:
    """Raise :class:`InputError` if ``results`` holds a full run (or a record that cannot be
    read, which might be one)."""
    record = Path(results) / RUN_RECORD
    if not record.exists():
        return
    try:
        run = json.loads(record.read_text())
        quick = run["quick"]
    except (OSError, ValueError, KeyError, TypeError):
        quick, run = False, {"command": "an unreadable record", "date": "an unknown date"}
    if quick is not True:
        raise InputError(
            f"results={str(results)!r} holds a full run ({record}: {run.get('command')} on "
            f"{run.get('date')}), which --quick would overwrite; give --quick its own root, "
            "e.g. --results results-quick")
