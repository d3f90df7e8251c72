"""Model safety: a workspace is bound to one embedding model; re-embedding moves it, resumably."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from shared.core.errors import EmbeddingModelMismatch
from shared.domain.indexing.reembed import reembed
from shared.domain.memories.service import MemoryService
from shared.domain.requests import MemoryCreate, RecallRequest
from shared.domain.retrieval.recall import Recaller
from shared.providers.embeddings.hash import HashEmbedder


@pytest.fixture()
def seeded(services, ws):
    for i in range(5):
        services.memories.remember(ws, MemoryCreate(content=f"note number {i} about gardening"))
    return ws


def test_a_mismatched_model_is_refused_not_mixed(services, settings, seeded):
    other = HashEmbedder(dimensions=128, model="hash-128")
    with pytest.raises(EmbeddingModelMismatch):
        Recaller(services.db, other, settings).recall([seeded], RecallRequest(query="gardening"))
    with pytest.raises(EmbeddingModelMismatch):
        MemoryService(services.db, other, settings).remember(seeded, MemoryCreate(content="new"))


def test_mismatch_over_http_is_a_clear_409(http, services, settings, seeded):
    with services.db.transaction() as conn:
        conn.execute(
            "UPDATE workspaces SET embedding_model = 'text-embedding-3-small@1536' WHERE id = %s", (seeded,)
        )
    r = http.post("/v1/memories/recall", json={"query": "gardening"}, headers={"X-Workspace-ID": seeded})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "embedding_model_mismatch"
    assert r.json()["detail"]["workspace_model"] == "text-embedding-3-small@1536"


def test_reembed_resumes_after_an_interruption(services, settings, seeded):
    new = HashEmbedder(dimensions=128, model="hash-128")
    # Given a run interrupted after one batch of two ...
    first = reembed(services.db, new, seeded, batch_size=2, max_batches=1)
    assert (first.done, first.total) == (2, 5)
    # ... the workspace still answers with its old model, and refuses the new one.
    assert Recaller(services.db, services.embedder, settings).recall(
        [seeded], RecallRequest(query="gardening")
    )["memories"]
    with pytest.raises(EmbeddingModelMismatch):
        Recaller(services.db, new, settings).recall([seeded], RecallRequest(query="gardening"))
    # When the rerun finishes the rest, the workspace moves to the new model.
    second = reembed(services.db, new, seeded, batch_size=2)
    assert (second.done, second.total) == (3, 3)
    found = Recaller(services.db, new, settings).recall(
        [seeded], RecallRequest(query="gardening note", limit=10)
    )
    assert len(found["memories"]) == 5 and all("vector" in m["match_signals"] for m in found["memories"])
    with pytest.raises(EmbeddingModelMismatch):
        Recaller(services.db, services.embedder, settings).recall([seeded], RecallRequest(query="gardening"))
    with services.db.connection() as conn:
        # Re-embedding is not an edit: each memory is still at its creation, and no history was written.
        revisions = conn.execute(
            "SELECT revision, count(*) AS n FROM memories WHERE workspace_id = %s GROUP BY revision",
            (seeded,),
        ).fetchall()
        assert revisions == [{"revision": 1, "n": 5}]
        assert (
            conn.execute(
                "SELECT count(*) AS n FROM memory_revisions WHERE workspace_id = %s", (seeded,)
            ).fetchone()["n"]
            == 0
        )


def test_cli_shows_progress(app_url, owner_url, seeded):
    env = {
        **os.environ,
        "MEMORYLAYER_DATABASE_URL": app_url,
        "MEMORYLAYER_DATABASE_OWNER_URL": owner_url,
        "MEMORYLAYER_EMBEDDING_PROVIDER": "hash",
        "MEMORYLAYER_EMBEDDING_MODEL": "hash-64",
        "MEMORYLAYER_EMBEDDING_DIMENSIONS": "64",
    }
    out = subprocess.run(
        [sys.executable, "-m", "shared.cli", "reembed", "--workspace", seeded, "--batch-size", "2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "5 re-embedded" in out.stdout and "hash-64@64" in out.stdout
    assert "re-embedding" in out.stderr and "5/" not in out.stdout  # tqdm draws its bar on stderr
