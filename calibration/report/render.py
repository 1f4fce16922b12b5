"""Render report sections to one self-contained HTML file (figures embedded) and to Markdown.

The sections' text is Markdown (``**bold**``, `` `code` ``, lists, links): the Markdown twin
keeps it, the HTML renders it with markdown-it-py (CommonMark; raw HTML in the text is escaped,
not passed through), so no ``**`` or backtick reaches the page.
"""
from __future__ import annotations

import base64
import html
import os
from pathlib import Path

import jinja2
import markupsafe
import pandas as pd
from markdown_it import MarkdownIt

from hertz2d.calibration.report.document import Figure, Paragraph, Section, Table

_TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("hertz2d.calibration.report", "templates"),
    autoescape=jinja2.select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)
_MARKDOWN = MarkdownIt("commonmark", {"html": False})


def _percent(share: float, digits: int = 1) -> str:
    return f"{100 * share:.{digits}f} %"


def _within(distance: float) -> str:
    return "exactly (to rounding)" if distance < 1e-14 else f"within {distance:.1e}"


def _scientific(value: float) -> str:
    return f"{value:g}".replace("e+0", "e").replace("e+", "e").replace("e-0", "e-")


#: the sections' prose: Markdown templates of one macro per paragraph (not escaped: the
#: renderers escape what the Markdown holds)
_PROSE = jinja2.Environment(loader=jinja2.PackageLoader("hertz2d.calibration.report", "templates"),
                            autoescape=False, undefined=jinja2.StrictUndefined)
_PROSE.filters.update(pct=_percent, within=_within, sci=_scientific)


class SectionText:
    """A section's prose template: ``text.name(...)`` renders its macro ``name`` as one
    paragraph (the template's line breaks joined)."""

    def __init__(self, template: str):
        self._module = _PROSE.get_template(template).module

    def __getattr__(self, name: str):
        macro = getattr(self._module, name)
        return lambda *args: " ".join(str(macro(*args)).split())


def section_text(template: str) -> SectionText:
    return SectionText(template)


def markdown_block(text: str) -> markupsafe.Markup:
    """A paragraph's Markdown as HTML block elements (``<p>``, ``<ul>``...)."""
    return markupsafe.Markup(_MARKDOWN.render(text))


def markdown_inline(text: str) -> markupsafe.Markup:
    """A caption's or a cell's Markdown as inline HTML (no enclosing ``<p>``)."""
    return markupsafe.Markup(_MARKDOWN.renderInline(text))


def _format(value) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _html_table(frame: pd.DataFrame) -> str:
    return frame.to_html(index=False, border=0, classes="data", na_rep="-",
                         float_format=lambda v: f"{v:.4g}", escape=True)


def _data_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode()


def to_html(title: str, sections: list[Section], provenance: dict) -> str:
    blocks = []
    for section in sections:
        rendered = []
        for block in section.blocks:
            if isinstance(block, Paragraph):
                rendered.append(("paragraph", markdown_block(block.text)))
            elif isinstance(block, Table):
                rendered.append(("table", (_html_table(block.frame),
                                           markdown_inline(block.caption))))
            elif isinstance(block, Figure):
                rendered.append(("figure", (_data_uri(block.path),
                                            markdown_inline(block.caption), _plain(block.caption))))
        blocks.append((section, rendered))
    return _TEMPLATES.get_template("report.html.j2").render(
        title=title, sections=blocks, provenance=list(_flatten(provenance)))


def _plain(text: str) -> str:
    """A caption without its Markdown marks, for an image's ``alt`` text."""
    return text.replace("**", "").replace("`", "")


def _markdown_table(frame: pd.DataFrame) -> str:
    """A pipe table; a ``|`` in a header or a cell (``|beta|``) is escaped, not a column's edge."""
    header = "| " + " | ".join(str(c).replace("|", "\\|") for c in frame.columns) + " |"
    rule = "|" + "---|" * len(frame.columns)
    rows = ["| " + " | ".join("-" if pd.isna(v) else _format(v).replace("|", "\\|")
                             for v in row) + " |"
            for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *rows])


def to_markdown(title: str, sections: list[Section], provenance: dict, relative_to: Path) -> str:
    lines = [f"# {title}", ""]
    lines += [f"- [{s.title}](#{s.anchor})" for s in sections] + [""]
    for section in sections:
        lines += [f'<a id="{section.anchor}"></a>', "", f"## {section.title}", ""]
        for block in section.blocks:
            if isinstance(block, Paragraph):
                lines += [block.text, ""]
            elif isinstance(block, Table):
                lines += [f"*{block.caption}*", "", _markdown_table(block.frame), ""]
            elif isinstance(block, Figure):
                link = os.path.relpath(block.path, relative_to)
                lines += [f"![{html.escape(block.caption[:60])}]({link})", "",
                          f"*{block.caption}*", ""]
    lines += ["## Provenance", "", *[f"- {k}: {v}" for k, v in _flatten(provenance)], ""]
    return "\n".join(lines)


def _flatten(data: dict, prefix: str = ""):
    """``(key path, value)`` pairs of a nested dict, keys joined by ': '."""
    for key, value in data.items():
        if isinstance(value, dict):
            yield from _flatten(value, f"{prefix}{key}: ")
        else:
            yield f"{prefix}{key}", value
