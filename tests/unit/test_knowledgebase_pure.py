"""The knowledgebase's pure parts: the memory graph, label propagation, betweenness, statistics, the Markdown
written, and the viewer's escaping renderer."""

from __future__ import annotations

from shared.api.kb_html import article_page, markdown_html
from shared.domain.knowledgebase import articles, graph


def mems(*ids: str) -> list[dict]:
    return [{"id": i, "content": f"memory {i}"} for i in ids]


def assoc(a: str, b: str, strength: float = 0.8, relationship: str = "related_to") -> dict:
    return {"source_id": a, "target_id": b, "relationship": relationship, "strength": strength}


def two_triangles() -> graph.Graph:
    """a-b-c and x-y-z, each a triangle, joined by one weak c—x association."""
    edges = [
        assoc("a", "b"),
        assoc("b", "c"),
        assoc("a", "c"),
        assoc("x", "y"),
        assoc("y", "z"),
        assoc("x", "z"),
    ]
    return graph.build(mems("a", "b", "c", "x", "y", "z"), [*edges, assoc("c", "x", 0.1, "causes")], {})


def test_label_propagation_finds_the_two_triangles_and_the_bridge_between_them():
    result = graph.analyze(two_triangles())
    assert [c.memory_ids for c in result.communities] == [["a", "b", "c"], ["x", "y", "z"]]
    assert [c.cohesion_score for c in result.communities] == [1.0, 1.0]
    assert [(e.source, e.target, e.relationship) for e in result.bridges] == [("c", "x", "causes")]
    assert result.communities[0].central_node_ids[0] == "a"  # in-community degree ties: by id
    assert result.stats == graph.Stats(
        node_count=6, edge_count=7, community_count=2, density=round(7 / 15, 6), avg_degree=2.33, max_degree=3,
        god_node_count=0,
    )  # fmt: skip


def test_the_same_rows_in_any_order_give_the_same_communities():
    g = two_triangles()
    shuffled = graph.build(
        list(reversed(mems("a", "b", "c", "x", "y", "z"))),
        [assoc(e.target, e.source, e.strength, e.relationship) for e in reversed(g.edges)],
        {},
    )
    assert [c.memory_ids for c in graph.analyze(shuffled).communities] == [
        c.memory_ids for c in graph.analyze(g).communities
    ]


def test_betweenness_is_normalised_as_brandes():
    path = graph.build(mems("a", "b", "c"), [assoc("a", "b"), assoc("b", "c")], {})
    assert graph.betweenness(path) == {"a": 0.0, "b": 1.0, "c": 0.0}
    star = graph.build(mems("h", "1", "2", "3"), [assoc("h", leaf) for leaf in "123"], {})
    assert graph.betweenness(star)["h"] == 1.0
    ranked = graph.analyze(star).central_nodes
    assert (ranked[0].memory_id, ranked[0].degree, ranked[0].community_id) == ("h", 3, 0)


def test_memories_about_one_entity_are_linked_but_an_association_wins():
    g = graph.build(
        mems("m1", "m2", "m3"), [assoc("m1", "m2", 0.9, "supports")], {"ent_a": ["m3", "m2", "m1", "gone"]}
    )
    assert sorted((e.source, e.target, e.relationship) for e in g.edges) == [
        ("m1", "m2", "supports"),
        ("m1", "m3", graph.SHARES_ENTITY),
    ]
    assert graph.analyze(g).communities[0].memory_ids == ["m1", "m2", "m3"]


def test_an_empty_workspace_has_an_empty_analysis():
    assert graph.analyze(graph.build([], [], {})) == graph.Analysis()


def test_written_text_cannot_link_or_break_lines():
    assert articles.inline("a [[index|x]]\n# b") == "a [ [index|x] ] # b"
    assert articles.inline("{{memory:mem_2:80}}") == "{ {memory:mem_2:80} }"  # nor a placeholder
    assert articles.slugify("Ünïcode!!") == "n-code" and articles.slugify("!!!") == "unknown"
    links = articles.Links(entities={"ent_1": ("entity-bob-ent_1", "Bob")}, communities={})
    assert links.entity("ent_1", "?") == "[[entities/bob-ent_1|Bob]]"
    assert links.entity("ent_2", "Carol [[x]]") == "Carol [ [x] ]"  # no article: plain text
    assert links.community(3, "Community 3") == "Community 3"


def test_the_viewer_renders_markdown_with_every_text_escaped():
    md = '---\ntitle: "<x>"\n---\n\n# T <i>\n\n| a | <b> |\n|---|---|\n\n> q & r\n\nplain **bold** `c<d>` [[nowhere|N<>]]'
    out = markdown_html(md, {})
    assert "title:" not in out  # front matter is not shown
    assert "<h1>T &lt;i&gt;</h1>" in out
    assert "<table>\n<tr><td>a</td><td>&lt;b&gt;</td></tr>\n</table>" in out
    assert "<blockquote>\nq &amp; r\n</blockquote>" in out
    assert "<strong>bold</strong> <code>c&lt;d&gt;</code> N&lt;&gt;" in out  # an unknown target is only text
    page = article_page(
        "ws<1>",
        [{"id": 'a"b', "article_type": "entity", "title": "<svg onload=x>"}],
        {"id": 'a"b', "title": "<svg onload=x>", "content_md": "hi"},
        {},
    )
    assert "<svg" not in page and "&lt;svg onload=x&gt;" in page and "ws&lt;1&gt;" in page
    assert '<a href="?article=a%22b" class="active">' in page
    assert "<script" not in page


def test_generation_is_charged_as_heavy_work():
    from shared.domain.auth import request_cost

    assert request_cost("POST", "/v1/knowledgebase/generate", 40) == 10
    assert request_cost("GET", "/v1/knowledgebase/articles", 0) == 1


def test_memory_text_is_filled_in_on_read_and_a_forgotten_one_shows_as_such():
    line = articles.memory_text("mem_1", 12)
    assert articles.referenced(f"- {line} and {articles.memory_text('mem_2')}") == {"mem_1", "mem_2"}
    assert articles.resolve(line, {"mem_1": "Alice likes\n[[tea]] a lot"}) == "Alice likes…"
    assert articles.resolve(f"title: {line.replace('memory:', 'memory-json:')}", {}) == 'title: "(forgotten)"'
    # Filled-in text is not read again: a memory quoting another's placeholder stays text.
    assert (
        articles.resolve(articles.memory_text("mem_1"), {"mem_1": "{{memory:mem_9:80}}"})
        == "{ {memory:mem_9:80} }"
    )
