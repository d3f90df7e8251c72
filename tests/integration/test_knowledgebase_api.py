"""The knowledgebase over real HTTP and real Postgres: generation from entities, relations, memories and
associations; stored articles listed, read and exported as a vault; the live graph and its communities; the
/kb viewer pages (escaped, with the HTML headers); bad input; and the walls between workspaces and tenants."""

from __future__ import annotations

import io
import uuid
import zipfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import httpx
import psycopg
import pytest
from psycopg.rows import dict_row

from shared.db import knowledgebase as kb_repo
from shared.db import rls
from shared.db.pool import Database
from tests.helpers.http import h, remember
from tests.integration.test_resources_api import key_client  # noqa: F401

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=200)

KB = "/v1/knowledgebase"


def ticket(http: httpx.Client, ws: str, subject: str, content: str, **profile: object) -> dict:
    return remember(
        http,
        ws,
        content,
        metadata={"knowledge_work": {"subject": {"name": subject, "type": "work_item"}, **profile}},
    )


@pytest.fixture()
def seeded(http: httpx.Client, ws: str) -> dict[str, str]:
    """Two tickets about the same people (one topic), two linked memories about tea (another), one loner."""
    ids = {
        "login": ticket(http, ws, "PLAT-77", "Login fails after the SSO change", assignee="Ann Lee")["id"],
        "logout": ticket(http, ws, "PLAT-78", "Logout hangs on Safari", assignee="Ann Lee")["id"],
        "tea": remember(http, ws, "Alice prefers green tea")["id"],
        "cup": remember(http, ws, "Alice drinks it from a blue cup")["id"],
        "loner": remember(http, ws, "The office closes at six")["id"],
    }
    r = http.post(
        f"/v1/memories/{ids['tea']}/associate",
        json={"target_id": ids["cup"], "relationship": "related_to", "strength": 0.9},
        headers=h(ws),
    )
    assert r.status_code == 201, r.text
    return ids


def generate(http: httpx.Client, ws: str, **body: object) -> dict:
    r = http.post(f"{KB}/generate", json=body, headers=h(ws))
    assert r.status_code == 200, r.text
    return r.json()


def articles(http: httpx.Client, ws: str, **params: object) -> list[dict]:
    r = http.get(f"{KB}/articles", params=params, headers=h(ws))
    assert r.status_code == 200, r.text
    return r.json()["articles"]


def stable(article: dict) -> dict:
    """An article without its generation time (which is all that differs between two runs)."""
    content = "\n".join(
        line for line in article["content_md"].splitlines() if not line.startswith("timestamp:")
    )
    return {**article, "content_md": content, "generated_at": None}


# ------------------------------------------------------------------ generation and the stored articles
def test_generation_writes_an_index_community_and_entity_articles(http, ws, seeded):
    summary = generate(http, ws)
    assert summary["workspace_id"] == ws
    assert summary["stats"]["node_count"] == 5
    # tea—cup by their association; the two tickets through the entity both are evidence about (Ann Lee)
    assert summary["stats"]["edge_count"] >= 2
    assert summary["community_count"] == 2
    listed = articles(http, ws)
    assert summary["article_count"] == len(listed)
    assert [a["article_type"] for a in listed[:3]] == ["index", "community", "community"]
    assert {a["article_type"] for a in listed[3:]} == {"entity"}

    entity = {a["title"]: a for a in listed if a["article_type"] == "entity"}
    ann = entity["Ann Lee"]
    assert ann["id"].startswith("entity-ann-lee-")
    assert "Ann Lee is a person." in ann["content_md"]
    # A fact links to the related entity's own article, by its vault path.
    plat77 = entity["PLAT-77"]
    assert f"[[entities/{plat77['id'].removeprefix('entity-')}|PLAT-77]]" in ann["content_md"]
    assert "Login fails after the SSO change" in ann["content_md"]
    assert set(ann["metadata"]["memory_ids"]) == {seeded["login"], seeded["logout"]}

    communities = [a for a in listed if a["article_type"] == "community"]
    members = [set(c["metadata"]["member_ids"]) for c in communities]
    assert {seeded["login"], seeded["logout"]} in members
    assert {seeded["tea"], seeded["cup"]} in members
    assert all(seeded["loner"] not in m for m in members)  # a single memory is no topic
    tickets = communities[members.index({seeded["login"], seeded["logout"]})]
    assert "Ann Lee" in tickets["title"]
    assert f"[[entities/{ann['id'].removeprefix('entity-')}|Ann Lee]]" in tickets["content_md"]

    index = listed[0]
    assert index["id"] == "index" and index["metadata"]["coverage_graph_nodes"] == 5
    assert f"[[communities/{tickets['id']}|{tickets['title']}]]" in index["content_md"]

    got = http.get(f"{KB}/articles/{ann['id']}", headers=h(ws))
    assert got.status_code == 200 and got.json() == ann
    meta = http.get(KB, headers=h(ws)).json()
    assert (meta["article_count"], meta["community_count"]) == (summary["article_count"], 2)
    assert meta["stats"] == summary["stats"] and meta["generated_at"] == summary["generated_at"]
    assert [a["id"] for a in articles(http, ws, article_type="community")] == [c["id"] for c in communities]
    assert [a["id"] for a in articles(http, ws, limit=2, offset=1)] == [c["id"] for c in communities]


