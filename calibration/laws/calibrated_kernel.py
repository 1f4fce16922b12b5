"""The calibrated law one contact at a time: plain functions of floats and small arrays (``math``,
and numpy for one work array), so that numba compiles them unchanged (the DEM, the fit) and they
run as ordinary Python without it (the law's tables). :mod:`hertz2d.calibration.laws.calibrated` explains
the law and why it is admissible; this module is its arithmetic.

The tangential state is a superposition of Hertzian tractions (the accurate model with memory's
representation, :mod:`hertz2d.calibration.laws.memory`): pieces ``(b_(j-1), b_j]`` of the contact's
half-width, each with a traction density ``-1 <= phi_j <= 1`` (``|phi| <= 1`` is Coulomb's law), so
that ``T = mu N sum_j phi_j g_j`` with ``y = b^2/a^2`` and the pieces' widths ``g_j = y_j -
y_(j-1)``, and the pieces stand for the tangential displacement ``U = sum_j phi_j [D(y_j) -
D(y_(j-1))]`` with

    ``D(y) = s y (B - kappa log y)``,  ``s = mu N/(pi E*)``                                    (C2)

the displacement of a flat-punch traction of half-width b inside the contact of half-width a.
In absolute terms ``D = (mu b^2/(4 R*)) (B(a) + kappa log a^2 - kappa log b^2)``: a piece's own
(local) compliance, which depends on its width alone (kappa is a constant of the pair), plus the
pair's structural compliance ``lambda(a) = (B(a) + kappa log a^2)/(pi E*)`` times the piece's
resultant. A step (the new N and a, and a tangential increment d of the pair displacement):

1. the pieces outside the new a are cut (a falling N releases their traction); a growing contact
   gains an annulus piece that takes the increment first, sticking while ``|d| <= dD``;
2. what the pieces must stand for is the previous displacement plus d; the rest moves a slip front
   in from the edge (every piece it crosses takes ``phi = sigma``), solved for its position by
   (C2)'s inverse: ``y(B - kappa log y) = v`` gives ``y = exp(B/kappa + W_{-1}(-(v/kappa)
   e^{-B/kappa}))`` with Lambert's W_{-1} (:func:`front_fraction`), which a front moving in from
   a nearby edge reaches in fewer operations by Halley's method from that edge
   (:func:`front_from`). A front reaching the centre is full slip (one piece at sigma, the rest
   of d rigid slip);
3. neighbouring pieces of one density merge, and the stuck pieces (``|phi| < 1``) that share a
   cell of a fixed geometric grid in b^2 fold into one, keeping T and (where the energy allows)
   the displacement (:func:`fold_cells`); beyond :data:`PIECES` the memory is reduced by a step
   that never adds stored energy (:func:`reduce_memory`).

Between contacts of dissimilar bodies (Dundurs' beta != 0) these moves slip a little more
(:func:`tangential_step`'s ``first_slip`` and ``annulus_slip``, the pair's): a front crossing the
untouched area (what no front has crossed since the contact closed or last slid in full: the area
laid under normal load, where Spence's slip has locked in a shear the symmetric pieces cannot hold;
a full slip wipes that shear out, the area the contact gains after it has it again), and an entering
annulus where it lies beyond the largest area the contact has covered since it closed (fresh area),
the rim's extra in proportion to the share ``|T|/(mu N)`` of the bound T has reached; the extra
displacement is a rigid slip of the contact, taken only where T has its sign, so it dissipates. The
rim's extra slip is measured by the displacement (C1) gives the traction laid over the step as the
contact's width passed through the band (B and s at each width between the step's two, not at one
end alone, ``_swept``), the front's at the step's middle: each is a rate summed over the steps,
which measured at the step's end would carry an error first order in the step into every later
force. For the same reason a step in which T reaches the slip's sign takes the extra for its share
after T crossed zero, and the untouched area a falling N cuts is crossed first, as the rim recedes
over it (cut in the same step). The rim slips extra on fresh area only, as a front does on untouched
area: the shear is locked in where the contact first closes. An extra slip each time the rim sweeps
a band, as the contact grows back and as it shrinks, would, on a contact whose size swings while T
keeps one sign, move the contact by a rigid slip every cycle (a ratchet that drifts T's loop off its
centre for tens of cycles and releases stored energy, where the two-body FEM's loop repeats itself
from its second cycle on), and would make the tangential loop carry the energy that the FEM
dissipates in its normal loop.

The stored energy of the pieces (:func:`stored_energy`) is the elastic energy of their traction,
``(1/(2 pi E*)) [(B - kappa) T^2 + kappa (mu N)^2 int_0^1 Phi(y)^2/y dy]`` with
``Phi(y) = int_0^y phi``: the kernel ``B - kappa - kappa log(max(y, y'))`` of two punches, positive
definite because it decreases with the wider one (B > kappa). Every operation above either moves
the state elastically or lowers this energy at fixed displacement: the work done on the contact
is never less than the energy it stores.

The history of one contact is :data:`HISTORY` doubles: the number of pieces, the displacement they
stand for and the contact's area a^2 they cover, then per piece its width in ``e = b^2`` (``e_j -
e_(j-1)``, m^2), the logarithm of its edges' ratio ``log(e_j/e_(j-1))`` (unused for the innermost
piece) and phi_j, and last the untouched area's outer edge, the largest area and the untouched
area's inner edge in e, and the structural compliance held (:func:`held_curve`; all 0 for a new
contact). Widths and ratios,
not the edges themselves, so that a front a small fraction of the contact in from its rim (the
microslip of a small tangential increment) is held to full precision: the edges ``1 - 1e-9`` of the
area apart would keep seven digits of their distance, and each step would slip by the rounding.

The curve's constants at the contact's half-width a (:func:`curves`: (C1)'s B and the slope
``a dB/da + 2 kappa`` of the structural compliance, which the normal force's coupling term
needs) come from a and from :data:`CURVE_DATA` numbers of the pair that do not depend on a
(:func:`hertz2d.calibration.laws.calibrated.curve_data`), so that a DEM code computes those once per
pair and only :func:`curves`' few products per step.

The structural compliance is held at the largest area the contact has covered since it closed
(:func:`held_curve`): a fixed traction stands for a fixed displacement, as in the bodies of the
two-body FEM, whose compliance does not change with the contact's width. With lambda following
a, a contact whose width swings at a fixed traction would stand for another displacement at
every width, and the slip front that made up the difference would not undo itself around a loop:
T's loop would move by the same small amount every repeat and return stored energy (the law's
format 7, a few 1e-5 of T a repeat on loops whose approach swings with delta_t).
"""
from __future__ import annotations

import math

import numpy as np

from hertz2d.calibration.laws.lambert_w import lambert_w_minus1

