"""Figures of the calibrated law's judgement: its force and energy errors on the held-out
contacts against the Dundurs coupling, beside a law of the paper's."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from hertz2d.calibration.calibrate.judgement import coupling_of
from hertz2d.calibration.validation.map.errors import ENERGY
from hertz2d.calibration.validation.map.regions import THRESHOLDS, force_errors
from hertz2d.calibration.validation.map.spec import PATH_KINDS

#: the smallest ``|beta|/mu`` drawn (a contact of one material is put here on the log axis)
FLOOR = 1e-3


def heldout_errors(errors: pd.DataFrame, laws: list[str]) -> plt.Figure:
    """Per law (a column): the force error of every held-out path against ``|beta|/mu``, and the
    energy per cycle's error of every cycle path, by load path kind."""
    fig, panels = plt.subplots(2, len(laws), figsize=(5.2 * len(laws), 7.5), squeeze=False,
                               sharey="row")
    markers = dict(zip(PATH_KINDS, "osD^vP*"))
    for column, law in enumerate(laws):
        mine = errors[errors.law == law]
        force = coupling_of(force_errors(mine))
        energy = coupling_of(mine[mine.quantity == ENERGY])
        for kind in PATH_KINDS:
            for ax, rows, value in ((panels[0, column], force[force.path == kind], "force_error"),
                                    (panels[1, column], energy[energy.path == kind],
                                     "max_rel_error")):
                if len(rows):
                    ax.scatter(np.maximum(rows.beta_over_mu, FLOOR), 100 * rows[value].abs(),
                               marker=markers[kind], s=18, alpha=0.7, label=kind)
        for row, name in ((0, "force error (%)"), (1, "|energy per cycle error| (%)")):
            ax = panels[row, column]
            for threshold in (THRESHOLDS if row == 0 else THRESHOLDS[1:]):
                ax.axhline(100 * threshold, color="k", lw=0.8, ls="--")
            ax.set(xscale="log", yscale="log", xlabel="|beta| / mu (one material at 1e-3)",
                   ylabel=name if column == 0 else None)
            ax.grid(alpha=0.3, which="both")
        panels[0, column].set_title(law, fontsize=9)
        panels[0, column].legend(fontsize=7)
    fig.tight_layout()
    return fig
