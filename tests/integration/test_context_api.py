"""Context packs and deltas over HTTP: sections, determinism, hard budget, cursors, at-least-once deltas."""

from __future__ import annotations

import base64
import hashlib
import json
import random

from shared.domain.retrieval.budget import estimate_tokens
from shared.domain.sessions import cursor as cursor_codec
from shared.providers import secrets
from tests.helpers.http import create, h


def remember(http, ws: str, content: str, **extra) -> str:
    response = http.post("/v1/memories", json={"content": content, **extra}, headers=h(ws))
    assert response.status_code == 201, response.text
    return response.json()["memory"]["id"]


def pack(http, ws: str, sid: str, **body) -> dict:
    response = http.post(f"/v1/sessions/{sid}/context-pack", json=body, headers=h(ws))
    assert response.status_code == 200, response.text
    return response.json()


def delta(http, ws: str, sid: str, cursor: str, budget: int = 2048):
    return http.post(
        f"/v1/sessions/{sid}/context-delta", json={"cursor": cursor, "budget_tokens": budget}, headers=h(ws)
    )


def test_pack_sections_order_and_rendering(http, ws):
    directive = remember(http, ws, "Always answer in French", subtype="directive", importance=0.9)
    pinned = remember(http, ws, "The prod database is read-only on Fridays", pinned=True)
    redis = remember(http, ws, "The redis cache times out under load", importance=0.7)
    other = remember(http, ws, "Lunch is at noon", importance=0.2)
    contra = remember(http, ws, "Answers must be in English")
    http.post(
        f"/v1/memories/{contra}/associate",
        json={"target_id": directive, "relationship": "contradicts"},
        headers=h(ws),
    )
    sid = create(http, ws, working_memory={"goal": "fix redis", "next_steps": ["pool size"]})["id"]
    chk = "user: pool size?\nassistant: 50"
    http.post(
        f"/v1/sessions/{sid}/checkpoints",
        headers=h(ws),
        json={
            "transcript_segment": chk,
            "content_hash": hashlib.sha256(chk.encode()).hexdigest(),
            "idempotency_key": "1",
        },
    )

    body = pack(http, ws, sid, topic="redis cache")
    kinds = [i["kind"] for i in body["items"]]
    assert kinds == sorted(
        kinds,
        key=[
            "directives",
            "working_memory",
            "unresolved_contradictions",
            "topic_matches",
            "recent_activity",
            "checkpoint_recovery",
        ].index,
    )
    ids = [i["id"] for i in body["items"]]
    assert ids[:2] == [directive, pinned] and ids[2:4] == ["working:goal", "working:next_steps"]
    assert len(ids) == len(set(ids))  # deduplicated by id ...
    contents = [i["content"].casefold() for i in body["items"]]
    assert len(contents) == len(set(contents))  # ... and by content
    topic = [i for i in body["items"] if i["kind"] == "topic_matches"]
    assert topic[0]["id"] == redis and "keyword" in topic[0]["match_signals"]
    assert redis not in [i["id"] for i in body["items"] if i["kind"] == "recent_activity"]
    assert other in ids and any(
        i["kind"] == "checkpoint_recovery" and i["content"] == chk for i in body["items"]
    )
    assert body["open_threads"] == [{"key": "next_steps", "value": ["pool size"]}]
    assert body["unresolved_contradictions"][0]["memory_a_id"] == contra

    rendered = body["rendered"]
    assert rendered.startswith("## Directives\n- Always answer in French\n- The prod database")
    assert (
        '## Working Memory\n- goal: fix redis\n- next_steps: ["pool size"]\n## Unresolved Contradictions\n'
        in rendered
    )
    assert rendered.count("## ") == 6
    summary = body["budget_summary"]
    assert summary == {
        "requested": 2048,
        "used": estimate_tokens(rendered),
        "estimator": "chars_div_3_conservative_v1",
        "truncated_items": 0,
        "omitted_items": 0,
    }
    assert body["generation_summary"]["policy"] == "deterministic" and body["degradation_notices"] == []
    assert pack(http, ws, sid, topic="redis cache") == body  # deterministic


