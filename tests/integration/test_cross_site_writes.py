"""A web page on another origin cannot write through the visitor's browser: a state-changing request whose
``Origin`` is foreign, or that the browser marks ``Sec-Fetch-Site: cross-site``, is a 403 ``cross_site_request``
in every auth mode, unless the origin is configured as allowed. Requests without an Origin (curl, the SDKs), the
server's own pages and reads pass."""

from __future__ import annotations

import httpx
import pytest

from shared.api.app import create_app
from shared.local.server import serve_in_thread
from tests.helpers.http import h
from tests.secured import bearer, new_key, serve_secured

EVIL = "https://evil.example"


def memories(http: httpx.Client, ws: str) -> list:
    return http.get("/v1/memories", headers=h(ws)).json()["memories"]


def refused(response: httpx.Response) -> bool:
    return response.status_code == 403 and response.json()["detail"]["code"] == "cross_site_request"


def test_a_form_posted_from_another_site_plants_nothing(http, ws):
    # What any page the developer visits can send to `make dev` (auth none) without a preflight.
    form = http.post(
        "/v1/documents/upload",
        files={"file": ("note.txt", b"the attacker's memory", "text/plain")},
        headers={**h(ws), "Origin": EVIL, "Sec-Fetch-Site": "cross-site"},
    )
    assert refused(form), form.text
    assert "evil.example" in form.json()["detail"]["message"]
    for method in ("POST", "PUT", "PATCH", "DELETE"):
        answer = http.request(
            method, "/v1/memories", json={"content": "planted"}, headers={**h(ws), "Origin": EVIL}
        )
        assert refused(answer), (method, answer.text)
    opaque = http.post("/v1/memories", json={"content": "planted"}, headers={**h(ws), "Origin": "null"})
    assert refused(opaque)
    marked = http.post(
        "/v1/memories", json={"content": "planted"}, headers={**h(ws), "Sec-Fetch-Site": "cross-site"}
    )
    assert refused(marked)
    assert memories(http, ws) == []
    assert http.get("/v1/documents", headers=h(ws)).json()["documents"] == []


def test_own_pages_tools_and_reads_pass(http, ws, base_url):
    own = {**h(ws), "Origin": base_url, "Sec-Fetch-Site": "same-origin"}
    assert http.post("/v1/memories", json={"content": "from the console"}, headers=own).status_code == 201
    # The console's page at localhost writing to the same server under another of its names is still its own.
    port = base_url.rsplit(":", 1)[1]
    renamed = {**h(ws), "Origin": f"http://localhost:{port}", "Host": f"localhost:{port}"}
    assert http.post("/v1/memories", json={"content": "by name"}, headers=renamed).status_code == 201
    assert http.post("/v1/memories", json={"content": "from curl"}, headers=h(ws)).status_code == 201
    site = {**h(ws), "Sec-Fetch-Site": "same-site"}  # no Origin, not cross-site: a browser's own navigation
    assert http.post("/v1/memories", json={"content": "same site"}, headers=site).status_code == 201
    read = http.get("/v1/memories", headers={**h(ws), "Origin": EVIL, "Sec-Fetch-Site": "cross-site"})
    assert read.status_code == 200 and len(read.json()["memories"]) == 4


@pytest.mark.parametrize("port", ["", ":8443"])
def test_another_port_of_the_same_host_is_another_origin(http, ws, base_url, port):
    host = base_url.removeprefix("http://").rsplit(":", 1)[0]
    answer = http.post(
        "/v1/memories", json={"content": "x"}, headers={**h(ws), "Origin": f"http://{host}{port}"}
    )
    assert refused(answer), answer.text


def test_a_configured_origin_may_write(settings, services, ws):
    allowed = settings.model_copy(
        update={"allowed_origins": "https://app.example, https://other.example:8443"}
    )
    with serve_in_thread(create_app(allowed, services=services)) as url, httpx.Client(base_url=url) as http:
        for origin in ("https://app.example", "https://APP.example:443", "https://other.example:8443"):
            answer = http.post("/v1/memories", json={"content": origin}, headers={**h(ws), "Origin": origin})
            assert answer.status_code == 201, (origin, answer.text)
        assert refused(http.post("/v1/memories", json={"content": "x"}, headers={**h(ws), "Origin": EVIL}))
        assert refused(
            http.post(
                "/v1/memories", json={"content": "x"}, headers={**h(ws), "Origin": "http://app.example"}
            )
        )


def test_a_valid_key_does_not_make_a_cross_site_write_pass(settings, services, ws):
    with serve_secured(settings, services) as url, httpx.Client(base_url=url) as http:
        key = bearer(new_key(url, ws))
        answer = http.post("/v1/memories", json={"content": "x"}, headers={**key, **h(ws), "Origin": EVIL})
        assert refused(answer), answer.text
        assert http.post("/v1/memories", json={"content": "x"}, headers={**key, **h(ws)}).status_code == 201
