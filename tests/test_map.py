"""The validity map: spec expansion and its typed errors, the error metric on constructed tables
with known answers, the regions, and a tiny map end to end through the CLI (a failed path
recorded, the rerun reusing everything else)."""
import json

import numpy as np
import pandas as pd
import pytest

from hertz2d.calibration.cli import main
from hertz2d.calibration.laws import normal_force
from hertz2d.calibration.laws.closed_forms import EQ33_COEFFICIENTS
from hertz2d.calibration.runs.spec_file import tomllib
from hertz2d.calibration.validation.comparison import with_stiffness
from hertz2d.calibration.validation.map.errors import ENERGY, case_errors
from hertz2d.calibration.validation.map.regions import compact, force_errors, regions
from hertz2d.calibration.validation.map.spec import MapSpec, PathSettings, Study, expand

BASE = """
[base]
counterpart = "disc"
R1 = 0.5
E1 = 10e9
nu1 = 0.25
R2_over_R1 = 1.0
E2_over_E1 = 1.0
nu2 = 0.25
mu = 0.3
a_over_R = 0.05
support = "symmetric"
level = 0

[paths]
normal_steps = 2
steps = 6
cycle_steps = 3
cycles = 1
normal_swing = 0.2

[paths.loads]
hold-normal = [1.5]
"""
#: every kind, several sizes of some
LOADS = BASE.replace("hold-normal = [1.5]", """hold-normal = [1.5]
proportional = [0.5, 2.0]
cycle = [0.6]
coupled-cycle = [0.4]""")
#: two hold-normal paths (mu 0.3 and 0.5), one cycle, and the cycle one level finer
TINY = BASE.replace("hold-normal = [1.5]", "hold-normal = [1.5]\ncycle = [0.6]") + """
[studies.friction]
mu = [0.3, 0.5]
paths = ["hold-normal"]

[studies.cycle]
mu = [0.3]
paths = ["cycle"]

[convergence.mesh]
level = 1
studies = ["cycle"]
"""


def parsed(text: str) -> dict:
    return tomllib.loads(text)


def test_studies_cross_their_axes_and_share_the_cases_they_both_reach():
    spec = expand(parsed(BASE + """
[studies.friction]
mu = [0.3, 0.6]
[studies.slice]
a_over_R = [0.05, 0.1]
E2_over_E1 = [1.0, 4.0]
[studies.wall]
counterpart = ["wall"]
nu1 = [0.2, 0.3]
[convergence.steps]
factor = 2
studies = ["friction"]
"""))
    assert len(spec.default_runs) == 2 + 4 - 1 + 2  # the base case is in friction and slice
    base = [c for c in spec.case_studies if c.mu == 0.3 and c.a_over_R == 0.05
            and c.counterpart == "disc" and c.E2_over_E1 == 1.0]
    assert len(base) == 1 and spec.case_studies[base[0]] == ("friction", "slice")
    walls = [c for c in spec.case_studies if c.wall]
    assert len(walls) == 2 and all(c.R2_over_R1 is None and c.nu2 is None for c in walls)
    checks = [r for r in spec.runs if r.variant == "steps x2"]
    assert len(checks) == 2 and all(r.settings.steps == 12 for r in checks)
    assert spec.studies["slice"].varied == ["a_over_R", "E2_over_E1"]


@pytest.mark.parametrize("counterpart", ["disc", "wall"])
def test_a_path_reaches_the_contact_size_it_declares(counterpart):
    spec = expand(parsed(BASE + f'[studies.size]\na_over_R = [0.02, 0.15]\n'
                                f'counterpart = ["{counterpart}"]\nnu1 = [0.1]\n'))
    for run in spec.default_runs:
        fem_path = run.fem_path()
        pair = run.case.pair()
        # Eq. 4 with Eq. 22 solved from the prescribed approach (a wall's pair is the disc and
        # its mirror image: twice the disc's approach)
        approach = fem_path.delta_n * (2 if pair.wall else 1)
        _, a = normal_force(pair, approach)
        assert float(a) == pytest.approx(run.case.a_over_R * run.case.R1, rel=1e-10)
        assert fem_path.delta_t > 0 and fem_path.kind == "hold-normal"


