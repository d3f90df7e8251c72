"""The knowledgebase behind ``/v1/knowledgebase`` and the ``/kb`` viewer: generate (read the workspace, cut its
graph into communities, write the articles, store them in place of the last set), read what was stored, export
it as an Obsidian vault, and analyse the live graph.

    >>> kb = KnowledgebaseService(db)                                                   # doctest: +SKIP
    >>> kb.generate("ws_a", tenant_id="_default")["article_count"]                      # doctest: +SKIP
    7

Generation is deterministic (no LLM): the same workspace gives the same articles, ids and communities.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from shared.core.errors import InvalidInput, NotFound
from shared.db import graph as graph_repo
from shared.db import knowledgebase as repo
from shared.db.pool import Database
from shared.db.rows import Connection
from shared.db.workspaces import ensure_workspace
from shared.domain.graph import algorithms as alg
from shared.domain.graph.analysis import Analysis, Community, analyze, node_label
from shared.domain.knowledgebase import articles as writer

# What one generation or analysis reads at most: a bigger workspace is cut from its oldest ids.
MAX_MEMORIES = 5000
MAX_ASSOCIATIONS = 50_000
MAX_ENTITIES = 5000
MAX_RELATIONS = 20_000
MAX_ARTICLES = 1000  # listed by a viewer, written to a vault
ARTICLE_TYPES = ("index", "community", "entity")

# The graph's shape and analysis: memories about one entity are linked as a star around its first memory (edges
# linear in its memories, not quadratic), an association between the same two winning.
SHARES_ENTITY = "shares_entity"
SHARED_ENTITY_STRENGTH = 0.5
MAX_PER_ENTITY = 100  # memories of one entity linked into the graph
MIN_WEIGHT = 0.01  # what the weakest link weighs in label propagation
ROUNDS = 30  # label propagation stops after this many sweeps even if labels still move
PIVOTS = 100  # betweenness is exact up to this many nodes, sampled from at most this many sources above it
PATH_BUDGET = 400_000  # node and edge visits the sampled sources may take together (a dense graph: fewer)
MAX_LISTED = 100  # central nodes and bridges reported


def memory_graph(
    memories: Iterable[Mapping], associations: Iterable[Mapping], entity_memories: Mapping[str, Iterable[str]]
) -> tuple[alg.Graph, dict[str, str | None]]:
    """The undirected memory graph (nodes: memories; edges: associations, then shared entities; the first link
    between two memories stays) and each node's display label (its first line, else its id).

    >>> g, _ = memory_graph([{"id": "m1"}, {"id": "m2"}, {"id": "m3"}], [], {"ent_alice": ["m2", "m1"]})
    >>> [(a, b, e.relationship) for a, b, e in g.edges()], g.has("m3")
    ([('m1', 'm2', 'shares_entity')], True)
    """
    labels: dict[str, str | None] = {m["id"]: node_label(m.get("content")) or m["id"] for m in memories}
    g = alg.Graph()
    for node in labels:
        g.add_node(node)

    def link(a: str, b: str, relationship: str, strength: float) -> None:
        if g.has(a) and g.has(b) and not g.linked(a, b):
            g.add_edge(a, b, float(strength), relationship)

    for a in associations:
        link(a["source_id"], a["target_id"], a["relationship"], a["strength"])
    for entity_id in sorted(entity_memories):
        members = sorted({m for m in entity_memories[entity_id] if g.has(m)})[:MAX_PER_ENTITY]
        for other in members[1:]:
            link(members[0], other, SHARES_ENTITY, SHARED_ENTITY_STRENGTH)
    return g, labels


def analyze_graph(g: alg.Graph, labels: dict[str, str | None], *, central: bool = True) -> Analysis:
    """The knowledgebase's analysis: the graph analysis with its own bounds (``PIVOTS``, ``PATH_BUDGET``,
    ``ROUNDS``, ``MAX_LISTED``)."""
    return analyze(
        g,
        labels,
        pivots=PIVOTS,
        budget=PATH_BUDGET,
        stride=True,
        central=central,
        rounds=ROUNDS,
        floor=MIN_WEIGHT,
        limit=MAX_LISTED,
    )


def _filled(conn: Connection, workspace_id: str, rows: list[dict]) -> list[dict]:
    """Articles as stored, their memory placeholders filled in with the memories' text now (a memory forgotten
    since the generation shows as forgotten)."""
    wanted: set[str] = set()
    for row in rows:
        wanted |= writer.referenced(row["title"]) | writer.referenced(row.get("content_md", ""))
    contents = repo.memory_contents(conn, workspace_id, sorted(wanted))
    filled = [dict(row, title=writer.resolve(row["title"], contents)) for row in rows]
    for row in filled:
        if "content_md" in row:
            row["content_md"] = writer.resolve(row["content_md"], contents)
    return filled


class KnowledgebaseService:
    def __init__(self, db: Database) -> None:
        self.db = db

    def _read(
        self, workspace_id: str, context_id: str | None
    ) -> tuple[writer.Sources, alg.Graph, dict[str, str | None], str]:
        with self.db.connection() as conn:
            memories = graph_repo.active_memories(conn, workspace_id, context_id, MAX_MEMORIES)
            ids = [m["id"] for m in memories]
            associations = (
                graph_repo.associations_among(conn, workspace_id, ids, MAX_ASSOCIATIONS) if ids else []
            )
            entities = repo.active_entities(conn, workspace_id, MAX_ENTITIES)
            relations = repo.active_relations(conn, workspace_id, MAX_RELATIONS)
            name = repo.workspace_name(conn, workspace_id) or workspace_id
        by_id = {e["id"]: e for e in entities}
        sources = writer.Sources(
            memories={m["id"]: m for m in memories},
            entities=by_id,
            relations=[
                r for r in relations if r["source_entity_id"] in by_id and r["target_entity_id"] in by_id
            ],
        )
        graph, labels = memory_graph(memories, associations, sources.entity_memories())
        return sources, graph, labels, name

    def analyze(self, workspace_id: str, context_id: str | None = None, *, central: bool = True) -> Analysis:
        """A fresh analysis of the workspace's graph (nothing is stored)."""
        _, graph, labels, _ = self._read(workspace_id, context_id)
        return analyze_graph(graph, labels, central=central)

    def generate(
        self,
        workspace_id: str,
        *,
        tenant_id: str,
        context_id: str | None = None,
        max_communities: int = 50,
        max_entities: int = 20,
    ) -> dict[str, Any]:
        """Write the workspace's articles and store them in place of the previous ones; returns the summary."""
        sources, graph, labels, name = self._read(workspace_id, context_id)
        analysis = analyze_graph(graph, labels)
        now = datetime.now(UTC)
        written, coverage = writer.write(
            workspace_id,
            name,
            analysis,
            sources,
            max_communities=max_communities,
            max_entities=max_entities,
            now=now,
        )
        summary = {
            "workspace_id": workspace_id,
            "article_count": len(written),
            "community_count": sum(1 for a in written if a["article_type"] == "community"),
            "generated_at": now,
            "stats": asdict(analysis.stats),
            "coverage": coverage,
        }
        with self.db.transaction() as conn:
            ensure_workspace(conn, workspace_id, tenant_id)
            repo.replace(conn, workspace_id, summary, written)
        return summary

    def get(self, workspace_id: str) -> dict[str, Any]:
        with self.db.connection() as conn:
            found = repo.get_knowledgebase(conn, workspace_id)
        if found is None:
            raise NotFound(
                "no knowledgebase for this workspace: POST /v1/knowledgebase/generate first",
                code="knowledgebase_not_found",
            )
        return found

    def list_articles(
        self, workspace_id: str, article_type: str | None, limit: int, offset: int
    ) -> list[dict[str, Any]]:
        if article_type is not None and article_type not in ARTICLE_TYPES:
            raise InvalidInput(
                f"article_type must be one of {', '.join(ARTICLE_TYPES)}", code="invalid_article_type"
            )
        with self.db.connection() as conn:
            rows = repo.list_articles(conn, workspace_id, article_type, limit, offset)
            return _filled(conn, workspace_id, rows)

    def article(self, workspace_id: str, article_id: str) -> dict[str, Any]:
        with self.db.connection() as conn:
            found = repo.get_article(conn, workspace_id, article_id)
            if found is None:
                raise NotFound(f"article {article_id[:200]} not found", code="kb_article_not_found")
            return _filled(conn, workspace_id, [found])[0]

    def community(self, workspace_id: str, community_id: int) -> Community:
        """A community of the live graph, titled as its stored article when the last generation wrote one."""
        found = next(
            (c for c in self.analyze(workspace_id, central=False).communities if c.id == community_id), None
        )
        if found is None:
            raise NotFound(f"community {community_id} not found", code="kb_community_not_found")
        with self.db.connection() as conn:
            stored = repo.get_article(conn, workspace_id, f"community-{community_id}")
            if (
                stored is not None
                and stored["metadata"].get("member_ids") == found.memory_ids[: writer.MEMBERS_SHOWN]
            ):
                found.label = _filled(conn, workspace_id, [stored])[0]["title"]
        return found

    def vault(self, workspace_id: str) -> bytes:
        """The stored articles as an Obsidian vault: ``index.md``, ``communities/…``, ``entities/…``."""
        with self.db.connection() as conn:
            stored = _filled(
                conn, workspace_id, repo.list_articles(conn, workspace_id, None, MAX_ARTICLES, 0)
            )
        if not stored:
            raise NotFound(
                "no knowledgebase articles: POST /v1/knowledgebase/generate first",
                code="knowledgebase_not_found",
            )
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, mode="w", compression=zipfile.ZIP_DEFLATED) as vault:
            for article in stored:
                entry = zipfile.ZipInfo(
                    writer.vault_path(article["article_type"], article["id"]) + ".md",
                    date_time=article["generated_at"].astimezone(UTC).timetuple()[:6],
                )
                entry.compress_type = zipfile.ZIP_DEFLATED
                vault.writestr(entry, article["content_md"])
        return buffer.getvalue()

    def viewer(self, workspace_id: str, article_id: str | None) -> tuple[list[dict], dict | None]:
        """A viewer's navigation (every article's id, type and title) and the article to show: the one asked
        for, else the index, else the first."""
        with self.db.connection() as conn:
            titles = repo.article_titles(conn, workspace_id, MAX_ARTICLES)
            if not titles:
                return [], None
            known = {t["id"] for t in titles}
            wanted: str = titles[0]["id"]
            if article_id is not None and article_id in known:
                wanted = article_id
            elif "index" in known:
                wanted = "index"
            shown = repo.get_article(conn, workspace_id, wanted)
            return _filled(conn, workspace_id, titles), _filled(conn, workspace_id, [shown])[
                0
            ] if shown else None

    def article_counts(self, workspace_ids: list[str]) -> dict[str, int]:
        with self.db.connection() as conn:
            return repo.article_counts(conn, workspace_ids)
