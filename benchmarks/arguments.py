"""Command-line argument types the benchmark scripts share (argparse turns a refused value into
one line and exit code 2, before any long work)."""
from __future__ import annotations

import argparse


def positive_int(text: str) -> int:
    """A count of at least 1 (loops, jobs, steps, rounds)."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive integer")
    return value


def mesh_levels(description: str) -> list[int]:
    """The ``--levels`` of a benchmark that runs every contact at several mesh levels (the FEM's
    convergence beside its figures): sorted, each once, 2 and 3 by default."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--levels", type=int, nargs="+", default=[2, 3], choices=range(1, 5),
                        metavar="LEVEL", help="mesh levels (1-4) to run every contact at")
    return sorted(set(parser.parse_args().levels))
