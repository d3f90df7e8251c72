"""The memory console in a real browser: Debian's headless ``chromium`` driven by Playwright, against the real
app on uvicorn (no browser download: Playwright is pointed at the system executable; .ci/run installs it).

The page loads, a search shows a remembered memory, opening it shows its association, its typed entity relations
and history; a read-only
key sees no write controls, and the console's own API refuses a caller without a key.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.secured import admin_client, serve_secured

CHROMIUM = os.environ.get("ML_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
SCREENSHOT = os.environ.get("ML_CONSOLE_SCREENSHOT")  # a path: refresh docs/console.png (ML_*: not a setting)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed: .ci/run installs Debian's chromium package")
        pytest.skip("no chromium on this machine (apt-get install chromium)")
    from playwright.sync_api import sync_playwright  # imported here: only this module needs it

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield browser
        browser.close()


def _remember(http: httpx.Client, ws: str, content: str, **fields: Any) -> str:
    response = http.post("/v1/memories", json={"content": content, **fields}, headers={"X-Workspace-ID": ws})
    response.raise_for_status()
    return response.json()["memory"]["id"]


def test_search_open_and_see_the_association(
    browser: Any, base_url: str, http: httpx.Client, ws: str
) -> None:
    tea = _remember(
        http,
        ws,
        "Alice prefers green tea over coffee.",
        tags=["prefs"],
        type="semantic",
        relations=[
            {"source_entity_name": "green tea", "source_entity_type": "concept", "relationship": "preferred_over",
             "target_entity_name": "coffee", "target_entity_type": "concept"},
        ],
    )  # fmt: skip
    mug = _remember(http, ws, "Alice keeps a blue ceramic mug at her desk.", tags=["office"])
    _remember(http, ws, "The quarterly report is due on Friday.", tags=["work"])
    http.post(
        f"/v1/memories/{tea}/associate",
        json={"target_id": mug, "relationship": "related_to", "strength": 0.8},
        headers={"X-Workspace-ID": ws},
    ).raise_for_status()
    http.put(f"/v1/memories/{tea}", json={"importance": 0.9}).raise_for_status()  # a second revision

    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base_url}/console?workspace={ws}")
    page.wait_for_selector("#who.rw")
    assert page.text_content("#who") == "read-write"
    assert page.is_visible("#remember")  # auth is off here: everyone may write

    expect(page.locator("#results li")).to_have_count(3)  # the opening '*' search
    page.fill("#query", "green tea")
    page.click("#search summary")  # open the filters
    page.fill("#f-tags", "prefs")
    page.click("#search button[type=submit]")
    expect(page.locator("#results li")).to_have_count(1)  # the tag filter: only the tea
    first = page.locator("#results li").first
    assert "Alice prefers green tea over coffee." in first.text_content()

    first.click()
    association = page.locator("#d-assoc li.association")
    association.wait_for()
    assert "related_to" in association.text_content()
    assert "Alice keeps a blue ceramic mug at her desk." in association.text_content()
    assert page.text_content("#d-title") == tea
    relation = page.locator("#d-relations li.relation")
    expect(relation).to_have_count(1)  # both entities named, with their kinds, and the relation between them
    expect(relation.locator(".entity")).to_have_text(["green tea", "coffee"])
    expect(relation.locator(".kind")).to_have_text(["concept", "concept"])
    expect(relation.locator(".rel")).to_have_text("preferred_over →")
    assert "explicit evidence" in relation.text_content()
    page.locator("#d-history li").nth(1).wait_for()  # created, then updated
    assert page.is_visible("#d-forget")
    if SCREENSHOT:
        Path(SCREENSHOT).parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOT, full_page=True)

    association.click()  # follow the edge: the mug opens, pointing back at the tea
    expect(page.locator("#d-title")).to_have_text(mug)
    expect(page.locator("#d-assoc")).to_contain_text("← related_to")
    expect(page.locator("#d-relations li")).to_have_text(["none"])  # the mug states no relation

    assert errors == [] and not page.is_visible("#error")
    page.close()


def test_memory_relations_route(http: httpx.Client, ws: str, other_ws: str) -> None:
    """The console's read of a memory's relations: its own workspace only, 404 for what it cannot see, and a
    deleted memory's evidence shown as inactive."""
    headers = {"X-Workspace-ID": ws}
    memory = _remember(
        http,
        ws,
        "Bob Lee reviewed PR-12.",
        relations=[
            {"source_entity_name": "Bob Lee", "source_entity_type": "person", "relationship": "reviewed_by",
             "target_entity_name": "PR-12", "target_entity_type": "ticket"},
        ],
    )  # fmt: skip
    plain = _remember(http, ws, "Nothing relates here.")
    got = http.get(f"/console/api/memories/{memory}/relations", headers=headers)
    assert got.status_code == 200, got.text
    [relation] = got.json()["relations"]
    # reviewed_by(Bob, PR) is stored as reviewed(PR, Bob): the canonical direction, both ends named.
    assert (relation["source"]["name"], relation["relationship"], relation["target"]["name"]) == (
        "PR-12",
        "reviewed",
        "Bob Lee",
    )
    assert relation["evidence_kinds"] == ["explicit"] and relation["evidence_active"] is True
    assert http.get(f"/console/api/memories/{plain}/relations", headers=headers).json()["relations"] == []

    elsewhere = http.get(f"/console/api/memories/{memory}/relations", headers={"X-Workspace-ID": other_ws})
    missing = http.get("/console/api/memories/mem_0000000000000000/relations", headers=headers)
    for refused in (elsewhere, missing):  # another workspace's memory is as absent as one never written
        assert refused.status_code == 404 and refused.json()["detail"]["code"] == "memory_not_found"

    http.delete(f"/v1/memories/{memory}", headers=headers).raise_for_status()
    [gone] = http.get(f"/console/api/memories/{memory}/relations", headers=headers).json()["relations"]
    assert gone["evidence_active"] is False and gone["active"] is False


