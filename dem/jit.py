"""numba for the engine, and the law library's scalar kernels compiled by it.

The law library (:mod:`hertz2d.calibration.laws.scalar`, :mod:`hertz2d.calibration.laws.calibrated_kernel`) is
plain Python and does not import numba; :func:`compile_functions` compiles a copy of each of its functions with ``numba.njit`` in a
namespace where the functions' references to each other point at the compiled copies, so a kernel
that calls another (the simplified law calling Lambert's W, say) compiles as a whole; a function
it imports from another module of the law library (:mod:`hertz2d.calibration.laws.lambert_w`) is compiled
the same way in its own module's namespace.

Every kernel is compiled once per process on first call and cached on disk (``cache=True``), so
later processes load machine code instead of compiling it (about a minute of compilation for the
whole engine). numba's own cache checks only the source file of the function it compiled, while
the time loop inlines functions from every module of the engine and from the law library: editing
one of those would leave a stale (and possibly memory-unsafe) loop in the cache. So the engine's
functions are cached under :class:`EngineCacheLocator`, whose freshness stamp is a digest of all
those sources together (:data:`SOURCES`: every module but the pure-Python :data:`DRIVERS`): any
edit of them recompiles everything. The locator plugs into numba's caching internals
(``numba.core.caching``); where those are not as expected the engine compiles in every process
instead of caching, never from a stale cache.
"""
from __future__ import annotations

import functools
import hashlib
import os
import tempfile
import types
from pathlib import Path

try:
    import numba
    import numba.core.cpu
    import numba.extending
    from numba.core import caching, cgutils
except ImportError as error:  # the DEM is an optional extra
    raise ImportError("hertz2d's DEM engine needs numba: pip install 'hertz2d[dem]' "
                      "(or pip install numba)") from error

import hertz2d.calibration.laws.calibrated_kernel
import hertz2d.calibration.laws.lambert_w
import hertz2d.calibration.laws.normal_table
import hertz2d.calibration.laws.scalar

#: the package's modules that only drive the engine from Python: none defines a compiled
#: function or is called by one (a test checks), so editing them does not recompile the engine
DRIVERS = ("analysis.py", "biaxial.py", "impact.py", "impact_reference.py", "output.py",
           "packing.py", "rolling.py", "simulation.py")
#: the law library's modules the engine compiles
LAW_MODULES = (hertz2d.calibration.laws.scalar, hertz2d.calibration.laws.lambert_w,
               hertz2d.calibration.laws.normal_table, hertz2d.calibration.laws.calibrated_kernel)
#: every source the compiled engine is made of: this package but its drivers, the law library's
#: kernels and the normal law's table (which the compiled code holds as a constant)
SOURCES = tuple(sorted(str(path.resolve()) for path in Path(__file__).parent.glob("*.py")
                       if path.name not in DRIVERS)) + tuple(
    str(Path(module.__file__).resolve()) for module in LAW_MODULES) + (
    str(hertz2d.calibration.laws.normal_table.TABLE_FILE.resolve()),)


@functools.lru_cache(maxsize=None)
def engine_stamp() -> str:
    """Digest of every file in :data:`SOURCES`."""
    digest = hashlib.sha256()
    for path in SOURCES:
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


#: numba's list of cache locators and their base class (internals; older releases call the
#: first ``_CacheImpl``)
_IMPL = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
_LOCATOR = getattr(caching, "_CacheLocator", None)
#: whether numba's on-disk cache can be given the engine's own locator (see :func:`njit`)
CACHE = _IMPL is not None and _LOCATOR is not None and isinstance(
    getattr(_IMPL, "_locator_classes", None), list)


class EngineCacheLocator(_LOCATOR if CACHE else object):
    """numba cache locator for the engine's sources: ``$NUMBA_CACHE_DIR`` if set, else their
    ``__pycache__`` (else a user cache folder, else the temporary folder); fresh only while
    :func:`engine_stamp` is unchanged."""

    def __init__(self, py_func, path: str):
        self._lineno = py_func.__code__.co_firstlineno
        self._path = path

    def get_cache_path(self):
        return self._path

    def get_source_stamp(self):
        return engine_stamp()

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        if str(Path(py_file).resolve()) not in SOURCES:
            return None
        user = os.path.join(os.path.expanduser("~"), ".cache", "hertz2d", "numba")
        folders = [os.path.join(os.path.dirname(py_file), "__pycache__"), user,
                   os.path.join(tempfile.gettempdir(), "hertz2d-numba")]
        if numba.config.CACHE_DIR:
            folders.insert(0, os.path.join(numba.config.CACHE_DIR, "hertz2d-engine"))
        for folder in folders:
            locator = cls(py_func, folder)
            try:
                locator.ensure_cache_path()
            except OSError:
                continue
            return locator
        return None


