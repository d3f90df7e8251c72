"""Export format 2: a workspace leaves as NDJSON and comes back the same (``docs/export-format.md``).

    >>> header, records = RoundTrip(db, memories).export("ws_a")            # doctest: +SKIP
    >>> RoundTrip(db, memories).import_lines("ws_b", lambda: open("a.ndjson"), tenant_id="_default")  # doctest: +SKIP
    {'imported': 12, ..., 'ids': 'kept', 'imported_by_kind': {'memory': 12, 'entity': 4, ...}, ...}

Every table of a workspace's content leaves row by row (``shared/db/transfer.py``), in an order where a row
comes after the rows it names; the last line counts the lines of each kind, so a cut file is refused.

An import reads its lines one at a time inside one transaction: all of it is written, or nothing. Ids are kept
when the caller sees every workspace, the target holds nothing and no id is taken anywhere (a tenant's key never
learns whether another tenant holds an id); otherwise every database-wide id is replaced by one
derived from the target workspace and the old id (``remapped_id``), so a client can compute the new ids, and
importing the same file twice into one workspace writes nothing the second time. A row that duplicates one the target already
has (the same live memory, an active entity of the same type and name, the same relation) resolves to that row.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from typing import Any, NoReturn

import psycopg

from shared.core.errors import InvalidInput, NotFound, PayloadTooLarge
from shared.core.wire import iso, strict_json
from shared.db import memories as mem_repo
from shared.db import transfer as repo
from shared.db import workspaces as ws_repo
from shared.db.pool import Database
from shared.db.rows import Connection
from shared.domain.documents.service import storage_key
from shared.domain.memories.service import MemoryService
from shared.domain.resources import transfer as resource_transfer

EXPORT_VERSION = "2.0"
PAGE = 500
# File order: a row comes after what it names. Resources last (they name nothing else).
KINDS = (*repo.TABLES, "resource")
# Kinds whose ids are unique across the database (the others are unique within their workspace).
_GLOBAL_IDS = frozenset(
    {
        "message",
        "memory",
        "association",
        "entity",
        "alias",
        "relation",
        "evidence",
        "checkpoint",
        "contradiction",
        "document",
        "document_page",
    }
)
# Sessions and threads keep their ids (unique within a workspace, often the client's own): one the target holds
# already is the same conversation, and its messages or items the target has are skipped as duplicates.
_REMAPPED = _GLOBAL_IDS
# column → the kind it names; ``[]``: an array of ids. Required ones skip their row when the named row is absent.
_REFS: dict[str, dict[str, str]] = {
    "working_memory": {"session_id": "session"},
    "thread": {"parent_thread": "thread"},
    "message": {"thread_id": "thread"},
    "memory": {
        "session_id": "session",
        "source_thread_id": "thread",
        "source_message_ids[]": "message",
        "superseded_by": "memory",
        "stale_by": "memory",
        "source_memory_id": "memory",
    },
    "revision": {"memory_id": "memory"},
    "association": {"source_id": "memory", "target_id": "memory"},
    "entity": {"representative_memory_id": "memory"},
    "alias": {"entity_id": "entity"},
    "relation": {"source_entity_id": "entity", "target_entity_id": "entity"},
    "evidence": {"relation_id": "relation", "source_memory_id": "memory"},
    "checkpoint": {"session_id": "session", "raw_memory_id": "memory"},
    "contradiction": {"memory_a_id": "memory", "memory_b_id": "memory", "newer_memory_id": "memory"},
    "document": {"memory_ids[]": "memory"},
    "document_page": {"document_id": "document"},
}
_REQUIRED = {
    "working_memory": {"session_id"},
    "message": {"thread_id"},
    "revision": {"memory_id"},
    "association": {"source_id", "target_id"},
    "alias": {"entity_id"},
    "relation": {"source_entity_id", "target_entity_id"},
    "evidence": {"relation_id", "source_memory_id"},
    "checkpoint": {"session_id", "raw_memory_id"},
    "contradiction": {"memory_a_id", "memory_b_id"},
    "document_page": {"document_id"},
}
# A memory's self-references: resolved once every memory is in (a fact names the later one that replaced it).
_MEMORY_SELF = ("superseded_by", "stale_by", "source_memory_id")


def remapped_id(workspace_id: str, old: str) -> str:
    """The id a row gets when an import cannot keep its own: its prefix (``mem_``) and a hash of both ids.

    >>> remapped_id("ws_b", "mem_1") == remapped_id("ws_b", "mem_1") != remapped_id("ws_c", "mem_1")
    True
    >>> remapped_id("ws_b", "mem_1")[:4]
    'mem_'
    """
    cut = old.find("_")
    prefix = old[: cut + 1] if 0 < cut < 12 else ""
    return prefix + hashlib.sha256(f"{workspace_id}\x00{old}".encode()).hexdigest()[:24]


class _IdTaken(Exception):
    """An id of the file is held elsewhere: the import starts again, remapping every id."""


class RoundTrip:
    def __init__(self, db: Database, memories: MemoryService) -> None:
        self.db = db
        self.memories = memories

    # ------------------------------------------------------------------ export
    def export(
        self, workspace_id: str, *, secrets: bool = False
    ) -> tuple[dict[str, Any], Iterator[tuple[str, dict[str, Any]]]]:
        """The header, and the records: ``(kind, row)`` in file order, ``("memory", {"raw", "row"})`` for a
        memory (its raw columns, and the row the wire model shapes), and last ``("end", {"counts": ...})``.
        Resources' secrets are masked unless ``secrets``."""
        with self.db.connection() as conn:
            counts = ws_repo.export_counts(conn, workspace_id)
        if not counts["found"]:
            raise NotFound(f"workspace {workspace_id} not found", code="workspace_not_found")
        header = {
            "type": "header",
            "version": EXPORT_VERSION,
            "workspace_id": workspace_id,
            "exported_at": iso(datetime.now(UTC)),
            "total_memories": counts["m"],
            "total_associations": counts["a"],
        }
        return header, self._records(workspace_id, secrets)

    def _records(self, workspace_id: str, secrets: bool) -> Iterator[tuple[str, dict[str, Any]]]:
        counts: Counter[str] = Counter()
        for kind, table in repo.TABLES.items():
            after: tuple[Any, ...] | None = None
            while True:
                with self.db.connection() as conn:
                    page = repo.export_page(conn, table, workspace_id, after=after, limit=PAGE)
                    shaped = (
                        mem_repo.export_rows(conn, workspace_id, [p["row"]["id"] for p in page])
                        if kind == "memory"
                        else {}
                    )
                if not page:
                    break
                after = page[-1]["key"]
                for item in page:
                    row = item["row"]
                    if kind == "memory":
                        if row["id"] not in shaped:
                            continue  # deleted between the two reads: it does not leave, nor is it counted
                        row = {"raw": row, "row": shaped[row["id"]]}
                    counts[kind] += 1
                    yield kind, row
        for resource in resource_transfer.export_items(self.db, workspace_id, secrets=secrets):
            counts["resource"] += 1
            yield "resource", resource
        yield "end", {"counts": dict(counts)}

    # ------------------------------------------------------------------ import
    def import_lines(
        self,
        workspace_id: str,
        lines: Callable[[], Iterable[str]],
        *,
        tenant_id: str,
        keep_ids: bool = True,
    ) -> dict[str, Any]:
        """Import a version-2 file read from ``lines()`` (called again if the import restarts to remap ids);
        one transaction: a bad line (a 400 naming it) writes nothing.

        ``keep_ids``: whether an empty target may keep the file's ids when none is taken anywhere. Whether an id
        is taken anywhere is other tenants' business, so only a caller who sees every workspace (the admin key,
        auth mode ``none``, the CLI) may have it decide anything; for a tenant's key every id that is not
        already the target's own is remapped, and the answer depends on the target's rows alone."""
        with self.db.transaction() as conn:
            ws_repo.ensure_workspace(conn, workspace_id, tenant_id)
            ws_repo.bind_embedding_model(conn, workspace_id, self.memories.embedder.model_id)
            if keep_ids and not repo.holds_anything(conn, workspace_id):
                try:
                    with conn.transaction():  # a savepoint: undone if an id turns out to be taken
                        return _Import(self, conn, workspace_id, tenant_id, remap=False).run(lines())
                except _IdTaken:
                    pass
            return _Import(self, conn, workspace_id, tenant_id, remap=True).run(lines())