#: the most traction pieces a contact keeps (one more for the length of a step): twelve, because
#: loops whose approach swings at twice the tangential frequency need nine to twelve with the
#: folds, and with eight each repeat's memory reduction moved T's loop a little (a drift that
#: returned stored energy on 29 of the 69 of 10^4 random loops whose W was negative)
PIECES = 12
#: doubles of history per contact: count, displacement, area, then width, edge ratio and phi
#: per piece, then the untouched area's outer edge, the largest area, the untouched area's
#: inner edge and the structural compliance held
HISTORY = 7 + 3 * PIECES
#: offsets of the area and the per-piece arrays in the history; of the untouched area's outer
#: edge (the e = b^2, m^2, up to which no slip front has crossed the contact since it closed or
#: last slid in full); of the largest area (the largest e = a^2 the contact has covered since it
#: closed); and of the untouched area's inner edge, the area the contact covered when it last
#: slid in full (0 if it has not): the untouched area is the band between the two edges; and of
#: the structural compliance held, ``pi E* lambda = B + kappa log a^2`` at the largest area
#: (:func:`held_curve`)
AREA, WIDTHS, RATIOS, DENSITIES, UNTOUCHED = 2, 3, 3 + PIECES, 3 + 2 * PIECES, 3 + 3 * PIECES
LARGEST, SLID, HELD = 4 + 3 * PIECES, 5 + 3 * PIECES, 6 + 3 * PIECES
#: log(2), of the half-space term log(2R/a) = log(4R/a) - log(2)
LOG_2 = 0.6931471805599453
#: sqrt(2) and 1/sqrt(2), for the fixed grid of cells in e = b^2 within which pieces fold into
#: one (:func:`fold_cells`): the cells are ``[2^(k/2), 2^((k+1)/2))`` in the unit of area the law
#: runs in (m^2 in SI), each sqrt(2) wide; a cell keeps its place while the contact grows and
#: shrinks
SQRT_2 = 1.4142135623730951
SQRT_HALF = 0.7071067811865476
#: how many trial edges ``_fold`` tries when keeping the displacement would raise the energy,
#: and the most evaluations a fold's root takes (``_narrowed``)
FOLD_TRIALS = 8
FOLD_ITERATIONS = 60
#: the most Newton steps a fold's root takes from the pieces' own edge (``_kept_edge``) before
#: the bracketed search takes over, and the step (a fraction of the pieces' width) that ends it:
#: Newton's error after a step is of the order of the step's square, rounding's beyond it
FOLD_NEWTON = 8
FOLD_NEWTON_STEP = 1e-10
#: where a fold's bracketed root stops: its bracket within this fraction of the pieces' width,
#: near the rounding of what the search evaluates
FOLD_TOLERANCE = 1e-14
#: 1/k for the series of ``_square_integral``: a product per term instead of a division
RECIPROCALS = (0.0,) + tuple(1.0 / k for k in range(1, 25))
#: whether the law as shipped folds the pieces of one cell into one (:func:`fold_cells`), which
#: the DEM and the Python law pass to :func:`tangential_step`; off only in the benchmarks'
#: reference memory with room for every piece, which the folds approximate
FOLD = True
#: a pair's numbers for :func:`curves` (:func:`hertz2d.calibration.laws.calibrated.curve_data`): per body
#: (body 2's at +BODY) its bracket weight omega, the penalty factor's terms constant and linear in
#: x = a/R (``w0 + w2 nu + w5 nu^2``, ``w1 + w4 nu``) and ``nu/(2(1 - nu))``; then w3 (of x^2),
#: the coupling's shift of B, the pair's kappa and its two extra slips of Spence's locked-in
#: shear (:func:`tangential_step`'s ``first_slip`` and ``annulus_slip``)
OMEGA, W_CONSTANT, W_LINEAR, POISSON_TERM, BODY = 0, 1, 2, 3, 4
W_SQUARE, SHIFT_B, KAPPA, FIRST_SLIP, ANNULUS_SLIP = 8, 9, 10, 11, 12
CURVE_DATA = 13


def curves(a, log_a, R1, R2, log_4R1, log_4R2, data):
    """``(B, slope)`` at half-width a (> 0) from ``log a``, the radii, ``log(4 R_i)`` and the
    pair's :data:`CURVE_DATA` numbers ``data`` (indexable: a tuple of floats, or of arrays to
    evaluate many contacts at once).

    ``B = sum_i omega_i [log(2 R_i/a) + 1/2 + w_i (log(4 R_i/a) + nu_i/(2(1 - nu_i)))] + shift``
    (Eq. 27's bracket, w of Eq. 33's form in x_i = a/R_i, not clipped) and ``slope = a dB/da +
    2 kappa`` = ``sum_i omega_i [-1 - w_i + x_i w_i'(x_i) (log(4 R_i/a) + nu_i/(2(1 - nu_i)))] +
    2 kappa``: the derivative of the structural compliance ``pi E* lambda = B + kappa log a^2``
    with respect to log a.
    """
    x1, x2 = a / R1, a / R2
    l1, l2 = log_4R1 - log_a, log_4R2 - log_a
    p1, p2 = l1 + data[POISSON_TERM], l2 + data[BODY + POISSON_TERM]
    w1 = data[W_CONSTANT] + data[W_LINEAR] * x1 + data[W_SQUARE] * x1 * x1
    w2 = data[BODY + W_CONSTANT] + data[BODY + W_LINEAR] * x2 + data[W_SQUARE] * x2 * x2
    slope1 = x1 * (data[W_LINEAR] + 2.0 * data[W_SQUARE] * x1)
    slope2 = x2 * (data[BODY + W_LINEAR] + 2.0 * data[W_SQUARE] * x2)
    bracket = (data[OMEGA] * (l1 - LOG_2 + 0.5 + w1 * p1)
               + data[BODY + OMEGA] * (l2 - LOG_2 + 0.5 + w2 * p2))
    slope = (data[OMEGA] * (-1.0 - w1 + slope1 * p1) + data[BODY + OMEGA] * (-1.0 - w2 + slope2 * p2)
             + 2.0 * data[KAPPA])
    return bracket + data[SHIFT_B], slope


def normal_coupling(T: float, N: float, slope: float, k_normal: float, modulus: float) -> float:
    """The normal force's term of the tangential state, ``-T^2 slope k_n/(4 N pi E*)``: the
    derivative of the stored energy ``lambda(a) T^2/2`` of the structural compliance with respect
    to the approach at fixed traction (``d lambda/d delta_n = slope/(2 N (u - 1))`` with ``pi E*/
    (u - 1) = k_n``, the tangent of Eqs. 4 + 22). Without it a closed path that loads the contact
    tangentially at one approach and unloads it at another would return more work than it took."""
    if N <= 0.0:
        return 0.0
    return -T * T * slope * k_normal / (4.0 * N * math.pi * modulus)


def front_fraction(v: float, B: float, kappa: float) -> tuple[float, float]:
    """``(y, log y)``, y in (0, 1] with ``y (B - kappa log y) = v`` (0 < v <= B; B > kappa > 0):
    ``log y = B/kappa + W_{-1}(-(v/kappa) e^{-B/kappa})``."""
    if v >= B:
        return 1.0, 0.0
    if v <= 0.0:
        return 0.0, -math.inf
    ratio = B / kappa
    log_y = ratio + lambert_w_minus1(-(v / kappa) * math.exp(-ratio))
    return math.exp(log_y), log_y


