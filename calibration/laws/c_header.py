"""``hertz2d_law.h``: the simplified law (Table 1) as a dependency-free C99 header for other codes.

The header is the template ``c99/hertz2d_law.h.in`` (readable C: the bracket weights of the two
bodies, Lambert's W (:mod:`calibration.laws.lambert_w`, the same arithmetic) and the exact normal
solve of :func:`calibration.laws.hertz2d.normal_force`, Eqs. 29 and 31, the capped trapezoidal
update of Eq. 32 and the wall rule of Section 3.2) rendered with a ``law.json`` object
(:func:`calibration.laws.law_file.law_description`): its form is baked in as
``HERTZ2D_PER_BODY`` (1: the weights ``2 s_i`` computed from each pair's E and nu; 0: the
composite form, weights 1), its six penalty coefficients as ``HERTZ2D_W_C0`` .. ``HERTZ2D_W_C5``,
its label, base support and fitted range go into the opening comment.
"""
from __future__ import annotations

from pathlib import Path
from string import Template


TEMPLATE = Path(__file__).with_name("c99") / "hertz2d_law.h.in"


def _c_double(value: float) -> str:
    """A C double literal that parses to exactly ``value`` (Python's repr is the shortest
    round-tripping decimal, and always has a '.' or an exponent)."""
    return repr(float(value))


def _comment_text(text: str) -> str:
    """``text`` safe inside a C block comment (one line, no comment delimiters)."""
    return " ".join(str(text).split()).replace("*/", "* /").replace("/*", "/ *")


def c_header(law: dict) -> str:
    """The C99 header of the law described by ``law`` (a checked ``law.json`` object)."""
    penalty, validity = law["penalty"], law["validity"]
    values = {f"c{i}": _c_double(c) for i, c in enumerate(penalty["coefficients"])}
    values.update(
        form=law["form"], per_body="1" if law["form"] == "per-body" else "0",
        version=_comment_text(law["hertz2d_version"]),
        date=_comment_text(law["provenance"].get("date", "date not recorded")),
        label=_comment_text(penalty["label"]),
        base_support=_comment_text(penalty["base_support"]),
        a_over_R_low=f"{validity['a_over_R'][0]:g}", a_over_R_high=f"{validity['a_over_R'][1]:g}",
        nu_low=f"{validity['nu'][0]:g}", nu_high=f"{validity['nu'][1]:g}")
    return Template(TEMPLATE.read_text()).substitute(values)
