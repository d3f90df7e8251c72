"""Checks at the app's edge: the Host allow-list, HTML security headers, NaN refused, and an unhandled error
that leaves the keep-alive connection usable."""

from __future__ import annotations

import socket

import httpx
import pytest

from shared.api.app import create_app
from shared.core.settings import Settings, local_server_settings
from shared.local.server import serve_in_thread
from tests.helpers.http import h


@pytest.fixture(scope="module")
def local_url(settings, services):
    app = create_app(local_server_settings(settings), services=services)
    with serve_in_thread(app) as url:
        yield url


def test_a_local_server_answers_to_loopback_names_only(local_url):
    port = local_url.rsplit(":", 1)[1]
    with httpx.Client(base_url=local_url, timeout=10) as http:
        for name in ("127.0.0.1", "localhost", "[::1]"):
            assert http.get("/health", headers={"Host": f"{name}:{port}"}).status_code == 200, name
        rebound = http.get("/v1/memories", headers={"Host": f"attacker.example:{port}", **h("ws_edge")})
    assert rebound.status_code == 400 and rebound.json()["detail"]["code"] == "host_not_allowed"


def test_the_allow_list_is_configurable_and_off_where_not_loopback():
    assert local_server_settings(Settings(auth_mode="none")).allowed_hosts == "127.0.0.1,::1,localhost"
    mine = Settings(auth_mode="none", allowed_hosts="memory.internal")
    assert local_server_settings(mine).allowed_hosts == "memory.internal"
    public = Settings(host="0.0.0.0", auth_mode="api_key", context_cursor_secret="x" * 32)
    assert local_server_settings(public).allowed_hosts is None


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/console/"])
def test_html_pages_carry_a_policy_and_refuse_framing(http, path):
    page = http.get(path)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
    assert page.headers["x-frame-options"] == "DENY" and page.headers["referrer-policy"] == "no-referrer"
    assert int(page.headers["content-length"]) == len(page.content)


def test_json_answers_are_not_sniffed(http):
    assert http.get("/health").headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_and_change_nothing(http, ws, value):
    before = http.get("/v1/memories", headers=h(ws)).json()
    body = '{"content": "a fact", "importance": VALUE, "metadata": {"x": VALUE}}'.replace("VALUE", value)
    refused = http.post("/v1/memories", content=body, headers={**h(ws), "Content-Type": "application/json"})
    assert refused.status_code == 400 and refused.json()["detail"]["code"] == "invalid_json"
    assert http.get("/v1/memories", headers=h(ws)).json() == before
    text = '{"content": "NaN and Infinity are words here"}'
    fine = http.post("/v1/memories", content=text, headers={**h(ws), "Content-Type": "application/json"})
    assert fine.status_code in (200, 201), fine.text


def test_an_unhandled_error_answers_json_and_keeps_the_connection(base_url, services, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(services.memories, "get", broken)
    host, port = base_url.removeprefix("http://").split(":")
    request = f"GET /v1/memories/mem_x HTTP/1.1\r\nHost: {host}:{port}\r\nX-Workspace-ID: ws_edge\r\n\r\n"
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        first = exchange(conn, request)
        second = exchange(conn, request)  # the same connection: it was not dropped
    for answer in (first, second):
        assert answer.startswith(b"HTTP/1.1 500") and b'"code":"internal_error"' in answer, answer[:300]
        assert b"connection: close" not in answer.lower()


def exchange(conn: socket.socket, request: str) -> bytes:
    conn.sendall(request.encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += conn.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")
    )
    while len(body) < length:
        body += conn.recv(65536)
    return head + b"\r\n\r\n" + body


def test_a_read_only_key_does_not_keep_a_session_alive(settings, services):
    from tests.secured import admin_client, serve_secured

    ws = "ws_edge_slide"
    with serve_secured(settings, services) as url, admin_client(url) as admin:
        read = admin.post("/v1/admin/api-keys", json={"workspaces": [ws], "access": "read"}).json()["key"]
        write = admin.post("/v1/admin/api-keys", json={"workspaces": [ws]}).json()["key"]
        with httpx.Client(base_url=url, timeout=10) as http:
            sid = http.post(
                "/v1/sessions", json={"ttl_seconds": 60}, headers={"Authorization": write, **h(ws)}
            ).json()["session"]["id"]

            def expires() -> str:
                with services.db.connection() as conn:
                    row = conn.execute(
                        "SELECT expires_at FROM sessions WHERE workspace_id = %s AND id = %s", (ws, sid)
                    ).fetchone()
                return str(row["expires_at"])

            before = expires()
            seen = http.get(
                "/v1/context/status", headers={"Authorization": read, "X-Session-ID": sid, **h(ws)}
            )
            assert seen.status_code == 200, seen.text  # the session is found ...
            assert expires() == before  # ... and left as it was
            http.get("/v1/context/status", headers={"Authorization": write, "X-Session-ID": sid, **h(ws)})
            assert expires() > before  # a key that may write keeps it alive


def test_the_policy_never_trusts_a_script_found_in_a_response():
    from fastapi import FastAPI
    from fastapi.responses import HTMLResponse

    from shared.api.edge import SecurityHeaders

    app = FastAPI()
    app.add_middleware(SecurityHeaders, scripts={"'sha256-known'"})

    @app.get("/page")
    def page() -> HTMLResponse:  # as a stored page echoed back would be
        return HTMLResponse("<html><script>alert(document.domain)</script></html>")

    with serve_in_thread(app) as url:
        answer = httpx.get(f"{url}/page")
    script_src = next(
        p for p in answer.headers["content-security-policy"].split("; ") if p.startswith("script-src")
    )
    assert script_src == "script-src 'self' 'sha256-known'"


def test_the_docs_scripts_are_trusted_by_their_hashes_known_in_advance(http):
    from shared.api.edge import script_hashes

    page = http.get("/docs")
    inline = script_hashes(page.text)
    assert inline  # Swagger UI's page starts itself with an inline script
    script_src = next(
        p for p in page.headers["content-security-policy"].split("; ") if p.startswith("script-src")
    )
    assert set(script_src.split()[2:]) >= inline
