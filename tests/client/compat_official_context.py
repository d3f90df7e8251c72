"""Drive OUR /v1/context/* with the OFFICIAL memorylayer-client 0.2.1, unchanged (its own Python 3.12 venv):

    .venv-compat312/bin/python tests/client/compat_official_context.py http://127.0.0.1:PORT ws_abc run123

Prints one JSON object: {call name: {"ok": true, "value": ...} | {"ok": false, "error": "..."}}.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from memorylayer import SyncMemoryLayerClient

BASE_URL, WORKSPACE, RUN = sys.argv[1], sys.argv[2], sys.argv[3]
RESULTS: dict[str, Any] = {}


def record(name: str, fn: Callable[[], Any]) -> Any:
    try:
        value = fn()
    except Exception as exc:
        RESULTS[name] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:600]}
        return None
    RESULTS[name] = {"ok": True, "value": value}
    return value


if __name__ == "__main__":
    with SyncMemoryLayerClient(base_url=BASE_URL, workspace_id=WORKSPACE) as client:
        client.remember(f"the redis cache times out under load {RUN}")
        session = client.create_session(ttl_seconds=600)
        client.set_session(session.id)
        record("status_before", lambda: client.context_status()["exists"])
        record("exec", lambda: client.context_exec("x = 40\nx + 2"))
        record("load", lambda: client.context_load("mems", f"redis {RUN}", limit=5)["count"])
        record("inject", lambda: client.context_inject("cfg", '{"a": 1}', parse_json=True))
        record("inspect", lambda: client.context_inspect()["variable_count"])
        record("inspect_one", lambda: client.context_inspect("x", preview_chars=10))
        record("exec_uses_loaded", lambda: client.context_exec("len(mems) >= 1 and cfg['a'] == 1")["result"])
        record("exec_refused", lambda: client.context_exec("__import__('os').system('id')"))
        record("query_without_llm", lambda: client.context_query("sum?", ["x"]))
        record("checkpoint", lambda: client.context_checkpoint())
        record("status", lambda: client.context_status()["variables"])
        record("cleanup", lambda: client.context_cleanup())
        record("status_after", lambda: client.context_status()["exists"])
    print(json.dumps(RESULTS))
