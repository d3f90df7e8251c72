"""Response models of the /v1 API: what every route answers, declared once for the wire and for /openapi.json.

    >>> from datetime import UTC, datetime
    >>> Association.from_row({"id": "assoc_1", "workspace_id": "w", "source_id": "mem_a", "target_id": "mem_b",
    ...     "relationship": "related_to", "strength": 0.5, "metadata": {},
    ...     "created_at": datetime(2026, 11, 29, 14, 40, tzinfo=UTC)}).model_dump(mode="json")["created_at"]
    '2026-11-29T14:40:00Z'

Rows from the database are already typed, so ``from_row`` builds each model with ``model_construct`` (no second
validation); FastAPI then serialises it straight to JSON bytes. Extra keys that old SDKs read at the top level
(``{"session": …, **session}``) are declared as such, so the schema says what is really sent. Timestamps are ISO-8601
UTC with ``Z``, as the reference server sends them.

One module per route family: ``base`` (``Wire``, ``Timestamp``), ``fields`` (described field types only responses
use), ``memories`` (and batch), ``associations`` (and traverse), ``workspaces`` (contexts, import), ``sessions``
(working memory, checkpoints, commit), ``threads`` (messages, jobs), ``admin`` (API keys), ``tokens``, ``entities``
(relations), ``recall`` (answer, reflect), ``context`` (packs and deltas), ``sandbox`` (the context environment),
``console``. Every public name is re-exported here:
``from shared.api import schemas; schemas.Memory`` and ``from shared.api.schemas import Memory`` both work.
"""

from shared.api.schemas.admin import (
    ApiKey,
    ApiKeyCreated,
    ApiKeyList,
    StoredUsage,
    UsageHour,
    UsageReport,
)
from shared.api.schemas.associations import (
    Association,
    AssociationCreated,
    AssociationList,
    TraversePath,
    TraverseResponse,
)
from shared.api.schemas.base import Timestamp, Wire
from shared.api.schemas.console import (
    ConsoleJobs,
    ConsoleMemoryRelations,
    ConsoleRelation,
    ConsoleRelationEnd,
    ConsoleWhoami,
)
from shared.api.schemas.context import ContextDelta, ContextGeneration, ContextItem, ContextPack
from shared.api.schemas.contradictions import Contradiction, ContradictionList, ContradictionScan
from shared.api.schemas.entities import (
    Entity,
    EntityAliases,
    EntityDetail,
    EntityEnvelope,
    EntityList,
    EntityMatch,
    EntityRelation,
    EntityRelationPath,
    EntityResolution,
)
from shared.api.schemas.entity_ops import (
    CardRelation,
    EntityBackfillResponse,
    EntityCardResponse,
    EntityCounts,
    EntityDedupeResponse,
    EntityDeriveResponse,
    EntityEnrichResponse,
    EntityInsightsResponse,
    EntityMergeGroup,
    EntityProvenance,
    EvidenceRow,
    GenerationSummary,
    RelatedEntitiesResponse,
    RelatedEntity,
    SeedEntitiesResponse,
)
from shared.api.schemas.graph import (
    Bridge,
    BridgesResponse,
    CentralityResponse,
    CentralNode,
    CommunitiesResponse,
    Community,
    DensifyPreview,
    GraphAnalysis,
    GraphSnapshot,
    GraphSnapshotResponse,
    GraphStats,
    GraphStatsResponse,
)
from shared.api.schemas.memories import (
    BatchErrorGroup,
    BatchItemResult,
    BatchResponse,
    IngestedMemory,
    Memory,
    MemoryEnvelope,
    MemoryList,
    MemoryTypeOut,
    RelationWriteResult,
    RememberedMemory,
    RememberResponse,
    Revision,
    RevisionPage,
    SequenceKeys,
    floats,
)
from shared.api.schemas.recall import (
    AnswerResponse,
    BudgetSummary,
    Evidence,
    FreshnessMetadata,
    RecalledMemory,
    RecallResponse,
    ReflectResponse,
)
from shared.api.schemas.resources import (
    AgentSpecification,
    PromptNote,
    RefinementRecord,
    ResourceHead,
)
from shared.api.schemas.sandbox import (
    ExecuteResult,
    InjectResult,
    LoadResult,
    QueryResult,
    RlmResult,
    SandboxState,
    SandboxStatus,
    SandboxVariable,
    SandboxVariableDetail,
)
from shared.api.schemas.sessions import (
    Briefing,
    BriefingEnvelope,
    Checkpoint,
    CommitResult,
    Expiry,
    Session,
    SessionCreated,
    SessionEnvelope,
    SessionList,
    WorkingMemoryEntries,
    WorkingMemoryEntry,
    WorkingMemorySetResult,
)
from shared.api.schemas.threads import (
    Decomposed,
    Job,
    JobEnvelope,
    Message,
    MessagePage,
    MessagesAppended,
    Thread,
    ThreadEnvelope,
    ThreadFull,
    ThreadList,
)
from shared.api.schemas.tokens import Token, TokenCreated, TokenList
from shared.api.schemas.users import EraseResult, UserCounts, UserList
from shared.api.schemas.workspaces import (
    Context,
    ContextEnvelope,
    ContextList,
    ImportResult,
    Workspace,
    WorkspaceEnvelope,
    WorkspaceList,
)

