"""Sphinx extension: what the committed run found, rendered from its files, never typed.

A page states a finding by naming where it comes from; the build reads the file and writes the
number, so a rerun of the pipeline updates the docs and a page cannot drift from the run.

Directives (MyST syntax shown):

``{report-section} ANCHOR``
    One section of the report (:func:`hertz2d.calibration.report.report_sections`): its paragraphs,
    tables with captions and figures, computed from the results root by the same code that writes
    ``results/report.html``. ANCHOR is the report's anchor (``penalty``, ``map``, ...).
``{results-files} FOLDER``
    The files a stage wrote under the results root: a CSV's columns, a JSON file's keys, a
    figure's name, read from the files themselves.
``{json-table} FILE:KEY.PATH``
    The entries of one object of a results JSON file, a row each (a ``[low, high]`` pair as a
    range): the calibrated law's training ranges, say.
``{benchmark-table} FILE[:KEY]``
    The rows of a benchmark's file (``benchmarks/results/FILE``, written by
    ``benchmarks/record.py``; KEY another list of rows in it), ``:columns:`` a semicolon-separated
    choice of them, ``:where: COLUMN=VALUE`` the rows to show; the caption (the directive's
    content) ends with the run's provenance: its command, date, machine and load average.
``{laws-table}``
    The contact laws of :data:`hertz2d.calibration.laws.LAWS`: ``--law`` name, class, load paths, and
    whether the DEM engine and the exports run it.
``{example} SCRIPT``
    An example script (``docs/examples/``): its source, then what it prints, run at build time
    (the tests run the same scripts, ``tests/test_examples.py``).

Roles:

``{result}`FILE:KEY.PATH[/DIVISOR][:FORMAT]```
    One value of a JSON file under the results root (``run.json:seconds/60:.1f`` is the
    committed run's wall time in minutes, one decimal).
``{constant}`MODULE.NAME[:FORMAT]```
    A constant of the code (a limit, a default), as the code defines it.
``{biaxial-schedule}`quick|paper```
    A biaxial test's discs, box and stage durations, from :class:`hertz2d.dem.biaxial.BiaxialSettings`.

The API pages (``docs/api/generated/``, git-ignored) are written when a build starts: one page per
package of ``hertz2d_api_packages``, with its own docstring and members and then each of its modules
(a page per module would make every page's navigation list some 150 modules, the build's
largest cost).

``hertz2d_results`` in ``conf.py`` names the results root (the repository's ``results/``),
``hertz2d_benchmarks`` the benchmarks' (``benchmarks/results/``).
"""
from __future__ import annotations

import functools
import json
import os
import subprocess
from pathlib import Path

import pandas as pd
from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxRole

LOGGER = logging.getLogger(__name__)


# -- reading the results root --------------------------------------------------------------------

@functools.cache
def _sections(results: str) -> dict:
    """The report's sections of ``results`` by anchor (computed once per build)."""
    from hertz2d.calibration.report import report_sections
    return {section.anchor: section for section in report_sections(Path(results))}


def _json_entry(results: Path, file: str, path: str):
    value = json.loads((results / file).read_text())
    for key in path.split(".") if path else ():
        value = value[int(key)] if isinstance(value, list) else value[key]
    return value


def _json_value(results: Path, spec: str):
    """``FILE:KEY.PATH[/DIVISOR][:FORMAT]`` -> the formatted value (see the module docstring)."""
    parts = spec.split(":")
    if len(parts) not in (2, 3):
        raise ValueError(f"{spec!r} is not FILE:KEY.PATH[/DIVISOR][:FORMAT]")
    file, path, *fmt = parts
    path, _, divisor = path.partition("/")
    value = _json_entry(results, file, path)
    if divisor:
        value = value / float(divisor)
    return format(value, fmt[0]) if fmt else str(value)


