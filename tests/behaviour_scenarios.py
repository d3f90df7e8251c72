"""The scenarios of the behavioural contract (tests/behaviour.py), one a family: what a user moving from the
reference does, call for call, reading back what was stored, filtered, counted and in what order."""

from __future__ import annotations

import uuid

from tests.behaviour import Probe, Scenario, dig, pluck


def memories(p: Probe) -> None:
    a = p.call("remember", "POST", "/v1/memories", json={"content": "Alice likes green tea", "tags": ["tea"]})
    p.label(dig(a, "memory", "id"), "A")
    p.fields("remember", dig(a, "memory"), *MEMORY_FIELDS)
    b = p.call(
        "remember_episodic",
        "POST",
        "/v1/memories",
        json={"content": "Bob went hiking on Sunday", "type": "episodic", "importance": 0.9, "tags": ["x"]},
    )
    p.label(dig(b, "memory", "id"), "B")
    p.fields("remember_episodic", dig(b, "memory"), *MEMORY_FIELDS)
    a_id, b_id = dig(a, "memory", "id"), dig(b, "memory", "id")
    got = p.call("get", "GET", f"/v1/memories/{a_id}")
    p.fields("get", dig(got, "memory"), *MEMORY_FIELDS)
    upd = p.call(
        "update", "PUT", f"/v1/memories/{a_id}", json={"content": "Alice likes oolong", "tags": ["t2"]}
    )
    p.fields("update", dig(upd, "memory"), *MEMORY_FIELDS)
    listed = p.call("list", "GET", "/v1/memories")
    p.value("list", "ids", pluck(dig(listed, "memories"), "id"))
    p.value("list", "total_count", dig(listed, "total_count"))
    typed = p.call("list_type", "GET", "/v1/memories", params={"type": "episodic"})
    p.value("list_type", "ids", pluck(dig(typed, "memories"), "id"))
    p.call("list_type_unknown", "GET", "/v1/memories", params={"type": "bogus"})
    tagged = p.call("list_tags", "GET", "/v1/memories", params={"tags": "x"})
    p.value("list_tags", "ids", pluck(dig(tagged, "memories"), "id"))
    paged = p.call("list_page", "GET", "/v1/memories", params={"limit": 1, "offset": 1})
    p.value("list_page", "ids", pluck(dig(paged, "memories"), "id"))
    p.value("list_page", "total_count", dig(paged, "total_count"))
    revs = p.call("revisions", "GET", f"/v1/memories/{a_id}/revisions")
    # The reference's own background write (its extractive tiers) may add a revision: read the ends.
    listed_revisions = dig(revs, "revisions") or []
    p.value(
        "revisions",
        "newest",
        [dig(listed_revisions, 0, "memory", "content"), dig(listed_revisions, 0, "action")],
    )
    p.value(
        "revisions",
        "oldest",
        [dig(listed_revisions, -1, "memory", "content"), dig(listed_revisions, -1, "action")],
    )
    p.call("forget", "DELETE", f"/v1/memories/{b_id}")
    p.call("get_forgotten", "GET", f"/v1/memories/{b_id}")
    p.call("forget_again", "DELETE", f"/v1/memories/{b_id}")
    after = p.call("list_after_forget", "GET", "/v1/memories")
    p.value("list_after_forget", "ids", pluck(dig(after, "memories"), "id"))
    p.call("get_unknown", "GET", "/v1/memories/mem_0000000000000000")
    p.call("remember_empty", "POST", "/v1/memories", json={"content": ""})
    batch = p.call(
        "batch",
        "POST",
        "/v1/memories/batch",
        json={
            "operations": [{"op": "create", "content": "batch one"}, {"op": "create", "content": "batch two"}]
        },
    )
    p.value("batch", "counts", {k: dig(batch, k) for k in ("total_operations", "successful", "failed")})
    user = p.call(
        "remember_user_scope",
        "POST",
        "/v1/memories",
        json={"content": "Dana is allergic to peanuts", "scope": "user", "user_id": f"dana_{p.workspace}"},
    )
    u_id = dig(user, "memory", "id")
    p.label(u_id, "U")
    p.value("remember_user_scope", "workspace", dig(user, "memory", "workspace_id") == p.workspace)
    p.call("get_user_scope", "GET", f"/v1/memories/{u_id}")
    p.call("update_user_scope", "PUT", f"/v1/memories/{u_id}", json={"content": "Dana: cashews"})
    p.call("forget_user_scope", "DELETE", f"/v1/memories/{u_id}")


