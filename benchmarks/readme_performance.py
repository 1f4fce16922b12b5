"""The README's performance section, written from the benchmarks' files, never typed (run:
``python benchmarks/readme_performance.py`` to rewrite it after a benchmark ran, ``--check`` to
exit 1 if the README's section is not what the files give).

The section sits between two HTML comments of the README (:data:`START`, :data:`END`). Each row is
one figure of the project's speed targets, computed from the rows of one file of
``benchmarks/results/`` (``benchmarks/record.py``), with its target and its file beside it; the
floor (the best kernels one can write in C, ``kernel_floor.py``) sits beside the engine's
figures.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
README = ROOT / "README.md"
START = "<!-- performance: written by benchmarks/readme_performance.py from benchmarks/results -->"
END = "<!-- performance: end -->"

SPRING, TABLE_1, CALIBRATED = "linear, paper's kn kt", "simplified, Eq. 33 w", "calibrated"


def rows(name: str) -> tuple[dict, list[dict]]:
    """A benchmark file's provenance and rows."""
    data = json.loads((RESULTS / f"{name}.json").read_text())
    return data, data["rows"]


def spread(values: list[float]) -> str:
    """A range of ratios, two decimals (one value if they are equal)."""
    low, high = min(values), max(values)
    return f"{low:.2f}" if f"{low:.2f}" == f"{high:.2f}" else f"{low:.2f}-{high:.2f}"


def figures() -> list[tuple[str, str, str, str]]:
    """``(figure, measured, target, file)`` per row of the section."""
    table = []
    _, dem = rows("dem")
    by_law = {row["law"]: row for row in dem}
    _, same = rows("dem_same_geometry")
    on_one_packing = {row["law"]: row for row in same}

    def ratios(law: str, reference: str) -> str:
        row = on_one_packing[law]
        return f"{row[f'/ {reference} (fastest)']:.2f}; {row[f'/ {reference} (median)']:.2f}"

    table += [
        ("DEM: Table 1 (Eq. 33) / linear spring per step, both on one settled packing, local "
         "damping (fastest; medians)", ratios(TABLE_1, "spring"), "<= 1.3",
         "dem_same_geometry.json"),
        ("DEM: calibrated law / Table 1 per step, on the same packing (fastest; medians)",
         ratios(CALIBRATED, "Table 1"), "<= 1.5", "dem_same_geometry.json"),
        ("DEM: ns per contact update on each law's own bed, spring / Table 1 / calibrated",
         " / ".join(f"{by_law[law]['ns/update (fastest)']:.0f}"
                    for law in (SPRING, TABLE_1, CALIBRATED)), "", "dem.json")]
    _, floor = rows("kernel_floor")
    kernels = {row["kernel"]: row["ns_fastest"] for row in floor}
    table.append(("Floor (best C kernel): ns per contact step, spring / Table 1 / calibrated",
                  f"{kernels['spring']:.2g} / {kernels['Table 1, split']:.2g} / "
                  f"{kernels['calibrated, floor']:.3g}", "", "kernel_floor.json"))
    table.append(("Floor bound: the calibrated law's floor kernel alone / Table 1's whole contact "
                  "update in the DEM (above 1.5, the calibrated target is below the law's floor)",
                  f"{kernels['calibrated, floor'] / by_law[TABLE_1]['ns/update (fastest)']:.2f}",
                  "", "kernel_floor.json, dem.json"))
    _, versus = rows("dem_vs_lammps")
    table += [
        ("DEM with dashpots: Table 1 / spring, per phase",
         spread([row["/ hertz2d linear"] for row in versus
                 if row["engine"] == "hertz2d Table 1"]), "<= 1.5", "dem_vs_lammps.json"),
        ("DEM: spring / LAMMPS gran/hooke/history, per phase",
         spread([row["/ LAMMPS gran/hooke/history"] for row in versus
                 if row["engine"] == "hertz2d linear"]), "<= 0.7", "dem_vs_lammps.json")]
    _, sweep = rows("dem_size_sweep")
    for law in ("linear", "Table 1"):
        ratios = []
        for order in ("strips", "none"):
            cost = {row["discs"]: row["ns/(disc step)"] for row in sweep
                    if row["engine"] == f"hertz2d {law}, {order}"}
            if 20_000 in cost and 100_000 in cost:
                ratios.append(f"{cost[100_000] / cost[20_000]:.2f} ({order})")
        if ratios:
            table.append((f"Size: ns per disc-step at 1e5 / at 2e4 discs, {law} (discs sorted by "
                          "strips, as the engine does, or not)", ", ".join(ratios), "<= 1.3",
                          "dem_size_sweep.json"))
    _, plugin = rows("lammps_plugin")
    styles = {row["style"]: row for row in plugin}
    for style, target in (("hertz2d simplified", "<= 1.7"), ("hertz2d calibrated", "<= 2.5")):
        table.append((f"LAMMPS plugin: {style.split()[1]} law / gran/hertz/history per step",
                      f"{styles[style]['/ gran/hertz/history']:.2f}", target,
                      "lammps_plugin.json"))
    reference = styles["gran/hertz/history"]
    contacts = reference["contacts"] + reference["wall contacts"]
    bound = (1e-3 * kernels["calibrated, floor"] * contacts + reference["rest us/step"]) / \
        reference["us/step (median)"]
    table.append(("Floor bound: the calibrated law's floor kernel on the bed's contacts plus "
                  "gran/hertz/history's step outside its pair style / gran/hertz/history per "
                  "step (above 2.5, the plugin's calibrated target is below the law's floor)",
                  f"{bound:.2f}", "", "kernel_floor.json, lammps_plugin.json"))
    return table


def section() -> str:
    """The section's Markdown, markers included."""
    dates = sorted({rows(name)[0]["date"][:10] for name in
                    ("dem", "kernel_floor", "dem_vs_lammps", "dem_size_sweep", "lammps_plugin")})
    lines = [START, "## Performance", "",
             "CPU time on one core of the machine the benchmarks last ran on (runs of "
             f"{', '.join(dates)}; each file in `benchmarks/results/` names its command, machine "
             "and load average), beside the project's targets; "
             "[the performance page](docs/performance.md) has every table.", "",
             "| figure | measured | target | file |", "|---|---|---|---|"]
    lines += [f"| {figure} | {measured} | {target} | `{file}` |"
              for figure, measured, target, file in figures()]
    return "\n".join([*lines, END])


def rewritten(readme: str) -> str:
    """The README with its section replaced (or put before ``## Documentation`` if absent)."""
    if START in readme and END in readme:
        head, rest = readme.split(START, 1)
        return head + section() + rest.split(END, 1)[1]
    head, tail = readme.split("## Documentation", 1)
    return head + section() + "\n\n## Documentation" + tail


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the README's section differs from the files'")
    args = parser.parse_args()
    text = README.read_text()
    new = rewritten(text)
    if args.check:
        if new != text:
            print("README.md's performance section is not what benchmarks/results gives: run "
                  "python benchmarks/readme_performance.py")
            sys.exit(1)
        return
    README.write_text(new)


if __name__ == "__main__":
    main()