if CACHE and EngineCacheLocator not in _IMPL._locator_classes:
    _IMPL._locator_classes.insert(0, EngineCacheLocator)


@numba.extending.intrinsic
def address(typing_context, integer):
    """The address ``integer`` (an array's ``ctypes.data``) as a C ``void *``: what a registered
    law's kernel (:func:`hertz2d.dem.laws.law_kernel`) takes its arrays as."""
    def codegen(context, builder, signature, arguments):
        return builder.inttoptr(arguments[0], cgutils.voidptr_t)
    return numba.types.voidptr(integer), codegen


#: whether numba takes its reference-counting switch (the ``_nrt`` option of the CPU target),
#: which :func:`njit`'s ``counted=False`` sets; where it does not, every function counts
UNCOUNTED = hasattr(numba.core.cpu.CPUTargetOptions, "_nrt")


def njit(function=None, *, inline: bool = False, vectorised: bool = False,
         counted: bool = True):
    """``numba.njit`` as the engine uses it: compiled on first call, cached on disk (when
    :data:`CACHE`). ``inline=True`` (as ``@njit(inline=True)``) makes numba inline the function
    into its callers (numba's ``inline="always"``): for the small functions of the per-contact and
    per-disc loops, whose calls would otherwise pass their arrays by reference count, twice per
    array and call. ``vectorised=True`` compiles with numba's ``error_model="numpy"``: a division
    by zero gives IEEE's inf or NaN instead of raising, which is what lets LLVM vectorise a loop
    with divisions and square roots (the same doubles otherwise); for loops whose zero
    divisors can only come from entries the caller discards.

    ``counted=False`` compiles the function without numba's reference counting (its runtime,
    NRT, switched off for it): a compiled function counts a reference to every array it takes,
    the members of its tuples too, when called and uncounts it on return, each an atomic
    operation, and the engine's force passes, called every step with the whole state, did about
    300 a step (counted with a debugger; 11 % of a spring's step on the 200-disc bed of
    ``benchmarks/dem.py``, 17 % of Table 1's). Safe for a function that only borrows the arrays
    its caller holds for the length of the call: numba refuses to compile one that allocates an
    array or returns one it did not take. Every other function says ``_nrt=True`` explicitly,
    since a callee would otherwise inherit the switch from its caller (numba's flag
    inheritance) and could not allocate."""
    def compile_(function):
        options = {"_nrt": counted} if UNCOUNTED else {}
        return numba.njit(cache=CACHE, inline="always" if inline else "never",
                          error_model="numpy" if vectorised else "python", **options)(function)
    return compile_ if function is None else compile_(function)


@functools.lru_cache(maxsize=None)
def compile_functions(module, inline: bool = False) -> types.SimpleNamespace:
    """Every function defined in ``module``, compiled, as attributes of a namespace (once per
    module); the functions it imports from the other :data:`LAW_MODULES` are their compiled
    copies. With ``inline`` they are inlined into their callers (:func:`njit`), calls among
    themselves included: for a loop over many contacts whose body must be one block of
    arithmetic to vectorise."""
    namespace = dict(vars(module))
    compiled = {}
    for name, value in vars(module).items():
        if not isinstance(value, types.FunctionType):
            continue
        if value.__module__ == module.__name__:
            copy = types.FunctionType(value.__code__, namespace, name, value.__defaults__,
                                      value.__closure__)
            copy.__qualname__, copy.__module__ = value.__qualname__, value.__module__
            compiled[name] = njit(copy, inline=inline)
        else:
            home = next((m for m in LAW_MODULES if m.__name__ == value.__module__), None)
            if home is not None:
                namespace[name] = getattr(compile_functions(home, inline), value.__name__)
    namespace.update(compiled)
    return types.SimpleNamespace(**compiled)