# revision is not among them: the reference's background tiering writes revisions of its own.
MEMORY_FIELDS = ("content", "type", "importance", "tags", "workspace_id", "context_id", "status", "pinned")


def recall(p: Probe) -> None:
    contents = [
        ("The blue kettle is in the staff kitchen", "semantic", ["kitchen"]),
        ("The red kettle broke on Monday", "episodic", ["kitchen", "broken"]),
        ("Deploys happen every Friday afternoon", "procedural", ["ops"]),
        ("Carol prefers the blue kettle", "semantic", ["people"]),
    ]
    for i, (content, type_, tags) in enumerate(contents):
        made = p.call(
            f"seed_{i}", "POST", "/v1/memories", json={"content": content, "type": type_, "tags": tags}
        )
        p.label(dig(made, "memory", "id"), f"M{i}")
    base = {"query": "blue kettle", "include_global": False}
    plain = p.call("plain", "POST", "/v1/memories/recall", json=base)
    p.value("plain", "ids", pluck(dig(plain, "memories"), "id"), unordered=True)
    p.value("plain", "total_count", dig(plain, "total_count"))
    typed = p.call("types", "POST", "/v1/memories/recall", json={**base, "types": ["episodic"]})
    p.value("types", "ids", pluck(dig(typed, "memories"), "id"))
    tagged = p.call("tags", "POST", "/v1/memories/recall", json={**base, "tags": ["people"]})
    p.value("tags", "ids", pluck(dig(tagged, "memories"), "id"))
    limited = p.call("limit", "POST", "/v1/memories/recall", json={**base, "limit": 2})
    p.value("limit", "count", len(dig(limited, "memories") or []))
    first = p.call("page_1", "POST", "/v1/memories/recall", json={**base, "limit": 1, "offset": 0})
    second = p.call("page_2", "POST", "/v1/memories/recall", json={**base, "limit": 1, "offset": 1})
    pages = pluck(dig(first, "memories"), "id") + pluck(dig(second, "memories"), "id")
    p.value("page_2", "distinct_pages", len(set(pages)))
    p.value("page_2", "count", len(dig(second, "memories") or []))
    everything = p.call(
        "broad",
        "POST",
        "/v1/memories/recall",
        json={"query": "kettle deploys", "include_global": False, "limit": 10},
    )
    p.value("broad", "ids", pluck(dig(everything, "memories"), "id"), unordered=True)
    excluded = p.call(
        "exclude_ids",
        "POST",
        "/v1/memories/recall",
        json={**base, "exclude_ids": pluck(dig(plain, "memories"), "id")[:1]},
    )
    p.value("exclude_ids", "count", len(dig(excluded, "memories") or []))
    p.call("bad_type", "POST", "/v1/memories/recall", json={**base, "types": ["bogus"]})
    p.call("empty_query", "POST", "/v1/memories/recall", json={"query": ""})
    nothing = p.call(
        "no_match_workspace", "POST", "/v1/memories/recall", json=base, workspace=f"{p.workspace}_e"
    )
    p.value("no_match_workspace", "ids", pluck(dig(nothing, "memories"), "id"))


