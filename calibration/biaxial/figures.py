"""Figures of the biaxial stage: the paper's Figs. 16-18 per law and across laws, the analyses.

Each function returns a matplotlib figure (the stage saves it). ``showcase`` arguments are
``[(label, run)]`` with the first seed's :class:`hertz2d.calibration.biaxial.runs.FinishedRun` of each
law; ``every_seed`` maps a label to all its runs.
"""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from hertz2d.dem.analysis import histogram, mobilised_friction  # noqa: E402
from hertz2d.dem.biaxial import Frames, shear_strains  # noqa: E402
from hertz2d.dem.output import draw_frame, frame_limits  # noqa: E402

#: columns of a law's ``shear.csv``
SHEAR_COLUMNS = ["time", "axial_strain", "lateral_strain", "volumetric_strain", "axial_stress",
                 "lateral_stress", "deviator"]
MPA = 1e-6


def _colours(count: int):
    cycle = plt.get_cmap("tab10")
    return [cycle(k % 10) for k in range(count)]


def every(frames: Frames, stride: int) -> Frames:
    """Every ``stride``-th frame (the last one always kept)."""
    keep = sorted(set(range(0, len(frames), stride)) | {len(frames) - 1})
    pick = lambda values: [values[k] for k in keep]  # noqa: E731
    return Frames(frames.radius, pick(frames.time), pick(frames.stage), pick(frames.position),
                  pick(frames.velocity), pick(frames.stress), pick(frames.contacts),
                  pick(frames.box))


def _instants(frames: Frames) -> list[tuple[int, str]]:
    """Fig. 16's three frames: the start of packing, the end of the isotropic stage, the end."""
    isotropic = [k for k, stage in enumerate(frames.stage) if stage == "isotropic"]
    end_isotropic = isotropic[-1] if isotropic else len(frames) - 1
    return [(0, "(a) beginning of packing"), (end_isotropic, "(b) end of isotropic stage"),
            (len(frames) - 1, "(c) end of shear stage")]


def snapshots(laws: list[tuple[str, Frames]]):
    """Fig. 16: each law's discs (coloured by diameter) at the three instants; one law in a
    row, several in columns."""
    if not laws:
        figure, axis = plt.subplots()
        axis.text(0.5, 0.5, "no run kept frames", ha="center")
        return figure
    single = len(laws) == 1
    rows, columns = (1, 3) if single else (3, len(laws))
    figure, axes = plt.subplots(rows, columns, figsize=(2.3 * columns + 1.0, 3.1 * rows + 0.5),
                                squeeze=False, layout="constrained")
    limits = frame_limits(laws[0][1])
    diameters = 2.0 * laws[0][1].radius
    collection = None
    for column, (label, frames) in enumerate(laws):
        for row, (index, name) in enumerate(_instants(frames)):
            axis = axes[0, row] if single else axes[row, column]
            title = f"{name}\nt = {frames.time[index]:.2f} s"
            if not single and row == 0:
                title = f"{label}\n{title}"
            collection, _ = draw_frame(axis, frames, index, limits,
                                       (diameters.min(), diameters.max()), title=title)
    figure.colorbar(collection, ax=axes, shrink=0.6, label="diameter (m)")
    figure.suptitle("Fig. 16 analogue" + (f": {laws[0][0]}" if single else ""), fontsize=10)
    return figure


def _compression(series: pd.DataFrame) -> pd.DataFrame:
    return series[series.stage != "settle"]


def _ratio(series: pd.DataFrame) -> pd.DataFrame:
    settle = series[series.stage == "settle"]
    return settle[settle.elastic > 0]


def law_figure17(series: pd.DataFrame, label: str):
    """Fig. 17 for one law: (a) kinetic over contact potential energy while packing, (b) axial
    and lateral stress, (c) mean kn and kt over all contacts, during compression."""
    figure, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    settle = _ratio(series)
    axes[0].semilogy(settle.time, settle.kinetic / settle.elastic)
    axes[0].set(xlabel="time (s)", ylabel="kinetic / contact potential energy",
                title="(a) packing")
    compression = _compression(series)
    axes[1].plot(compression.time, compression.axial_stress * MPA, label="axial")
    axes[1].plot(compression.time, compression.lateral_stress * MPA, label="lateral")
    axes[1].set(xlabel="time (s)", ylabel="stress (MPa)", title="(b) compression")
    axes[1].legend()
    axes[2].plot(compression.time, compression.mean_kn, label="mean kn")
    axes[2].plot(compression.time, compression.mean_kt, label="mean kt")
    axes[2].set(xlabel="time (s)", ylabel="stiffness (N/m per m)", title="(c) contact stiffness")
    axes[2].legend()
    figure.suptitle(f"Fig. 17 analogue: {label}", fontsize=10)
    figure.tight_layout()
    return figure


