"""A gmsh session leaves the process's signal dispositions as Python set them."""
import signal
from pathlib import Path

import pytest

from hertz2d.meshes.gmsh_session import gmsh_session

STATUS = Path("/proc/self/status")


def sigpipe_ignored() -> bool:
    """Whether the kernel ignores SIGPIPE for this process (Linux: the SigIgn mask)."""
    for line in STATUS.read_text().splitlines():
        if line.startswith("SigIgn:"):
            return bool(int(line.split()[1], 16) & (1 << (signal.SIGPIPE - 1)))
    raise AssertionError("no SigIgn line")


@pytest.mark.skipif(not STATUS.exists(), reason="needs Linux's /proc/self/status")
def test_meshing_keeps_sigpipe_ignored():
    """gmsh's initialisation resets SIGPIPE to terminate the process; a process that meshed
    (a test run, a dask worker) then died when a peer closed a socket it wrote to."""
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # Python's own setting
    with gmsh_session("probe"):
        assert sigpipe_ignored()
    assert sigpipe_ignored()
