"""Frictional contact between two linear-elastic bodies (or one and a rigid wall), condensed onto
their contact surfaces.

Modules, one job each:

:mod:`hertz2d.fem.contact.body`
    one body (P1, plane strain, its own E and nu) attached to its flat, condensed onto its
    candidate contact nodes: compliance, reaction influence, full-field recovery (both supports);
    or a rigid flat wall, a master surface with no compliance.
:mod:`hertz2d.fem.contact.surface`
    the master surface in the current configuration: averaged nodal normals and the projection of
    slave nodes along the interpolated normal field (node-to-segment kinematics).
:mod:`hertz2d.fem.contact.coulomb`
    the discrete Signorini-Coulomb conditions of one frozen geometry (primal-dual active set).
:mod:`hertz2d.fem.contact.boxqp`
    the Tresca box problem of one frozen geometry, the fallback when the Coulomb sets cycle.
:mod:`hertz2d.fem.contact.frictional`
    node-to-segment Signorini-Coulomb contact: one load increment by a fixed point on the
    geometry, the friction history carried from increment to increment.
:mod:`hertz2d.fem.contact.measure`
    tractions, contact and stick half-widths, resultants in the contact frame.

Design notes (what was measured while the solver was built, and why it is built this way)

1. *Condensation is exact and cheap.* The bulk is linear, so each body's response on its
   candidate contact nodes is a dense compliance built once from one sparse factorisation; a load
   step is then a small nonlinear problem on a few hundred nodes (milliseconds).
2. *Sparse LU ordering matters.* SuperLU with its default column ordering was ~50x slower on a
   60k-DOF elasticity matrix than with the symmetric minimum-degree ordering
   (``permc_spec="MMD_AT_PLUS_A"``), which :mod:`hertz2d.fem.contact.body` uses.
3. *Threads can hurt.* Multithreaded BLAS made the many small dense solves of a step up to ~100x
   slower on 2 cores; the contact iteration runs with one BLAS thread (threadpoolctl, the pools
   found once: finding them costs more than a load step, :mod:`hertz2d.fem.threads`).
4. *Measure in the reference configuration.* In the current configuration the tangential surface
   displacement pulls the contact edge inward by a few per cent of a, while Hertz theory's x is
   the undeformed coordinate; :mod:`hertz2d.fem.contact.measure` reads half-widths on the reference
   surface.
5. *Normals.* Node-to-segment with raw segment normals made a slave node's projection oscillate
   between neighbouring segments; averaged nodal normals interpolated along each segment are
   stable (:mod:`hertz2d.fem.contact.surface`).
6. *Friction is the hard part.* A plain primal-dual active set on the full Coulomb problem can
   cycle between stick and slip sets and jump to a wrong state; here it uses a damped set
   prediction (:data:`hertz2d.fem.contact.coulomb.COMPLEMENTARITY`), and a cycling frozen problem falls
   back to one Tresca step with the slip bound lagged, which always terminates.
7. *Supports change the answer.* A clamped flat is stiffer than the mirror (roller) plane of a
   full disc; both are implemented (:mod:`hertz2d.fem.supports`) and compared with Eq. 23.
8. *Load path.* With delta_t raised together with delta_n, the ratio of tangential to normal
   stiffness decides at once whether the contact can stick (compared with mu).

Every two-disc test of the partial-slip stage checks Cattaneo-Mindlin (Eqs. 2, 3, 7).
"""
