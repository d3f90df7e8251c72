"""The articles of a knowledgebase, written in Obsidian-flavoured Markdown without an LLM: an index, one
article per community of memories and one per entity (its summary said from its relations, its links to the
entities it relates to). Every link is a ``[[vault/path|Title]]`` wikilink to an article this generation
writes; anything without an article is plain text.

    >>> slugify("Alice Chen / ACME")
    'alice-chen-acme'
    >>> vault_path("entity", "entity-alice-chen-1a2b3c4d")
    'entities/alice-chen-1a2b3c4d'
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from shared.domain.graph.analysis import Analysis, Community

MIN_COMMUNITY_SIZE = 2  # a single memory is not a topic: it gets no community article
MEMBERS_SHOWN = 50
FACTS_SHOWN = 50
MEMORIES_SHOWN = 20
TEXT_SHOWN = 240
MEMORIES_PER_ENTITY = 100  # an entity's memories a generation looks at (as the graph links)


def slugify(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].strip("-")
    return slug or "unknown"


def vault_path(article_type: str, article_id: str) -> str:
    """Where an article sits in the exported vault (without ``.md``); links use the same path."""
    if article_type == "community":
        return f"communities/{article_id}"
    if article_type == "entity":
        return f"entities/{article_id.removeprefix('entity-')}"
    return article_id


def inline(text: str | None, limit: int = TEXT_SHOWN) -> str:
    """Stored text made one safe line of Markdown: no line breaks, no wikilink or placeholder of its own,
    shortened."""
    flat = " ".join((text or "").split())
    for pair in ("[[", "]]", "{{", "}}"):
        flat = flat.replace(pair, " ".join(pair))
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


# A memory's text is not written into an article: a placeholder is, filled in when the article is read, so a
# memory forgotten after the generation is gone from every article at once (``resolve``).
_PLACEHOLDER = re.compile(r"\{\{memory(-json)?:([A-Za-z0-9_.-]+):(\d+)\}\}")
FORGOTTEN = "(forgotten)"


def memory_text(memory_id: str, limit: int = TEXT_SHOWN) -> str:
    """The placeholder of a memory's text, shortened to ``limit`` when it is filled in."""
    return f"{{{{memory:{memory_id}:{limit}}}}}"


def referenced(text: str) -> set[str]:
    """The memories whose text ``text`` holds a placeholder of."""
    return {m.group(2) for m in _PLACEHOLDER.finditer(text)}


def resolve(text: str, contents: Mapping[str, str]) -> str:
    """``text`` with each placeholder filled in from ``contents`` (memory id -> its text; one absent, i.e.
    forgotten, shows as ``FORGOTTEN``), made safe as ``inline`` makes it (JSON-quoted in front matter).

    >>> resolve("- {{memory:mem_1:5}} / {{memory:mem_2:80}}", {"mem_1": "Alice likes tea"})
    '- Alic… / (forgotten)'
    """

    def fill(m: re.Match[str]) -> str:
        found = contents.get(m.group(2))
        shown = inline(found, int(m.group(3))) if found is not None else FORGOTTEN
        return json.dumps(shown, ensure_ascii=False) if m.group(1) else shown

    return _PLACEHOLDER.sub(fill, text)


def _display(title: str, limit: int) -> str:
    """A title as Markdown text: a placeholder stays one (it is filled in on read), anything else is inlined."""
    return title if _PLACEHOLDER.fullmatch(title) else inline(title, limit)


def _yaml(value: Any) -> str:
    # JSON scalars and lists are valid YAML flow values, and quote whatever a name holds; a placeholder is
    # filled in JSON-quoted.
    if isinstance(value, str) and _PLACEHOLDER.fullmatch(value):
        return value.replace("{{memory:", "{{memory-json:", 1)
    return json.dumps(value, ensure_ascii=False)


def _frontmatter(fields: Mapping[str, Any]) -> str:
    return "---\n" + "".join(f"{k}: {_yaml(v)}\n" for k, v in fields.items()) + "---\n\n"


