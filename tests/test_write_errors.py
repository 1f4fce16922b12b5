"""Write errors (a full disk, a folder that refuses files): one line naming the file and the errno,
exit 1 (it is not bad input), no traceback, and a set of files that belong together (export-law's
folder, the map's tables, a two-disc table and its sidecar) appears complete or not at all.

The full disk is real where this process may mount a 2 MB tmpfs (root, as CI runs), else those
tests skip; the others simulate ENOSPC where the data is written.
"""
import errno
import subprocess

import pandas as pd
import pytest

from hertz2d.calibration.cli import main
from hertz2d.calibration.runs.atomic import atomic_path, together, write_text


def _no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def _files(folder) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


@pytest.fixture
def small_disk(tmp_path):
    """A 2 MB tmpfs with about 100 kB left free."""
    mount = tmp_path / "small-disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)],
                          capture_output=True)
    if made.returncode != 0:
        pytest.skip("this process may not mount a tmpfs (needs root)")
    try:
        with open(mount / "filler", "wb") as filler:
            filler.write(b"\0" * (2 * 2**20 - 100 * 2**10))
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def _one_line_exit_1(capsys, argv, path_part):
    assert main(argv) == 1
    err = capsys.readouterr().err
    said = [line for line in err.splitlines() if line.startswith("hertz2d")]  # not progress
    assert len(said) == 1 and err.endswith(said[0] + "\n") and "Traceback" not in err, err
    assert "No space left on device (errno 28, ENOSPC)" in said[0] and path_part in said[0]
    return said[0]


def test_export_law_on_a_full_disk_writes_no_file(small_disk, capsys):
    out = small_disk / "law"
    _one_line_exit_1(capsys, ["export-law", "--out", str(out)], str(out))
    assert _files(out) == []  # neither law.json nor the header without test_vectors.csv


def test_a_model_table_on_a_full_disk_is_one_line_exit_1(small_disk, capsys):
    out = small_disk / "m.csv"
    _one_line_exit_1(capsys, ["model", "--path", "cycle", "--steps", "2000", "--out", str(out)],
                     str(out))
    assert _files(small_disk) == ["filler"]


def test_a_failed_export_keeps_the_previous_folder_whole(tmp_path, capsys, monkeypatch):
    out = tmp_path / "law"
    assert main(["export-law", "--out", str(out)]) == 0
    before = {name: (out / name).read_bytes() for name in _files(out)}
    monkeypatch.setattr(pd.DataFrame, "to_csv", _no_space)  # test_vectors.csv, the last file
    _one_line_exit_1(capsys, ["export-law", "--out", str(out), "--penalty", "0.5"],
                     str(out / "test_vectors.csv"))
    assert {name: (out / name).read_bytes() for name in _files(out)} == before


def test_a_map_whose_errors_table_cannot_be_written_leaves_no_table(tmp_path, capsys,
                                                                      monkeypatch):
    from tests.test_map import TINY
    spec = tmp_path / "tiny.toml"
    spec.write_text(TINY)
    to_csv = pd.DataFrame.to_csv

    def errors_table_fails(frame, path, *args, **kwargs):
        if str(path).rsplit("/", 1)[-1].startswith(".errors."):
            _no_space()
        return to_csv(frame, path, *args, **kwargs)

    monkeypatch.setattr(pd.DataFrame, "to_csv", errors_table_fails)
    results = tmp_path / "results"
    _one_line_exit_1(capsys, ["map", "--spec", str(spec), "--results", str(results),
                              "--jobs", "1", "--loops", "0"],  # the closed loops: not at issue
                     str(results / "map" / "errors.csv"))
    assert _files(results) == []  # cases.csv was written first: not left alone either


def test_together_renames_every_file_at_the_end_or_none(tmp_path):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    write_text("old a", first)
    with pytest.raises(OSError) as raised:
        with together():
            write_text("new a", first)
            assert first.read_text() == "old a"  # not yet renamed
            with atomic_path(second) as tmp:
                tmp.write_text("new b")
                _no_space()
    assert raised.value.filename == str(second)  # the target, not its temporary
    assert _files(tmp_path) == ["a.txt"] and first.read_text() == "old a"
    with together():
        write_text("new a", first)
        write_text("new b", second)
    assert (first.read_text(), second.read_text()) == ("new a", "new b")
    assert _files(tmp_path) == ["a.txt", "b.txt"]  # no temporary left behind


def test_a_folder_that_refuses_files_midway_is_exit_1_naming_the_file(tmp_path, capsys,
                                                                       monkeypatch):
    from hertz2d.calibration.runs import atomic
    mkstemp = atomic.tempfile.mkstemp

    def refuses_law_json(**kwargs):  # after the check that the folder is writable
        if kwargs["prefix"].startswith(".law."):
            raise PermissionError(errno.EACCES, "Permission denied", kwargs["dir"])
        return mkstemp(**kwargs)

    monkeypatch.setattr(atomic.tempfile, "mkstemp", refuses_law_json)
    out = tmp_path / "law"
    assert main(["export-law", "--out", str(out), "--json"]) == 1
    out_text, err = capsys.readouterr()
    assert out_text == "" and len(err.strip().splitlines()) == 1
    assert f"{out / 'law.json'}: Permission denied (errno 13, EACCES)" in err
    assert _files(out) == []
