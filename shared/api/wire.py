"""Domain values shaped into the wire's JSON: the response models' forms, for bodies built as dicts (recall's hot
path, the briefing, traverse) and for the NDJSON export, which is the API's memory form too (an import reads it).

    >>> from datetime import UTC, datetime
    >>> association({"id": "assoc_1", "workspace_id": "w", "source_id": "mem_a", "target_id": "mem_b",
    ...     "relationship": "related_to", "strength": 0.5, "metadata": {},
    ...     "created_at": datetime(2026, 11, 29, 14, 40, tzinfo=UTC)})["created_at"]
    '2026-11-29T14:40:00Z'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from shared.api.schemas import Association, EntityRelation, Memory
from shared.core.wire import canonical_json
from shared.domain.memories.service import Walk

# What recall adds to a memory, in the order the wire sends it (``embedding`` when asked for, ``truncated`` when
# the token budget cut the content).
_RECALL_KEYS = (
    "relevance_score",
    "boosted_score",
    "match_signals",
    "source_scope",
    "age_days",
    "freshness_score",
    "embedding",
    "truncated",
)


def memory(row: dict[str, Any], *, embedding: bool = False) -> dict[str, Any]:
    """A memory row as the ``Memory`` model sends it; ``embedding`` only when asked for."""
    return Memory.from_row(row, embedding=embedding).model_dump(mode="json")


def association(row: dict[str, Any]) -> dict[str, Any]:
    return Association.from_row(row).model_dump(mode="json")


def recall(result: dict[str, Any]) -> dict[str, Any]:
    """The recaller's result with its memories and relation paths in wire form (the other keys are JSON)."""
    out = dict(result)
    out["memories"] = [_recalled(m) for m in result["memories"]]
    out["relation_paths"] = [
        dict(path, relations=[_relation(r) for r in path["relations"]]) for path in result["relation_paths"]
    ]
    return out


def _recalled(found: dict[str, Any]) -> dict[str, Any]:
    # The ETag recall took before the budget could cut the content: the memory's, not the excerpt's.
    out = Memory.from_row(found, etag=found["etag"]).model_dump(mode="json")
    out.update((key, found[key]) for key in _RECALL_KEYS if key in found)
    return out


def _relation(row: dict[str, Any]) -> dict[str, Any]:
    return EntityRelation.from_row(row).model_dump(mode="json")


def briefing(body: dict[str, Any]) -> dict[str, Any]:
    """The briefing with its recent memories in wire form."""
    return dict(body, memories=[memory(r) for r in body["memories"]])


def traversal(walk: Walk, max_bytes: int) -> dict[str, Any]:
    """The walk's paths in wire form, cut where the response would pass ``max_bytes`` (each path repeats its
    edges and their metadata: what is counted is what is sent)."""
    shaped: dict[int, dict[str, Any]] = {}  # a path shares its edge rows with its parent's: shape each once

    def edge(row: dict[str, Any]) -> dict[str, Any]:
        if id(row) not in shaped:
            shaped[id(row)] = association(row)
        return shaped[id(row)]

    paths: list[dict[str, Any]] = []
    truncated, size = walk.truncated, 0
    for route in walk.paths:
        path = {
            "nodes": route["nodes"],
            "edges": [edge(row) for row in route["edges"]],
            "total_strength": route["total_strength"],
            "depth": route["depth"],
        }
        size += len(canonical_json(path).encode())
        if size > max_bytes:
            truncated = True
            break
        paths.append(path)
    # The ids themselves, as the reference and SDKs give them: the start first, then in the order reached.
    unique = list(dict.fromkeys([walk.start_id, *(n for p in paths for n in p["nodes"])]))
    return {"paths": paths, "total_paths": len(paths), "unique_nodes": unique, "truncated": truncated}


def export_lines_v2(header: dict[str, Any], records: Iterable[tuple[str, dict[str, Any]]]) -> Iterator[str]:
    """Export format 2 (docs/export-format.md): a memory's ``data`` is the wire model (what version-1 readers and
    SDK 0.2.1 parse) and its ``row`` the stored columns that ``data`` does not already carry as they are."""
    yield json.dumps(header) + "\n"
    for kind, row in records:
        if kind == "end":
            yield json.dumps({"type": "end", **row}) + "\n"
        elif kind == "memory":
            data = memory(row["row"])
            extra = {k: v for k, v in row["raw"].items() if k not in data or data[k] != v}
            yield json.dumps({"type": kind, "data": data, "row": extra}) + "\n"
        else:
            yield json.dumps({"type": kind, "data": row}) + "\n"


def export_lines(header: dict[str, Any], records: Iterable[tuple[str, dict[str, Any]]]) -> Iterator[str]:
    """The NDJSON export: the header line, then one line per memory, association and resource."""
    yield json.dumps(header) + "\n"
    for kind, row in records:
        if kind == "memory":
            data = memory(row)
            if row["stale_by"]:  # not on the wire; kept so an import ranks the turn as this one does
                data["stale_by"] = row["stale_by"]
        elif kind == "association":
            data = association(row)
        else:
            data = row
        yield json.dumps({"type": kind, "data": data}) + "\n"
