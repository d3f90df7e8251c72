"""Drive OUR relation routes with the OFFICIAL memorylayer-client 0.2.1, unchanged (Python >= 3.12):

    .venv-compat312/bin/python tests/client/compat_relations.py http://127.0.0.1:PORT ws_abc

Prints one JSON object of what the SDK parsed (its own pydantic models validate our responses).
"""

from __future__ import annotations

import json
import sys

from memorylayer import SyncMemoryLayerClient
from memorylayer.models import EntityRelationInput

BASE_URL, WORKSPACE = sys.argv[1], sys.argv[2]

with SyncMemoryLayerClient(base_url=BASE_URL, workspace_id=WORKSPACE) as client:
    pr = client.remember(
        "Fix the flaky login redirect",
        metadata={
            "knowledge_work": {"subject": {"name": "PR-12", "type": "work_item"}, "reviewers": ["Bob Stone"]}
        },
    )
    note = client.remember(
        "Bob Stone approved PR-12 on Monday",
        relations=[EntityRelationInput(source_entity_name="PR-12", target_entity_name="Bob Stone",
                                       relationship="approved_by", source_span_start=0, source_span_end=18)],
    )  # fmt: skip
    raw = client.remember(
        "Ann Lee owns PR-12",
        relations=[{"source_entity_name": "Ann Lee", "target_entity_name": "PR-12", "relationship": "owns"}],
    )
    plain = client.remember("likes tea")
    result = client.recall("Who reviewed PR-12?", limit=5)
    entities = client.list_entities()
    bob = next(e for e in entities if e.canonical_name == "Bob Stone")
    got = client.get_entity(bob.id)
    resolved = client.resolve_entity("bob stone", entity_type="person")
    missing = client.resolve_entity("nobody at all")
    pr_entity = next(e for e in entities if e.canonical_name == "PR-12")
    survivor = client.merge_entities(bob.id, pr_entity.id, reason="test")
    print(
        json.dumps(
            {
                "pr_result": pr.relation_write_result.model_dump() if pr.relation_write_result else None,
                "note_result": note.relation_write_result.model_dump()
                if note.relation_write_result
                else None,
                "raw_result": raw.relation_write_result.model_dump() if raw.relation_write_result else None,
                "plain_result": plain.relation_write_result,
                "top": result.memories[0].id,
                "pr_id": pr.id,
                "paths": [p.model_dump() for p in result.relation_paths],
                "entities": sorted(e.canonical_name for e in entities),
                "got": got.canonical_name,
                "resolved": resolved.entity.id if resolved else None,
                "bob": bob.id,
                "missing": missing,
                "survivor": survivor.id,
                "pr_entity": pr_entity.id,
            }
        )
    )
