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