def _committed_files(folder: Path) -> list[Path]:
    """The files under ``folder`` that git tracks (the committed run), else every file there."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--", "."], cwd=folder, check=True,
                                capture_output=True, text=True).stdout.split("\0")
        files = [folder / name for name in listed if name]
    except (OSError, subprocess.CalledProcessError):
        files = []
    return sorted(files or (p for p in folder.rglob("*") if p.is_file()))


def _describe(path: Path) -> str:
    """What a results file holds, read from the file: a CSV's columns, a JSON file's keys."""
    if path.suffix == ".csv":
        columns = pd.read_csv(path, nrows=0).columns
        rows = sum(1 for _ in path.open()) - 1
        return f"{rows} rows; columns " + ", ".join(f"`{c}`" for c in columns)
    if path.suffix == ".json":
        data = json.loads(path.read_text())
        return "keys " + ", ".join(f"`{k}`" for k in data) if isinstance(data, dict) else "JSON"
    if path.suffix == ".png":
        return "figure"
    return path.suffix.lstrip(".").upper() or "file"


# -- Markdown that the page's own parser (MyST) reads -----------------------------------------

def _cell(value) -> str:
    if isinstance(value, float):
        return "-" if pd.isna(value) else f"{value:.4g}"
    return str(value).replace("|", "\\|").replace("\n", " ")


def _table(frame: pd.DataFrame, caption: str) -> list[str]:
    header = "| " + " | ".join(_cell(c) for c in frame.columns) + " |"
    rule = "|" + "---|" * len(frame.columns)
    rows = ["| " + " | ".join(_cell(v) for v in row) + " |"
            for row in frame.itertuples(index=False)]
    return [f":::{{table}} {caption}", ":align: left", "", header, rule, *rows, ":::", ""]


def _figure(path: Path, caption: str, document: Path) -> list[str]:
    alt = caption.replace("**", "").replace("`", "").replace("\n", " ")[:200]
    return [f":::{{figure}} {os.path.relpath(path, document.parent)}",
            f":alt: {json.dumps(alt)}",  # a YAML string, whatever the caption starts with
            "", caption, ":::", ""]


def section_markdown(section, document: Path) -> list[str]:
    """A report section's blocks as MyST lines (paragraphs, captioned tables and figures)."""
    from hertz2d.calibration.report.document import Figure, Paragraph, Table
    lines: list[str] = []
    for block in section.blocks:
        if isinstance(block, Paragraph):
            lines += [block.text, ""]
        elif isinstance(block, Table):
            lines += _table(block.frame, block.caption)
        elif isinstance(block, Figure):
            lines += _figure(block.path, block.caption, document)
    return lines


class _MarkdownDirective(SphinxDirective):
    """A directive whose output is Markdown parsed in place by the page's parser."""

    def results(self) -> Path:
        return Path(self.config.hertz2d_results)

    def markdown(self) -> list[str]:
        raise NotImplementedError

    def run(self):
        container = nodes.container()
        self.state.nested_parse(StringList(self.markdown(), source=self.get_source_info()[0]),
                                self.content_offset, container, match_titles=True)
        return container.children


class ReportSection(_MarkdownDirective):
    """``{report-section} ANCHOR``: one report section, computed from the results root."""

    required_arguments = 1

    def markdown(self) -> list[str]:
        results = self.results()
        sections = _sections(str(results))
        anchor = self.arguments[0]
        if anchor not in sections:
            raise self.error(f"report-section: no section {anchor!r} in {results} "
                             f"(there are: {', '.join(sections)})")
        self.env.note_dependency(str(results / "run.json"))
        return section_markdown(sections[anchor], Path(self.env.doc2path(self.env.docname)))


class ResultsFiles(_MarkdownDirective):
    """``{results-files} FOLDER``: the committed files of a stage, described from themselves."""

    required_arguments = 1
    option_spec = {"exclude": directives.unchanged}

    def markdown(self) -> list[str]:
        folder = self.results() / self.arguments[0]
        if not folder.is_dir():
            raise self.error(f"results-files: {folder} is not a folder")
        exclude = [part.strip() for part in self.options.get("exclude", "").split(",") if part]
        rows = []
        for path in _committed_files(folder):
            relative = path.relative_to(self.results()).as_posix()
            if any(part in relative for part in exclude):
                continue
            rows.append({"file": f"`{relative}`", "holds": _describe(path)})
        if not rows:
            raise self.error(f"results-files: nothing committed under {folder}")
        return _table(pd.DataFrame(rows), f"The files under `{self.arguments[0]}/` of the "
                                           "committed run, described from the files themselves.")


class JsonTable(_MarkdownDirective):
    """``{json-table} FILE:KEY.PATH``: one JSON object of a results file as a table."""

    required_arguments = 1
    optional_arguments = 0
    final_argument_whitespace = True
    has_content = True

    def markdown(self) -> list[str]:
        file, _, path = self.arguments[0].partition(":")
        try:
            entries = _json_entry(self.results(), file, path)
        except (OSError, ValueError, KeyError, IndexError, TypeError) as error:
            raise self.error(f"json-table: {self.arguments[0]!r}: {error}")
        if not isinstance(entries, dict):
            raise self.error(f"json-table: {self.arguments[0]!r} is not an object")
        self.env.note_dependency(str(self.results() / file))

        def shown(value):
            if isinstance(value, list) and len(value) == 2:
                return f"{value[0]:g} to {value[1]:g}"
            return _cell(value)

        rows = [{"": f"`{key}`", "value": shown(value)} for key, value in entries.items()]
        caption = " ".join(self.content) or f"`{path}` of `{file}`."
        return _table(pd.DataFrame(rows), caption)