@dataclass
class Links:
    """The articles this generation writes, by what links to them."""

    entities: dict[str, tuple[str, str]]  # entity id -> (article id, title)
    communities: dict[int, tuple[str, str]]  # community id -> (article id, title)

    def entity(self, entity_id: str, fallback: str) -> str:
        found = self.entities.get(entity_id)
        return (
            f"[[{vault_path('entity', found[0])}|{inline(found[1], 80)}]]" if found else inline(fallback, 80)
        )

    def community(self, community_id: int, fallback: str) -> str:
        found = self.communities.get(community_id)
        if not found:
            return inline(fallback, 80)
        return f"[[{vault_path('community', found[0])}|{_display(found[1], 80)}]]"


@dataclass
class Sources:
    """What a generation read: memories by id, entities by id, active relations."""

    memories: Mapping[str, Mapping]
    entities: Mapping[str, Mapping]
    relations: Sequence[Mapping]

    def entity_memories(self) -> dict[str, list[str]]:
        """Entity id -> the memories that are evidence of its relations or are about it (the first
        ``MEMORIES_PER_ENTITY`` by id)."""
        found: dict[str, set[str]] = {e: set() for e in self.entities}
        for rel in self.relations:
            for end in (rel["source_entity_id"], rel["target_entity_id"]):
                if end in found:
                    found[end].update(rel["memory_ids"] or ())
        for memory in self.memories.values():
            if memory.get("subject_id") in found:
                found[memory["subject_id"]].add(memory["id"])
        return {e: sorted(ids)[:MEMORIES_PER_ENTITY] for e, ids in found.items()}


def _name(entity: Mapping) -> str:
    return str(entity.get("canonical_name") or entity["id"])


def entities_of(
    community: Community, memory_entities: Mapping[str, Iterable[str]], sources: Sources
) -> list[str]:
    """The entities a community's memories are about, the most of its memories first (then by name)."""
    weight = Counter(e for m in community.memory_ids for e in memory_entities.get(m, ()))
    return sorted(weight, key=lambda e: (-weight[e], _name(sources.entities[e]).lower(), e))


def community_title(community: Community, sources: Sources, about: Sequence[str]) -> str:
    """The names of the entities most of its memories are about, else its most central memory's first line."""
    if about:
        return ", ".join(_name(sources.entities[e]) for e in about[:2])
    for memory_id in community.central_node_ids:
        if inline(sources.memories.get(memory_id, {}).get("content")):
            return memory_text(memory_id, 60)
    return f"Community {community.id}"


def rank_entities(sources: Sources, entity_memories: Mapping[str, list[str]]) -> list[str]:
    """Entities with the most facts and memories first (then by name), the ones an article is written for."""
    facts: Counter[str] = Counter()
    for rel in sources.relations:
        facts[rel["source_entity_id"]] += 1
        facts[rel["target_entity_id"]] += 1
    return sorted(
        sources.entities,
        key=lambda e: (-(facts[e] + len(entity_memories.get(e, ()))), _name(sources.entities[e]).lower(), e),
    )


def _memory_line(memory: Mapping) -> str:
    return f"- {memory_text(memory['id'])} (`{memory['id']}`)"


