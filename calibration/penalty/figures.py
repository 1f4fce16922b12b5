"""Figures of the penalty-factor calibration: analogues of the paper's Figs. 7, 8 and 9, and the
mesh convergence of w. Each function takes the tidy sweep table and returns a matplotlib Figure."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from hertz2d.calibration.laws.closed_forms import EQ33_COEFFICIENTS, penalty_factor_eq33
from hertz2d.calibration.penalty.regression import CONSTANT_W, PenaltyFit, constant_w_errors

SUPPORT_STYLE = {"clamped": dict(marker="o", color="C0"),
                 "symmetric": dict(marker="s", color="C3", markerfacecolor="none")}

FIG7_PANELS = (  # study, x column, x label, log-x
    ("radius", "R", "body radius R (m), a/R = 0.05", True),
    ("contact_width", "a_over_R", "normalised contact width a/R", False),
    ("modulus", "E", "Young's modulus E (Pa)", True),
    ("poisson", "nu", "Poisson's ratio nu", False),
    ("poisson_plane_modulus", "nu", "nu, with E/(1 - nu^2) constant", False),
)


def _ok(grid: pd.DataFrame, **columns) -> pd.DataFrame:
    mask = grid.status == "ok"
    for column, value in columns.items():
        mask &= grid[column] == value
    return grid[mask]


def figure7(grid: pd.DataFrame) -> plt.Figure:
    """w against each parameter of the one-at-a-time studies, both supports, with Eq. 33."""
    fig, axes = plt.subplots(1, len(FIG7_PANELS), figsize=(17, 3.6), sharey=True)
    for ax, (label, (study, column, xlabel, logx)) in zip(axes, enumerate(FIG7_PANELS)):
        cases = _ok(grid, study=study).sort_values(column)
        for support, style in SUPPORT_STYLE.items():
            rows = cases[cases.support == support]
            ax.plot(rows[column], rows.w_fem, ls="-", label=f"FEM, {support}", **style)
        reference = cases[cases.support == cases.support.iloc[0]] if len(cases) else cases
        ax.plot(reference[column], penalty_factor_eq33(reference.a_over_R, reference.nu), "k--",
                label="paper Eq. 33")
        ax.set_xscale("log" if logx else "linear")
        ax.set_xlabel(xlabel)
        ax.set_title(f"({'abcde'[label]})")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("penalty factor w")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def figure8(grid: pd.DataFrame, fits: dict[str, PenaltyFit]) -> plt.Figure:
    """w over the a/R x nu grid per support: FEM points, the refit (solid), the paper's Eq. 33 (dashed)."""
    fig, axes = plt.subplots(1, len(fits), figsize=(6.2 * len(fits), 4.4), sharey=True)
    axes = np.atleast_1d(axes)
    cases = _ok(grid, study="grid")
    ratios = np.linspace(cases.a_over_R.min(), cases.a_over_R.max(), 100)
    poissons = sorted(cases.nu.unique())
    colours = plt.cm.viridis(np.linspace(0, 0.95, len(poissons)))
    for ax, (support, fit) in zip(axes, fits.items()):
        for nu, colour in zip(poissons, colours):
            rows = cases[(cases.support == support) & (cases.nu == nu)].sort_values("a_over_R")
            ax.plot(rows.a_over_R, rows.w_fem, "o", ms=3.5, color=colour, label=f"nu = {nu:g}")
            ax.plot(ratios, penalty_factor_eq33(ratios, nu, fit.coefficients), "-", color=colour,
                    lw=1)
            ax.plot(ratios, penalty_factor_eq33(ratios, nu, EQ33_COEFFICIENTS), "--", color=colour,
                    lw=0.8, alpha=0.7)
        ax.set_title(f"{support} base: refit R^2 = {fit.r2:.3f}, paper's Eq. 33 "
                     f"R^2 = {fit.paper_r2:.3f}", fontsize=10)
        ax.set_xlabel("a/R")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("penalty factor w (points FEM, solid refit, dashed paper)")
    axes[-1].legend(fontsize=7, ncol=2, loc="lower right")
    fig.tight_layout()
    return fig