def test_generation_is_deterministic_and_replaces_the_last_one(http, ws, seeded):
    generate(http, ws)
    first = [stable(a) for a in articles(http, ws)]
    generate(http, ws, regenerate=True)
    assert [stable(a) for a in articles(http, ws)] == first

    # A forgotten memory's text leaves every stored article at once, before any new generation.
    assert http.delete(f"/v1/memories/{seeded['cup']}", headers=h(ws)).status_code == 204
    stale = articles(http, ws)
    assert [a["id"] for a in stale] == [a["id"] for a in first]
    assert not any("blue cup" in a["content_md"] or "blue cup" in a["title"] for a in stale)
    assert f"- (forgotten) (`{seeded['cup']}`)" in "".join(a["content_md"] for a in stale)
    vault = zipfile.ZipFile(io.BytesIO(http.get(f"{KB}/export", headers=h(ws)).content))
    assert not any(b"blue cup" in vault.read(name) for name in vault.namelist())
    # The next generation leaves it out; caps bound the articles.
    summary = generate(http, ws, max_communities=1, max_god_nodes=1)
    listed = articles(http, ws)
    assert summary["article_count"] == len(listed) == 3
    assert [a["article_type"] for a in listed] == ["index", "community", "entity"]
    assert not any("blue cup" in a["content_md"] for a in listed)
    assert listed[0]["metadata"]["coverage_dropped_capped_communities"] == 0  # tea lost its partner


def blocked_on_the_first(database_url: str) -> None:
    """Until another session waits on a lock to write a knowledgebase summary (a condition, not a time)."""
    with psycopg.connect(database_url, autocommit=True) as watcher:
        for _ in range(3000):
            row = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND query LIKE 'INSERT INTO knowledgebases%%'"
            ).fetchone()
            if row and row[0]:
                return
            watcher.execute("SELECT pg_sleep(0.01)")
    raise AssertionError("the second generation never waited on the first")


def test_a_concurrent_generation_waits_and_then_replaces_the_other_whole(database_url, http, ws):
    """Two generations of a workspace that had none: the second waits on the first's summary row, then
    replaces it and its articles (it never fails on the row the first inserted)."""
    remember(http, ws, "a memory")  # the workspace exists

    def summary(count: int) -> dict:
        stats = {"node_count": 0}
        return {
            "article_count": count,
            "community_count": 0,
            "stats": stats,
            "coverage": {},
            "generated_at": datetime.now(UTC),
        }

    def article(article_id: str) -> dict:
        return {"id": article_id, "article_type": "index", "title": "t", "content_md": "", "metadata": {},
                "generated_at": datetime.now(UTC)}  # fmt: skip

    with psycopg.connect(database_url, row_factory=dict_row) as first:
        kb_repo.replace(first, ws, summary(1), [article("index")])  # not committed yet

        def second() -> None:
            with psycopg.connect(database_url, row_factory=dict_row) as conn:
                kb_repo.replace(conn, ws, summary(2), [article("index"), article("other")])

        with ThreadPoolExecutor(1) as pool:
            waiting = pool.submit(second)
            blocked_on_the_first(database_url)
            first.commit()
            waiting.result(timeout=30)
    assert http.get(KB, headers=h(ws)).json()["article_count"] == 2
    assert [a["id"] for a in articles(http, ws)] == ["index", "other"]


