"""Figures of the two-disc validation: analogues of the paper's Figs. 11-15, and every law at once.

Each function takes the tidy curve table (FEM runs as ``source = "FEM, <support>"``, laws by
label; columns of the ``twodisc`` table plus ``kt_secant``, ``case``) and returns a Figure.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from hertz2d.calibration.laws import half_width, pressure, shear_traction, stick_half_width
from hertz2d.calibration.laws.pair import ContactPair
from hertz2d.calibration.validation.fem_runs import FemRun, ValidationSettings
from hertz2d.calibration.validation.verification import PARTIAL_SLIP_DELTA_T

FEM_STYLE = {"FEM, clamped": dict(color="k", marker="o", ms=3.5, ls="none"),
             "FEM, symmetric": dict(color="0.55", marker="s", ms=3.5, ls="none", mfc="none")}


def _curve(ax, curves, source, case, x, y, scale_x=1.0, scale_y=1.0, **style):
    rows = curves[(curves.source == source) & (curves.case == case)]
    if rows.empty:
        return
    style = FEM_STYLE.get(source, dict(lw=1.6)) | style
    ax.plot(rows[x] * scale_x, rows[y] * scale_y, label=source, **style)


def figure11(runs: list[FemRun], settings: ValidationSettings) -> plt.Figure:
    """Contact tractions at delta_t = 0.01 m (partial slip) against Eqs. 1 and 2, per support."""
    pair = ContactPair.discs(settings.R, settings.E, settings.nu, settings.mu)
    finest = max(settings.levels)
    chosen = [r for r in runs if r.case == "case 1" and r.level == finest]
    fig, axes = plt.subplots(1, len(chosen), figsize=(6 * len(chosen), 4.2), sharey=True)
    for ax, run in zip(np.atleast_1d(axes), chosen):
        table = run.table
        step = table.iloc[int(np.argmin(np.abs(table.delta_t - PARTIAL_SLIP_DELTA_T)))]
        profile = run.profiles[(run.profiles.step == step.step) & run.profiles.contact]
        a = float(half_width(pair, step.N))
        c = float(stick_half_width(step.N, step["T"], a, settings.mu))
        p0 = 2 * step.N / (np.pi * a)
        x = np.linspace(-a, a, 400)
        ax.plot(profile.x / a, profile.p / p0, "o", ms=3.5, color="C0", label="FEM p")
        ax.plot(profile.x / a, profile.q / p0, "s", ms=3.5, color="C3", mfc="none",
                label="FEM q")
        ax.plot(x / a, pressure(x, step.N, a) / p0, "-", color="C0", label="Eq. 1")
        ax.plot(x / a, shear_traction(x, step.N, a, c, settings.mu) / p0, "-", color="C3",
                label=f"Eq. 2, c/a = {c / a:.2f} (Eq. 7)")
        ax.set_title(f"{run.support} flats, level {run.level}: delta_t = {step.delta_t:g} m, "
                     f"FEM c/a = {step.c / a:.2f}", fontsize=10)
        ax.set_xlabel("x / a (from the contact centre)")
        ax.grid(alpha=0.3)
    np.atleast_1d(axes)[0].set_ylabel("traction / p0")
    np.atleast_1d(axes)[0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def figure12(curves: pd.DataFrame, settings: ValidationSettings, accurate: str,
             appendix: str) -> plt.Figure:
    """Case 1: horizontal force against delta_t/R, FEM against the accurate model + Appendix C."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for source in FEM_STYLE:
        _curve(ax, curves, source, "case 1", "delta_t", "Fx", 1 / settings.R)
    _curve(ax, curves, accurate, "case 1", "delta_t", "Fx", 1 / settings.R, ls="--", color="C1")
    _curve(ax, curves, appendix, "case 1", "delta_t", "Fx", 1 / settings.R, color="C0")
    ax.set_xlabel("delta_t / R")
    ax.set_ylabel("horizontal force Fx (N/m)")
    ax.set_title("case 1: delta_n = 0.025 m held, delta_t 0 -> 0.025 m", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def figure13(curves: pd.DataFrame, settings: ValidationSettings, accurate: str,
             simplified: str) -> plt.Figure:
    """Case 1: secant tangential stiffness Fx/delta_t over partial slip, with its drop."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for source in FEM_STYLE:
        rows = curves[(curves.source == source) & (curves.case == "case 1")
                      & (curves.stage == "tangential") & (curves.c > 0)]
        if len(rows):
            drop = 1 - rows.kt_secant.iloc[-1] / rows.kt_secant.iloc[0]
            ax.plot(rows.delta_t / settings.R, rows.kt_secant, **FEM_STYLE[source],
                    label=f"{source} (drops {100 * drop:.1f} %)")
    rows = curves[(curves.source == accurate) & (curves.case == "case 1")
                  & (curves.slip == "partial")]
    ax.plot(rows.delta_t / settings.R, rows.kt_secant, "--", color="C1",
            label=f"{accurate} (drops {100 * (1 - rows.kt_secant.iloc[-1] / rows.kt_secant.iloc[0]):.1f} %)")
    held = curves[(curves.source == simplified) & (curves.case == "case 1")
                  & (curves.stage == "tangential")]
    ax.axhline(held.kt.iloc[0], color="C0", label=f"{simplified}: Eq. 31")
    ax.set_xlabel("delta_t / R")
    ax.set_ylabel("secant tangential stiffness Fx / delta_t (N/m per m)")
    ax.set_title("case 1, partial slip (paper: the FEM's secant stiffness drops by about 12 %)",
                 fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def figure14(curves: pd.DataFrame, settings: ValidationSettings,
             simplified: list[str]) -> plt.Figure:
    """Case 1 with the simplified model (Eq. 33, refitted w, w = 0.5)."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for source in FEM_STYLE:
        _curve(ax, curves, source, "case 1", "delta_t", "Fx", 1 / settings.R)
    for colour, source in zip(("C0", "C2", "C4"), simplified):
        _curve(ax, curves, source, "case 1", "delta_t", "Fx", 1 / settings.R, color=colour)
    ax.set_xlabel("delta_t / R")
    ax.set_ylabel("horizontal force Fx (N/m)")
    ax.set_title("case 1 with the simplified model (Table 1)", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def figure15(curves: pd.DataFrame, settings: ValidationSettings,
             laws: list[str]) -> plt.Figure:
    """Case 2: (a) vertical force against delta_n, (b) horizontal force against delta_t."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for ax, (x, y, label) in zip(axes, (("delta_n", "Fz", "(a) vertical force Fz (N/m)"),
                                        ("delta_t", "Fx", "(b) horizontal force Fx (N/m)"))):
        for source in FEM_STYLE:
            _curve(ax, curves, source, "case 2", x, y, 1 / settings.R)
        for colour, source in zip(("C0", "C2", "C3", "C4"), laws):
            _curve(ax, curves, source, "case 2", x, y, 1 / settings.R, color=colour)
        ax.set_xlabel(f"{x} / R")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    axes[0].set_title("case 2: delta_n and delta_t rise together to 0.025 m", fontsize=10)
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    return fig


def all_laws_figure(curves: pd.DataFrame, settings: ValidationSettings) -> plt.Figure:
    """Case 1's tangential stage: every law's horizontal and normal force against the FEM."""
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.8))
    held = curves[(curves.case == "case 1") & (curves.stage == "tangential")]
    sources = [s for s in held.source.unique() if s not in FEM_STYLE]
    colours = plt.cm.tab10(np.arange(len(sources)) % 10)
    for ax, column, label in zip(axes, ("Fx", "N"), ("horizontal force Fx (N/m)",
                                                     "contact normal force N (N/m)")):
        for source in FEM_STYLE:
            _curve(ax, held, source, "case 1", "delta_t", column, 1 / settings.R)
        for colour, source in zip(colours, sources):
            _curve(ax, held, source, "case 1", "delta_t", column, 1 / settings.R, color=colour)
        ax.set_xlabel("delta_t / R")
        ax.set_ylabel(label)
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    axes[1].legend(fontsize=7, loc="lower right")
    axes[0].set_title("case 1 (delta_n = 0.025 m held): every law against the FEM", fontsize=10)
    fig.tight_layout()
    return fig
