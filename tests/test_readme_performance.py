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


def test_a_resumed_table_is_read_back_and_a_bad_one_set_aside(tmp_path, capsys):
    """``record.resumed``: a benchmark's appended rows come back as written; a file with rows of
    another key, a value not finite where one must be, or other columns is renamed ``.csv.bad``
    with one line on stderr, and the run starts from no rows (never from the bad file)."""
    record = benchmark_module("record")
    table, columns = tmp_path / "loops.csv", ["loop", "W", "key"]
    assert record.resumed(table, columns, "k").empty
    table.write_text("loop,W,key\n3,-0.25,k\n7,nan,k\n")
    rows = record.resumed(table, columns, "k")
    assert rows.loop.tolist() == [3, 7] and rows.W.iloc[0] == -0.25
    for text, why in [("loop,W,key\n3,0.5,other\n", "another key"),
                      ("loop,W,key\n7,nan,k\n", "not finite"),
                      ("loop,key\n3,k\n", "unexpected columns")]:
        table.write_text(text)
        assert record.resumed(table, columns, "k", finite=("W",)).empty
        assert not table.exists() and (tmp_path / "loops.csv.bad").read_text() == text
        assert why in capsys.readouterr().err
        (tmp_path / "loops.csv.bad").unlink()
