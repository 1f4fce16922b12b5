"""Reading a stage's files from a results root for the report: one line when they are unreadable."""
from __future__ import annotations

from pathlib import Path

from checks import InputError


def load_stage(kind, results: Path, optional: str | None = None):
    """``kind(results)``, the class that reads one stage's files (its ``STAGE`` names the stage).

    With ``optional`` (a file relative to ``results``): None when that file is absent, for the
    stages a results root may lack (older runs, or the DEM without numba). Unreadable files are
    one :class:`InputError` line that says which stage to rerun.
    """
    if optional is not None and not (Path(results) / optional).exists():
        return None
    try:
        return kind(results)
    except InputError:
        raise
    except (OSError, ValueError, KeyError, TypeError, IndexError) as error:
        raise InputError(f"results={str(results)!r}: the {kind.STAGE} stage's files are "
                         f"unreadable ({type(error).__name__}: {error}); rerun that stage"
                         ) from None
