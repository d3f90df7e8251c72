"""Every resource family served, by stored kind, with the request model a stored document must satisfy (an
import re-validates against it). A kind may carry a parent (``workspace_view_observation:<view id>``): its
family is the part before the colon, and the parent resource must be in the workspace."""

from __future__ import annotations

from shared.domain.requests import RequestModel
from shared.domain.resources import workspace_views as views
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
        (views.VIEWS, views.ViewCreate),
    )
}
# Families whose kind names a parent resource: the parent's kind, and the model of a stored document.
CHILD_FAMILIES: dict[str, tuple[Kind, type[RequestModel]]] = {
    views.OBSERVATION_KIND: (views.VIEWS, views.ObservationRecord),
}


def family(kind_name: str) -> tuple[type[RequestModel], Kind | None, str | None] | None:
    """The model a stored document of ``kind_name`` must satisfy, and its parent's kind and id (None, None
    for a family without a parent); None for no family served.

    >>> family("prompt_note")[1:], family("workspace_view_observation:wv_1")[1:]
    ((None, None), (Kind(name='workspace_view', label='workspace view', id_prefix='wv'), 'wv_1'))
    >>> family("workspace_view_observation"), family("nothing")
    (None, None)
    """
    if kind_name in FAMILIES:
        return FAMILIES[kind_name][1], None, None
    prefix, _, parent_id = kind_name.partition(":")
    if prefix in CHILD_FAMILIES and parent_id:
        parent, model = CHILD_FAMILIES[prefix]
        return model, parent, parent_id
    return None