def energies(series: pd.DataFrame, label: str):
    """The energy ledger over the run: work in (walls and gravity) against kinetic, elastic and
    dissipated energy, and the residual."""
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 3.8))
    t = series.time
    for column, name in (("work", "work of walls and gravity"), ("elastic_change", "elastic"),
                         ("kinetic_change", "kinetic"), ("local", "local damping"),
                         ("dashpot", "dashpots"), ("slip", "slip"),
                         ("stiffness_change", "kt changes")):
        if np.any(series[column] != 0):
            left.plot(t, series[column], label=name)
    left.set_yscale("symlog", linthresh=1.0)
    left.set(xlabel="time (s)", ylabel="energy since the start (J/m)", title=label)
    left.legend(fontsize=7)
    with np.errstate(invalid="ignore", divide="ignore"):
        relative = np.abs(series.residual) / series.work.abs()
    right.semilogy(t, relative)
    right.axhline(0.01, color="r", linestyle=":", label="1 %")
    right.set(xlabel="time (s)", ylabel="|residual| / work in",
              title="energy balance: work = kinetic + elastic + dissipated")
    right.legend()
    figure.tight_layout()
    return figure


def figure17(showcase):
    """Fig. 17 across laws (first seed): (a) KE/U while packing, (b) axial (solid) and lateral
    (dashed) stress, (c) mean kn (solid) and kt (dashed)."""
    figure, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for colour, (label, run) in zip(_colours(len(showcase)), showcase):
        settle = _ratio(run.series)
        axes[0].semilogy(settle.time, settle.kinetic / settle.elastic, color=colour, lw=0.8,
                         label=label)
        compression = _compression(run.series)
        axes[1].plot(compression.time, compression.axial_stress * MPA, color=colour, lw=0.9)
        axes[1].plot(compression.time, compression.lateral_stress * MPA, color=colour, lw=0.7,
                     linestyle="--")
        axes[2].semilogy(compression.time, compression.mean_kn, color=colour, lw=0.9)
        axes[2].semilogy(compression.time, compression.mean_kt, color=colour, lw=0.7,
                         linestyle="--")
    axes[0].set(xlabel="time (s)", ylabel="kinetic / contact potential energy",
                title="(a) packing")
    axes[1].set(xlabel="time (s)", ylabel="stress (MPa)",
                title="(b) axial (solid), lateral (dashed)")
    axes[2].set(xlabel="time (s)", ylabel="mean stiffness (N/m per m)",
                title="(c) kn (solid), kt (dashed)")
    axes[0].legend(fontsize=7)
    figure.tight_layout()
    return figure


def figure18(showcase):
    """Fig. 18: the box's volume (area per unit thickness) during compression."""
    figure, axis = plt.subplots(figsize=(6.5, 4))
    for colour, (label, run) in zip(_colours(len(showcase)), showcase):
        compression = _compression(run.series)
        axis.plot(compression.time, compression.volume, color=colour, label=label)
    axis.set(xlabel="time (s)", ylabel="box volume (m^3 per m)",
             title="Fig. 18 analogue: volume of the box during compression")
    axis.legend(fontsize=7)
    figure.tight_layout()
    return figure


def _on_strain_grid(runs, column: str, grid: np.ndarray) -> np.ndarray:
    """(seeds, grid) ``column`` of each run's shear stage interpolated on the axial strain
    ``grid``."""
    curves = []
    for run in runs:
        shear = shear_strains(run.series)
        curves.append(np.interp(grid, shear.axial_strain, shear[column], right=np.nan))
    return np.array(curves)


