"""The biaxial runs of the comparison: one per (law, damping, packing seed), cached, parallel.

Each run (:func:`hertz2d.dem.biaxial.run_biaxial`) is a task for the stage's executor
(:mod:`hertz2d.calibration.runs.executors`); its result, JSON-ready (tables as column lists, the velocity profiles averaged
over the shear stage, the frames as compressed float32 arrays), is stored in the case store (:class:`hertz2d.calibration.runs.store.CaseStore`)
as soon as it is handed back, under a namespace that hashes the source of every module this one
imports (the engine included, :mod:`hertz2d.meshes.digest`) and the versions of numba and numpy: a rerun
computes only what is missing, an interrupted run keeps every finished one, a changed engine
recomputes everything. A run whose law fails (a contact beyond Eq. 23's largest approach) is
recorded with its reason, not stored, and retried on the next run.
"""
from __future__ import annotations

import base64
import io
import time
from importlib import metadata
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from hertz2d.calibration.runs.cached import cached_results
from hertz2d.calibration.runs.executors import Executor, Inline
from hertz2d.calibration.runs.provenance import versions
from hertz2d.calibration.runs.store import CaseStore
from hertz2d.dem.biaxial import BiaxialSettings, Frames, headline, mean_profiles, run_biaxial
from hertz2d.dem.damping import Damping
from hertz2d.dem.laws import Law
from hertz2d.dem.simulation import LawFailure
from hertz2d.meshes.digest import code_digest

#: the frames' arrays kept in the store
FRAME_ARRAYS = ("position", "velocity", "stress", "contacts", "box")


@dataclass(frozen=True)
class BiaxialCase:
    """One run: which law (by its comparison key), damping, schedule and packing, and whether it
    keeps frames."""

    key: str
    law: Law
    damping: Damping
    settings: BiaxialSettings
    seed: int
    frames: bool = False


def run_namespace() -> str:
    """Identity of the code (this module and all it imports) and packages behind a stored run."""
    pinned = {k: v for k, v in versions().items() if k in ("numpy", "pandas")}
    pinned["numba"] = metadata.version("numba")
    return "biaxial-" + code_digest(__name__, pinned)


def store_key(case: BiaxialCase) -> tuple:
    """The physics of a run (the law's code and parameters, not its name)."""
    return (int(case.law.code), tuple(float(p) for p in case.law.parameters),
            (case.damping.ratio, case.damping.local), case.seed, case.frames,
            tuple(sorted(asdict(case.settings).items())))


def _pack(arrays: dict) -> str:
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    return base64.b64encode(buffer.getvalue()).decode()


def _unpack(text: str) -> dict:
    with np.load(io.BytesIO(base64.b64decode(text))) as archive:
        return {name: archive[name] for name in archive.files}


def _frames_row(frames: Frames) -> dict:
    arrays = {name: np.asarray(getattr(frames, name), dtype=np.float32) for name in FRAME_ARRAYS}
    return {"radius": frames.radius.tolist(), "time": list(map(float, frames.time)),
            "stage": list(frames.stage), "arrays": _pack(arrays)}


def frames_from_row(row: dict) -> Frames:
    arrays = _unpack(row["arrays"])
    return Frames(np.asarray(row["radius"]), row["time"], row["stage"],
                  **{name: list(arrays[name].astype(float)) for name in FRAME_ARRAYS})


def run_one(case: BiaxialCase) -> dict:
    """Worker task: one run, JSON-ready (module docstring); a law failure is returned as the
    row's ``failure``."""
    start = time.process_time()
    try:
        run = run_biaxial(case.law, case.damping, case.settings, case.seed, frames=case.frames)
    except LawFailure as error:
        return {"failure": str(error), "seconds": time.process_time() - start}
    return {"failure": None, "seconds": time.process_time() - start,
            "headline": headline(run), "balance": run.balance, "steps": run.steps,
            "series": run.series.to_dict("list"), "contacts": run.contacts.to_dict("list"),
            "profiles": mean_profiles(run.profiles).to_dict("list"),
            "frames": _frames_row(run.frames) if run.frames is not None else None}


@dataclass
class FinishedRun:
    """A run as the stage uses it: its case, what it recorded (or why it failed)."""

    case: BiaxialCase
    failure: str | None
    seconds: float
    reused: bool
    headline: dict | None = None
    balance: dict | None = None
    series: pd.DataFrame | None = None
    contacts: pd.DataFrame | None = None
    profiles: pd.DataFrame | None = None
    frames: Frames | None = None

    @classmethod
    def from_row(cls, case: BiaxialCase, row: dict, reused: bool) -> "FinishedRun":
        if row["failure"] is not None:
            return cls(case, row["failure"], row["seconds"], reused)
        return cls(case, None, row["seconds"], reused, row["headline"], row["balance"],
                   pd.DataFrame(row["series"]), pd.DataFrame(row["contacts"]),
                   pd.DataFrame(row["profiles"]),
                   frames_from_row(row["frames"]) if row["frames"] else None)


def biaxial_runs(cases: list[BiaxialCase], executor: Executor = Inline(),
                 store: CaseStore | None = None, progress: bool = True) -> list[FinishedRun]:
    """Every case, in the order given, computing those missing from ``store`` on ``executor``."""
    results = cached_results(cases, store_key, store or CaseStore(run_namespace()), executor,
                             _run_group, label="biaxial runs", progress=progress,
                             describe=lambda group: f"{group[0].key}, seed {group[0].seed}")
    return [FinishedRun.from_row(case, *results[store_key(case)]) for case in cases]


def _run_group(cases: tuple[BiaxialCase, ...]) -> list[dict]:
    """Worker task: :func:`run_one` for each case."""
    return [run_one(case) for case in cases]
