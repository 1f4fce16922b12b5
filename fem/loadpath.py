"""Load paths of the two-disc problem (Section 4.2): prescribed relative displacements per step.

``hold-normal`` (case 1): the approach delta_n is applied in ``normal_steps`` equal increments
with delta_t = 0, then held while delta_t rises to its final value in ``steps`` increments.
``proportional`` (case 2): delta_n and delta_t rise together in ``steps`` increments.

The FEM (:mod:`fem.twodisc`) and every contact law run the same :class:`LoadPath`, so their tables
line up row by row. Displacements in m, approach positive.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from meshes.checks import count, non_negative, one_of, positive

PATHS = ("hold-normal", "proportional")
#: the longest path: its arrays and the tables run on it take ~200 bytes a step (0.2 GB here)
MAX_STEPS = 1_000_000
STEPS_LIMIT = "a load path's tables take ~200 bytes a step; 1e6 steps is 0.2 GB"

#: the first columns of every per-step table, the FEM's (``hertz2d twodisc``) and every law's
#: (``hertz2d model``), so the two line up row by row: the step, the prescribed displacements,
#: the horizontal and vertical driving forces, the contact resultants and half-widths
STEP_COLUMNS = ("step", "delta_n", "delta_t", "Fx", "Fz", "N", "T", "a", "c")


@dataclass(frozen=True)
class LoadPath:
    """Prescribed ``delta_n``, ``delta_t`` per step and the stage each step belongs to."""

    kind: str
    delta_n: np.ndarray
    delta_t: np.ndarray
    stage: np.ndarray

    @classmethod
    def build(cls, kind: str, delta_n: float, delta_t: float, steps: int,
              normal_steps: int = 10) -> "LoadPath":
        one_of("path", kind, PATHS)
        positive("delta_n", delta_n)
        non_negative("delta_t", delta_t)
        steps = count("steps", steps, maximum=MAX_STEPS, why=STEPS_LIMIT)
        if kind == "proportional":
            ramp = np.arange(1, steps + 1) / steps
            return cls(kind, delta_n * ramp, delta_t * ramp, np.full(steps, "proportional"))
        normal_steps = count("normal_steps", normal_steps, maximum=MAX_STEPS - steps,
                             why=STEPS_LIMIT)
        normal = delta_n * np.arange(1, normal_steps + 1) / normal_steps
        tangential = delta_t * np.arange(1, steps + 1) / steps
        return cls(kind,
                   np.concatenate([normal, np.full(steps, delta_n)]),
                   np.concatenate([np.zeros(normal_steps), tangential]),
                   np.array(["normal"] * normal_steps + ["tangential"] * steps))

    def __len__(self) -> int:
        return len(self.delta_n)

    def frame(self) -> pd.DataFrame:
        """``step, delta_n, delta_t, stage``: the first columns of every load-path table."""
        return pd.DataFrame({"step": np.arange(1, len(self) + 1), "delta_n": self.delta_n,
                             "delta_t": self.delta_t, "stage": self.stage})