def front_from(r: float, B: float, kappa: float, y: float, log_y: float) -> float:
    """How far ``h = log y - log y'`` (>= 0) a front moves in from the edge ``(y, log y)`` to
    stand for the displacement r of (C2) less: ``D(y) - D(y') = s r``,

        ``F(h) = y [(B - kappa log y)(1 - e^-h) - kappa h e^-h] - r = 0``

    (``F' = y' (B - kappa - kappa log y')``, (C1)'s slope, ``F'' = -y' (B - 2 kappa - kappa
    log y')``), written so that a front that moves a small fraction of the contact loses no
    digits to the displacement of the edge: ``1 - e^-h`` is ``-expm1(-h)``. Halley's method from
    the first-order move ``h = r/F'(0)``; its error after a correction of size c is below about
    ``20 c^3`` relative to h (B - kappa >= B/10), so a correction below 1e-6 h leaves h to
    rounding. A move of more than h = 1 (the front's y falls by more than e), or one that does
    not settle in five corrections, is solved by :func:`front_fraction` (W_{-1})."""
    edge = B - kappa * log_y
    v = y * edge - r
    if v <= 0.0:
        return math.inf
    tangent = y * (edge - kappa)
    h = r / tangent if tangent > 0.0 else math.inf
    if h <= 1.0:
        for _ in range(5):
            shrink = math.exp(-h)
            inner = y * shrink
            residual = y * (-edge * math.expm1(-h) - kappa * h * shrink) - r
            slope = inner * (edge - kappa + kappa * h)
            curvature = -inner * (edge - 2.0 * kappa + kappa * h)
            correction = 2.0 * residual * slope / (2.0 * slope * slope - residual * curvature)
            h -= correction
            if abs(correction) <= 1e-6 * h:
                if 0.0 <= h <= 1.0:
                    return h
                break
    return log_y - front_fraction(v, B, kappa)[1]


def _stands_for(history, count: int, area: float, B: float, kappa: float,
                log_last: float) -> tuple[float, float]:
    """``(U/s, T/(mu N))`` of the pieces at the contact area ``area`` (> 0): what they stand for,
    ``sum_j phi_j [D(y_j) - D(y_(j-1))]/s``, and their resultant over mu N, ``sum_j phi_j g_j``;
    ``log_last`` is log y of the outermost piece's outer edge (0 when it is the rim). Each
    piece's ``[D(y_j) - D(y_(j-1))]/s = g_j (B - kappa log y_j) - kappa y_(j-1) log(y_j/
    y_(j-1))``, with log y_j summed from the rim inwards (the pieces near the rim, where the
    fronts of small increments are, keep every digit)."""
    inverse = 1.0 / area
    total, weighted = 0.0, 0.0
    log_y, y = log_last, math.exp(log_last)
    for j in range(count - 1, -1, -1):
        width = history[WIDTHS + j] * inverse
        phi = history[DENSITIES + j]
        weighted += phi * width
        if j > 0:
            below = max(y - width, 0.0)
            total += phi * (width * (B - kappa * log_y) - kappa * below * history[RATIOS + j])
            log_y -= history[RATIOS + j]
            y = below
        else:
            total += phi * width * (B - kappa * log_y)
    return total, weighted


def _square_integral(low: float, width: float, ratio: float, start: float, phi: float) -> float:
    """``int_low^(low + width) Phi(y)^2/y dy`` for ``Phi = start + phi (y - low)``, ``ratio`` the
    log of the ends' ratio ``log1p(width/low)`` (unused where low = 0). With q = width/low:
    ``start^2 ratio + 2 start phi low (q - ratio) + phi^2 low^2 (q^2/2 - q + ratio)``, the two
    brackets by their series below q = 0.1 (they cancel to q^2/2 and q^3/3 at small q; at most 24
    terms, which leave 1e-24 of them, and fewer where q is small: the sums stop at the first term
    that changes neither), so a thin piece far from the centre keeps the digits of its own small
    integral."""
    if low <= 0.0:
        return 0.5 * phi * phi * width * width
    q = width / low
    if q < 0.1:  # q - log1p(q) = sum_k>=2 (-q)^k/k; q^2/2 - q + log1p(q) = -sum_k>=3 (-q)^k/k
        first, second, power = 0.5 * q * q, 0.0, q * q
        for k in range(3, 25):
            power *= -q
            term = power * RECIPROCALS[k]
            if first + term == first and second - term == second:
                break  # the terms fall with k: none after this one changes either sum
            first += term
            second -= term
    else:
        first = q - ratio
        second = 0.5 * q * q - q + ratio
    return start * start * ratio + 2.0 * start * phi * low * first + phi * phi * low * low * second


def energy_integral(history, count: int, area: float) -> float:
    """``int_0^1 Phi(y)^2/y dy`` of the pieces (``Phi(y) = int_0^y phi``, y = b^2/a^2)."""
    inverse = 1.0 / area
    total, low, start = 0.0, 0.0, 0.0
    for j in range(count):
        width = history[WIDTHS + j] * inverse
        phi = history[DENSITIES + j]
        total += _square_integral(low, width, history[RATIOS + j], start, phi)
        start += phi * width
        low += width
    return total


def _resultant(history, count: int) -> float:
    """``sum_j phi_j (e_j - e_(j-1))``: T/(mu N) times a^2, whose sign is T's."""
    total = 0.0
    for j in range(count):
        total += history[DENSITIES + j] * history[WIDTHS + j]
    return total


def stored_energy(history, N: float, a: float, mu: float, modulus: float, B: float,
                  kappa: float) -> float:
    """The elastic energy of the contact's traction (J/m), ``(1/(2 pi E*)) [(B - kappa) T^2 +
    kappa (mu N)^2 int_0^1 Phi(y)^2/y dy]`` (0 for an open contact)."""
    count = int(history[0])
    if count == 0 or N <= 0.0 or a <= 0.0:
        return 0.0
    area = a * a
    T = mu * N * _resultant(history, count) / area
    return ((B - kappa) * T * T + kappa * (mu * N) ** 2 * energy_integral(history, count, area)) / (
        2.0 * math.pi * modulus)


def _merge_change(history, j: int, area: float) -> tuple[float, float]:
    """``(change of int Phi^2/y, mean density)`` if pieces j and j + 1 became one piece of their
    size-weighted mean density (T unchanged)."""
    inverse = 1.0 / area
    low, start = 0.0, 0.0
    for i in range(j):
        width = history[WIDTHS + i] * inverse
        start += history[DENSITIES + i] * width
        low += width
    inner_width = history[WIDTHS + j] * inverse
    outer_width = history[WIDTHS + j + 1] * inverse
    inner, outer = history[DENSITIES + j], history[DENSITIES + j + 1]
    span = inner_width + outer_width
    mean = (inner * inner_width + outer * outer_width) / span
    inner_ratio, outer_ratio = history[RATIOS + j], history[RATIOS + j + 1]
    before = (_square_integral(low, inner_width, inner_ratio, start, inner)
              + _square_integral(low + inner_width, outer_width, outer_ratio,
                                 start + inner * inner_width, outer))
    return _square_integral(low, span, inner_ratio + outer_ratio, start, mean) - before, mean


def _join(history, count: int, j: int) -> int:
    """Piece j takes in piece j + 1 (their widths and edge ratios add; j keeps its density); the
    pieces beyond move down; the new count."""
    history[WIDTHS + j] += history[WIDTHS + j + 1]
    history[RATIOS + j] += history[RATIOS + j + 1]
    for i in range(j + 1, count - 1):
        history[WIDTHS + i] = history[WIDTHS + i + 1]
        history[RATIOS + i] = history[RATIOS + i + 1]
        history[DENSITIES + i] = history[DENSITIES + i + 1]
    return count - 1


