"""The recall statement, read once from ``recall.sql`` (package data), and its parameters.

    >>> sql = hybrid_sql(384)                                          # doctest: +SKIP
    >>> params = {**filter_params(req, ["ws_a"]), "q": vector, ...}    # doctest: +SKIP

``recall.sql`` is the statement as it runs: every value a named parameter. Loading fills in only what is fixed
for a process: the embedding size ``{dims}`` (literal, so the HNSW index on ``embedding::vector(384)`` is
used), the memory columns ``{memory_columns}`` and the shared WHERE block ``{filters}`` (the file's last part).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from shared.db.memories import QUALIFIED_COLUMNS
from shared.models import RecallRequest

_FILTERS_MARK = "-- filters --"


def _read() -> tuple[str, str]:
    text = (resources.files("shared.retrieval") / "recall.sql").read_text()
    body, filters = text.split(_FILTERS_MARK)
    # The file opens with a comment about the file itself (it names the placeholders): not part of the SQL.
    lines = body.splitlines()
    while lines and (lines[0].startswith("--") or not lines[0].strip()):
        lines.pop(0)
    return "\n".join(lines).strip(), filters.strip()


_BODY, FILTERS = _read()

BROWSE_SQL = f"""
SELECT {QUALIFIED_COLUMNS}, NULL::float8 AS cosine, NULL::real AS text_score, NULL::bigint AS vec_rank,
       NULL::bigint AS text_rank, 1.0::float8 AS relevance, 1.0::float8 AS boosted,
       count(*) OVER () AS pool, NULL::bigint AS scope_n
FROM memories m WHERE {FILTERS}
ORDER BY coalesce(m.event_time, m.created_at) DESC, m.id
LIMIT %(limit)s OFFSET %(offset)s
"""


@cache
def hybrid_sql(dims: int) -> str:
    """The ranking statement for embeddings of ``dims`` dimensions."""
    return (
        _BODY.replace("{filters}", FILTERS)
        .replace("{memory_columns}", QUALIFIED_COLUMNS)
        .replace("{dims}", str(int(dims)))
    )


def filter_params(req: RecallRequest, workspace_ids: list[str]) -> dict[str, Any]:
    """The values of ``{filters}``: NULL for a filter the request does not use."""
    tags = sorted({t.strip().lower() for t in req.tags if t.strip()})
    return {
        "ws": workspace_ids,
        "include_archived": req.include_archived,
        "include_history": req.include_history,
        "types": list(req.types) or None,
        "subtypes": list(req.subtypes) or None,
        "exclude_ids": list(req.exclude_ids) or None,
        "tags": tags or None,
        "user_id": req.user_id,
        "observer_id": req.observer_id,
        "subject_id": req.subject_id,
        "created_after": req.created_after,
        "created_before": req.created_before,
        "event_after": req.event_after,
        "event_before": req.event_before,
    }
