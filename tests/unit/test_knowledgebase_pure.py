"""The knowledgebase's pure parts: its memory graph and the analysis it reports, the Markdown written, and the
viewer's escaping renderer."""

from __future__ import annotations

from shared.api.kb_html import article_page, markdown_html
from shared.domain.graph import algorithms as alg
from shared.domain.graph.analysis import Analysis, Stats
from shared.domain.knowledgebase import articles
from shared.domain.knowledgebase import service as kb


def mems(*ids: str) -> list[dict]:
    return [{"id": i, "content": f"memory {i}"} for i in ids]


def assoc(a: str, b: str, strength: float = 0.8, relationship: str = "related_to") -> dict:
    return {"source_id": a, "target_id": b, "relationship": relationship, "strength": strength}


def analyze(memories: list[dict], associations: list[dict], entities: dict, central: bool = True) -> Analysis:
    return kb.analyze_graph(*kb.memory_graph(memories, associations, entities), central=central)


TRIANGLES = [
    assoc("a", "b"),
    assoc("b", "c"),
    assoc("a", "c"),
    assoc("x", "y"),
    assoc("y", "z"),
    assoc("x", "z"),
]
# a-b-c and x-y-z, each a triangle, joined by one weak c→x association.
TWO_TRIANGLES = (mems("a", "b", "c", "x", "y", "z"), [*TRIANGLES, assoc("c", "x", 0.1, "causes")])


def test_label_propagation_finds_the_two_triangles_and_the_bridge_between_them():
    result = analyze(*TWO_TRIANGLES, {})
    assert [c.memory_ids for c in result.communities] == [["a", "b", "c"], ["x", "y", "z"]]
    assert [c.cohesion_score for c in result.communities] == [1.0, 1.0]
    assert [(e.source, e.target, e.relationship) for e in result.bridges] == [("c", "x", "causes")]
    assert result.communities[0].central_node_ids[0] == "a"  # in-community degree ties: by id
    assert result.stats == Stats(
        node_count=6, edge_count=7, community_count=2, density=round(7 / 15, 6), avg_degree=2.33, max_degree=3,
        god_node_count=0,
    )  # fmt: skip


def test_a_bridge_is_reported_in_its_association_s_direction():
    flipped = [*TRIANGLES, assoc("x", "c", 0.1, "causes")]
    bridges = analyze(TWO_TRIANGLES[0], flipped, {}).bridges
    assert [(e.source, e.target) for e in bridges] == [("x", "c")]


def test_the_same_rows_in_any_order_give_the_same_communities():
    memories, associations = TWO_TRIANGLES
    shuffled = [
        assoc(a["target_id"], a["source_id"], a["strength"], a["relationship"])
        for a in reversed(associations)
    ]
    assert [c.memory_ids for c in analyze(list(reversed(memories)), shuffled, {}).communities] == [
        c.memory_ids for c in analyze(memories, associations, {}).communities
    ]


def test_central_nodes_are_ranked_by_betweenness_and_labelled_by_their_first_line():
    star = analyze(
        mems("h", "1", "2", "3") + [{"id": "bare", "content": ""}], [assoc("h", leaf) for leaf in "123"], {}
    )
    ranked = star.central_nodes
    assert (ranked[0].memory_id, ranked[0].betweenness, ranked[0].degree, ranked[0].community_id) == (
        "h",
        0.5,
        3,
        0,
    )
    assert ranked[0].label == "memory h"
    assert {n.memory_id: n.label for n in ranked}["bare"] == "bare"  # no text: its id
    assert analyze(mems("h", "1"), [assoc("h", "1")], {}, central=False).central_nodes == []


def test_memories_about_one_entity_are_linked_but_an_association_wins():
    g, _ = kb.memory_graph(
        mems("m1", "m2", "m3"), [assoc("m1", "m2", 0.2, "supports")], {"ent_a": ["m3", "m2", "m1", "gone"]}
    )
    assert [(a, b, e.relationship, e.strength) for a, b, e in g.edges()] == [
        ("m1", "m2", "supports", 0.2),  # weaker than a shared entity's link, and still kept
        ("m1", "m3", kb.SHARES_ENTITY, kb.SHARED_ENTITY_STRENGTH),
    ]
    assert analyze(mems("m1", "m2", "m3"), [], {"ent_a": ["m1", "m2", "m3"]}).communities[0].memory_ids == [
        "m1", "m2", "m3"
    ]  # fmt: skip


def test_an_empty_workspace_has_an_empty_analysis():
    assert analyze([], [], {}) == Analysis()


def test_the_knowledgebase_samples_betweenness_from_every_step_th_node():
    # Above PIVOTS nodes the sources are every (n // k)-th node: on a path of 150 the first 100 (step 1).
    path = alg.Graph()
    nodes = [f"n{i:03d}" for i in range(150)]
    for a, b in zip(nodes, nodes[1:], strict=False):
        path.add_edge(a, b, 1.0, "related_to")
    between = alg.betweenness(path, pivots=kb.PIVOTS, budget=kb.PATH_BUDGET, stride=True)
    expected = {
        v: sum(149 - v if s < v else v if s > v else 0 for s in range(100)) * 1.5 / (149 * 148)
        for v in range(150)
    }
    assert all(abs(between[nodes[v]] - expected[v]) < 1e-12 for v in range(150))


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
