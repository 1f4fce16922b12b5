"""``hertz2d calibrate``: the calibrated law fitted on the two-body FEM, judged on held-out
contacts."""
from __future__ import annotations

from hertz2d.calibration.commands.executorargs import add_executor_arguments, executor_from


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "calibrate", parents=parents,
        help="fit the calibrated law on the two-body FEM and judge it on held-out contacts",
        description="Run (or reuse) the two-body FEM on the training spec (the map's "
                    "default.toml, symmetric flats), fit the calibrated law's coefficients by "
                    "least squares on the FEM's force-displacement paths and energies per "
                    "cycle, write <results>/calibrated/coefficients.json, then run every law on "
                    "the held-out contacts (heldout.toml: a Latin hypercube never used for "
                    "fitting) into <results>/calibrated/heldout/ and the targets per law into "
                    "<results>/calibrated/targets.csv and summary.json.")
    parser.add_argument("--spec", default=None,
                        help="training spec (TOML, the map's format; default: the shipped "
                             "default.toml)")
    parser.add_argument("--heldout", default=None,
                        help="held-out spec (TOML; default: the shipped heldout.toml)")
    parser.add_argument("--quick", action="store_true",
                        help="the quick training and held-out specs, and a refit of w only, "
                             "from the coefficients shipped with hertz2d: shows the stage runs")
    add_executor_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> dict:
    from hertz2d.calibration.calibrate.stage import calibrate

    with executor_from(args) as executor:
        return calibrate(args.spec, args.heldout, args.quick, executor, args.results).as_json()
