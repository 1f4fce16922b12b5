"""Flags shared by ``hertz2d twodisc`` and ``hertz2d model``: the two bodies and the load path.

The upper body is the disc (``--R --E --nu``); the lower body is a second disc (``--R2 --E2
--nu2``, each defaulting to the upper body's value) or a rigid wall (``--counterpart wall``).
Defaults are the paper's second example (Section 4.2): two discs of R = 0.5 m, E = 10 GPa,
nu = 0.25, mu = 0.3, delta_n = delta_t = 0.025 m.
"""
from __future__ import annotations

import argparse

from hertz2d.calibration.commands.deferred import add_deferred
from hertz2d.checks import InputError, non_negative, one_of, poisson, positive

COUNTERPARTS = ("disc", "wall")
#: the step flags of a built path and their defaults (None: the path's own rule); each applies to
#: the paths listed, none to ``--path-file`` (the file gives every step)
STEP_FLAGS = {"delta_n": 0.025, "delta_t": 0.025, "steps": 50, "normal_steps": 10, "cycles": 1,
              "normal_swing": None, "delta_n_end": None, "seed": None, "reversals": None}
#: the kinds whose approach swings (hertz2d.checks.loadpath's SWINGING, named here to keep the import lazy)
SWINGING = ("stick-cycle", "sliding-reversal", "random-walk")
ONLY_FOR = {"cycles": ("cycle", "coupled-cycle", *SWINGING),
            "normal_swing": ("coupled-cycle", *SWINGING),
            "delta_n_end": ("unload-normal",), "seed": ("random-walk",),
            "reversals": ("random-walk",)}


def _path_help() -> str:
    from hertz2d.checks.loadpath import PATHS
    return (f"one of {', '.join(PATHS)}. hold-normal: delta_n applied then held while delta_t "
            "rises (case 1); proportional: both rise together (case 2); cycle: delta_n held, "
            "delta_t 0 -> +A -> -A -> +A (--cycles times), A = --delta-t; coupled-cycle: a cycle "
            "with delta_n = delta_n (1 + s delta_t/A), s = --normal-swing; unload-normal: "
            "hold-normal, then delta_n falls to --delta-n-end with delta_t held (Fig. 6b); "
            "stick-cycle, sliding-reversal: a cycle with delta_n = delta_n (1 + s sin(2 pi k "
            "tau)), tau the share of the cycle's travel, k 1 or 2; random-walk: periods +A -> "
            "-A -> +A with --reversals minor reversals each half, drawn from --seed, delta_n "
            "swinging out of phase")


def _swing_help() -> str:
    from hertz2d.checks.loadpath import NORMAL_SWING
    return ("a coupled-cycle's approach varies by this fraction of --delta-n each way, in phase "
            "with delta_t; a stick-cycle's, sliding-reversal's or random-walk's with the share "
            f"of the cycle's travel ({NORMAL_SWING:g})")


def add_load_path_arguments(parser: argparse.ArgumentParser) -> None:
    add_deferred(parser, "--path", default=None, text=_path_help)
    parser.add_argument("--path-file", default=None, metavar="CSV",
                        help="any path instead of --path: one step per row, columns delta_n, "
                             "delta_t (m); the step flags then do not apply")
    parser.add_argument("--R", type=float, default=0.5, help="radius of the (upper) disc, m (0.5)")
    parser.add_argument("--E", type=float, default=10e9, help="its Young's modulus, Pa (10e9)")
    parser.add_argument("--nu", type=float, default=0.25, help="its Poisson's ratio (0.25)")
    parser.add_argument("--counterpart", default="disc",
                        help="the lower body: disc (a second disc) or wall (a rigid flat) (disc)")
    parser.add_argument("--R2", type=float, default=None, help="radius of the lower disc (--R)")
    parser.add_argument("--E2", type=float, default=None,
                        help="Young's modulus of the lower disc (--E)")
    parser.add_argument("--nu2", type=float, default=None,
                        help="Poisson's ratio of the lower disc (--nu)")
    parser.add_argument("--mu", type=float, default=0.3, help="friction coefficient (0.3)")
    parser.add_argument("--delta-n", type=float, default=None,
                        help="final (largest) normal approach, m (0.025)")
    parser.add_argument("--delta-t", type=float, default=None,
                        help="final tangential displacement, or the cycle's amplitude, m (0.025)")
    parser.add_argument("--steps", type=int, default=None,
                        help="load steps of the tangential (or proportional) ramp; of each "
                             "amplitude of travel for cycle (50)")
    parser.add_argument("--normal-steps", type=int, default=None,
                        help="load steps of the normal ramp before the tangential stage (10)")
    parser.add_argument("--cycles", type=int, default=None,
                        help="full tangential cycles +A -> -A -> +A of a cycle path (1)")
    add_deferred(parser, "--normal-swing", type=float, default=None, text=_swing_help)
    parser.add_argument("--seed", type=int, default=None,
                        help="a random-walk's seed: the same seed, the same path (0)")
    parser.add_argument("--reversals", type=int, default=None,
                        help="a random-walk's minor reversals per half period (2)")
    parser.add_argument("--delta-n-end", type=float, default=None,
                        help="approach at the end of an unload-normal path, m (half of "
                             "--delta-n)")
    parser.add_argument("--out", default=None, help="CSV file for the per-step table")


