"""``hertz2d validate``: every contact law against the two-disc FEM, error table and figures."""
from __future__ import annotations

from hertz2d.calibration.commands.executorargs import add_executor_arguments, executor_from


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "validate", parents=parents, help="every contact law against the two-disc FEM",
        description="Run (or reuse) the two-disc FEM for cases 1 and 2, both supports, two mesh "
                    "levels; run every contact law on the same load paths; write the error "
                    "table <results>/validation/errors.csv, the verification table and Figs. "
                    "11-15; then the law's domain (a disc on a wall and a dissimilar pair "
                    "against Eqs. 17 and 22, Dundurs' beta, Masing's rule, the energy per cycle "
                    "of every law with memory, normal unloading, case 2 over mu: "
                    "validation/domain_*.csv and figures). Needs <results>/penalty/fit.json "
                    "(hertz2d fit) for the refitted w.")
    parser.add_argument("--quick", action="store_true",
                        help="coarser meshes (levels 2, 3; the domain at 1, 2) and 25 "
                             "tangential steps")
    add_executor_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> dict:
    from hertz2d.calibration.validation.stage import validate

    with executor_from(args) as executor:
        return validate(args.quick, executor, args.results).as_json()
