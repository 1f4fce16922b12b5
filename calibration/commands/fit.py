"""``hertz2d fit``: refit Eq. 33 to the sweep's penalty factors and draw Figs. 7-9."""
from __future__ import annotations



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
    from hertz2d.calibration.penalty import stage

    fit = stage.fit(args.grid, args.results)
    default = fit.by_support[fit.default_support]
    keys = ("coefficients", "r2", "rmse", "paper", "rmse_vs_paper", "paper_r2")
    return {**{k: default[k] for k in keys}, "default_support": fit.default_support,
            "w_range": [default["w_min"], default["w_max"]], "out": str(fit.path)}
