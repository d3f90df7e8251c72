"""The reference server's own ``/openapi.json``, generated at test time from PyPI ``memorylayer-server`` 0.2.0
(never copied into the repository), and the comparison of its operations with ours.

The reference runs in its own Python 3.12 virtualenv (``bench/compare/servers.py`` makes it once and reuses
it). A missing Python 3.12 or a failed install fails the tests that need it; it never skips them.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from shared.api.app import create_app
from shared.core.settings import Settings

METHODS = ("get", "post", "put", "patch", "delete")


def reference_openapi(base_url: str | None = None) -> dict[str, Any]:
    """The reference's ``/openapi.json``: from the running one at ``base_url``, else one started on a scratch
    data directory for this."""
    if base_url is not None:
        response = httpx.get(f"{base_url}/openapi.json", timeout=60)
        response.raise_for_status()
        return response.json()
    from bench.compare.servers import reference_server

    with (
        tempfile.TemporaryDirectory(prefix="ref-openapi-") as workdir,
        reference_server(Path(workdir)) as server,
    ):
        return reference_openapi(server.base_url)


def our_openapi() -> dict[str, Any]:
    """Ours, from the app itself (no database is touched to build the schema)."""
    settings = Settings(
        database_url="postgresql://unused@127.0.0.1:1/unused", auth_mode="none", embedding_provider="hash"
    )
    return create_app(settings).openapi()


_PATH_PARAMETER = re.compile(r"\{[^}]+\}")


def operation_key(method: str, path: str) -> str:
    """``"GET /v1/memories/{}"``: path parameters are positional, their names may differ."""
    return f"{method.upper()} {_PATH_PARAMETER.sub('{}', path)}"


@dataclass(frozen=True)
class Operation:
    path: str
    spec: dict[str, Any]


def operations(spec: dict[str, Any]) -> dict[str, Operation]:
    return {
        operation_key(method, path): Operation(path, op)
        for path, item in spec["paths"].items()
        for method, op in item.items()
        if method in METHODS
    }


def resolve(spec: dict[str, Any], schema: Any) -> dict[str, Any]:
    """A schema with its ``$ref`` followed and ``Optional[X]`` (``anyOf`` with null) reduced to ``X``."""
    if not isinstance(schema, dict):
        return {}
    if "$ref" in schema:
        return resolve(spec, spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [resolve(spec, s) for s in schema[key] if s.get("type") != "null"]
            return options[0] if len(options) == 1 else schema
    return schema


def _json_schema(spec: dict[str, Any], content: dict[str, Any] | None) -> dict[str, Any] | None:
    media = (content or {}).get("application/json")
    return resolve(spec, media.get("schema")) if media and "schema" in media else None


def _success(op: dict[str, Any]) -> tuple[str | None, dict[str, Any] | None]:
    for code, response in op.get("responses", {}).items():
        if code.startswith("2"):
            return code, response.get("content")
    return None, None


def incompatibilities(ref: dict[str, Any], ours: dict[str, Any]) -> dict[str, list[str]]:
    """For each operation both serve, what a client written against the reference would trip over here: a body
    or query field it sends that we do not declare, a field or parameter we require and it does not, another
    success status, or a response field it promises that ours does not declare."""
    found: dict[str, list[str]] = {}
    ref_ops, our_ops = operations(ref), operations(ours)
    for key in sorted(ref_ops.keys() & our_ops.keys()):
        r, o = ref_ops[key].spec, our_ops[key].spec
        problems: list[str] = []
        r_body = _json_schema(ref, r.get("requestBody", {}).get("content"))
        o_body = _json_schema(ours, o.get("requestBody", {}).get("content"))
        if r_body and r_body.get("properties"):
            if o_body is None:
                problems.append("no JSON request body")
            else:
                open_body = o_body.get("additionalProperties") not in (None, False)
                unknown = sorted(set(r_body["properties"]) - set(o_body.get("properties", {})))
                if unknown and not open_body:
                    problems.append(f"body fields not declared: {unknown}")
                stricter = sorted(set(o_body.get("required", [])) - set(r_body.get("required", [])))
                if stricter:
                    problems.append(f"body fields required only here: {stricter}")
        r_query = {p["name"]: p for p in r.get("parameters", []) if p["in"] == "query"}
        o_query = {p["name"]: p for p in o.get("parameters", []) if p["in"] == "query"}
        if unknown_q := sorted(set(r_query) - set(o_query)):
            problems.append(f"query parameters not declared: {unknown_q}")
        stricter_q = sorted(
            n for n, p in o_query.items() if p.get("required") and not r_query.get(n, {}).get("required")
        )
        if stricter_q:
            problems.append(f"query parameters required only here: {stricter_q}")
        r_code, r_content = _success(r)
        o_code, o_content = _success(o)
        if r_code != o_code:
            problems.append(f"success status {o_code}, the reference's is {r_code}")
        r_resp, o_resp = _json_schema(ref, r_content), _json_schema(ours, o_content)
        if r_resp and r_resp.get("required"):
            declared = set((o_resp or {}).get("properties", {}))
            if missing := sorted(set(r_resp["required"]) - declared):
                problems.append(f"response fields not declared: {missing}")
        if problems:
            found[key] = problems
    return found