def entity_article(
    entity: Mapping,
    sources: Sources,
    relations: tuple[Sequence[Mapping], Sequence[Mapping]],
    memory_ids: Sequence[str],
    analysis: Analysis,
    links: Links,
    article_id: str,
    now: datetime,
) -> dict:
    """``relations``: the entity's outgoing and incoming relations."""
    entity_id, name = entity["id"], _name(entity)
    kind = str(entity.get("entity_type") or "entity")
    outgoing, incoming = relations

    def other(rel: Mapping, side: str) -> str:
        found = sources.entities.get(rel[side])
        return _name(found) if found else rel[side]

    said = [
        f"{name} {r['relationship'].replace('_', ' ')} {other(r, 'target_entity_id')}" for r in outgoing[:5]
    ]
    said += [
        f"{other(r, 'source_entity_id')} {r['relationship'].replace('_', ' ')} {name}" for r in incoming[:5]
    ]
    summary = " ".join([f"{name} is a {kind.replace('_', ' ')}."] + [inline(s) + "." for s in said])

    lines = [f"# {inline(name, 200)}", "", summary, ""]
    aliases = [a for a in entity.get("aliases") or [] if a]
    if aliases:
        lines += ["**Also known as:** " + ", ".join(inline(a, 80) for a in aliases), ""]
    facts = [
        f"- {inline(name, 80)} *{r['relationship']}* {links.entity(r['target_entity_id'], other(r, 'target_entity_id'))}"
        for r in outgoing
    ] + [
        f"- {links.entity(r['source_entity_id'], other(r, 'source_entity_id'))} *{r['relationship']}* {inline(name, 80)}"
        for r in incoming
    ]
    if facts:
        lines += ["## Facts", "", *facts[:FACTS_SHOWN], ""]
    related = sorted(
        {r["target_entity_id"] for r in outgoing} | {r["source_entity_id"] for r in incoming},
        key=lambda e: (_name(sources.entities[e]).lower() if e in sources.entities else e, e),
    )
    if related:
        lines += ["## Related", ""]
        lines += [
            f"- {links.entity(e, e)} ({inline(str(sources.entities[e].get('entity_type')), 40)})"
            for e in related
            if e in sources.entities
        ]
        lines.append("")
    shown = [sources.memories[m] for m in memory_ids if m in sources.memories][:MEMORIES_SHOWN]
    if shown:
        lines += ["## Memories", "", *(_memory_line(m) for m in shown), ""]
    homes = Counter(analysis.community_of[m] for m in memory_ids if m in analysis.community_of)
    community_id = min(homes, key=lambda c: (-homes[c], c)) if homes else None
    if community_id is not None and community_id in links.communities:
        lines += ["## Community", "", f"Part of {links.community(community_id, '')}.", ""]
    front = _frontmatter(
        {
            "type": "entity",
            "title": name,
            "entity_type": kind,
            "aliases": aliases,
            "description": inline(summary, 200),
            "timestamp": now.isoformat(),
            "fact_count": len(facts),
        }
    )
    return {
        "id": article_id,
        "article_type": "entity",
        "title": name,
        "content_md": front + "\n".join(lines),
        "metadata": {
            "entity_id": entity_id,
            "entity_type": kind,
            "slug": slugify(name),
            "community_id": community_id,
            "fact_count": len(facts),
            "memory_ids": list(memory_ids)[:MEMBERS_SHOWN],
        },
        "generated_at": now,
    }


def community_article(
    community: Community,
    sources: Sources,
    about: Sequence[str],
    analysis: Analysis,
    links: Links,
    now: datetime,
) -> dict:
    """``about``: the entities its memories are about (``entities_of``)."""
    article_id, title = links.communities[community.id]
    lines = [
        f"# {_display(title, 200)}",
        "",
        f"A community of {community.size} memories (cohesion {community.cohesion_score:.2f}).",
        "",
    ]
    if about:
        lines += [
            "## Entities",
            "",
            *(f"- {links.entity(e, _name(sources.entities[e]))}" for e in about[:20]),
            "",
        ]
    central = [sources.memories[m] for m in community.central_node_ids if m in sources.memories]
    if central:
        lines += ["## Central memories", "", *(_memory_line(m) for m in central), ""]
    shown = [sources.memories[m] for m in community.memory_ids if m in sources.memories][:MEMBERS_SHOWN]
    lines += ["## Members", "", *(_memory_line(m) for m in shown), ""]
    if community.size > len(shown):
        lines += [f"…and {community.size - len(shown)} more.", ""]
    bridges = [
        e
        for e in analysis.bridges
        if community.id in (analysis.community_of[e.source], analysis.community_of[e.target])
    ]
    if bridges:
        lines += ["## Connections to other communities", ""]
        for e in bridges[:20]:
            there = analysis.community_of[
                e.target if analysis.community_of[e.source] == community.id else e.source
            ]
            lines.append(
                f"- {links.community(there, f'Community {there}')} *{e.relationship}* ({e.strength:.2f})"
            )
        lines.append("")
    front = _frontmatter(
        {
            "type": "community",
            "title": title,
            "description": f"{community.size} memories",
            "timestamp": now.isoformat(),
            "member_count": community.size,
            "cohesion": round(community.cohesion_score, 3),
        }
    )
    return {
        "id": article_id,
        "article_type": "community",
        "title": title,
        "content_md": front + "\n".join(lines),
        "metadata": {
            "community_id": community.id,
            "size": community.size,
            "cohesion": community.cohesion_score,
            "member_ids": community.memory_ids[:MEMBERS_SHOWN],
            "entity_ids": list(about[:20]),
        },
        "generated_at": now,
    }


