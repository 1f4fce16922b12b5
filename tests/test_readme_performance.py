"""The README's performance figures are the benchmarks' files', not typed.

``benchmarks/readme_performance.py`` writes the README's performance section from
``benchmarks/results/*.json`` (which ``benchmarks/record.py`` writes beside each printed table);
these tests hold the committed README to the committed files and the recorder to its format.
"""
import importlib.util
import json
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]


def benchmark_module(name: str):
    """The module of ``benchmarks/<name>.py`` (the benchmarks are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(name, PROJECT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_s_performance_section_is_the_benchmarks_files():
    readme = benchmark_module("readme_performance")
    text = (PROJECT / "README.md").read_text()
    assert readme.section() in text, (
        "README.md's performance section differs from benchmarks/results: run "
        "python benchmarks/readme_performance.py")


def test_every_figure_names_a_committed_file_with_its_provenance():
    readme = benchmark_module("readme_performance")
    for figure, measured, target, files in readme.figures():
        for file in files.split(", "):  # a figure from two benchmarks names both
            data = json.loads((PROJECT / "benchmarks" / "results" / file).read_text())
            assert {"date", "machine", "command", "rows"} <= set(data), file
        assert measured and all(part.strip() for part in measured.split("/")), figure


def test_the_recorder_writes_provenance_and_rows_whole(tmp_path, monkeypatch):
    record = benchmark_module("record")
    monkeypatch.setattr(record, "RESULTS", tmp_path)
    monkeypatch.setattr(sys, "argv", ["benchmarks/dem.py", "--repeats", "2"])
    started = record.load_average()
    out = record.write("dem", [{"law": "spring", "ns": 1.5}], started, repeats=2)
    data = json.loads(out.read_text())
    assert data["rows"] == [{"law": "spring", "ns": 1.5}] and data["repeats"] == 2
    assert data["command"] == "python benchmarks/dem.py --repeats 2"
    assert data["load_average"]["before"] == started and len(data["load_average"]["after"]) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dem.json"]  # no partial file left
