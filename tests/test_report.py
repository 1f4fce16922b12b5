"""The report: one self-contained HTML file, a Markdown twin, and the pipeline that makes them."""
import base64
import html as htmllib
import importlib.util
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from hertz2d.calibration.cli import main
from hertz2d.calibration.report import build_report
from hertz2d.calibration.report.screenshot import FLAGS, find_browser, screenshot

PROJECT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def report(quick_results):
    results, _ = quick_results
    return results, build_report(results)


def test_html_is_self_contained_with_every_figure_embedded(report):
    results, paths = report
    html = (results / "report.html").read_text()
    sources = re.findall(r'<img src="([^"]+)"', html)
    # Figs. 7-9, convergence, confined w, Figs. 11-15, all laws, the law's domain (6)
    assert len(sources) == 17
    for source in sources:
        assert source.startswith("data:image/png;base64,")
        assert base64.b64decode(source.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert not re.search(r'(src|href)="(https?:|file:)', html)
    for anchor in ("summary", "verification-halfround", "verification-twodisc", "penalty",
                   "validation", "domain", "disagreements", "provenance"):
        assert f'id="{anchor}"' in html
    assert "a QUICK run" in html  # a quick report says so
    assert 'id="map"' not in html  # this root has no map/ (made before the map): no section


def test_markdown_links_resolve_to_the_figures(report):
    results, _ = report
    markdown = (results / "report.md").read_text()
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", markdown)
    assert len(links) == 17 and all((results / link).exists() for link in links)


def pipe_tables(markdown: str) -> list[list[str]]:
    """The pipe tables of a Markdown text: runs of lines that start with ``|``."""
    tables, table = [], []
    for line in markdown.splitlines() + [""]:
        if line.startswith("|"):
            table.append(line)
        elif table:
            tables, table = tables + [table], []
    return tables


def test_the_committed_reports_tables_have_as_many_cells_in_every_row_as_in_the_header():
    """A ``|`` inside a header or a cell (``|beta|``, ``max |q|``) is escaped: unescaped, it
    would split the column and shift every cell after it."""
    markdown = (PROJECT / "results" / "report.md").read_text()
    tables = pipe_tables(markdown)
    assert len(tables) > 20
    for table in tables:
        cells = [len(re.split(r"(?<!\\)\|", line)) for line in table]
        assert len(set(cells)) == 1, table[0]


def test_disagreements_are_reported_with_numbers(report):
    results, _ = report
    markdown = (results / "report.md").read_text()
    section = markdown.split("## Where hertz2d disagrees with the paper")[1].split("##")[0]
    assert "Case 2" in section and "slide" in section
    assert re.search(r"kt = \d\.\d+e\+08", section)


@pytest.fixture(scope="module")
def browser():
    """Chromium: CI installs it (.ci/run), so there its absence fails the test; elsewhere the
    test skips."""
    found = find_browser()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing on CI: .ci/run installs it")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    return found


#: run in the page once it has loaded: what a reader gets, as JSON in a <pre> for --dump-dom
PAGE_CHECK = """<script>
window.addEventListener("load", () => {
  const images = [...document.images];
  const pre = document.createElement("pre");
  pre.id = "page-check";
  pre.textContent = JSON.stringify({
    images: images.length,
    broken: images.filter(i => !i.complete || i.naturalWidth === 0).map(i => i.alt),
    text: document.body.innerText});
  document.body.appendChild(pre);
});
</script></body>"""


def rendered_page(browser: str, html: Path, tmp_path: Path) -> dict:
    """The report as headless Chromium renders it: image count, images that did not load, and
    the visible text."""
    page = tmp_path / "page.html"
    page.write_text(html.read_text().replace("</body>", PAGE_CHECK))
    dom = subprocess.run([browser, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
                          "--virtual-time-budget=20000", "--dump-dom", page.as_uri()],
                         check=True, capture_output=True, text=True, timeout=120).stdout
    found = re.search(r'<pre id="page-check">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    return json.loads(htmllib.unescape(found.group(1)))


def test_the_report_renders_in_headless_chromium(report, browser, tmp_path):
    from PIL import Image
    import numpy as np
    results, _ = report
    image = Image.open(screenshot(results / "report.html", tmp_path / "report.png"))
    grey = np.asarray(image.convert("L"))
    assert image.height > 5000 and grey.std() > 10  # a long page with content, not blank


@pytest.mark.parametrize("root", ["quick", "committed"])
def test_every_image_loads_and_no_markdown_is_left_raw(report, browser, tmp_path, root):
    html = report[0] / "report.html" if root == "quick" else tmp_path / "report.html"
    if root == "committed":  # the full run's report as this code renders it
        copy = tmp_path / "results"
        shutil.copytree(PROJECT / "results", copy, ignore=shutil.ignore_patterns("report.*"))
        html = Path(build_report(copy).out)
    page = rendered_page(browser, html, tmp_path)
    assert page["images"] >= 17 and page["broken"] == []
    text = page["text"]
    assert "**" not in text and "`" not in text, [
        line for line in text.splitlines() if "**" in line or "`" in line][:5]
    assert not re.search(r"\[\d+(, \d+)*\]|\bTrue\b|\bFalse\b|\bNone\b", text), re.findall(
        r".{40}(?:\[\d+(?:, \d+)*\]|\bTrue\b|\bFalse\b|\bNone\b).{20}", text)[:5]


def test_all_quick_runs_the_pipeline_end_to_end(quick_results, tmp_path, monkeypatch, capsys,
                                                strict_json):
    monkeypatch.chdir(tmp_path)  # a new user's checkout, running the quick start's command
    assert main(["all", "--quick", "--results", "results-quick", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1],
                         parse_constant=lambda token: pytest.fail(f"--json line has {token}"))
    written = strict_json(tmp_path / "results-quick")  # every JSON file the run wrote
    assert {"run.json", "penalty/fit.json", "validation/summary.json",
            "map/summary.json"} <= set(written)
    assert summary["failed_cases"] == 0 and not summary["failed_paths"]
    assert not summary["failed_map_paths"]
    paths = ["report.html", "report.md", "run.json", "penalty/fit.json",
             "validation/errors.csv", "map/errors.csv", "map/summary.png"]
    if importlib.util.find_spec("numba"):  # the DEM stage, an optional extra
        paths.append("dem/biaxial/comparison.csv")
        assert summary["biaxial"] == str(Path("results-quick") / "dem" / "biaxial")
        report = (tmp_path / "results-quick" / "report.md").read_text()
        assert "## The biaxial test in hertz2d's DEM (Section 4.3)" in report
        assert "The biaxial test (Section 4.3, the DEM section below) with the calibrated" in report
    for path in paths:
        assert (tmp_path / "results-quick" / path).stat().st_size > 0
    assert [p.name for p in tmp_path.iterdir()] == ["results-quick"]  # nothing else written
    assert not list(tmp_path.glob("results-quick/**/.*"))  # no temporary file left behind
    markdown = (tmp_path / "results-quick" / "report.md").read_text()
    assert "a QUICK run" in markdown
    # the map's section, which a results root without map/ (the fixture's) leaves out
    assert "## Where each law holds" in markdown and "map/summary.png" in markdown


def test_the_calibrated_section_gives_the_biaxial_differences_as_calibrated_minus_the_other():
    """The pairs are stored in either order: the calibrated law's side is turned to the front, so
    a difference reads as calibrated minus the other law, and the verdict follows the screening."""
    from types import SimpleNamespace

    import pandas as pd

    from hertz2d.calibration.report.calibrated_sections import _biaxial
    from hertz2d.calibration.report.document import Section, Table

    labels = {"simplified-eq33": "Table 1, Eq. 33", "calibrated": "calibrated",
              "linear": "linear spring"}
    differences = pd.DataFrame([
        {"a": "simplified-eq33", "b": "calibrated", "quantity": "peak_deviator",
         "difference": 5e6, "standard_error": 1e7, "exceeds_scatter": False, "paired_p": 0.4},
        {"a": "calibrated", "b": "linear", "quantity": "volumetric_strain",
         "difference": 0.02, "standard_error": 0.005, "exceeds_scatter": True, "paired_p": 0.01}])
    b = SimpleNamespace(laws=labels, differences=differences, label=labels.get, seeds=[1, 2, 3])
    section = Section("calibrated", "calibrated")
    _biaxial(section, b, "calibrated")
    table = next(block.frame for block in section.blocks if isinstance(block, Table))
    assert list(table["against"]) == ["Table 1, Eq. 33", "linear spring"]
    assert list(table["difference"]) == ["-5.00", "+2.00"]  # MPa; volumetric strain in %
    text = section.blocks[-1].text
    assert "no macroscopic number moves beyond the packings' scatter" in text
    assert "1 of 1 differences" in text


def test_the_heldout_convergence_counts_the_energy_verdicts_the_finer_mesh_changes():
    """Energy errors of three cycles at the default level and one level finer: the sentence gives
    the median and largest change of the error and the cycles whose verdict at 10 % flips (one
    here: 0.09 -> 0.12), and draws no conclusion from a change as large as half the limit."""
    from types import SimpleNamespace

    import pandas as pd

    from hertz2d.calibration.report.calibrated_sections import _energy_convergence

    rows = [(case, variant, error) for case, errors in
            {1: (0.02, 0.03), 2: (0.09, 0.12), 3: (0.30, 0.31)}.items()
            for variant, error in zip(("default", "level 3"), errors)]
    errors = pd.DataFrame([{"case": case, "variant": variant, "law": "calibrated",
                            "quantity": "energy per cycle", "max_rel_error": error}
                           for case, variant, error in rows])
    c = SimpleNamespace(label="calibrated", heldout=SimpleNamespace(errors=errors))
    text = _energy_convergence(c, "level 3")
    assert "on the 3 cycles" in text and "a median 1.00 and at most 3.00 points" in text
    assert "within 10 % on 67 % of them at the default level and 33 % at level 3" in text
    assert "(1 verdict(s) change): the energy misses are not the FEM's mesh." in text
    errors.loc[(errors.case == 3) & (errors.variant == "level 3"), "max_rel_error"] = 0.40
    assert _energy_convergence(c, "level 3").endswith("(1 verdict(s) change).")
    assert _energy_convergence(c, "level 4") == ""


def test_a_report_killed_while_writing_leaves_no_temporary_after_the_next_run(quick_results,
                                                                              tmp_path):
    """SIGKILL while the report is written: its temporaries cannot be removed by the killed
    run; the next ``hertz2d report`` into the root removes them (and one planted as a killed
    writer leaves it, a 6 MB ``.report.<pid>-<random>.html`` of a process that is gone), writes
    the report whole, and leaves no temporary of its own."""
    import signal
    import sys
    import time

    root = tmp_path / "results"
    shutil.copytree(quick_results[0], root, ignore=shutil.ignore_patterns("report.*"))
    gone = subprocess.Popen(["true"])
    gone.wait()  # a process id no running process has
    orphan = root / f".report.{gone.pid}-k1lled0x.html"
    orphan.write_bytes(b"<html>" * 1_000_000)
    command = [sys.executable, "-m", "hertz2d.calibration", "report", "--results", str(root)]
    run = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    mine = f".report.{run.pid}-"
    deadline = time.time() + 120
    while run.poll() is None and time.time() < deadline:
        if any(name.startswith(mine) for name in os.listdir(root)):
            break  # the report is being written: kill it there
    run.send_signal(signal.SIGKILL)
    run.wait()
    for name in ("report.html", "report.md"):  # none, or whole: never a half-written file
        assert not (root / name).exists() or (root / name).read_text().rstrip().endswith(
            "</html>" if name.endswith("html") else "")
    rerun = subprocess.run(command, capture_output=True, text=True)
    assert rerun.returncode == 0, rerun.stderr
    assert "Traceback" not in rerun.stderr
    assert (root / "report.html").read_text().rstrip().endswith("</html>")
    assert not [path.name for path in root.rglob(".*")]  # no temporary, the planted one gone