def test_pack_never_exceeds_its_budget(http, ws):
    rng = random.Random(7)
    words = [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "redis",
        "pool",
        "cache",
        "timeout",
        "deploy",
        "friday",
        "lunch",
        "noon",
        "answer",
    ]
    for i in range(30):
        content = " ".join(rng.choice(words) for _ in range(rng.randint(1, 120)))
        remember(http, ws, f"{i} {content}", importance=round(rng.random(), 2), pinned=rng.random() < 0.1)
    sid = create(http, ws, working_memory={"goal": "x" * 500})["id"]
    for budget in [32, 33, 50, 97, 200, 512, 1000, 5000]:
        body = pack(http, ws, sid, topic="redis cache", budget_tokens=budget)
        assert estimate_tokens(body["rendered"]) <= budget and body["budget_summary"]["used"] <= budget
        if budget < 1000:
            assert body["budget_summary"]["truncated_items"] + body["budget_summary"]["omitted_items"] > 0
    assert (
        http.post(f"/v1/sessions/{sid}/context-pack", json={"budget_tokens": 31}, headers=h(ws)).status_code
        == 422
    )


def collect(http, ws, sid, cursor, budget):
    """Drain deltas; returns every delivered item (with its sequence) and the final cursor."""
    delivered, rounds = [], 0
    while True:
        response = delta(http, ws, sid, cursor, budget)
        assert response.status_code == 200, response.text
        body = response.json()
        assert estimate_tokens(body["rendered"]) <= budget
        delivered += body["items"]
        cursor = body["cursor"]
        rounds += 1
        assert rounds < 100
        if not body["has_more"]:
            return delivered, cursor, body


def test_delta_delivers_every_change_at_least_once_in_order(http, ws):
    sid = create(http, ws)["id"]
    start = pack(http, ws, sid)["cursor"]
    kept = remember(http, ws, "first memory")
    edited = remember(http, ws, "to be edited")
    gone = remember(http, ws, "to be deleted")
    hard = remember(http, ws, "to be hard deleted")
    http.put(f"/v1/memories/{edited}", json={"content": "edited memory"}, headers=h(ws))
    http.delete(f"/v1/memories/{gone}", headers=h(ws))
    http.delete(f"/v1/memories/{hard}", params={"hard": "true"}, headers=h(ws))
    http.post(f"/v1/sessions/{sid}/memory", json={"items": {"a": 1, "b": 2}}, headers=h(ws))
    http.post(f"/v1/sessions/{sid}/memory", json={"key": "a", "value": 3}, headers=h(ws))
    seg = "line one\nline two"
    chk = http.post(
        f"/v1/sessions/{sid}/checkpoints",
        headers=h(ws),
        json={
            "transcript_segment": seg,
            "content_hash": hashlib.sha256(seg.encode()).hexdigest(),
            "idempotency_key": "d1",
        },
    ).json()
    http.post(f"/v1/sessions/{sid}/commit", headers=h(ws))

    for budget in (32, 60, 2048):
        items, final, last = collect(http, ws, sid, start, budget)
        sequences = [i["sequence"] for i in items]
        assert sequences == sorted(sequences)  # in order
        latest = {i["id"]: i for i in items}
        assert latest[kept]["content"] == "first memory" and not latest[kept]["tombstone"]
        assert latest[edited]["content"].startswith("edited")
        assert latest[gone]["tombstone"] and latest[hard]["tombstone"]
        assert latest["working:a"]["content"] == "a: 3" and latest["working:b"]["content"] == "b: 2"
        assert latest[chk["id"]]["kind"] == "checkpoint_changes" and latest[chk["id"]]["content"] == seg
        assert f"commit:{sid}" in latest
        committed = [i for i in items if i["kind"] == "memory_changes" and i["content"] in ("a: 3", "b: 2")]
        assert len(committed) >= 2  # the commit's memories arrive through the memory trigger
        assert last["has_more"] is False
    full = delta(http, ws, sid, start).json()
    assert {t["id"] for t in full["tombstones"]} == {gone, hard}
    assert "- [deleted] " + gone in full["rendered"]
    assert {m["id"] for m in full["memory_changes"]} >= {kept, edited}
    assert [w["id"] for w in full["working_memory_changes"]] == ["working:b", "working:a"]
    assert [c["id"] for c in full["checkpoint_changes"]] == [chk["id"]]
    # Caught up: nothing new, the cursor stays put.
    caught_up = delta(http, ws, sid, full["cursor"]).json()
    assert (
        caught_up["items"] == [] and caught_up["cursor"] == full["cursor"] and caught_up["has_more"] is False
    )
    # Another workspace's writes are not this session's news.
    remember(http, "ws_unrelated_" + ws, "elsewhere")
    assert delta(http, ws, sid, full["cursor"]).json()["items"] == []


