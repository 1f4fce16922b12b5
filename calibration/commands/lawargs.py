"""Flags that belong to some contact laws only (``--penalty``, ``--kn``, ``--kt``, ``--form``):
given with a law they do not apply to, they are refused in one line (exit 2) instead of being
ignored.

Such a flag defaults to None, so that "given" can be told from "left at its default"; the
command fills in the default for the law that uses it.
"""
from __future__ import annotations

import argparse

from hertz2d.checks import InputError

#: the calibrated law's only form (its coefficients are fitted in it)
CALIBRATED_FORM = "per-body"


def refuse_flags_of_other_laws(args: argparse.Namespace, owners: dict[str, tuple[str, ...]]
                               ) -> None:
    """``owners``: a flag's name (its ``args`` attribute) -> the laws it applies to. A flag
    given with ``args.law`` outside them raises :class:`InputError` naming both."""
    for flag, laws in owners.items():
        value = getattr(args, flag)
        if value is not None and args.law not in laws:
            raise InputError(f"{flag}={value!r} applies to --law {', '.join(laws)} only "
                             f"(law={args.law!r})")


def refuse_form(form: str | None, law: str, combining: tuple[str, ...]) -> None:
    """``--form`` (None: not given) applies to the laws of ``combining`` (the paper's 2D laws,
    whose compliances combine either way) and, as ``per-body``, to the calibrated law; with any
    other law it is refused, as ``hertz2d export-law`` refuses it."""
    if form is None or law in combining:
        return
    if law == "calibrated":
        if form != CALIBRATED_FORM:
            raise InputError(f"form={form!r}: the calibrated law is fitted in the "
                             f"{CALIBRATED_FORM} form only")
        return
    raise InputError(f"form={form!r} applies to --law {', '.join(combining)} (and "
                     f"{CALIBRATED_FORM} to calibrated) only (law={law!r})")
