"""Help texts that name values of the library (the laws and the paths they run, the supports, the
mesh levels, the map's cost model), built only when a help page is printed.

The command line parses its arguments without importing any stage, the law library or the FEM
(``hertz2d --help`` and a rejected argument answer at once); a flag whose help needs such a value
is added with :func:`add_deferred`, and its default, when the library defines it, is None and
filled in by the command when it runs.
"""
from __future__ import annotations

import argparse
from collections.abc import Callable


class _DeferredHelp(argparse.Action):
    """``store`` with a help text built by ``text()`` each time the help is formatted."""

    def __init__(self, *args, text: Callable[[], str], **kwargs):
        self._text = text
        super().__init__(*args, **kwargs)

    @property
    def help(self) -> str:
        return self._text()

    @help.setter
    def help(self, value) -> None:  # argparse assigns its own; the deferred text wins
        pass

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)


def add_deferred(parser: argparse.ArgumentParser, *flags: str, text: Callable[[], str],
                 **kwargs) -> None:
    """``parser.add_argument(*flags, **kwargs)`` whose help is ``text()``, called when the help
    is printed."""
    parser.add_argument(*flags, action=_DeferredHelp, text=text, **kwargs)
