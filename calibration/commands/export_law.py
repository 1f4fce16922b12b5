"""``hertz2d export-law``: the simplified law (Table 1) with a penalty factor, for other DEM codes.

The law in the law library's form ``--form`` (per-body, the default, or composite: how two bodies
of different materials combine, :mod:`calibration.laws.pair`), written into ``--out DIR``
(default ``<results>/law``): ``law.json``
(:mod:`calibration.laws.law_file`), the C99 header ``hertz2d_law.h`` with the penalty
coefficients baked in (:mod:`calibration.laws.c_header`) and ``test_vectors.csv``, the Python
law's outputs on a spread of contacts (:mod:`calibration.laws.reference_vectors`) that the header
(or any other port) must reproduce.
"""
from __future__ import annotations

import json
from pathlib import Path

from calibration.fitted import fit_keys, penalty_from_flag
from calibration.laws.c_header import c_header
from calibration.laws.law_file import EQ33_SUPPORT, law_description
from calibration.laws.pair import FORMS
from calibration.laws.penalty_factor import EQ33, ConstantPenalty
from calibration.laws.reference_vectors import FLOAT_FORMAT, reference_vectors
from calibration.runs.atomic import (atomic_path, check_writable, write_json, write_text,
                                     writes_together)
from checks import one_of

LAW_FILE, HEADER_FILE, VECTORS_FILE = "law.json", "hertz2d_law.h", "test_vectors.csv"


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "export-law", parents=parents,
        help="the simplified law for other DEM codes: law.json, a C99 header, test vectors",
        description="Export the paper's simplified model (Table 1) with a penalty factor: "
                    "law.json (formulas, coefficients, units, validity ranges, provenance), a "
                    "dependency-free C99 header hertz2d_law.h and test_vectors.csv made by the "
                    "Python law.")
    parser.add_argument("--penalty", default="eq33",
                        help="penalty factor: eq33, refit or confined (from "
                             "<results>/penalty/fit.json, else the fit shipped with hertz2d) or "
                             "a constant w in [0, 1] (eq33)")
    parser.add_argument("--form", default="per-body",
                        help="how a dissimilar pair's compliances combine: per-body (Eq. 22 and "
                             "its tangential analogue, each body on its own support, the law "
                             "library's default) or composite (Table 1 as printed, E* of Eqs. "
                             "23-31); the same law for one material and for walls (per-body)")
    parser.add_argument("--out", metavar="DIR", help="folder to write into (<results>/law)")
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


@writes_together
def run(args) -> dict:
    form = one_of("form", args.form, FORMS)
    penalty, fitted = penalty_from_flag(args.penalty, args.results)
    out = check_writable("out", Path(args.results) / "law" if args.out is None else args.out,
                         directory=True)
    support, source = _base_support_and_source(args.penalty, penalty, fitted)
    law = law_description(penalty, support, source, form)
    header, vectors = c_header(law), reference_vectors(penalty, form=form)
    write_json(law, out / LAW_FILE)
    write_text(header, out / HEADER_FILE)
    with atomic_path(out / VECTORS_FILE) as tmp:
        vectors.to_csv(tmp, index=False, float_format=FLOAT_FORMAT)
    return {"out": str(out), "files": [LAW_FILE, HEADER_FILE, VECTORS_FILE],
            "penalty": penalty.label, "coefficients": law["penalty"]["coefficients"],
            "form": form, **fit_keys(fitted)}