def index_article(
    workspace_id: str,
    workspace_name: str,
    analysis: Analysis,
    communities: Sequence[Community],
    entity_ids: Sequence[str],
    sources: Sources,
    links: Links,
    coverage: Mapping[str, Any],
    now: datetime,
) -> dict:
    s = analysis.stats
    lines = [
        '---\nokf_version: "0.1"\n---',
        "",
        f"# {inline(workspace_name, 200)}",
        "",
        "> Generated by MemoryLayer from this workspace's entities, relations and memories.",
        "",
        "## Graph Overview",
        "",
        "| Metric | Value |",
        "|--------|-------|",
        f"| Memories (nodes) | {s.node_count} |",
        f"| Links (edges) | {s.edge_count} |",
        f"| Communities | {s.community_count} |",
        f"| Graph density | {s.density:.3f} |",
        f"| Average connections | {s.avg_degree:.1f} |",
        f"| Entities | {len(sources.entities)} |",
        "",
    ]
    if communities:
        lines += ["## Community Directory", ""]
        lines += [f"- {links.community(c.id, '')} — {c.size} memories" for c in communities]
        lines.append("")
    if entity_ids:
        lines += ["## Entities", ""]
        lines += [
            f"- {links.entity(e, '')} ({inline(str(sources.entities[e].get('entity_type')), 40)})"
            for e in entity_ids
        ]
        lines.append("")
    return {
        "id": "index",
        "article_type": "index",
        "title": workspace_name,
        "content_md": "\n".join(lines),
        "metadata": {"workspace_id": workspace_id, **coverage},
        "generated_at": now,
    }


def write(
    workspace_id: str,
    workspace_name: str,
    analysis: Analysis,
    sources: Sources,
    *,
    max_communities: int,
    max_entities: int,
    now: datetime,
) -> tuple[list[dict], dict[str, Any]]:
    """Every article of the generation (index first, then communities, then entities) and its coverage."""
    entity_memories = sources.entity_memories()
    eligible = [c for c in analysis.communities if c.size >= MIN_COMMUNITY_SIZE]
    chosen = eligible[:max_communities]
    memory_entities: dict[str, list[str]] = defaultdict(list)
    for entity_id, memory_ids in entity_memories.items():
        for memory_id in memory_ids:
            memory_entities[memory_id].append(entity_id)
    about = {c.id: entities_of(c, memory_entities, sources) for c in chosen}
    for community in chosen:
        community.label = community_title(community, sources, about[community.id])
    ranked = rank_entities(sources, entity_memories)[:max_entities]
    links = Links(
        entities={
            e: (f"entity-{slugify(_name(sources.entities[e]))}-{e[-8:]}", _name(sources.entities[e]))
            for e in ranked
        },
        communities={c.id: (f"community-{c.id}", c.label or f"Community {c.id}") for c in chosen},
    )
    covered = {m for c in chosen for m in c.memory_ids}
    covered.update(m for e in ranked for m in entity_memories.get(e, ()) if m in analysis.community_of)
    nodes = analysis.stats.node_count
    coverage = {
        "coverage_ratio": round(len(covered) / nodes, 4) if nodes else 1.0,
        "coverage_covered": len(covered),
        "coverage_graph_nodes": nodes,
        "coverage_uncovered": nodes - len(covered),
        "coverage_dropped_small_communities": len(analysis.communities) - len(eligible),
        "coverage_dropped_capped_communities": len(eligible) - len(chosen),
    }
    community_articles = [community_article(c, sources, about[c.id], analysis, links, now) for c in chosen]
    relations: dict[str, tuple[list[Mapping], list[Mapping]]] = {e: ([], []) for e in ranked}
    for rel in sources.relations:
        if rel["source_entity_id"] in relations:
            relations[rel["source_entity_id"]][0].append(rel)
        if rel["target_entity_id"] in relations:
            relations[rel["target_entity_id"]][1].append(rel)
    entity_articles = [
        entity_article(
            sources.entities[e],
            sources,
            relations[e],
            entity_memories.get(e, []),
            analysis,
            links,
            links.entities[e][0],
            now,
        )
        for e in ranked
    ]
    index = index_article(
        workspace_id, workspace_name, analysis, chosen, ranked, sources, links, coverage, now
    )
    return [index, *community_articles, *entity_articles], coverage
