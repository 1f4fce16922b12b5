"""``hertz2d model``: a contact law's curves along the same load paths as ``hertz2d twodisc``.

Same flags as ``twodisc`` (the two bodies, friction, the load path), plus the law, its penalty
factor, how a dissimilar pair's compliances combine (``--form``) and the linear spring's
stiffnesses; the CSV has the ``twodisc`` columns first so the two tables line up row by row. On a
``cycle`` path the summary adds the energy dissipated in the last cycle.
"""
from __future__ import annotations

import time
from pathlib import Path

from hertz2d.calibration.commands.deferred import add_deferred
from hertz2d.calibration.commands.lawargs import refuse_flags_of_other_laws, refuse_form
from hertz2d.calibration.commands.pathargs import (add_load_path_arguments, check_disc_arguments,
                                           load_path_from_args, path_name, path_summary)
from hertz2d.checks import one_of

#: the default law and form (the law library's)
DEFAULT_LAW, DEFAULT_FORM = "simplified", "per-body"


def _law_help() -> str:
    from hertz2d.calibration.laws import registry
    return ("; ".join(f"{name} ({', '.join(registry.entry(name).model.paths)} paths)"
                      for name in registry.names(engine="model"))
            + f" ({DEFAULT_LAW})")


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "model", parents=parents,
        help="a contact law's curves for the same load paths as twodisc",
        description="Evaluate a contact law along a two-disc load path: the paper's simplified "
                    "(Table 1) or accurate (Eqs. 22-27) model, either with memory for reversing "
                    "loads and varying N (simplified-hysteretic, accurate-memory), Appendix C's "
                    "slide, the calibrated law (fitted on the two-body FEM by hertz2d "
                    "calibrate: <results>/calibrated/coefficients.json, else the coefficients "
                    "shipped with hertz2d), a linear spring, or the 3D Hertz-Mindlin / "
                    "Mindlin-Deresiewicz laws applied to discs.")
    add_load_path_arguments(parser)
    add_deferred(parser, "--law", default=DEFAULT_LAW, text=_law_help)
    parser.add_argument("--form", default=None,
                        help="how a dissimilar pair's compliances combine in the paper's 2D "
                             "laws: per-body (Eq. 22 and its tangential analogue, each body on "
                             "its own support, as the FEM) or composite (E* of Eqs. 23-31) "
                             f"({DEFAULT_FORM}; the calibrated law is fitted per-body only)")
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
    from hertz2d.calibration.fitted import PenaltyChoice, calibrated_coefficients
    from hertz2d.calibration.laws import FORMS, ContactPair, make_law, registry
    from hertz2d.calibration.laws.linear import PAPER_KN, PAPER_KT

    check_disc_arguments(args)
    one_of("law", args.law, registry.names(engine="model"))
    penalised = registry.names(option="penalty")
    refuse_flags_of_other_laws(args, {option: registry.names(option=option)
                                      for option in ("penalty", "kn", "kt")})
    refuse_form(args.form, args.law, penalised)
    form = one_of("form", args.form or DEFAULT_FORM, FORMS)
    if args.counterpart == "wall":  # Section 3.2: the disc and its mirror image
        pair = ContactPair.disc_on_wall(args.R, args.E, args.nu, args.mu)
    else:
        pair = ContactPair(args.R, args.R2, args.E, args.E2, args.nu, args.nu2, args.mu,
                           form=form)
    penalty = PenaltyChoice.parse(args.penalty or "eq33", args.results)
    fit, coefficients = penalty.fit if args.law in penalised else None, None
    if "coefficients" in registry.entry(args.law).options:  # the fitted file: the coefficients'
        coefficients, fit = calibrated_coefficients(args.results)
    law = make_law(args.law, pair, penalty.factor,
                   kn=PAPER_KN if args.kn is None else args.kn,
                   kt=PAPER_KT if args.kt is None else args.kt, coefficients=coefficients)
    return law, pair, fit


def run(args) -> dict:
    from hertz2d.calibration.fitted import fit_keys
    from hertz2d.calibration.laws import energy_per_cycle
    from hertz2d.calibration.runs.atomic import check_writable, write_csv

    law, pair, fit = build_law(args)
    path = load_path_from_args(args)
    # the law's own bodies must touch at every step: the disc pair, or for a wall the disc and
    # its mirror image (Section 3.2: the displacements doubled), before any arithmetic
    path.check_touching(float(pair.R1 + pair.R2), scale=2.0 if pair.wall else 1.0,
                        bodies=("the disc and its mirror image (the wall's stand-in, Section "
                                "3.2)" if pair.wall else "the bodies"))
    out = check_writable("out", args.out if args.out is not None else
                         Path(args.results) / "model" / f"{path_name(args)}-{args.law}.csv")
    start = time.perf_counter()
    table = law.run(path)
    seconds = time.perf_counter() - start
    write_csv(table, out)
    energy = energy_per_cycle(table) if "unloading" in set(path.stage) else None
    return {"law": law.label, **path_summary(table), "energy_per_cycle": energy,
            "steps": len(table), "seconds": round(seconds, 4), "out": str(out),
            **fit_keys(fit)}
