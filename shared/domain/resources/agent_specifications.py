"""Agent specifications: reusable sub-agent definitions (instructions, tools, skills), versioned
(/v1/agent-specifications)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from shared.core.fields import WorkspaceId
from shared.domain.resources.fields import Key, NonBlank, ResourceBody, ResourceMetadata, SchemaVersion
from shared.domain.resources.service import Document, Kind

AGENT_SPECIFICATIONS = Kind("agent_specification", "agent specification", "spec")

PermissionMode = Literal["inherit", "ask", "allow", "read_only"]


def _unique_names(values: list[str]) -> list[str]:
    names = [value.strip() for value in values]
    if any(not name for name in names):
        raise ValueError("list values cannot be blank")
    if len(set(names)) != len(names):
        raise ValueError("list values must be unique")
    return names


Names = Annotated[list[str], AfterValidator(_unique_names)]


class AgentSpecificationReplace(ResourceBody):
    name: NonBlank = Field(min_length=1, max_length=200, description="The agent's name (not blank).")
    description: NonBlank = Field(
        min_length=1, max_length=4096, description="What the agent is for (not blank; up to 4096 characters)."
    )
    instructions: NonBlank = Field(
        min_length=1,
        max_length=65536,
        description="The agent's system instructions (not blank; up to 64 KiB).",
    )
    invocation_guidance: str = Field(default="", max_length=4096, description="When to call this agent.")
    model: str = Field(
        default="", max_length=200, description="The model it should run on (empty: the default)."
    )
    max_turns: int = Field(default=0, ge=0, le=1000, description="Turns at most (0: no limit of its own).")
    allowed_tools: Names = Field(
        default_factory=list, max_length=512, description="Tools it may use (unique, not blank; up to 512)."
    )
    denied_tools: Names = Field(
        default_factory=list,
        max_length=512,
        description="Tools it may not use (unique, not blank; up to 512).",
    )
    skills: Names = Field(
        default_factory=list, max_length=512, description="Skills it loads (unique, not blank; up to 512)."
    )
    mcp_servers: Names = Field(
        default_factory=list,
        max_length=512,
        description="MCP servers it connects to (unique, not blank; up to 512).",
    )
    permission_mode: PermissionMode = Field(
        default="inherit", description="How it asks for permission: inherit, ask, allow or read_only."
    )
    exec_policy_hint: str = Field(default="", max_length=4096, description="A hint for its execution policy.")
    background: bool = Field(default=False, description="Whether it runs in the background.")
    enabled: bool = Field(default=True, description="Whether it may be used (default true).")
    schema_version: SchemaVersion = 1
    metadata: ResourceMetadata = Field(default_factory=dict)
    workspace_id: WorkspaceId = None

    def document(self) -> Document:
        content = self.model_dump(exclude={"key", "schema_version", "metadata", "workspace_id"})
        return Document(self.schema_version, content, self.metadata)


class AgentSpecificationCreate(AgentSpecificationReplace):
    key: Key