def _move_change(history, j: int, area: float) -> tuple[float, float]:
    """``(change of int Phi^2/y, theta)`` if piece j + 1 went by its neighbours taking it over,
    piece j (density phi_j) its inner share theta of it and piece j + 2 the rest, T unchanged:
    ``theta = (phi_(j+1) - phi_(j+2))/(phi_j - phi_(j+2))`` in [0, 1], which needs phi_(j+1)
    between its neighbours' densities (NaN theta otherwise)."""
    inner, middle, outer = (history[DENSITIES + j], history[DENSITIES + j + 1],
                            history[DENSITIES + j + 2])
    if inner == outer:
        return math.inf, math.nan
    theta = (middle - outer) / (inner - outer)
    if not 0.0 <= theta <= 1.0:
        return math.inf, math.nan
    inverse = 1.0 / area
    low, start = 0.0, 0.0
    for i in range(j + 1):
        width = history[WIDTHS + i] * inverse
        start += history[DENSITIES + i] * width
        low += width
    width = history[WIDTHS + j + 1] * inverse
    ratio = history[RATIOS + j + 1]
    split = math.log1p(theta * width / low)  # log(y*/y_a)
    before = _square_integral(low, width, ratio, start, middle)
    after = (_square_integral(low, theta * width, split, start, inner)
             + _square_integral(low + theta * width, (1.0 - theta) * width, ratio - split,
                                start + inner * theta * width, outer))
    return after - before, theta


def reduce_memory(history, count: int, area: float) -> int:
    """One piece fewer without adding stored energy; the new count.

    Two kinds of step keep T: neighbouring pieces become one of their size-weighted mean
    density (which lowers ``int Phi^2/y`` of :func:`stored_energy` where the densities fall
    outwards and Phi > 0), or a piece whose density lies between its neighbours' is taken over
    by them, the inner one's density up to a point and the outer one's beyond it (which lowers
    it where they rise outwards and Phi > 0): the first of them from the centre outwards that
    does not raise the energy (the narrowest pieces, the first touch's, whose slip is the
    smallest, first; at each place the merge before the take-over). Where none does, the
    innermost pieces relax (:func:`relax_innermost`). The displacement the pieces stand for
    changes by a rigid slip of the contact (the caller re-counts it), never its force.
    """
    best, moved = -1, False
    for j in range(count - 1):  # from the centre outwards: the narrowest pieces first
        if _merge_change(history, j, area)[0] <= 0.0:
            best, moved = j, False
            break
        if j < count - 2 and _move_change(history, j, area)[0] <= 0.0:
            best, moved = j, True
            break
    if best >= 0 and moved:
        _, theta = _move_change(history, best, area)
        width = history[WIDTHS + best + 1]
        inner_edge = 0.0
        for i in range(best + 1):
            inner_edge += history[WIDTHS + i]
        split = math.log1p(theta * width / inner_edge)
        history[WIDTHS + best] += theta * width
        history[RATIOS + best] += split
        history[WIDTHS + best + 2] += (1.0 - theta) * width
        history[RATIOS + best + 2] += history[RATIOS + best + 1] - split
        history[WIDTHS + best + 1], history[RATIOS + best + 1] = 0.0, 0.0
        history[DENSITIES + best + 1] = history[DENSITIES + best]
        return _join(history, count, best)  # the emptied piece goes (its density is j's)
    if best >= 0:
        _, mean = _merge_change(history, best, area)
        history[DENSITIES + best] = mean
        return _join(history, count, best)
    return relax_innermost(history, count)


def relax_innermost(history, count: int) -> int:
    """The three innermost pieces as the least traction that keeps their resultant Phi_3 and
    Coulomb's bound: ``Phi = 0`` from the centre, then ``phi = sign(Phi_3)`` up to their outer
    edge e_3 (two pieces; one of density ``Phi_3/e_3`` where ``|Phi_3| >= e_3``). ``|Phi|`` is
    then pointwise as small as ``|Phi'| <= 1`` allows, so no larger than before, and neither is
    the stored energy; the new count."""
    resultant, edge = 0.0, 0.0
    for i in range(3):
        resultant += history[DENSITIES + i] * history[WIDTHS + i]
        edge += history[WIDTHS + i]
    sign = 1.0 if resultant > 0.0 else -1.0
    rising = abs(resultant)  # where |Phi| rises with slope 1 up to e_3
    count = _join(history, count, 1)  # pieces 1 and 2 as one: e_3 is its outer edge
    if rising >= edge:  # |Phi| rises with slope 1 from the centre: one piece of density +-1
        history[DENSITIES] = resultant / edge
        return _join(history, count, 0)
    history[WIDTHS], history[DENSITIES] = edge - rising, 0.0
    history[WIDTHS + 1], history[DENSITIES + 1] = rising, sign
    history[RATIOS + 1] = -math.log1p(-rising / edge)
    return count


def _merge_equal(history, count: int) -> int:
    """Neighbouring pieces of one density become one, and empty pieces go, their place taken by
    a neighbour (a front that stops at a piece's edge leaves one of no width, or of a rounding's
    width either side of zero): neither changes T, what the pieces stand for or the stored
    energy beyond rounding; the new count."""
    j = 0
    while j < count - 1:
        if history[WIDTHS + j] <= 0.0:  # the piece outside it takes its place
            history[DENSITIES + j] = history[DENSITIES + j + 1]
            count = _join(history, count, j)
        elif (history[DENSITIES + j] == history[DENSITIES + j + 1]
              or history[WIDTHS + j + 1] <= 0.0):
            count = _join(history, count, j)
        else:
            j += 1
    return count


def _cut(history, count: int, area: float) -> int:
    """The pieces outside the area (a falling N) are cut: the piece the new rim falls in ends
    there; the new count."""
    edge = 0.0
    for j in range(count):
        if edge + history[WIDTHS + j] >= area:
            if j > 0:
                history[RATIOS + j] = math.log1p((area - edge) / edge)
            history[WIDTHS + j] = area - edge
            return j + 1
        edge += history[WIDTHS + j]
    return count


def _cell(e: float) -> int:
    """The index k of the cell ``[2^(k/2), 2^((k+1)/2))`` of the folds' grid (:data:`SQRT_2`)
    that holds e (> 0), from e's binary exponent and mantissa (no logarithm)."""
    mantissa, exponent = math.frexp(e)  # e = mantissa 2^exponent, 1/2 <= mantissa < 1
    return 2 * exponent - (2 if mantissa < SQRT_HALF else 1)


