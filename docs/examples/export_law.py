"""Export the paper's simplified law for another DEM code, then read it back as that code would.

``hertz2d export-law --out DIR`` writes ``law.json`` (the law's formulas with their equation
numbers and the penalty factor's coefficients), ``hertz2d_law.h`` (the same law in C99) and
``test_vectors.csv`` (contact updates made by the Python law, for a port to check itself
against). A Python code reads ``law.json`` with :func:`hertz2d.calibration.export.law_file.read_law` and
gets the penalty factor back; here one step of :func:`hertz2d.calibration.laws.simplified_update` with it
reproduces the test vector of the most loaded sticking contact.

Run it: ``python docs/examples/export_law.py``.
"""
import contextlib
import io
import tempfile
from pathlib import Path

import pandas as pd

from hertz2d.calibration.cli import main
from hertz2d.calibration.laws import ContactPair, simplified_update
from hertz2d.calibration.export.law_file import read_law


def export_and_check(folder: Path) -> dict:
    """Export into ``folder``, read ``law.json`` back and replay the first test vector."""
    with contextlib.redirect_stdout(io.StringIO()):  # the command's JSON summary
        assert main(["export-law", "--out", str(folder), "--json"]) == 0
    penalty, law = read_law(folder / "law.json")
    vectors = pd.read_csv(folder / "test_vectors.csv")
    sticking = vectors[~vectors.slipping.astype(bool)]
    vector = sticking.loc[sticking["T"].abs().idxmax()]  # the most loaded sticking contact
    pair = ContactPair(R1=vector.R1, R2=vector.R2, E1=vector.E1, E2=vector.E2, nu1=vector.nu1,
                       nu2=vector.nu2, mu=vector.mu, wall=bool(vector.wall), form=law["form"])
    state = simplified_update(pair, vector.delta_n, vector.d_delta_t, vector.T_previous, penalty,
                              vector.a_previous)
    return {"files": sorted(p.name for p in folder.iterdir()), "law": law["law"],
            "form": law["form"], "penalty": penalty.label,
            "N (vector, replayed)": (float(vector.N), float(state.N)),
            "T (vector, replayed)": (float(vector["T"]), float(state.T))}


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as scratch:
        for key, value in export_and_check(Path(scratch)).items():
            print(f"{key}: {value}")
