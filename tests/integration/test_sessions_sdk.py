"""The official SDK 0.2.1 (unchanged) session calls that fail against the reference server work against ours:
get_session, get_briefing, get_context with several keys, checkpoints, context pack and delta.

It runs in the Python 3.12 virtualenv of the official packages (the ``official_python`` fixture).
"""

from __future__ import annotations

import json
import subprocess

SCRIPT = r"""
import hashlib, json, sys
from memorylayer import SyncMemoryLayerClient
base, ws = sys.argv[1], sys.argv[2]
out = {}
with SyncMemoryLayerClient(base_url=base, workspace_id=ws) as c:
    s = c.create_session(ttl_seconds=600)
    out["get_session"] = c.get_session(s.id).id
    c.set_context(s.id, "a", 1)
    c.set_context(s.id, "b", {"x": 2})
    out["get_context"] = c.get_context(s.id, ["a", "b"])
    out["briefing"] = sorted(c.get_briefing(lookback_minutes=5).workspace_summary)
    seg = "hello\nworld"
    digest = hashlib.sha256(seg.encode()).hexdigest()
    chk = c.create_checkpoint(s.id, seg, content_hash=digest, idempotency_key="k")
    out["checkpoint"] = c.get_checkpoint(s.id, chk.id).index_status
    pack = c.get_context_pack(s.id, topic="hello", budget_tokens=256)
    out["pack_used"] = pack.budget_summary.used
    out["delta"] = c.get_context_delta(s.id, pack.cursor).has_more
    out["commit"] = c.commit_session(s.id)["memories_created"]
    out["touch"] = "expires_at" in c.touch_session(s.id)
    out["listed"] = [x["id"] for x in c.list_sessions()] == [s.id]
    out["deleted"] = c.delete_session(s.id) if hasattr(c, "delete_session") else True
print(json.dumps(out))
"""


def test_official_sdk_session_calls(official_python, base_url, ws):
    done = subprocess.run(
        [official_python, "-c", SCRIPT, base_url, ws], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["get_context"] == {"a": 1, "b": {"x": 2}}
    assert "total_memories" in out["briefing"]
    assert out["checkpoint"] == "complete" and 0 < out["pack_used"] <= 256 and out["delta"] is False
    assert out["commit"] == 2 and out["touch"] and out["listed"] and out["deleted"]
    assert out["get_session"]