def associations(p: Probe) -> None:
    ids = []
    for i, content in enumerate(["the deploy failed", "the disk was full", "the logs were rotated"]):
        made = p.call(f"seed_{i}", "POST", "/v1/memories", json={"content": content})
        ids.append(dig(made, "memory", "id"))
        p.label(ids[-1], f"M{i}")
    a, b, c = ids
    link = p.call(
        "associate", "POST", f"/v1/memories/{a}/associate", json={"target_id": b, "relationship": "caused_by"}
    )
    assoc = dig(link, "association") or link
    p.label(dig(assoc, "id"), "L1")
    p.value(
        "associate",
        "edge",
        {k: dig(assoc, k) for k in ("source_id", "target_id", "relationship", "strength")},
    )
    p.call(
        "associate_chain",
        "POST",
        f"/v1/memories/{b}/associate",
        json={"target_id": c, "relationship": "related_to"},
    )
    p.call(
        "associate_unknown_target",
        "POST",
        f"/v1/memories/{a}/associate",
        json={"target_id": "mem_0000000000000000", "relationship": "related_to"},
    )
    p.call(
        "associate_bad_relationship",
        "POST",
        f"/v1/memories/{a}/associate",
        json={"target_id": c, "relationship": "not_a_relation"},
    )
    listed = p.call("list", "GET", f"/v1/memories/{a}/associations")
    p.value(
        "list",
        "edges",
        [
            (x.get("source_id"), x.get("target_id"), x.get("relationship"))
            for x in dig(listed, "associations") or []
        ],
    )
    p.value("list", "total_count", dig(listed, "total_count"))
    walk = p.call("traverse", "POST", f"/v1/memories/{a}/traverse", json={"max_depth": 3})
    p.value("traverse", "unique_nodes", dig(walk, "unique_nodes"), unordered=True)
    p.value("traverse", "paths", len(dig(walk, "paths") or []))
    p.value("traverse", "total_paths", dig(walk, "total_paths"))
    shallow = p.call("traverse_depth_1", "POST", f"/v1/memories/{a}/traverse", json={"max_depth": 1})
    p.value("traverse_depth_1", "unique_nodes", dig(shallow, "unique_nodes"), unordered=True)
    p.call("traverse_unknown", "POST", "/v1/memories/mem_0000000000000000/traverse", json={})
    assoc_id = dig(assoc, "id")
    p.call("update", "PATCH", f"/v1/memories/{a}/associations/{assoc_id}", json={"strength": 0.3})
    updated = p.call("list_after_update", "GET", f"/v1/memories/{a}/associations")
    p.value("list_after_update", "strengths", pluck(dig(updated, "associations"), "strength"))
    p.call("delete", "DELETE", f"/v1/memories/{a}/associations/{assoc_id}")
    after = p.call("list_after_delete", "GET", f"/v1/memories/{a}/associations")
    p.value("list_after_delete", "count", len(dig(after, "associations") or []))


def sessions(p: Probe) -> None:
    made = p.call("create", "POST", "/v1/sessions", json={"ttl_seconds": 600, "metadata": {"k": "v"}})
    s = dig(made, "session") or made
    sid = dig(s, "id")
    p.label(sid, "S")
    p.value("create", "session", {k: dig(s, k) for k in ("workspace_id", "metadata")})
    got = p.call("get", "GET", f"/v1/sessions/{sid}")
    p.value("get", "id", dig(got, "session", "id") or dig(got, "id"))
    p.call("set_memory", "POST", f"/v1/sessions/{sid}/memory", json={"key": "goal", "value": "ship it"})
    p.call("set_memory_2", "POST", f"/v1/sessions/{sid}/memory", json={"key": "mood", "value": {"level": 3}})
    ctx = p.call("get_memory", "GET", f"/v1/sessions/{sid}/memory")
    p.value("get_memory", "body", ctx)
    p.call("touch", "POST", f"/v1/sessions/{sid}/touch", json={})
    listed = p.call("list", "GET", "/v1/sessions")
    p.value("list", "ids", pluck(dig(listed, "sessions"), "id"))
    brief = p.call("briefing", "GET", "/v1/sessions/briefing")
    p.value("briefing", "total_memories", dig(brief, "briefing", "workspace_summary", "total_memories"))
    commit = p.call("commit", "POST", f"/v1/sessions/{sid}/commit", json={})
    p.fields("commit", commit, "memories_extracted", "memories_created")
    brief = p.call("briefing_after_commit", "GET", "/v1/sessions/briefing")
    p.value(
        "briefing_after_commit", "memory_types", dig(brief, "briefing", "workspace_summary", "memory_types")
    )
    made = p.call("list_committed", "GET", "/v1/memories")
    p.value("list_committed", "contents", pluck(dig(made, "memories"), "content"), unordered=True)
    p.call("get_unknown", "GET", "/v1/sessions/sess_missing")
    p.call("delete", "DELETE", f"/v1/sessions/{sid}")
    p.call("get_deleted", "GET", f"/v1/sessions/{sid}")