def _level(k: int) -> float:
    """The grid's level ``2^(k/2)``, the lower end of cell k."""
    return math.ldexp(SQRT_2 if k % 2 else 1.0, k // 2)


def _split_rim(history, count: int, area: float) -> int:
    """The outermost piece, where it sticks (``|phi| < 1``: only such pieces fold) and a level
    of the cells' grid (:data:`SQRT_2`) lies inside it, splits there into two pieces of its density
    (the traction is unchanged; each part then folds within its own cell); the new count. Not
    for a single piece or a full memory."""
    if count < 2 or count >= PIECES or abs(history[DENSITIES + count - 1]) >= 1.0:
        return count
    inner = 0.0
    for i in range(count - 1):
        inner += history[WIDTHS + i]
    level = _level(_cell(area * (1.0 - 1e-9)))  # the highest level below the rim
    if inner <= 0.0 or level <= inner * (1.0 + 1e-12):
        return count
    j = count - 1
    history[WIDTHS + j + 1] = area - level
    history[RATIOS + j + 1] = math.log(area / level)
    history[DENSITIES + j + 1] = history[DENSITIES + j]
    history[WIDTHS + j] = level - inner
    history[RATIOS + j] = math.log(level / inner)
    return count + 1


def _rise(t: float, y0: float, log_y0: float, B: float, kappa: float) -> float:
    """``D(y0 + t) - D(y0)`` of (C2) over s, ``t (B - kappa log y0) - kappa (y0 + t) log(1 +
    t/y0)``: exact for a small t far from the centre, where the difference of the two D would
    lose the digits."""
    return t * (B - kappa * log_y0) - kappa * (y0 + t) * math.log1p(t / y0)


def _folded_density(t: float, history, j: int, inverse: float) -> tuple[float, float]:
    """``(m, width)``: the density and width (in y) of the piece that pieces j and j + 1 become
    if it begins t beyond piece j's inner edge, piece j - 1 taking the t between (T kept: m
    from the pieces' resultant); ``inverse`` is 1/a^2. The width is taken from the piece's own
    edges, not as a difference from y0, so that a thin outer piece keeps its digits."""
    inner_width = history[WIDTHS + j] * inverse
    outer_width = history[WIDTHS + j + 1] * inverse
    width = (inner_width - t) + outer_width
    resultant = history[DENSITIES + j] * inner_width + history[DENSITIES + j + 1] * outer_width
    return (resultant - history[DENSITIES + j - 1] * t) / width, width


def _folded_stands_for(t: float, history, j: int, inverse: float, y0: float, log_y0: float,
                       B: float, kappa: float) -> tuple[float, float]:
    """``(U/s, dU/dt/s)``: what the pieces j - 1 ... j + 1 stand for from y0 on (U of (C2)) if
    pieces j and j + 1 became one from ``y0 + t`` on (:func:`_folded_density`), and its slope in
    t; y0 is piece j's inner edge. With ``y_t = y0 + t`` and the outer edge y_2,

        ``U/s = phi_(j-1) [D(y_t) - D(y0)]/s + m [D(y_2) - D(y_t)]/s``,
        ``dU/dt/s = (phi_(j-1) - m) (D'(y_t) - [D(y_2) - D(y_t)]/(y_2 - y_t))/s``

    (``dm/dt = (m - phi_(j-1))/(y_2 - y_t)``), the logarithms of the edges' ratios from the
    pieces' own ``log(y_2/y0)`` and one ``log1p(t/y0)``."""
    m, width = _folded_density(t, history, j, inverse)
    neighbour_phi = history[DENSITIES + j - 1]
    split = math.log1p(t / y0)
    edge = y0 + t
    slope = B - kappa * (log_y0 + split)  # D'(y_t)/s + kappa
    outer = width * slope - kappa * (edge + width) * (
        history[RATIOS + j] + history[RATIOS + j + 1] - split)
    U = neighbour_phi * (t * (B - kappa * log_y0) - kappa * edge * split) + m * outer
    return U, (neighbour_phi - m) * (slope - kappa - outer / width)


def _folded_energy(t: float, history, j: int, inverse: float, y0: float,
                   start: float) -> tuple[float, float]:
    """``(int Phi^2/y, m)`` over the pieces j - 1 ... j + 1 if pieces j and j + 1 became one of
    density m from ``y0 + t`` on (:func:`_folded_density`); ``start`` is Phi at piece j - 1's
    inner edge."""
    m, width = _folded_density(t, history, j, inverse)
    neighbour_width = history[WIDTHS + j - 1] * inverse
    neighbour_phi = history[DENSITIES + j - 1]
    split = math.log1p(t / y0)
    energy = (_square_integral(y0 - neighbour_width, neighbour_width + t,
                               history[RATIOS + j - 1] + split, start, neighbour_phi)
              + _square_integral(y0 + t, width,
                                 history[RATIOS + j] + history[RATIOS + j + 1] - split,
                                 start + neighbour_phi * (neighbour_width + t), m))
    return energy, m


def _narrowed(history, j: int, inverse: float, y0: float, log_y0: float, start: float, B: float,
              kappa: float, low: float, high: float, f_low: float, f_high: float, energy: bool,
              level: float) -> tuple[float, float]:
    """The ends ``(low, high)`` of a bracket of the edge t in which ``f(t)`` changes sign, f the
    folded pieces' energy (``energy``, :func:`_folded_energy`) or what they stand for
    (:func:`_folded_stands_for`) less ``level`` (``f_low``, ``f_high`` its values at the given
    ends, of opposite signs; low keeps the sign of f_low), narrowed by the Illinois variant of
    regula falsi to :data:`FOLD_TOLERANCE` of the two inner pieces' width (or a zero of f) or
    :data:`FOLD_ITERATIONS` evaluations."""
    scale = FOLD_TOLERANCE * (history[WIDTHS + j - 1] + history[WIDTHS + j]) * inverse
    side = 0
    for _ in range(FOLD_ITERATIONS):
        if f_high == f_low:  # f vanishes at both ends (pieces of no traction)
            break
        t = (low * f_high - high * f_low) / (f_high - f_low)
        if energy:
            f = _folded_energy(t, history, j, inverse, y0, start)[0] - level
        else:
            f = _folded_stands_for(t, history, j, inverse, y0, log_y0, B, kappa)[0] - level
        if (f <= 0.0) == (f_low <= 0.0):
            low, f_low = t, f
            if side == -1:
                f_high *= 0.5
            side = -1
        else:
            high, f_high = t, f
            if side == 1:
                f_low *= 0.5
            side = 1
        if abs(high - low) <= scale or f == 0.0:
            break
    return low, high


def _kept_edge(history, j: int, inverse: float, y0: float, log_y0: float, B: float,
               kappa: float, lowest: float, highest: float, kept: float) -> float:
    """The edge t in ``[lowest, highest]`` at which the folded pieces stand for ``kept``
    (:func:`_folded_stands_for`) by Newton's method from t = 0 (the pieces' own edge), to a
    step of :data:`FOLD_NEWTON_STEP` of the two inner pieces' width; NaN where a step leaves the
    interval or :data:`FOLD_NEWTON` steps do not settle (the bracketed search,
    :func:`_narrowed`, then decides)."""
    scale = FOLD_NEWTON_STEP * (history[WIDTHS + j - 1] + history[WIDTHS + j]) * inverse
    t = 0.0
    for _ in range(FOLD_NEWTON):
        U, slope = _folded_stands_for(t, history, j, inverse, y0, log_y0, B, kappa)
        if slope == 0.0:
            return math.nan
        step = (U - kept) / slope
        t -= step
        if not lowest <= t <= highest:
            return math.nan
        if abs(step) <= scale:
            return t
    return math.nan


def _fold(history, count: int, j: int, area: float, B: float, kappa: float) -> int:
    """Pieces j and j + 1 (of one cell) become one, and the edge that piece j - 1 shares with
    them moves to where the three pieces' resultant T and the displacement U of (C2) they stand
    for are both kept (a root in that edge, :func:`_narrowed`; no fold where there is none).
    Where keeping U would raise the stored energy or break Coulomb's bound, the edge goes instead
    to the nearest place where it does neither (of :data:`FOLD_TRIALS` + 1 evenly spaced trial
    edges, tried from the root outwards, moved toward the root up to where the energy would
    rise), and the difference in U is a rigid slip of the contact; where no place does, nothing
    folds. The new count.
    """
    inverse = 1.0 / area
    y0 = 0.0
    start = 0.0
    for i in range(j - 1):
        start += history[DENSITIES + i] * history[WIDTHS + i] * inverse
    for i in range(j):
        y0 += history[WIDTHS + i] * inverse
    if y0 <= 0.0 or min(history[WIDTHS + j - 1], history[WIDTHS + j],
                        history[WIDTHS + j + 1]) <= 0.0:  # an empty piece
        return count
    log_y0 = math.log(y0)
    neighbour_width = history[WIDTHS + j - 1] * inverse
    inner_width = history[WIDTHS + j] * inverse
    outer_width = history[WIDTHS + j + 1] * inverse
    neighbour_phi, phi, outer_phi = (history[DENSITIES + j - 1], history[DENSITIES + j],
                                     history[DENSITIES + j + 1])
    before = (_square_integral(y0 - neighbour_width, neighbour_width, history[RATIOS + j - 1],
                               start, neighbour_phi)
              + _square_integral(y0, inner_width, history[RATIOS + j],
                                 start + neighbour_phi * neighbour_width, phi)
              + _square_integral(y0 + inner_width, outer_width, history[RATIOS + j + 1],
                                 start + neighbour_phi * neighbour_width + phi * inner_width,
                                 outer_phi))
    kept = (phi * _rise(inner_width, y0, log_y0, B, kappa)
            + outer_phi * _rise(outer_width, y0 + inner_width, log_y0 + history[RATIOS + j],
                                B, kappa))
    lowest = -min(inner_width, 0.5 * neighbour_width)  # piece j - 1 keeps half its width
    root = _kept_edge(history, j, inverse, y0, log_y0, B, kappa, lowest, inner_width, kept)
    if math.isnan(root):
        gap_low = _folded_stands_for(lowest, history, j, inverse, y0, log_y0, B, kappa)[0] - kept
        gap_high = _folded_stands_for(inner_width, history, j, inverse, y0, log_y0, B,
                                      kappa)[0] - kept
        if gap_low * gap_high > 0.0:
            return count
        low, high = _narrowed(history, j, inverse, y0, log_y0, start, B, kappa, lowest,
                              inner_width, gap_low, gap_high, False, kept)
        root = 0.5 * (low + high)
    root_energy, m = _folded_energy(root, history, j, inverse, y0, start)
    t = root
    if root_energy > before or abs(m) > 1.0:
        # the trial edges from the root outwards (the nearer first, the inner one on a tie): the
        # first that neither raises the energy nor breaks Coulomb's bound
        spacing = (inner_width - lowest) / FOLD_TRIALS
        below = min(int((root - lowest) / spacing), FOLD_TRIALS)
        above = below + 1
        t = math.nan
        for _ in range(FOLD_TRIALS + 1):
            if below >= 0 and (above > FOLD_TRIALS or abs(root - (lowest + spacing * below))
                               <= abs(lowest + spacing * above - root)):
                trial = lowest + spacing * below
                below -= 1
            else:
                trial = lowest + spacing * above
                above += 1
            energy, m = _folded_energy(trial, history, j, inverse, y0, start)
            if energy <= before and abs(m) <= 1.0:
                t = trial
                break
        if math.isnan(t):
            return count
        if root_energy > before:  # else only Coulomb's bound failed: the trial edge stands
            t = _narrowed(history, j, inverse, y0, log_y0, start, B, kappa, t, root,
                          energy - before, root_energy - before, True, before)[0]
            energy, m = _folded_energy(t, history, j, inverse, y0, start)
            if energy > before or abs(m) > 1.0:
                return count
    split = math.log1p(t / y0)
    history[WIDTHS + j + 1] -= t * area  # piece j - 1 takes t of it, piece j the rest of both
    history[RATIOS + j + 1] -= split
    history[DENSITIES + j] = m
    history[WIDTHS + j - 1] += t * area
    if j > 1:
        history[RATIOS + j - 1] += split
    return _join(history, count, j)


def fold_cells(history, count: int, area: float, B: float, kappa: float) -> int:
    """Every two neighbouring stuck pieces (``|phi| < 1``) inside one cell of the grid
    (:data:`SQRT_2`) fold into one with their inner neighbour's help (``_fold``), from the rim
    inwards; the new count. Pieces at Coulomb's bound (``|phi| = 1``) never fold: their edges
    are the fronts of earlier reversals, the memory Masing's rule reads at constant N, which a
    fold would move.

    A memory reduced only when full merges the newest pieces a step wide, and the rigid slip of
    each merge (a step's annulus folded at a traction it does not have) sums over a path to an
    error first order in the step. Here the annuli a sticking contact lays fold into one per cell
    as they come, at no slip wherever the energy allows: the traction keeps a fixed resolution
    in b^2 whatever the step, and the law converges at second order in the step
    (``benchmarks/calibrated_impact_memory.py``). A fold keeps T and never raises the stored
    energy, so it keeps the law admissible as a reduction does."""
    j = count - 2
    while j >= 1:
        if abs(history[DENSITIES + j]) < 1.0 and abs(history[DENSITIES + j + 1]) < 1.0:
            inner = 0.0
            for i in range(j):
                inner += history[WIDTHS + i]
            if inner > 0.0 and inner + history[WIDTHS + j] + history[WIDTHS + j + 1] <= _level(
                    _cell(inner * (1.0 + 1e-9)) + 1) * (1.0 + 1e-9):
                count = _fold(history, count, j, area, B, kappa)
        j = min(j - 1, count - 2)
    return count


def _measure_to(history, count: int, area: float, B: float, kappa: float,
                edge: float) -> tuple[float, float]:
    """``(U/s, D(y)/s - B)`` of the pieces cut at ``edge`` (>= the contact's area ``area``, in e):
    what they stand for (:func:`_stands_for`, with the outermost piece's edge at y = edge/area)
    and (C2)'s displacement of the band from the rim to that y, a traction of density 1 there
    (0 where edge is the rim). The difference of two is what the band between them takes."""
    log_edge = math.log(edge / area)
    stood = _stands_for(history, count, area, B, kappa, log_edge)[0]
    return stood, (edge / area) * (B - kappa * log_edge) - B


def held_curve(history, area: float, B: float, kappa: float,
               slope: float) -> tuple[float, float]:
    """``(B, slope)`` of (C1) at the contact's area ``area`` = a^2 (> 0) with its structural
    compliance held at the largest area it has covered since it closed: :func:`curves`' B and
    slope where the contact is at that area (or new), else ``B = pi E* lambda_held - kappa log
    a^2`` and slope 0 (lambda does not change with the approach there, so neither the normal
    force's coupling term nor the extra slips' step-middle measures see it). The same before a
    step (from the history as the step before left it) and after it."""
    if int(history[0]) == 0 or area >= history[LARGEST]:
        return B, slope
    return history[HELD] - kappa * math.log(area), 0.0


def _reset(history) -> None:
    for j in range(HISTORY):
        history[j] = 0.0


def _swept(s: float, B: float, kappa: float, slope: float, y: float,
           ratio: float) -> tuple[float, float]:
    """``(span, laid)`` of the band between the share y of a contact's area and its rim (``ratio
    = log(1/y)``; y = 0, ratio = 0 for the whole contact), s and B the contact's: ``span`` its
    displacement per unit density, ``D(1) - D(y)`` of (C2), and ``laid`` the extra slip's
    measure, the integral over the widths e it spans of (C1)'s ``s (B(e) - kappa) de/e`` with s
    proportional to e (Eq. 4) and B linear in log e at the slope's rate: ``span - (s slope/2)
    (1 - y + y log y)``, never negative (so that the extra slip keeps T's sign where the slope
    is > 0). Measured by ``span`` alone (B and s at the wider end) each step's extra would be off
    by ``s slope x^2/4`` (x = log(1/y)), and their sum, first order in the step, would stay in
    every later force."""
    span = s * ((1.0 - y) * B - kappa * y * ratio)
    return span, max(0.0, span - 0.5 * s * slope * ((1.0 - y) - y * ratio))


def tangential_step(history, N: float, a: float, d: float, mu: float, modulus: float,
                    B: float, kappa: float, slope: float, first_slip: float,
                    annulus_slip: float, folds: bool):
    """One step of one contact at normal force N and half-width a (this step's) with the pair
    displacement increment d and the curve's constants B and slope (this step's, :func:`curves`;
    the step holds the structural compliance where the contact is inside its largest area,
    :func:`held_curve`) and kappa (the pair's); ``history`` (:data:`HISTORY` doubles) is updated
    in place. With
    ``folds`` (:data:`FOLD`, the law as shipped) the pieces of one cell fold into one.

    ``first_slip`` and ``annulus_slip`` (>= 0, the pair's; 0 for bodies of one material) are
    the extra slip of Spence's locked-in shear
    (:mod:`hertz2d.calibration.laws.calibrated`): a front crossing pieces that no front has
    crossed since the contact closed or last slid in full (the untouched area, laid under normal
    load: the band between the area of the last full slip and the front nearest the rim) needs
    ``1 + first_slip`` times the displacement (C2) gives, and an entering annulus takes its
    share of the increment at ``1 + annulus_slip |T|/(mu N)`` times it (T at the step's middle)
    on its fresh part, beyond the largest area the contact has covered since it closed (a band
    covered again after the contact receded takes it at (C2)'s displacement); the extra is a
    rigid slip of the contact. It is taken in full where T has the slip's sign before the step and
    after the cut, so it dissipates (``T`` times a slip of its own sign). Otherwise the plain step
    (no extra) decides: where T ends it with the other sign, it is the step; where T had the other
    sign before it, T crossed zero within the step, and the extra is taken for the step's share
    after the crossing (T interpolated linearly between the plain step's ends; a switch at the
    steps' ends alone misplaces it by up to a step, an error first order in the step); where
    only the cut had the other sign, T kept the slip's sign at both ends: the full extra. The
    extra is so taken over the part of the step in which T has the slip's sign: it dissipates,
    to the error of the trapezoid rule in that part (third order in the step, once per zero of
    T). Where a falling N cuts untouched area, the front crosses it first, as the rim recedes
    over it in continuous time: its displacement is cut with it in the same step and only its
    extra slip (``first_slip`` times (C2)'s measure of the crossing) stays; a crossing inside
    the new rim instead would be cut in the next step and crossed again, each step's slip zone
    a step wide, an error first order in the step.
    The annulus's extra is its factor less 1 times its density times ``laid`` (``_swept``:
    (C1)'s displacement over the step's fresh widths, ``s (B - slope/2)`` on the first step), at
    the
    share of the bound T has at the step's middle: the mean of the step's start and of the end
    of a trial step at the start's share (at the start's alone the sum of the extras would be
    first order in the step). The front's extra is measured at the step's middle too, where s is
    ``s e^(-x/2)`` and B is ``B - (slope - 2 kappa) x/4`` (x = log(a^2/a_prev^2)): over the pieces
    it crosses that is (C1)'s displacement with B shifted by ``-slope x/4``, so the front moves
    on the curve ``B - (1 - 1/stretch) slope x/4``.

    Returns ``(T, kt, front, full)``: the tangential force, the tangent stiffness dT/d(delta)
    (the front's, (C1)'s slope over the extra slip's factor; the first touch's ``pi E*/(B -
    kappa)`` when nothing slips; 0 in full slip), the slip front's half-width (a when nothing
    slips, 0 in full slip) and whether the contact slides.
    """
    if N <= 0.0 or a <= 0.0 or mu * N <= 0.0:
        _reset(history)
        return 0.0, 0.0, 0.0, False
    area = a * a
    s = mu * N / (math.pi * modulus)
    count = int(history[0])
    B, slope = held_curve(history, area, B, kappa, slope)
    covered = history[AREA] if count > 0 else 0.0
    covered_before = covered
    untouched = history[UNTOUCHED] if count > 0 else 0.0
    slid = history[SLID] if count > 0 else 0.0
    # no front has crossed the rim since the contact closed or last slid in full
    closed_only = count == 0 or untouched >= covered
    before = _resultant(history, count) if first_slip > 0.0 or annulus_slip > 0.0 else 0.0
    # the front's extra slip is measured at the step's middle: (C1)'s curve there is this step's
    # shifted by slope log(a^2/a_prev^2)/4 (never by more than B - kappa: no negative slip)
    midway = min(0.25 * slope * math.log(area / covered), B - kappa) if count > 0 else 0.0
    # 1. a falling N cuts the pieces outside a; a growing contact gains an annulus
    largest = history[LARGEST] if count > 0 else 0.0
    cut_measure = cut_stood = 0.0  # the untouched area cut: its (C2) measure and phi-weighted
    if count > 0 and covered > area:
        outer, inner = min(untouched, covered), max(slid, area)
        if first_slip > 0.0 and outer > inner:
            # the part of the untouched area the cut takes, measured before it goes (in s at
            # this a): between the cut's two edges in it
            count = _cut(history, count, outer)
            cut_stood, cut_measure = _measure_to(history, count, area, B, kappa, outer)
            count = _cut(history, count, inner)
            stood, measure = _measure_to(history, count, area, B, kappa, inner)
            cut_stood, cut_measure = cut_stood - stood, cut_measure - measure
        count = _cut(history, count, area)
        covered = area
        untouched, slid = min(untouched, area), min(slid, area)
    annulus = covered < area
    log_last = math.log(covered / area) if count > 0 else 0.0
    slipped = 0.0  # the rigid slip a memory reduction makes
    while count > PIECES - (2 if annulus else 1):  # room for the annulus and a front's split
        stood = _stands_for(history, count, area, B, kappa, log_last)[0]
        count = reduce_memory(history, count, area)
        slipped += s * (stood - _stands_for(history, count, area, B, kappa, log_last)[0])
    span = laid = 0.0
    if annulus:
        history[WIDTHS + count] = area - covered
        history[RATIOS + count] = math.log1p((area - covered) / covered) if count > 0 else 0.0
        history[DENSITIES + count] = 0.0
        span, laid = _swept(s, B, kappa, slope, covered / area, history[RATIOS + count])
        if largest >= area:  # covered before: no extra slip
            laid = 0.0
        elif largest > covered:  # the extra on the fresh part beyond the largest area alone
            laid = _swept(s, B, kappa, slope, largest / area, math.log(area / largest))[1]
        count += 1
        if closed_only:
            untouched = area
    history[AREA] = area
    if area >= largest:  # the contact covers more than it has since it closed
        history[HELD] = B + kappa * math.log(area)
    history[LARGEST] = max(largest, area)
    # 2. the displacement to stand for: the annulus first, then a front from the edge
    needed = history[1] - slipped + d - s * _stands_for(history, count, area, B, kappa, 0.0)[0]
    # the extra slip's factors (the docstring): in full where T has the slip's sign before the
    # step and after the cut, else as the plain step (no extra) decides
    first, entering = 1.0, 1.0
    # the rim's extra slip grows with the share of the bound T has reached, |T|/(mu N), taken at
    # the step's middle: the mean of the start's and of a trial step's end's (ended; -1: none)
    level = min(1.0, abs(before) / covered_before) if covered_before > 0.0 else 0.0
    crossed, ended = 1.0, -1.0
    if first_slip > 0.0 or annulus_slip > 0.0:
        if needed * before < 0.0 or needed * _resultant(history, count) < 0.0:
            plain = history.copy()
            end = _slide(plain, count, needed, N, mu, modulus, area, s, B, kappa, midway,
                         untouched, slid, annulus, span, laid, 0.0, 0.0, 1.0, 1.0, folds)
            if end[0] * needed <= 0.0:
                history[:] = plain
                return end
            if needed * before < 0.0:
                crossed = end[0] / (end[0] - mu * N * before / covered_before)
                level = 0.0  # the extra's share of the step begins where T crosses zero
            ended = abs(end[0]) / (mu * N)
        elif annulus_slip > 0.0 and laid > 0.0:
            ended = abs(_slide(history.copy(), count, needed, N, mu, modulus, area, s, B, kappa,
                               midway, untouched, slid, annulus, span, laid, cut_measure,
                               cut_stood, 1.0 + first_slip, 1.0 + annulus_slip * level,
                               folds)[0]) / (mu * N)
        if ended >= 0.0:
            level = 0.5 * (level + min(1.0, ended))
        first, entering = 1.0 + crossed * first_slip, 1.0 + crossed * annulus_slip * level
    return _slide(history, count, needed, N, mu, modulus, area, s, B, kappa, midway, untouched,
                  slid, annulus, span, laid, cut_measure, cut_stood, first, entering, folds)


def _slide(history, count: int, needed: float, N: float, mu: float, modulus: float, area: float,
           s: float, B: float, kappa: float, midway: float, untouched: float, slid: float,
           annulus: bool, span: float, laid: float, cut_measure: float, cut_stood: float,
           first: float, entering: float, folds: bool):
    """:func:`tangential_step` from the displacement ``needed`` its pieces must take on: the
    annulus first (``span`` its displacement per unit density, ``laid`` its extra slip's
    measure), then a front from the rim; ``first`` and ``entering`` the extra slip's factors of the
    front in the untouched area and of the annulus (1: none), the untouched area being cut
    (``cut_measure``, ``cut_stood``) crossed first; returns what :func:`tangential_step` does."""
    if first > 1.0 and cut_measure > 0.0:
        # a front crosses the untouched area the step cuts as the rim recedes over it: all of
        # that crossing's displacement is cut with it, only its extra slip stays
        sigma = 1.0 if needed > 0.0 else -1.0
        capacity = (first - 1.0) * s * max(cut_measure - sigma * cut_stood, 0.0)
        needed -= sigma * min(abs(needed), capacity)
    if annulus and span > 0.0:
        taken = span + (entering - 1.0) * laid
        share = min(1.0, max(-1.0, needed / taken))
        history[DENSITIES + count - 1] = share
        needed -= share * taken
    front, full = math.sqrt(area), False
    if abs(needed) <= 1e-13 * s * B:  # nothing slips: the first touch's stiffness
        kt = math.pi * modulus / (B - kappa)
    else:
        sigma = 1.0 if needed > 0.0 else -1.0
        rest = abs(needed) / s
        kt = 0.0
        log_y, y = 0.0, 1.0
        outer_edge = area  # piece j's outer edge in e, from the rim inwards
        j = count - 1
        while j >= 0:
            width = history[WIDTHS + j] / area
            below = max(y - width, 0.0) if j > 0 else 0.0
            # the extra where the piece lies in the untouched band [slid, untouched] (a piece
            # the band's inner edge cuts: where its middle in e does)
            stretch = first if (outer_edge <= untouched * (1.0 + 1e-12)
                                and slid <= outer_edge - 0.5 * history[WIDTHS + j]) else 1.0
            curve = B - (1.0 - 1.0 / stretch) * midway  # the crossing's, extra slip included
            piece = (width * (curve - kappa * log_y) - kappa * below * history[RATIOS + j]) \
                if j > 0 else width * (curve - kappa * log_y)
            reach = abs(sigma - history[DENSITIES + j]) * stretch
            if rest >= reach * piece:
                rest -= reach * piece
                if j > 0:
                    log_y -= history[RATIOS + j]
                y = below
                outer_edge -= history[WIDTHS + j]
                j -= 1
                continue
            edge = 0.0  # piece j's outer edge in e, summed from the centre
            for i in range(j + 1):
                edge += history[WIDTHS + i]
            h = front_from(rest / reach, curve, kappa, edge / area, log_y)
            outer = -edge * math.expm1(-h)  # the front to piece j's outer edge, in e
            # piece j keeps its inside of the front; one piece of sigma from the front to the rim
            rim_width, rim_ratio = outer, h
            for i in range(j + 1, count):
                rim_width += history[WIDTHS + i]
                rim_ratio += history[RATIOS + i]
            history[WIDTHS + j] -= outer
            if j > 0:
                history[RATIOS + j] -= h
            history[WIDTHS + j + 1], history[RATIOS + j + 1] = rim_width, rim_ratio
            history[DENSITIES + j + 1] = sigma
            count = j + 2
            front = math.sqrt(edge) * math.exp(-0.5 * h)
            untouched = min(untouched, edge - outer)
            kt = math.pi * modulus / ((curve - kappa - kappa * (log_y - h)) * stretch)
            break
        if j < 0:  # the front reached the centre: full slip, the rest is rigid slip
            # the untouched band starts again at the rim: the area the contact gains has it
            count, full, front, untouched, slid = 1, True, 0.0, area, area
            history[WIDTHS], history[RATIOS], history[DENSITIES] = area, 0.0, sigma
    count = _merge_equal(history, count)
    if folds:
        count = fold_cells(history, _split_rim(history, count, area), area, B, kappa)
    history[0] = count
    history[UNTOUCHED], history[SLID] = untouched, slid
    history[1], weighted = _stands_for(history, count, area, B, kappa, 0.0)
    history[1] *= s
    return mu * N * weighted, kt, front, full


def run_batch(N, a, increment, mu, modulus, B, kappa, slope, first_slip, annulus_slip, T,
              held_slope, folds):
    """Every contact (row) of a batch along its steps (columns) from the unloaded state:
    :func:`tangential_step` with the row's constants (``mu``, ``modulus``, ``kappa``,
    ``first_slip`` and ``annulus_slip`` per row; ``N``, ``a``, ``increment``, ``B`` and ``slope``
    per row and step), the tangential forces written into ``T`` and the slope the normal force's
    coupling term takes after each step (:func:`held_curve`'s) into ``held_slope``; ``folds`` as
    :func:`tangential_step`'s."""
    history = np.zeros(HISTORY)
    for row in range(N.shape[0]):
        for j in range(HISTORY):
            history[j] = 0.0
        for k in range(N.shape[1]):
            T[row, k] = tangential_step(history, N[row, k], a[row, k], increment[row, k],
                                        mu[row], modulus[row], B[row, k], kappa[row],
                                        slope[row, k], first_slip[row], annulus_slip[row],
                                        folds)[0]
            held_slope[row, k] = held_curve(history, a[row, k] * a[row, k], B[row, k],
                                            kappa[row], slope[row, k])[1]
