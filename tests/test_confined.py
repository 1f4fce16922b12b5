"""The full disc held by K contacts: verified against Eq. 17, equilibrium and the half-round body
before its penalty factors are used; the confined penalty option end to end."""
import json
import math

import numpy as np
import pandas as pd
import pytest

from hertz2d.calibration.cli import main
from hertz2d.calibration.penalty.outputs import PenaltyFit
from hertz2d.calibration.laws.closed_forms import (normal_displacement_eq17,
                                           penalty_factor_from_displacement)
from hertz2d.calibration.penalty.confined import read_confined, tangential_stiffness_ratio
from hertz2d.calibration.penalty.confined_cases import expand_confined
from hertz2d.fem.confined import ConfinedDisc, balancing_resultants
from hertz2d.fem.halfround import HalfRoundBody
from hertz2d.checks import InputError
from hertz2d.meshes.fulldisc import DEFAULT_LEVEL, contact_frames

E, NU, R = 10e9, 0.25, 0.5


def w_of(disc: ConfinedDisc, balance: str, E: float = E, nu: float = NU, T: float = 1e5,
         N: float = 1e5, definition: str = "centre") -> float:
    response = disc.response(E, nu, balance, T, N)
    u_t = response.u_t if definition == "centre" else response.u_t_mean_axes
    return float(penalty_factor_from_displacement(u_t, T, E, nu, disc.R, disc.a))


@pytest.fixture(scope="module")
def discs():
    """Level-1 discs at the paper's base case (a/R = 0.05) for K = 2, 3, 4."""
    return {K: ConfinedDisc(R, 0.025, K, level=1) for K in (2, 3, 4)}


@pytest.mark.parametrize("a_over_R", [0.02, 0.05, 0.1])
def test_two_contacts_under_normal_loads_reproduce_eq17(a_over_R):
    # K = 2 is Johnson's disc between two Hertzian loads: the approach of the top to the centre
    disc = ConfinedDisc(R, a_over_R * R, 2, DEFAULT_LEVEL)
    approach = disc.response(E, NU, "relief", T=0.0, N=1.0).approach
    assert approach == pytest.approx(normal_displacement_eq17(1.0, E, NU, R, a_over_R * R),
                                     rel=0.005)


def test_minimum_norm_resultants_balance_force_and_moment():
    # K = 3 in closed form: the two lower contacts share T and its moment
    assert balancing_resultants(3) == pytest.approx(
        np.array([[-0.5, -math.sqrt(3) / 2], [-0.5, math.sqrt(3) / 2]]), abs=1e-12)
    for K in (3, 4, 6):
        normals, tangents = contact_frames(K)
        resultants = balancing_resultants(K)
        force = tangents[0] + resultants[:, :1].T @ tangents[1:] - resultants[:, 1:].T @ normals[1:]
        moment = 1 + resultants[:, 0].sum()  # every tangential force at the same distance h
        assert np.abs(force).max() < 1e-12 and abs(moment) < 1e-12


@pytest.mark.parametrize("K, balance", [(2, "relief"), (2, "mirror"), (3, "contacts"),
                                        (4, "contacts"), (4, "relief")])
def test_loads_are_self_equilibrated_and_the_constraints_carry_nothing(discs, K, balance):
    response = discs[K].response(E, NU, balance, T=1e5, N=2e5)
    assert response.imbalance < 1e-12  # force and moment / R per unit load, on the load vector
    assert response.reaction < 1e-9


def test_w_depends_on_neither_the_modulus_nor_the_load(discs):
    # linear elasticity: the same w for any E and any load magnitude at a given N/T
    reference = w_of(discs[3], "contacts")
    for modulus, scale in ((1e8, 1.0), (2e11, 1.0), (E, 3e-2), (E, 50.0)):
        assert w_of(discs[3], "contacts", E=modulus, T=1e5 * scale, N=1e5 * scale) == \
            pytest.approx(reference, abs=1e-9)


def test_the_normal_loads_add_no_tangential_displacement(discs):
    # they are symmetric about contact 1's axis; only the unstructured mesh's asymmetry remains
    for K in (2, 3, 4):
        balance = "relief" if K == 2 else "contacts"
        alone = w_of(discs[K], balance, N=0.0)
        assert abs(w_of(discs[K], balance, N=1e6) - alone) / 10 < 1e-4


def test_mirrored_two_contacts_are_the_symmetric_half_round(discs):
    # the symmetric base is the mirror plane of exactly this disc and load (fem/supports.py)
    half_round = HalfRoundBody(R, 0.025, level=1)
    symmetric = float(penalty_factor_from_displacement(
        half_round.compliance(E, NU, "symmetric").tangential, 1.0, E, NU, R, 0.025))
    assert w_of(discs[2], "mirror") == pytest.approx(symmetric, abs=5e-3)


def test_a_free_disc_does_not_feel_its_unloaded_flats(discs):
    # inertia relief at K = 2 and K = 4: only the balance of T, not the geometry, sets w
    assert w_of(discs[4], "relief") == pytest.approx(w_of(discs[2], "relief"), abs=2e-3)


def test_w_converges_with_the_mesh_level():
    levels = [ConfinedDisc(R, 0.025, 3, level) for level in (0, 1, 2)]
    w = [w_of(disc, "contacts") for disc in levels]
    steps = np.abs(np.diff(w))
    assert steps[1] < 0.5 * steps[0] and steps[1] < 1e-3


@pytest.mark.parametrize("K, balance, bad", [
    (2, "contacts", "balance='contacts'"), (3, "mirror", "balance='mirror'"),
    (3, "inertia", "balance='inertia'")])
