"""One registry of the contact laws: each law declared once, and what runs and exports it.

An entry (:class:`LawEntry`) says everything the rest of hertz2d asks of a law: its name (the
``--law`` value everywhere), the law library's class and how to build it from a contact pair and
the options it takes, its normal, tangential and damping parts in a line each (as LAMMPS's
``pair_style granular`` composes a model), the engines that run it (:data:`ENGINES`: ``model``,
the validity ``map``, the ``dem``) and the exports written for it (:data:`EXPORTS`). For the DEM,
either the integer code of one of the engine's compiled branches (the built-in laws) or a
compiled kernel of its own (:mod:`hertz2d.dem.laws` describes its signature), and the width of its
per-contact history.

The catalogue (:mod:`hertz2d.calibration.laws.catalogue`) registers the built-in laws; a user registers
a new one the same way, after importing it, with :func:`register`. Every list of laws
(``hertz2d model``'s, the map's, the DEM's codes and choices, the biaxial selection,
``export-law``'s) is read from here with :func:`names` and :func:`entry`, so a law registered
later is seen by all of them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from hertz2d.checks import InputError, one_of

#: the engines that run a law: ``hertz2d model`` (the law library along a load path), the
#: validity map, the DEM
ENGINES = ("model", "map", "dem")
#: what an export can hold: the law file (law.json), the C99 header, the test vectors, the
#: LAMMPS plugin
EXPORTS = ("law-file", "c99", "vectors", "lammps")
#: the options :func:`hertz2d.calibration.laws.make_law` passes on to a law that takes them
OPTIONS = ("penalty", "kn", "kt", "coefficients")
#: the per-contact history columns every DEM law keeps (N, T, kt, a)
SHARED_HISTORY = 4


@dataclass(frozen=True)
class LawEntry:
    """A contact law, declared once.

    ``model`` is the law library's class (a :class:`~hertz2d.calibration.laws.base.ContactLaw`);
    ``build(pair, **options)`` makes one for a contact pair from the :data:`OPTIONS` named in
    ``options`` (default: ``model(pair, *options)`` in that order). ``dem_code`` is the DEM's
    compiled branch of a built-in law, ``dem_kernel`` a registered law's compiled kernel (one of
    them for a law the DEM runs), ``history`` its per-contact history width.
    """

    name: str
    model: type
    normal: str
    tangential: str
    damping: str
    options: tuple[str, ...] = ()
    build: Callable | None = None
    engines: tuple[str, ...] = ("model", "map")
    exports: tuple[str, ...] = ()
    dem_code: int | None = None
    dem_kernel: object = None
    history: int = SHARED_HISTORY

    def make(self, pair, **options):
        """The law for ``pair`` with the :data:`OPTIONS` it takes (the others are ignored).

        Parameters
        ----------
        pair : hertz2d.calibration.laws.pair.ContactPair
            The two bodies in contact.
        **options
            Values of :data:`OPTIONS`; those not in :attr:`options` are not passed.

        Returns
        -------
        hertz2d.calibration.laws.base.ContactLaw
            The law, ready to run a load path.
        """
        given = [options[name] for name in self.options]
        return (self.build or self.model)(pair, *given)

    def supports(self, export: str) -> bool:
        """Whether the law declares the export ``export`` (one of :data:`EXPORTS`)."""
        return export in self.exports


_ENTRIES: dict[str, LawEntry] = {}


def _check(law: LawEntry) -> None:
    if not law.name or law.name in _ENTRIES:
        raise InputError(f"law={law.name!r} is already registered (or empty)")
    for kind, given, known in (("engine", law.engines, ENGINES), ("export", law.exports, EXPORTS),
                               ("option", law.options, OPTIONS)):
        for value in given:
            one_of(kind, value, known)
    runs_dem = law.dem_code is not None or law.dem_kernel is not None
    if ("dem" in law.engines) != runs_dem or (law.dem_code is not None
                                              and law.dem_kernel is not None):
        raise InputError(f"law={law.name!r}: the DEM runs a law with a dem_code or a dem_kernel "
                         "(one of them) and 'dem' among its engines")
    if law.history < SHARED_HISTORY:
        raise InputError(f"law={law.name!r}: history={law.history!r} is below the "
                         f"{SHARED_HISTORY} columns every DEM law keeps")


def register(law: LawEntry) -> LawEntry:
    """Declare ``law``: from now on every engine and export that lists laws sees it.

    Parameters
    ----------
    law : LawEntry
        The law's entry; its name must be new.

    Returns
    -------
    LawEntry
        ``law``, for use as ``ENTRY = register(LawEntry(...))``.
    """
    _check(law)
    _ENTRIES[law.name] = law
    return law


def unregister(name: str) -> LawEntry:
    """Remove the law ``name`` (a registered law, e.g. at the end of a test) and return it."""
    return _ENTRIES.pop(entry(name).name)


def entry(name: str) -> LawEntry:
    """The entry of the law ``name``; a name no law has is an :class:`~hertz2d.checks.InputError`."""
    return _ENTRIES[one_of("law", name, tuple(_ENTRIES))]


def names(engine: str | None = None, export: str | None = None,
          option: str | None = None) -> tuple[str, ...]:
    """The registered laws' names, in the order they were registered.

    Parameters
    ----------
    engine : str, optional
        Only the laws this engine (:data:`ENGINES`) runs.
    export : str, optional
        Only the laws declaring this export (:data:`EXPORTS`).
    option : str, optional
        Only the laws taking this option (:data:`OPTIONS`).

    Returns
    -------
    tuple of str
        The names.
    """
    return tuple(law.name for law in _ENTRIES.values()
                 if (engine is None or engine in law.engines)
                 and (export is None or export in law.exports)
                 and (option is None or option in law.options))
