"""Flags shared by ``hertz2d twodisc`` and ``hertz2d model``: the two-disc problem and its load path.

Defaults are the paper's second example (Section 4.2): two discs of R = 0.5 m, E = 10 GPa,
nu = 0.25, mu = 0.3, delta_n = delta_t = 0.025 m.
"""
from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

from fem.loadpath import PATHS, LoadPath
from meshes.checks import non_negative, poisson, positive


def add_load_path_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--path", required=True, choices=PATHS,
                        help="hold-normal: delta_n applied then held while delta_t rises (case 1); "
                             "proportional: both rise together (case 2)")
    parser.add_argument("--R", type=float, default=0.5, help="radius of both discs, m (0.5)")
    parser.add_argument("--E", type=float, default=10e9, help="Young's modulus, Pa (10e9)")
    parser.add_argument("--nu", type=float, default=0.25, help="Poisson's ratio (0.25)")
    parser.add_argument("--mu", type=float, default=0.3, help="friction coefficient (0.3)")
    parser.add_argument("--delta-n", type=float, default=0.025,
                        help="final normal approach of the two flats, m (0.025)")
    parser.add_argument("--delta-t", type=float, default=0.025,
                        help="final tangential displacement of the upper flat, m (0.025)")
    parser.add_argument("--steps", type=int, default=50,
                        help="load steps of the tangential (or proportional) ramp (50)")
    parser.add_argument("--normal-steps", type=int, default=10,
                        help="load steps of the normal ramp before a hold-normal path (10)")
    parser.add_argument("--out", default=None, help="CSV file for the per-step table")


def check_disc_arguments(args: argparse.Namespace) -> None:
    """The discs' material and friction flags: one line naming a bad value (exit 2)."""
    positive("R", args.R), positive("E", args.E), poisson("nu", args.nu)
    non_negative("mu", args.mu)


def load_path_from_args(args: argparse.Namespace) -> LoadPath:
    return LoadPath.build(args.path, args.delta_n, args.delta_t, args.steps, args.normal_steps)


def path_summary(table: pd.DataFrame) -> dict:
    """The JSON keys ``N0, a0, Fx_peak, delta_t_at_peak``: the state after normal loading and the
    peak horizontal force.

    "After normal loading" is the first step at the path's largest delta_n: the end of the normal
    stage of ``hold-normal``, the last step of ``proportional``.
    """
    if table.empty:
        return {"N0": None, "a0": None, "Fx_peak": None, "delta_t_at_peak": None}
    loaded = table[np.isclose(table["delta_n"], table["delta_n"].max())].iloc[0]
    peak = table["Fx"].idxmax()
    return {"N0": float(loaded["N"]), "a0": float(loaded["a"]),
            "Fx_peak": float(table.loc[peak, "Fx"]),
            "delta_t_at_peak": float(table.loc[peak, "delta_t"])}
