"""The dask.distributed executor: the FEM tasks on the workers of an existing cluster.

``--scheduler tls://HOST:PORT`` (or ``tcp://``, or ``$HERTZ2D_SCHEDULER``) connects a client to a
running scheduler (started by hand, in a batch job or by dask-jobqueue: ``docs/cluster.md``) and submits every task to it, with the TLS certificates of dask's configuration
(:mod:`hertz2d.calibration.runs.security`, checked before the scheduler is contacted). Only a task's
arguments and its result travel: this process, the client, keeps writing the case store, so the
workers need no shared file system. Each worker needs hertz2d and the same numerical packages
installed, and keeps its own mesh cache (``$HERTZ2D_CACHE`` on its machine).

How, and why:

- ``client.submit`` and ``distributed.as_completed`` rather than the client's
  concurrent.futures executor (``Client.get_executor``): an interruption cancels every pending
  task in one message to the scheduler (``client.cancel``) instead of one round trip per task,
  each result is released on the workers as soon as it is handed back, and each task's key
  carries its function's name, so the dashboard shows which stage runs.
- ``pure=False``: to dask a task is not a pure function of its arguments (it writes the
  worker's mesh cache), a failed path submitted again in the same session must run again rather
  than return the memoised failure, and hashing case lists and settings into keys is wasted work.
- A worker that dies mid-task (killed, out of memory, its node lost) is the scheduler's
  business: the task runs again on another worker, up to ``distributed.scheduler.allowed-failures``
  times (3 by default), after which the run stops with dask's ``KilledWorker``.
- Every task first checks that the worker computes with the client's code (:func:`run_checked`),
  because the client stores each result under the namespace of its own code: a worker with
  another hertz2d would fill the case store with stale numbers.
- A worker's memory allocator is given back glibc's own behaviour for large arrays
  (:func:`undo_malloc_trim`): dask's default makes every FEM task twice as expensive.
"""
from __future__ import annotations

import asyncio
import ctypes
import logging
import os
import uuid
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

from distributed import Client, as_completed, get_worker
from distributed.comm import connect, parse_address
from distributed.comm.addressing import get_address_host_port
from distributed.comm.registry import get_backend

from hertz2d.calibration.runs.executors import Executor
from hertz2d.calibration.runs.provenance import versions
from hertz2d.calibration.runs.security import scheduler_security
from hertz2d.checks import InputError
from hertz2d.meshes.digest import code_digest

log = logging.getLogger("hertz2d")

#: seconds to wait for the scheduler to answer before the address is reported as bad
CONNECT_TIMEOUT = 5.0
#: how many times a client's handshake is tried (another client's message can break it)
CONNECT_ATTEMPTS = 3
#: the packages whose version can change a number a task computes
COMPUTING_PACKAGES = ("scikit-fem", "gmsh", "qdldl", "numpy", "scipy")
#: glibc's ``mallopt`` parameters (malloc.h)
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3


@lru_cache(maxsize=None)
def code_identity(module: str) -> str:
    """Digest of ``module``'s source, of every project module it imports, and of the versions
    of :data:`COMPUTING_PACKAGES` (cached: it is the code this process has imported)."""
    pinned = {k: v for k, v in versions().items() if k in COMPUTING_PACKAGES}
    return code_digest(module, pinned)


@lru_cache(maxsize=None)
def undo_malloc_trim() -> None:
    """Let glibc keep freed memory for reuse again, in a worker started by a dask nanny.

    The nanny starts each worker with ``MALLOC_TRIM_THRESHOLD_=65536``
    (``distributed.nanny.pre-spawn-environ``) to hand freed memory back to the system. Setting it
    also freezes glibc's threshold for serving an allocation from ``mmap`` at 128 KiB, so every
    large temporary array of an FEM solve is mapped, page-faulted and unmapped anew: measured on
    the half-round tasks, 13 times the page faults and twice the CPU time of a local process. The
    thresholds set here are those glibc adapts itself up to (32 MiB on 64-bit systems, trimming
    above twice that). Nothing is done outside such a worker or without glibc.
    """
    if "MALLOC_TRIM_THRESHOLD_" not in os.environ:
        return
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc
        return
    mallopt(M_MMAP_THRESHOLD, 32 * 2**20)
    mallopt(M_TRIM_THRESHOLD, 64 * 2**20)


