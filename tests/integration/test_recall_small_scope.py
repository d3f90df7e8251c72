"""A small scope in a shared table, recalled through the function that sorts it (recall_sorted_*): its kept,
generic plan walks no graph whatever the workspace, and it ranks as the ad-hoc statement planned with the values.
The walking function's plan, in the same session, does walk the graph: the check can tell them apart.
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from shared.app.services import Services
from shared.db import rls
from shared.db.recall import hot_function, is_hot
from shared.domain.requests import RecallRequest
from tests.own_database import owner_and_app_services
from tests.plans import recall_plans

SMALL = "ws_small"

# 100 other workspaces of 30 memories and the small one of 40, every row in generation 0's graph; the vectors
# random (each row's own: the subquery refers to the row), words shared so the text arm lists some.
WORKSPACES = """
INSERT INTO workspaces (id, name)
SELECT 'ws_' || w, 'w' FROM generate_series(1, 100) AS w UNION ALL SELECT 'ws_small', 'small'
"""
TABLE = """
INSERT INTO memories (id, workspace_id, content, content_hash, dedup_key, type, embedding, embedding_model,
                      vector_gen)
SELECT ws || '_' || i, ws, (ARRAY['harbour lights', 'a ferry at dawn', 'coffee by the lighthouse'])[i %% 3 + 1]
                          || ' ' || i,
       ws || i, ws || i, 'fact',
       (SELECT array_agg(random() - 0.5)::real[] FROM generate_series(1, 384) WHERE i > 0)::vector,
       %(model)s, 0
FROM (SELECT 'ws_' || w AS ws, 30 AS n FROM generate_series(1, 100) AS w UNION ALL SELECT 'ws_small', 40) AS t,
     generate_series(1, 40) AS i
WHERE i <= n
"""


@pytest.fixture(scope="module")
def shared_table(superuser_url: str, rds_proxy) -> Iterator[tuple[Services, str]]:
    with owner_and_app_services(superuser_url, rds_proxy.dsn, "sorted") as (services, owner):
        with psycopg.connect(owner, autocommit=True) as conn:
            conn.execute(WORKSPACES)
            conn.execute(TABLE, {"model": services.embedder.model_id})
            conn.execute("VACUUM ANALYZE memories")
        yield services, owner


@pytest.mark.parametrize("query", ["coffee by the lighthouse", "harbour ferry", "dawn"])
def test_the_sorting_function_walks_no_graph_and_ranks_as_the_ad_hoc_statement(
    shared_table, superuser_url: str, query: str
) -> None:
    services, owner = shared_table
    dims = services.embedder.dimensions
    scope = (SMALL, "_global")
    with rls.visible(scope):
        sql, params = services.recaller.statement(list(scope), RecallRequest(query=query, limit=10))
        assert is_hot(params)
        with services.db.connection() as conn:
            ad_hoc = [r["id"] for r in conn.execute(sql, params).fetchall()]
    superuser = make_conninfo(superuser_url, dbname=str(conninfo_to_dict(owner)["dbname"]))
    sorted_plans, sorted_rows = recall_plans(superuser, hot_function(dims, walk=False).call, params, scope, 7)
    walking_plans, _ = recall_plans(superuser, hot_function(dims).call, params, scope, 1)
    assert len(ad_hoc) == 10 and all(i.startswith(f"{SMALL}_") for i in ad_hoc)
    assert sorted_rows == [ad_hoc] * 7  # past the plan cache's five custom plans: the kept plan too
    assert len(sorted_plans) == 7
    assert not [p for p in sorted_plans if f"memories_embedding_{dims}" in p], sorted_plans[-1]
    assert f"Index Scan using memories_embedding_{dims}_g0" in walking_plans[0]
