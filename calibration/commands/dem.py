"""``hertz2d dem``: the discrete element engine (:mod:`hertz2d.dem`), one sub-command per run type.

``hertz2d dem impact``: one disc against a rigid wall or an equal disc (the particle-level
verification runs of :mod:`hertz2d.dem.impact`). ``hertz2d dem biaxial``: the paper's biaxial test with
every contact law (:mod:`hertz2d.calibration.biaxial.stage`). A new run type is a ``register_<name>(subparsers,
parents)`` function that adds its parser (with ``set_defaults(run=..., command="dem <name>")``)
and an entry in :data:`SUBCOMMANDS`.

The engine needs numba (``pip install 'hertz2d[dem]'``); without it a DEM command exits 2 with
that message, and every other command works.
"""
from __future__ import annotations

from hertz2d.calibration.commands.deferred import add_deferred
from hertz2d.calibration.commands.executorargs import add_executor_arguments, executor_from
from hertz2d.calibration.commands.lawargs import refuse_flags_of_other_laws
from hertz2d.checks import InputError, one_of, poisson, positive


def dem_laws() -> tuple[str, ...]:
    """The laws the DEM runs (:mod:`hertz2d.calibration.laws.registry`), read when asked: the
    registry imports the law library, which ``--help`` should not wait for."""
    from hertz2d.calibration.laws import registry
    return registry.names(engine="dem")


def _law_help() -> str:
    return (f"one of {', '.join(dem_laws())} (simplified: the paper's Table 1; calibrated: the "
            "law fitted on the two-body FEM, <results>/calibrated/coefficients.json, else the "
            "coefficients shipped with hertz2d)")


def _engine():
    try:
        from hertz2d import dem
    except ImportError as error:
        raise InputError(str(error)) from None
    return dem


def add_law_arguments(parser) -> None:
    """The contact law and the discs' material (defaults: the paper's Section 4.3)."""
    add_deferred(parser, "--law", default="simplified", text=_law_help)
    parser.add_argument("--penalty", default=None,
                        help="penalty factor of the simplified law: eq33, refit or confined "
                             "(from <results>/penalty/fit.json, else the fit shipped with "
                             "hertz2d) or a constant w in [0, 1] (eq33)")
    parser.add_argument("--kn", type=float, default=None,
                        help="linear spring's normal stiffness of a disc pair, N/m per m (2.7e9)")
    parser.add_argument("--kt", type=float, default=None,
                        help="linear spring's tangential stiffness (1.5e9)")
    parser.add_argument("--R", type=float, default=0.035, help="disc radius, m (0.035)")
    parser.add_argument("--rho", type=float, default=2700.0, help="density, kg/m^3 (2700)")
    parser.add_argument("--E", type=float, default=10e9, help="Young's modulus, Pa (10e9)")
    parser.add_argument("--nu", type=float, default=0.25, help="Poisson's ratio (0.25)")
    parser.add_argument("--mu", type=float, default=0.3, help="friction coefficient (0.3)")
    parser.add_argument("--dt", type=float, default=1e-5, help="time step, s (1e-5)")


def law_from_args(args):
    """The engine's law from the flags (one line naming a bad value), and the fitted file its
    penalty factor came from (or None)."""
    dem = _engine()
    from hertz2d.calibration.fitted import PenaltyChoice, calibrated_coefficients
    from hertz2d.calibration.laws import registry
    from hertz2d.calibration.laws.linear import PAPER_KN, PAPER_KT

    one_of("law", args.law, dem_laws())
    if registry.entry(args.law).dem_code is None:
        raise InputError(f"law={args.law!r} runs in the DEM with its own compiled kernel and "
                         "parameters: build it with dem.Law.registered, not from flags")
    refuse_flags_of_other_laws(args, {option: registry.names(engine="dem", option=option)
                                      for option in ("penalty", "kn", "kt")})
    positive("R", args.R), positive("rho", args.rho), positive("dt", args.dt)
    if args.law == "linear":
        return dem.Law.linear(PAPER_KN if args.kn is None else args.kn,
                              PAPER_KT if args.kt is None else args.kt, args.mu), None
    positive("E", args.E), poisson("nu", args.nu)
    if args.law == "hertz-mindlin":
        return dem.Law.hertz_mindlin(args.E, args.nu, args.mu), None
    if args.law == "calibrated":  # the fitted file it reports is the coefficients'
        coefficients, fit = calibrated_coefficients(args.results)
        return dem.Law.calibrated(args.E, args.nu, args.mu, coefficients), fit
    penalty = PenaltyChoice.parse(args.penalty or "eq33", args.results)
    return dem.Law.simplified(args.E, args.nu, args.mu, penalty.factor), penalty.fit


