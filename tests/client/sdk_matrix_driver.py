"""Call EVERY public method of the OFFICIAL memorylayer-client 0.2.1, unchanged, against one server, and print
how each went. Run by tests/client/sdk_matrix.py in the official SDK's virtualenv (Python >= 3.12):

    .venv-compat312/bin/python tests/client/sdk_matrix_driver.py http://127.0.0.1:PORT run123

The methods are found by introspection, so none can be forgotten: every public method of the sync client and
of each of its sub-clients (any public attribute whose class comes from the ``memorylayer`` package), plus the
methods only the async client has (``async.`` names; the ones both clients have share their route, so the sync
one stands for both). Arguments come from each signature: optional parameters keep their defaults; a required
one takes a per-method value (``OVERRIDES``), else a value by its name (``POOL``, where ids made by earlier
calls land: creators run first, deleters last), else a plain value of its type.

Prints one JSON object: {"methods": {name: outcome}, "errors": [...], "sync_methods": n, "sub_clients": [...]};
an outcome is {"ok": true, "type": what the call returned (``Memory``, ``list[Memory]`` …), "result": it as
JSON} or {"ok": false, "type": exception class, "status": HTTP status or null,
"message": "..."}.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import json
import re
import sys
import tempfile
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from memorylayer import MemoryLayerClient, SyncMemoryLayerClient

BASE_URL, RUN = sys.argv[1], sys.argv[2]
WORKSPACE = f"ws_matrix_{RUN}"
SCRATCH = Path(tempfile.mkdtemp(prefix="sdk-matrix-"))

# Creators, in dependency order (a later one may use what an earlier one made); then everything else by name;
# then these deleters, children before parents. A name here that the SDK does not have is a driver error.
FIRST = [
    "connect",
    "create_workspace",
    "remember",
    "associate",
    "batch_memories",
    "create_session",
    "set_session",
    "create_checkpoint",
    "set_context",
    "create_thread",
    "append_messages",
    "create_context",
    "create_token",
    "mcp_servers.create",
    "mcp_servers.push_json",
    "skills.save",
    "skills.push",
    "upload_document",
    "upload_dataset",
    "rpg.sync",
    "context_inject",
    "context_load",
    "export_workspace",
    "export_workspace_stream",
    "list_entities",
    "get_context_pack",
    "kb.generate",
    "kb.list_articles",
    "get_document_pages",
]
LAST = [
    "async.delete_message",
    "delete_association",
    "update_association",  # an association the server no longer has is fine too: after delete it is 404 on both
    "delete_thread",
    "delete_context",
    "revoke_token",
    "delete_token",
    "mcp_servers.delete",
    "skills.delete",
    "cancel_job",
    "delete_document",
    "cancel_dataset_job",
    "delete_dataset",
    "rpg.delete_edges",
    "rpg.delete_nodes",
    "rpg.delete_overlay",
    "context_cleanup",
    "forget",
    "clear_session",
    "delete_session",
    "close",
]
DELETER = re.compile(r"(^|\.)(delete|forget|revoke|cancel|clear|close)")

DOCUMENT = b"# Matrix\n\nAlice prefers green tea. Bob drinks coffee.\n"
DATASET = b"day,cups\n2024-01-01,2\n2024-01-02,3\n2024-01-03,1\n"
NODES = [
    {"node_id": "n_mod", "node_type": "module", "path": "app/main.py", "name": "main"},
    {"node_id": "n_fn", "node_type": "function", "path": "app/main.py", "name": "run", "parent_id": "n_mod"},
]
TRANSCRIPT = "user: hello\nassistant: hi"
EDGES = [{"source_id": "n_mod", "target_id": "n_fn", "relationship": "contains"}]

# Values by parameter name, for every method (ids are added as calls create them).
POOL: dict[str, Any] = {
    "workspace_id": WORKSPACE,
    "name": f"matrix-{RUN}",
    "content": f"Alice prefers green tea {RUN}",
    "query": "green tea",
    "prompt": "What does Alice drink?",
    "goal": "What does Alice drink?",
    "description": "a matrix fixture",
    "relationship": "related_to",
    "messages": [{"role": "user", "content": "Hello, I am Alice."}, {"role": "assistant", "content": "Hi!"}],
    # the shape both servers validate (the SDK's docstring shows another, which neither accepts)
    "operations": [{"op": "create", "content": f"batch memory {RUN}"}],
    "code": "x = 1 + 1",
    "key": "k",
    "keys": ["k"],
    "value": "v",
    "var": "mem",
    "variables": ["mem"],
    "transcript_segment": TRANSCRIPT,
    "content_hash": hashlib.sha256(TRANSCRIPT.encode()).hexdigest(),
    "idempotency_key": f"idem-{RUN}",
    "user_id": f"user_{RUN}",
    "reason": "same person",
    "grant_id": f"grant_{RUN}",
    "nodes": NODES,
    "edges": EDGES,
    "node_ids": ["n_fn"],
    "task_id": f"task_{RUN}",
    "task_id_a": f"task_{RUN}",
    "task_id_b": f"task_b_{RUN}",
    "overlay_context": f"rpg_overlay_{RUN}",
    "path": "SKILL.md",
    "cursor": "0",
    "article_id": "missing",
    "community_id": 0,
    "json_path": SCRATCH / "push.mcp.json",
    "out_path": SCRATCH / "pulled.mcp.json",
    "skill_dir": SCRATCH / f"matrix-skill-{RUN}",
    "out_dir": SCRATCH / "pulled-skills",
    "target_dir": SCRATCH / "materialized",
}

# Per-method values that the name alone cannot choose.
OVERRIDES: dict[str, Callable[[], dict[str, Any]]] = {
    "upload_document": lambda: {"file_data": DOCUMENT, "filename": "matrix.md"},
    "upload_dataset": lambda: {"file_data": DATASET, "filename": "matrix.csv"},
    "mcp_servers.create": lambda: {"transport": "stdio", "command": "echo", "args": ["hi"]},
    "merge_entities": lambda: {
        "source_id": POOL.get("entity_id", "missing"),
        "target_id": POOL.get("other_entity_id", POOL.get("entity_id", "missing")),
    },
    "get_dataset_job": lambda: {"job_id": POOL.get("dataset_job_id", "missing")},
    "cancel_dataset_job": lambda: {"job_id": POOL.get("dataset_job_id", "missing")},
    "rpg.delete_overlay": lambda: {"context_id": POOL["overlay_context"]},
    "rpg.maintenance": lambda: {"operation": "statistics"},
    "delete_context": lambda: {"context_id": POOL.get("context_id", "missing")},
    "create_context": lambda: {"name": f"ctx-{RUN}"},
    "import_workspace": lambda: {"data": POOL.get("export", {"memories": []})},
    "import_workspace_stream": lambda: {"ndjson_lines": POOL.get("export_lines", [])},
    "async.update_thread": lambda: {"title": "renamed"},
    "resolve_entity": lambda: {"name": "Alice"},
    "skills.pull": lambda: {"name": POOL["name"]},
    "skills.resolve": lambda: {"name": POOL["name"]},
    "skills.get_file": lambda: {"path": "notes.txt"},
    "rpg.get_subgraph": lambda: {"path": "app/main.py"},
    "reprocess_document": lambda: {"chunk_size": 2048},
}

# The SDK model a call answers with -> the parameter name its id fills for later calls.
KINDS = {
    "Memory": "memory_id",
    "Association": "association_id",
    "Session": "session_id",
    "SessionCheckpoint": "checkpoint_id",
    "ChatThread": "thread_id",
    "TokenCreateResult": "token_id",
    "McpServerModel": "server_id",
    "SkillModel": "skill_id",
    "DocumentInfo": "document_id",
    "JobInfo": "job_id",
    "DatasetInfo": "dataset_id",
    "DatasetJobInfo": "dataset_job_id",
    "DocumentPage": "page_id",
    "Entity": "entity_id",
    "KbArticle": "article_id",
}


def harvest(name: str, result: Any) -> None:
    """Keep the ids (and documents) a call made, for the methods after it."""
    items = list(result) if isinstance(result, (list, tuple)) else [result]
    for item in items:
        kind, made = KINDS.get(type(item).__name__), getattr(item, "id", None)
        if kind and made and kind not in POOL:
            POOL[kind] = made  # the first one made stays: later answers about it carry the same id
        elif kind == "entity_id" and made != POOL[kind]:
            POOL.setdefault("other_entity_id", made)  # merge_entities needs two
    if name == "remember":
        POOL["source_id"] = POOL["memory_id"]
        POOL["target_id"] = CLIENT.remember(f"Bob drinks coffee {RUN}").id  # a second memory to link to
    elif name == "append_messages" and result:
        POOL["message_id"] = result[0].id
    elif name == "create_context" and isinstance(result, dict):
        POOL["context_id"] = result.get("id") or result.get("context_id")
    elif name == "export_workspace" and isinstance(result, dict):
        POOL["export"] = result
    elif name == "export_workspace_stream":
        POOL["export_lines"] = result
    elif name == "get_context_pack" and getattr(result, "cursor", None):
        POOL["cursor"] = result.cursor
    elif name == "kb.list_articles" and result:
        community = getattr(result[0], "community_id", None)
        if community is not None:
            POOL["community_id"] = community


def _literal_or_none(hint: Any) -> Any:
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) is typing.Literal:
        return hint.__args__[0]
    for arg in args:
        if typing.get_origin(arg) is typing.Literal:
            return arg.__args__[0]
    return None


def by_type(hint: Any) -> Any:
    """A plain value for a required parameter no name or override covers."""
    literal = _literal_or_none(hint)
    if literal is not None:
        return literal
    options = [a for a in typing.get_args(hint) if a is not type(None)] or [hint]
    for option in options:
        origin = typing.get_origin(option) or option
        if origin is str:
            return f"matrix {RUN}"
        if origin is bool:
            return False
        if origin is int:
            return 1
        if origin is float:
            return 0.5
        if origin is bytes:
            return DOCUMENT
        if origin is list:
            return []
        if origin is dict:
            return {}
        if origin is Path:
            return SCRATCH / "scratch"
    raise TypeError(f"no value for a parameter of type {hint!r}")


def arguments(name: str, method: Callable[..., Any]) -> dict[str, Any]:
    try:
        hints = typing.get_type_hints(method)
    except Exception:  # a forward reference the package cannot resolve: fall back to the raw annotation
        hints = {}
    chosen = OVERRIDES.get(name, dict)()
    kwargs: dict[str, Any] = {}
    for param in inspect.signature(method).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if param.name in chosen:
            kwargs[param.name] = chosen[param.name]
        elif param.default is not param.empty:
            continue
        elif param.name in POOL:
            kwargs[param.name] = POOL[param.name]
        elif param.name.endswith("_id"):
            kwargs[param.name] = f"missing_{param.name}"  # nothing made one: the call is expected to fail
        else:
            kwargs[param.name] = by_type(hints.get(param.name, param.annotation))
    return kwargs


def sub_clients(client: Any) -> dict[str, Any]:
    """Public attributes that are API objects of the ``memorylayer`` package (``skills``, ``kb`` …)."""
    return {
        name: value
        for name, value in vars(client).items()
        if not name.startswith("_") and type(value).__module__.startswith("memorylayer.")
    }


def public_methods(client: Any, prefix: str = "") -> dict[str, Callable[..., Any]]:
    found = {
        prefix + name: member
        for name, member in inspect.getmembers(client, callable)
        if not name.startswith("_") and inspect.ismethod(member)
    }
    for sub_name, sub in sub_clients(client).items():
        found |= public_methods(sub, f"{prefix}{sub_name}.")
    return found


def ordered(names: list[str], errors: list[str]) -> list[str]:
    for listed in FIRST + LAST:
        if listed not in names:
            errors.append(f"ordering names a method the SDK does not have: {listed}")
    rest = sorted(n for n in names if n not in FIRST and n not in LAST)
    middle = [n for n in rest if not DELETER.search(n)]
    deleters = [n for n in rest if DELETER.search(n)]
    return [n for n in FIRST if n in names] + middle + deleters + [n for n in LAST if n in names]


def outcome(exc: BaseException) -> dict[str, Any]:
    return {
        "ok": False,
        "type": type(exc).__name__,
        "status": getattr(exc, "status_code", None),
        "message": str(exc)[:400],
    }


def type_name(value: Any) -> str:
    """``Memory``, ``list[Memory]``, ``dict``, ``NoneType`` …: what the caller's code gets back."""
    if isinstance(value, list | tuple):
        inner = sorted({type_name(v) for v in value})
        return f"{type(value).__name__}[{'|'.join(inner)}]" if inner else type(value).__name__
    return type(value).__name__


