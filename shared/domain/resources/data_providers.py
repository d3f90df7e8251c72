"""Data providers: a registry of the sources documents are ingested from, on the resource mechanism
(/v1/data-providers). As in the reference's open-source server the one working type is ``local`` (documents are
uploaded directly), whose sync has nothing to fetch; any other type is registered, and its sync refused with
``provider_sync_not_supported`` (there is no connector here to reach it), never a pretended success.

    >>> svc = DataProviderService(resources)                                               # doctest: +SKIP
    >>> svc.sync("ws_a", provider_id)                                                      # doctest: +SKIP
    []

Secrets in ``connection_args`` (a value under a name like ``password``, ``secret``, ``token``, ``api_key``) are
answered masked, as MCP servers' are, unless asked for:

    >>> mask_secrets({"host": "db", "password": "s3cret", "options": {"token": "t"}, "api_key": "${KEY}"})
    {'host': 'db', 'password': '***', 'options': {'token': '***'}, 'api_key': '${KEY}'}
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from pydantic import Field

from shared.core.errors import Unprocessable
from shared.core.fields import WorkspaceId
from shared.domain.resources.fields import NonBlank, ResourceBody, ResourceMetadata
from shared.domain.resources.service import Document, Kind, Precondition, ResourceService, Written

DATA_PROVIDERS = Kind("data_provider", "data provider", "dp")
LOCAL = "local"
LIST_CAP = 1000
MASK = "***"
# Names of connection settings that hold a secret (matched anywhere in the name, any case: db_password, apiKey).
SECRET_NAME = re.compile(
    r"pass(word|wd|phrase)?|secret|token|api_?key|access_?key|private_?key|credential|auth|dsn|connection_?string",
    re.I,
)


def mask_secrets(args: Any) -> Any:
    """``connection_args`` as answered: values under a secret's name masked (a whole object under one too; other
    objects are looked into), ``${VAR}`` placeholders shown as they are."""
    if isinstance(args, dict):
        return {k: _masked(v) if SECRET_NAME.search(str(k)) else mask_secrets(v) for k, v in args.items()}
    if isinstance(args, list):
        return [mask_secrets(v) for v in args]
    return args


def _masked(value: Any) -> Any:
    if isinstance(value, str) and value.startswith("${") and value.endswith("}"):
        return value
    if value is None or value == "":
        return value  # nothing there to hide; saying so helps
    return MASK


def shown(content: dict[str, Any], *, reveal: bool) -> dict[str, Any]:
    """A provider's content as answered (or exported): secrets masked unless ``reveal``."""
    if reveal:
        return content
    return {**content, "connection_args": mask_secrets(content.get("connection_args") or {})}


class DataProviderCreate(ResourceBody):
    name: NonBlank = Field(
        min_length=1, max_length=200, description="Its name (1-200 characters, not blank)."
    )
    provider_type: str = Field(
        default=LOCAL,
        min_length=1,
        max_length=64,
        pattern=r"^[a-z0-9_-]+$",
        description="Its type: `local` (direct upload; the one that syncs here) or another source's name.",
    )
    description: str | None = Field(default=None, max_length=4096, description="What it is.")
    enabled: bool = Field(default=True, description="Whether it is active (default true).")
    connection_args: dict[str, Any] = Field(
        default_factory=dict, description="Non-secret connection settings, stored as given."
    )
    schedule: str | None = Field(default=None, max_length=200, description="A cron schedule (stored only).")
    metadata: ResourceMetadata = Field(default_factory=dict)
    workspace_id: WorkspaceId = None

    def document(self) -> Document:
        content = self.model_dump(exclude={"metadata", "workspace_id"})
        content["name"] = content["name"].strip()
        return Document(1, {**content, "last_sync_at": None}, self.metadata)


class DataProviderUpdate(ResourceBody):
    name: NonBlank | None = Field(default=None, min_length=1, max_length=200, description="A new name.")
    description: str | None = Field(default=None, max_length=4096, description="A new description.")
    enabled: bool | None = Field(default=None, description="Enable or disable it.")
    connection_args: dict[str, Any] | None = Field(default=None, description="New connection settings.")
    schedule: str | None = Field(default=None, max_length=200, description="A new cron schedule.")
    metadata: dict[str, Any] | None = Field(default=None, description="A new metadata object (replaces it).")
    workspace_id: WorkspaceId = None


def _auto(actor: str | None, etag: str) -> Precondition:
    return Precondition(f"auto:{uuid.uuid4().hex}", etag, actor)


class DataProviderService:
    def __init__(self, resources: ResourceService) -> None:
        self.resources = resources

    def create(
        self, workspace_id: str, body: DataProviderCreate, *, actor: str | None, tenant_id: str
    ) -> Written:
        # Names need not be unique (as the reference): the stable key is a fresh one.
        key = f"provider-{uuid.uuid4().hex}"
        return self.resources.create(
            DATA_PROVIDERS, workspace_id, key, body.document(), _auto(actor, "*"), tenant_id=tenant_id
        )

    def get(self, workspace_id: str, provider_id: str) -> dict[str, Any]:
        return self.resources.get(DATA_PROVIDERS, workspace_id, provider_id)

    def listing(self, workspace_id: str, *, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
        """A page (most recently changed first) and how many there are (counted up to 1000)."""
        rows = self.resources.page(DATA_PROVIDERS, workspace_id, limit=LIST_CAP).rows
        return rows[offset : offset + limit], len(rows)

    def update(
        self, workspace_id: str, provider_id: str, body: DataProviderUpdate, *, actor: str | None
    ) -> Written:
        head = self.get(workspace_id, provider_id)
        changes = body.model_dump(exclude_none=True, exclude={"metadata", "workspace_id"})
        if "name" in changes:
            changes["name"] = changes["name"].strip()
        metadata = body.metadata if body.metadata is not None else head["metadata"]
        doc = Document(head["schema_version"], {**head["content"], **changes}, metadata)
        return self.resources.replace(
            DATA_PROVIDERS, workspace_id, provider_id, doc, _auto(actor, head["etag"])
        )

    def delete(self, workspace_id: str, provider_id: str) -> None:
        self.resources.purge(DATA_PROVIDERS, workspace_id, provider_id)

    def sync(self, workspace_id: str, provider_id: str) -> list[Any]:
        """A local provider's documents arrive by upload: nothing to fetch. Another type cannot be reached."""
        head = self.get(workspace_id, provider_id)
        provider_type = head["content"]["provider_type"]
        if provider_type != LOCAL:
            raise Unprocessable(
                f"a {provider_type!r} provider cannot be synced here: no connector for it (only local)",
                code="provider_sync_not_supported",
                provider_type=provider_type,
            )
        return []
