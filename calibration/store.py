"""A store of finished FEM cases, so a rerun (or a run after Ctrl-C) skips what is done.

SQLite (standard library) gives atomic commits: a killed run leaves every case it finished and
nothing half-written. The store lives in the cache directory (``$HERTZ2D_CACHE``), not in
``results/``. A row is keyed by the case and by a digest of the solver's source code and the
versions of the packages that compute it, so changing the solver invalidates old results.
Only successful cases are stored; failed ones are retried on the next run.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import sqlite3
from contextlib import closing, contextmanager
from pathlib import Path
from types import ModuleType

from meshes.cache import cache_root


def source_digest(modules: list[ModuleType], versions: dict[str, str]) -> str:
    """Hash of the modules' source text and the given package versions."""
    blob = json.dumps({"sources": [inspect.getsource(m) for m in modules], "versions": versions},
                      sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


class CaseStore:
    """Rows of finished cases, keyed by ``(namespace, key)``; ``namespace`` names the solver state."""

    def __init__(self, namespace: str, path: Path | None = None):
        self.namespace = namespace
        self.path = Path(path) if path else cache_root() / "cases.sqlite"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute("CREATE TABLE IF NOT EXISTS cases "
                       "(namespace TEXT, key TEXT, row TEXT, PRIMARY KEY (namespace, key))")

    @contextmanager
    def _connect(self):
        """One transaction (committed on success, rolled back on error), then closed."""
        with closing(sqlite3.connect(self.path, timeout=30)) as db, db:
            yield db

    @staticmethod
    def _key(key: tuple) -> str:
        return json.dumps(key)

    def get(self, keys: list[tuple]) -> dict[tuple, dict]:
        """The stored rows among ``keys``."""
        wanted = {self._key(k): k for k in keys}
        with self._connect() as db:
            found = db.execute("SELECT key, row FROM cases WHERE namespace = ?",
                               (self.namespace,)).fetchall()
        return {wanted[k]: json.loads(row) for k, row in found if k in wanted}

    def put(self, items: list[tuple[tuple, dict]]) -> None:
        """Store ``(key, row)`` pairs in one transaction."""
        with self._connect() as db:
            db.executemany("INSERT OR REPLACE INTO cases VALUES (?, ?, ?)",
                           [(self.namespace, self._key(k), json.dumps(r)) for k, r in items])