__all__ = [
    "EraseResult",
    "UserCounts",
    "UserList",
    "AnswerResponse",
    "ApiKey",
    "ApiKeyCreated",
    "ApiKeyList",
    "StoredUsage",
    "UsageHour",
    "UsageReport",
    "Association",
    "AssociationCreated",
    "AssociationList",
    "BatchErrorGroup",
    "BatchItemResult",
    "BatchResponse",
    "Briefing",
    "BriefingEnvelope",
    "BudgetSummary",
    "Checkpoint",
    "CommitResult",
    "ConsoleJobs",
    "ConsoleMemoryRelations",
    "ConsoleRelation",
    "ConsoleRelationEnd",
    "ConsoleWhoami",
    "Context",
    "ContextDelta",
    "ContextEnvelope",
    "ContextGeneration",
    "ContextItem",
    "ContextList",
    "ContextPack",
    "Decomposed",
    "Entity",
    "EntityAliases",
    "EntityDetail",
    "EntityEnvelope",
    "EntityList",
    "EntityMatch",
    "EntityRelation",
    "EntityRelationPath",
    "EntityResolution",
    "Evidence",
    "ExecuteResult",
    "Expiry",
    "FreshnessMetadata",
    "ImportResult",
    "IngestedMemory",
    "InjectResult",
    "Job",
    "JobEnvelope",
    "LoadResult",
    "Memory",
    "MemoryEnvelope",
    "MemoryList",
    "MemoryTypeOut",
    "Message",
    "MessagePage",
    "MessagesAppended",
    "QueryResult",
    "RecallResponse",
    "RecalledMemory",
    "ReflectResponse",
    "RelationWriteResult",
    "RememberResponse",
    "RememberedMemory",
    "Revision",
    "RevisionPage",
    "RlmResult",
    "SandboxState",
    "SandboxStatus",
    "SandboxVariable",
    "SandboxVariableDetail",
    "SequenceKeys",
    "Session",
    "SessionCreated",
    "SessionEnvelope",
    "SessionList",
    "Thread",
    "ThreadEnvelope",
    "ThreadFull",
    "ThreadList",
    "Timestamp",
    "Token",
    "TokenCreated",
    "TokenList",
    "TraversePath",
    "TraverseResponse",
    "Wire",
    "WorkingMemoryEntries",
    "WorkingMemoryEntry",
    "WorkingMemorySetResult",
    "Workspace",
    "WorkspaceEnvelope",
    "WorkspaceList",
    "floats",
]
# Versioned resources (prompt notes, agent specifications, refinement records).
__all__ += [
    "AgentSpecification",
    "PromptNote",
    "RefinementRecord",
    "ResourceHead",
]
# Entity operations beyond the registry (card, provenance, related, insights, derive, backfill, seed, …).
__all__ += [
    "CardRelation",
    "EntityBackfillResponse",
    "EntityCardResponse",
    "EntityCounts",
    "EntityDedupeResponse",
    "EntityDeriveResponse",
    "EntityEnrichResponse",
    "EntityInsightsResponse",
    "EntityMergeGroup",
    "EntityProvenance",
    "EvidenceRow",
    "GenerationSummary",
    "RelatedEntitiesResponse",
    "RelatedEntity",
    "SeedEntitiesResponse",
]

# Contradictions and graph analysis.
__all__ += [
    "Bridge",
    "BridgesResponse",
    "CentralNode",
    "CentralityResponse",
    "CommunitiesResponse",
    "Community",
    "Contradiction",
    "ContradictionList",
    "ContradictionScan",
    "DensifyPreview",
    "GraphAnalysis",
    "GraphSnapshot",
    "GraphSnapshotResponse",
    "GraphStats",
    "GraphStatsResponse",
]
