"""The report's content model: sections of paragraphs, tables and figures, in reading order.

Builders in :mod:`hertz2d.calibration.report.penalty_sections`,
:mod:`hertz2d.calibration.report.validation_sections`, :mod:`hertz2d.calibration.report.map_sections` and
:mod:`hertz2d.calibration.report.dem_sections` produce these from a results root;
:mod:`hertz2d.calibration.report.render` turns the same content into HTML and Markdown.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd


def listed(values) -> str:
    """``1, 2 and 3`` (``1``; ``1 and 2``): values in a sentence, never a Python list."""
    words = [str(value) for value in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


@dataclass(frozen=True)
class Paragraph:
    """Markdown text (``**bold**``, code in backticks, lists): the HTML renders it."""

    text: str


@dataclass(frozen=True)
class Table:
    frame: pd.DataFrame
    caption: str


@dataclass(frozen=True)
class Figure:
    path: Path
    caption: str


@dataclass
class Section:
    title: str
    anchor: str
    blocks: list = field(default_factory=list)

    def paragraph(self, text: str) -> "Section":
        self.blocks.append(Paragraph(text))
        return self

    def table(self, frame: pd.DataFrame, caption: str) -> "Section":
        self.blocks.append(Table(frame, caption))
        return self

    def figure(self, path, caption: str) -> "Section":
        self.blocks.append(Figure(Path(path), caption))
        return self
