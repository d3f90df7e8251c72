"""Caller text over HTTP: a recall query naming an impossible date is answered (no period), never a 500; a thread
message built to make the extraction rules superlinear is extracted within the job's usual wait; content past
``max_content_bytes`` is refused whole with its code."""

from __future__ import annotations

import httpx
import pytest

from tests.helpers.http import h, recall, remember
from tests.helpers.threads import wait_job


@pytest.mark.parametrize(
    "query",
    ["What did Gina do on 31 February, 2023?", "45 March 2023", "What happened on February 30, 2023?",
     "2023-02-30", "on 29 February 2023"],
)  # fmt: skip
def test_an_impossible_date_in_a_recall_query_is_no_error(http, ws, query):
    remember(http, ws, "Gina opened her store in February 2023", event_time="2023-02-01T12:00:00+00:00")
    body = recall(http, ws, query, min_relevance=0)
    assert isinstance(body["memories"], list)


def test_a_possible_date_still_narrows_to_its_period(http, ws):
    remember(http, ws, "Gina opened her store", event_time="2023-02-01T12:00:00+00:00")
    body = recall(http, ws, "What did Gina do on 1 February, 2023?", min_relevance=0)
    assert [m["content"] for m in body["memories"]] == ["Gina opened her store"]


def test_a_message_that_made_the_rules_quadratic_is_extracted_in_the_usual_time(api):
    # Before the bounds the rules took minutes on this (a 36 KB "Rome and …" alone took ~11 s, 20,000 spaces ~24 s);
    # the job is waited for as any other (20 s).
    thread = api.post("/v1/threads", json={"user_id": "dana"}).json()["thread"]["id"]
    text = "I live in Paris. " + " " * 20_000 + "Rome and " * 4_000 + ". I work at Acme."
    r = api.post(f"/v1/threads/{thread}/messages", json={"messages": [{"role": "user", "content": text}]})
    assert r.status_code == 201, r.text
    job = wait_job(api, r.json()["job_id"])
    assert job["status"] == "done"
    facts = api.post("/v1/memories/recall", json={"query": "Paris", "min_relevance": 0, "limit": 50}).json()
    assert "User lives in Paris" in {m["content"] for m in facts["memories"]}


def test_content_past_the_limit_is_refused_whole(http: httpx.Client, ws, settings):
    big = "x" * (settings.max_content_bytes + 1)
    r = http.post("/v1/memories", json={"content": big}, headers=h(ws))
    assert r.status_code == 413 and r.json()["detail"]["code"] == "content_too_large"
    thread = http.post("/v1/threads", json={}, headers=h(ws)).json()["thread"]["id"]
    r = http.post(
        f"/v1/threads/{thread}/messages", json={"messages": [{"role": "user", "content": big}]}, headers=h(ws)
    )
    assert r.status_code == 413 and r.json()["detail"]["code"] == "content_too_large"
    assert http.get(f"/v1/threads/{thread}/messages", headers=h(ws)).json()["messages"] == []
