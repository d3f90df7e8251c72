"""A skill's bundle is streamed file by file: the largest one a skill may have (256 files of 1 MiB) leaves in
many chunks while the serving process grows by far less than the bundle, and the server keeps answering."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
import threading
import time

import httpx
import psycopg

FILES, SIZE = 256, 1 << 20


def _rss_bytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def _skill(http: httpx.Client, ws: str) -> str:
    r = http.post(
        "/v1/skills",
        json={"name": "big-bundle", "description": "large", "body": "b"},
        headers={"X-Workspace-ID": ws},
    )
    assert r.status_code == 201, r.text
    return r.json()["skill"]["id"]


def _fill(database_url: str, ws: str, sid: str, files: int, size: int) -> None:
    """The files written as the superuser in one statement (the API would take minutes of uploads); each
    file's bytes differ, its hash is the one the API would store."""
    with psycopg.connect(database_url) as conn:
        conn.execute(
            "INSERT INTO skill_files (workspace_id, skill_id, path, kind, content, content_hash, size_bytes) "
            "SELECT %(ws)s, %(sid)s, 'assets/f' || lpad(i::text, 3, '0') || '.bin', 'asset', c, "
            "encode(sha256(c), 'hex'), length(c) FROM generate_series(1, %(n)s) AS i, "
            "LATERAL (SELECT convert_to(left(repeat(md5(i::text), %(size)s / 32 + 1), %(size)s), 'UTF8') AS c) x",
            {"ws": ws, "sid": sid, "n": files, "size": size},
        )


def test_the_largest_bundle_streams_in_chunks_in_bounded_memory(http, ws, database_url):
    sid = _skill(http, ws)
    _fill(database_url, ws, sid, FILES, SIZE)
    h = {"X-Workspace-ID": ws}

    peak, stop = [_rss_bytes()], threading.Event()
    baseline = peak[0]

    def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], _rss_bytes())
            time.sleep(0.02)

    health: list[float] = []

    def probe() -> None:
        with httpx.Client(base_url=str(http.base_url), timeout=10) as other:
            while not stop.is_set():
                started = time.monotonic()
                assert other.get("/health").status_code == 200
                health.append(time.monotonic() - started)
                time.sleep(0.1)

    threads = [threading.Thread(target=sample), threading.Thread(target=probe)]
    for t in threads:
        t.start()
    chunks = files = 0
    tail = b""
    first_at: float | None = None
    try:
        with http.stream("GET", f"/v1/skills/{sid}/bundle", headers=h, timeout=300) as r:
            assert r.status_code == 200 and "content-length" not in r.headers
            for chunk in r.iter_raw():
                chunks += 1
                first_at = first_at or time.monotonic()
                data = tail + chunk
                *done, tail = data.split(b"\n")
                for line in done:
                    item = json.loads(line)
                    if item["type"] == "file":
                        files += 1
                        content = base64.b64decode(item["content_b64"])
                        assert hashlib.sha256(content).hexdigest() == item["content_hash"]
                    elif item["type"] == "footer":
                        assert item["file_count"] == FILES
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert files == FILES and chunks > FILES
    growth = peak[0] - baseline
    assert growth < 256 * 1024 * 1024, f"the process grew by {growth / 2**20:.0f} MiB for a 256 MiB bundle"
    assert health and max(health) < 1.0, health


def test_a_tar_gz_bundle_streams_too(http, ws, database_url):
    sid = _skill(http, ws)
    _fill(database_url, ws, sid, 8, 64 * 1024)
    with http.stream(
        "GET", f"/v1/skills/{sid}/bundle", params={"format": "tar.gz"}, headers={"X-Workspace-ID": ws}
    ) as r:
        assert r.status_code == 200 and "content-length" not in r.headers
        body = b"".join(r.iter_bytes())
    with tarfile.open(fileobj=io.BytesIO(body), mode="r:gz") as tar:
        names = sorted(tar.getnames())
        assert names == [f"assets/f{i:03d}.bin" for i in range(1, 9)]
        extracted = tar.extractfile(names[0])
        assert extracted is not None and len(extracted.read()) == 64 * 1024
