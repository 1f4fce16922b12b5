"""A store of finished FEM cases, so a rerun (or a run after Ctrl-C) skips what is done.

SQLite (standard library) gives atomic commits: a killed run leaves every case it finished and
nothing half-written. The store lives in the cache directory (``$HERTZ2D_CACHE``), not under a
results root. A row is keyed by a namespace, which names the code that computed it
(:func:`hertz2d.meshes.digest.code_digest`), and by the case, so changing the solver or anything
it imports invalidates old results. Only successful cases are stored; failed ones are retried on
the next run.

The store never trusts its file: on open it runs SQLite's ``quick_check`` and checks the table's
layout; a file that fails (truncated, garbage, another program's database) is moved aside to
``cases.sqlite.corrupt-<time>`` with a one-line warning and a new store is started. A row whose
text is not UTF-8 or whose JSON does not parse is deleted with a warning and recomputed; the other
rows stay. Any other SQLite failure (a full disk, a store another program keeps locked) reaches
the caller as an :class:`OSError` naming the store's file, never as an ``sqlite3`` error.
"""
from __future__ import annotations

import errno
import json
import logging
import sqlite3
import time
from contextlib import closing, contextmanager
from pathlib import Path

from hertz2d.meshes.cache_root import cache_root

log = logging.getLogger("hertz2d")

LAYOUT = ("namespace", "key", "row")


class CaseStore:
    """Rows of finished cases, keyed by ``(namespace, key)``; ``namespace`` names the solver state."""

    def __init__(self, namespace: str, path: Path | None = None):
        self.namespace = namespace
        self.path = Path(path) if path else cache_root() / "cases.sqlite"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._open()
        except sqlite3.OperationalError as error:  # locked, busy, cannot open: not corrupt
            raise OSError(errno.EIO, f"case store: {error}", str(self.path)) from None
        except sqlite3.DatabaseError as error:
            moved = self._move_aside()
            log.warning(f"case store {self.path} is unreadable ({error}); moved to {moved.name}, "
                        "starting a new one")
            self._open()

    def _open(self) -> None:
        with self._connect() as db:
            verdict = db.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"integrity check: {verdict}")
            db.execute("CREATE TABLE IF NOT EXISTS cases "
                       "(namespace TEXT, key TEXT, row TEXT, PRIMARY KEY (namespace, key))")
            columns = tuple(r[1] for r in db.execute("PRAGMA table_info(cases)"))
            if columns != LAYOUT:
                raise sqlite3.DatabaseError(f"table 'cases' has columns {columns}")

    def _move_aside(self) -> Path:
        target = self.path.with_name(f"{self.path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        self.path.replace(target)
        for suffix in ("-journal", "-wal", "-shm"):
            leftover = self.path.with_name(self.path.name + suffix)
            if leftover.exists():
                leftover.replace(target.with_name(target.name + suffix))
        return target

    @contextmanager
    def _connect(self):
        """One transaction (committed on success, rolled back on error), then closed."""
        with closing(sqlite3.connect(self.path, timeout=30)) as db, db:
            yield db

    @contextmanager
    def _transaction(self):
        """A transaction of :meth:`get` or :meth:`put`: text read as bytes (decoded row by row, so
        that a row which is not UTF-8 is one broken row rather than a failed query), and an
        SQLite failure (disk full, locked) raised as an ``OSError`` naming the store's file."""
        try:
            with self._connect() as db:
                db.text_factory = bytes
                yield db
        except sqlite3.Error as error:
            raise OSError(errno.EIO, f"case store: {error}", str(self.path)) from None

    @staticmethod
    def _key(key: tuple) -> str:
        return json.dumps(key)

    def get(self, keys: list[tuple]) -> dict[tuple, dict]:
        """The stored rows among ``keys`` (a row that does not parse is dropped and recomputed)."""
        wanted = {self._key(k): k for k in keys}
        with self._transaction() as db:
            found = db.execute("SELECT key, row FROM cases WHERE namespace = ?",
                               (self.namespace,)).fetchall()
        rows, broken = {}, []
        for raw_key, text in found:
            key = raw_key.decode("utf-8", errors="replace")
            if key not in wanted:
                continue
            try:
                row = json.loads(text.decode("utf-8"))
            except (AttributeError, ValueError):  # not text, not UTF-8, or not JSON
                row = None
            if isinstance(row, dict):
                rows[wanted[key]] = row
            else:
                broken.append(key)
        if broken:
            log.warning(f"case store {self.path}: {len(broken)} unreadable row(s) dropped, "
                        "they will be recomputed")
            with self._transaction() as db:
                db.executemany("DELETE FROM cases WHERE namespace = ? AND key = ?",
                               [(self.namespace, k) for k in broken])
        return rows

    def put(self, items: list[tuple[tuple, dict]]) -> None:
        """Store ``(key, row)`` pairs in one transaction."""
        with self._transaction() as db:
            db.executemany("INSERT OR REPLACE INTO cases VALUES (?, ?, ?)",
                           [(self.namespace, self._key(k), json.dumps(r)) for k, r in items])
