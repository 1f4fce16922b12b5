"""Caches that cannot be trusted are rebuilt, caches that can are never stale, workers never orphaned.

- a corrupt case store (garbage, truncated) is moved aside with a warning and rebuilt; a row of
  bad JSON or of bytes that are not UTF-8 is dropped and recomputed while the valid rows are kept;
- a corrupt cached mesh (truncated, empty) is moved aside with a warning and rebuilt;
- the cache keys follow the imports: editing a module the solve depends on (in a copy of the
  project) makes the next run recompute the case and rebuild the mesh;
- a sweep whose parent is killed with SIGKILL leaves no worker process behind.
"""
import json
import logging
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hertz2d.calibration.penalty.cases import solver_namespace
from hertz2d.calibration.penalty.spec import expand
from hertz2d.calibration.penalty.sweep import run_sweep
from hertz2d.calibration.runs.store import CaseStore
from hertz2d.meshes.cache import cache_dir
from hertz2d.meshes.halfround import half_round_mesh

SPEC = {"base": {"R": 0.5, "a": 0.025, "E": 10e9, "nu": 0.25, "T": 1e5, "level": 0,
                 "supports": ["clamped"]},
        "grid": {"a_over_R": [0.04, 0.06], "nu": [0.2, 0.3]}}
PROJECT = Path(__file__).resolve().parents[1]


def test_a_garbage_store_is_moved_aside_and_rebuilt(tmp_path, caplog):
    path = tmp_path / "cases.sqlite"
    path.write_bytes(os.urandom(5000))
    with caplog.at_level(logging.WARNING, logger="hertz2d"):
        table = run_sweep(expand(SPEC), store=CaseStore(solver_namespace(), path), progress=False)
    assert (table.status == "ok").all()
    assert "unreadable" in caplog.text and "moved to" in caplog.text
    assert len(list(tmp_path.glob("cases.sqlite.corrupt-*"))) == 1  # kept for the user
    rerun = run_sweep(expand(SPEC), store=CaseStore(solver_namespace(), path), progress=False)
    assert rerun.reused.all()


def test_a_truncated_store_is_moved_aside_and_rebuilt(tmp_path, caplog):
    path = tmp_path / "cases.sqlite"
    store = CaseStore("test", path)
    store.put([((i,), {"value": "x" * 2000}) for i in range(200)])  # several pages
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    with caplog.at_level(logging.WARNING, logger="hertz2d"):
        fresh = CaseStore("test", path)
    assert "moved to" in caplog.text
    assert fresh.get([(0,)]) == {}
    fresh.put([((1,), {"value": 1})])
    assert fresh.get([(1,)]) == {(1,): {"value": 1}}


def test_a_row_of_bad_json_is_recomputed_and_the_others_kept(tmp_path, caplog):
    path = tmp_path / "cases.sqlite"
    cases = expand(SPEC)
    run_sweep(cases, store=CaseStore(solver_namespace(), path), progress=False)
    with sqlite3.connect(path) as db:
        key = db.execute("SELECT key FROM cases LIMIT 1").fetchone()[0]
        db.execute("UPDATE cases SET row = '{broken' WHERE key = ?", (key,))
    with caplog.at_level(logging.WARNING, logger="hertz2d"):
        table = run_sweep(cases, store=CaseStore(solver_namespace(), path), progress=False)
    assert "1 unreadable row(s) dropped" in caplog.text
    assert (table.status == "ok").all() and int((~table.reused).sum()) == 1