def check_disc_arguments(args: argparse.Namespace) -> None:
    """The bodies' geometry, material and friction flags: one line naming a bad value (exit 2).

    Fills the lower disc's unset flags with the upper disc's values.
    """
    positive("R", args.R), positive("E", args.E), poisson("nu", args.nu)
    one_of("counterpart", args.counterpart, COUNTERPARTS)
    lower = {"R2": args.R2, "E2": args.E2, "nu2": args.nu2}
    if args.counterpart == "wall":
        given = [f"--{k}" for k, v in lower.items() if v is not None]
        if given:
            raise InputError(f"counterpart='wall' is a rigid flat: {', '.join(given)} do not "
                             "apply")
    args.R2 = positive("R2", args.R if args.R2 is None else args.R2)
    args.E2 = positive("E2", args.E if args.E2 is None else args.E2)
    args.nu2 = poisson("nu2", args.nu if args.nu2 is None else args.nu2)
    non_negative("mu", args.mu)


def _given(args: argparse.Namespace, names) -> list[str]:
    return [f"--{name.replace('_', '-')}" for name in names if getattr(args, name) is not None]


def check_path_flags(args: argparse.Namespace) -> None:
    """Exactly one of ``--path`` and ``--path-file``; the step flags given only where they apply
    (none with ``--path-file``, ``--cycles`` with a reversing path, ``--normal-swing`` with a
    swinging one, ``--delta-n-end`` with unload-normal, ``--seed`` and ``--reversals`` with a
    random walk): one line naming them (exit 2).

    Fills a built path's unset step flags with their defaults (:data:`STEP_FLAGS`)."""
    if (args.path is None) == (args.path_file is None):
        raise InputError("give exactly one of --path and --path-file "
                         f"(path={args.path!r}, path_file={args.path_file!r})")
    if args.path_file is not None:
        given = _given(args, STEP_FLAGS)
        if given:
            raise InputError(f"path_file={args.path_file!r}: {', '.join(given)} do not apply "
                             "(the file gives every step)")
        return
    for name, paths in ONLY_FOR.items():
        if getattr(args, name) is not None and args.path not in paths:
            raise InputError(f"{name}={getattr(args, name)!r} applies to --path "
                             f"{' or '.join(paths)} only (path={args.path!r})")
    for name, default in STEP_FLAGS.items():
        if getattr(args, name) is None:
            setattr(args, name, default)


def load_path_from_args(args: argparse.Namespace):
    """The :class:`~hertz2d.checks.loadpath.LoadPath` of ``--path`` (with its step flags) or of
    ``--path-file``: exactly one of them (:func:`check_path_flags`)."""
    from hertz2d.checks.loadpath import NORMAL_SWING, REVERSALS, LoadPath

    check_path_flags(args)
    if args.path_file is not None:
        return LoadPath.from_file(args.path_file)
    return LoadPath.build(args.path, args.delta_n, args.delta_t, args.steps, args.normal_steps,
                          args.cycles, args.delta_n_end,
                          NORMAL_SWING if args.normal_swing is None else args.normal_swing,
                          seed=0 if args.seed is None else args.seed,
                          reversals=REVERSALS if args.reversals is None else args.reversals)


def path_name(args: argparse.Namespace) -> str:
    """The path's name in default output file names."""
    return args.path or "file"


def path_summary(table) -> dict:
    """The JSON keys ``N0, a0, Fx_peak, delta_t_at_peak``: the state after normal loading and the
    peak horizontal force.

    "After normal loading" is the first step at the path's largest delta_n: the end of the normal
    stage of ``hold-normal``, the last step of ``proportional``.
    """
    import numpy as np

    if table.empty:
        return {"N0": None, "a0": None, "Fx_peak": None, "delta_t_at_peak": None}
    loaded = table[np.isclose(table["delta_n"], table["delta_n"].max())].iloc[0]
    peak = table["Fx"].idxmax()
    return {"N0": float(loaded["N"]), "a0": float(loaded["a"]),
            "Fx_peak": float(table.loc[peak, "Fx"]),
            "delta_t_at_peak": float(table.loc[peak, "delta_t"])}