def register_impact(subparsers, parents) -> None:
    parser = subparsers.add_parser(
        "impact", parents=parents, help="one disc against a wall or an equal disc",
        description="One disc (no gravity, no spin) against a rigid wall (--wall) or an equal "
                    "disc at rest, at --speed and --angle from the normal: contact time, normal "
                    "restitution, rebound angle, spin after contact and the energy balance's "
                    "relative error. JSON keys: law, contact_time, restitution, rebound_angle, "
                    "spin, energy_error, steps, seconds.")
    add_law_arguments(parser)
    parser.add_argument("--wall", action="store_true",
                        help="against a rigid wall (Section 3.2) instead of an equal disc")
    parser.add_argument("--speed", type=float, required=True, help="impact speed, m/s")
    parser.add_argument("--angle", type=float, default=0.0,
                        help="angle of the velocity from the contact normal, degrees (0)")
    parser.add_argument("--damping", type=float, default=0.0,
                        help="viscous contact damping ratio zeta in [0, 1) (0)")
    parser.add_argument("--local-damping", type=float, default=0.0,
                        help="PFC-style local damping coefficient alpha in [0, 1) (0)")
    parser.set_defaults(run=run_impact, command="dem impact")


def run_impact(args) -> dict:
    dem = _engine()
    from hertz2d.calibration.fitted import fit_keys
    from hertz2d.dem.impact import impact_summary

    law, fit = law_from_args(args)
    damping = dem.Damping(ratio=args.damping, local=args.local_damping)
    return {**impact_summary(law, speed=args.speed, angle=args.angle, wall=args.wall,
                             radius=args.R, density=args.rho, dt=args.dt, damping=damping),
            **fit_keys(fit)}


def register_biaxial(subparsers, parents) -> None:
    parser = subparsers.add_parser(
        "biaxial", parents=parents, help="the paper's biaxial test with every contact law",
        description="The biaxial compression test of Section 4.3 (200 discs of 0.06-0.08 m in a "
                    "1.0 x 1.5 m box; settling 5 s, isotropic servo to 0.1 GPa 1 s, shearing "
                    "at 0.1 m/s 2 s; local damping 0.7) for every law on several packings, or "
                    "for one law. Writes <results>/dem/biaxial/. JSON keys: laws, law_source, "
                    "peak_deviator, residual_deviator, volumetric_strain (per law: mean, std, "
                    "n), energy_balance_error, damping, seeds, steps, runs, reused, failures, "
                    "out, seconds.")
    parser.add_argument("--law", default=None,
                        help="all (the comparison, default), simplified (Table 1: "
                             "<results>/law/law.json if present, else the refit, else Eq. 33; "
                             "or --penalty), calibrated (<results>/calibrated/coefficients.json, "
                             "else the shipped coefficients), linear (the paper's kn, kt), "
                             "linear-fem (hertz2d's regressed kn, kt) or hertz-mindlin")
    parser.add_argument("--penalty", default=None,
                        help="penalty factor of --law simplified: eq33, refit, confined or a "
                             "constant w in [0, 1] (implies --law simplified)")
    parser.add_argument("--seeds", type=int, default=None,
                        help="packings per law (5; 2 with --quick)")
    parser.add_argument("--quick", action="store_true",
                        help="48 discs in a 0.5 x 0.75 m box, 0.6 s settling, 0.15 s "
                             "isotropic, 0.6 s shear: seconds per law")
    add_executor_arguments(parser)
    parser.set_defaults(run=run_biaxial, command="dem biaxial")


def run_biaxial(args) -> dict:
    _engine()
    from hertz2d.calibration.biaxial.stage import biaxial
    from hertz2d.calibration.fitted import PenaltyChoice

    penalty = (None if args.penalty is None
               else PenaltyChoice.parse(args.penalty, args.results))
    with executor_from(args) as executor:
        return biaxial(law=args.law, penalty=penalty, quick=args.quick, seeds=args.seeds,
                       executor=executor, results=args.results).as_json()


#: the sub-commands of ``hertz2d dem``
SUBCOMMANDS = (register_impact, register_biaxial)


def register(subparsers, parents) -> None:
    parser = subparsers.add_parser(
        "dem", help="the 2D discrete element engine (impact, biaxial)",
        description="Run the 2D DEM engine (discs, the law library's contact laws, rigid walls "
                    "by Section 3.2). Needs numba: pip install 'hertz2d[dem]'.")
    commands = parser.add_subparsers(dest="dem_command", required=True,
                                     parser_class=type(parser))
    for register_subcommand in SUBCOMMANDS:
        register_subcommand(commands, parents)