def figure9(grid: pd.DataFrame, support: str) -> plt.Figure:
    """Relative error of Eq. 20 when w = 0.5 replaces the FEM w, for displacement and force."""
    errors = constant_w_errors(grid)
    errors = errors[errors.support == support]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    poissons = sorted(errors.nu.unique())
    colours = plt.cm.viridis(np.linspace(0, 0.95, len(poissons)))
    panels = (("displacement_error", "displacement at given force", 0.25),
              ("force_error", "force at given displacement", 0.20))
    for ax, (column, title, paper_bound) in zip(axes, panels):
        for nu, colour in zip(poissons, colours):
            rows = errors[errors.nu == nu].sort_values("a_over_R")
            ax.plot(rows.a_over_R, 100 * rows[column], "-o", ms=3, color=colour,
                    label=f"nu = {nu:g}")
        for sign in (-1, 1):
            ax.axhline(100 * sign * paper_bound, color="k", ls=":", lw=1)
        worst = errors[column].abs().max()
        ax.set_title(f"{title}: max |error| {100 * worst:.1f} % (paper: < {100 * paper_bound:.0f} %)",
                     fontsize=10)
        ax.set_xlabel("a/R")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel(f"relative error with w = {CONSTANT_W} (%), {support} base")
    axes[1].legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


def convergence_figure(grid: pd.DataFrame) -> plt.Figure:
    """``|w(level) - w(finest)|`` against DOFs at the base case, both supports, with an h^2
    slope."""
    fig, ax = plt.subplots(figsize=(5.5, 4))
    for support, style in SUPPORT_STYLE.items():
        rows = _ok(grid, study="convergence", support=support).sort_values("dofs")
        if len(rows) < 2:
            continue
        change = (rows.w_fem - rows.w_fem.iloc[-1]).abs().iloc[:-1]
        ax.loglog(rows.dofs.iloc[:-1], change, ls="-", label=support, **style)
    dofs = grid[grid.study == "convergence"].dofs
    if len(dofs):
        x = np.array([dofs.min(), dofs.max()])
        ax.loglog(x, 2e-3 * (x / x[0]) ** -1.0, "k:", label="slope -1 (error ~ h^2)")
    ax.axhline(0.002, color="grey", lw=0.8)
    ax.set_xlabel("degrees of freedom")
    ax.set_ylabel("|w - w(finest level)|")
    ax.set_title("mesh convergence of w at a/R = 0.05, nu = 0.25", fontsize=10)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig



#: the confined supports' line styles (K = 2 is the free disc, the others held by contacts)
CONFINED_STYLE = {"confined-2": dict(marker="^", color="C2"),
                  "confined-3": dict(marker="v", color="C1"),
                  "confined-4": dict(marker="D", color="C4"),
                  "mirror-2": dict(marker="x", color="C3")}


def confined_figure(grid: pd.DataFrame, confined: pd.DataFrame) -> plt.Figure:
    """w against a/R for the disc held by K contacts, next to the half-round supports, at the
    smallest, the base and the largest nu of the grid."""
    cases = _ok(confined, study="grid")
    half_round = _ok(grid, study="grid")
    poissons = sorted(cases.nu.unique())
    base = grid[grid.study == "convergence"].nu
    shown = sorted({poissons[0], float(base.iloc[0]) if len(base) else poissons[0],
                    poissons[-1]} & set(poissons))
    fig, axes = plt.subplots(1, len(shown), figsize=(5.2 * len(shown), 4.2), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, nu in zip(axes, shown):
        for support, style in SUPPORT_STYLE.items():
            rows = half_round[(half_round.support == support)
                              & (half_round.nu == nu)].sort_values("a_over_R")
            ax.plot(rows.a_over_R, rows.w_fem, ls="--", lw=1, ms=3,
                    label=f"half-round, {support}", **style)
        for support, style in CONFINED_STYLE.items():
            rows = cases[(cases.support == support) & (cases.nu == nu)].sort_values("a_over_R")
            if len(rows):
                name = {"confined-2": "free disc (K = 2, inertia)",
                        "mirror-2": "K = 2 mirrored (check)"}.get(support, f"held by K = "
                                                                          f"{support[-1]}")
                ax.plot(rows.a_over_R, rows.w_fem, ls="-" if support != "mirror-2" else "",
                        ms=4, label=name, **style)
        ax.axhline(0, color="k", lw=0.5)
        ax.set_title(f"nu = {nu:g}", fontsize=10)
        ax.set_xlabel("a/R")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("penalty factor w (Eq. 20, top relative to the centre)")
    axes[0].legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig
