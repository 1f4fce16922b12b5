"""``hertz2d map``: the validity map, every contact law against the FEM over a space of contacts."""
from __future__ import annotations

from hertz2d.calibration.commands.deferred import add_deferred
from hertz2d.calibration.commands.executorargs import add_executor_arguments, executor_from
from hertz2d.checks import count, positive


def _cpu_hours_help() -> str:
    from hertz2d.calibration.validation.map.spec import MAX_CPU_HOURS, MEASURED_LEVEL, SECONDS_PER_STEP
    return (f"refuse, before any work, a spec whose FEM paths are estimated to take more CPU "
            f"time than this ({MAX_CPU_HOURS:g}; the default map takes about 0.1): the estimate "
            f"counts the paths from the axes' lengths at {SECONDS_PER_STEP} CPU s a load step at "
            f"mesh level {MEASURED_LEVEL}, 4x per finer level")


def _loops_help() -> str:
    from hertz2d.calibration.validation.map.loops import LOOPS, QUICK_LOOPS
    return (f"random closed loops every law runs for the admissibility table "
            f"(map/admissibility.csv; 0 leaves it out; default {LOOPS}, {QUICK_LOOPS} with "
            f"--quick)")


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
    add_deferred(parser, "--loops", type=int, default=None, metavar="N", text=_loops_help)
    add_deferred(parser, "--max-cpu-hours", type=float, default=None, metavar="H",
                 text=_cpu_hours_help)
    add_executor_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> dict:
    if args.max_cpu_hours is not None:
        positive("max_cpu_hours", args.max_cpu_hours)
    if args.loops is not None:
        count("loops", args.loops, minimum=0, maximum=100_000)
    from hertz2d.calibration.validation.map.spec import MAX_CPU_HOURS
    from hertz2d.calibration.validation.map.stage import run_map

    hours = MAX_CPU_HOURS if args.max_cpu_hours is None else args.max_cpu_hours
    with executor_from(args) as executor:
        return run_map(args.spec, args.quick, executor, args.results,
                       max_cpu_hours=hours, loops=args.loops).as_json()