def threads(p: Probe) -> None:
    made = p.call("create", "POST", "/v1/threads", json={"title": "Trip planning", "metadata": {"a": 1}})
    t = dig(made, "thread") or made
    tid = dig(t, "id")
    p.label(tid, "T")
    p.value("create", "thread", {k: dig(t, k) for k in ("title", "metadata", "message_count", "ownership")})
    sent = p.call(
        "append",
        "POST",
        f"/v1/threads/{tid}/messages",
        json={
            "messages": [
                {"role": "user", "content": "I moved to Lisbon"},
                {"role": "assistant", "content": "Nice!"},
            ]
        },
    )
    p.value(
        "append",
        "messages",
        [(m.get("role"), m.get("content"), m.get("message_index")) for m in dig(sent, "messages") or []],
    )
    page = p.call("messages", "GET", f"/v1/threads/{tid}/messages")
    p.value("messages", "contents", pluck(dig(page, "messages"), "content"))
    p.value("messages", "total_count", dig(page, "total_count"))
    limited = p.call("messages_page", "GET", f"/v1/threads/{tid}/messages", params={"limit": 1, "offset": 1})
    p.value("messages_page", "contents", pluck(dig(limited, "messages"), "content"))
    full = p.call("full", "GET", f"/v1/threads/{tid}/full")
    p.value("full", "contents", pluck(dig(full, "messages"), "content"))
    got = p.call("get", "GET", f"/v1/threads/{tid}")
    p.value("get", "message_count", dig(got, "thread", "message_count"))
    upd = p.call("update", "PUT", f"/v1/threads/{tid}", json={"title": "Lisbon trip"})
    p.value("update", "title", dig(upd, "thread", "title") or dig(upd, "title"))
    listed = p.call("list", "GET", "/v1/threads")
    p.value("list", "ids", pluck(dig(listed, "threads"), "id"))
    conv = f"conv-{uuid.uuid4().hex[:8]}"
    p.label(conv, "C")
    created = p.call(
        "append_unknown",
        "POST",
        f"/v1/threads/{conv}/messages",
        json={"messages": [{"role": "user", "content": "hi"}]},
    )
    p.value("append_unknown", "thread_id", dig(created, "thread_id"))
    conv_thread = p.call("get_appended", "GET", f"/v1/threads/{conv}")
    p.value(
        "get_appended",
        "thread",
        {k: dig(conv_thread, "thread", k) for k in ("title", "message_count", "ownership")},
    )
    home = p.call(
        "create_user_owned", "POST", "/v1/threads", json={"workspace_id": "_user_chat", "ownership": "user"}
    )
    hid = dig(home, "thread", "id")
    p.label(hid, "H")
    p.fields("create_user_owned", dig(home, "thread"), "workspace_id", "ownership")
    p.call(
        "append_user_owned",
        "POST",
        f"/v1/threads/{hid}/messages",
        json={"messages": [{"role": "user", "content": "hello"}]},
        workspace="_user_chat",
    )
    across = p.call("get_user_owned", "GET", f"/v1/threads/{hid}")
    p.fields("get_user_owned", dig(across, "thread"), "id", "workspace_id", "message_count")
    p.call("archive", "POST", f"/v1/threads/{tid}/archive", json={})
    listed2 = p.call("list_after_archive", "GET", "/v1/threads")
    p.value("list_after_archive", "ids", pluck(dig(listed2, "threads"), "id"))
    p.call("restore", "POST", f"/v1/threads/{tid}/restore", json={})
    p.call("get_unknown", "GET", "/v1/threads/thr_missing")
    p.call("delete", "DELETE", f"/v1/threads/{tid}")
    p.call("get_deleted", "GET", f"/v1/threads/{tid}")


