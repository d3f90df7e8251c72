"""Drive OUR thread listings with the OFFICIAL memorylayer-client 0.2.1, unchanged (Python >= 3.12):

    .venv-compat312/bin/python tests/client/compat_threads.py http://127.0.0.1:PORT ws_abc user_abc

Its create and get read the thread flat (ours is wrapped and flat). SDK 0.2.1 has no archive/restore
methods: archiving goes over plain HTTP here, and the SDK's listings must leave the archived thread out.
Prints one JSON object of what the SDK parsed (its own models validate ours).
"""

from __future__ import annotations

import json
import sys

import httpx
from memorylayer import SyncMemoryLayerClient

BASE_URL, WORKSPACE, USER = sys.argv[1], sys.argv[2], sys.argv[3]

with SyncMemoryLayerClient(base_url=BASE_URL, workspace_id=WORKSPACE) as client:
    web = client.create_thread(user_id=USER, title="web")
    office = client.create_thread(user_id=USER, title="office", scope="office")
    archived = client.create_thread(user_id=USER, title="archived")
    client.append_messages(web.id, [{"role": "user", "content": f"m{i}"} for i in range(3)])
    hidden = httpx.post(f"{BASE_URL}/v1/threads/{archived.id}/archive", params={"workspace_id": WORKSPACE})
    hidden.raise_for_status()
    full = client.get_thread_full(web.id, limit=2, offset=1, order="desc")
    print(
        json.dumps(
            {
                "ids": {"web": web.id, "office": office.id, "archived": archived.id},
                "listed": sorted(t.id for t in client.list_threads(user_id=USER)),
                "web_only": [t.id for t in client.list_threads(user_id=USER, scope_filter="web")],
                "office_only": [t.id for t in client.list_threads(user_id=USER, scope_filter="office")],
                "workspace_owned": client.list_threads(user_id=USER, ownership_filter="workspace"),
                "user_threads": sorted(t.id for t in client.list_user_threads(USER)),
                "user_office": [t.id for t in client.list_user_threads(USER, scope_filter="office")],
                "user_limit": len(client.list_user_threads(USER, limit=1)),
                "archived_by_id": client.get_thread(archived.id).title,
                "full": [m.content for m in full.messages],
                "total": full.total_messages,
            }
        )
    )
