"""Which API function serves which routes: one table, read by the handlers (which routers each Lambda builds)
and by ``infra/api.py`` (which API Gateway routes go to which Lambda), so the two cannot drift apart.

    >>> [part.module for part in FUNCTIONS["sessions"].parts]
    ['shared.api.routes.sessions']
    >>> gateway_routes()[0]
    ('/v1/memories', 'ANY', 'memory')
    >>> [function for path, _, function in gateway_routes() if path.startswith("/v1/context/")]
    ['environment']

A function builds the routers of its parts and nothing else: a router no API Gateway route reaches would only
cost its cold start. Parts are listed hottest first, since a request is matched against them in order.
"""

from __future__ import annotations

from dataclasses import dataclass

# The memory console: installed by shared.api.routes.console.install (its open page and its API behind auth).
CONSOLE = "shared.api.routes.console"


@dataclass(frozen=True)
class Part:
    """A module whose ``router`` the function includes, and the API Gateway routes (method, path) that reach it."""

    module: str
    routes: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class ApiFunction:
    """The parts of one API Lambda; ``documents``: it serves /openapi.json, describing the whole API."""

    parts: tuple[Part, ...]
    documents: bool = False

    @property
    def routers(self) -> tuple[str, ...]:
        """The router modules it includes (the console is installed, not included)."""
        return tuple(part.module for part in self.parts if part.module != CONSOLE)

    @property
    def console(self) -> bool:
        return any(part.module == CONSOLE for part in self.parts)


def _any(*paths: str) -> tuple[tuple[str, str], ...]:
    return tuple(("ANY", path) for path in paths)


FUNCTIONS: dict[str, ApiFunction] = {
    "memory": ApiFunction(
        parts=(
            Part("shared.api.routes.memories", _any("/v1/memories", "/v1/memories/{proxy+}")),
            Part(
                "shared.api.routes.threads", _any("/v1/threads", "/v1/threads/{proxy+}", "/v1/jobs/{proxy+}")
            ),
            Part("shared.api.routes.workspaces", _any("/v1/workspaces", "/v1/workspaces/{proxy+}")),
            # More specific than /v1/workspaces/{proxy+}: observers publish often, so not under its throttle
            # share (which is sized for imports and exports).
            Part(
                "shared.api.routes.views",
                _any("/v1/workspaces/{workspace_id}/views", "/v1/workspaces/{workspace_id}/views/{proxy+}"),
            ),
            Part("shared.api.routes.entities", _any("/v1/entities", "/v1/entities/{proxy+}")),
            # Reads of the association graph, like traverse; the workspace-scoped contradiction routes come in
            # through /v1/workspaces/{proxy+}.
            Part("shared.api.routes.graph", _any("/v1/graph/{proxy+}")),
            Part("shared.api.routes.contradictions", _any("/v1/contradictions/{proxy+}")),
            Part("shared.api.routes.users", _any("/v1/users", "/v1/users/{proxy+}")),
            Part("shared.api.routes.ingest", _any("/v1/ingest/{proxy+}")),
            Part(
                "shared.api.routes.resources",
                _any(
                    "/v1/prompt-notes",
                    "/v1/prompt-notes/{proxy+}",
                    "/v1/agent-specifications",
                    "/v1/agent-specifications/{proxy+}",
                    "/v1/refinement-records",
                    "/v1/refinement-records/{proxy+}",
                ),
            ),
            Part("shared.api.routes.skills", _any("/v1/skills", "/v1/skills/{proxy+}")),
            Part("shared.api.routes.mcp_servers", _any("/v1/mcp-servers", "/v1/mcp-servers/{proxy+}")),
            Part(
                "shared.api.routes.data_providers", _any("/v1/data-providers", "/v1/data-providers/{proxy+}")
            ),
            Part(
                "shared.api.routes.representation",
                (("POST", "/v1/representation"), ("POST", "/v1/representation/user")),
            ),
            Part("shared.api.routes.documents", _any("/v1/documents", "/v1/documents/{proxy+}")),
            Part("shared.api.routes.knowledgebase", _any("/v1/knowledgebase", "/v1/knowledgebase/{proxy+}")),
            # The knowledgebase viewer's pages, behind the same key check as /v1.
            Part("shared.api.routes.kb_viewer", (("GET", "/kb"), ("GET", "/kb/{proxy+}"))),
            Part("shared.api.routes.admin", _any("/v1/admin/{proxy+}")),
            Part("shared.api.routes.audit", _any("/v1/audit/{proxy+}")),
            Part("shared.api.routes.tokens", _any("/v1/tokens", "/v1/tokens/{proxy+}")),
            Part("shared.api.routes.health", _any("/health", "/health/ready")),
            # Its page and its read-only API, behind the same key check as /v1 (in the app).
            Part(CONSOLE, (("GET", "/console"), ("GET", "/console/{proxy+}"))),
        ),
        documents=True,
    ),
    "sessions": ApiFunction(
        parts=(Part("shared.api.routes.sessions", _any("/v1/sessions", "/v1/sessions/{proxy+}")),),
    ),
    # API Gateway picks the most specific route, so the two context routes win over /v1/sessions/{proxy+}.
    "context": ApiFunction(
        parts=(
            Part(
                "shared.api.routes.packs",
                (
                    ("POST", "/v1/sessions/{session_id}/context-pack"),
                    ("POST", "/v1/sessions/{session_id}/context-delta"),
                ),
            ),
        ),
    ),
    # The context environment: each call waits on the sandbox function (up to 20 s), so it has a function (and
    # concurrency) of its own, and a burst of executions cannot take what context packs are served with.
    "environment": ApiFunction(parts=(Part("shared.api.routes.context_env", _any("/v1/context/{proxy+}")),)),
}

# Served by the function that documents the API, outside any router.
DOCUMENT_ROUTES: tuple[tuple[str, str], ...] = (("ANY", "/openapi.json"),)


def gateway_routes() -> tuple[tuple[str, str, str], ...]:
    """Every API Gateway route as (path, method, function), in table order."""
    out: list[tuple[str, str, str]] = []
    for name, function in FUNCTIONS.items():
        for part in function.parts:
            out += [(path, method, name) for method, path in part.routes]
        if function.documents:
            out += [(path, method, name) for method, path in DOCUMENT_ROUTES]
    return tuple(out)