def test_the_vault_holds_every_article_where_its_links_point(http, ws, seeded):
    assert http.get(f"{KB}/export", headers=h(ws)).status_code == 404
    generate(http, ws)
    r = http.get(f"{KB}/export", headers=h(ws))
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/zip"
    assert f'filename="memorylayer-vault-{ws}.zip"' in r.headers["content-disposition"]
    vault = zipfile.ZipFile(io.BytesIO(r.content))
    listed = articles(http, ws)
    names = vault.namelist()
    assert names[0] == "index.md" and len(names) == len(listed)
    assert {n.split("/")[0] for n in names[1:]} == {"communities", "entities"}
    for article in listed:
        folder = {"index": "", "community": "communities/", "entity": "entities/"}[article["article_type"]]
        name = folder + article["id"].removeprefix("entity-") + ".md"
        assert vault.read(name).decode() == article["content_md"]


# ------------------------------------------------------------------ the live graph
def test_the_graph_and_its_communities_are_read_live(http, ws, seeded):
    empty = http.get(f"{KB}/graph", headers=h(f"ws_{uuid.uuid4().hex[:10]}")).json()
    assert empty["analysis"]["stats"]["node_count"] == 0 and empty["cached"] is False

    analysis = http.get(f"{KB}/graph", headers=h(ws)).json()["analysis"]
    assert analysis["snapshot"] == {
        "workspace_id": ws,
        "context_id": None,
        "node_count": 5,
        "edge_count": analysis["stats"]["edge_count"],
        "includes_rpg": False,
    }
    sizes = [c["size"] for c in analysis["communities"]]
    assert sizes == [2, 2, 1] and analysis["stats"]["community_count"] == 3
    assert sorted(m for c in analysis["communities"] for m in c["memory_ids"]) == sorted(seeded.values())
    assert analysis["bridges"] == []  # nothing links the topics
    assert {n["memory_id"] for n in analysis["central_nodes"]} == set(seeded.values())
    light = http.get(f"{KB}/graph", params={"include_central_nodes": "false"}, headers=h(ws)).json()
    assert (
        light["analysis"]["central_nodes"] == []
        and light["analysis"]["communities"] == analysis["communities"]
    )

    zero = http.get(f"{KB}/graph/communities/0", headers=h(ws)).json()
    assert zero == {**analysis["communities"][0], "label": None}
    generate(http, ws)
    titled = http.get(f"{KB}/graph/communities/0", headers=h(ws)).json()
    assert titled["label"] == articles(http, ws, article_type="community")[0]["title"]
    missing = http.get(f"{KB}/graph/communities/3", headers=h(ws))
    assert missing.status_code == 404 and missing.json()["detail"]["code"] == "kb_community_not_found"


# ------------------------------------------------------------------ the viewer
def test_the_viewer_escapes_stored_text_and_sends_the_html_headers(http, ws):
    attack = "<script>alert('kb')</script> <img src=x onerror=alert(1)> [[index|home]]"
    a = remember(http, ws, attack)
    b = remember(http, ws, "A second memory next to it")
    http.post(
        f"/v1/memories/{a['id']}/associate",
        json={"target_id": b["id"], "relationship": "related_to"},
        headers=h(ws),
    )
    assert "No knowledgebase generated yet" in http.get(f"/kb/{ws}").text
    generate(http, ws)
    community = articles(http, ws, article_type="community")[0]

    page = http.get(f"/kb/{ws}", params={"article": community["id"]})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["cache-control"] == "no-store"
    assert "<script" not in page.text and "<img" not in page.text
    assert "&lt;script&gt;alert(&#x27;kb&#x27;)&lt;/script&gt;" in page.text
    # Its wikilink was neutralised when the article was written: text, not a link to the index.
    assert "[ [index|home] ]" in page.text
    assert f'<a href="?article={community["id"]}" class="active">' in page.text

    index = http.get(f"/kb/{ws}", params={"article": "no-such-article"})
    assert "<h1>" in index.text and "Graph Overview" in index.text
    assert f'<a href="?article={community["id"]}">' in index.text  # the index links to its communities

    listing = http.get("/kb")
    assert listing.status_code == 200 and f'href="kb/{ws}"' in listing.text
    assert listing.headers["x-frame-options"] == "DENY" and listing.headers["cache-control"] == "no-store"


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status"),
    [
        ("POST", f"{KB}/generate", {"json": {"max_communities": 0}}, 422),
        ("POST", f"{KB}/generate", {"json": {"max_god_nodes": 201}}, 422),
        ("POST", f"{KB}/generate", {"json": {"workspace_id": "bad id!"}}, 400),
        ("GET", f"{KB}/articles", {"params": {"limit": 0}}, 422),
        ("GET", f"{KB}/articles", {"params": {"article_type": "poem"}}, 400),
        ("GET", f"{KB}/articles/{'x' * 301}", {}, 422),
        ("GET", f"{KB}/graph/communities/-1", {}, 422),
        ("GET", f"{KB}/graph/communities/zero", {}, 422),
        ("GET", "/kb/bad%20id!", {}, 400),
    ],
)
def test_bad_input_is_refused_and_writes_nothing(http, ws, seeded, method, path, kwargs, status):
    r = http.request(method, path, headers=h(ws), **kwargs)
    assert r.status_code == status, r.text
    assert http.get(KB, headers=h(ws)).status_code == 404  # no knowledgebase was made
    assert articles(http, ws) == []