def test_impossible_balances_are_refused(discs, K, balance, bad):
    with pytest.raises(InputError, match=bad):
        discs[K].response(E, NU, balance)


def test_overlapping_flats_are_refused():
    with pytest.raises(InputError, match="too wide for K=12"):
        ConfinedDisc(R, 0.3 * R, 12, level=0)


def test_the_spec_table_checks_its_values():
    spec = {"base": {"R": 0.5, "a": 0.025, "E": 1e10, "nu": 0.25, "T": 1e5, "level": 1},
            "grid": {"a_over_R": [0.05], "nu": [0.25]},
            "confined": {"K": [2, 3], "N": 1e5, "level": 0, "trend": [5]}}
    cases = expand_confined(spec)
    assert {(c.support, c.balance, c.study) for c in cases} == {
        ("confined-2", "relief", "grid"), ("confined-3", "contacts", "grid"),
        ("mirror-2", "mirror", "grid"), ("confined-5", "contacts", "contacts")}
    for key, value, bad in (("K", [1], "K=1"), ("level", 9, "level=9"), ("N", -1.0, "N=-1.0"),
                            ("mirror", "yes", "mirror='yes'")):
        with pytest.raises(InputError, match=bad):
            expand_confined({**spec, "confined": {**spec["confined"], key: value}})


def test_the_two_disc_stiffness_ratio_is_eq29_over_eq31():
    # w = 0: kt/kn = (log(4R/a) - 1/2) / (log(2R/a) + 1/2)
    x = 0.131
    assert tangential_stiffness_ratio(0.0, x, NU) == pytest.approx(
        (math.log(4 / x) - 0.5) / (math.log(2 / x) + 0.5), rel=1e-12)
    assert tangential_stiffness_ratio(0.5, x, NU) < tangential_stiffness_ratio(0.2, x, NU)


# -- the stage and the penalty option, on the quick run shared by the tests ---------------------

def test_the_quick_stage_writes_the_confined_table_fit_and_figure(quick_results):
    results, _ = quick_results
    table = read_confined(results / "penalty" / "confined.csv")
    assert (table.status == "ok").all()
    fit = json.loads((results / "penalty" / "fit.json").read_text())["confined"]
    assert {"confined-2", "confined-3", "confined-4", "confined"} <= set(fit["fits"])
    assert fit["verification"]["eq17_k2_max_abs_error"] < 0.005
    assert fit["verification"]["mirror_vs_symmetric"]["max_abs_w_difference"] < 0.01
    assert (results / "penalty" / "confined_w.png").stat().st_size > 10_000


def test_a_confined_table_with_an_unknown_support_is_refused(quick_results, tmp_path):
    results, _ = quick_results
    table = pd.read_csv(results / "penalty" / "confined.csv")
    table.loc[0, "support"] = "clamped"
    table.to_csv(tmp_path / "confined.csv", index=False)
    with pytest.raises(InputError, match="support='clamped'"):
        read_confined(tmp_path / "confined.csv")


def test_the_fit_file_gives_each_supports_coefficients(quick_results):
    results, _ = quick_results
    path = results / "penalty" / "fit.json"
    fit = json.loads(path.read_text())
    read = PenaltyFit.read(path)
    assert read.penalty("confined-3").coefficients == pytest.approx(
        fit["confined"]["fits"]["confined-3"]["coefficients"])
    assert read.penalty("symmetric").coefficients == pytest.approx(
        fit["by_support"]["symmetric"]["coefficients"])
    with pytest.raises(InputError, match="support='confined-9'"):
        read.penalty("confined-9")


def test_model_takes_the_confined_penalty(quick_results, capsys, tmp_path):
    results, _ = quick_results

    def peak(penalty):
        code = main(["model", "--path", "hold-normal", "--steps", "10", "--penalty", penalty,
                     "--results", str(results), "--out", str(tmp_path / "m.csv"), "--json"])
        out, _ = capsys.readouterr()
        assert code == 0
        return json.loads(out.strip().splitlines()[-1])

    confined, clamped = peak("confined"), peak("refit")
    assert confined["law"] == "simplified, refit (confined disc)"
    # a smaller w makes the contact stiffer tangentially: full slip at a smaller displacement
    assert confined["delta_t_at_peak"] < clamped["delta_t_at_peak"]


def test_model_without_a_confined_fit_exits_2(capsys, tmp_path):
    (tmp_path / "penalty").mkdir()
    (tmp_path / "penalty" / "fit.json").write_text(json.dumps(
        {"coefficients": [0.2] * 6, "default_support": "clamped",
         "by_support": {"clamped": {"coefficients": [0.2] * 6}}}))
    code = main(["model", "--path", "hold-normal", "--penalty", "confined",
                 "--results", str(tmp_path), "--out", str(tmp_path / "m.csv")])
    _, err = capsys.readouterr()
    assert code == 2 and "support='confined'" in err and len(err.strip().splitlines()) == 1


def test_the_report_section_states_which_w_a_packing_should_use(quick_results):
    from hertz2d.calibration.penalty.outputs import PenaltyOutputs
    from hertz2d.calibration.report.penalty_sections import confined_section

    results, _ = quick_results
    section = confined_section(PenaltyOutputs(results))
    texts = [block.text for block in section.blocks if hasattr(block, "text")]
    figures = [block.path for block in section.blocks if hasattr(block, "path")]
    assert any("`--penalty confined`" in text for text in texts)
    assert all(path.exists() for path in figures) and figures
