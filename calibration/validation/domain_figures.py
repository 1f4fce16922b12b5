"""Figures of the law's domain (:mod:`hertz2d.calibration.validation.domain_stage`), one per table."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

FEM_POINTS = dict(color="k", marker="o", ms=3, ls="none")
LINES = {"Masing, FEM's virgin curve": dict(color="tab:green", lw=1.4),
         "accurate model with memory": dict(color="tab:blue", lw=1.4, ls="--"),
         "simplified-hysteretic": dict(color="tab:orange", lw=1.2, ls=":")}


def masing_loops(loops: pd.DataFrame) -> plt.Figure:
    """FEM cycles against Masing's rule on the FEM's own virgin curve and the memory laws, at the
    smallest, a middle and the largest amplitude. Each curve's chord through its turning points,
    ``(Fx*/A) delta_t``, is subtracted so that the loops' opening (the dissipation) shows."""
    amplitudes = sorted(loops["A / onset"].unique())
    shown = sorted({amplitudes[0], amplitudes[len(amplitudes) // 2], amplitudes[-1]})
    fig, axes = plt.subplots(1, len(shown), figsize=(4.6 * len(shown), 4.2))
    for ax, fraction in zip(np.atleast_1d(axes), shown):
        mine = loops[(loops["A / onset"] == fraction)
                     & loops.stage.isin(("tangential", "unloading", "reloading"))]
        for source, rows in mine.groupby("source", sort=False):
            chord = rows.Fx.abs().max() / rows.delta_t.abs().max()
            style = FEM_POINTS if source == "FEM" else LINES[source]
            ax.plot(1e3 * rows.delta_t, 1e-6 * (rows.Fx - chord * rows.delta_t), label=source,
                    **style)
        ax.set(title=f"A = {fraction:g} x FEM's full slip", xlabel="delta_t (mm)")
        ax.grid(alpha=0.3)
    np.atleast_1d(axes)[0].set_ylabel("Fx - (Fx*/A) delta_t (MN/m), each its own chord")
    handles, labels = np.atleast_1d(axes)[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=8, loc="lower center", ncol=4)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig


def energy(table: pd.DataFrame) -> plt.Figure:
    """Energy per cycle against amplitude, log-log, with the A^3 slope: (a) at the FEM's
    amplitudes, (b) at fractions of each model's own full-slip displacement."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 6.2))
    colours = dict(zip([m for m in table.model.unique() if not m.startswith("FEM")],
                       plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    for ax, basis in zip(axes, ("FEM's amplitude", "fraction of its own full slip")):
        rows = table[(table.basis == basis) | table.model.str.startswith("FEM")]
        floor = 1e-3 * table[table.model == "FEM (Fx)"]["W (J/m)"].min()
        for model, mine in rows.groupby("model", sort=False):
            mine = mine[mine["W (J/m)"] > floor]  # the capped springs: zero to rounding
            if mine.empty:
                continue
            x = mine["A (m)"] * 1e3 if basis == "FEM's amplitude" else mine["A / full slip"]
            style = (dict(color="k", marker="o", ls="none") if model == "FEM (Fx)"
                     else dict(color="0.5", marker="s", mfc="none", ls="none")
                     if model.startswith("FEM") else dict(marker=".", lw=1.2,
                                                          color=colours[model]))
            ax.loglog(x, mine["W (J/m)"], label=model, **style)
        x0 = (table[table.model == "FEM (Fx)"]["A (m)"] * 1e3 if basis == "FEM's amplitude"
              else table[table.model == "FEM (Fx)"]["A / full slip"]).to_numpy()
        w0 = table[table.model == "FEM (Fx)"]["W (J/m)"].to_numpy()
        ax.loglog(x0, w0[0] * (x0 / x0[0]) ** 3, color="0.7", lw=3, alpha=0.5, label="slope 3")
        ax.set(xlabel="A (mm)" if basis == "FEM's amplitude" else "A / own full-slip displacement",
               ylabel="W per cycle (J/m)", title=f"at the {basis}" if basis.startswith("FEM")
               else "at the same fraction of each one's full slip")
        ax.grid(alpha=0.3, which="both")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=7.5, loc="lower center", ncol=3)
    fig.tight_layout(rect=(0, 0.2, 1, 1))
    return fig


def normal_convergence(table: pd.DataFrame) -> plt.Figure:
    """N over Eq. 17 (wall) or Eq. 22 per mesh level, frictionless."""
    fig, ax = plt.subplots(figsize=(6, 4))
    for (pair, rows), style in zip(table.groupby("pair", sort=False),
                                   (dict(marker="s", ms=9, mfc="none"), dict(marker="o"),
                                    dict(marker="o", ls="--"))):
        ax.plot(rows.level, 100 * (rows["N / closed form"] - 1), **style,
                label=f"{pair} ({rows['closed form'].iloc[0]}, beta = {rows.beta.iloc[0]:.2f})")
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set(xlabel="mesh level (each halves the element size)",
           ylabel="N / closed form - 1 (%)", title="Frictionless normal loading, symmetric flats")
    ax.set_xticks(sorted(table.level.unique()))
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def beta_shear(profiles: dict[str, pd.DataFrame], beta: pd.DataFrame) -> plt.Figure:
    """Shear traction at the end of normal loading (mu = 0.3) over x/a, per pair, with the stick
    zone of the half-plane model and Goodman's closed form."""
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for (pair, profile), color in zip(profiles.items(), ("k", "tab:blue", "tab:red")):
        row = beta[beta.pair == pair].iloc[0]
        contact = profile[profile.contact.astype(bool)]
        a = contact.x.abs().max()
        scale = row.mu * contact.p.max()
        ax.plot(contact.x / a, contact.q / scale, marker=".", color=color,
                label=f"{pair} (beta = {row.beta:.2f}): FEM, c/a = {row['c / a']:.2f}")
        for sign in (-1, 1):
            ax.axvline(sign * row["half-plane c / a"], color=color, ls="--", lw=0.8)
    ax.set(xlabel="x / a", ylabel="q / (mu p0)",
           title="Shear after normal loading (dashed: half-plane stick zone)")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def case2_over_mu(table: pd.DataFrame, paper_kt: float = 1.5e9) -> plt.Figure:
    """Case 2 over mu, per support of the flats: steps in full slip, and the regressed kt
    against the paper's 1.5e9."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    for support, rows in table.groupby("support", sort=False):
        left.plot(rows.mu, rows["steps in full slip"] / rows.steps, marker="o",
                  label=f"steps in full slip, {support} flats")
        left.plot(rows.mu, rows["steps with slip"] / rows.steps, marker="s", mfc="none",
                  label=f"steps with any slipping node, {support}")
        right.plot(rows.mu, rows["kt (N/m)"], marker="o",
                   label=f"kt regressed on the FEM, {support} flats")
    left.set(xlabel="mu", ylabel="fraction of case 2's steps", title="Case 2: regime")
    left.legend(fontsize=8)
    right.axhline(paper_kt, color="tab:red", ls="--", label="paper's kt = 1.5e9 N/m")
    right.set(xlabel="mu", ylabel="kt (N/m per m)", title="Case 2: linear spring's kt")
    right.legend(fontsize=8)
    for ax in (left, right):
        ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def unload_normal(table: pd.DataFrame) -> plt.Figure:
    """delta_t held, delta_n halved: stick zone and T/(mu N) against the falling N."""
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(table["N / N at start"], table["c / a"], marker="o", label="c / a (FEM)")
    ax.plot(table["N / N at start"], table["T / (mu N)"], marker="s", label="T / (mu N) (FEM)")
    ax.plot(table["N / N at start"], np.sqrt(1 - table["T / (mu N)"]), color="k", ls="--",
            label="c / a of Eq. 7 at the FEM's N and T (Section 3.3)")
    ax.invert_xaxis()
    ax.set(xlabel="N / N at the start of unloading", title="Normal unloading at fixed delta_t")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig
