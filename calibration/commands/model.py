"""``hertz2d model``: a contact law's curves along the same load paths as ``hertz2d twodisc``.

Same flags as ``twodisc`` (the two bodies, friction, the load path), plus the law, its penalty
factor, how a dissimilar pair's compliances combine (``--form``) and the linear spring's
stiffnesses; the CSV has the ``twodisc`` columns first so the two tables line up row by row. On a
``cycle`` path the summary adds the energy dissipated in the last cycle.
"""
from __future__ import annotations

import time
from pathlib import Path

from calibration.runs.atomic import check_writable, write_csv
from calibration.commands.pathargs import (add_load_path_arguments, check_disc_arguments,
                                           load_path_from_args, path_name, path_summary)
from calibration.commands.lawargs import refuse_flags_of_other_laws
from calibration.fitted import fit_keys, penalty_from_flag
from calibration.laws import FORMS, LAWS, ContactPair, energy_per_cycle, make_law
from calibration.laws.catalogue import PENALISED
from calibration.laws.linear import PAPER_KN, PAPER_KT
from calibration.laws.penalty_factor import EQ33
from checks import one_of


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "model", parents=parents,
        help="a contact law's curves for the same load paths as twodisc",
        description="Evaluate a contact law along a two-disc load path: the paper's simplified "
                    "(Table 1) or accurate (Eqs. 22-27) model, either with memory for reversing "
                    "loads and varying N (simplified-hysteretic, accurate-memory), Appendix C's "
                    "slide, a linear spring, or the 3D Hertz-Mindlin / Mindlin-Deresiewicz laws "
                    "applied to discs.")
    add_load_path_arguments(parser)
    parser.add_argument("--law", default="simplified",
                        help="; ".join(f"{name} ({', '.join(law.paths)} paths)"
                                       for name, law in LAWS.items()) + " (simplified)")
    parser.add_argument("--form", default="per-body",
                        help="how a dissimilar pair's compliances combine in the 2D laws: "
                             "per-body (Eq. 22 and its tangential analogue, each body on its own "
                             "support, as the FEM) or composite (E* of Eqs. 23-31) (per-body)")
    parser.add_argument("--penalty", default=None,
                        help="penalty factor of the paper's laws: eq33, refit (the default "
                             "support's, from <results>/penalty/fit.json, else the fit shipped "
                             "with hertz2d), confined (the refit for a disc held by its contacts "
                             "in a packing, from the same file) or a constant w in [0, 1] (eq33)")
    parser.add_argument("--kn", type=float, default=None,
                        help="linear spring normal stiffness, N/m per m (2.7e9, the paper's)")
    parser.add_argument("--kt", type=float, default=None,
                        help="linear spring tangential stiffness (1.5e9, the paper's)")
    parser.set_defaults(run=run)


def build_law(args):
    """The law the flags ask for, and the fitted file its penalty factor came from (or None)."""
    check_disc_arguments(args)
    one_of("law", args.law, tuple(LAWS))
    refuse_flags_of_other_laws(args, {"penalty": PENALISED, "kn": ("linear",),
                                      "kt": ("linear",)})
    one_of("form", args.form, FORMS)
    if args.counterpart == "wall":  # Section 3.2: the disc and its mirror image
        pair = ContactPair.disc_on_wall(args.R, args.E, args.nu, args.mu)
    else:
        pair = ContactPair(args.R, args.R2, args.E, args.E2, args.nu, args.nu2, args.mu,
                           form=args.form)
    penalty, fit = (penalty_from_flag(args.penalty or "eq33", args.results)
                    if args.law in PENALISED else (EQ33, None))
    return make_law(args.law, pair, penalty,
                    kn=PAPER_KN if args.kn is None else args.kn,
                    kt=PAPER_KT if args.kt is None else args.kt), fit


def run(args) -> dict:
    law, fit = build_law(args)
    path = load_path_from_args(args)
    out = check_writable("out", args.out if args.out is not None else
                         Path(args.results) / "model" / f"{path_name(args)}-{args.law}.csv")
    start = time.perf_counter()
    table = law.run(path)
    seconds = time.perf_counter() - start
    write_csv(table, out)
    energy = energy_per_cycle(table) if path.kind == "cycle" else None
    return {"law": law.label, **path_summary(table), "energy_per_cycle": energy,
            "steps": len(table), "seconds": round(seconds, 4), "out": str(out),
            **fit_keys(fit)}
