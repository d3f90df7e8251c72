"""A lone surrogate (``"\\ud800"`` in JSON) is not text any encoder can write: a body holding one is a 422 on
every route that reads a JSON body, whether or not the rest of it is valid, and no error echoes it (the JSON
encoder of the answer could not write it either: that used to be a 500)."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.routing import APIRoute

from shared.api.app import all_routers
from tests.helpers.http import h

LONE = "\ud800"
# As a client writes it: ``json.dumps`` escapes the surrogate (raw, it is no UTF-8 at all).
NOT_AN_OBJECT = json.dumps(LONE)
IN_A_FIELD = json.dumps({"content": LONE, "name": LONE, "query": LONE, "items": [LONE], LONE: LONE})


def json_body_routes() -> list[tuple[str, str]]:
    """Every (method, path) of the app whose route reads a JSON body, path parameters filled in."""
    found = set()
    for router in all_routers():
        for route in router.routes:
            if isinstance(route, APIRoute) and route.body_field is not None:
                path = re.sub(r"\{[^}]+\}", "x_1", route.path)
                found.update((method, path) for method in route.methods or ())
    return sorted(found)


ROUTES = json_body_routes()


def test_the_routes_are_found():
    assert len(ROUTES) > 40 and ("POST", "/v1/memories") in ROUTES


@pytest.mark.parametrize("body", [NOT_AN_OBJECT, IN_A_FIELD], ids=["not-an-object", "in-a-field"])
@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_a_lone_surrogate_is_a_422_on_every_route(http, ws, method, path, body):
    answer = http.request(
        method, path, content=body.encode(), headers={**h(ws), "Content-Type": "application/json"}
    )
    assert answer.status_code == 422, answer.text
    assert "\\ud800" not in answer.text.lower()


def test_nothing_is_written_and_valid_text_still_is(http, ws):
    body = json.dumps({"content": f"a fact {LONE} here"})
    answer = http.post("/v1/memories", content=body, headers={**h(ws), "Content-Type": "application/json"})
    assert answer.status_code == 422 and answer.json()["detail"]["code"] == "invalid_text", answer.text
    assert http.get("/v1/memories", headers=h(ws)).json()["memories"] == []
    paired = json.dumps({"content": "an emoji \ud83d\ude00 is a pair"})  # escaped as a surrogate pair: fine
    fine = http.post("/v1/memories", content=paired, headers={**h(ws), "Content-Type": "application/json"})
    assert fine.status_code == 201 and fine.json()["memory"]["content"] == "an emoji \U0001f600 is a pair"