def deviator(every_seed: dict):
    """Deviator stress and volumetric strain against axial strain in the shear stage: the mean
    over the seeds (line) and their range (band)."""
    figure, axes = plt.subplots(1, 2, figsize=(12, 4.2))
    strains = [shear_strains(run.series).axial_strain.max() for runs in every_seed.values()
               for run in runs]
    grid = np.linspace(0.0, min(strains) if strains else 0.2, 200)
    for colour, (label, runs) in zip(_colours(len(every_seed)), every_seed.items()):
        if not runs:
            continue
        for axis, column, scale in ((axes[0], "deviator", MPA), (axes[1], "volumetric_strain",
                                                                 100.0)):
            curves = _on_strain_grid(runs, column, grid) * scale
            axis.plot(100 * grid, np.nanmean(curves, axis=0), color=colour,
                      label=f"{label} ({len(runs)} seeds)")
            axis.fill_between(100 * grid, np.nanmin(curves, axis=0), np.nanmax(curves, axis=0),
                              color=colour, alpha=0.15, linewidth=0)
    axes[0].set(xlabel="axial strain (%)", ylabel="deviator stress q (MPa)",
                title="deviator: mean and range over the packings")
    axes[1].set(xlabel="axial strain (%)", ylabel="volumetric strain (%, compression > 0)",
                title="volumetric strain")
    axes[0].legend(fontsize=7)
    figure.tight_layout()
    return figure


def contacting_kinetic(showcase):
    """The DEM study's analyses over time: kinetic energy of the discs that touch something, and
    the largest overlap (over R1 + R2)."""
    figure, axes = plt.subplots(1, 2, figsize=(12, 4))
    for colour, (label, run) in zip(_colours(len(showcase)), showcase):
        series = run.series
        axes[0].semilogy(series.time, series.kinetic_contacting.clip(lower=1e-12),
                         color=colour, lw=0.8, label=label)
        axes[1].semilogy(series.time, series.max_overlap.clip(lower=1e-9), color=colour,
                         lw=0.8)
    for axis in axes:
        for boundary in _stage_starts(showcase[0][1].series) if showcase else []:
            axis.axvline(boundary, color="0.6", linestyle=":", lw=0.8)
    axes[0].set(xlabel="time (s)", ylabel="kinetic energy (J/m)",
                title="kinetic energy of the discs in contact")
    axes[1].set(xlabel="time (s)", ylabel="largest overlap / (R1 + R2)",
                title="largest overlap")
    axes[0].legend(fontsize=7)
    figure.tight_layout()
    return figure


def _stage_starts(series: pd.DataFrame) -> list[float]:
    changes = series.stage.ne(series.stage.shift())
    return list(series.time[changes].iloc[1:])


def overlaps(showcase):
    """Distribution of the overlaps (over R1 + R2) at the end of the isotropic and of the shear
    stage, every touching contact of the first seed."""
    figure, axes = plt.subplots(1, 2, figsize=(12, 4))
    contacts = [run.contacts for _, run in showcase]
    largest = max((c.relative_overlap.max() for c in contacts if len(c)), default=1e-3)
    edges = np.logspace(-6, np.log10(largest * 1.05), 40)
    for colour, (label, run) in zip(_colours(len(showcase)), showcase):
        for axis, instant in zip(axes, ("isotropic", "shear")):
            values = run.contacts.relative_overlap[run.contacts.instant == instant]
            table = histogram(values, edges)
            axis.step(table.low, table.density * table.low, where="post", color=colour,
                      label=label)
    for axis, instant in zip(axes, ("isotropic", "shear")):
        axis.set_xscale("log")
        axis.set(xlabel="overlap / (R1 + R2)", ylabel="x p(x) (density per log overlap)",
                 title=f"overlaps at the end of the {instant} stage")
    axes[0].legend(fontsize=7)
    figure.tight_layout()
    return figure


