"""Workspace views and their observations, versioned on the resource mechanism
(/v1/workspaces/{workspace_id}/views): a view is one durable checkout, worktree or snapshot of the workspace
(key = its ``view_id``); an observation is the latest state one observer published about one view (key = its
``observer_id``, kind = the view's own observation kind, so each view's observations are a family of their own).

    >>> observations_of("wv_1").name
    'workspace_view_observation:wv_1'
    >>> ViewCreate(view_id="main", kind="directory", capabilities=[" write", "read", "write"]).capabilities
    ['read', 'write']
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, AwareDatetime, Field, model_validator

from shared.core.errors import InvalidInput
from shared.core.wire import iso
from shared.domain.requests import RequestModel
from shared.domain.resources.fields import ResourceMetadata
from shared.domain.resources.service import Document, Kind

VIEWS = Kind("workspace_view", "workspace view", "wv")
OBSERVATION_KIND = "workspace_view_observation"
SCHEMA_VERSION = 1


def observations_of(view_resource_id: str) -> Kind:
    """The kind of one view's observations: keyed by the view's resource id, which (unlike a row's place in
    the table) an export and import keep."""
    return Kind(f"{OBSERVATION_KIND}:{view_resource_id}", "workspace view observation", "wvo")


ViewKind = Literal["directory", "git_worktree", "checkout", "snapshot", "overlay"]
ExecutionSite = Literal["client", "worker", "remote"]
# Ids travel as one URL path segment: no `/`, no spaces or controls.
PATH_ID = r"^[A-Za-z0-9][A-Za-z0-9._:@+=~-]{0,199}$"
ViewId = Annotated[
    str,
    Field(
        pattern=PATH_ID,
        description="The view's stable id in the workspace (its key, fixed once created; a tombstone keeps "
        "it): starts with a letter or digit, then letters, digits and `. _ : @ + = ~ -`; at most 200.",
    ),
]
ObserverIdField = Annotated[
    str,
    Field(
        pattern=PATH_ID,
        description="Who publishes the observation (its key under the view): the same characters as a view id.",
    ),
]


def _capabilities(values: list[str]) -> list[str]:
    """A set, in a fixed order (hashing and comparison see equal sets as equal)."""
    return sorted({value.strip() for value in values if value.strip()})


def _plain(value: str) -> str:
    value = value.strip()
    if not value:
        raise ValueError("value cannot be blank")
    if "\x00" in value:
        raise ValueError("value cannot contain NUL")
    return value


def _schema(value: int) -> int:
    if value != SCHEMA_VERSION:
        raise ValueError(f"unsupported schema version {value} (this server speaks {SCHEMA_VERSION})")
    return value


Capabilities = Annotated[
    list[Annotated[str, Field(max_length=200)]],
    AfterValidator(_capabilities),
    Field(max_length=256, description="What it can do (a set: blanks dropped, sorted, up to 256)."),
]
Plain = Annotated[str, AfterValidator(_plain)]
SchemaVersion = Annotated[
    int, AfterValidator(_schema), Field(ge=1, description="The document's schema version (1, the only one).")
]


# -------------------------------------------------------------------------------------------------------- views
class ViewReplace(RequestModel):
    """A view's whole description (PUT): what a conditional replace writes."""

    kind: ViewKind = Field(description="directory, git_worktree, checkout, snapshot or overlay.")
    display_name: str | None = Field(default=None, max_length=200, description="A name to show.")
    memory_context_id: str | None = Field(
        default=None, max_length=200, description="The memory context it works in."
    )
    capabilities: Capabilities = Field(default_factory=list)
    metadata: ResourceMetadata = Field(default_factory=dict)
    schema_version: SchemaVersion = SCHEMA_VERSION

    def document(self, view_id: str) -> Document:
        content = self.model_dump(exclude={"metadata", "schema_version", "view_id"}, mode="json")
        return Document(self.schema_version, {"view_id": view_id, **content}, self.metadata)


