"""``hertz2d twodisc``: the two-body frictional contact FEM (Section 4.2) along a load path.

The disc of ``--R --E --nu`` is the upper body, whose flat is driven; the lower body is a second
disc (``--R2 --E2 --nu2``) or, with ``--counterpart wall``, a rigid flat.

Writes the per-step table (the step columns shared with ``hertz2d model`` first, then
diagnostics, listed in ``docs/cli.md``) to ``--out`` (default
``<results>/twodisc/<path>-<support>.csv``) with a JSON sidecar holding the parameters,
the summary and the provenance; optionally the traction profiles p(x), q(x) of every step and
VTU files of displacement and stress. A step that does not converge even after cutting its
increment back stops the path: the steps before it are written, and the command exits 2 with
the step and the residual.
"""
from __future__ import annotations

import time
from pathlib import Path

from hertz2d.calibration.commands.deferred import add_deferred
from hertz2d.calibration.commands.pathargs import (add_load_path_arguments, check_disc_arguments,
                                           load_path_from_args, path_name, path_summary)
from hertz2d.checks import InputError


def _support_help() -> str:
    from hertz2d.fem.supports import DEFAULT_SUPPORT, SUPPORTS
    return f"flat supports: {' or '.join(SUPPORTS)} ({DEFAULT_SUPPORT})"


def _level_help() -> str:
    from hertz2d.meshes.twodisc import DEFAULT_LEVEL
    return f"mesh refinement level, each halves all sizes ({DEFAULT_LEVEL})"


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "twodisc", parents=parents,
        help="two-body frictional contact FEM (Section 4.2): forces and contact widths per step",
        description="Press a half disc on a second one (or on a rigid wall) and slide it along a "
                    "load path (Signorini contact, Coulomb friction with stick/slip history, "
                    "finite sliding); report the flat's forces, the contact resultants N, T and "
                    "the contact and stick half-widths a, c per step.")
    add_load_path_arguments(parser)
    add_deferred(parser, "--support", default=None, text=_support_help)
    add_deferred(parser, "--refine", type=int, default=None, text=_level_help)
    parser.add_argument("--profiles", default=None,
                        help="CSV file for the traction profiles p(x), q(x) of every step")
    parser.add_argument("--vtu", default=None,
                        help="directory for one VTU file per step (displacement, stress)")
    parser.set_defaults(run=run)


def run(args) -> dict:
    from hertz2d.calibration.runs.atomic import check_writable, together, write_csv, write_json
    from hertz2d.calibration.runs.provenance import provenance
    from hertz2d.fem.supports import DEFAULT_SUPPORT
    from hertz2d.fem.twodisc import Disc, RigidFlat, solve_two_disc
    from hertz2d.meshes.twodisc import DEFAULT_LEVEL

    check_disc_arguments(args)  # support, refine and the touching check: in TwoBody
    args.support = DEFAULT_SUPPORT if args.support is None else args.support
    args.refine = DEFAULT_LEVEL if args.refine is None else args.refine
    upper = Disc(args.R, args.E, args.nu)
    lower = RigidFlat() if args.counterpart == "wall" else Disc(args.R2, args.E2, args.nu2)
    path = load_path_from_args(args)
    out = check_writable("out", args.out if args.out is not None else
                         Path(args.results) / "twodisc" / f"{path_name(args)}-{args.support}.csv")
    check_writable("out", out.with_suffix(".json"))
    if args.profiles is not None:
        check_writable("profiles", args.profiles)
    if args.vtu is not None:
        check_writable("vtu", args.vtu, directory=True)
    start = time.perf_counter()
    result = solve_two_disc(path, upper, lower, mu=args.mu, support=args.support,
                            level=args.refine,
                            profiles=args.profiles is not None, vtu=args.vtu)
    seconds = time.perf_counter() - start
    summary = {**path_summary(result.table), "steps": len(result.table),
               "seconds": round(seconds, 3), "out": str(out), "support": args.support,
               "refine": args.refine, "nodes": result.info["nodes"], "failure": result.failure}
    parameters = {key: getattr(args, key) for key in (
        "path", "path_file", "R", "E", "nu", "counterpart", "R2", "E2", "nu2", "mu", "delta_n",
        "delta_t", "steps", "normal_steps", "cycles", "delta_n_end", "support", "refine")}
    if args.counterpart == "wall":  # a rigid flat has no radius or material
        parameters.update(R2=None, E2=None, nu2=None)
    with together():  # the table, its JSON sidecar and the profiles, as one set
        write_csv(result.table, out)
        if args.profiles is not None and result.profiles is not None:
            write_csv(result.profiles, args.profiles)
        write_json({"parameters": parameters, "summary": summary, "provenance": provenance()},
                   out.with_suffix(".json"))
    if result.failure is not None:
        raise InputError(f"{result.failure} (written to {out})")
    return summary
