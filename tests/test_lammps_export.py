"""``hertz2d export-law --lammps DIR`` stopped during the compile (SIGINT, SIGTERM, SIGKILL): no
DIR, no compiler left running, and after SIGKILL the next export removes what the killed one left
and writes DIR whole.

Needs the ``lammps`` extra and a C++ compiler (skips with the reason otherwise); Linux's /proc
(the compiler is found by the export's hidden folder in its command line).
"""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hertz2d.calibration.export.lammps import build, runtime

REASON = runtime.supported()
pytestmark = pytest.mark.skipif(REASON is not None or not Path("/proc/self").exists(),
                                reason=f"LAMMPS plugin: {REASON}, or no /proc")


def processes_naming(text: str) -> list[int]:
    """The processes whose command line contains ``text``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if text.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _default_interrupt():
    """A background job's shell may ignore SIGINT, and Python then keeps it ignored: as from a
    terminal, the export gets Ctrl-C's default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def export(target: Path, cache: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "hertz2d.calibration", "export-law", "--lammps",
                             str(target)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "HERTZ2D_CACHE": str(cache)},
                            preexec_fn=_default_interrupt)


def compiling(target: Path, process: subprocess.Popen, timeout: float = 120.0) -> Path:
    """Wait until the export's compiler runs; its hidden folder."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert process.poll() is None, process.stderr.read()
        for staged in target.parent.glob(f".{target.name}.*.build"):
            if (staged / build.BUILD_HEADER).exists() and any(
                    pid != process.pid for pid in processes_naming(str(staged))):
                return staged
        time.sleep(0.05)
    raise AssertionError("the compiler did not start")


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143),
                                          (signal.SIGKILL, -signal.SIGKILL)],
                         ids=["SIGINT", "SIGTERM", "SIGKILL"])
def test_a_stopped_export_leaves_no_folder_and_no_compiler(tmp_path, signum, code):
    target = tmp_path / "plugin"
    process = export(target, tmp_path / "cache")
    staged = compiling(target, process)
    time.sleep(0.3)  # well into the compile
    os.kill(process.pid, signum)
    assert process.wait(timeout=60) == code
    assert not target.exists()
    end = time.monotonic() + 10.0
    while processes_naming(str(staged)) and time.monotonic() < end:
        time.sleep(0.05)
    assert processes_naming(str(staged)) == [], "the compiler runs on"
    if signum != signal.SIGKILL:
        assert not staged.exists()
        return
    assert staged.exists()  # what SIGKILL leaves; the next export removes it
    again = export(target, tmp_path / "cache")
    assert again.wait(timeout=300) == 0, again.stderr.read()
    assert not staged.exists()
    assert {path.name for path in target.iterdir()} >= {"law.json", "hertz2d_law.h",
                                                        build.PLUGIN_FILE, build.MANIFEST}
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".")] == []
    assert [path.name for path in target.iterdir() if path.name.startswith(".")] == []


def test_leftovers_of_dead_exports_go_and_a_running_exports_stay(tmp_path):
    """remove_leftovers keeps the hidden folder of an export whose process runs (two exports
    beside one folder do not disturb each other) and removes a dead process's and a day-old
    one's."""
    from hertz2d.calibration.export.lammps.staging import remove_leftovers
    target = tmp_path / "plugin"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    folders = {name: tmp_path / f".plugin.{pid}-abc_12.build" for name, pid in
               (("running", os.getpid()), ("dead", dead.pid), ("old", os.getpid() + 1))}
    for folder in folders.values():
        folder.mkdir()
        (folder / "law.json").write_text("{}")
    os.utime(folders["old"], (time.time() - 2 * 86400,) * 2)
    remove_leftovers(target)
    assert {name for name, folder in folders.items() if folder.exists()} == {"running"}
