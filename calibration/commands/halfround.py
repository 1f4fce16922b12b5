"""``hertz2d halfround``: one half-round FEM solve under a Hertzian traction."""
from __future__ import annotations

import time

from hertz2d.calibration.commands.deferred import add_deferred
from hertz2d.checks import count, one_of, poisson, positive


def _support_help() -> str:
    from hertz2d.fem.supports import DEFAULT_SUPPORT, SUPPORTS
    return f"base support: {' or '.join(SUPPORTS)} ({DEFAULT_SUPPORT})"


def _level_help() -> str:
    from hertz2d.meshes.halfround import DEFAULT_LEVEL
    return f"mesh refinement level, each halves all sizes ({DEFAULT_LEVEL})"


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "halfround", parents=parents,
        help="one half-round FEM solve (Section 2.3): top displacement and penalty factor",
        description="Solve the trimmed half-round body under a Hertzian traction on its flat and "
                    "report the top-centre displacement relative to the base centre, with the "
                    "penalty factor from Eq. 20 (tangential) or the Eq. 17 check (normal).")
    parser.add_argument("--load", choices=("tangential", "normal"), default="tangential")
    parser.add_argument("--R", type=float, default=0.5, help="body radius, m (0.5)")
    parser.add_argument("--a", type=float, default=0.025, help="flat half-width, m (0.025)")
    parser.add_argument("--E", type=float, default=10e9, help="Young's modulus, Pa (10e9)")
    parser.add_argument("--nu", type=float, default=0.25, help="Poisson's ratio (0.25)")
    parser.add_argument("--force", type=float, default=1e5,
                        help="resultant of the traction, N/m (1e5)")
    add_deferred(parser, "--support", default=None, text=_support_help)
    add_deferred(parser, "--refine", type=int, default=None, text=_level_help)
    parser.set_defaults(run=run)


def run(args) -> dict:
    from hertz2d.calibration.laws.closed_forms import (normal_displacement_eq17, penalty_factor_eq33,
                                               penalty_factor_from_displacement,
                                               tangential_displacement_eq20)
    from hertz2d.fem.halfround import HalfRoundBody
    from hertz2d.fem.supports import DEFAULT_SUPPORT, SUPPORTS
    from hertz2d.meshes.halfround import DEFAULT_LEVEL, check_geometry

    support = DEFAULT_SUPPORT if args.support is None else args.support
    refine = DEFAULT_LEVEL if args.refine is None else args.refine
    check_geometry(args.R, args.a)
    positive("E", args.E), poisson("nu", args.nu), positive("force", args.force)
    one_of("support", support, SUPPORTS)
    count("refine", refine, minimum=0)
    start = time.perf_counter()
    body = HalfRoundBody(args.R, args.a, refine)
    compliance = body.compliance(args.E, args.nu, support)
    seconds = time.perf_counter() - start
    material = (args.E, args.nu, args.R, args.a)
    if args.load == "normal":
        u_top = compliance.normal * args.force
        w, reference = None, normal_displacement_eq17(args.force, *material)
    else:
        u_top = compliance.tangential * args.force
        w = float(penalty_factor_from_displacement(u_top, args.force, *material))
        w_eq33 = float(penalty_factor_eq33(args.a / args.R, args.nu))
        reference = tangential_displacement_eq20(args.force, *material, w_eq33)
    return {"load": args.load, "support": support, "u_top": u_top, "w": w,
            "reference": float(reference), "dofs": body.dofs, "refine": refine,
            "seconds": round(seconds, 4)}