def test_a_row_that_is_not_utf8_is_recomputed_and_the_others_kept(tmp_path, caplog):
    path = tmp_path / "cases.sqlite"
    cases = expand(SPEC)
    run_sweep(cases, store=CaseStore(solver_namespace(), path), progress=False)
    with sqlite3.connect(path) as db:  # random bytes stored as TEXT, as a damaged file may hold
        key = db.execute("SELECT key FROM cases LIMIT 1").fetchone()[0]
        db.execute("UPDATE cases SET row = CAST(? AS TEXT) WHERE key = ?",
                   (b"\xff\xfe{\x80garbage", key))
    with caplog.at_level(logging.WARNING, logger="hertz2d"):
        table = run_sweep(cases, store=CaseStore(solver_namespace(), path), progress=False)
    assert "1 unreadable row(s) dropped" in caplog.text
    assert (table.status == "ok").all() and int((~table.reused).sum()) == 1
    again = run_sweep(cases, store=CaseStore(solver_namespace(), path), progress=False)
    assert again.reused.all()  # the recomputed row replaced the broken one


def test_a_store_another_program_keeps_locked_is_an_error_not_moved_aside(tmp_path,
                                                                          monkeypatch):
    path = tmp_path / "cases.sqlite"
    CaseStore("test", path).put([((1,), {"value": 1})])
    connect = sqlite3.connect
    with connect(path) as db:
        db.execute("BEGIN EXCLUSIVE")
        monkeypatch.setattr(sqlite3, "connect", lambda p, timeout: connect(p, timeout=0.1))
        with pytest.raises(OSError, match="database is locked"):
            CaseStore("test", path)
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == [path]  # not taken for corrupt
    assert CaseStore("test", path).get([(1,)]) == {(1,): {"value": 1}}


def test_a_store_that_cannot_be_written_is_an_os_error_naming_it(tmp_path, monkeypatch):
    store = CaseStore("test", tmp_path / "cases.sqlite")
    connect = sqlite3.connect
    with connect(store.path) as db:  # another program holds the write lock
        db.execute("BEGIN EXCLUSIVE")
        monkeypatch.setattr(sqlite3, "connect", lambda path, timeout: connect(path, timeout=0.1))
        with pytest.raises(OSError, match="case store: database is locked") as raised:
            store.put([((1,), {"value": 1})])
    assert raised.value.filename == str(store.path)


