"""Outputs of ``(K_mu + r K_lambda) u = f`` for many ratios ``r`` from a few factorisations.

On one mesh the plane-strain stiffness is ``mu (K_mu + r K_lambda)`` with ``r = lambda / mu =
2 nu / (1 - 2 nu)`` (:mod:`hertz2d.fem.elasticity`), so a sweep over the Poisson ratio is a
one-parameter family of SPD systems, of which a sweep needs one number per load: an output
``l^T u`` (a displacement difference of two nodes). ``r`` runs from 0 (nu = 0) to 49 (nu = 0.49,
nearly incompressible), so no single expansion point serves the whole range.

Method: a reduced basis by rational Krylov vectors and Galerkin projection.

1. *Shifts*: a few of the requested ratios, the smallest, the largest, and between them enough
   that ``1 + r`` grows by at most :data:`SHIFT_STEP` from one shift to the next
   (:func:`shifts_for`). At each shift ``s`` the stiffness is factorised once and gives the block
   ``W_0 = K(s)^-1 [F, L]`` (the exact solutions of the loads ``F`` and of the *dual* problems
   whose loads are the output vectors ``L``) and :data:`MOMENTS` - 1 further blocks
   ``W_k = K(s)^-1 K_lambda W_(k-1)`` (up to sign and scale, the Taylor coefficients of the
   solutions in ``r`` about ``s``); everything is orthonormalised into ``V``.
2. Every other ratio: the Galerkin solutions ``u_r = V (V^T K(r) V)^-1 V^T F`` and, likewise,
   ``z_r`` of the dual problems; the output is ``l^T u_r``.
3. A guaranteed error bound per output. Galerkin orthogonality (``V^T (F - K(r) u_r) = 0``, and
   ``z_r`` lies in ``V``) gives ``|l^T (u - u_r)| = |(z - z_r)^T K(r) (u - u_r)| <=
   ||F - K(r) u_r||_{K(r)^-1} ||l - K(r) z_r||_{K(r)^-1}``. ``K_lambda`` is positive
   semidefinite, so ``K(r) >= K(r_min)`` for every ``r >= r_min`` and each dual norm is at most
   the one in ``K(r_min)^-1``, which the factorisation at the smallest shift (factorised last)
   gives for every ``r`` from the images ``K(r_min)^-1 K_lambda V`` (one solve per basis
   vector, since ``K(r) = K(r_min) + (r - r_min) K_lambda``). A ratio whose bound exceeds
   ``tolerance |l^T u_r|`` is solved directly instead.

At a shift the outputs are those of the direct solve. The bound holds for any mesh and load;
:data:`MOMENTS` and :data:`SHIFT_STEP` only decide how often the direct fallback is needed: on the
half-round body's grid of 11 ratios (0 to 49) the defaults need three factorisations and no
fallback (tests/test_parametric.py), where direct solves need eleven.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from hertz2d.fem.elasticity import StiffnessParts
from hertz2d.fem.factor import PatternFactorizer

#: largest growth of ``1 + r`` from one shift to the next
SHIFT_STEP = 10.0
#: Krylov blocks per shift (the first is the direct solution at the shift)
MOMENTS = 2
#: the largest guaranteed relative error of an output before the ratio is solved directly; for the
#: half-round body's u_x it keeps the penalty factor w within (1 + w) * TOLERANCE of the direct
#: solve's (Eq. 20: dw = (w + b1/b2) du/u with b1/b2 < 1), within 5e-7 for w < 1
TOLERANCE = 2.5e-7
#: a new basis direction shorter than this after orthogonalisation is already in the basis
_DEPENDENT = 1e-10


@dataclass(frozen=True)
class ParametricOutputs:
    """Per ratio (rows) and load (columns): the output, its error bound and how it was solved.

    ``bound`` is a guaranteed bound of ``|output - exact output|`` (0 where the ratio was solved
    directly: at a shift or by the fallback); ``direct`` marks those ratios.
    """

    ratios: np.ndarray
    outputs: np.ndarray
    bounds: np.ndarray
    direct: np.ndarray
    factorisations: int


def shifts_for(ratios: Sequence[float], step: float = SHIFT_STEP) -> list[float]:
    """The requested ratios to factorise at: the extremes, and enough between them that ``1 + r``
    grows by at most ``step`` from one to the next (when a requested ratio lies in the gap)."""
    ratios = sorted(set(float(r) for r in ratios))
    shifts = {ratios[0], ratios[-1]}
    gaps = [(ratios[0], ratios[-1])]
    while gaps:
        low, high = gaps.pop()
        inside = [r for r in ratios if low < r < high]
        if not inside or (1.0 + high) / (1.0 + low) <= step:
            continue
        middle = 0.5 * (math.log1p(low) + math.log1p(high))
        split = min(inside, key=lambda r: abs(math.log1p(r) - middle))
        shifts.add(split)
        gaps += [(low, split), (split, high)]
    return sorted(shifts)


class _Basis:
    """Orthonormal columns, grown block by block; directions already spanned are dropped."""

    def __init__(self, size: int):
        self.columns = np.zeros((size, 0))

    def extend(self, block: np.ndarray) -> np.ndarray:
        """Add ``block``'s new directions; return them (orthonormal, possibly fewer columns)."""
        block = block / np.linalg.norm(block, axis=0)
        for _ in range(2):  # classical Gram-Schmidt, twice, is orthogonal to working precision
            block = block - self.columns @ (self.columns.T @ block)
        left, singular, _ = np.linalg.svd(block, full_matrices=False)
        new = left[:, singular > _DEPENDENT]
        self.columns = np.hstack([self.columns, new])
        return new


