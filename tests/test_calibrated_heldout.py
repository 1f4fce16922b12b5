"""The shipped calibrated law against two-body FEM paths it was not fitted on.

The held-out spec (``heldout.toml``) draws its contacts at random (a seeded Latin hypercube over
the training ranges); no fit ever reads them. Here the FEM runs those contacts again, at the
spec's own mesh level, and the shipped coefficients are judged on them with the map's metric:

- by default the held-out contacts with Dundurs' |beta| <= 0.1 (one material is |beta| = 0):
  there the law's force is within 5 % and its tangential stiffness within 10 % (on partial-slip
  steps) on every path, and its energy per cycle within 10 % on at least 90 % of the cycles (the
  calibration's energy target, which counts cycles, not paths);
- ``slow``: every held-out contact, and the domain statements the calibrate stage makes for
  |beta| <= 0.2 (force under 10 % on every path, under 5 % on at least 90 %).

Both on the spec's first sample (``[samples.heldout]``, the kinds of the training paths): the
samples that widen it (random walks, sliding reversals, stiff and wall contacts, stick cycles at
a finer mesh) are judged by ``hertz2d calibrate``, whose tables say where the law meets its
targets and where not.
"""
import numpy as np
import pandas as pd
import pytest

from calibration.laws.calibrated import (SHIPPED_COEFFICIENTS, CalibratedCoefficients,
                                         coupling_beta)
from calibration.validation.comparison import with_stiffness
from calibration.validation.map.errors import ENERGY, LawChoice, case_errors
from calibration.runs.store import CaseStore
from calibration.validation.map.runs import run_paths, solver_namespace
from calibration.validation.map.spec import read

pytest.importorskip("numba")  # the calibrated law's kernel runs compiled in the map's laws

#: the targets of the calibration (relative errors), and the share of cycles the energy's must hold on
FORCE, STIFFNESS, ENERGY_LIMIT, ENERGY_SHARE = 0.05, 0.10, 0.10, 0.90


def heldout_errors(largest_beta: float, folder) -> pd.DataFrame:
    """Per held-out path with |beta| <= ``largest_beta``: the shipped law's force error (the
    larger of N and Fx), tangential-stiffness error and energy-per-cycle error, the FEM run
    afresh (a new case store in ``folder``)."""
    spec = read(shipped="heldout.toml")
    runs = [run for run in spec.default_runs if "heldout" in spec.case_studies[run.case]
            and float(coupling_beta(run.case.pair())) <= largest_beta]
    assert runs, f"the held-out sample has no contact with |beta| <= {largest_beta}"
    paths = {run: run.fem_path() for run in runs}
    fem = run_paths(list(paths.values()), store=CaseStore(solver_namespace(), folder / "cases.sqlite"),
                   progress=False)
    law = LawChoice("calibrated", coefficients=CalibratedCoefficients.from_file(
        SHIPPED_COEFFICIENTS))
    rows = []
    for run, path in paths.items():
        assert fem[path]["failure"] is None, fem[path]["failure"]
        found = case_errors(with_stiffness(pd.DataFrame(fem[path]["table"])),
                            with_stiffness(law.build(run.case).run(path.path())))
        rows.append({"path": run.case.path, "beta": float(coupling_beta(run.case.pair())),
                     "force": max(found["normal force"]["max_rel_error"],
                                  found["tangential force"]["max_rel_error"]),
                     "stiffness": found.get("tangential stiffness", {}).get("max_rel_error"),
                     "energy": abs(found[ENERGY]["max_rel_error"]) if ENERGY in found
                     else None})
    return pd.DataFrame(rows)


def test_where_the_coupling_is_weak_every_heldout_path_meets_the_targets(tmp_path):
    errors = heldout_errors(0.1, tmp_path)
    assert len(errors) >= 12
    assert errors.force.max() < FORCE, errors.sort_values("force").tail(3)
    stiffness, energy = errors.stiffness.dropna(), errors.energy.dropna()
    assert len(stiffness) and stiffness.max() < STIFFNESS
    assert len(energy) >= 10 and (energy < ENERGY_LIMIT).mean() >= ENERGY_SHARE, energy


@pytest.mark.slow
def test_the_readme_domain_statement_holds_on_every_heldout_contact(tmp_path):
    errors = heldout_errors(np.inf, tmp_path)
    assert len(errors) == 160
    domain = errors[errors.beta <= 0.2]
    assert domain.force.max() < 0.10
    assert (domain.force < FORCE).mean() >= 0.90
    assert (errors.force < 0.10).mean() >= 0.99
