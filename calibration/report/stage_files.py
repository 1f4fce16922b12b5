"""Reading a stage's files from a results root for the report: one line when they are unreadable."""
from __future__ import annotations

from pathlib import Path

from hertz2d.checks import InputError


def load_stage(kind, results: Path, present: bool = True):
    """``kind(results)``, a stage's outputs type (its ``STAGE`` names the stage), or None when
    ``present`` is False (a stage a results root may lack: an older run, or the DEM without
    numba). Files that do not hold what the stage writes are one :class:`InputError` line that
    says which stage to rerun (the types' own checks name the file and the value)."""
    if not present:
        return None
    try:
        return kind(results)
    except InputError:
        raise
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError) as error:
        raise InputError(f"results={str(results)!r}: the {kind.STAGE} stage's files are "
                         f"unreadable ({type(error).__name__}: {error}); rerun that stage"
                         ) from None
