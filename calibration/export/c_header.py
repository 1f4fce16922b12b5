"""``hertz2d_law.h``: an exported law as a dependency-free C99 header for other codes.

Each law's header is a template in ``c99/`` (readable C) rendered with its ``law.json`` object;
the part every law shares, the pair of two bodies, their bracket weights, Lambert's W_{-1}
(:mod:`hertz2d.calibration.laws.lambert_w`, the same arithmetic), the table of its inverse
(:mod:`hertz2d.calibration.laws.normal_table`, the same doubles), the normal law (the exact solve of
:func:`hertz2d.calibration.laws.hertz2d.normal_force`, Eq. 29's kn, dN/d(delta_n)) and a wall's mirror
image, is one template of its own (``c99/normal_law.h.in``) that :func:`render` puts where the
law's template says ``${normal_law}``, so the two headers share one source; so is the step of
many contacts at once (``c99/contacts_batch.h.in``: their normal solves in one loop, then the
rest of each step), put where it says ``${contacts_batch}``.

- The simplified law (Table 1, ``c99/hertz2d_law.h.in``, :func:`c_header`: Eqs. 29 and 31, the
  capped trapezoidal update of Eq. 32, the wall rule of Section 3.2): its form is baked in as
  ``HERTZ2D_PER_BODY`` (1: the weights ``2 s_i`` computed from each pair's E and nu; 0: the
  composite form, weights 1), its six penalty coefficients as ``HERTZ2D_W_C0`` ..
  ``HERTZ2D_W_C5``, its label, base support and fitted range go into the opening comment.
- The calibrated law (``c99/calibrated_law.h.in``, :func:`calibrated_header`): the per-body
  form, the fitted coefficients (``law["coefficients"]["values"]``, group ``penalty`` entry 0 as
  ``HERTZ2D_PENALTY_0`` and so on), the curve of
  :func:`hertz2d.calibration.laws.calibrated.curve_constants`, the pair's kappa
  (:func:`hertz2d.calibration.laws.calibrated.kappa_ceiling`), the slip-front kernel of :mod:`hertz2d.calibration.laws.calibrated_kernel` (its far fronts through the
  shared W_{-1}), the stored energy and the normal coupling term, with the kernel's constants
  (``law["constants"]``).
"""
from __future__ import annotations

from pathlib import Path
from string import Template

from hertz2d.calibration.laws import normal_table, scalar

FOLDER = Path(__file__).with_name("c99")
TEMPLATE = FOLDER / "hertz2d_law.h.in"
CALIBRATED_TEMPLATE = FOLDER / "calibrated_law.h.in"
NORMAL_LAW = FOLDER / "normal_law.h.in"
CONTACTS_BATCH = FOLDER / "contacts_batch.h.in"


def _c_double(value: float) -> str:
    """A C double literal that parses to exactly ``value`` (Python's repr is the shortest
    round-tripping decimal, and always has a '.' or an exponent)."""
    return repr(float(value))


def _comment_text(text: str) -> str:
    """``text`` safe inside a C block comment (one line, no comment delimiters)."""
    return " ".join(str(text).split()).replace("*/", "* /").replace("/*", "/ *")


def _table_values() -> dict:
    """The normal law's table (:mod:`hertz2d.calibration.laws.normal_table`) for ``c99/normal_law.h.in``."""
    rows = ",\n".join("    {" + ", ".join(_c_double(c) for c in row) + "}"
                       for row in normal_table.TABLE)
    return {"normal_table": rows, "table_rows": str(normal_table.TABLE.shape[0]),
            "table_parts": str(normal_table.PARTS),
            "table_exponent": str(normal_table.EXPONENTS[0]),
            "table_low": _c_double(normal_table.Z_LOW), "table_high": _c_double(normal_table.Z_HIGH),
            "t_scale": _c_double(normal_table.T_SCALE),
            "table_bound": f"{normal_table.proven_bound():.2g}"}


def render(template: Path, values: dict) -> str:
    """``template`` with ``values``, the shared normal law (with its table) in place of
    ``${normal_law}`` and the shared step of many contacts in place of ``${contacts_batch}``."""
    normal_law = Template(NORMAL_LAW.read_text()).substitute(values, **_table_values())
    return Template(template.read_text()).substitute(values, normal_law=normal_law,
                                                     contacts_batch=CONTACTS_BATCH.read_text())


def _provenance(law: dict) -> dict:
    return {"version": _comment_text(law["hertz2d_version"]),
            "date": _comment_text(law["provenance"].get("date", "date not recorded"))}


def c_header(law: dict) -> str:
    """The C99 header of the simplified law described by ``law`` (a checked ``law.json``
    object)."""
    penalty, validity = law["penalty"], law["validity"]
    values = {f"c{i}": _c_double(c) for i, c in enumerate(penalty["coefficients"])}
    values.update(
        _provenance(law), form=law["form"], per_body="1" if law["form"] == "per-body" else "0",
        label=_comment_text(penalty["label"]),
        entry_fractions=", ".join(_c_double(v) for v in scalar.ENTRY_FRACTIONS),
        entry_weights=", ".join(_c_double(v) for v in scalar.LAGUERRE_WEIGHTS),
        base_support=_comment_text(penalty["base_support"]),
        a_over_R_low=f"{validity['a_over_R'][0]:g}", a_over_R_high=f"{validity['a_over_R'][1]:g}",
        nu_low=f"{validity['nu'][0]:g}", nu_high=f"{validity['nu'][1]:g}")
    return render(TEMPLATE, values)


def _coefficient_lines(values: dict) -> str:
    return "\n".join(f"#define HERTZ2D_{group.upper()}_{i} {_c_double(value)}"
                     for group, numbers in values.items() for i, value in enumerate(numbers))


def _ranges_text(ranges: dict | None) -> str:
    if not ranges:
        return "(the coefficients file records no training ranges)"
    return _comment_text(", ".join(f"{name} [{low:g}, {high:g}]"
                                   for name, (low, high) in ranges.items()))


def calibrated_header(law: dict) -> str:
    """The C99 header of the calibrated law described by ``law`` (a checked calibrated
    ``law.json`` object)."""
    coefficients, constants = law["coefficients"], law["constants"]
    return render(CALIBRATED_TEMPLATE, {
        **_provenance(law), "coefficients": _coefficient_lines(coefficients["values"]),
        "label": _comment_text(coefficients["label"]),
        "source": _comment_text(coefficients["source"]),
        "ranges": _ranges_text(law["validity"]["ranges"]),
        "pieces": str(int(constants["PIECES"])),
        "kappa_floor": _c_double(constants["KAPPA_FLOOR"]),
        "ceiling_low": _c_double(constants["CEILING_A_OVER_R"][0]),
        "ceiling_high": _c_double(constants["CEILING_A_OVER_R"][1]),
        "ceiling_samples": str(int(constants["CEILING_A_OVER_R"][2])),
        "ceiling_margin": _c_double(constants["CEILING_MARGIN"])})
