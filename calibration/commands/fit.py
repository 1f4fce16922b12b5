"""``hertz2d fit``: refit Eq. 33 to the sweep's penalty factors and draw Figs. 7-9."""
from __future__ import annotations

from calibration.penalty import stage


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "fit", parents=parents, help="refit Eq. 33, compare with the paper, draw Figs. 7-9",
        description="Least-squares refit of Eq. 33's form for each base support, the paper's "
                    "coefficients judged on the same cases, the constant-w errors (Fig. 9) and "
                    "the mesh convergence of w; writes <results>/penalty/fit.json and PNG "
                    "figures.")
    parser.add_argument("--grid", default=None,
                        help="sweep table to fit (<results>/penalty/grid.csv)")
    parser.set_defaults(run=run)


def run(args) -> dict:
    summary = stage.fit(args.grid, args.results)
    keys = ("coefficients", "r2", "rmse", "paper", "rmse_vs_paper", "paper_r2", "default_support")
    return {**{k: summary[k] for k in keys},
            "w_range": [summary["by_support"][summary["default_support"]][k]
                        for k in ("w_min", "w_max")],
            "out": summary["out"]}