def test_threads_sessions_and_jobs_tabs(
    browser: Any, base_url: str, http: httpx.Client, ws: str, other_ws: str
) -> None:
    headers = {"X-Workspace-ID": ws}
    http.post(
        "/v1/threads", json={"id": "support-42", "title": "Support chat 42"}, headers=headers
    ).raise_for_status()
    http.post(
        "/v1/threads/support-42/messages",
        json={
            "messages": [
                {"role": "user", "content": "I live in Lisbon."},
                {"role": "assistant", "content": "Noted."},
            ]
        },
        headers=headers,
    ).raise_for_status()
    job = http.post("/v1/threads/support-42/decompose", headers=headers).json()["job_id"]
    http.post("/v1/sessions", json={"session_id": f"sess_console_{ws}"}, headers=headers).raise_for_status()
    # The jobs route is the workspace's own: another workspace sees none of them.
    jobs = http.get("/console/api/jobs", headers=headers).json()["jobs"]
    assert job in [j["job_id"] for j in jobs] and {j["thread_id"] for j in jobs} == {"support-42"}
    assert http.get("/console/api/jobs", headers={"X-Workspace-ID": other_ws}).json()["jobs"] == []
    assert http.get("/console/api/jobs", headers={"X-Workspace-ID": "bad workspace!"}).status_code == 400

    page = browser.new_page()
    page.goto(f"{base_url}/console/?workspace={ws}")
    page.wait_for_selector("#who.rw")
    page.click("nav button[data-tab=threads]")
    page.locator("#threads li", has_text="Support chat 42").click()
    expect(page.locator("#t-messages li")).to_have_count(2)
    assert "I live in Lisbon." in page.text_content("#t-messages")
    page.click("nav button[data-tab=sessions]")
    expect(page.locator("#sessions tr")).to_have_count(1)
    assert f"sess_console_{ws}" in page.text_content("#sessions")
    page.click("nav button[data-tab=jobs]")
    expect(page.locator("#jobs tr")).to_have_count(len(jobs))
    assert job in page.text_content("#jobs") and "done" in page.text_content("#jobs")
    assert not page.is_visible("#error")
    page.close()


def test_read_only_key_gets_no_write_controls(browser: Any, settings: Any, services: Any, ws: str) -> None:
    with serve_secured(settings, services, rate_limit_burst=100) as url, admin_client(url) as admin:
        read = admin.post("/v1/admin/api-keys", json={"workspaces": [ws], "access": "read"}).json()["key"]
        write = admin.post("/v1/admin/api-keys", json={"workspaces": [ws]}).json()["key"]
        httpx.post(
            f"{url}/v1/memories",
            json={"content": "Bob's standup is at 9:30."},
            headers={"Authorization": write},
        ).raise_for_status()
        # The page is open; its API is not.
        assert httpx.get(f"{url}/console/").status_code == 200
        assert httpx.get(f"{url}/console/api/whoami").status_code == 401

        page = browser.new_page()
        page.goto(f"{url}/console/?workspace={ws}")
        page.fill("#api-key", read)
        page.click("#connect button[type=submit]")
        page.wait_for_selector("#who.ro")
        page.locator("#results li").first.wait_for()
        assert "Bob's standup is at 9:30." in page.text_content("#results")
        page.locator("#results li").first.click()
        page.wait_for_selector("#detail:not([hidden])")
        assert not page.is_visible("#d-forget") and not page.is_visible("#remember")

        page.fill("#api-key", write)
        page.click("#connect button[type=submit]")
        page.wait_for_selector("#who.rw")
        assert page.is_visible("#remember")
        stored = page.evaluate("JSON.stringify(sessionStorage) + JSON.stringify(localStorage)")
        assert write not in stored and read not in stored  # in memory only, unless asked
        page.check("#keep-key")
        page.click("#connect button[type=submit]")
        page.wait_for_selector("#who.rw")
        assert write in page.evaluate("JSON.stringify(sessionStorage)")
        page.reload()
        page.wait_for_selector("#who.rw")
        assert page.input_value("#api-key") == write and page.is_checked("#keep-key")
        page.close()


