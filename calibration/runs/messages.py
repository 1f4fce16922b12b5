"""What reaches the user on stderr besides progress: one ``hertz2d: warning:`` line per warning.

The library's own warnings go to the ``hertz2d`` logger (a corrupt cache moved aside, a stage
skipped). :func:`one_line_warnings` prints them one line each and routes every Python warning
the same way: a numpy floating-point warning ("overflow encountered in multiply") that the checks
before the arithmetic did not prevent reaches the user as ``hertz2d: warning: RuntimeWarning:
overflow encountered in multiply (hertz2d.py:120)``, never as numpy's two raw lines. The command
line installs it, and so does every local worker process (:mod:`hertz2d.calibration.runs.executors`).
"""
from __future__ import annotations

import logging
import os
import sys
import warnings

PREFIX = "hertz2d: warning: "


def _as_line(message, category, filename, lineno, file=None, line=None) -> None:
    text = " ".join(str(message).split())
    logging.getLogger("hertz2d").warning(
        f"{category.__name__}: {text} ({os.path.basename(filename)}:{lineno})")


class _Stderr(logging.StreamHandler):
    """A handler that writes to whatever ``sys.stderr`` is when a record comes (a caller that
    redirects it, as a test harness does, gets the lines)."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:
        pass


def one_line_warnings() -> None:
    """The ``hertz2d`` logger's records, and every Python warning, as one line each on stderr
    (installed once per process)."""
    log = logging.getLogger("hertz2d")
    if not any(getattr(h, "hertz2d_cli", False) for h in log.handlers):
        handler = _Stderr()
        handler.setFormatter(logging.Formatter(PREFIX + "%(message)s"))
        handler.hertz2d_cli = True
        log.addHandler(handler)
        log.setLevel(logging.WARNING)
        log.propagate = False
    warnings.showwarning = _as_line