def test_forged_and_foreign_cursors_are_rejected(http, ws, other_ws, settings):
    sid = create(http, ws)["id"]
    other = create(http, ws)["id"]
    good = pack(http, ws, sid)["cursor"]
    raw = base64.urlsafe_b64decode(good + "=" * (-len(good) % 4))
    payload = json.loads(raw[:-32])
    forged_payload = json.dumps(
        {**payload, "seq": payload["seq"] + 5}, sort_keys=True, separators=(",", ":")
    ).encode()
    forged = base64.urlsafe_b64encode(forged_payload + raw[-32:]).decode().rstrip("=")
    wrong_secret = cursor_codec.encode(b"not the secret", ws, sid, 0)
    for bad in (forged, wrong_secret, "garbage", "!!!", good[:-2]):
        response = delta(http, ws, sid, bad)
        assert response.status_code == 400, bad
        assert response.json()["detail"]["code"] == "invalid_cursor"
    foreign = delta(http, ws, other, good)  # another session's cursor
    assert foreign.status_code == 400 and foreign.json()["detail"]["code"] == "invalid_cursor"
    # The same session id cannot be reached from another workspace at all.
    assert delta(http, other_ws, sid, good).status_code == 404
    secret = secrets.cursor_secret(settings)
    assert delta(http, ws, sid, cursor_codec.encode(secret, ws, sid, 0)).status_code == 200
    # The public string that once was the default signs nothing any more (it let anybody forge cursors).
    old_default = cursor_codec.encode(b"memorylayer-context-cursor-v1", ws, sid, 0)
    assert delta(http, ws, sid, old_default).json()["detail"]["code"] == "invalid_cursor"


def test_cursor_older_than_retention_is_expired(http, ws, services, settings, monkeypatch):
    sid = create(http, ws)["id"]
    remember(http, ws, "old news")
    start = pack(http, ws, sid)["cursor"]
    remember(http, ws, "newer news")
    assert delta(http, ws, sid, start).status_code == 200
    # Retention of zero days: the cleanup run ages out every event so far (the session itself is live).
    monkeypatch.setattr(settings, "context_event_retention_days", 0)
    assert services.sessions.cleanup()["events_purged"] >= 2
    expired = delta(http, ws, sid, start)
    assert expired.status_code == 409
    detail = expired.json()["detail"]
    assert detail["code"] == "cursor_expired" and detail["recovery"] == "request_context_pack"
    # Recovery: a new pack's cursor is valid, and later changes flow again.
    fresh = pack(http, ws, sid)["cursor"]
    assert delta(http, ws, sid, fresh).json()["items"] == []
    latest = remember(http, ws, "after the purge")
    assert [i["id"] for i in delta(http, ws, sid, fresh).json()["items"]] == [latest]


def test_a_write_that_commits_late_is_not_skipped(http, ws, database_url):
    """Sequence numbers within a workspace follow commit order, so a delta never jumps past a write in flight."""
    import threading

    import psycopg

    sid = http.post("/v1/sessions", json={"ttl_seconds": 600}, headers=h(ws)).json()["session"]["id"]
    cursor = pack(http, ws, sid)["cursor"]
    insert = (
        "INSERT INTO memories (id, workspace_id, content, content_hash, dedup_key, type) "
        "VALUES (%s, %s, %s, 'h', %s, 'semantic')"
    )
    with psycopg.connect(database_url) as slow, psycopg.connect(database_url, autocommit=True) as fast:
        # Given a transaction that has written (and drawn its event number) but not committed yet ...
        slow.execute(insert, ("mem_slowwriter0001", ws, "slow write", "k-slow"))
        # ... and a second writer in the same workspace that commits right away, in another thread ...
        quick = threading.Thread(
            target=fast.execute, args=(insert, ("mem_fastwriter0001", ws, "fast write", "k-fast"))
        )
        quick.start()
        quick.join(timeout=1)
        # ... a delta read meanwhile must not deliver the quick write ahead of the slow one.
        early = delta(http, ws, sid, cursor, 200000).json()
        cursor = early["cursor"]
        slow.commit()
        quick.join(timeout=10)
    delivered = {i["id"] for i in early["items"]}
    while True:
        body = delta(http, ws, sid, cursor, 200000).json()
        delivered |= {i["id"] for i in body["items"]}
        cursor = body["cursor"]
        if not body["has_more"]:
            break
    assert {"mem_slowwriter0001", "mem_fastwriter0001"} <= delivered
