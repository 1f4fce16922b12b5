"""The ``hertz2d`` command line (also ``python -m calibration``).

Each sub-command lives in :mod:`calibration.commands` as a module with ``register(subparsers)``
and ``run(args) -> dict``. This module owns the contract of DESIGN.md: progress on stderr, a JSON
summary as the last stdout line with ``--json``, exit 0 on success and exit 2 with one line naming
the bad value on bad input.
"""
from __future__ import annotations

import argparse
import json
import sys

import matplotlib

from calibration.atomic import json_default
from calibration.commands import COMMANDS
from meshes.checks import InputError


class _OneLineParser(argparse.ArgumentParser):
    """argparse that reports a bad flag in one line (no usage dump) and exits 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(prog="hertz2d", description=__doc__.splitlines()[0])
    common = _OneLineParser(add_help=False)
    common.add_argument("--json", action="store_true",
                        help="print one JSON object summarising the run as the last stdout line")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_OneLineParser)
    for command in COMMANDS:
        command.register(sub, parents=[common])
    return parser


def _print_summary(summary: dict) -> None:
    for key, value in summary.items():
        print(f"{key}: {value}")


def main(argv: list[str] | None = None) -> int:
    matplotlib.use("Agg")  # a batch program: figures go to files, never to a window
    args = build_parser().parse_args(argv)
    try:
        summary = args.run(args)
    except InputError as error:
        print(f"hertz2d {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"hertz2d {args.command}: interrupted; finished work is kept", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(summary, default=json_default))
    else:
        _print_summary(summary)
    return 0