def parametric_outputs(parts: StiffnessParts, loads: np.ndarray, probes: np.ndarray,
                       ratios: Sequence[float], factorizer: PatternFactorizer | None = None,
                       tolerance: float = TOLERANCE, step: float = SHIFT_STEP,
                       moments: int = MOMENTS) -> ParametricOutputs:
    """``probes[:, j] @ u_j`` with ``(K_mu + r K_lambda) u_j = loads[:, j]`` for every ``r``.

    ``parts`` holds ``K_lambda`` and ``K_mu`` (both on the free DOFs); ``loads`` and ``probes``
    have one column per load and its output. ``factorizer`` (a fresh one by default) is reused
    for every factorisation, so the symbolic analysis is done once. ``step`` and ``moments``
    set the basis (:data:`SHIFT_STEP`, :data:`MOMENTS`), ``tolerance`` the direct fallback.
    """
    ratios = np.asarray(ratios, dtype=float)
    factorizer = factorizer or PatternFactorizer()
    loads, probes = np.atleast_2d(loads.T).T, np.atleast_2d(probes.T).T
    columns = loads.shape[1]
    outputs = np.zeros((len(ratios), columns))
    bounds = np.zeros_like(outputs)
    direct = np.zeros(len(ratios), dtype=bool)
    volumetric = parts.matrix(volumetric=1.0, deviatoric=0.0)
    deviatoric = parts.matrix(volumetric=0.0, deviatoric=1.0)

    def solve_block(solve, block: np.ndarray) -> np.ndarray:
        return np.column_stack([solve(column) for column in block.T])

    shifts = shifts_for(ratios, step)
    reduced = ~np.isin(ratios, shifts)
    both = np.hstack([loads, probes]) if reduced.any() else loads
    basis = _Basis(len(loads))
    factorisations = 0
    for shift in reversed(shifts):  # the smallest last: its factorisation bounds the errors
        solve = factorizer.factorize(parts.matrix(volumetric=shift, deviatoric=1.0))
        factorisations += 1
        exact = solve_block(solve, both)
        at_shift = ratios == shift
        outputs[at_shift] = np.einsum("ij,ij->j", probes, exact[:, :columns])
        direct[at_shift] = True
        block = basis.extend(exact) if reduced.any() else exact[:, :0]
        for _ in range(moments - 1):
            if not block.shape[1]:
                break
            block = basis.extend(solve_block(solve, volumetric @ block))

    if reduced.any():
        V, lowest, at_lowest = basis.columns, exact, shifts[0]
        mu_V, lambda_V = deviatoric @ V, volumetric @ V
        stiffness_mu, stiffness_lambda = V.T @ mu_V, V.T @ lambda_V
        # `solve` is the smallest shift's: K(r) = K(r_min) + (r - r_min) K_lambda, so with these
        # images K(r_min)^-1 of a residual is a combination of known vectors, for every r
        images = solve_block(solve, lambda_V)
        for index in np.flatnonzero(reduced):
            ratio = ratios[index]
            coefficients = np.linalg.solve(stiffness_mu + ratio * stiffness_lambda, V.T @ both)
            residual = both - (mu_V + ratio * lambda_V) @ coefficients
            preconditioned = (lowest - V @ coefficients
                              - (ratio - at_lowest) * (images @ coefficients))
            norms = np.sqrt(np.abs(np.einsum("ij,ij->j", residual, preconditioned)))
            outputs[index] = np.einsum("ij,ij->j", probes, V @ coefficients[:, :columns])
            bounds[index] = norms[:columns] * norms[columns:]
        fallback = reduced & (bounds > tolerance * np.abs(outputs)).any(axis=1)
        for index in np.flatnonzero(fallback):
            solve = factorizer.factorize(parts.matrix(volumetric=ratios[index], deviatoric=1.0))
            factorisations += 1
            outputs[index] = np.einsum("ij,ij->j", probes, solve_block(solve, loads))
            bounds[index], direct[index] = 0.0, True
    return ParametricOutputs(ratios, outputs, bounds, direct, factorisations)
