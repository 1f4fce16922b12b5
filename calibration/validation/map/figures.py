"""Heatmaps of the validity map: each law's force error over a study's axes, and a summary.

Every cell is a force error (:func:`hertz2d.calibration.validation.map.regions.force_errors`: the larger
of the normal and tangential force's largest relative errors over a path), coloured in bands
whose edges include the 5 % and 10 % thresholds, and printed in per cent. A study that varies
one axis is drawn as laws x axis values, one panel per load path; a study that varies two (a
slice) as one panel per law over the two axes, each cell the worst over the load paths the law
runs (and over any further axis).
"""
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import BoundaryNorm, ListedColormap

from hertz2d.calibration.validation.map.regions import THRESHOLDS, matches, percent
from hertz2d.calibration.validation.map.spec import DEFAULT_VARIANT, PATH_KINDS, Study

#: colour bands of the force error (fractions): the thresholds are two of the edges
BANDS = (0.0, 0.02, 0.05, 0.10, 0.2, 0.5, 1.0, np.inf)
COLOURS = ListedColormap(["#1a9850", "#91cf60", "#d9ef8b", "#fee08b", "#fc8d59", "#d73027",
                          "#7f0000"])
NORM = BoundaryNorm(BANDS[:-1] + (1e9,), COLOURS.N)
#: axis name -> label
LABELS = {"a_over_R": "a/R1", "R2_over_R1": "R2/R1", "E2_over_E1": "E2/E1", "nu": "nu (both)",
          "nu1": "nu1", "nu2": "nu2", "mu": "mu", "counterpart": "counterpart",
          "support": "support", "path": "load path"}


def _cells(ax, matrix: np.ndarray, columns: list, rows: list, fontsize: float = 6):
    """Draw ``matrix`` (rows x columns of force errors, NaN where not run) with its values."""
    image = ax.imshow(np.ma.masked_invalid(matrix), cmap=COLOURS, norm=NORM, aspect="auto")
    ax.set_facecolor("#e0e0e0")
    ax.set_xticks(range(len(columns)), [f"{c:g}" if isinstance(c, float) else str(c)
                                        for c in columns], fontsize=7)
    ax.set_yticks(range(len(rows)), [str(r) for r in rows], fontsize=7)
    for (i, j), value in np.ndenumerate(matrix):
        if np.isfinite(value):
            text = f"{100 * value:.0f}" if value >= 0.1 else f"{100 * value:.1f}"
            ax.text(j, i, text, ha="center", va="center", fontsize=fontsize,
                    color="white" if value >= 0.5 or value < 0.02 else "black")
    return image


def _colourbar(fig, image) -> None:
    """The colour bar in its own axes at the figure's right edge (a fixed layout: the
    constrained layout engine took most of the map's figure time)."""
    bar = fig.colorbar(image, cax=fig.add_axes((0.925, 0.12, 0.015, 0.72)))
    bar.set_ticks(BANDS[:-1])
    bar.set_ticklabels([f"{100 * b:g} %" for b in BANDS[:-1]])
    bar.set_label("force error (larger of N and Fx, largest over the path)")


def _axes_of(study: Study) -> list[str]:
    return study.varied or list(study.axes)[:1]


def study_figure(force: pd.DataFrame, study: Study, laws: list[str]):
    """The heatmaps of one study (see the module docstring)."""
    rows = force[(force.variant == DEFAULT_VARIANT)
                 & force.studies.str.split(";").apply(lambda names: study.name in names)]
    axes = _axes_of(study)
    if len(axes) == 1:
        return _one_axis(rows, study, axes[0], laws)
    return _slice(rows, study, axes[0], axes[1], laws)


