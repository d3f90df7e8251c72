"""SDK quickstart: remember, recall, answer, a session's context pack, and a conversation turned into memories.

Start the local stack (`make dev`), then:

    MEMORYLAYER_URL=http://127.0.0.1:61001 .venv/bin/python examples/quickstart.py

The client reads MEMORYLAYER_URL, MEMORYLAYER_API_KEY and MEMORYLAYER_WORKSPACE_ID; without a workspace id this
example makes a fresh one. Everything runs offline: no LLM is needed.
"""

from __future__ import annotations

import os
import uuid

from memorylayer import SyncMemoryLayerClient


def main() -> None:
    workspace = os.environ.get("MEMORYLAYER_WORKSPACE_ID") or f"ws_quickstart_{uuid.uuid4().hex[:8]}"
    with SyncMemoryLayerClient(workspace_id=workspace) as client:
        print(f"server {client.base_url}: {client.health()['status']}; workspace {workspace}")

        # 1. Remember and recall (hybrid: vector + keyword).
        tea = client.remember("Alice prefers green tea, no sugar", type="semantic", tags=["prefs"])
        client.remember("The login service times out when Redis is down", tags=["incident"])
        hits = client.recall("what does Alice drink?", limit=3)
        print("recall:", [m.content for m in hits.memories])
        assert hits.memories[0].id == tea.id

        # 2. A grounded answer. With no LLM configured on the server, it returns the evidence it found.
        answer = client.answer("what does Alice drink?")
        print("answer evidence:", [e.content for e in answer.evidence], "citations:", answer.citations)
        assert tea.id in answer.citations

        # 3. A session: working memory, then a context pack to put in front of a model.
        session = client.create_session(ttl_seconds=600, working_memory={"goal": "fix the login timeout"})
        client.set_working_memory(session.id, "next_steps", "restart redis, then add a health check")
        pack = client.context_pack(session.id, topic="login timeout", budget_tokens=400)
        print("context pack:\n" + pack.rendered)
        assert "restart redis" in pack.rendered

        # 4. A conversation: messages in, facts out (extraction runs as a job; wait for it, then recall).
        thread = client.create_thread(user_id="dana", title="onboarding")
        added = client.append_messages(
            thread.id, [{"role": "user", "content": "Hi! My name is Dana and I live in Paris."}]
        )
        job = client.wait_for_job(added.job_id, timeout=60)
        facts = [m.content for m in client.recall("where does Dana live", min_relevance=0, limit=10).memories]
        print(f"job {job.status}; facts:", facts)
        assert "User lives in Paris" in facts


if __name__ == "__main__":
    main()