def workspaces(p: Probe) -> None:
    # The reference makes the header's workspace on first use: the workspace made here has an id of its own.
    wid = f"{p.workspace}_made"
    made = p.call(
        "create", "POST", "/v1/workspaces", json={"id": wid, "name": "Contract", "settings": {"a": 1}}
    )
    p.fields("create", dig(made, "workspace"), "id", "name", "settings")
    got = p.call("get", "GET", f"/v1/workspaces/{wid}")
    p.fields("get", dig(got, "workspace"), "id", "name", "settings")
    upd = p.call("update", "PUT", f"/v1/workspaces/{wid}", json={"name": "Renamed"})
    p.fields("update", dig(upd, "workspace"), "name", "settings")
    p.call("create_again", "POST", "/v1/workspaces", json={"id": wid, "name": "Again"})
    p.call("get_unknown", "GET", f"/v1/workspaces/{p.workspace}_nope")
    listed = p.call("list", "GET", "/v1/workspaces")
    p.value("list", "has_made", wid in pluck(dig(listed, "workspaces"), "id"))
    c1 = p.call(
        "context_create",
        "POST",
        f"/v1/workspaces/{wid}/contexts",
        json={"name": "billing", "description": "money"},
    )
    p.label(dig(c1, "context", "id"), "X1")
    p.fields("context_create", dig(c1, "context"), "name", "description", "workspace_id", "settings")
    p.call("context_create_twin", "POST", f"/v1/workspaces/{wid}/contexts", json={"name": "billing"})
    c2 = p.call("context_create_other", "POST", f"/v1/workspaces/{wid}/contexts", json={"name": "support"})
    p.label(dig(c2, "context", "id"), "X2")
    listed = p.call("context_list", "GET", f"/v1/workspaces/{wid}/contexts")
    p.value("context_list", "names", pluck(dig(listed, "contexts"), "name"), unordered=True)
    p.call("context_delete", "DELETE", f"/v1/workspaces/{wid}/contexts/{dig(c2, 'context', 'id')}")
    after = p.call("context_list_after_delete", "GET", f"/v1/workspaces/{wid}/contexts")
    p.value("context_list_after_delete", "names", pluck(dig(after, "contexts"), "name"), unordered=True)
    p.call("schema", "GET", f"/v1/workspaces/{wid}/schema")


