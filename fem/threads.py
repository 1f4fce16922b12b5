"""One BLAS thread for the small dense algebra of a contact solve, at a negligible cost per use.

``threadpoolctl.threadpool_limits`` finds the process' thread pools anew on every call by reading
its memory map: 0.7 ms in a bare interpreter, 2-5 ms once gmsh, scipy and the pipeline's
libraries are loaded, which was more than a two-body load step's whole contact solve at the
map's mesh level (benchmarks/map.py). The pools are found once here (after numpy and scipy have
loaded their BLAS) and each :func:`one_blas_thread` only sets and restores their sizes.
"""
from __future__ import annotations

from functools import cache

from threadpoolctl import ThreadpoolController


@cache
def _pools() -> ThreadpoolController:
    return ThreadpoolController()


def one_blas_thread():
    """A context in which every thread pool of the process (BLAS, OpenMP) has one thread."""
    return _pools().limit(limits=1)