class BenchmarkTable(_MarkdownDirective):
    """``{benchmark-table} FILE[:KEY]``: a benchmark's rows as a table, with their provenance."""

    required_arguments = 1
    has_content = True
    option_spec = {"columns": directives.unchanged, "where": directives.unchanged}

    def markdown(self) -> list[str]:
        file, _, key = self.arguments[0].partition(":")
        path = Path(self.config.hertz2d_benchmarks) / file
        try:
            data = json.loads(path.read_text())
            frame = pd.DataFrame(data[key or "rows"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise self.error(f"benchmark-table: {self.arguments[0]!r}: {error}")
        self.env.note_dependency(str(path))
        if "where" in self.options:
            column, _, value = self.options["where"].partition("=")
            if column.strip() not in frame:
                raise self.error(f"benchmark-table: no column {column.strip()!r} in {file}")
            frame = frame[frame[column.strip()].astype(str) == value.strip()]
        if "columns" in self.options:
            columns = [c.strip() for c in self.options["columns"].split(";") if c.strip()]
            missing = [c for c in columns if c not in frame]
            if missing:
                raise self.error(f"benchmark-table: no column {missing[0]!r} in {file}")
            frame = frame[columns]
        if frame.empty:
            raise self.error(f"benchmark-table: no rows of {self.arguments[0]!r} to show")
        load = data.get("load_average", {})
        provenance = (f"`{data['command']}`, {data['date'][:10]}, {data['machine']['cpus']} "
                      f"cores" + (f", load average {load['before'][0]:g} before and "
                                  f"{load['after'][0]:g} after" if load else "") + ".")
        return _table(frame.fillna(""), " ".join(self.content) + " " + provenance)


class LawsTable(_MarkdownDirective):
    """``{laws-table}``: every law of the catalogue, its class, the paths it runs, whether it
    declares itself admissible (``ContactLaw.admissible``) and where else it runs (the DEM, the
    exports: the registry's declarations), read from the code; ``:law: NAME`` shows one law's
    row."""

    option_spec = {"law": directives.unchanged}

    def markdown(self) -> list[str]:
        from hertz2d.calibration.laws import LAWS, registry

        def mark(flag: bool) -> str:
            return "yes" if flag else "-"

        rows = [{"law": f"[`{name}`]({name}.md)",
                 "class": f"{{class}}`~{law.__module__}.{law.__qualname__}`",
                 "load paths (`model`, `validate`, `map`)": ", ".join(f"`{p}`" for p in law.paths),
                 "admissible (no energy from closed paths)": {
                     True: "yes" if law.varying_approach else "yes (constant N only)",
                     False: "no", None: "- (monotonic loads)"}[law.admissible],
                 "DEM (`hertz2d dem`)": mark("dem" in registry.entry(name).engines),
                 "exports (`export-law`)": ", ".join(registry.entry(name).exports) or "-"}
                for name, law in LAWS.items() if self.options.get("law", name) == name]
        if not rows:
            raise self.error(f"laws-table: no law {self.options['law']!r} in hertz2d.calibration.laws.LAWS")
        return _table(pd.DataFrame(rows), "The laws of `hertz2d.calibration.laws.LAWS`, where each runs: "
                                          "read from the law registry "
                                          "(`hertz2d.calibration.laws.registry`: the engines and exports "
                                          "each law declares) and the law classes (what each "
                                          "declares of its admissibility, which "
                                          "`tests/test_admissibility.py` holds it to).")


class Example(SphinxDirective):
    """``{example} SCRIPT``: an example's source and, run now, its output."""

    required_arguments = 1

    def run(self):
        import sys
        import tempfile
        relative, script = self.env.relfn2path(self.arguments[0])
        script = Path(script)
        if not script.is_file():
            raise self.error(f"example: no script {script}")
        self.env.note_dependency(relative)
        with tempfile.TemporaryDirectory() as scratch:  # nothing written beside the docs
            done = subprocess.run([sys.executable, str(script)], cwd=scratch, text=True,
                                  capture_output=True, timeout=600,
                                  env={**os.environ, "MPLBACKEND": "Agg"})
        if done.returncode != 0:
            raise self.error(f"example {script.name} failed ({done.returncode}):\n"
                             f"{done.stderr[-3000:]}")
        from sphinx.directives.code import container_wrapper
        source = nodes.literal_block(script.read_text(), script.read_text(), language="python")
        self.set_source_info(source)
        source = container_wrapper(self, source, f"docs/examples/{script.name}")
        output = nodes.literal_block(done.stdout, done.stdout, language="text")
        title = nodes.rubric(text=f"What python {script.name} prints")
        return [source, title, output]


class BiaxialScheduleRole(SphinxRole):
    """``{biaxial-schedule}`quick|paper```: the test's packing and stages as the code runs them."""

    def run(self):
        from hertz2d.dem.biaxial import BiaxialSettings
        make = {"quick": BiaxialSettings.quick, "paper": BiaxialSettings}.get(self.text)
        if make is None:
            message = self.inliner.reporter.error(
                f"biaxial-schedule: {self.text!r} is not quick or paper", line=self.lineno)
            return [self.inliner.problematic(self.rawtext, self.rawtext, message)], [message]
        s = make()
        return [nodes.Text(f"{s.discs} discs of {s.d_min:g}-{s.d_max:g} m in a {s.width:g} x "
                           f"{s.height:g} m box, {s.settle:g} s settling, {s.isotropic:g} s "
                           f"isotropic, {s.shear:g} s shear")], []


class ResultRole(SphinxRole):
    """``{result}`FILE:KEY.PATH[/DIVISOR][:FORMAT]```: one value of a results JSON file."""

    def run(self):
        results = Path(self.config.hertz2d_results)
        try:
            text = _json_value(results, self.text)
        except (OSError, ValueError, KeyError, IndexError, TypeError) as error:
            message = self.inliner.reporter.error(
                f"result: {self.text!r} cannot be read from {results}: {error}", line=self.lineno)
            return [self.inliner.problematic(self.rawtext, self.rawtext, message)], [message]
        self.env.note_dependency(str(results / self.text.split(":")[0]))
        return [nodes.Text(text)], []


# -- the API pages ----------------------------------------------------------------------------------

AUTOMODULE = """.. automodule:: {name}
   :members:
   :undoc-members:
   :show-inheritance:
   :ignore-module-all:
"""


def _package_page(package: str) -> tuple[str, list[str]]:
    """The API page of ``package``: its docstring and members, then each of its modules; and the
    names of its subpackages, which get pages of their own."""
    import importlib
    import pkgutil
    parent = importlib.import_module(package)
    modules, packages = [], []
    for info in pkgutil.iter_modules(parent.__path__, prefix=package + "."):
        if info.name.endswith(".__main__"):
            continue  # the command line's entry point
        (packages if info.ispkg else modules).append(info.name)
    lines = [package, "=" * len(package), "", AUTOMODULE.format(name=package)]
    if packages:
        lines += [".. toctree::", "   :maxdepth: 1", "", *(f"   {p}" for p in packages), ""]
    for module in modules:
        lines += [module, "-" * len(module), "", AUTOMODULE.format(name=module)]
    return "\n".join(lines), packages


def _write_api_pages(app) -> None:
    """``builder-inited``: the API pages, rewritten only where they changed (an unchanged page
    keeps the incremental build incremental)."""
    folder = Path(app.srcdir) / "api" / "generated"
    folder.mkdir(parents=True, exist_ok=True)
    queue, written = list(app.config.hertz2d_api_packages), set()
    while queue:
        package = queue.pop(0)
        text, subpackages = _package_page(package)
        page = folder / f"{package}.rst"
        if not page.exists() or page.read_text() != text:
            page.write_text(text)
        written.add(page.name)
        queue += subpackages
    for stale in folder.glob("*.rst"):  # a package that no longer exists
        if stale.name not in written:
            stale.unlink()


# -- cross-references to names a module imports -------------------------------------------------

def _defining_name(env, module: str, target: str) -> str | None:
    """The documented name of what ``target`` means inside ``module``: a docstring may name an
    object its module imports (``InputError`` in a stage, ``hertz2d.calibration.laws.ContactPair``
    re-exported by the law package); it is documented once, where it is defined."""
    import importlib
    objects = env.get_domain("py").objects
    for candidate in (f"{module}.{target}" if module else None, target):
        if not candidate:
            continue
        parts = candidate.split(".")
        for split in range(len(parts) - 1, 0, -1):  # the longest importable module prefix
            try:
                value = importlib.import_module(".".join(parts[:split]))
            except ImportError:
                continue
            try:
                for attribute in parts[split:]:
                    value = getattr(value, attribute)
            except AttributeError:
                break
            function = getattr(value, "fget", value)  # a property: its getter's name
            owner = getattr(function, "__module__", None)
            qualname = getattr(function, "__qualname__", None)
            if owner and qualname and f"{owner}.{qualname}" in objects:
                return f"{owner}.{qualname}"
            # data (numbers, tuples, dicts): the documented name bound to the same object
            last = parts[-1]
            for name in objects:
                if name.rsplit(".", 1)[-1] != last or name == candidate:
                    continue
                home, _, attribute = name.rpartition(".")
                try:
                    if getattr(importlib.import_module(home), attribute) is value:
                        return name
                except (ImportError, AttributeError):
                    continue
            break
    return None


#: the import aliases annotations are written with (``np.ndarray`` where autodoc cannot evaluate)
ALIASES = {"np.": "numpy.", "pd.": "pandas.", "plt.": "matplotlib.pyplot."}


def _resolve_imported(app, env, node, contnode):
    """``missing-reference``: resolve a Python reference through the module's imports."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip("~.")
    for alias, name in ALIASES.items():
        if target.startswith(alias):
            from sphinx.ext.intersphinx import missing_reference
            aliased = node.deepcopy()
            aliased["reftarget"] = name + target[len(alias):]
            return missing_reference(app, env, aliased, contnode)
    module = node.get("py:module") or ""
    name = _defining_name(env, module, target)
    if name is None and "." not in target:
        # a module's first line shown in its package's table, away from its own module: the
        # one documented object of that name, preferring the ones under the current package
        matches = [n for n in env.get_domain("py").objects if n.endswith("." + target)]
        near = [n for n in matches if module and n.startswith(module + ".")]
        name = (near or matches)[0] if len(near or matches) == 1 else None
    if name is None:
        return None
    return env.get_domain("py").resolve_xref(env, node["refdoc"], app.builder, node["reftype"],
                                             name, node, contnode)


def _napoleon_without_attributes(app):
    """napoleon reads an attribute's doc comment ``#: the targets: ...`` as ``TYPE: text``; the
    project's doc comments are prose, so attributes and data are left as written."""
    from sphinx.ext import napoleon
    listeners = app.events.listeners["autodoc-process-docstring"]
    for listener in list(listeners):
        if listener.handler is napoleon._process_docstring:
            app.disconnect(listener.id)

            def process(app, what, name, obj, options, lines, _napoleon=listener.handler):
                if what not in ("attribute", "data", "property"):
                    _napoleon(app, what, name, obj, options, lines)

            app.connect("autodoc-process-docstring", process, priority=listener.priority)


class ConstRole(SphinxRole):
    """``{constant}`MODULE.NAME[:FORMAT]```: a constant of the code, formatted."""

    def run(self):
        import importlib
        name, _, fmt = self.text.partition(":")
        module, _, attribute = name.rpartition(".")
        try:
            value = getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError, ValueError) as error:
            message = self.inliner.reporter.error(f"constant: {name!r}: {error}", line=self.lineno)
            return [self.inliner.problematic(self.rawtext, self.rawtext, message)], [message]
        return [nodes.Text(format(value, fmt) if fmt else str(value))], []


def setup(app):
    app.setup_extension("sphinx.ext.napoleon")
    _napoleon_without_attributes(app)
    app.connect("missing-reference", _resolve_imported)
    app.add_config_value("hertz2d_results", "results", "env")
    app.add_config_value("hertz2d_benchmarks", "benchmarks/results", "env")
    app.add_config_value("hertz2d_api_packages", [], "env")
    app.connect("builder-inited", _write_api_pages)
    app.add_directive("report-section", ReportSection)
    app.add_directive("results-files", ResultsFiles)
    app.add_directive("json-table", JsonTable)
    app.add_directive("benchmark-table", BenchmarkTable)
    app.add_directive("laws-table", LawsTable)
    app.add_directive("example", Example)
    app.add_role("biaxial-schedule", BiaxialScheduleRole())
    app.add_role("result", ResultRole())
    app.add_role("constant", ConstRole())
    return {"parallel_read_safe": True, "parallel_write_safe": True}