def versioned(p: Probe) -> None:
    note = {"key": "tone", "title": "Tone", "content": "Be brief."}
    made = p.call(
        "create",
        "POST",
        "/v1/prompt-notes",
        json=note,
        headers={"Idempotency-Key": "idem-1", "If-None-Match": "*"},
    )
    nid, etag = dig(made, "note", "id"), dig(made, "note", "etag")
    p.label(nid, "N")
    p.fields("create", dig(made, "note"), "key", "title", "content", "enabled")
    p.value("create", "replayed", dig(made, "replayed"))
    replay = p.call(
        "create_replay",
        "POST",
        "/v1/prompt-notes",
        json=note,
        headers={"Idempotency-Key": "idem-1", "If-None-Match": "*"},
    )
    p.value("create_replay", "replayed", dig(replay, "replayed"))
    p.value("create_replay", "same", dig(replay, "note", "id") == nid)
    p.call(
        "create_taken_key",
        "POST",
        "/v1/prompt-notes",
        json=note,
        headers={"Idempotency-Key": "idem-9", "If-None-Match": "*"},
    )
    p.call(
        "create_no_idempotency_key",
        "POST",
        "/v1/prompt-notes",
        json={**note, "key": "k2"},
        headers={"If-None-Match": "*"},
    )
    p.call(
        "update_no_if_match",
        "PUT",
        f"/v1/prompt-notes/{nid}",
        json={**note, "content": "x"},
        headers={"Idempotency-Key": "idem-2"},
    )
    p.call(
        "update_stale",
        "PUT",
        f"/v1/prompt-notes/{nid}",
        json={**note, "content": "x"},
        headers={"Idempotency-Key": "idem-3", "If-Match": '"stale"'},
    )
    upd = p.call(
        "update",
        "PUT",
        f"/v1/prompt-notes/{nid}",
        json={**note, "content": "Be terse."},
        headers={"Idempotency-Key": "idem-4", "If-Match": str(etag)},
    )
    p.fields("update", dig(upd, "note"), "content")
    got = p.call("get", "GET", f"/v1/prompt-notes/{nid}")
    p.fields("get", dig(got, "note"), "key", "content")
    revs = p.call("revisions", "GET", f"/v1/prompt-notes/{nid}/revisions")
    p.value(
        "revisions",
        "contents",
        [
            dig(r, "content") or dig(r, "note", "content") or dig(r, "resource", "content")
            for r in dig(revs, "revisions") or []
        ],
    )
    listed = p.call("list", "GET", "/v1/prompt-notes")
    p.value("list", "keys", pluck(dig(listed, "notes"), "key"))
    p.call(
        "delete",
        "DELETE",
        f"/v1/prompt-notes/{nid}",
        headers={"Idempotency-Key": "idem-5", "If-Match": str(dig(upd, "note", "etag"))},
    )
    p.call("get_deleted", "GET", f"/v1/prompt-notes/{nid}")
    gone = p.call("list_after_delete", "GET", "/v1/prompt-notes")
    p.value("list_after_delete", "keys", pluck(dig(gone, "notes"), "key"))


def registries(p: Probe) -> None:
    made = p.call(
        "mcp_create",
        "POST",
        "/v1/mcp-servers",
        json={"name": "echo", "transport": "stdio", "command": "echo", "args": ["hi"]},
    )
    sid = dig(made, "mcp_server", "id")
    p.label(sid, "S")
    p.fields("mcp_create", dig(made, "mcp_server"), "name", "transport", "command", "args", "enabled")
    p.call(
        "mcp_create_twin",
        "POST",
        "/v1/mcp-servers",
        json={"name": "echo", "transport": "stdio", "command": "echo"},
    )
    listed = p.call("mcp_list", "GET", "/v1/mcp-servers")
    p.value("mcp_list", "names", pluck(dig(listed, "mcp_servers"), "name"))
    got = p.call("mcp_get", "GET", f"/v1/mcp-servers/{sid}")
    p.fields("mcp_get", dig(got, "mcp_server"), "name", "command")
    p.call("mcp_delete", "DELETE", f"/v1/mcp-servers/{sid}")
    p.call("mcp_get_deleted", "GET", f"/v1/mcp-servers/{sid}")
    skill = p.call(
        "skill_create",
        "POST",
        "/v1/skills",
        json={"name": "brew-tea", "description": "how to brew", "body": "Boil water."},
    )
    k = dig(skill, "skill", "id")
    p.label(k, "K")
    p.fields("skill_create", dig(skill, "skill"), "name", "description", "body", "enabled")
    skills = p.call("skill_list", "GET", "/v1/skills")
    p.value("skill_list", "names", pluck(dig(skills, "skills"), "name"))
    got_skill = p.call("skill_get", "GET", f"/v1/skills/{k}")
    p.fields("skill_get", dig(got_skill, "skill"), "name", "body")
    p.call("skill_delete", "DELETE", f"/v1/skills/{k}")
    p.call("skill_get_deleted", "GET", f"/v1/skills/{k}")