def plain(value: Any) -> Any:
    """The result as JSON: models dumped, bytes and paths as their length and name, vectors elided."""
    if hasattr(value, "model_dump"):
        return plain(value.model_dump(mode="json"))
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        if len(value) > 16 and all(isinstance(v, float) for v in value):
            return "<vector>"
        return [plain(v) for v in value]
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    if isinstance(value, Path):
        return value.name
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return f"<{type(value).__name__}>"


def call(name: str, method: Callable[..., Any], loop: asyncio.AbstractEventLoop) -> dict[str, Any]:
    try:
        result = method(**arguments(name, method))
        if inspect.isawaitable(result):
            result = loop.run_until_complete(result)
        if isinstance(result, Iterator):
            result = list(result)
        harvest(name, result)
    except Exception as exc:
        rescue(exc)
        return outcome(exc)
    return {"ok": True, "type": type_name(result), "result": plain(result)}


def rescue(exc: Exception) -> None:
    """When the server made something but the SDK could not read its answer (a pydantic error on the
    response), the id is still in that answer: keep it, so the methods needing one still get a real one."""
    kind = KINDS.get(getattr(exc, "title", ""))
    errors = getattr(exc, "errors", None)
    if kind is None or kind in POOL or not callable(errors):
        return
    found = [e.get("input") for e in errors() if isinstance(e.get("input"), dict)]
    answer = found[0] if found else {}
    made = next((v for v in [answer, *answer.values()] if isinstance(v, dict) and v.get("id")), None)
    if made:
        POOL[kind] = made["id"]


