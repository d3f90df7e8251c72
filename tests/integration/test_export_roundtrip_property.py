"""Property: any workspace built through the API, exported and imported into a fresh workspace, exports the same
again (modulo the workspace id, and the derived ids the copy gets while the source still holds its own)."""

from __future__ import annotations

import uuid

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers.http import h
from tests.helpers.roundtrip import canonical, counts, export, import_, remap_table

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
PEOPLE = ["Ann Lee", "Bob Stone", "Cy Park", "Di Moss"]
text = st.lists(st.sampled_from(WORDS), min_size=2, max_size=6).map(" ".join)
steps = st.lists(
    st.one_of(
        st.tuples(
            st.just("remember"), text, st.sampled_from([None, "u_a", "u_b"]), st.sampled_from([[], ["t1"]])
        ),
        st.tuples(st.just("update"), st.integers(0, 20), text),
        st.tuples(st.just("associate"), st.integers(0, 20), st.integers(0, 20)),
        st.tuples(st.just("relate"), st.integers(1, 30), st.sampled_from(PEOPLE), st.sampled_from(PEOPLE)),
        st.tuples(st.just("forget"), st.integers(0, 20)),
        st.tuples(st.just("thread"), st.lists(text, min_size=1, max_size=3)),
        st.tuples(st.just("session"), st.sampled_from(["k1", "k2"]), st.integers(0, 9)),
    ),
    min_size=1,
    max_size=12,
)


def build(http: httpx.Client, ws: str, plan: list[tuple]) -> None:
    ids: list[str] = []
    for step in plan:
        kind = step[0]
        if kind == "remember":
            body = {"content": step[1], "user_id": step[2], "tags": step[3]}
            r = http.post("/v1/memories", json=body, headers=h(ws))
            assert r.status_code == 201, r.text
            ids.append(r.json()["memory"]["id"])
        elif kind == "update" and ids:
            r = http.put(f"/v1/memories/{ids[step[1] % len(ids)]}", json={"content": step[2]}, headers=h(ws))
            assert r.status_code in (200, 404, 409), r.text
        elif kind == "associate" and len(ids) > 1:
            source, target = ids[step[1] % len(ids)], ids[step[2] % len(ids)]
            if source != target:
                body = {"target_id": target, "relationship": "related_to", "strength": 0.5}
                r = http.post(f"/v1/memories/{source}/associate", json=body, headers=h(ws))
                assert r.status_code in (201, 404), r.text
        elif kind == "relate":
            profile = {"subject": {"name": f"PR-{step[1]}", "type": "work_item"}, "reviewers": [step[2]],
                       "author": step[3]}  # fmt: skip
            body = {"content": f"change {step[1]} by {step[3]}", "metadata": {"knowledge_work": profile}}
            r = http.post("/v1/memories", json=body, headers=h(ws))
            assert r.status_code == 201, r.text
            ids.append(r.json()["memory"]["id"])
        elif kind == "forget" and ids:
            http.delete(f"/v1/memories/{ids.pop(step[1] % len(ids))}", headers=h(ws))
        elif kind == "thread":
            tid = f"th_{uuid.uuid4().hex[:8]}"
            assert http.post("/v1/threads", json={"id": tid}, headers=h(ws)).status_code == 201
            messages = [{"role": "user", "content": m} for m in step[1]]
            r = http.post(f"/v1/threads/{tid}/messages", json={"messages": messages}, headers=h(ws))
            assert r.status_code == 201, r.text
        elif kind == "session":
            r = http.post("/v1/sessions", json={}, headers=h(ws))
            sid = r.json()["session"]["id"]
            body = {"key": step[1], "value": {"n": step[2]}}
            assert http.post(f"/v1/sessions/{sid}/memory", json=body, headers=h(ws)).status_code in (200, 201)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=steps)
def test_export_import_export_is_the_identity(http, plan):
    ws, copy = f"ws_p_{uuid.uuid4().hex[:10]}", f"ws_q_{uuid.uuid4().hex[:10]}"
    assert http.post("/v1/workspaces", json={"id": ws, "name": ws}).status_code == 201
    build(http, ws, plan)
    before = export(http, ws)
    r = import_(http, copy, before)
    assert r.status_code == 200, r.text
    after = export(http, copy)
    assert counts(after) == counts(before)
    ids = remap_table(before, copy) if r.json()["ids"] == "remapped" else {}
    assert canonical(after, copy, ids=ids) == canonical(before, ws)
