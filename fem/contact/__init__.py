"""Frictional contact between two linear-elastic bodies, condensed onto their contact surfaces.

Modules, one job each:

:mod:`fem.contact.body`
    one body (P1, plane strain) attached to its flat, condensed onto its candidate contact nodes:
    compliance, reaction influence, full-field recovery (both supports).
:mod:`fem.contact.surface`
    the master surface in the current configuration: averaged nodal normals and the projection of
    slave nodes along the interpolated normal field (node-to-segment kinematics).
:mod:`fem.contact.boxqp`
    the convex box-constrained quadratic programme of one frozen contact problem.
:mod:`fem.contact.frictional`
    Signorini-Coulomb node-to-segment contact: one load increment by a fixed point on geometry
    and slip bound, the friction history carried from increment to increment.
:mod:`fem.contact.measure`
    tractions, contact and stick half-widths, resultants in the contact frame.
"""
