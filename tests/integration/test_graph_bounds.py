"""Association graphs must not explode: a walk keeps the best path to each node, not every path.

The dense graphs are a security audit's: n memories, every ordered pair linked by 10 relationship types (a walk
that keeps every simple path holds tens of thousands of them at depth 3 over 4 such memories). These tests assert
the bounds by counting (paths, bytes, association rows the statement read), never by timing: the timings are in
bench/graph_bounds.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import psycopg
import pytest
from psycopg.rows import dict_row

from shared.core import ontology

TEN_TYPES = list(ontology.RELATIONSHIPS)[:10]


def _remember(http: httpx.Client, ws: str, content: str, **fields: Any) -> dict:
    r = http.post("/v1/memories", json={"content": content, **fields}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 201, r.text
    return r.json()["memory"]


def _dense_graph(http: httpx.Client, ws: str, n: int, *, metadata: dict | None = None) -> list[str]:
    """n memories; every ordered pair linked once per relationship type (n·(n-1)·10 edges)."""
    ids = [_remember(http, ws, f"dense graph node number {i} about lighthouses")["id"] for i in range(n)]
    for source in ids:
        for target in ids:
            if source == target:
                continue
            for relationship in TEN_TYPES:
                r = http.post(
                    f"/v1/memories/{source}/associate",
                    json={"target_id": target, "relationship": relationship, "metadata": metadata or {}},
                    headers={"X-Workspace-ID": ws},
                )
                assert r.status_code == 201, r.text
    return ids


@contextmanager
def _recursive_statements(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[Any, Any]]]:
    """Record every recursive statement the app runs in this process (the app serves from a thread here)."""
    seen: list[tuple[Any, Any]] = []
    original = psycopg.Connection.execute

    def execute(self: psycopg.Connection, query: Any, params: Any = None, **kwargs: Any) -> Any:
        if "RECURSIVE" in str(query).upper():
            seen.append((query, params))
        return original(self, query, params, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "execute", execute)
    yield seen
    monkeypatch.undo()


def _largest_row_count(database_url: str, query: Any, params: Any) -> tuple[int, str]:
    """The most rows any one step of the statement's plan handled (rows × loops), by EXPLAIN ANALYZE. A walk
    that expands each node once, following at most per_node + 1 edges per direction, never handles more
    than nodes × 2·(per_node + 1) rows in one step; a walk that keeps every path handles one row per path."""
    with psycopg.connect(database_url, row_factory=dict_row) as conn:
        conn.execute("SET statement_timeout = '120s'")
        # Statistics as a running database has them: on never-analysed tables the planner may look up a
        # neighbour by scanning a few-row index per edge, which is cheap there but hides what is measured here.
        conn.execute("ANALYZE memories, associations")
        plan = conn.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {query}", params).fetchone()
    largest = (0, "")
    stack = [next(iter(plan.values()))[0]["Plan"]]
    while stack:
        node = stack.pop()
        rows = int(node["Actual Rows"]) * int(node["Actual Loops"])
        largest = max(largest, (rows, f"{node['Node Type']} {node.get('Relation Name', '')}: {rows} rows"))
        stack.extend(node.get("Plans", []))
    return largest


class TestTraverseBounds:
    def test_traverse_dense_graph_walks_each_node_once_in_one_bounded_statement(
        self, http, ws, settings, database_url, monkeypatch
    ):
        ids = _dense_graph(http, ws, 4)
        with _recursive_statements(monkeypatch) as seen:
            r = http.post(
                f"/v1/memories/{ids[0]}/traverse",
                json={"max_depth": 3, "direction": "both"},
                headers={"X-Workspace-ID": ws},
            )
        assert r.status_code == 200, r.text[:300]
        body = r.json()
        # One path per node reached (the old walk returned 50,460 paths, 41 MB).
        assert body["total_paths"] == len(body["paths"]) == 3
        assert body["unique_nodes"][0] == ids[0] and sorted(body["unique_nodes"]) == sorted(ids)
        assert sorted(p["nodes"][-1] for p in body["paths"]) == sorted(ids[1:])
        assert all(p["nodes"][0] == ids[0] and p["depth"] == len(p["edges"]) == 1 for p in body["paths"])
        assert len(r.content) < 20_000
        # The walk is one recursive statement, and no step of it handled more rows than each node's capped
        # edges (per_node + 1 per direction).
        assert len(seen) == 1
        per_node = getattr(settings, "graph_max_edges_per_node", 50) + 1
        rows, step = _largest_row_count(database_url, *seen[0])
        assert rows <= len(ids) * 2 * per_node, step

    def test_traverse_caps_paths_and_says_truncated(self, http, ws, settings, monkeypatch):
        ids = _dense_graph(http, ws, 4)
        monkeypatch.setattr(settings, "graph_max_nodes", 2)
        r = http.post(
            f"/v1/memories/{ids[0]}/traverse", json={"max_depth": 3}, headers={"X-Workspace-ID": ws}
        )
        assert r.status_code == 200
        body = r.json()
        assert body["total_paths"] == len(body["paths"]) == 2 and body["truncated"] is True

    def test_traverse_caps_response_bytes(self, http, ws, settings, monkeypatch):
        ids = [_remember(http, ws, f"hub and spoke {i}")["id"] for i in range(6)]
        padding = {"note": "x" * 30_000}
        for spoke in ids[1:]:
            r = http.post(
                f"/v1/memories/{ids[0]}/associate",
                json={"target_id": spoke, "relationship": "related_to", "metadata": padding},
                headers={"X-Workspace-ID": ws},
            )
            assert r.status_code == 201
        monkeypatch.setattr(settings, "traverse_max_response_bytes", 100_000)
        r = http.post(f"/v1/memories/{ids[0]}/traverse", json={}, headers={"X-Workspace-ID": ws})
        assert r.status_code == 200
        body = r.json()
        assert len(r.content) <= 100_000 + 2_000  # the cap covers the paths; the envelope is small
        assert 1 <= body["total_paths"] == len(body["paths"]) < 5 and body["truncated"] is True


class TestRecallExpansionBounds:
    def test_recall_expansion_dense_graph_visits_each_node_once_in_sql(
        self, http, ws, settings, database_url, monkeypatch
    ):
        ids = _dense_graph(http, ws, 6)
        with _recursive_statements(monkeypatch) as seen:
            r = http.post(
                "/v1/memories/recall",
                json={"query": "lighthouses", "traverse_depth": 3, "limit": 3, "include_associations": True},
                headers={"X-Workspace-ID": ws},
            )
        assert r.status_code == 200, r.text[:300]
        assert {m["id"] for m in r.json()["memories"]} <= set(ids)
        walks = [s for s in seen if "associations" in str(s[0])]
        assert len(walks) == 1
        per_node = getattr(settings, "graph_max_edges_per_node", 50) + 1
        # The old expansion CTE handled millions of rows here (one per path) before its LIMIT.
        rows, step = _largest_row_count(database_url, *walks[0])
        assert rows <= len(ids) * 2 * per_node, step


def _import(http: httpx.Client, ws: str, data: dict) -> httpx.Response:
    return http.post(f"/v1/workspaces/{ws}/import", json={"data": data})


def _memory_count(http: httpx.Client, ws: str) -> int:
    r = http.post("/v1/memories/recall", json={"query": "*", "limit": 100}, headers={"X-Workspace-ID": ws})
    return len(r.json()["memories"]) if r.status_code == 200 else 0


def _export_data(n_edges: int, **edge: Any) -> dict:
    memories = [{"id": f"old_{i}", "content": f"imported memory {i}"} for i in range(3)]
    edges = [
        {
            "id": f"assoc_old_{k}",
            "source_id": "old_0",
            "target_id": "old_1",
            "relationship": TEN_TYPES[k % len(TEN_TYPES)],
            "strength": 0.5,
            **edge,
        }
        for k in range(n_edges)
    ]
    return {"memories": memories, "associations": edges}


class TestAssociationInput:
    @pytest.mark.parametrize("strength", [1e30, -5])
    def test_association_strength_out_of_range_is_rejected_everywhere(self, http, ws, strength):
        h = {"X-Workspace-ID": ws}
        a, b = _remember(http, ws, "strength source")["id"], _remember(http, ws, "strength target")["id"]
        r = http.post(
            f"/v1/memories/{a}/associate",
            json={"target_id": b, "relationship": "causes", "strength": strength},
            headers=h,
        )
        assert 400 <= r.status_code < 500
        edge = http.post(
            f"/v1/memories/{a}/associate", json={"target_id": b, "relationship": "causes"}, headers=h
        ).json()
        r = http.patch(f"/v1/memories/{a}/associations/{edge['id']}", json={"strength": strength}, headers=h)
        assert 400 <= r.status_code < 500
        edges = http.get(f"/v1/memories/{a}/associations", headers=h).json()["associations"]
        assert [e["strength"] for e in edges] == [0.5]

        other = f"{ws}_import"
        r = _import(http, other, _export_data(1, strength=strength))
        assert 400 <= r.status_code < 500, r.text
        assert _memory_count(http, other) == 0

    def test_association_strength_check_constraint_in_database(self, http, ws, database_url):
        h = {"X-Workspace-ID": ws}
        a, b = _remember(http, ws, "constraint source")["id"], _remember(http, ws, "constraint target")["id"]
        edge = http.post(
            f"/v1/memories/{a}/associate", json={"target_id": b, "relationship": "causes"}, headers=h
        ).json()
        with psycopg.connect(database_url) as conn, pytest.raises(psycopg.errors.CheckViolation):
            conn.execute("UPDATE associations SET strength = 1e30 WHERE id = %s", (edge["id"],))

    def test_association_metadata_7mb_is_rejected(self, http, ws):
        h = {"X-Workspace-ID": ws}
        a, b = _remember(http, ws, "metadata source")["id"], _remember(http, ws, "metadata target")["id"]
        huge = {"blob": "x" * (7 * 1024 * 1024)}
        r = http.post(
            f"/v1/memories/{a}/associate",
            json={"target_id": b, "relationship": "causes", "metadata": huge},
            headers=h,
        )
        assert r.status_code == 413, r.status_code
        edge = http.post(
            f"/v1/memories/{a}/associate", json={"target_id": b, "relationship": "causes"}, headers=h
        ).json()
        r = http.patch(f"/v1/memories/{a}/associations/{edge['id']}", json={"metadata": huge}, headers=h)
        assert r.status_code == 413
        deep: dict = {}
        for _ in range(40):
            deep = {"d": deep}
        r = http.patch(f"/v1/memories/{a}/associations/{edge['id']}", json={"metadata": deep}, headers=h)
        assert 400 <= r.status_code < 500
        edges = http.get(f"/v1/memories/{a}/associations", headers=h).json()["associations"]
        assert [e["metadata"] for e in edges] == [{}]

        other = f"{ws}_import"
        r = _import(http, other, _export_data(1, metadata={"blob": "x" * (1024 * 1024)}))
        assert 400 <= r.status_code < 500
        assert _memory_count(http, other) == 0

    def test_import_over_association_cap_is_rejected_and_changes_nothing(self, http, ws, settings):
        cap = getattr(settings, "max_import_associations", 10_000)
        r = _import(http, ws, _export_data(cap + 1))
        assert 400 <= r.status_code < 500, r.text[:300]
        assert "associations" in json.dumps(r.json())
        assert _memory_count(http, ws) == 0