BAD_SPECS = {
    "mu = [-0.1]": "mu=-0.1 must be > 0",
    "a_over_R = [0.5]": "a_over_R=0.5 must be in (0, 0.3]",
    "nu = [0.5]": "nu=0.5",
    'counterpart = ["floor"]': "'floor' is not one of disc, wall",
    "R2_over_R1 = [0.5]": "R2_over_R1=0.5 must be >= 1",
    'E2_over_E1 = ["stiff"]': "E2_over_E1='stiff' is not a finite number",
    "radius = [1.0]": "unknown radius",
    "mu = []": "mu is an empty list",
    'paths = ["unload"]\nmu = [0.3]': "'unload' is not one of hold-normal",
    "nu = [0.2]\nnu1 = [0.3]": "gives nu (both bodies) and nu1 or nu2",
}


@pytest.mark.parametrize("study, message", list(BAD_SPECS.items()))
def test_bad_axis_values_exit_2_naming_the_value(tmp_path, capsys, study, message):
    spec = tmp_path / "bad.toml"
    spec.write_text(BASE + f"[studies.bad]\n{study}\n")
    assert main(["map", "--spec", str(spec), "--results", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and message in err and "[studies.bad]" in err
    assert not (tmp_path / "r").exists()  # nothing written


@pytest.mark.parametrize("loops, message", [("-1", "loops=-1 must be >= 0"),
                                            ("200000", "loops=200000 must be <= 100000")])
def test_a_bad_loop_count_exits_2_naming_the_value(tmp_path, capsys, loops, message):
    assert main(["map", "--quick", "--loops", loops, "--results", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and message in err
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("edit, message", [
    (("level = 0", "level = 9"), "level=9"),
    (("steps = 6", "steps = 0"), "steps=0 must be >= 1"),
    (("proportional = [0.5, 2.0]", "proportional = [80.0]"), "would not touch"),
    (("cycles = 1", "cycles = 1\nextra = 1"), "unknown extra"),
    (("normal_swing = 0.2", "normal_swing = 1.0"), "normal_swing=1.0 must be in [0, 1)"),
    (("cycle = [0.6]", "cycle = [-0.6]"), "cycle=-0.6 must be > 0"),
    (("cycle = [0.6]", "cycles = [0.6]"), "unknown cycles"),
])
def test_bad_base_and_path_values_exit_2(tmp_path, capsys, edit, message):
    spec = tmp_path / "bad.toml"
    spec.write_text(LOADS.replace(*edit) + '[studies.s]\nmu = [0.3]\npaths = ["proportional"]\n')
    assert main(["map", "--spec", str(spec), "--results", str(tmp_path / "r")]) == 2
    assert message in capsys.readouterr().err


def cycle_table(scale_first: float = 1.0, offset: float = 0.0) -> pd.DataFrame:
    """A made-up cycle: normal stage, first loading (partial slip) along tanh, unloading and
    reloading by Masing's rule (the branches pass through zero and enclose a loop); ``Fx``
    scaled by ``scale_first`` on the first loading and shifted by ``offset`` on the reversing
    branches."""
    stage = ["normal"] * 2 + ["tangential"] * 4 + ["unloading"] * 8 + ["reloading"] * 8
    first, down, up = np.linspace(0.25, 1, 4), np.linspace(0.75, -1, 8), np.linspace(-0.75, 1, 8)
    delta_t = np.concatenate([[0, 0], first, down, up])
    peak = np.tanh(1.0)
    fx = np.concatenate([[0, 0], scale_first * np.tanh(first), peak - 2 * np.tanh((1 - down) / 2),
                         -peak + 2 * np.tanh((1 + up) / 2)])
    fx[6:] += offset
    return pd.DataFrame({"step": np.arange(1, 23), "delta_n": 0.01, "delta_t": delta_t,
                         "Fx": fx, "Fz": 5.0, "N": 5.0, "c": 0.5, "stage": stage})


def test_the_metric_is_relative_to_each_value_and_to_the_amplitude_on_a_cycles_branches():
    fem = with_stiffness(cycle_table())
    # 10 % on the first loading and nothing else: the force's largest error is 10 %
    first = case_errors(fem, with_stiffness(cycle_table(scale_first=1.1)))
    assert first["tangential force"]["max_rel_error"] == pytest.approx(0.1)
    assert first["normal force"]["max_rel_error"] == pytest.approx(0.0)
    # a shift of 2 % of the amplitude on the reversing branches is a 2 % error there, although
    # the force passes through zero (its own relative error would be unbounded)
    amplitude = np.abs(fem.Fx).max()
    shifted = case_errors(fem, with_stiffness(cycle_table(offset=0.02 * amplitude)))
    assert shifted["tangential force"]["max_rel_error"] == pytest.approx(0.02)
    # RMS over the 4 + 16 judged steps: 16 of them 2 % off
    assert shifted["tangential force"]["rms_rel_error"] == pytest.approx(0.02 * np.sqrt(16 / 20))


def test_the_floor_metric_judges_each_step_against_a_fifth_of_the_amplitude_at_least():
    """A shift of 2 % of the amplitude on the reversing branches: 2 % by the amplitude-relative
    metric, 2/0.2 = 10 % by the floor metric where |FEM| is below a fifth of its largest (the
    force passes through zero there), and 2 % of the largest where it is the largest."""
    fem = with_stiffness(cycle_table())
    amplitude = np.abs(fem.Fx).max()
    shifted = case_errors(fem, with_stiffness(cycle_table(offset=0.02 * amplitude)))
    assert shifted["tangential force"]["max_rel_error"] == pytest.approx(0.02)
    assert shifted["tangential force"]["max_floor_error"] == pytest.approx(0.1)
    assert shifted["normal force"]["max_floor_error"] == 0.0
    assert "max_floor_error" not in shifted["tangential stiffness"]
    row = {"case": 0, "variant": "default", "law": "L", "path": "cycle", "steps": 1,
           "rms_rel_error": 0.0, "rms_floor_error": 0.0}
    force = force_errors(pd.DataFrame([
        {**row, "quantity": quantity, "max_rel_error": measures["max_rel_error"],
         "max_floor_error": measures["max_floor_error"]}
        for quantity, measures in shifted.items() if quantity in ("normal force",
                                                                   "tangential force")]))
    assert force.force_error.iloc[0] == pytest.approx(0.02)
    assert force.floor_force_error.iloc[0] == pytest.approx(0.1)


def test_the_closed_loop_table_counts_each_law_s_violations_as_it_declares():
    """Three loops, the cheap laws: the declared-admissible linear spring has no loop with
    W < 0 and T returns exactly in stick; the table has a row per law, the accurate model's
    saying it takes no closed path."""
    from hertz2d.calibration.validation.map import loops
    from hertz2d.calibration.validation.map.errors import LawChoice
    laws = [LawChoice("simplified"), LawChoice("accurate"), LawChoice("linear")]
    chosen = loops.settings(quick=True, loops=3)
    table = loops.loop_table(laws, chosen, progress=False)
    assert len(table) == 2 * 3 and table.W.notna().all()
    found = loops.admissibility_table(laws, table).set_index("law_name")
    assert found.loc["accurate", "declared admissible"] == "no closed paths"
    assert pd.isna(found.loc["accurate", "loops"])
    assert found.loc["linear", "declared admissible"] == "yes"
    assert found.loc["linear", "loops with W < 0"] == 0
    assert found.loc["linear", "stick return"] < 1e-12
    assert found.loc["simplified", "loops"] == 3


def test_a_law_25_percent_stiffer_everywhere_is_25_percent_off_in_force_stiffness_and_energy():
    fem = with_stiffness(cycle_table())
    law = cycle_table()
    law["Fx"] *= 1.25  # every tangential force 25 % larger: every stiffness and the loop too
    errors = case_errors(fem, with_stiffness(law))
    assert set(errors) == {"normal force", "tangential force", "tangential stiffness", ENERGY}
    for quantity in ("tangential force", "tangential stiffness", ENERGY):
        assert errors[quantity]["max_rel_error"] == pytest.approx(0.25), quantity
    assert errors["normal force"]["max_rel_error"] == 0.0


def test_regions_list_the_axis_values_where_a_law_holds():
    study = Study("friction", {"mu": [0.1, 0.3, 0.6, 1.0]})
    errors = pd.DataFrame([
        {"case": i, "variant": "default", "law": "L", "law_name": "simplified",
         "studies": "friction", "path": "hold-normal", "mu": mu, "quantity": quantity,
         "steps": 5, "max_rel_error": error * (1 if quantity == "tangential force" else 0.5),
         "rms_rel_error": 0.0}
        for i, (mu, error) in enumerate(zip(study.axes["mu"], [0.03, 0.07, 0.2, 0.04]))
        for quantity in ("normal force", "tangential force")])
    force = force_errors(errors)
    assert list(force.force_error) == [0.03, 0.07, 0.2, 0.04]  # the larger of N and Fx
    spec = MapSpec("s", 0, PathSettings(1, 1, 1, 1, 0.2, (("hold-normal", (1.5,)),)),
                   {"friction": study}, [])
    (law,) = regions(force, spec)
    within = {k: v["by_path"]["hold-normal"]["studies"]["friction"]["values"]["mu"]
              for k, v in law["within"].items()}
    assert within == {"5 %": [0.1, 1.0], "10 %": [0.1, 0.3, 1.0]}
    assert compact(study.axes["mu"], within["10 %"]) == "0.1-0.3, 1"
    assert law["within"]["10 %"]["cases"] == 3 and law["within"]["10 %"]["fraction"] == 0.75


@pytest.fixture
def fit_results(tmp_path):
    """A results root with a fit.json (the refits: Eq. 33's coefficients for the clamped base,
    made-up ones for the symmetric base and the confined disc)."""
    fit = {"default_support": "clamped", "coefficients": list(EQ33_COEFFICIENTS),
           "by_support": {"clamped": {"coefficients": list(EQ33_COEFFICIENTS)},
                          "symmetric": {"coefficients": [0.1, 1.0, 0.1, -4.0, 0.5, 0.2]}},
           "confined": {"fits": {"confined": {"coefficients": [0.12, 1.1, 0.1, -4.0, 0.5, 0.2]}}}}
    (tmp_path / "penalty").mkdir()
    (tmp_path / "penalty" / "fit.json").write_text(json.dumps(fit))
    return tmp_path


def summary_of(capsys) -> dict:
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_a_tiny_map_runs_end_to_end_records_a_failure_and_reruns_only_it(
        fit_results, tmp_path, capsys, monkeypatch):
    from hertz2d.fem.contact.frictional import ContactOutsideWindow, NodeToSegmentContact

    spec = tmp_path / "tiny.toml"
    spec.write_text(TINY)
    increment = NodeToSegmentContact.increment

    def leaves_the_window(self, state, rigid):  # the mu = 0.5 path's contact leaves its window
        if self.mu == 0.5 and rigid[0] > 0:
            raise ContactOutsideWindow("the contact zone reached the end of a refined window")
        return increment(self, state, rigid)

    monkeypatch.setattr(NodeToSegmentContact, "increment", leaves_the_window)
    argv = ["map", "--spec", str(spec), "--results", str(fit_results), "--jobs", "1", "--json",
            "--loops", "0"]  # the closed loops: test_the_closed_loop_table_...
    assert main(argv) == 0
    first = summary_of(capsys)
    assert (first["paths"], first["check_paths"], first["failed"], first["reused"]) == (3, 1, 1, 0)
    assert first["fit_source"] == "results"
    assert first["fit"] == str(fit_results / "penalty" / "fit.json")
    (reason,) = first["failures"].values()
    assert "refined window" in reason and "mu 0.5" in next(iter(first["failures"]))
    folder = fit_results / "map"
    cases = pd.read_csv(folder / "cases.csv")
    assert list(cases.status) == ["ok", "failed", "ok", "ok"]
    assert (cases.a_fem_over_R[cases.status == "ok"] - 0.05).abs().max() < 0.005
    errors = pd.read_csv(folder / "errors.csv")
    assert set(errors.case) == {0, 2}  # the failed path has no rows
    # every law that runs the path, every quantity the FEM defines there, one row each
    laws = set(first["laws"])
    for (case, variant, path), rows in errors.groupby(["case", "variant", "path"]):
        runs = {law for law in laws if not law.startswith(("accurate, ", "Appendix C"))
                and not (path == "proportional" and "Mindlin-Deresiewicz" in law)}
        assert set(rows.law) == (laws if path == "hold-normal" else runs)
        assert rows.groupby("law").quantity.nunique().eq(4 if path == "cycle" else 3).all()
        assert not rows.duplicated(["law", "quantity"]).any()
    assert set(errors.variant) == {"default", "level 1"}
    summary = json.loads((folder / "summary.json").read_text())
    assert {e["law"] for e in summary["regions"]} == laws and summary["convergence"]
    for name in ("friction.png", "cycle.png", "summary.png"):
        assert (folder / name).stat().st_size > 0

    monkeypatch.setattr(NodeToSegmentContact, "increment", increment)
    assert main(argv) == 0
    second = summary_of(capsys)
    assert (second["failed"], second["reused"]) == (0, 3)  # only the failed path was computed
    again = pd.read_csv(folder / "errors.csv")
    kept = again[again.case.isin([0, 2])].reset_index(drop=True)
    pd.testing.assert_frame_equal(kept, errors.reset_index(drop=True))


SAMPLE = LOADS + """
[samples.random]
cases = 12
seed = 5
wall_fraction = 0.25
R2_over_R1 = [1.0, 10.0]
E2_over_E1 = [1.0, 10.0]
nu1 = [0.0, 0.45]
nu2 = [0.0, 0.45]
mu = [0.1, 1.0]
a_over_R = [0.01, 0.2]

[samples.random.loads]
hold-normal = [1.5, 1.5]
cycle = [0.25, 1.0]
"""


THREE_KINDS = SAMPLE.replace("[samples.random.loads]", 'paths = ["hold-normal", "cycle", '
                             '"proportional"]\n\n[samples.random.loads]').replace(
    "cycle = [0.25, 1.0]", "cycle = [0.25, 1.0]\nproportional = [0.25, 2.0]")


def test_a_sample_is_a_seeded_latin_hypercube_over_its_ranges():
    spec = expand(parsed(THREE_KINDS))
    again = expand(parsed(THREE_KINDS))
    assert [r.case for r in spec.runs] == [r.case for r in again.runs]  # reproducible
    contacts = {(c.counterpart, c.R2_over_R1, c.E2_over_E1, c.nu1, c.nu2, c.mu, c.a_over_R)
                for c in spec.case_studies}
    assert len(contacts) == 12 and len(spec.default_runs) == 12 * 3
    cases = [c for c in spec.case_studies if c.path == "hold-normal"]
    walls = [c for c in cases if c.wall]
    assert len(walls) == 3 and all(c.nu2 is None for c in walls)  # a quarter of 12 strata
    # one case per stratum of each axis: mu in [0.1, 1] cut in 12 equal strata, every stratum hit
    strata = sorted(int((c.mu - 0.1) / 0.9 * 12) for c in cases)
    assert strata == list(range(12))
    logs = sorted(int(np.log(c.a_over_R / 0.01) / np.log(20) * 12) for c in cases)
    assert logs == list(range(12))  # a/R uniform in its logarithm
    cycles = [c.load for c in spec.case_studies if c.path == "cycle"]
    assert all(0.25 <= v <= 1.0 for v in cycles) and len(set(cycles)) == 12
    other = expand(parsed(THREE_KINDS.replace("seed = 5", "seed = 6")))
    assert {c.mu for c in other.case_studies}.isdisjoint({c.mu for c in spec.case_studies})


@pytest.mark.parametrize("edit, message", [
    (("wall_fraction = 0.25", "wall_fraction = 1.5"), "wall_fraction=1.5 must be in [0, 1]"),
    (("mu = [0.1, 1.0]", "mu = [1.0, 0.1]"), "mu=[1.0, 0.1] is not a range [low, high]"),
    (("nu1 = [0.0, 0.45]", "nu1 = [0.0, 0.5]"), "nu1=0.5 is outside [0, 0.5)"),
    (("cases = 12", "cases = 0"), "cases=0 must be >= 1"),
    (("cycle = [0.25, 1.0]", ""), "gives no range for cycle"),
    (("seed = 5", ""), "missing seed"),
])
def test_bad_sample_values_exit_2(tmp_path, capsys, edit, message):
    spec = tmp_path / "bad.toml"
    spec.write_text(SAMPLE.replace(*edit).replace("[samples.random.loads]",
                                                  'paths = ["hold-normal", "cycle"]\n\n'
                                                  "[samples.random.loads]"))
    assert main(["map", "--spec", str(spec), "--results", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and message in err, err


def test_loads_set_the_paths_sizes_and_share_one_mesh_per_contact():
    spec = expand(parsed(LOADS + "[studies.s]\nmu = [0.3]\n"))
    runs = {(r.case.path, r.case.load): r for r in spec.default_runs}
    assert set(runs) == {("hold-normal", 1.5), ("proportional", 0.5), ("proportional", 2.0),
                         ("cycle", 0.6), ("coupled-cycle", 0.4)}
    case = runs["cycle", 0.6].case
    delta_n, onset = case.approach()
    paths = {key: run.fem_path() for key, run in runs.items()}
    assert paths["hold-normal", 1.5].delta_t == pytest.approx(1.5 * onset)
    assert paths["cycle", 0.6].delta_t == pytest.approx(0.6 * onset)
    assert paths["proportional", 2.0].delta_t == pytest.approx(2 * case.slip_ratio() * delta_n)
    coupled = paths["coupled-cycle", 0.4]
    assert coupled.normal_swing == 0.2 and coupled.path().delta_n.max() == pytest.approx(
        1.2 * delta_n)
    assert len({p.bodies_key() for p in paths.values()}) == 1  # one mesh for the contact
    assert all(p.meshed_for == pytest.approx(1.2 * delta_n) for p in paths.values())