class ViewCreate(ViewReplace):
    view_id: ViewId


# ------------------------------------------------------------------------------------------------- observations
class VcsObservation(RequestModel):
    """Portable version-control facts about a view (never a host-local path)."""

    kind: Literal["git"] = Field(default="git", description="The VCS: git.")
    repository_id: str | None = Field(default=None, max_length=500, description="An opaque repository id.")
    worktree_id: str | None = Field(default=None, max_length=500, description="An opaque worktree id.")
    head_revision: str | None = Field(default=None, max_length=500, description="The checked-out revision.")
    branch: str | None = Field(default=None, max_length=500, description="The branch.")
    dirty: bool | None = Field(default=None, description="Whether there are uncommitted changes.")
    detached: bool | None = Field(default=None, description="Whether HEAD is detached.")


class ObservationReplace(RequestModel):
    """What one observer publishes about one view (PUT); the observer is named by the path."""

    generation: Plain = Field(
        min_length=1, max_length=200, description="The observer process's generation (opaque, not blank)."
    )
    sequence: int = Field(
        ge=0,
        le=2**63 - 1,
        description="Its cursor within the generation: a replace in the same generation must raise it.",
    )
    tool_host_id: Plain | None = Field(
        default=None, max_length=200, description="The tool host last bound to it (with `execution_site`)."
    )
    execution_site: ExecutionSite | None = Field(
        default=None, description="client, worker or remote (with `tool_host_id`)."
    )
    root_ref: str | None = Field(
        default=None, max_length=4096, description="An opaque root binding only its tool host interprets."
    )
    capabilities: Capabilities = Field(default_factory=list)
    vcs: VcsObservation | None = Field(default=None, description="Version-control facts.")
    observed_at: AwareDatetime | None = Field(
        default=None, description="When it was observed, with a timezone (default: when the server got it)."
    )
    expires_at: AwareDatetime | None = Field(
        default=None, description="When it stops being current (after `observed_at`)."
    )
    metadata: ResourceMetadata = Field(default_factory=dict)
    schema_version: SchemaVersion = SCHEMA_VERSION

    @model_validator(mode="after")
    def _consistent(self) -> ObservationReplace:
        observed = self.observed_at or datetime.now(UTC)
        if self.expires_at is not None and self.expires_at <= observed:
            raise ValueError("expires_at must be later than observed_at")
        if (self.tool_host_id is None) != (self.execution_site is None):
            raise ValueError("tool_host_id and execution_site must be given together")
        return self

    def document(self, view_id: str, observer_id: str) -> Document:
        """Its document (timestamps in UTC; ``observed_at`` left out is now); the request hash is over what was
        sent, so a retry without ``observed_at`` still matches its first attempt."""
        sent = self.model_dump(exclude={"metadata", "schema_version"}, mode="json")
        sent = {"view_id": view_id, "observer_id": observer_id, **sent}
        observed = iso(self.observed_at or datetime.now(UTC))
        content = {**sent, "observed_at": observed, "expires_at": iso(self.expires_at)}
        return Document(self.schema_version, content, self.metadata, sent=sent)


class ObservationRecord(ObservationReplace):
    """A stored observation as an import checks it: its view's and observer's ids are in it."""

    view_id: ViewId
    observer_id: ObserverIdField


def check_cursor(head: dict[str, Any], body: ObservationReplace) -> None:
    """Within one generation an observer's sequence only moves forward: a replace that does not raise it is a
    stale or reordered publish, refused (a new generation starts its own sequence)."""
    current = head["content"]
    if body.generation == current.get("generation") and body.sequence <= int(current.get("sequence", -1)):
        raise InvalidInput(
            f"observation sequence must advance within generation {body.generation!r}: "
            f"current {current.get('sequence')}, sent {body.sequence}",
            code="observation_sequence_not_advanced",
            current_sequence=current.get("sequence"),
        )