def fixtures() -> None:
    """Files the path-taking methods read: a skill folder and an .mcp.json."""
    skill_dir = POOL["skill_dir"]
    skill_dir.mkdir(parents=True)
    (skill_dir / "SKILL.md").write_text(f"---\nname: pushed-{RUN}\ndescription: pushed\n---\nDo the thing.\n")
    (skill_dir / "notes.txt").write_text("a bundled file\n")
    POOL["json_path"].write_text(json.dumps({"mcpServers": {f"pushed-{RUN}": {"command": "echo"}}}))


CLIENT = SyncMemoryLayerClient(BASE_URL, workspace_id=WORKSPACE, timeout=60, max_retries=0)


def main() -> None:
    fixtures()
    loop = asyncio.new_event_loop()
    aclient = loop.run_until_complete(
        MemoryLayerClient(BASE_URL, workspace_id=WORKSPACE, timeout=60, max_retries=0).__aenter__()
    )
    methods = public_methods(CLIENT)
    sync_names = set(methods)
    methods |= {f"async.{name}": m for name, m in public_methods(aclient).items() if name not in sync_names}
    errors: list[str] = []
    results: dict[str, Any] = {}
    for name in ordered(sorted(methods), errors):
        results[name] = call(name, methods[name], loop)
    loop.run_until_complete(aclient.__aexit__(None, None, None))
    loop.close()
    surface = {"sync_methods": len(sync_names), "sub_clients": sorted(sub_clients(CLIENT))}
    print(json.dumps({"methods": results, "errors": errors, **surface}))


if __name__ == "__main__":
    main()
