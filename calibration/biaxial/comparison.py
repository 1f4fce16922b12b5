"""The laws compared over several packings: mean and spread, and which differences exceed it.

Each law runs on the same packings (seeds), so a difference between two laws is set against the
scatter the packing alone makes. For a quantity (peak or residual deviator, volumetric strain):

- :func:`spread`: per law the mean, the sample standard deviation over the seeds, min, max, n;
- :func:`differences`: per pair of laws the difference of the means, its standard error
  ``sqrt(s_a^2/n_a + s_b^2/n_b)``, and whether the difference exceeds the scatter, taken as
  ``|difference| > 2 standard errors`` (about a 95 % two-sided criterion for normal scatter; with
  3-5 seeds it is a screening, not a test); also the p-value of the paired t-test over the seeds
  both laws ran (the runs of one seed start from the same packing).
"""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

#: the quantities compared, with their units in the tables
QUANTITIES = {"peak_deviator": "Pa", "residual_deviator": "Pa", "volumetric_strain": "-"}
#: a difference exceeds the seeds' scatter beyond this many standard errors
STANDARD_ERRORS = 2.0


def spread(runs: pd.DataFrame, group: str = "law") -> pd.DataFrame:
    """Per ``group`` (and quantity): ``mean, std, min, max, n`` over the successful runs."""
    ok = runs[runs.failure.isna()]
    rows = []
    for name, mine in ok.groupby(group, sort=False):
        for quantity, unit in QUANTITIES.items():
            values = mine[quantity].to_numpy(dtype=float)
            rows.append({group: name, "quantity": quantity, "unit": unit,
                         "mean": values.mean(), "std": values.std(ddof=1) if len(values) > 1
                         else np.nan, "min": values.min(), "max": values.max(),
                         "n": len(values)})
    return pd.DataFrame(rows)


def differences(runs: pd.DataFrame, group: str = "law") -> pd.DataFrame:
    """Every pair of ``group`` values and quantity: ``a, b, difference (a - b),
    standard_error, exceeds_scatter, paired_p`` (module docstring)."""
    ok = runs[runs.failure.isna()]
    names = list(dict.fromkeys(ok[group]))
    rows = []
    for a, b in combinations(names, 2):
        first, second = ok[ok[group] == a], ok[ok[group] == b]
        for quantity in QUANTITIES:
            x, y = first[quantity].to_numpy(float), second[quantity].to_numpy(float)
            error = (np.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y))
                     if len(x) > 1 and len(y) > 1 else np.nan)
            difference = x.mean() - y.mean()
            paired = first.set_index("seed")[quantity].to_frame("a").join(
                second.set_index("seed")[quantity].to_frame("b"), how="inner")
            p = (float(stats.ttest_rel(paired.a, paired.b).pvalue) if len(paired) > 1
                 and np.any(paired.a != paired.b) else np.nan)
            rows.append({"a": a, "b": b, "quantity": quantity, "difference": difference,
                         "standard_error": error,
                         "exceeds_scatter": bool(abs(difference) > STANDARD_ERRORS * error)
                         if np.isfinite(error) else None,
                         "paired_p": p})
    return pd.DataFrame(rows)
