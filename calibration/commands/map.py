"""``hertz2d map``: the validity map, every contact law against the FEM over a space of contacts."""
from __future__ import annotations

from calibration.commands.executorargs import add_executor_arguments, executor_from
from calibration.validation.map.spec import MAX_CPU_HOURS, MEASURED_LEVEL, SECONDS_PER_STEP
from calibration.validation.map.stage import run_map
from checks import positive


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "map", parents=parents, help="every contact law against the FEM over a space of contacts",
        description="Run (or reuse) the two-body FEM on every case of a TOML spec (disc or wall, "
                    "R2/R1, E2/E1, each body's nu, mu, contact size a/R, load path), run every "
                    "contact law on the same paths, and write the tidy error table "
                    "<results>/map/errors.csv, cases.csv, summary.json (where each law's force "
                    "error stays under 5 % and 10 %) and heatmaps. A failed FEM path is "
                    "recorded with its reason and the map goes on; a rerun computes only what is "
                    "missing. Needs <results>/penalty/fit.json (hertz2d fit).")
    parser.add_argument("--spec", default=None,
                        help="TOML spec (default: the shipped "
                             "calibration/validation/map/specs/default.toml)")
    parser.add_argument("--quick", action="store_true",
                        help="the shipped quick spec: a few cases on coarse meshes")
    parser.add_argument("--max-cpu-hours", type=float, default=MAX_CPU_HOURS, metavar="H",
                        help="refuse, before any work, a spec whose FEM paths are estimated "
                             f"to take more CPU time than this ({MAX_CPU_HOURS:g}; the default "
                             f"map takes about 0.1): the estimate counts the paths from the "
                             f"axes' lengths at {SECONDS_PER_STEP} CPU s a load step at mesh "
                             f"level {MEASURED_LEVEL}, 4x per finer level")
    add_executor_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> dict:
    with executor_from(args) as executor:
        return run_map(args.spec, args.quick, executor, args.results,
                       max_cpu_hours=positive("max_cpu_hours", args.max_cpu_hours))
