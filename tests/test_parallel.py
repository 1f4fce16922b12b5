"""calibration.parallel: results in completion order, errors propagate, an interruption stops the
running workers instead of waiting for them."""
import math
import threading
import time

import pytest

from calibration.parallel import completed


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_task_comes_back_with_its_result(jobs):
    tasks = [(x,) for x in (1.0, 4.0, 9.0, 16.0)]
    assert sorted(completed(math.sqrt, tasks, jobs)) == [(t, math.sqrt(*t)) for t in tasks]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_task_raises_its_own_error(jobs):
    with pytest.raises(ValueError, match="math domain error"):
        list(completed(math.sqrt, [(4.0,), (-1.0,)], jobs))


def test_closing_early_terminates_the_running_tasks():
    """What Ctrl-C does to a sweep: the generator is closed while workers hold long tasks."""
    results = completed(time.sleep, [(0.0,), (600.0,), (600.0,)], jobs=2)
    assert next(results) == ((0.0,), None)
    closer = threading.Thread(target=results.close, daemon=True)
    closer.start()
    closer.join(timeout=120)  # a bound on "at once", far below the 600 s of waiting
    assert not closer.is_alive(), "closing waited for the 600 s tasks instead of stopping them"
