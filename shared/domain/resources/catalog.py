"""Every resource family served, by stored kind, with the request model a stored document must satisfy (an
import re-validates against it)."""

from __future__ import annotations

from shared.domain.requests import RequestModel
from shared.domain.resources.agent_specifications import AGENT_SPECIFICATIONS, AgentSpecificationCreate
from shared.domain.resources.data_providers import DATA_PROVIDERS, DataProviderCreate
from shared.domain.resources.mcp_servers import MCP_SERVERS, McpServerCreate
from shared.domain.resources.prompt_notes import PROMPT_NOTES, PromptNoteCreate
from shared.domain.resources.refinement_records import REFINEMENT_RECORDS, RefinementRecordCreate
from shared.domain.resources.service import Kind
from shared.domain.resources.skills import SKILLS, SkillCreate

FAMILIES: dict[str, tuple[Kind, type[RequestModel]]] = {
    kind.name: (kind, model)
    for kind, model in (
        (PROMPT_NOTES, PromptNoteCreate),
        (AGENT_SPECIFICATIONS, AgentSpecificationCreate),
        (REFINEMENT_RECORDS, RefinementRecordCreate),
        (SKILLS, SkillCreate),
        (MCP_SERVERS, McpServerCreate),
        (DATA_PROVIDERS, DataProviderCreate),
    )
}