def _one_axis(rows: pd.DataFrame, study: Study, axis: str, laws: list[str]):
    kinds = [k for k in PATH_KINDS if (rows.path == k).any()]
    values = study.axes[axis]
    width = 3.6 + 0.5 * len(kinds) * (len(values) + 1)
    fig, panels = plt.subplots(1, len(kinds), figsize=(width, 0.3 * len(laws) + 1.4),
                               sharey=True, squeeze=False)
    fig.subplots_adjust(left=3.0 / width, right=0.9, bottom=0.75 / (0.3 * len(laws) + 1.4),
                        top=0.88, wspace=0.08)
    image = None
    for ax, kind in zip(panels[0], kinds):
        matrix = np.full((len(laws), len(values)), np.nan)
        mine = rows[rows.path == kind]
        for i, law in enumerate(laws):
            of_law = mine[mine.law == law]
            for j, value in enumerate(values):
                found = of_law[matches(of_law, axis, value)].force_error
                if len(found):
                    matrix[i, j] = found.max()
        image = _cells(ax, matrix, values, laws)
        ax.set_title(kind, fontsize=9)
        ax.set_xlabel(LABELS[axis])
    _colourbar(fig, image)
    fig.suptitle(f"Study '{study.name}': force error of each law against the FEM", fontsize=10)
    return fig


def _slice(rows: pd.DataFrame, study: Study, x: str, y: str, laws: list[str]):
    xs, ys = study.axes[x], study.axes[y]
    columns = min(4, len(laws))
    lines = math.ceil(len(laws) / columns)
    fig, panels = plt.subplots(lines, columns, figsize=(3.0 * columns + 1.2, 2.4 * lines + 0.6),
                               sharex=True, sharey=True, squeeze=False)
    fig.subplots_adjust(left=0.06, right=0.9, bottom=0.6 / (2.4 * lines + 0.6),
                        top=1 - 0.6 / (2.4 * lines + 0.6), hspace=0.3, wspace=0.1)
    image = None
    for ax, law in zip(panels.flat, laws):
        of_law = rows[rows.law == law]
        matrix = np.full((len(ys), len(xs)), np.nan)
        for i, vy in enumerate(ys):
            for j, vx in enumerate(xs):
                found = of_law[matches(of_law, x, vx) & matches(of_law, y, vy)].force_error
                if len(found):
                    matrix[i, j] = found.max()
        image = _cells(ax, matrix, xs, ys, fontsize=6)
        ax.set_title(law, fontsize=7)
    panels[0, 0].invert_yaxis()  # shared: every panel has y rising upwards
    for ax in panels[-1]:
        ax.set_xlabel(LABELS[x], fontsize=7)
    for ax in panels[:, 0]:
        ax.set_ylabel(LABELS[y], fontsize=7)
    for ax in list(panels.flat)[len(laws):]:
        ax.set_visible(False)
    _colourbar(fig, image)
    fig.suptitle(f"Slice '{study.name}': force error of each law against the FEM, worst over "
                 "its load paths", fontsize=10)
    return fig


def summary_figure(summary: list[dict], errors: pd.DataFrame):
    """(a) the fraction of each law's cases within 5 % and 10 % force error; (b) the median over
    the cases of each quantity's largest error."""
    laws = [entry["law"] for entry in summary]
    height = 0.3 * len(laws) + 1.2
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, height),
                                      gridspec_kw={"width_ratios": [1.0, 1.1]})
    fig.subplots_adjust(left=0.24, right=0.99, bottom=0.6 / height, top=1 - 0.35 / height,
                        wspace=0.03)
    place = np.arange(len(laws))
    for offset, threshold in zip((-0.2, 0.2), THRESHOLDS):
        fractions = [e["within"][percent(threshold)]["fraction"] for e in summary]
        left.barh(place + offset, fractions, height=0.38, label=f"within {percent(threshold)}")
    left.set_yticks(place, laws, fontsize=7)
    left.invert_yaxis()
    left.set_xlim(0, 1)
    left.set_xlabel("fraction of the law's cases (all its load paths)")
    left.legend(fontsize=7, loc="lower right")
    left.set_title("(a) where the force error stays under the thresholds", fontsize=9)
    default = errors[errors.variant == DEFAULT_VARIANT]
    quantities = list(dict.fromkeys(default.quantity))
    median = (default.groupby(["law", "quantity"]).max_rel_error.median().unstack()
              .reindex(index=laws, columns=quantities))
    _cells(right, median.to_numpy(), quantities, laws)
    right.set_title("(b) median over the cases of the largest relative error", fontsize=9)
    right.tick_params(axis="y", labelleft=False)
    return fig
