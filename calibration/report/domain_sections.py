"""The report's section on the law's domain (``<results>/validation/domain_*.csv``).

The numbers are the validation stage's findings
(:func:`hertz2d.calibration.validation.domain_findings.domain_findings`, computed from those tables and
tested there), the prose is the template
``templates/domain.md.j2``: this module only lays out the paragraphs, tables and figures.
"""
from __future__ import annotations

import numpy as np

from hertz2d.calibration.laws.linear import PAPER_KT
from hertz2d.calibration.report.document import Section
from hertz2d.calibration.report.render import section_text
from hertz2d.calibration.report.validation_sections import sticking_case2
from hertz2d.calibration.validation.domain_findings import domain_findings
from hertz2d.calibration.validation.outputs import ValidationOutputs

#: the paragraphs' template (one macro each)
TEXT = section_text("domain.md.j2")


def domain_section(v: ValidationOutputs) -> Section | None:
    """The law's domain: wall, dissimilar pair, beta, stick zone, Masing, energy, normal
    unloading, case 2 over mu; ``None`` for a results root made before the domain tables."""
    d = v.domain
    if not d.complete:
        return None
    f = domain_findings(d.tables, d.level)
    section = Section("The law's domain: a wall, dissimilar discs, cycles, friction", "domain")
    section.paragraph(TEXT.intro(f))
    section.table(d["normal"].round(5), "Frictionless normal loading with symmetric flats: N "
                  "against Eq. 17 (wall) or Eq. 22 at the prescribed approach, per mesh level, "
                  "and its change from the coarser level.")
    section.paragraph(TEXT.normal(f))
    section.figure(d.figure("normal"), "N over its closed form per mesh level (the disc on a "
                   "wall is the equal pair's half, as Eq. 17 is Eq. 22's: their points "
                   "coincide).")
    section.table(d["stick"].round(4), "The stick zone during case 1's tangential stage "
                  "(hold-normal, symmetric flats) at T/(mu N) = 0.25, 0.5, 0.75, per mesh level: "
                  "c against Eq. 7 (with the contact-frame T), the half-plane model for "
                  "beta != 0, and the horizontal force over the contact-frame force, Fx / T.")
    section.paragraph(TEXT.stick(f))
    section.table(d["beta_trend"].round(4), "The wall's stick zone after normal loading at "
                  "decreasing a/R, extrapolated to a/R = 0, against the half-plane model.")
    section.table(d["beta"].round(4), "Dundurs' beta and the shear it causes during normal "
                  f"loading with mu = {f.mu:g} (end of the normal stage), against the coupled "
                  "half-plane model and the 2D analogue of Goodman's approximation (Goodman, "
                  "1962, treats spheres).")
    section.figure(d.figure("beta"),
                   f"Shear traction after normal loading (mu = {f.mu:g}): zero for equal discs "
                   "up to the spurious shear of nodes that enter the contact within a step; a stick "
                   "zone and slip annuli for the wall and the dissimilar pair.")
    section.table(d["masing"].round(6), "The FEM's unloading and reloading branches against "
                  "Masing's rule built from its own virgin branch (equal discs, default "
                  "support), largest distance over the peak force.")
    section.paragraph(TEXT.masing(f))
    section.figure(d.figure("masing"),
                   "Cycles at three amplitudes: FEM, Masing's rule on the FEM's virgin curve, "
                   "the accurate model with memory and the simplified-hysteretic law (Eq. 33).")
    e = d["energy_laws"]
    fem_fractions = e[e.model == "FEM (Fx)"]["A / full slip"].to_numpy()
    pivot = e[e.basis == "FEM's amplitude"].assign(
        A=lambda t: np.round(t["A (m)"] * 1e3, 3)).pivot_table(
        index="model", columns="A", values="W (J/m)", sort=False)
    pivot.columns = [f"A = {a:g} mm ({f:g})" for a, f in zip(pivot.columns, fem_fractions)]
    section.table(pivot.round(1).reset_index(),
                  "Energy dissipated per cycle (J/m) at the FEM's amplitudes (in brackets: the "
                  "fraction of the FEM's full-slip displacement). FEM (Fx): the loop of the "
                  "horizontal force, the dissipated energy; FEM (T): the loop of the "
                  "contact-frame force. Laws with Fx = T. Table 1 and the Hertz-Mindlin spring "
                  "dissipate nothing below their full slip.")
    own = e[e.basis == "fraction of its own full slip"].pivot_table(
        index="model", columns="A / full slip", values="W (J/m)", sort=False)
    own.columns = [f"A = {fraction:g} of own full slip" for fraction in own.columns]
    section.table(own.round(1).reset_index(), "The same at equal fractions of each model's own "
                  "full-slip displacement (domain_energy_laws.csv has both, and each one's "
                  "full-slip displacement).")
    section.paragraph(TEXT.energy(f.energy))
    section.table(d["energy_sensitivity"].round(5), "The smallest amplitude's energy per cycle "
                  "with more normal steps and per mesh level, and the spurious shear after "
                  "normal loading.")
    section.figure(d.figure("energy"),
                   "Energy per cycle against amplitude (log-log; grey: slope 3), (a) at the "
                   "FEM's amplitudes, (b) at fractions of each model's own full slip.")
    section.table(d["wall_slide"], "Appendix C's finite slide (to 4 times Eq. 27's full slip) on "
                  "a wall and on two discs, and the FEM's disc on a wall in full slip per mesh "
                  "level: Fx and T against mu N, N during the slide.")
    section.paragraph(TEXT.wall_slide(f))
    if f.forms is not None:
        section.table(d["forms"].round(4), f"The dissimilar pair (beta = "
                      f"{f.dissimilar_beta:.2f}) on case 1 with symmetric flats: Table 1 and the "
                      "accurate model (Eq. 33's w) in the per-body form (Eq. 22 and its "
                      "tangential analogue, the default) and the composite form (Eqs. 23-31 as "
                      "printed), against the FEM per mesh level.")
        section.paragraph(TEXT.forms(f.forms))
    section.paragraph(TEXT.unload(f))
    section.figure(d.figure("unload_normal"), "Normal unloading at fixed delta_t.")
    section.table(d["case2_mu"].round(4), "Case 2 (delta_n and delta_t raised together) over the "
                  "friction coefficient, on both supports of the flats: steps in full slip and "
                  "with any slipping node, and the linear spring regressed on it (Fx on delta_t, "
                  "Fz on delta_n).")
    section.paragraph(TEXT.case2(f, PAPER_KT, sticking_case2(d["case2_mu"])))
    section.figure(d.figure("case2_mu"),
                   "Case 2 over mu: its regime and the regressed kt against the paper's.")
    section.paragraph(TEXT.timing(f))
    return section
