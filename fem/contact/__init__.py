"""Frictional contact between two linear-elastic bodies, condensed onto their contact surfaces.

Modules, one job each:

:mod:`fem.contact.body`
    one body (P1, plane strain) attached to its flat, condensed onto its candidate contact nodes:
    compliance, reaction influence, full-field recovery (both supports).
:mod:`fem.contact.surface`
    the master surface in the current configuration: averaged nodal normals and the projection of
    slave nodes along the interpolated normal field (node-to-segment kinematics).
:mod:`fem.contact.coulomb`
    the discrete Signorini-Coulomb conditions of one frozen geometry (primal-dual active set).
:mod:`fem.contact.boxqp`
    the Tresca box problem of one frozen geometry, the fallback when the Coulomb sets cycle.
:mod:`fem.contact.frictional`
    node-to-segment Signorini-Coulomb contact: one load increment by a fixed point on the
    geometry, the friction history carried from increment to increment.
:mod:`fem.contact.measure`
    tractions, contact and stick half-widths, resultants in the contact frame.
"""
