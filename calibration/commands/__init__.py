"""Sub-commands of ``hertz2d``: one module each, with ``register(subparsers, parents)`` and
``run(args) -> dict``, listed in :data:`COMMANDS` in pipeline order (the order of ``--help``)."""
from hertz2d.calibration.commands import (all_stages, calibrate, dem, export_law, fit, halfround, model,
                                  report, sweep, twodisc, validate)
from hertz2d.calibration.commands import map as validity_map

#: the sub-command modules, in pipeline order
COMMANDS = (halfround, sweep, fit, twodisc, model, export_law, validate, calibrate, validity_map,
            report, all_stages, dem)