def run_checked(expected: str, function, *args):
    """A task on a worker: ``function(*args)``, if the worker's code is the client's
    (``expected``, :func:`code_identity` of ``function``'s module); otherwise one line naming the
    worker (exit 2 from the command line)."""
    found = code_identity(function.__module__)
    if found != expected:
        raise InputError(f"worker {get_worker().address} computes {function.__module__} with "
                         f"other code or versions of {', '.join(COMPUTING_PACKAGES)} than this "
                         f"client (digest {found}, here {expected}); install the same hertz2d "
                         "and packages on every worker")
    undo_malloc_trim()
    return function(*args)


async def _answers(address: str, connection_args: dict) -> None:
    """Open and close a connection to ``address``: a ``Client`` whose connection fails lingers
    and blocks the interpreter's exit for twice its timeout, so the address is tried first."""
    comm = await connect(address, timeout=CONNECT_TIMEOUT, **connection_args)
    await comm.close()


def _client(address: str, security) -> Client:
    """A client of the scheduler at ``address``, its handshake tried up to
    :data:`CONNECT_ATTEMPTS` times.

    A client expects the first batch the scheduler sends it to hold the greeting alone. But the
    scheduler sends some messages to every client (another client's ``cancelled-keys``), and one
    sent within the same few milliseconds rides in that batch: dask then fails the connection with
    a bare ``AssertionError``. Measured with a second client cancelling a task every millisecond,
    10 of 60 connections failed so; the next attempt lands between two such messages.
    """
    for attempt in range(CONNECT_ATTEMPTS):
        try:
            return Client(address, security=security, timeout=CONNECT_TIMEOUT,
                          set_as_default=False)
        except AssertionError:  # the greeting shared its batch
            if attempt == CONNECT_ATTEMPTS - 1:
                raise


class DaskCluster(Executor):
    """The workers of the dask.distributed cluster a connected ``client`` talks to."""

    def __init__(self, client: Client, description: str):
        self.client = client
        self.description = description

    @classmethod
    def connect(cls, address: str, name: str = "scheduler") -> "DaskCluster":
        """A client of the scheduler at ``address``; :class:`InputError` naming ``name=address``
        when its TLS settings are wrong (:func:`~hertz2d.calibration.runs.security.scheduler_security`),
        when none answers within :data:`CONNECT_TIMEOUT` seconds (or refuses this client's
        certificate) or the address is malformed."""
        security = scheduler_security(address, name)
        connection_args = security.get_connection_args("client")
        try:
            get_backend(parse_address(address)[0])
            host, port = get_address_host_port(address)
            if not host or not 0 < port < 65536:
                raise ValueError("a scheduler's address is SCHEME://HOST:PORT, PORT 1-65535")
        except ValueError as error:  # a scheme dask does not know, no host or port
            raise InputError(f"{name}={address!r}: cannot reach a dask scheduler there "
                             f"({error})") from None
        try:
            with ThreadPoolExecutor(1) as thread:  # an event loop of its own, even in a notebook
                thread.submit(asyncio.run, _answers(address, connection_args)).result()
        except OSError as error:  # refused, timed out, a certificate rejected
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise InputError(f"{name}={address!r}: cannot reach a dask scheduler there "
                             f"({reason})") from None
        except Exception as error:  # an answer dask cannot read: an HTTP server, a proxy
            raise InputError(f"{name}={address!r}: cannot reach a dask scheduler there (what "
                             "answers there does not speak dask's protocol: "
                             f"{type(error).__name__} reading its reply)") from None
        client = _client(address, security)
        workers = len(client.nthreads())
        if not workers:
            log.warning(f"{name}={address!r} has no workers yet; the tasks wait until some join")
        return cls(client, f"dask scheduler {address} ({workers} workers at the start)")

    def results(self, function, tasks):
        expected = code_identity(function.__module__)
        name = getattr(function, "__name__", "task")
        futures = {self.client.submit(run_checked, expected, function, *task, pure=False,
                                      key=f"{name}-{uuid.uuid4().hex}"): task for task in tasks}
        try:
            for future in as_completed(futures, loop=self.client.loop):
                task = futures.pop(future)  # handed back: the workers may forget it
                yield task, future.result()
        finally:
            if futures:  # not finished: pending or running (a cancel goes to every client)
                self.client.cancel(list(futures))

    def close(self) -> None:
        self.client.close()