def test_before_any_generation_reads_answer_404_or_nothing(http, ws):
    r = http.get(KB, headers=h(ws))
    assert r.status_code == 404 and r.json()["detail"]["code"] == "knowledgebase_not_found"
    assert http.get(f"{KB}/articles/index", headers=h(ws)).json()["detail"]["code"] == "kb_article_not_found"
    assert articles(http, ws) == []


# ------------------------------------------------------------------ walls
@pytest.fixture()
def two_keys(secured, ws, other_ws, request) -> Iterator[tuple[httpx.Client, httpx.Client]]:  # noqa: F811
    tenant = f"t_{uuid.uuid4().hex[:8]}" if request.param else None
    with key_client(secured, ws) as a, key_client(secured, other_ws, tenant) as b:
        yield a, b


@pytest.mark.parametrize("two_keys", [False, True], indirect=True, ids=["same-tenant", "other-tenant"])
def test_another_workspace_or_tenant_sees_and_changes_nothing(two_keys, ws, other_ws):
    a, b = two_keys
    one = a.post("/v1/memories", json={"content": "Secret plan one"}).json()["memory"]["id"]
    two = a.post("/v1/memories", json={"content": "Secret plan two"}).json()["memory"]["id"]
    a.post(f"/v1/memories/{one}/associate", json={"target_id": two, "relationship": "related_to"})
    assert a.post(f"{KB}/generate", json={}).status_code == 200
    mine = a.get(f"{KB}/articles").json()["articles"]
    assert mine

    for path in (
        KB,
        f"{KB}/articles",
        f"{KB}/articles/index",
        f"{KB}/export",
        f"{KB}/graph",
        f"{KB}/graph/communities/0",
    ):
        assert b.get(path, params={"workspace_id": ws}).status_code == 403, path
    assert b.post(f"{KB}/generate", json={"workspace_id": ws}).status_code == 403
    assert b.post("/v1/memories", json={"content": "B's own note"}).status_code == 201
    assert b.get(f"/kb/{ws}").status_code == 403
    # B's own workspace has none of it.
    assert b.get(KB).status_code == 404
    assert b.get(f"{KB}/articles").json()["articles"] == []
    assert b.get(f"{KB}/graph").json()["analysis"]["stats"]["node_count"] == 1
    listing = b.get("/kb").text
    assert other_ws in listing and ws not in listing.replace(other_ws, "")
    assert "Secret plan" not in b.get(f"/kb/{other_ws}").text
    # Nothing of A's changed.
    assert a.get(f"{KB}/articles").json()["articles"] == mine
    assert "Secret plan one" in a.get("/kb/" + ws, params={"article": mine[1]["id"]}).text


def test_without_a_key_the_viewer_shows_nothing(secured, ws):  # noqa: F811
    with httpx.Client(base_url=secured) as anonymous:
        for path in ("/kb", f"/kb/{ws}", KB):
            assert anonymous.get(path).status_code == 401, path


def test_the_row_wall_holds_the_stored_knowledgebase_to_its_workspace(settings, http, ws, other_ws):
    for workspace in (ws, other_ws):
        remember(http, workspace, f"a memory of {workspace}")
        generate(http, workspace)
    db = Database.from_settings(settings, purpose="api")
    try:
        with rls.visible((ws,)), db.connection() as conn:
            for table in ("kb_articles", "knowledgebases"):
                rows = conn.execute(f"SELECT DISTINCT workspace_id FROM {table}").fetchall()
                assert {r["workspace_id"] for r in rows} == {ws}, table
        with rls.visible(rls.NOTHING), db.connection() as conn:
            assert conn.execute("SELECT count(*) AS n FROM kb_articles").fetchone()["n"] == 0  # type: ignore[index]
    finally:
        db.close()
