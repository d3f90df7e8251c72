def test_remember_then_recall(http, ws):
    r = http.post(
        "/v1/memories",
        json={"content": "The login timeout is caused by redis", "tags": ["ops"]},
        headers={"X-Workspace-ID": ws},
    )
    assert r.status_code == 201, r.text
    mem = r.json()["memory"]
    r = http.post(
        "/v1/memories/recall", json={"query": "redis login timeout"}, headers={"X-Workspace-ID": ws}
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert [m["id"] for m in body["memories"]] == [mem["id"]]
