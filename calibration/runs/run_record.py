"""``<results>/run.json``, the record ``hertz2d all`` leaves in a results root, and the rule it
guards: quick output never overwrites a full run.

A root whose record says it holds a full run (``"quick": false``, as the committed ``results/``)
is refused to every command given ``--quick``, before any work, with a one-line reason; quick
runs go to a root of their own (the quick start's ``results-quick/``). A root without a record,
or with the record of a quick run, takes quick output.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from hertz2d.calibration import results_layout as layout
from hertz2d.calibration.runs.atomic import write_json
from hertz2d.calibration.runs.json_file import json_object, read_json
from hertz2d.checks import InputError

#: the record's name under a results root
RUN_RECORD = str(layout.RUN_RECORD)


@dataclass(frozen=True)
class RunRecord:
    """``run.json``: the command, its date, whether it was quick, what ran the FEM tasks, each
    stage's and the whole run's seconds, and the versions (:func:`provenance`)."""

    command: str
    date: str
    quick: bool
    seconds: float | None = None
    stage_seconds: dict = field(default_factory=dict)
    executor: str = ""
    provenance: dict = field(default_factory=dict)

    def write(self, results: str | Path) -> Path:
        return write_json({**self.provenance, "command": self.command, "date": self.date,
                           "quick": self.quick, "executor": self.executor,
                           "stage_seconds": self.stage_seconds, "seconds": self.seconds},
                          layout.under(results, layout.RUN_RECORD))

    @classmethod
    def read(cls, results: str | Path) -> "RunRecord | None":
        """The record of ``results`` (None when it has none), checked: strict JSON, the
        command and date as text, quick a boolean, the seconds (when recorded) a number and a
        table of numbers."""
        path = layout.under(results, layout.RUN_RECORD)
        if not path.exists():
            return None
        data = json_object(read_json(path, "run record"), "run record", str(path))
        for key, kind, required in (("command", str, True), ("date", str, True),
                                    ("quick", bool, True), ("seconds", (int, float), False),
                                    ("stage_seconds", dict, False)):
            value = data.get(key)
            if (value is None and required) or (value is not None and (
                    not isinstance(value, kind) or (kind is not bool
                                                    and isinstance(value, bool)))):
                raise InputError(f"run record={str(path)!r}: {key}={value!r} is not what "
                                 "`hertz2d all` writes")
        return cls(data["command"], data["date"], data["quick"], data.get("seconds"),
                   data.get("stage_seconds") or {}, str(data.get("executor", "")),
                   {k: v for k, v in data.items() if k in ("versions", "platform")})


def check_quick_output(results: str | Path) -> None:
    """Raise :class:`InputError` if ``results`` holds a full run (or a record that cannot be
    read, which might be one)."""
    try:
        run = RunRecord.read(results)
    except InputError:
        run = RunRecord("an unreadable record", "an unknown date", False)
    if run is not None and run.quick is not True:
        raise InputError(
            f"results={str(results)!r} holds a full run "
            f"({layout.under(results, layout.RUN_RECORD)}: {run.command} on {run.date}), which "
            "--quick would overwrite; give --quick its own root, e.g. --results results-quick")
