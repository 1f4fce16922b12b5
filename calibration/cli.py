"""The ``hertz2d`` command line (also ``python -m hertz2d.calibration``).

Each sub-command is a module of :mod:`hertz2d.calibration.commands` (listed in
:data:`hertz2d.calibration.commands.COMMANDS`). This module owns the contract every command keeps (the
documentation's command-line page, ``docs/cli.md``): outputs under ``--results DIR`` (never quick output over a
full run, :mod:`hertz2d.calibration.runs.run_record`), progress on stderr, a JSON summary as the last
stdout line with ``--json``, exit 0 on success, exit 2 with one line naming the bad value on bad
input (no traceback), exit 1 with one line naming the file and the errno when a file cannot be
written (disk full, permission), exit 130 on Ctrl-C with finished work kept. Warnings (a corrupt
cache moved aside, say) are one ``hertz2d: warning:`` line each on stderr.
"""
from __future__ import annotations

import argparse
import errno
import sys

from hertz2d.calibration.commands import COMMANDS
from hertz2d.calibration.runs import json_file
from hertz2d.checks import InputError

#: where every command writes unless told otherwise (the committed full run)
DEFAULT_RESULTS = "results"


class _OneLineParser(argparse.ArgumentParser):
    """argparse that reports a bad flag in one line (no usage dump) and exits 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def attach_negative_values(argv: list[str]) -> list[str]:
    """``--E -1e9`` -> ``--E=-1e9``: argparse takes a token that starts with '-' and is not a plain
    decimal for an option, and would report "expected one argument" without naming the value;
    attached, the value reaches the command's own check, whose message names it."""
    out: list[str] = []
    for token in argv:
        previous = out[-1] if out else ""
        if (token.startswith("-") and _is_number(token) and previous.startswith("--")
                and "=" not in previous):
            out[-1] = f"{previous}={token}"
        else:
            out.append(token)
    return out


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(prog="hertz2d", description=__doc__.splitlines()[0])
    common = _OneLineParser(add_help=False)
    common.add_argument("--json", action="store_true",
                        help="print one JSON object summarising the run as the last stdout line")
    common.add_argument("--results", default=DEFAULT_RESULTS, metavar="DIR",
                        help=f"results root every output goes under ({DEFAULT_RESULTS})")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_OneLineParser)
    for command in COMMANDS:
        command.register(sub, parents=[common])
    return parser


def _warnings_to_stderr() -> None:
    """Library warnings (logger ``hertz2d``) as one ``hertz2d: warning:`` line each, and so
    every Python warning (numpy's floating-point warnings among them) that the checks before
    the arithmetic did not prevent: :func:`hertz2d.calibration.runs.messages.one_line_warnings`."""
    from hertz2d.calibration.runs.messages import one_line_warnings
    one_line_warnings()


def describe_os_error(error: OSError) -> str:
    """``PATH: No space left on device (errno 28, ENOSPC)``: the file, the reason, the errno."""
    where = f"{error.filename}: " if error.filename else ""
    code = (f" (errno {error.errno}, {errno.errorcode.get(error.errno, '?')})"
            if error.errno else "")
    return f"{where}{error.strerror or error}{code}"


def _print_summary(summary: dict) -> None:
    for key, value in summary.items():
        print(f"{key}: {value}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser().parse_args(attach_negative_values(list(argv)))
    _warnings_to_stderr()
    try:
        import matplotlib
        matplotlib.use("Agg")  # a batch program: figures go to files, never to a window
        from hertz2d.meshes.cache_root import check_cache_root
        from hertz2d.calibration.runs.run_record import check_quick_output

        if not args.results.strip():  # Path("") would be the current folder
            raise InputError("results='' is empty: give a folder name")
        check_cache_root()  # a $HERTZ2D_CACHE that cannot hold it: named before any work
        if getattr(args, "quick", False):
            check_quick_output(args.results)
        summary = args.run(args)
    except InputError as error:
        print(f"hertz2d {args.command}: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # a file that cannot be written or read: not bad input
        print(f"hertz2d {args.command}: error: {describe_os_error(error)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"hertz2d {args.command}: interrupted; finished work is kept", file=sys.stderr)
        return 130
    if args.json:
        print(json_file.dumps(summary))
    else:
        _print_summary(summary)
    return 0