def entities(p: Probe) -> None:
    p.call(
        "seed_memory",
        "POST",
        "/v1/memories",
        json={"content": "Marie Curie won the Nobel prize", "subject_id": "Marie Curie"},
    )
    people = [
        {"name": "Pierre Curie", "entity_type": "person", "aliases": ["P. Curie"]},
        {"name": "Irene Curie", "entity_type": "person"},
        {"name": "Sorbonne", "entity_type": "not_a_kind"},
    ]
    seeded = p.call("seed", "POST", "/v1/entities/seed", json={"entities": people})
    p.fields("seed", seeded, "seeded", "failed", "skipped_invalid_type")
    listed = p.call("list", "GET", "/v1/entities")
    p.value("list", "names", pluck(dig(listed, "entities"), "canonical_name"), unordered=True)
    p.value("list", "total_count", dig(listed, "total_count"))
    limited = p.call("list_limit", "GET", "/v1/entities", params={"limit": 1})
    p.value("list_limit", "count", len(dig(limited, "entities") or []))
    resolved = p.call("resolve", "GET", "/v1/entities/resolve", params={"name": "Pierre Curie"})
    entity = dig(resolved, "resolution", "entity")
    p.label(dig(entity, "id"), "E")
    p.fields("resolve", entity, "canonical_name", "normalized_name", "entity_type", "aliases", "status")
    p.value("resolve", "matched_via", dig(resolved, "resolution", "matched_via"))
    alias = p.call("resolve_alias", "GET", "/v1/entities/resolve", params={"name": "P. Curie"})
    p.value("resolve_alias", "id", dig(alias, "resolution", "entity", "id"))
    p.value("resolve_alias", "matched_via", dig(alias, "resolution", "matched_via"))
    got = p.call("get", "GET", f"/v1/entities/{dig(entity, 'id')}")
    p.fields("get", dig(got, "entity") or got, "canonical_name", "entity_type")
    p.call("resolve_unknown", "GET", "/v1/entities/resolve", params={"name": "Nobody Known"})
    p.call("get_unknown", "GET", "/v1/entities/ent_missing")
    other = p.call("resolve_other", "GET", "/v1/entities/resolve", params={"name": "Irene Curie"})
    other_id = dig(other, "resolution", "entity", "id")
    p.label(other_id, "E2")
    merged = p.call(
        "merge",
        "POST",
        "/v1/entities/merge",
        json={"source_id": other_id, "target_id": dig(entity, "id"), "reason": "test"},
    )
    p.value("merge", "kept", dig(merged, "entity", "id"))
    p.value("merge", "aliases", dig(merged, "entity", "aliases"), unordered=True)
    after = p.call("list_after_merge", "GET", "/v1/entities")
    p.value("list_after_merge", "names", pluck(dig(after, "entities"), "canonical_name"), unordered=True)


def documents(p: Probe) -> None:
    up = p.call(
        "upload",
        "POST",
        "/v1/documents",
        files={
            "file": ("notes.md", b"# Notes\n\nAlice prefers green tea. Bob drinks coffee.\n", "text/markdown")
        },
    )
    did = dig(up, "document", "id") or dig(up, "id")
    p.label(did, "D")
    p.fields("upload", dig(up, "document"), "filename", "content_type", "size_bytes")
    listed = p.call("list", "GET", "/v1/documents")
    p.value("list", "ids", pluck(dig(listed, "documents"), "id"))
    got = p.call("get", "GET", f"/v1/documents/{did}")
    p.fields("get", dig(got, "document") or got, "filename", "content_type", "size_bytes")
    empty = p.call(
        "upload_empty", "POST", "/v1/documents", files={"file": ("empty.md", b"", "text/markdown")}
    )
    p.label(dig(empty, "document", "id"), "D0")
    p.call("get_unknown", "GET", "/v1/documents/doc_missing")
    p.call("delete", "DELETE", f"/v1/documents/{did}")
    p.call("get_deleted", "GET", f"/v1/documents/{did}")
    after = p.call("list_after_delete", "GET", "/v1/documents")
    p.value("list_after_delete", "ids", pluck(dig(after, "documents"), "id"))


SCENARIOS: dict[str, Scenario] = {
    "memories": memories,
    "recall": recall,
    "associations": associations,
    "sessions": sessions,
    "threads": threads,
    "workspaces": workspaces,
    "versioned": versioned,
    "registries": registries,
    "entities": entities,
    "documents": documents,
}
