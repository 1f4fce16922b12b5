"""The map's reversing kinds with a swinging approach (stick cycles, sliding reversals, random
walks): the widened held-out spec, the walks' seeds, a sample's own mesh level, the cost bound
and bad spec values."""
import sys

import pytest

from hertz2d.calibration.validation.map.spec import expand, read, steps_of
from hertz2d.checks import InputError
from tests.test_map import BASE

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

#: test_map's base contact (at mesh level 1), then the reversing kinds' paths and two samples
SPEC = BASE.split("[paths]")[0].replace("level = 0", "level = 1") + """
[paths]
normal_steps = 3
steps = 10
cycle_steps = 6
cycles = 2
normal_swing = 0.2
reversals = 2
[paths.swings]
random-walk = 0.3
[paths.loads]
cycle = [0.5]
random-walk = [0.5]
stick-cycle = [0.2]
sliding-reversal = [1.5]
[samples.walks]
cases = 4
seed = 5
wall_fraction = 0.5
R2_over_R1 = [1.0, 10.0]
E2_over_E1 = [1.0, 10.0]
nu1 = [0.0, 0.45]
nu2 = [0.0, 0.45]
mu = [0.1, 1.0]
a_over_R = [0.01, 0.2]
paths = ["random-walk", "sliding-reversal"]
[samples.walks.loads]
random-walk = [0.25, 1.0]
sliding-reversal = [1.2, 2.5]
[samples.stick]
cases = 2
seed = 6
wall_fraction = 0.0
level = 2
R2_over_R1 = [1.0, 10.0]
E2_over_E1 = [1.0, 10.0]
nu1 = [0.0, 0.45]
nu2 = [0.0, 0.45]
mu = [0.1, 1.0]
a_over_R = [0.01, 0.2]
paths = ["stick-cycle"]
[samples.stick.loads]
stick-cycle = [0.1, 0.3]
"""


def spec(text: str = SPEC):
    return expand(tomllib.loads(text), "test")


def test_the_walks_are_seeded_per_contact_and_reproducible():
    walks = [run.fem_path() for run in spec().runs if run.case.path == "random-walk"]
    again = [run.fem_path() for run in spec().runs if run.case.path == "random-walk"]
    assert [w.seed for w in walks] == [w.seed for w in again]
    assert len({w.seed for w in walks}) == len(walks) == 4
    assert all(w.path().kind == "random-walk" and w.reversals == 2 for w in walks)
    reseeded = spec(SPEC.replace("reversals = 2", "reversals = 2\nseed = 1"))
    assert {r.fem_path().seed for r in reseeded.runs if r.case.path == "random-walk"} & {
        w.seed for w in walks} == set()


def test_each_kind_swings_as_the_spec_says_and_meshes_for_the_largest_approach():
    for run in spec().runs:
        fem = run.fem_path()
        swing = {"random-walk": 0.3, "sliding-reversal": 0.35, "stick-cycle": 0.05}[run.case.path]
        assert fem.normal_swing == swing
        path = fem.path()
        assert path.delta_n.max() <= fem.meshed_for * (1 + 1e-12)
        assert path.delta_t.min() >= fem.window[0] * (1 + 1e-12)


def test_a_sample_runs_at_its_own_level_and_is_costed_there():
    found = spec()
    levels = {run.case.path: run.level for run in found.runs}
    assert levels == {"random-walk": 1, "sliding-reversal": 1, "stick-cycle": 2}
    at_base = spec(SPEC.replace("level = 2\n", ""))
    settings = found.settings
    stick = 2 * steps_of("stick-cycle", settings)  # two contacts, one path each
    # the stick sample at level 2 costs 4x its cost at level 1; nothing else changes
    assert found.estimated_seconds - at_base.estimated_seconds == pytest.approx(
        3 * stick * at_base.estimated_seconds / sum(
            n * steps_of(kind, settings) for kind, n in (("random-walk", 4),
                                                         ("sliding-reversal", 4),
                                                         ("stick-cycle", 2))))


def test_a_walks_step_count_stays_under_the_costed_bound():
    found = spec(SPEC.replace("cases = 4", "cases = 30"))
    bound = steps_of("random-walk", found.settings)
    walks = [len(run.fem_path().path()) for run in found.runs if run.case.path == "random-walk"]
    assert len(walks) == 30 and max(walks) <= bound


def test_the_widened_heldout_spec_keeps_its_first_sample_and_adds_the_new_kinds():
    heldout = read(shipped="heldout.toml")
    kinds = {name: {case.path for case, by in heldout.case_studies.items() if name in by}
             for name in heldout.samples}
    assert kinds["heldout"] == {"hold-normal", "proportional", "cycle", "coupled-cycle"}
    assert kinds["heldout_walks"] == {"random-walk", "sliding-reversal"}
    assert kinds["heldout_stick"] == {"cycle", "stick-cycle"}
    assert "random-walk" in kinds["heldout_stiff"]
    stiff = [c for c, by in heldout.case_studies.items() if "heldout_stiff" in by]
    assert {c.counterpart for c in stiff} == {"disc", "wall"}
    assert all(c.E2_over_E1 >= 3.0 for c in stiff if not c.wall)
    # never fitted: every sample draws over (a part of) the training sample's ranges
    training = read(shipped="default.toml").samples["training"].ranges
    for sample in heldout.samples.values():
        for axis, (low, high) in sample.ranges.items():
            assert training[axis][0] <= low <= high <= training[axis][1], (sample.name, axis)


@pytest.mark.parametrize("change, message", [
    (("random-walk = 0.3", "random-walk = 1.0"),
     "[paths.swings] random-walk=1.0 must be in [0, 1)"),
    (("random-walk = 0.3", "cycle = 0.3"), "[paths.swings]"),
    (("reversals = 2", "reversals = -1"), "[paths] reversals=-1 must be >= 0"),
    (("reversals = 2", "reversals = 1.5"), "[paths] reversals=1.5 is not an integer"),
    (("reversals = 2", "reversals = 2\nseed = -4"), "[paths] seed=-4 must be >= 0"),
    (("level = 2\n", "level = 99\n"), "[samples.stick] level=99"),
    (("stick-cycle = [0.1, 0.3]", "stick-cycle = [0.3, 0.1]"), "is not a range"),
])
def test_bad_spec_values_are_named_in_one_line(change, message):
    text = SPEC.replace(*change)
    assert text != SPEC
    with pytest.raises(InputError) as raised:
        spec(text)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_a_mesh_check_may_not_list_a_sample_with_its_own_level():
    text = SPEC + "[convergence.mesh]\nlevel = 2\nstudies = [\"stick\"]\n"
    with pytest.raises(InputError, match=r"lists stick, whose own level is not below 2"):
        spec(text)
