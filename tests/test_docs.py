"""The documentation site: built with warnings as errors (every cross-reference resolves, every
page's numbers are read from the committed run, every notebook and example runs), then opened in
headless Chromium, which follows every internal link and loads every image.

Sphinx is the ``docs`` extra (install.sh installs it); without it the tests skip, but under
``CI=true`` they fail, as the report's browser test does without Chromium.
"""
import functools
import html as htmllib
import http.server
import importlib.util
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from hertz2d.calibration.report.screenshot import FLAGS

PROJECT = Path(__file__).resolve().parents[1]
DOCS = PROJECT / "docs"


def _missing(what: str, install: str):
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing on CI: {install}")
    pytest.skip(f"{what} is not installed ({install})")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site built from docs/ into a fresh folder: ``(completed process, html folder)``."""
    if importlib.util.find_spec("sphinx") is None or importlib.util.find_spec("myst_nb") is None:
        _missing("Sphinx", "pip install -e '.[docs]'; install.sh does")
    build = tmp_path_factory.mktemp("docs")
    html = build / "html"
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-j", "2", "-d", str(build / "doctrees"),
         "-D", f"nb_execution_cache_path={build / 'jupyter_cache'}", str(DOCS), str(html)],
        cwd=PROJECT, capture_output=True, text=True, timeout=900,
        env={**os.environ, "MPLBACKEND": "Agg"})
    return done, html


def test_the_site_builds_without_a_warning(site):
    done, html = site
    assert done.returncode == 0, (done.stderr or done.stdout)[-6000:]
    assert (html / "index.html").exists()


def test_findings_are_rendered_from_the_committed_run(site):
    """A stage page shows the report's section, computed from results/ (its tables and figures),
    and the value the getting-started page quotes is the committed run's."""
    done, html = site
    assert done.returncode == 0
    run = json.loads((PROJECT / "results" / "run.json").read_text())
    started = (html / "getting-started.html").read_text()
    assert htmllib.escape(run["command"]) in started and run["date"] in started
    penalty = (html / "guide" / "penalty.html").read_text()
    assert penalty.count("<table") >= 3 and "fig8_grid" in penalty
    assert "penalty/grid.csv" in penalty  # the outputs, described from the files


@pytest.fixture(scope="module")
def browser():
    from hertz2d.calibration.report.screenshot import find_browser
    found = find_browser()
    if found is None:
        _missing("Chromium", "apt-get install chromium; .ci/run installs it")
    return found


#: run by Chromium in a page of the served site: fetches every page, follows every link within
#: the site (the file must exist, an anchor must name an element of it), loads every image, looks
#: for Markdown left unparsed in the guide's pages, and writes what it found as JSON into a <pre>
#: for --dump-dom
CHECK = """<!doctype html><html><body><script>
const PAGES = %s;
const cache = new Map();
async function load(url) {
  if (!cache.has(url)) cache.set(url, (async () => {
    const response = await fetch(url);
    if (!response.ok) return null;
    const type = response.headers.get("content-type") || "";
    if (!type.includes("html")) return "file";
    return new DOMParser().parseFromString(await response.text(), "text/html");
  })());
  return cache.get(url);
}
(async () => {
  const broken = [], anchors = [], raw = [], images = new Map();
  let links = 0;
  for (const page of PAGES) {
    const url = new URL(page, location.href).href;
    const doc = await load(url);
    if (doc === null || doc === "file") { broken.push(page); continue; }
    for (const a of doc.querySelectorAll("a[href]")) {
      const href = a.getAttribute("href");
      if (/^(mailto|javascript):/.test(href)) continue;
      const target = new URL(href, url);
      if (target.origin !== location.origin) continue;
      links += 1;
      const file = target.href.split("#")[0];
      const found = await load(file);
      if (found === null) { broken.push(page + " -> " + href); continue; }
      const id = decodeURIComponent(target.hash.slice(1));
      if (id && found !== "file" && !found.getElementById(id)) anchors.push(page + " -> " + href);
    }
    for (const img of doc.querySelectorAll("img[src]"))
      images.set(new URL(img.getAttribute("src"), url).href, page);
    // the findings are the report's Markdown, parsed by the page: none may be left as text
    const article = doc.querySelector("article");
    if (article && page.startsWith("guide/")) {
      const prose = article.cloneNode(true);
      prose.querySelectorAll("pre, code").forEach(node => node.remove());
      if (prose.textContent.includes("**")) raw.push(page);
    }
  }
  const badImages = [];
  await Promise.all([...images].map(([src, page]) => new Promise(done => {
    const image = new Image();
    image.onload = () => { if (!image.naturalWidth) badImages.push(page + ": " + src); done(); };
    image.onerror = () => { badImages.push(page + ": " + src); done(); };
    image.src = src;
  })));
  const pre = document.createElement("pre");
  pre.id = "site-check";
  pre.textContent = JSON.stringify({pages: PAGES.length, links, images: images.size, broken,
                                    anchors, raw, badImages});
  document.body.appendChild(pre);
})();
</script></body></html>"""


def served(folder: Path):
    """A loopback HTTP server of ``folder`` in a thread: ``(server, base URL)``."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # no line per request on stderr
            pass

    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def test_every_link_resolves_and_every_image_loads_in_chromium(site, browser, tmp_path):
    done, html = site
    assert done.returncode == 0
    pages = sorted(p.relative_to(html).as_posix() for p in html.rglob("*.html"))
    (html / "site-check.html").write_text(CHECK % json.dumps(pages))
    server, base = served(html)
    try:
        dom = subprocess.run([browser, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
                              "--virtual-time-budget=600000", "--dump-dom",
                              base + "site-check.html"],
                             check=True, capture_output=True, text=True, timeout=300).stdout
    finally:
        server.shutdown()
    found = re.search(r'<pre id="site-check">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    report = json.loads(htmllib.unescape(found.group(1)))
    assert report["pages"] == len(pages) and report["links"] > 10 * len(pages)
    assert report["images"] >= 40  # the stage pages' figures from results/
    assert report["broken"] == [] and report["anchors"] == [], report
    assert report["badImages"] == [] and report["raw"] == [], report