def tangential_forces(showcase, friction: float):
    """Tangential-force distributions at the end of the shear stage: the mobilised friction
    ``|T|/(mu N)`` (1: sliding) at the end of the isotropic and of the shear stage, and the
    normal forces over their mean."""
    figure, axes = plt.subplots(1, 3, figsize=(15, 4))
    mobilised = np.linspace(0.0, 1.0, 21)
    mobilised[-1] = 1.0 + 1e-9  # the sliding contacts (|T| = mu N) in the last bin
    for colour, (label, run) in zip(_colours(len(showcase)), showcase):
        for axis, instant in zip(axes[:2], ("isotropic", "shear")):
            mine = run.contacts[run.contacts.instant == instant]
            table = histogram(mobilised_friction(mine, friction), mobilised)
            axis.step(table.low, table.density, where="post", color=colour, label=label)
        mine = run.contacts[run.contacts.instant == "shear"]
        relative = mine.N / mine.N.mean()
        table = histogram(relative, np.linspace(0.0, 6.0, 31))
        axes[2].semilogy(0.5 * (table.low + table.high), table.density.replace(0, np.nan),
                         "o-", ms=3, color=colour)
    for axis, instant in zip(axes[:2], ("isotropic", "shear")):
        axis.set(xlabel="|T| / (mu N)", ylabel="probability density",
                 title=f"mobilised friction, end of {instant}")
    axes[2].set(xlabel="N / mean N", ylabel="probability density",
                title="normal forces, end of shear")
    axes[0].legend(fontsize=7)
    figure.tight_layout()
    return figure


def normalised_profiles(profiles: pd.DataFrame, speed: float) -> pd.DataFrame:
    """A run's velocity profiles (averaged over the shear stage,
    :func:`hertz2d.dem.biaxial.mean_profiles`) over the top wall's ``speed``."""
    table = profiles.copy()
    if len(table):
        table[["velocity", "affine"]] /= speed
    return table


def velocity_profiles(showcase, settings):
    """Velocity profiles of the shear stage (first seed, averaged over the stage): ``vy`` over
    the height and ``vx`` across the width, over the top wall's speed; dashed: the homogeneous
    (affine) deformation between the walls."""
    figure, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for colour, (label, run) in zip(_colours(len(showcase)), showcase):
        table = normalised_profiles(run.profiles, settings.shear_speed)
        for axis, name in zip(axes, ("y", "x")):
            mine = table[table.axis == name]
            if name == "y":
                axis.plot(mine.velocity, mine.position, "o-", ms=3, color=colour, label=label)
                axis.plot(mine.affine, mine.position, "--", color=colour, lw=0.7)
            else:
                axis.plot(mine.position, mine.velocity, "o-", ms=3, color=colour)
                axis.plot(mine.position, mine.affine, "--", color=colour, lw=0.7)
    axes[0].set(xlabel="vy / top wall speed", ylabel="height / H",
                title="vertical velocity over the height")
    axes[1].set(xlabel="x / W", ylabel="vx / top wall speed",
                title="horizontal velocity across the width")
    axes[0].legend(fontsize=7)
    figure.tight_layout()
    return figure


def damping_study(study: dict):
    """The damping study on the reference law: (a) KE/U while settling (first seed), (b) the
    deviator and (c) the volumetric strain against axial strain (mean over the seeds)."""
    figure, axes = plt.subplots(1, 3, figsize=(15, 4))
    strains = [shear_strains(run.series).axial_strain.max() for runs in study.values()
               for run in runs]
    grid = np.linspace(0.0, min(strains) if strains else 0.2, 200)
    for colour, (label, runs) in zip(_colours(len(study)), study.items()):
        if not runs:
            continue
        settle = _ratio(runs[0].series)
        axes[0].semilogy(settle.time, (settle.kinetic / settle.elastic).clip(lower=1e-20),
                         color=colour, lw=0.8, label=label)
        axes[1].plot(100 * grid, np.nanmean(_on_strain_grid(runs, "deviator", grid), axis=0)
                     * MPA, color=colour)
        axes[2].plot(100 * grid, 100 * np.nanmean(_on_strain_grid(runs, "volumetric_strain",
                                                                   grid), axis=0),
                     color=colour)
    axes[0].set(xlabel="time (s)", ylabel="kinetic / contact potential energy",
                title="(a) settling")
    axes[1].set(xlabel="axial strain (%)", ylabel="deviator (MPa)", title="(b) deviator")
    axes[2].set(xlabel="axial strain (%)", ylabel="volumetric strain (%)",
                title="(c) volumetric strain")
    axes[0].legend(fontsize=7)
    figure.tight_layout()
    return figure
