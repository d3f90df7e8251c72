"""The densify preview on a workspace of 2,000 memories (the graph's node cap) with the reference's defaults:
it answers (it held a backend past the statement timeout before), and no statement it runs does work per node
(the nearest embeddings were one LATERAL probe of the ids array per node: 2,000 loops of 2,000 lookups)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from psycopg.rows import dict_row

from shared.domain.graph.service import DensifyConfig, GraphService
from tests.helpers.http import h
from tests.plans import app_role_plans

N = 2000


def _seed(http, ws: str) -> None:
    topics = ["billing", "kettle", "standup", "ledger", "invoice", "deploy", "garden", "coffee"]
    for start in range(0, N, 1000):
        ops = [
            {"op": "create", "content": f"{topics[i % 8]} note {i} about the {topics[(i * 7) % 8]} plan"}
            for i in range(start, start + 1000)
        ]
        r = http.post("/v1/memories/batch", json={"operations": ops}, headers=h(ws))
        assert r.status_code == 200 and r.json()["successful"] == 1000, r.text


class _PlansDb:
    """The service's database, every unit of work on the one app-role session whose plans come back."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    @contextmanager
    def connection(self) -> Iterator[Any]:
        yield self.conn

    transaction = connection


def test_the_densify_preview_of_2000_memories_answers_without_per_node_work(http, ws, settings, database_url):
    _seed(http, ws)
    r = http.post("/v1/graph/densify-preview", json={"workspace_id": ws}, headers=h(ws), timeout=120)
    assert r.status_code == 200, r.text
    preview = r.json()
    assert preview["baseline"]["node_count"] == N and preview["densify"]["cosine"] > 0

    with app_role_plans(database_url, (ws,), analyze=True) as (conn, plans):
        conn.row_factory = dict_row
        again = GraphService(_PlansDb(conn), settings).densify_preview(  # type: ignore[arg-type]
            ws, DensifyConfig(), context_id=None
        )
    assert again["densify"] == preview["densify"]
    looped = [node for plan in plans for node in _looped_nodes(plan)]
    assert not [node for node in looped if _ARRAY.search(node)], "\n\n".join(looped)


# A condition on an array parameter (the ids), as a plan prints it: generic ($2) or custom (its value).
_ARRAY = re.compile(r"= ANY \((\$\d|'\{)")


def _looped_nodes(plan: str, at_least: int = 100) -> list[str]:
    """The nodes of ``plan`` (each with its condition lines) run at least ``at_least`` times: work per node."""
    nodes: list[str] = []
    current: list[str] = []
    for line in plan.splitlines():
        if "->" in line or "loops=" in line and not current:
            if current:
                nodes.append("\n".join(current))
            current = [line]
        elif current:
            current.append(line)
    if current:
        nodes.append("\n".join(current))
    return [
        node
        for node in nodes
        if (found := re.search(r"loops=(\d+)", node)) and int(found.group(1)) >= at_least
    ]
