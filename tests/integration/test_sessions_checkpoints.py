"""Checkpoints over HTTP: durable capture, idempotent replay, hash and size checks, line indexing."""

from __future__ import annotations

import hashlib
import re

from tests.helpers.http import create, h


def checkpoint(segment: str, key: str = "k1", **extra) -> dict:
    return {
        "transcript_segment": segment,
        "content_hash": hashlib.sha256(segment.encode()).hexdigest(),
        "idempotency_key": key,
        **extra,
    }


TRANSCRIPT = "user: the redis cache times out\n\nassistant: raise the pool size to 50\n" + "word " * 80


def test_capture_stores_raw_and_indexes_lines(http, ws):
    sid = create(http, ws)["id"]
    response = http.post(
        f"/v1/sessions/{sid}/checkpoints",
        headers=h(ws),
        json=checkpoint(TRANSCRIPT, source_kind="Chat Log!", source_sequence=3),
    )
    assert response.status_code == 201, response.text
    chk = response.json()
    assert re.fullmatch(r"chk_[0-9a-f]{32}", chk["id"])
    assert chk["raw_memory_id"] == "mem_chk_" + chk["id"][4:]
    assert (chk["workspace_id"], chk["session_id"], chk["source_kind"]) == (ws, sid, "chat_log_")
    assert chk["byte_count"] == len(TRANSCRIPT.encode()) and chk["source_sequence"] == 3
    assert (chk["capture_status"], chk["index_status"], chk["enrichment_status"]) == (
        "durable",
        "complete",
        "skipped",
    )

    raw = http.get(f"/v1/memories/{chk['raw_memory_id']}", headers=h(ws)).json()["memory"]
    assert raw["content"] == TRANSCRIPT and (raw["type"], raw["subtype"]) == ("episodic", "checkpoint")
    assert raw["session_id"] == sid and raw["metadata"]["checkpoint_id"] == chk["id"]

    segments = http.get("/v1/memories", params={"subtype": "event"}, headers=h(ws)).json()["memories"]
    # 400 characters of words are cut at a space into 255 + 144.
    assert sorted(m["content"] for m in segments) == sorted(
        [
            "user: the redis cache times out",
            "assistant: raise the pool size to 50",
            ("word " * 51).strip(),
            ("word " * 29).strip(),
        ]
    )
    assert all(m["source_memory_id"] == chk["raw_memory_id"] and len(m["content"]) <= 256 for m in segments)
    found = http.post(
        "/v1/memories/recall", json={"query": "pool size", "types": ["episodic"]}, headers=h(ws)
    ).json()["memories"]
    assert found[0]["content"] == "assistant: raise the pool size to 50"

    assert http.get(f"/v1/sessions/{sid}/checkpoints/{chk['id']}", headers=h(ws)).json() == chk
    assert http.get(f"/v1/sessions/{sid}/checkpoints/chk_missing", headers=h(ws)).status_code == 404


def test_replay_returns_the_same_row(http, ws):
    sid = create(http, ws)["id"]
    first = http.post(f"/v1/sessions/{sid}/checkpoints", json=checkpoint("one line"), headers=h(ws))
    again = http.post(f"/v1/sessions/{sid}/checkpoints", json=checkpoint("one line"), headers=h(ws))
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    other = http.post(f"/v1/sessions/{sid}/checkpoints", json=checkpoint("one line", key="k2"), headers=h(ws))
    assert other.status_code == 201 and other.json()["id"] != first.json()["id"]
    reused = http.post(f"/v1/sessions/{sid}/checkpoints", json=checkpoint("another", key="k1"), headers=h(ws))
    assert reused.status_code == 409 and reused.json()["detail"]["code"] == "idempotency_key_reused"
    raws = http.get("/v1/memories", params={"subtype": "checkpoint"}, headers=h(ws)).json()["memories"]
    assert len(raws) == 2


def test_hash_mismatch_and_oversize_are_rejected(http, ws, settings, monkeypatch):
    sid = create(http, ws)["id"]
    wrong = dict(checkpoint("abc"), content_hash=hashlib.sha256(b"abd").hexdigest())
    response = http.post(f"/v1/sessions/{sid}/checkpoints", json=wrong, headers=h(ws))
    assert response.status_code == 400 and response.json()["detail"]["code"] == "content_hash_mismatch"
    not_hex = dict(checkpoint("abc"), content_hash="z" * 64)
    assert http.post(f"/v1/sessions/{sid}/checkpoints", json=not_hex, headers=h(ws)).status_code == 422

    big = "é" * (settings.checkpoint_max_bytes // 2 + 1)  # two bytes each: one past the limit in UTF-8
    response = http.post(f"/v1/sessions/{sid}/checkpoints", json=checkpoint(big), headers=h(ws))
    assert response.status_code == 413 and response.json()["detail"]["code"] == "checkpoint_too_large"
    monkeypatch.setattr(settings, "checkpoint_max_bytes", 10)
    response = http.post(f"/v1/sessions/{sid}/checkpoints", json=checkpoint("x" * 11), headers=h(ws))
    assert response.status_code == 413
    assert http.get("/v1/memories", headers=h(ws)).json()["total_count"] == 0  # nothing half-written


def test_segment_cap_marks_partial_index(http, ws, settings, monkeypatch):
    monkeypatch.setattr(settings, "checkpoint_max_segments", 2)
    sid = create(http, ws)["id"]
    chk = http.post(f"/v1/sessions/{sid}/checkpoints", json=checkpoint("a\nb\nc"), headers=h(ws)).json()
    assert chk["index_status"] == "partial"
    assert len(http.get("/v1/memories", params={"subtype": "event"}, headers=h(ws)).json()["memories"]) == 2
