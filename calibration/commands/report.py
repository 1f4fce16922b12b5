"""``hertz2d report``: figures and tables of a results root into ``report.html`` and ``report.md``."""
from __future__ import annotations



def register(subparsers, parents):
    parser = subparsers.add_parser(
        "report", parents=parents, help="write <results>/report.html and <results>/report.md",
        description="Build the comparison report (paper vs hertz2d, verification, every figure "
                    "with its caption, provenance) from the files under the results root.")
    parser.add_argument("--screenshot", default=None, metavar="PNG",
                        help="also render the HTML in headless Chromium into this PNG")
    parser.set_defaults(run=run)


def run(args) -> dict:
    from hertz2d.calibration.report import build_report
    from hertz2d.calibration.report.screenshot import screenshot
    from hertz2d.calibration.runs.atomic import check_writable

    if args.screenshot:
        check_writable("screenshot", args.screenshot)
    summary = build_report(args.results).as_json()
    if args.screenshot:
        summary["screenshot"] = str(screenshot(summary["out"], args.screenshot))
    return summary