class _Import:
    """One pass over the file's lines, writing each row as it comes (memories in small embedding batches)."""

    def __init__(self, owner: RoundTrip, conn: Connection, workspace_id: str, tenant_id: str, *, remap: bool):
        self.memories = owner.memories
        self.conn = conn
        self.ws = workspace_id
        self.tenant_id = tenant_id
        self.remap = remap
        self.seen: Counter[str] = Counter()
        self.imported: Counter[str] = Counter()
        self.skipped: Counter[str] = Counter()
        # Old id → the target's row it resolved to (None: absent); other ids follow ``_new_id``.
        self.resolved: dict[str, dict[str, str | None]] = {kind: {} for kind in _REMAPPED}
        self.pending: list[tuple[int, str, dict[str, Any]]] = []  # memories waiting for their embeddings
        self.merges: list[tuple[str, str]] = []  # (entity, the old id it was merged into)
        self.line = 0

    def run(self, lines: Iterable[str]) -> dict[str, Any]:
        order = -1
        ended = False
        for self.line, text in enumerate(lines, start=1):
            if not text.strip():
                continue
            item = self._parse(text)
            kind = item.get("type")
            if ended:
                self._bad("a line after the end line")
            if order == -1:
                if kind != "header":
                    self._bad("the first line is not the export's header")
                if item.get("version") != EXPORT_VERSION:
                    raise InvalidInput(
                        f"export version {item.get('version')!r} is not one this server reads (1.0, 2.0)",
                        code="unsupported_export_version",
                    )
                order = 0
                continue
            if kind == "end":
                self._flush()
                self._check_counts(item.get("counts"))
                ended = True
                continue
            if not isinstance(kind, str) or kind not in KINDS:
                self._bad(f"unknown line type {kind!r}")
            position = KINDS.index(kind)
            if position < order:
                self._bad(f"a {kind} line after the {KINDS[order]} lines (a row comes after what it names)")
            if position != order:
                self._flush()
                order = position
            self.seen[kind] += 1
            self._check_caps(kind)
            data = item.get("data")
            if not isinstance(data, dict):
                self._bad("its 'data' is not an object")
            self._add(kind, data, item.get("row"))
        if not ended:
            raise InvalidInput(
                "the export ends before its end line: the file was cut short", code="truncated_export"
            )
        self._finish()
        return {
            "imported": self.imported["memory"],
            "skipped_duplicates": self.skipped["memory"],
            "associations_imported": self.imported["association"],
            "resources_imported": self.imported["resource"],
            "resources_skipped": self.skipped["resource"],
            "errors": 0,
            "details": [],
            "ids": "remapped" if self.remap else "kept",
            "imported_by_kind": dict(self.imported),
            "skipped_by_kind": dict(self.skipped),
        }

    # -------------------------------------------------------------- lines
    def _parse(self, text: str) -> dict[str, Any]:
        try:
            item = strict_json(text)
        except ValueError as exc:
            self._bad(f"not JSON (a cut or damaged file?): {exc}"[:200])
        if not isinstance(item, dict):
            self._bad("not a JSON object")
        return item

    def _bad(self, why: str) -> NoReturn:
        raise InvalidInput(f"import line {self.line}: {why}", code="invalid_import", line=self.line)

    def _check_counts(self, counts: Any) -> None:
        if not isinstance(counts, dict):
            self._bad("the end line carries no counts")
        expected = {k: v for k, v in counts.items() if v}
        if expected != dict(self.seen):
            raise InvalidInput(
                f"the file's lines ({dict(self.seen)}) are not the ones its end line counts ({expected})",
                code="truncated_export",
            )

    def _check_caps(self, kind: str) -> None:
        """Every kind of line is capped per request (format 1.0's caps for memories and associations, one cap
        for each other kind, one for all rows): a file over one is refused whole (split it), in the transaction
        that wrote its rows so far, so nothing stays."""
        settings = self.memories.settings
        caps = {"memory": settings.max_import_memories, "association": settings.max_import_associations}
        cap = caps.get(kind, settings.max_import_rows_per_kind)
        if self.seen[kind] > cap:
            code = {"memory": "too_many_memories", "association": "too_many_associations"}
            raise PayloadTooLarge(
                f"import carries more than {cap} {kind} lines; split the file",
                code=code.get(kind, "too_many_import_rows"),
                limit=cap,
                kind=kind,
            )
        if self.seen.total() > settings.max_import_rows:
            raise PayloadTooLarge(
                f"import carries more than {settings.max_import_rows} rows; split the file",
                code="too_many_import_rows",
                limit=settings.max_import_rows,
                kind="all",
            )

    # -------------------------------------------------------------- ids
    def _new_id(self, kind: str, old: str) -> str | None:
        if old in self.resolved.get(kind, {}):
            return self.resolved[kind][old]
        return remapped_id(self.ws, old) if self.remap and kind in _REMAPPED else old

    def _point(self, kind: str, row: dict[str, Any]) -> bool:
        """Rewrite the ids ``row`` names; False when a row it needs is absent (the row is skipped)."""
        for column, named in _REFS.get(kind, {}).items():
            if column.endswith("[]"):
                column = column[:-2]
                row[column] = [new for old in row.get(column) or [] if (new := self._new_id(named, old))]
                continue
            old = row.get(column)
            if not isinstance(old, str):
                continue
            row[column] = self._new_id(named, old)
            if row[column] is None and column in _REQUIRED.get(kind, ()):
                return False
        return True

    # -------------------------------------------------------------- rows
    def _add(self, kind: str, data: dict[str, Any], extra: Any) -> None:
        if kind == "resource":
            self._resource(data)
            return
        row = dict(data)
        if kind == "memory":
            if extra is not None and not isinstance(extra, dict):
                self._bad("its 'row' is not an object")
            row = {**data, **(extra or {})}
        for column in repo.TABLES[kind].drop:
            row.pop(column, None)
        row["workspace_id"] = self.ws
        old_id = row.get("id")
        if kind in _REMAPPED:
            if not isinstance(old_id, str) or not old_id:
                self._bad(f"a {kind} without an id")
            row["id"] = self._new_id(kind, old_id)
        if kind == "memory":
            if not isinstance(row.get("content"), str) or not isinstance(row.get("dedup_key"), str):
                self._bad("a memory without its content or dedup key")
            self.pending.append((self.line, str(old_id), row))  # checked above: a memory has an id
            if len(self.pending) >= max(1, self.memories.settings.embedding_batch_size):
                self._flush()
            return
        if kind == "revision":
            self._revision(row)
        if kind == "document" and isinstance(row.get("filename"), str):
            # Where this deployment keeps the bytes when they are uploaded again (the file does not carry them).
            row["storage_key"] = storage_key(self.ws, row["id"], row["filename"])
        if kind == "entity" and isinstance(row.get("merged_into"), str):
            self.merges.append((row["id"], row["merged_into"]))
            row["merged_into"] = None
        if not self._point(kind, row):
            self.skipped[kind] += 1
            return
        self._write(kind, row, old_id)

    def _revision(self, row: dict[str, Any]) -> None:
        snapshot = row.get("snapshot")
        if isinstance(snapshot, dict):
            snapshot = {**snapshot, "workspace_id": self.ws, "tenant_id": self.tenant_id}
            for column in ("id", *_MEMORY_SELF):
                if isinstance(snapshot.get(column), str):
                    snapshot[column] = self._new_id("memory", snapshot[column])
            row["snapshot"] = snapshot

    def _flush(self) -> None:
        """Embed and write the memories waiting (their vectors: this server's model)."""
        if not self.pending:
            return
        batch, self.pending = self.pending, []
        vectors = self.memories.embedder.embed([row["content"] for _, _, row in batch])
        current = self.line
        for (line, old_id, row), vector in zip(batch, vectors, strict=True):
            self.line = line  # an error names the memory's own line
            row["embedding_model"] = self.memories.embedder.model_id
            self._point("memory", row)
            self._write("memory", row, old_id, vector=vector)
        self.line = current

    def _write(self, kind: str, row: dict[str, Any], old_id: Any, *, vector: Any = None) -> None:
        table = repo.TABLES[kind].name
        if self.remap and kind in _REMAPPED and repo.held(self.conn, table, self.ws, old_id):
            # The target holds this very row (its own export, or a copy restored into it): it is that row.
            self.resolved[kind][old_id] = old_id
            self.skipped[kind] += 1
            return
        try:  # a refused row ends the import: no savepoint of its own, the whole transaction rolls back
            written = repo.insert_row(self.conn, table, row, vector=vector)
        except (psycopg.errors.IntegrityError, psycopg.errors.DataError) as exc:
            why = exc.diag.message_primary or type(exc).__name__
            raise InvalidInput(
                f"import line {self.line}: this {kind} cannot be stored ({why})",
                code="invalid_import",
                line=self.line,
            ) from exc
        if written:
            self.imported[kind] += 1
            return
        if not self.remap and kind != "context":
            raise _IdTaken
        self.skipped[kind] += 1
        existing = self._existing(kind, row)
        if isinstance(old_id, str) and kind in _REMAPPED:
            self.resolved[kind][old_id] = existing

    def _existing(self, kind: str, row: dict[str, Any]) -> str | None:
        if kind == "memory":
            return repo.existing_memory(self.conn, self.ws, row["id"], row["dedup_key"])
        if kind == "entity":
            return repo.existing_entity(
                self.conn, self.ws, row["id"], str(row.get("entity_type")), str(row.get("normalized_name"))
            )
        if kind == "relation":
            return repo.existing_relation(
                self.conn,
                self.ws,
                row["id"],
                str(row.get("source_entity_id")),
                str(row.get("target_entity_id")),
                str(row.get("relationship")),
            )
        return None

    def _resource(self, data: dict[str, Any]) -> None:
        try:
            written = resource_transfer.restore_one(self.conn, self.ws, data, tenant_id=self.tenant_id)
        except InvalidInput as exc:
            self._bad(exc.message)
        if written:
            self.imported["resource"] += 1
        elif not self.remap:
            raise _IdTaken
        else:
            self.skipped["resource"] += 1

    def _finish(self) -> None:
        """What could only be written once every row was in: entities' merges, and memories that name one that
        resolved to an existing row."""
        for entity_id, old_target in self.merges:
            target = self._new_id("entity", old_target)
            if target is not None and target != entity_id:
                repo.set_merged_into(self.conn, self.ws, entity_id, target)
        if self.remap:
            for old, existing in self.resolved["memory"].items():
                if existing is not None:
                    repo.repoint_memory_refs(self.conn, self.ws, remapped_id(self.ws, old), existing)
