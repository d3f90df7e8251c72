"""``memorylayer remember``, ``recall`` and ``usage``: through the HTTP API, as any client would."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from shared.cli.common import CliError
from shared.core.settings import Settings


def _api(args: argparse.Namespace) -> Any:
    """An HTTP client of the API: the URL given, else ``MEMORYLAYER_URL``, else the running local stack's."""
    import os

    import httpx

    from shared.local.processes import read_state

    url = args.url or os.environ.get("MEMORYLAYER_URL")
    if not url:
        state = read_state(Path(args.data_dir or Settings.model_fields["data_dir"].default).resolve())
        url = state.api_url if state and state.running and state.api_url else "http://127.0.0.1:61001"
    headers = {"X-Workspace-ID": args.workspace} if args.workspace else {}
    key = args.api_key or os.environ.get("MEMORYLAYER_API_KEY")
    if key:
        headers["Authorization"] = f"Bearer {key}"
    return httpx.Client(base_url=url.rstrip("/"), headers=headers, timeout=60)


def _answer(response: Any) -> Any:
    """The body of a 2xx; otherwise the server's message as one line (exit 1)."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if response.is_success:
        return body
    detail = body.get("detail") if isinstance(body, dict) else None
    if isinstance(detail, dict):
        message = f"{detail.get('message')} ({detail.get('code')})"
    elif isinstance(detail, list) and detail:
        message = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'body'}: {e.get('msg')}"
            for e in detail
            if isinstance(e, dict)
        )
    else:
        message = f"HTTP {response.status_code}"
    raise CliError(message, code=1)


def _call(args: argparse.Namespace, path: str, body: dict[str, Any]) -> Any:
    import httpx

    with _api(args) as client:
        try:
            return _answer(client.post(path, json=body))
        except httpx.TransportError as exc:
            raise CliError(
                f"cannot reach the API at {client.base_url} ({type(exc).__name__}): is it running?", 1
            ) from None


def cmd_remember(args: argparse.Namespace) -> int:
    body: dict[str, Any] = {"content": args.content, "tags": args.tag or []}
    if args.type:
        body["type"] = args.type
    if args.importance is not None:
        body["importance"] = args.importance
    memory = _call(args, "/v1/memories", body)["memory"]
    print(json.dumps(memory) if args.json else f"{memory['id']}  {memory['type']}  {memory['content']}")
    return 0


def cmd_recall(args: argparse.Namespace) -> int:
    body: dict[str, Any] = {"query": args.query, "limit": args.limit}
    if args.type:
        body["types"] = args.type
    if args.tag:
        body["tags"] = args.tag
    found = _call(args, "/v1/memories/recall", body)
    if args.json:
        print(json.dumps(found))
        return 0
    for memory in found["memories"]:
        score = memory.get("relevance_score")
        print(f"{score:.3f}  {memory['id']}  {memory['content']}" if score is not None else memory["content"])
    if not found["memories"]:
        print("nothing found", file=sys.stderr)
    return 0


def cmd_usage(args: argparse.Namespace) -> int:
    """The admin's usage report: CSV (the hourly rows) or JSON (the whole report) on stdout."""
    import httpx

    fmt = "json" if args.json else args.format
    params = {"tenant_id": args.tenant, "since": args.since, "until": args.until, "format": fmt}
    with _api(args) as client:
        try:
            response = client.get("/v1/admin/usage", params={k: v for k, v in params.items() if v})
        except httpx.TransportError as exc:
            raise CliError(
                f"cannot reach the API at {client.base_url} ({type(exc).__name__}): is it running?", 1
            ) from None
    if not response.is_success:
        _answer(response)  # the server's refusal as one line, exit 1
    if fmt == "csv":
        sys.stdout.write(response.text)
    else:
        print(json.dumps(response.json(), indent=2))
    return 0