@pytest.mark.parametrize("damage", ["truncate", "empty", "garbage"])
def test_a_corrupt_cached_mesh_is_rebuilt(damage, caplog):
    mesh = half_round_mesh(0.5, 0.0375, 0)
    (cached,) = [p for p in cache_dir().glob("build_half_round-*.msh")
                 if p.stat().st_mtime >= time.time() - 60 and _has_points(p, mesh.p.shape[1])]
    data = cached.read_bytes()
    cached.write_bytes({"truncate": data[: len(data) // 2], "empty": b"",
                        "garbage": os.urandom(len(data))}[damage])
    with caplog.at_level(logging.WARNING, logger="hertz2d"):
        again = half_round_mesh(0.5, 0.0375, 0)
    assert "unreadable" in caplog.text and "rebuilding" in caplog.text
    assert again.p.shape == mesh.p.shape and cached.stat().st_size == len(data)
    assert cached.with_name(cached.name + ".corrupt").exists()


def _has_points(path: Path, count: int) -> bool:
    import meshio
    try:
        return len(meshio.read(path, file_format="gmsh").points) == count
    except Exception:
        return False


def test_a_sweep_over_corrupt_meshes_rebuilds_them_and_fails_nothing(tmp_path):
    env = {**os.environ, "HERTZ2D_CACHE": str(tmp_path / "cache")}
    spec = tmp_path / "spec.toml"
    spec.write_text(_toml(SPEC))
    command = [sys.executable, "-m", "hertz2d.calibration", "sweep", "--spec", str(spec), "--jobs", "1",
               "--results", str(tmp_path / "results"), "--json"]
    subprocess.run(command, env=env, check=True, capture_output=True)
    meshes = list((tmp_path / "cache" / "meshes").glob("*.msh"))
    for path in meshes:
        path.write_bytes(path.read_bytes()[:100])
    (tmp_path / "cache" / "cases.sqlite").unlink()  # force the cases to be solved again
    rerun = subprocess.run(command, env=env, capture_output=True, text=True)
    summary = json.loads(rerun.stdout.strip().splitlines()[-1])
    assert rerun.returncode == 0 and summary["failed"] == 0 and summary["reused"] == 0
    assert rerun.stderr.count("hertz2d: warning: cached mesh") == len(meshes)


def _toml(spec: dict) -> str:
    lines = []
    for table, values in spec.items():
        lines.append(f"[{table}]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in values.items()]
    return "\n".join(lines) + "\n"


def _copy_project(target: Path) -> Path:
    """A copy of the packages a solve imports, importable as hertz2d.* with ``target`` on the
    path (before the installed project); returns the copy's ``hertz2d`` folder."""
    for package in ("checks", "meshes", "fem", "calibration", "dem"):
        shutil.copytree(PROJECT / package, target / "hertz2d" / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return target / "hertz2d"


def test_editing_any_module_the_solve_imports_recomputes_the_case(tmp_path):
    copy = _copy_project(tmp_path / "project")
    spec = tmp_path / "spec.toml"
    spec.write_text(_toml(SPEC))
    env = {**os.environ, "HERTZ2D_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(copy.parent)}
    command = [sys.executable, "-m", "hertz2d.calibration", "sweep", "--spec", str(spec), "--jobs", "1",
               "--results", str(tmp_path / "results"), "--json"]

    def sweep() -> dict:
        run = subprocess.run(command, env=env, cwd=copy.parent, check=True, capture_output=True,
                             text=True)
        return json.loads(run.stdout.strip().splitlines()[-1])

    def meshes() -> int:
        return len(list((tmp_path / "cache" / "meshes").glob("*.msh")))

    assert sweep()["reused"] == 0
    built = meshes()
    assert sweep()["reused"] == 4 and meshes() == built  # nothing changed: everything reused
    # gmsh_session.py is reached only through meshes/halfround.py's imports
    with open(copy / "meshes" / "gmsh_session.py", "a") as module:
        module.write("\n# an edit\n")
    assert sweep()["reused"] == 0 and meshes() == 2 * built  # case and mesh recomputed
    with open(copy / "fem" / "factor.py", "a") as module:
        module.write("\n# an edit\n")
    assert sweep()["reused"] == 0 and meshes() == 2 * built  # the case, not the mesh


def test_the_two_disc_key_follows_the_contact_modules(tmp_path):
    copy = _copy_project(tmp_path / "project")
    probe = [sys.executable, "-c", "from hertz2d.calibration.validation.fem_runs import solver_namespace;"
                                   " print(solver_namespace())"]
    env = {**os.environ, "PYTHONPATH": str(copy.parent)}

    def key() -> str:
        return subprocess.run(probe, env=env, cwd=copy.parent, check=True, capture_output=True,
                              text=True).stdout.strip()

    before = key()
    with open(copy / "fem" / "contact" / "measure.py", "a") as module:
        module.write("\n# an edit\n")
    assert key() != before


def _children(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_killing_the_parent_leaves_no_worker_behind(tmp_path):
    """SIGKILL to a sweep: its workers exit, multiprocessing's resource tracker removes the
    pool's semaphores without a "leaked semaphore" note on the terminal (stderr, which the
    tracker shares)."""
    env = {**os.environ, "HERTZ2D_CACHE": str(tmp_path / "cache")}
    stderr = tmp_path / "stderr"
    with open(stderr, "wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "hertz2d.calibration", "sweep", "--quick", "--jobs", "2",
             "--results", str(tmp_path / "results")], env=env, stdout=subprocess.DEVNULL,
            stderr=sink)
    deadline, workers = time.time() + 60, set()
    while len(workers) < 3 and time.time() < deadline:  # two workers and the resource tracker
        workers = _children(process.pid)
        time.sleep(0.1)
    assert len(workers) >= 2, "the sweep never started its workers"
    time.sleep(1.0)
    process.send_signal(signal.SIGKILL)
    process.wait()
    deadline = time.time() + 10
    while any(_alive(pid) for pid in workers) and time.time() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if _alive(pid)]
    assert "leaked" not in stderr.read_text(), stderr.read_text()[-2000:]
