"""Flags that belong to some contact laws only (``--penalty``, ``--kn``, ``--kt``): given with a
law they do not apply to, they are refused in one line (exit 2) instead of being ignored.

Such a flag defaults to None, so that "given" can be told from "left at its default"; the
command fills in the default for the law that uses it.
"""
from __future__ import annotations

import argparse

from checks import InputError


def refuse_flags_of_other_laws(args: argparse.Namespace, owners: dict[str, tuple[str, ...]]
                               ) -> None:
    """``owners``: a flag's name (its ``args`` attribute) -> the laws it applies to. A flag
    given with ``args.law`` outside them raises :class:`InputError` naming both."""
    for flag, laws in owners.items():
        value = getattr(args, flag)
        if value is not None and args.law not in laws:
            raise InputError(f"{flag}={value!r} applies to --law {', '.join(laws)} only "
                             f"(law={args.law!r})")
