"""calibration.runs.parallel: every result comes back, and a failing task raises its own error."""
import math

import pytest

from calibration.runs.parallel import completed


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_task_comes_back_with_its_result(jobs):
    tasks = [(x,) for x in (1.0, 4.0, 9.0, 16.0)]
    assert sorted(completed(math.sqrt, tasks, jobs)) == [(t, math.sqrt(*t)) for t in tasks]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_task_raises_its_own_error(jobs):
    with pytest.raises(ValueError, match="math domain error"):
        list(completed(math.sqrt, [(4.0,), (-1.0,)], jobs))
