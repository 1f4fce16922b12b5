"""Sparse LDL^T factorisation of SPD matrices that share one sparsity pattern.

A parametric sweep on one mesh factorises the same pattern several times (a few shifts of the
reduced Poisson-ratio solve, :mod:`hertz2d.fem.parametric`, per support). qdldl keeps the AMD ordering and
the symbolic analysis of the first matrix and redoes only the numeric factorisation, which at the
default half-round mesh (8k DOFs) costs 0.02 s against 0.045 s for SuperLU with its best ordering
(benchmarks/halfround.py). CHOLMOD (scikit-sparse, built against Debian's SuiteSparse 5 and its
reference BLAS) was no faster at 9k-20k DOFs, and its current release does not build against it.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import qdldl
import scipy.sparse as sp


class PatternFactorizer:
    """Factorise successive SPD matrices of one fixed sparsity pattern."""

    def __init__(self) -> None:
        self._solver: qdldl.Solver | None = None
        self._shape: tuple[int, int] | None = None
        self._nnz: int | None = None

    def factorize(self, matrix: sp.csc_matrix) -> Callable[[np.ndarray], np.ndarray]:
        """Factorise ``matrix``; return a function solving ``matrix @ x = b`` for one ``b``."""
        if self._solver is None:
            self._solver = qdldl.Solver(matrix)
            self._shape, self._nnz = matrix.shape, matrix.nnz
        else:
            if matrix.shape != self._shape or matrix.nnz != self._nnz:
                raise ValueError("PatternFactorizer needs every matrix on the first one's pattern")
            self._solver.update(matrix)
        return self._solver.solve
