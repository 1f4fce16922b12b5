"""``hertz2d sweep``: the paper's parametric studies and the a/R x nu grid of half-round cases."""
from __future__ import annotations

from hertz2d.calibration.commands.executorargs import add_executor_arguments, executor_from


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "sweep", parents=parents, help="parametric studies + the a/R x nu grid (Figs. 7, 8)",
        description="Run every half-round case of a TOML spec for both base supports, in "
                    "parallel, reusing cases finished by earlier runs; write the tidy table "
                    "<results>/penalty/grid.csv.")
    parser.add_argument("--spec", default=None,
                        help="TOML spec (default: the shipped calibration/penalty/specs/default.toml)")
    parser.add_argument("--quick", action="store_true",
                        help="the shipped quick spec: coarser grid and mesh")
    add_executor_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> dict:
    from hertz2d.calibration.penalty import stage

    with executor_from(args) as executor:
        return stage.sweep(args.spec, args.quick, executor, args.results).as_json()