def test_console_serves_its_files_with_a_strict_policy(http: httpx.Client) -> None:
    redirect = http.get("/console")
    assert redirect.status_code == 307 and redirect.headers["location"] == "console/"
    page = http.get("/console/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert '<script src="app.js"' in page.text and "http" not in page.text.split("<body>")[0]  # no CDN
    assert http.get("/console/app.js").headers["content-type"].startswith("text/javascript")
    assert http.get("/console/../pyproject.toml").status_code == 404
    assert http.get("/console/app.py").status_code == 404


@pytest.mark.parametrize(("path", "ready"), [("/docs", ".swagger-ui .info"), ("/redoc", "h1")])
def test_the_api_docs_render_under_their_content_security_policy(
    browser: Any, base_url: str, path: str, ready: str
) -> None:
    page = browser.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"{base_url}{path}")
    page.wait_for_selector(ready, timeout=20_000)
    assert "MemoryLayer" in page.text_content(ready)
    # The only thing the policy refuses is what would leave this server (ReDoc's logo on its CDN).
    assert [p for p in problems if "cdn.redoc.ly" not in p] == [], problems
    page.close()


def _fits(page: Any) -> int:
    """How far the page is wider than its viewport (0: no horizontal scrolling)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_the_detail_pane_follows_forget_and_a_workspace_switch(
    browser: Any, base_url: str, http: httpx.Client, ws: str, other_ws: str
) -> None:
    kept = _remember(http, ws, "Dana lives in Paris.")
    gone = _remember(http, ws, "Dana's old phone number was 555-0100.")
    elsewhere = _remember(http, other_ws, "Another workspace's memory.")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.on("dialog", lambda dialog: dialog.accept())  # the Forget confirmation
    page.goto(f"{base_url}/console?workspace={ws}")
    page.wait_for_selector("#who.rw")
    page.locator(f"#results li[data-id={gone}]").click()
    expect(page.locator("#d-title")).to_have_text(gone)
    page.click("#d-forget")
    expect(page.locator("#detail")).to_be_hidden()  # not the forgotten memory, as if it were still there
    expect(page.locator("#results li")).to_have_count(1)
    expect(page.locator("#results li").first).to_have_attribute("data-id", kept)
    expect(page.locator("#search-summary")).to_contain_text(f"forgot {gone}")

    page.locator(f"#results li[data-id={kept}]").click()
    expect(page.locator("#d-title")).to_have_text(kept)
    page.fill("#workspace", other_ws)
    page.click("#connect button[type=submit]")
    expect(page.locator("#results li")).to_have_count(1)
    expect(page.locator("#results li").first).to_have_attribute("data-id", elsewhere)
    expect(page.locator("#detail")).to_be_hidden()  # the last workspace's memory is not left open
    assert page.text_content("#d-content") == ""
    assert not page.is_visible("#error")
    page.close()


def test_jobs_and_a_phone_sized_screen_fit_without_horizontal_scrolling(
    browser: Any, base_url: str, http: httpx.Client, ws: str, tmp_path: Path
) -> None:
    headers = {"X-Workspace-ID": ws}
    http.post(
        "/v1/threads", json={"id": "long-1", "title": "A long chat"}, headers=headers
    ).raise_for_status()
    messages = [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"I visited museum number {i} in Paris."}
        for i in range(40)
    ]
    http.post("/v1/threads/long-1/messages", json={"messages": messages}, headers=headers).raise_for_status()
    http.post("/v1/threads/long-1/decompose", headers=headers).raise_for_status()
    jobs = http.get("/console/api/jobs", headers=headers).json()["jobs"]
    # A result whose JSON on one line is far wider than the screen.
    assert max(len(str(j["result"] or "")) for j in jobs) > 400
    memory = _remember(http, ws, "A memory with a long unbroken token: " + "x" * 300, tags=["t" * 80])

    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{base_url}/console?workspace={ws}")
    page.wait_for_selector("#who.rw")
    page.click("nav button[data-tab=jobs]")
    expect(page.locator("#jobs tr")).to_have_count(len(jobs))
    page.screenshot(path=str(tmp_path / "jobs-1280.png"), full_page=True)
    assert _fits(page) <= 0
    page.locator("#jobs details.job-result summary").first.click()  # the whole result, wrapped in its cell
    expect(page.locator("#jobs details.job-result pre").first).to_contain_text('"memory_ids"')
    assert _fits(page) <= 0
    page.close()

    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(f"{base_url}/console?workspace={ws}")
    phone.wait_for_selector("#who.rw")
    phone.locator(f"#results li[data-id={memory}]").click()
    expect(phone.locator("#d-title")).to_have_text(memory)
    phone.screenshot(path=str(tmp_path / "memory-390.png"), full_page=True)
    assert _fits(phone) <= 0
    box = phone.locator("#detail").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390  # below the list, on screen
    phone.click("nav button[data-tab=jobs]")
    expect(phone.locator("#jobs tr")).to_have_count(len(jobs))
    phone.screenshot(path=str(tmp_path / "jobs-390.png"), full_page=True)
    assert _fits(phone) <= 0
    if SCREENSHOT:  # ML_CONSOLE_SCREENSHOT: keep the phone views beside it, to look at
        for name in ("jobs-1280.png", "memory-390.png", "jobs-390.png"):
            shutil.copy(tmp_path / name, Path(SCREENSHOT).with_name(name))
    phone.close()


def test_on_a_phone_a_tapped_result_scrolls_into_view_and_jobs_are_cards(
    browser: Any, base_url: str, http: httpx.Client, ws: str, tmp_path: Path
) -> None:
    """390×844: the detail opens below the list (one column), so tapping a result must bring it on screen; the
    Jobs table shows each job as a card whose id is on one line, not two characters a line."""
    headers = {"X-Workspace-ID": ws}
    for i in range(12):
        _remember(http, ws, f"Dana visited museum number {i} in Paris on a rainy afternoon.", tags=["trips"])
    http.post("/v1/threads", json={"id": "trip-1", "title": "Trip"}, headers=headers).raise_for_status()
    http.post(
        "/v1/threads/trip-1/messages",
        json={"messages": [{"role": "user", "content": "I moved to Lyon."}]},
        headers=headers,
    ).raise_for_status()
    http.post("/v1/threads/trip-1/decompose", headers=headers).raise_for_status()
    document = http.post(
        "/v1/documents",
        files={
            "file": (
                "garden-notes.md",
                b"# Garden\n\nThe tomatoes need water every morning.\n",
                "text/markdown",
            )
        },
        headers=headers,
    )
    assert document.status_code == 202, document.text
    document_id = document.json()["document"]["id"]

    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(f"{base_url}/console?workspace={ws}")
    phone.wait_for_selector("#who.rw")
    expect(phone.locator("#results li").nth(11)).to_be_attached()  # 12 and more (what the thread gave)
    last = phone.locator("#results li").last
    last.scroll_into_view_if_needed()
    last.tap()
    expect(phone.locator("#d-title")).to_have_text(last.get_attribute("data-id") or "")
    box = phone.locator("#d-title").bounding_box()  # relative to the viewport
    assert box is not None and 0 <= box["y"] < 844 - box["height"], box
    phone.screenshot(path=str(tmp_path / "detail-390.png"))
    phone.locator("a.one-column").tap()  # and back up to the search
    expect(phone.locator("#query")).to_be_in_viewport()

    phone.click("nav button[data-tab=jobs]")
    expect(phone.locator("#jobs tr")).not_to_have_count(0)
    assert phone.is_hidden("#tab-jobs thead")
    lines = phone.evaluate(
        """() => [...document.querySelectorAll('#jobs td[data-label=Job]')].map((td) => {
             const range = document.createRange(); range.selectNodeContents(td);
             const rects = [...range.getClientRects()];
             const right = Math.max(...rects.map((r) => r.right));
             return [new Set(rects.map((r) => Math.round(r.top))).size, right <= innerWidth]; })"""
    )
    assert lines and all(line == [1, True] for line in lines), lines  # each job id whole, on one line
    assert _fits(phone) <= 0
    phone.screenshot(path=str(tmp_path / "jobs-cards-390.png"), full_page=True)

    phone.click("nav button[data-tab=documents]")  # the workspace's documents, as cards too
    expect(phone.locator("#documents tr")).to_have_count(1)
    expect(phone.locator("#documents td[data-label=Document]")).to_have_text(document_id)
    expect(phone.locator("#documents td[data-label=File]")).to_have_text("garden-notes.md")
    assert _fits(phone) <= 0
    phone.screenshot(path=str(tmp_path / "documents-390.png"), full_page=True)
    if SCREENSHOT:
        for name in ("detail-390.png", "jobs-cards-390.png", "documents-390.png"):
            shutil.copy(tmp_path / name, Path(SCREENSHOT).with_name(name))
    phone.close()
