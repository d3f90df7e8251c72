"""recall.sql as loaded: complete, bundled, and fed every parameter it names (no database needed)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from infra.bundle import _is_package_data, _package_data_patterns
from shared.core.settings import Settings
from shared.db.recall import BROWSE_SQL, hybrid_sql
from shared.domain.requests import RecallRequest
from shared.domain.retrieval.expansion import EXPANSION_SQL
from shared.domain.retrieval.recall import Recaller

ROOT = Path(__file__).resolve().parents[2]
NAMES = re.compile(r"%\((\w+)\)s")


class _NoStats:
    """A connection whose pg_stats has nothing for memories.tsv (and no workspace has a graph of its own)."""

    def execute(self, *args: object) -> _NoStats:
        return self

    def fetchone(self) -> None:
        return None

    def fetchall(self) -> list[object]:
        return []


def test_the_statement_is_bundled_with_the_lambda_code():
    assert _is_package_data(Path("shared/db/recall.sql"), _package_data_patterns(ROOT))


def test_every_placeholder_is_filled_when_loaded():
    sql = hybrid_sql(384)
    assert "{" not in sql.replace("'{}'", ""), "an unfilled {placeholder}"
    assert "embedding::vector(384)" in sql
    assert "%(" not in "\n".join(line for line in sql.splitlines() if line.lstrip().startswith("--"))
    own = hybrid_sql(384, 2, "ws_a")
    assert "{" not in own.replace("'{}'", "")
    assert own.count("m.workspace_id = 'ws_a'") == 3 and own.count("array_remove(%(ws)s, 'ws_a')") == 1


@pytest.mark.parametrize(
    "body",
    [
        {"query": "when did Jon open his studio?"},
        {"query": "redis", "types": ["semantic"], "tags": ["Ops"], "user_id": "u", "exclude_ids": ["m"]},
        {"query": "!!!"},
        {"query": "*"},
    ],
)
def test_the_request_gives_every_named_parameter(body):
    from shared.providers.embeddings import create_embedder

    settings = Settings(embedding_provider="hash", database_url="postgresql://unused/x")
    recaller = Recaller(None, create_embedder(settings), settings)  # type: ignore[arg-type]
    sql, params = recaller.statement(["ws_a"], RecallRequest(**body), _NoStats())  # type: ignore[arg-type]
    assert set(NAMES.findall(sql)) <= set(params)
    # Association expansion reuses the same parameters for its filters.
    walk = {"walk_seeds", "walk_scores", "walk_depth", "walk_per_node", "walk_max_nodes", "walk_decay",
            "walk_rels", "walk_min_strength", "max_expansion"}  # fmt: skip
    assert set(NAMES.findall(EXPANSION_SQL)) <= set(params) | walk
    if body["query"] == "*":
        assert sql == BROWSE_SQL
