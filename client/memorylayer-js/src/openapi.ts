// Generated from the MemoryLayer server's OpenAPI document by scripts/generate-types.mjs: do not edit.
// tests/unit/test_js_sdk_types.py regenerates it from the app and fails when the two differ.
// API version 0.3.0 (OpenAPI 3.1.0).
/* eslint-disable */

export interface AgentSpecification {
  /** The object's id. */
  id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** Its stable key, unique in the workspace for its kind. */
  key: string;
  /** The schema version of the document. */
  schema_version: number;
  /** Any JSON object, as written. */
  metadata: {
    [key: string]: unknown;
  };
  /** Its revision: 1 at creation, one more for each accepted write. */
  revision: number;
  /** The revision's ETag (also the `ETag` header): send it as `If-Match`. */
  etag: string;
  /** Who created it (`key:<id>`; null: auth off). */
  created_by?: string | null;
  /** Who wrote this revision. */
  updated_by?: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string;
  /** When it was deleted (null: live). */
  deleted_at?: string | null;
  /** The agent's name. */
  name: string;
  /** What the agent is for. */
  description: string;
  /** Its system instructions. */
  instructions: string;
  /** When to call it. */
  invocation_guidance?: string;
  /** The model it runs on (empty: the default). */
  model?: string;
  /** Turns at most (0: no limit of its own). */
  max_turns?: number;
  /** Tools it may use. */
  allowed_tools: string[];
  /** Tools it may not use. */
  denied_tools: string[];
  /** Skills it loads. */
  skills: string[];
  /** MCP servers it connects to. */
  mcp_servers: string[];
  /** inherit, ask, allow or read_only. */
  permission_mode?: "inherit" | "ask" | "allow" | "read_only";
  /** A hint for its execution policy. */
  exec_policy_hint?: string;
  /** Whether it runs in the background. */
  background?: boolean;
  /** Whether it may be used. */
  enabled?: boolean;
}

export interface AgentSpecificationCreate {
  /** The agent's name (not blank). */
  name: string;
  /** What the agent is for (not blank; up to 4096 characters). */
  description: string;
  /** The agent's system instructions (not blank; up to 64 KiB). */
  instructions: string;
  /** When to call this agent. */
  invocation_guidance?: string;
  /** The model it should run on (empty: the default). */
  model?: string;
  /** Turns at most (0: no limit of its own). */
  max_turns?: number;
  /** Tools it may use (unique, not blank; up to 512). */
  allowed_tools?: string[];
  /** Tools it may not use (unique, not blank; up to 512). */
  denied_tools?: string[];
  /** Skills it loads (unique, not blank; up to 512). */
  skills?: string[];
  /** MCP servers it connects to (unique, not blank; up to 512). */
  mcp_servers?: string[];
  /** How it asks for permission: inherit, ask, allow or read_only. */
  permission_mode?: "inherit" | "ask" | "allow" | "read_only";
  /** A hint for its execution policy. */
  exec_policy_hint?: string;
  /** Whether it runs in the background. */
  background?: boolean;
  /** Whether it may be used (default true). */
  enabled?: boolean;
  /** The version of this document's schema (default 1), chosen by the writer. */
  schema_version?: number;
  /** Any JSON object, stored and returned as given (not part of `content`). */
  metadata?: {
    [key: string]: unknown;
  };
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** A stable key, unique in the workspace for this kind (even after a delete): starts with a letter or digit, then letters, digits, `.`, `_`, `/`, `-`; at most 200 characters. Fixed once created. */
  key: string;
}

export interface AgentSpecificationListResponse {
  /** The specifications, most recently changed first. */
  specifications: AgentSpecification[];
  /** Pass as `page_token` for the next page (null: the last page). */
  next_page_token?: string | null;
}

export interface AgentSpecificationReplace {
  /** The agent's name (not blank). */
  name: string;
  /** What the agent is for (not blank; up to 4096 characters). */
  description: string;
  /** The agent's system instructions (not blank; up to 64 KiB). */
  instructions: string;
  /** When to call this agent. */
  invocation_guidance?: string;
  /** The model it should run on (empty: the default). */
  model?: string;
  /** Turns at most (0: no limit of its own). */
  max_turns?: number;
  /** Tools it may use (unique, not blank; up to 512). */
  allowed_tools?: string[];
  /** Tools it may not use (unique, not blank; up to 512). */
  denied_tools?: string[];
  /** Skills it loads (unique, not blank; up to 512). */
  skills?: string[];
  /** MCP servers it connects to (unique, not blank; up to 512). */
  mcp_servers?: string[];
  /** How it asks for permission: inherit, ask, allow or read_only. */
  permission_mode?: "inherit" | "ask" | "allow" | "read_only";
  /** A hint for its execution policy. */
  exec_policy_hint?: string;
  /** Whether it runs in the background. */
  background?: boolean;
  /** Whether it may be used (default true). */
  enabled?: boolean;
  /** The version of this document's schema (default 1), chosen by the writer. */
  schema_version?: number;
  /** Any JSON object, stored and returned as given (not part of `content`). */
  metadata?: {
    [key: string]: unknown;
  };
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
}

export interface AgentSpecificationResponse {
  /** The agent specification. */
  specification: AgentSpecification;
  /** True when this answers a retry of an earlier write (same key). */
  replayed?: boolean;
}

export interface AgentSpecificationRevision {
  /** The specification as this revision left it. */
  specification: AgentSpecification;
  /** The write that made this revision: create, replace, delete or restore. */
  action: string;
  /** The `Idempotency-Key` of that write. */
  operation_id: string;
}

export interface AgentSpecificationRevisionListResponse {
  /** Its revisions, newest first. */
  revisions: AgentSpecificationRevision[];
  /** Pass as `page_token` for the next page (null: the last page). */
  next_page_token?: string | null;
}

export interface AliasesAdd {
  /** Names to add (1–100); ones it already has are skipped. */
  aliases: string[];
}

export interface AnswerRequest {
  /** The question or keywords; `*` browses by recency without ranking. */
  query: string;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space. */
  user_id?: string | null;
  /** Memories to ground the answer on (1–50, default 8). */
  limit?: number;
  /** Drop results under this relevance (≤0 disables the floor; null: the tolerance's). */
  min_relevance?: number | null;
}

/** A grounded answer: cites memory ids, abstains when recall found nothing relevant. */
export interface AnswerResponse {
  /** The question, as asked. */
  query: string;
  /** Null when abstaining or when no LLM is configured. */
  answer: string | null;
  /** Ids of the memories the answer rests on. */
  citations: string[];
  /** True when nothing relevant was found, so nothing was claimed. */
  abstained: boolean;
  /** Whether this server has an LLM. */
  llm_configured: boolean;
  /** The memories recall found, with their relevance. */
  evidence: Evidence[];
  /** strong (two independent signals), moderate (keyword or relational only) or weak. */
  retrieval_confidence: "strong" | "moderate" | "weak";
  /** LLM calls and tokens spent (null or zeros without an LLM). */
  generation_summary: {
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export interface ApiKey {
  /** The object's id. */
  id: string;
  /** The key's first characters, to recognise it; the key itself is not stored. */
  prefix: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** The workspaces. */
  workspaces: string[];
  /** read or read_write (default). */
  access: "read" | "read_write";
  /** What the key may do in its tenant's user space. */
  shared_spaces?: "none" | "read" | "read_write";
  /** A display name. */
  name: string | null;
  /** When it expires (ISO-8601 UTC). */
  expires_at: string | null;
  /** When the key was revoked (null: active). */
  revoked_at: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** A token's minting key (/v1/tokens; null: made here, or by the admin key). */
  parent_id?: string | null;
  /** A token's scopes (null: not a token). */
  scopes?: string[] | null;
}

export interface ApiKeyCreated {
  /** The object's id. */
  id: string;
  /** The key's first characters, to recognise it; the key itself is not stored. */
  prefix: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** The workspaces. */
  workspaces: string[];
  /** read or read_write (default). */
  access: "read" | "read_write";
  /** What the key may do in its tenant's user space. */
  shared_spaces?: "none" | "read" | "read_write";
  /** A display name. */
  name: string | null;
  /** When it expires (ISO-8601 UTC). */
  expires_at: string | null;
  /** When the key was revoked (null: active). */
  revoked_at: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** A token's minting key (/v1/tokens; null: made here, or by the admin key). */
  parent_id?: string | null;
  /** A token's scopes (null: not a token). */
  scopes?: string[] | null;
  /** The secret key: shown once, store it now. */
  key: string;
}

export interface ApiKeyList {
  /** The keys (without their secrets). */
  api_keys: ApiKey[];
}

/** A directed, typed edge between two memories (the relationship types: ``GET /v1/workspaces/{id}/schema``). */
export interface Association {
  /** `assoc_` + 16 hex. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The memory the edge starts from. */
  source_id: string;
  /** The memory to link to. */
  target_id: string;
  /** One of the reference's 85 lowercase association types, e.g. related_to, causes, supersedes. */
  relationship: string;
  /** 0–1 (default 0.5): how strong the link is; expansion scores follow it. */
  strength: number;
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata: {
    [key: string]: unknown;
  };
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
}

export interface AssociationCreate {
  /** The memory to link to. */
  target_id: string;
  /** One of the reference's 85 lowercase association types, e.g. related_to, causes, supersedes. */
  relationship: string;
  /** 0–1 (default 0.5): how strong the link is; expansion scores follow it. */
  strength?: number;
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata?: {
    [key: string]: unknown;
  };
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
}

/** The new (or existing, identical) edge: wrapped, and flat too (SDK 0.2.1 reads the top level). */
export interface AssociationCreated {
  /** `assoc_` + 16 hex. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The memory the edge starts from. */
  source_id: string;
  /** The memory to link to. */
  target_id: string;
  /** One of the reference's 85 lowercase association types, e.g. related_to, causes, supersedes. */
  relationship: string;
  /** 0–1 (default 0.5): how strong the link is; expansion scores follow it. */
  strength: number;
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata: {
    [key: string]: unknown;
  };
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** The edge. */
  association: Association;
}

export interface AssociationList {
  /** The associations. */
  associations: Association[];
  /** The number of associations sent. */
  total_count: number;
}

export interface AssociationUpdate {
  /** 0–1 (default 0.5): how strong the link is; expansion scores follow it. */
  strength?: number | null;
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata?: {
    [key: string]: unknown;
  } | null;
}

export interface AuditEvent {
  /** The event's id (increasing: newer events have larger ids). */
  id: string;
  /** What kind of thing was written: memory, workspace, api_key. */
  event_type: string;
  /** What was done: create, update, delete, restore, replace, decay, batch_create, import, revoke. */
  action: string;
  /** The tenant whose data it touched. */
  tenant_id: string;
  /** The workspace it happened in. */
  workspace_id: string | null;
  /** Who did it: the id of the API key (`admin` for the admin key; null: auth off or the system). */
  user_id: string | null;
  /** What it was done to: memory, workspace, api_key, token. */
  resource_type: string | null;
  /** Its id (null: several, e.g. a batch). */
  resource_id: string | null;
  /** Details of the write (a revision, counts, fields). */
  metadata: {
    [key: string]: unknown;
  };
  /** When (ISO-8601 UTC). */
  timestamp: string;
}

export interface AuditEventList {
  /** The events, newest first. */
  events: AuditEvent[];
  /** How many are on this page. */
  count: number;
  /** Pass as `page_token` for the next (older) page; null: this is the last. */
  next_page_token?: string | null;
}

export interface AuditSummary {
  /** Events per `event_type`. */
  summary: {
    [key: string]: number;
  };
  /** All events counted. */
  total: number;
}

export interface BatchCreate {
  /** Which operation: create, update or delete. */
  op: "create";
  /** The text. Leading and trailing whitespace is stripped; empty text is refused. */
  content: string;
  /** episodic, semantic, procedural or working; classified by rules when left out. */
  type?: "episodic" | "semantic" | "procedural" | "working" | null;
  /** A finer kind: preference, decision, fact, directive, profile, event, … */
  subtype?: string | null;
  /** 0–1 (default 0.5): weighs ranking; decay lowers it. */
  importance?: number;
  /** Labels for filtering (matched case-insensitively); stored stripped, case kept, exact duplicates removed. */
  tags?: string[];
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata?: {
    [key: string]: unknown;
  };
  /** Who observed it (e.g. the agent), for multi-agent memories. */
  observer_id?: string | null;
  /** Whom it is about. */
  subject_id?: string | null;
  /** The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space. */
  user_id?: string | null;
  /** The session it came from. */
  session_id?: string | null;
  /** When the event happened (ISO-8601); temporal filters fall back to created_at. */
  event_time?: string | null;
  /** An ordered stream (e.g. one chat); the server numbers its memories atomically. */
  sequence_key?: string | null;
}

export interface BatchDelete {
  /** Which operation: create, update or delete. */
  op: "delete";
  /** The memory it applies to. */
  memory_id: string;
  /** Delete for good instead of soft-deleting. */
  hard?: boolean;
}

export interface BatchErrorGroup {
  /** One distinct error message. */
  error: string;
  /** How many operations failed with it. */
  count: number;
  /** Every failed operation's index, in order. */
  indexes: number[];
}

export interface BatchItemResult {
  /** Position of the operation in `operations`. */
  index: number;
  /** The operation: create, update or delete. */
  type: "create" | "update" | "delete";
  /** success or error. */
  status: "success" | "error";
  /** The memory it applies to. */
  memory_id: string | null;
  /** What went wrong (null: nothing). */
  error: string | null;
}

export interface BatchRequest {
  /** The operations, each `{op: create|update|delete, …}`; each succeeds or fails on its own. */
  operations: (BatchCreate | BatchUpdate | BatchDelete)[];
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
}

export interface BatchResponse {
  /** Operations received. */
  total_operations: number;
  /** Operations that succeeded. */
  successful: number;
  /** Operations that failed. */
  failed: number;
  /** Every success, and the first 20 failures (the rest are counted in `error_summary`). */
  results: BatchItemResult[];
  /** Failures left out of `results`. */
  errors_omitted: number;
  /** Failures grouped by message. */
  error_summary: BatchErrorGroup[];
}

export interface BatchUpdate {
  /** The text. Leading and trailing whitespace is stripped; empty text is refused. */
  content?: string | null;
  /** episodic, semantic, procedural or working; classified by rules when left out. */
  type?: "episodic" | "semantic" | "procedural" | "working" | null;
  /** A finer kind: preference, decision, fact, directive, profile, event, … */
  subtype?: string | null;
  /** 0–1 (default 0.5): weighs ranking; decay lowers it. */
  importance?: number | null;
  /** Labels for filtering (matched case-insensitively); stored stripped, case kept, exact duplicates removed. */
  tags?: string[] | null;
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata?: {
    [key: string]: unknown;
  } | null;
  /** Any JSON object about how the memory was refined; covered by the ETag. */
  refinement_metadata?: {
    [key: string]: unknown;
  } | null;
  /** Exempt from decay and archival. */
  pinned?: boolean | null;
  /** When the event happened (ISO-8601); temporal filters fall back to created_at. */
  event_time?: string | null;
  /** Which operation: create, update or delete. */
  op: "update";
  /** The memory it applies to. */
  memory_id: string;
}

export interface Body_upload_document_v1_documents_post {
  /** The document file. */
  file: string;
  /** Override the detected type. */
  document_type?: string | null;
  /** The context its memories go to. */
  target_context_id?: string | null;
  /** Largest chunk (one memory), in characters. */
  chunk_size?: number | null;
  /** Importance of its memories, 0-1. */
  importance?: number | null;
  /** Accepted; the bytes are always kept. */
  retain_original?: boolean | null;
  /** Accepted; chunks follow paragraphs. */
  chunking_strategy?: string | null;
  /** Accepted; chunks do not overlap. */
  chunk_overlap?: number | null;
}

export interface Bridge {
  /** One side's community. */
  source_community_id: number;
  /** The other side's community. */
  target_community_id: number;
  /** The memory on the first side. */
  memory_id_source: string;
  /** The memory on the other side. */
  memory_id_target: string;
  /** The association's relationship (the strongest of the pair). */
  relationship_type: string;
  /** The association's strength. */
  strength?: number;
}

export interface BridgesResponse {
  /** Edges joining two communities, strongest first. */
  bridges: Bridge[];
  /** How many. */
  total_count: number;
  /** A cap (`MEMORYLAYER_GRAPH_ANALYSIS_MAX_EDGES`, `…_MAX_NODES`) left edges or memories out of the graph. */
  truncated: boolean;
}

export interface Briefing {
  /** Totals, the last day's activity, live memories by type (`memory_types`) and the lookback's most used tags (`active_topics`). */
  workspace_summary: {
    [key: string]: unknown;
  };
  /** What the lookback saw: `{timestamp, summary, memories_created, key_decisions}`. */
  recent_activity: {
    [key: string]: unknown;
  }[];
  /** Open threads from live sessions' working memory: `{topic, status, last_activity, …}`. */
  open_threads: {
    [key: string]: unknown;
  }[];
  /** Unresolved `contradicts` associations: `{memory_a, memory_b, detected_at, id, …}`. */
  contradictions_detected: {
    [key: string]: unknown;
  }[];
  /** The recent memories, as the memory routes send them. */
  memories: {
    [key: string]: unknown;
  }[];
}

/** The briefing wrapped, as the reference, and flat too: SDK 0.2.1 builds `SessionBriefing(**data)`. */
export interface BriefingEnvelope {
  /** The briefing. */
  briefing: Briefing;
  /** Same as `briefing.workspace_summary`. */
  workspace_summary: {
    [key: string]: unknown;
  };
  /** Same as `briefing.recent_activity`. */
  recent_activity: {
    [key: string]: unknown;
  }[];
  /** Same as `briefing.open_threads`. */
  open_threads: {
    [key: string]: unknown;
  }[];
  /** Same as `briefing.contradictions_detected`. */
  contradictions_detected: {
    [key: string]: unknown;
  }[];
  /** Same as `briefing.memories`. */
  memories: {
    [key: string]: unknown;
  }[];
}

export interface BudgetSummary {
  /** `budget_tokens` as asked (null: no budget). */
  requested: number | null;
  /** Estimated tokens of the memories sent. */
  used: number;
  /** How tokens were estimated (`chars_div_3_conservative_v1`). */
  estimator: string;
  /** Memories cut to fit the budget. */
  truncated_items: number;
  /** Memories left out to fit the budget. */
  omitted_items: number;
}

export interface CardRelation {
  /** `erel_` + 16 hex. */
  id: string;
  /** The workspace the relation belongs to. */
  workspace_id: string;
  /** The entity the relation goes from. */
  source_entity_id: string;
  /** The entity the relation goes to. */
  target_entity_id: string;
  /** The canonical relationship, e.g. `reviewed`, `works_at`. */
  relationship: string;
  /** Always `outgoing`: relations are stored in their canonical direction. */
  direction: string;
  /** The highest confidence of its active evidence (0–1). */
  confidence: number;
  /** False once no active evidence (no live memory) supports it. */
  active: boolean;
  /** When it was created. */
  created_at: string;
  /** When it last changed. */
  updated_at: string;
  /** The source entity's canonical name. */
  source_name: string;
  /** The source entity's kind. */
  source_type: string;
  /** The target entity's canonical name. */
  target_name: string;
  /** The target entity's kind. */
  target_type: string;
}

export interface CentralNode {
  /** The memory. */
  memory_id: string;
  /** The first line of its content, shortened. */
  label?: string | null;
  /** How many memories it is joined to. */
  degree?: number;
  /** Normalised betweenness centrality; estimated from a sample of sources on large graphs. */
  betweenness?: number;
  /** The community it belongs to. */
  community_id?: number;
}

export interface CentralityResponse {
  /** Every memory of the graph, most between first. */
  central_nodes: CentralNode[];
  /** How many. */
  total_count: number;
  /** A cap (`MEMORYLAYER_GRAPH_ANALYSIS_MAX_EDGES`, `…_MAX_NODES`) left edges or memories out of the graph. */
  truncated: boolean;
}

/**
 * A durable transcript segment of a session: stored as memory ``raw_memory_id``, then indexed
 * line by line into searchable memories.
 */
export interface Checkpoint {
  /** `chk_` + 32 hex. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The session it came from. */
  session_id: string;
  /** The memory holding the whole segment (`mem_chk_…`), kept after the session. */
  raw_memory_id: string;
  /** Where the segment came from, sanitised to `[a-z0-9_-]` (default `transcript`). */
  source_kind: string;
  /** The caller's sequence number of the segment, if given. */
  source_sequence: number | null;
  /** The caller's boundary (e.g. last turn index), if given. */
  source_boundary: number | null;
  /** sha256 hex of the UTF-8 segment, as sent and checked. */
  content_hash: string;
  /** Size of the segment in UTF-8 bytes. */
  byte_count: number;
  /** `durable` once the raw memory is stored. */
  capture_status: "durable" | "failed";
  /** Whether the segment's lines were indexed as memories; a replay retries `pending`/`failed`. */
  index_status: "pending" | "complete" | "failed" | "skipped";
  /** LLM enrichment of the segment; `skipped` without an LLM. */
  enrichment_status: string;
  /** The caller's key; a replay with it returns this same checkpoint. */
  idempotency_key: string;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string;
}

export interface CheckpointCreate {
  /** The transcript text to keep (at most the configured size, 1 MiB by default). */
  transcript_segment: string;
  /** sha256 hex of the UTF-8 content (or segment). */
  content_hash: string;
  /** Your key for this segment: a retry with it returns the same checkpoint. */
  idempotency_key: string;
  /** Where the segment came from (default `transcript`; sanitised to `[a-z0-9_-]`). */
  source_kind?: string;
  /** Your sequence number for the segment (optional). */
  source_sequence?: number | null;
  /** Your boundary marker for the segment, e.g. its last turn (optional). */
  source_boundary?: number | null;
}

export interface CommitOptions {
  /** Only keep memories at least this important (accepted; no LLM extraction here). */
  min_importance?: number;
  /** Skip duplicates (accepted; no LLM extraction here). */
  deduplicate?: boolean;
  /** Only these categories (accepted; no LLM extraction here). */
  categories?: string[] | null;
  /** At most this many memories (1–500, default 50). */
  max_memories?: number;
}

export interface CommitResult {
  /** The session it came from. */
  session_id: string;
  /** Candidate memories read from the session. */
  memories_extracted: number;
  /** Candidates already known (nothing written). */
  memories_deduplicated: number;
  /** Memories added or superseding an older version. */
  memories_created: number;
  /** Counts per outcome (added, superseded, noop, …). */
  breakdown: {
    [key: string]: number;
  };
  /** Time the extraction took, in milliseconds. */
  extraction_time_ms: number;
  /** Ids of the memories written. */
  memory_ids: string[];
}

export interface CommunitiesResponse {
  /** Communities by label propagation, largest first. */
  communities: Community[];
  /** How many. */
  total_count: number;
  /** A cap (`MEMORYLAYER_GRAPH_ANALYSIS_MAX_EDGES`, `…_MAX_NODES`) left edges or memories out of the graph. */
  truncated: boolean;
}

export interface Community {
  /** 0-based, largest community first. */
  id: number;
  /** Its memories. */
  memory_ids?: string[];
  /** How many memories. */
  size?: number;
  /** Edge density inside the community (0–1). */
  cohesion_score?: number;
  /** Its three best-connected memories inside it. */
  central_node_ids?: string[];
  /** A topic label (none is generated here). */
  label?: string | null;
}

export interface ConsoleJobs {
  /** The workspace's newest extraction jobs, newest first. */
  jobs: Job[];
  /** The workspace it belongs to. */
  workspace_id: string;
}

export interface ConsoleMemoryRelations {
  /** The memory it applies to. */
  memory_id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The relations, by source name, relationship and target name. */
  relations: ConsoleRelation[];
}

/** One typed relation a memory is evidence of, with both entities named. */
export interface ConsoleRelation {
  /** The relation's id (`erel_…`). */
  id: string;
  /** The entity the relation starts from. */
  source: ConsoleRelationEnd;
  /** The relation type, in its stored direction (e.g. `reviewed`). */
  relationship: string;
  /** The entity the relation points to. */
  target: ConsoleRelationEnd;
  /** The relation's confidence: the mean over its active evidence. */
  confidence: number;
  /** The relation still has active evidence somewhere. */
  active: boolean;
  /** How this memory evidences it: explicit, adapter (a profile or connector), pattern, generated. */
  evidence_kinds: string[];
  /** This memory's evidence is active (false once the memory is deleted, superseded or edited). */
  evidence_active: boolean;
}

export interface ConsoleRelationEnd {
  /** The entity's id (`ent_…`). */
  id: string;
  /** Its canonical name. */
  name: string;
  /** Its kind (person, project, ticket, …). */
  type: string;
}

/** What the console's key may do. */
export interface ConsoleWhoami {
  /** The API key's id (null: admin key, or no auth). */
  key_id: string | null;
  /** The key is read_write: the page shows its write controls. */
  can_write: boolean;
  /** The admin key. */
  admin: boolean;
  /** The workspaces the key may use (null: any). */
  workspaces: string[] | null;
  /** The server's auth mode (`none` for local development). */
  auth_mode: string;
}

export interface ContentPart {
  /** The part's kind, e.g. `text` or `image`. */
  type: string;
  /** The part's text. */
  text?: string | null;
  /** The part's structured data. */
  data?: {
    [key: string]: unknown;
  } | null;
}

export interface Context {
  /** The object's id. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id?: string | null;
  /** A display name. */
  name: string;
  /** A free-text description. */
  description?: string | null;
  /** Any JSON object of settings. */
  settings?: {
    [key: string]: unknown;
  };
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  [key: string]: unknown;
}

export interface ContextCreate {
  /** The context's id (generated when left out). */
  id?: string | null;
  /** A display name. */
  name: string;
  /** A free-text description. */
  description?: string | null;
  /** Any JSON object of settings. */
  settings?: {
    [key: string]: unknown;
  };
}

/** What changed since the cursor, in order (at least once). */
export interface ContextDelta {
  /** Markdown: `## Section` headings and `- item` bullets, within the budget. */
  rendered: string;
  /** What was rendered, item by item (`kind` names the section). */
  items: ContextItem[];
  /** What the token budget did. */
  budget_summary: BudgetSummary;
  /** LLM calls and tokens spent (null or zeros without an LLM). */
  generation_summary: ContextGeneration;
  /** Pass to /context-delta to get what changed after this. */
  cursor: string;
  /** Sections that could not be built, e.g. topic retrieval. */
  degradation_notices: string[];
  /** Memories added or changed since the cursor. */
  memory_changes: ContextItem[];
  /** Working-memory keys set since the cursor. */
  working_memory_changes: ContextItem[];
  /** Checkpoints captured since the cursor. */
  checkpoint_changes: ContextItem[];
  /** Context-environment checkpoints since the cursor: the sandbox's variables as /inspect shows them (a freed sandbox is a tombstone instead). */
  sandbox_changes?: ContextItem[];
  /** What was deleted or superseded since the cursor. */
  tombstones: ContextItem[];
  /** More changes are waiting: ask again with the new cursor. */
  has_more: boolean;
  [key: string]: unknown;
}

export interface ContextDeltaRequest {
  /** The cursor from the last context pack or delta; changes after it are returned. */
  cursor: string;
  /** Fit the delta into about this many tokens (32–200000). */
  budget_tokens?: number;
}

export interface ContextEnvelope {
  /** The object's id. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id?: string | null;
  /** A display name. */
  name: string;
  /** A free-text description. */
  description?: string | null;
  /** Any JSON object of settings. */
  settings?: {
    [key: string]: unknown;
  };
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** The context. */
  context: Context;
  [key: string]: unknown;
}

export interface ContextGeneration {
  /** `deterministic`: no LLM is called. */
  policy: string;
  /** LLM calls made (0: deterministic). */
  calls: number;
  /** LLM input tokens. */
  input_tokens: number;
  /** LLM output tokens. */
  output_tokens: number;
  [key: string]: unknown;
}

export interface ContextItem {
  /** The memory id, or `working:<key>` for working memory. */
  id: string;
  /** The section: directives, working_memory, topic_matches, memory_changes, … */
  kind: string;
  /** The text. Leading and trailing whitespace is stripped; empty text is refused. */
  content: string;
  /** 0–1 (default 0.5): weighs ranking; decay lowers it. */
  importance: number;
  /** When the event happened (ISO-8601); temporal filters fall back to created_at. */
  event_time: string | null;
  /** How it was found: vector, keyword, context, association, recency… */
  match_signals: string[];
  /** Ids it came from (e.g. a checkpoint's raw memory). */
  source_references: string[];
  /** True for something deleted or superseded since (rendered `[deleted]`). */
  tombstone: boolean;
  /** The change's event sequence (deltas only). */
  sequence?: number | null;
}

export interface ContextList {
  /** The contexts. */
  contexts: Context[];
}

/** What a model should know now, within a token budget. */
export interface ContextPack {
  /** Markdown: `## Section` headings and `- item` bullets, within the budget. */
  rendered: string;
  /** What was rendered, item by item (`kind` names the section). */
  items: ContextItem[];
  /** What the token budget did. */
  budget_summary: BudgetSummary;
  /** LLM calls and tokens spent (null or zeros without an LLM). */
  generation_summary: ContextGeneration;
  /** Pass to /context-delta to get what changed after this. */
  cursor: string;
  /** Sections that could not be built, e.g. topic retrieval. */
  degradation_notices: string[];
  /** Open items echoed from working memory (open_threads, next_steps…). */
  open_threads: unknown[];
  /** Contradicting memories not yet resolved. */
  unresolved_contradictions: unknown[];
  [key: string]: unknown;
}

export interface ContextPackRequest {
  /** What the model is working on: recalled memories about it are added. */
  topic?: string | null;
  /** Entity ids to recall around (the first 8 are used). */
  entity_ids?: string[];
  /** Entity names to recall around (the first 8 are used). */
  entity_names?: string[];
  /** Fit the rendered pack into about this many tokens (32–200000). */
  budget_tokens?: number;
  /** Items per section at most. */
  section_limits?: SectionLimits;
  /** Include the directives section. */
  include_directives?: boolean;
  /** Include the session's working memory. */
  include_working_memory?: boolean;
  /** Include recent activity. */
  include_recent_activity?: boolean;
  /** Include unresolved contradictions. */
  include_contradictions?: boolean;
  /** Include the context-environment summary. */
  include_sandbox_summary?: boolean;
  /** Include raw checkpoints for recovery. */
  include_checkpoint_recovery?: boolean;
  /** abstract, overview or full (default): the form each memory starts at; the budget steps it down from there (full → overview → abstract → cut short). */
  detail_level?: "abstract" | "overview" | "full";
}

export interface ContextTurn {
  /** Who said it: user, assistant, … */
  role?: string | null;
  /** What was said. */
  content: string;
}

/** Two memories that cannot both be true (the reference's ``ContradictionResponse``). */
export interface Contradiction {
  /** `contra_` + 16 hex. */
  id: string;
  /** The workspace both memories belong to. */
  workspace_id: string;
  /** The first memory. */
  memory_a_id: string;
  /** The second memory. */
  memory_b_id: string;
  /** `negation` (one says what the other denies), `semantic_value_conflict` (one subject and predicate, two values) or `asserted` (a `contradicts` association said so). */
  contradiction_type: string | null;
  /** How alike the two statements are (0–1). */
  confidence: number | null;
  /** The rule that found it: `negation_pattern`, `entity_value_extraction`, `fact_key`, `association`. */
  detection_method: string | null;
  /** When the scan found it. */
  detected_at: string | null;
  /** When it was resolved; null while open. */
  resolved_at: string | null;
  /** `keep_a`, `keep_b`, `keep_both` or `merge`; null while open. */
  resolution: string | null;
}

export interface ContradictionList {
  /** Open contradictions, newest first. */
  contradictions: Contradiction[];
  /** How many are listed. */
  count: number;
}

export interface ContradictionResolveRequest {
  /** `keep_a` (B is superseded by A), `keep_b` (A by B), `keep_both` (only the record closes) or `merge` (A is rewritten to `merged_content`, B superseded by it). */
  resolution: "keep_a" | "keep_b" | "keep_both" | "merge";
  /** The merged text; required when `resolution` is `merge`. */
  merged_content?: string | null;
}

export interface ContradictionScan {
  /** The workspace scanned. */
  workspace_id: string;
  /** How many new contradictions the scan recorded. */
  contradictions_found: number;
  /** The new ones (a pair recorded before is not). */
  contradictions: Contradiction[];
  /** How many live memories were compared (newest first). */
  memories_scanned: number;
  /** The scan did not cover everything: the workspace has more live memories than one scan compares (`MEMORYLAYER_CONTRADICTION_SCAN_MAX_MEMORIES`), more pairs remain (`next_cursor`), or a fact group held more pairs than one group yields (`groups_capped`). */
  truncated: boolean;
  /** More pairs were found than one scan records (`MEMORYLAYER_CONTRADICTION_SCAN_MAX_PAIRS`): send this as `cursor` to record the next page; null when the scan got to the end. */
  next_cursor?: string | null;
  /** How many pairs this scan's rules found in all (recorded before or not). */
  pairs_found?: number;
  /** Fact groups (one user, subject and predicate) that held more pairs than one group yields (`MEMORYLAYER_CONTRADICTION_SCAN_MAX_GROUP_PAIRS`): their newest statements' pairs were taken. */
  groups_capped?: number;
}

export interface ContradictionScanRequest {
  /** Accepted for the reference's clients (1–500); the scan compares the newest live memories in one pass, up to the server's cap. */
  batch_size?: number | null;
  /** Continue a scan that stopped at its page cap: the previous answer's `next_cursor`. */
  cursor?: string | null;
}

export interface DataProvider {
  /** The object's id. */
  id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** Its name. */
  name: string;
  /** Its type (`local`: direct upload). */
  provider_type: string;
  /** What it is. */
  description?: string | null;
  /** Whether it is active. */
  enabled: boolean;
  /** Its connection settings, as given. */
  connection_args: {
    [key: string]: unknown;
  };
  /** A cron schedule (stored only). */
  schedule?: string | null;
  /** Its last sync that fetched something. */
  last_sync_at?: string | null;
  /** Any JSON object, as written. */
  metadata: {
    [key: string]: unknown;
  };
  /** Its revision: 1 at creation, one more per update. */
  revision: number;
  /** The revision's ETag. */
  etag: string;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string;
}

export interface DataProviderCreate {
  /** Its name (1-200 characters, not blank). */
  name: string;
  /** Its type: `local` (direct upload; the one that syncs here) or another source's name. */
  provider_type?: string;
  /** What it is. */
  description?: string | null;
  /** Whether it is active (default true). */
  enabled?: boolean;
  /** Non-secret connection settings, stored as given. */
  connection_args?: {
    [key: string]: unknown;
  };
  /** A cron schedule (stored only). */
  schedule?: string | null;
  /** Any JSON object, stored and returned as given (not part of `content`). */
  metadata?: {
    [key: string]: unknown;
  };
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
}

export interface DataProviderListResponse {
  /** The providers, most recently changed first. */
  providers: DataProvider[];
  /** How many the workspace has (counted up to 1000). */
  total_count: number;
}

export interface DataProviderResponse {
  /** The data provider. */
  provider: DataProvider;
}

export interface DataProviderSyncResponse {
  /** The provider synced. */
  provider_id: string;
  /** Its workspace. */
  workspace_id: string;
  /** What the sync fetched (a local provider: nothing). */
  synced_documents: unknown[];
}

export interface DataProviderUpdate {
  /** A new name. */
  name?: string | null;
  /** A new description. */
  description?: string | null;
  /** Enable or disable it. */
  enabled?: boolean | null;
  /** New connection settings. */
  connection_args?: {
    [key: string]: unknown;
  } | null;
  /** A new cron schedule. */
  schedule?: string | null;
  /** A new metadata object (replaces it). */
  metadata?: {
    [key: string]: unknown;
  } | null;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
}

export interface DecayRequest {
  /** How much importance to take away (0–1, default 0.1). */
  decay_rate?: number;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
}

export interface Decomposed {
  /** The thread. */
  thread_id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** Messages extraction read now. */
  messages_processed: number;
  /** Memories added or superseding older ones. */
  memories_created: number;
  /** First message index read. */
  from_index: number;
  /** One past the last message index read (`from_index` when none was). */
  to_index: number;
  /** The extraction job that ran (null when nothing was left to read). */
  job_id: string | null;
}

export interface DensifyPreview {
  /** The workspace analysed. */
  workspace_id: string;
  /** Communities of the association graph: `node_count`, `edge_count`, `community_count`, `size_histogram`, `top_sizes`, `modularity`. */
  baseline: {
    [key: string]: unknown;
  };
  /** The same, with the enabled signals' edges added. */
  densified: {
    [key: string]: unknown;
  };
  /** Edges: `base_edges`, new ones per signal (`cosine`, `maxsim`, `entity`), `total_edges`. */
  densify: {
    [key: string]: unknown;
  };
  /** The signals' settings used. */
  config: {
    [key: string]: unknown;
  };
  /** A cap (`MEMORYLAYER_GRAPH_ANALYSIS_MAX_EDGES`, `…_MAX_NODES`) left edges or memories out of the graph. */
  truncated: boolean;
}

export interface DensifyPreviewRequest {
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** Only the memories of this context. */
  context_id?: string | null;
  /** Join each memory to its nearest embeddings. */
  cosine_enabled?: boolean;
  /** The least cosine similarity. */
  cosine_threshold?: number;
  /** Nearest neighbours per memory (1–50). */
  cosine_k?: number;
  /** The signal's weight. */
  cosine_weight?: number;
  /** Accepted; no memory has page multivectors here. */
  maxsim_enabled?: boolean;
  /** Accepted; see `maxsim_enabled`. */
  maxsim_threshold?: number;
  /** Accepted; see `maxsim_enabled`. */
  maxsim_k?: number;
  /** Accepted; see `maxsim_enabled`. */
  maxsim_weight?: number;
  /** Join memories that are evidence about one entity (typed relations). */
  entity_enabled?: boolean;
  /** The signal's weight. */
  entity_weight?: number;
  /** Skip an entity with more memories than this (2–1000). */
  entity_max_group?: number;
}

export interface Document {
  /** The object's id. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The file's name as kept: its last path component, printable. */
  filename: string;
  /** `text`, `markdown`, `code`, `html`, `pdf` or `docx`. */
  document_type: string;
  /** SHA-256 of the bytes: the same bytes again are the same document. */
  content_hash: string;
  /** The file's size in bytes. */
  size_bytes: number;
  /** The content type the upload declared (null: none). */
  mime_type: string | null;
  /** Always null here (no data connectors). */
  source_vfs_ref?: string | null;
  /** `pending`, `processing`, `completed` or `failed`. */
  status: string;
  /** The context its memories are written to. */
  target_context_id: string;
  /** Pages with text. */
  page_count: number;
  /** Chunks the pages were cut into (one memory each). */
  chunk_count: number;
  /** The memories derived from it. */
  memory_ids: string[];
  /** Chunks that resolved to a memory already stored. */
  deduplicated_count: number;
  /** Why processing failed (null: it did not). */
  error_message: string | null;
  /** The caller's metadata. */
  metadata: {
    [key: string]: unknown;
  };
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When the last run started. */
  processing_started_at: string | null;
  /** When the last run completed. */
  processing_completed_at: string | null;
}

/** Upload's answer: the document and the job that processes it. */
export interface DocumentAccepted {
  /** The document (an earlier one, for the same bytes again). */
  document: Document;
  /** Its ingestion job (complete at birth for the same bytes again). */
  job: IngestionJob;
}

export interface DocumentDeleted {
  /** Always true (an unknown document is a 404). */
  deleted: boolean;
  /** The document removed. */
  document_id: string;
}

export interface DocumentList {
  /** This page of documents, newest first. */
  documents: Document[];
  /** Documents matching the filters. */
  total: number;
  /** The page size asked for. */
  limit: number;
  /** How many were skipped. */
  offset: number;
}

export interface DocumentMemories {
  /** The document. */
  document_id: string;
  /** Its live memories, in page and span order. */
  memories: DocumentMemory[];
  /** How many. */
  total: number;
}

export interface DocumentMemory {
  /** The object's id. */
  id: string;
  /** The chunk's text. */
  content: string;
  /** The memory type (`semantic`). */
  type: string | null;
  /** The memory subtype (null). */
  subtype: string | null;
  /** Its importance, 0-1. */
  importance: number;
  /** Its tags (`document`). */
  tags: string[];
  /** When it was written. */
  created_at: string | null;
  /** Provenance: source_document_id, source_page_id, page_no, span [start, end] in the page. */
  metadata: {
    [key: string]: unknown;
  };
}

export interface DocumentPage {
  /** The object's id. */
  id: string;
  /** The document it is a page of. */
  document_id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** Zero-based page number. */
  page_no: number;
  /** The page's text. */
  transcript: string | null;
  /** What read it: `parser:<document type>`. */
  transcript_model: string | null;
  /** `chars` and `chunks` of the page. */
  metadata: {
    [key: string]: unknown;
  };
  /** When the page was stored. */
  created_at: string | null;
  /** Search only: cosine similarity to the query. */
  relevance_score?: number | null;
}

export interface DocumentPageList {
  /** The document's pages in order. */
  pages: DocumentPage[];
  /** How many. */
  total: number;
}

export interface DocumentVerify {
  /** The job that re-runs it (null: none was needed or possible). */
  task_id: string | null;
  /** Always `document`. */
  mode: string;
  /** Whether a job was started. */
  scheduled: boolean;
  /** The document checked. */
  document_id: string;
  /** Whether the stored bytes match the document's hash. */
  intact: boolean;
  /** What is wrong with the stored bytes (null: nothing). */
  problem: string | null;
}

/** ``POST /v1/ingest/email`` (the reference's ``api/v1/schemas.py`` l.570-595). */
export interface EmailIngest {
  /** The sender's address or name (becomes the `sent_by` entity). */
  sender: string;
  /** The email's text. */
  body: string;
  /** The recipients (one `sent_to` relation each, at most 100). */
  to?: string[];
  /** The subject line, put in the memory's text. */
  subject?: string | null;
  /** When it was sent (its date prefixes the memory's text). */
  timestamp?: string | null;
  /** The mail thread's id (names the email when it has no subject or message id). */
  thread_id?: string | null;
  /** The email's Message-ID (kept in the memory's metadata). */
  message_id?: string | null;
  /** 0–1 (default 0.5), as for a memory. */
  importance?: number;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** A named sub-space of the workspace (`_default`). */
  context_id?: string | null;
  /** Extra metadata, stored with the email's own fields (sender, recipients, …). */
  metadata?: {
    [key: string]: unknown;
  };
  /** Typed relations this memory is evidence for (`EntityRelationInput`, at most 100). */
  relations?: EntityRelationInput[];
}

/** A registry entity (the reference's ``Entity``, SDK 0.2.1 ``memorylayer.models.Entity``) plus external ids. */
export interface Entity {
  /** `ent_` + 16 hex. */
  id: string;
  /** The workspace the entity belongs to. */
  workspace_id: string;
  /** Its kind: person, project, ticket, pull_request, document, … */
  entity_type: string;
  /** The name as first written. */
  canonical_name: string;
  /** The lookup key: case-folded, whitespace and punctuation collapsed. */
  normalized_name: string;
  /** Other names that resolve to it (as written). */
  aliases: string[];
  /** The highest confidence any mention gave it (0–1). */
  confidence: number;
  /** Where it was first seen (e.g. the connector or profile). */
  provenance: {
    [key: string]: unknown;
  };
  /** Ids in outside systems, e.g. `{"github": "achen"}`. */
  external_ids: {
    [key: string]: unknown;
  };
  /** The memory that first named it. */
  representative_memory_id: string | null;
  /** `merged`: folded into `merged_into`. */
  status: "active" | "merged";
  /** The entity it was merged into (null: not merged). */
  merged_into: string | null;
  /** When it was created. */
  created_at: string;
  /** When it last changed. */
  updated_at: string;
}

export interface EntityAliases {
  /** The entity. */
  entity_id: string;
  /** Its aliases, oldest first. */
  aliases: string[];
}

export interface EntityBackfillResponse {
  /** The workspace backfilled. */
  workspace_id: string;
  /** Entities wiped first: always 0 (`reset` is refused here). */
  cleared: number;
  /** Live memories read. */
  scanned: number;
  /** Memories that stated at least one relation (new or already stored). */
  accreted: number;
  /** Evidence rows stored by this call (0 on a rerun). */
  relations_written: number;
  /** Active entities the workspace gained. */
  entities_created: number;
  /** True when every live memory after `after` was read. */
  complete: boolean;
  /** Pass as `after` to continue (null when complete): `max_memories` or the time budget stopped the call. */
  next_after: string | null;
  /** Why an incomplete call stopped: `max_memories` (the call's or the server's cap, `MEMORYLAYER_ENTITY_BACKFILL_MAX_MEMORIES`) or `time_budget` (`MEMORYLAYER_ENTITY_BACKFILL_TIME_BUDGET_S`); null when complete. */
  stopped_by?: string | null;
}

export interface EntityCardResponse {
  /** The entity. */
  entity_id: string;
  /** The workspace. */
  workspace_id: string;
  /** A summary written from the store (name, kind, aliases, strongest relations); no LLM. */
  reflection: string;
  /** `inference` memories about it, newest first (up to 20). */
  insights: Memory[];
  /** The ids of `evidence`. */
  source_memories: string[];
  /** The entity's confidence (0-1). */
  confidence: number;
  /** Always false: the card is built on each call. */
  cached: boolean;
  /** When this card was built. */
  generated_at: string;
  /** The entity, with its aliases. */
  entity: Entity;
  /** Its active relations with both ends' names (up to 50). */
  relations: CardRelation[];
  /** Its top evidence: live memories stating its relations or about it, most confident first. */
  evidence: Memory[];
  /** How much the store holds about it. */
  counts: EntityCounts;
}

export interface EntityCounts {
  /** Its aliases. */
  aliases: number;
  /** Its active relations, either direction. */
  relations: number;
  /** Live memories it is found in (evidence of its relations, or about it). */
  memories: number;
  /** Active evidence rows of its relations. */
  evidence: number;
  /** Live `inference` memories about it. */
  insights: number;
}

export interface EntityDedupeResponse {
  /** The workspace deduplicated. */
  workspace_id: string;
  /** Groups of colliding entities found and merged. */
  clusters: number;
  /** Entities merged into a group's survivor. */
  merged: number;
  /** Active entities read (at most `limit`, oldest first). */
  considered: number;
  /** Each group: its survivor and what merged into it. */
  merges: EntityMergeGroup[];
}

export interface EntityDeriveRequest {
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** Who observed it (e.g. the agent), for multi-agent memories. */
  observer_id?: string | null;
  /** Accepted for the reference's clients; nothing is cached here. */
  force?: boolean;
}

export interface EntityDeriveResponse {
  /** The entity analysed. */
  subject_id: string;
  /** The workspace. */
  workspace_id: string;
  /** New `inference` memories stored. */
  insights_created: number;
  /** Insights already stored with the same text. */
  insights_updated: number;
  /** Memories the LLM was shown. */
  source_memory_count: number;
  /** The insights stored or found, as memories. */
  insights: Memory[];
  /** The LLM's usage (null: no call). */
  generation_summary: GenerationSummary | null;
}

export interface EntityDetail {
  /** The entity. */
  entity: Entity;
  /** Its active relations, either direction (up to 100). */
  relations: EntityRelation[];
}

export interface EntityEnrichResponse {
  /** The workspace. */
  workspace_id: string;
  /** The external knowledge base asked for: `wikidata`. */
  source: string;
  /** Eligible entities considered. */
  checked: number;
  /** Entities linked: 0, no knowledge base is configured. */
  enriched: number;
  /** Entities left as they were. */
  skipped: number;
  /** False: this server makes no outbound knowledge-base lookups. */
  linker_configured: boolean;
}

export interface EntityEnvelope {
  /** The entity (after the change, for writes). */
  entity: Entity;
}

export interface EntityInsightsResponse {
  /** The entity. */
  entity_id: string;
  /** The workspace. */
  workspace_id: string;
  /** Live `inference` memories about it, newest first. */
  insights: Memory[];
  /** How many there are in all (before `limit`). */
  total_count: number;
  /** How much the store holds about it. */
  counts: EntityCounts;
  /** Its newest member memories (up to 10). */
  recent_facts: Memory[];
}

export interface EntityList {
  /** The workspace's entities of the asked status. */
  entities: Entity[];
  /** How many there are in all (before the limit). */
  total_count: number;
}

export interface EntityMatch {
  /** The entity the name resolved to. */
  entity: Entity;
  /** `exact`: its name; `alias`: one of its aliases. */
  matched_via: "exact" | "alias";
  /** 1.0: resolution is exact, never fuzzy. */
  score: number;
}

export interface EntityMergeGroup {
  /** The survivor: the most established entity of the group. */
  target_id: string;
  /** The entities merged into it (now `merged` tombstones). */
  merged_ids: string[];
}

export interface EntityProvenance {
  /** The entity. */
  entity_id: string;
  /** `seeded` (POST /v1/entities/seed), `created` (a write named it) or `unknown`. */
  origin: string;
  /** What produced it: `entity.seed` or `entity.create`. */
  activity: string | null;
  /** Who recorded it: `memorylayer`. */
  agent: string | null;
  /** The seed's description, if any. */
  description: string | null;
  /** Ids in outside systems, e.g. `{"github": {"id": "achen"}}`. */
  external_links: {
    [key: string]: unknown;
  };
  /** The memories that first named it. */
  source_memory_ids: string[];
  /** When it was created. */
  generated_at: string | null;
  /** The stored provenance as written. */
  raw: {
    [key: string]: unknown;
  };
  /** The write that created it (e.g. `knowledge_work_metadata`, `seed`). */
  source: string | null;
  /** The memories holding `evidence`, newest first. */
  evidence_memory_ids: string[];
  /** Its relations' active evidence, newest first (up to 100). */
  evidence: EvidenceRow[];
}

/** A typed, directed relation between two entities (the reference's ``EntityRelation``). */
export interface EntityRelation {
  /** `erel_` + 16 hex. */
  id: string;
  /** The workspace the relation belongs to. */
  workspace_id: string;
  /** The entity the relation goes from. */
  source_entity_id: string;
  /** The entity the relation goes to. */
  target_entity_id: string;
  /** The canonical relationship, e.g. `reviewed`, `works_at`. */
  relationship: string;
  /** Always `outgoing`: relations are stored in their canonical direction. */
  direction: string;
  /** The highest confidence of its active evidence (0–1). */
  confidence: number;
  /** False once no active evidence (no live memory) supports it. */
  active: boolean;
  /** When it was created. */
  created_at: string;
  /** When it last changed. */
  updated_at: string;
}

export interface EntityRelationInput {
  /** The relation's source entity, by id. */
  source_entity_id?: string | null;
  /** The relation's source entity, by name or alias (created when a type is given). */
  source_entity_name?: string | null;
  /** The relation's target entity, by id. */
  target_entity_id?: string | null;
  /** The relation's target entity, by name or alias (created when a type is given). */
  target_entity_name?: string | null;
  /** Our extension: the source's kind; with a name, the entity is created when missing. */
  source_entity_type?: string | null;
  /** Our extension: the target's kind; with a name, the entity is created when missing. */
  target_entity_type?: string | null;
  /** One of the 103 canonical relationships or a reverse form (`reviewed_by`); docs/relations.md. */
  relationship: string;
  /** How sure the writer is (0–1, default 1). */
  confidence?: number;
  /** Where the evidence starts in `content` (character offset). */
  source_span_start?: number | null;
  /** Where the evidence ends in `content` (exclusive; needs `source_span_start`). */
  source_span_end?: number | null;
  /** explicit (default), adapter, pattern or generated. */
  evidence_kind?: "explicit" | "adapter" | "pattern" | "generated";
  /** What produced the relation (default `explicit_api`). */
  extraction_method?: string;
}

/** How the relational recall arm reached its memories: from a seed entity along active relations. */
export interface EntityRelationPath {
  /** The entity the query named (resolved by name or alias). */
  seed_entity_id: string;
  /** The entities along the path, seed first. */
  entity_ids: string[];
  /** The relations walked, in order (one or two hops). */
  relations: EntityRelation[];
  /** The evidence rows that tie the last relation to memories. */
  evidence_ids: string[];
  /** The returned memories that are its evidence. */
  evidence_memory_ids: string[];
}

export interface EntityResolution {
  /** The match (a name that resolves to nothing is a 404). */
  resolution: EntityMatch;
}

export interface EraseResult {
  /** The user erased. */
  user_id: string;
  /** True: nothing was deleted, the counts say what would be. */
  dry_run: boolean;
  /** How many of the caller's workspaces (in its tenant) were searched. */
  workspaces: number;
  /** Rows erased (or, in a dry run, that would be), by kind: memories, derived_memories, revisions, associations, evidence, relations, entities, threads, messages, sessions, working_memory, sandboxes. */
  counts: {
    [key: string]: number;
  };
}

export interface Evidence {
  /** The object's id. */
  id: string;
  /** The text. Leading and trailing whitespace is stripped; empty text is refused. */
  content: string;
  /** Fused relevance of the arms that found it (0–1). */
  relevance_score: number;
}

export interface EvidenceRow {
  /** The evidence row. */
  evidence_id: string;
  /** The relation it supports. */
  relation_id: string;
  /** That relation's relationship. */
  relationship: string;
  /** That relation's source. */
  source_entity_id: string;
  /** That relation's target. */
  target_entity_id: string;
  /** The memory that states it. */
  memory_id: string;
  /** The thread the memory was extracted from (null: not extracted). */
  thread_id: string | null;
  /** The thread messages it was extracted from. */
  message_ids: string[];
  /** explicit, adapter (a profile or connector), pattern or generated. */
  evidence_kind: string;
  /** How it was found, e.g. `deterministic_extraction`. */
  extraction_method: string | null;
  /** The evidence's confidence (0-1). */
  confidence: number;
  /** Where the excerpt starts in the memory's content. */
  source_span_start: number | null;
  /** Where it ends. */
  source_span_end: number | null;
  /** The span's text, or the content's first 280 characters without a span. */
  excerpt: string;
  /** When the evidence was stored. */
  created_at: string;
}

export interface ExecuteRequest {
  /** Python to run in the session's sandbox; the last expression is the result. Imports outside an allow-list are refused (422 `code_rejected`). */
  code: string;
  /** Also store the last expression's value in this variable. */
  result_var?: string | null;
  /** Send the last expression's `repr` as `result`. */
  return_result?: boolean;
  /** Cut `result` to this many characters (100–100000). */
  max_return_chars?: number;
}

/** What one run of caller code did. An exception raised by the code is still a 200, with ``error`` set. */
export interface ExecuteResult {
  /** What the code printed (stdout), capped by the server's output limit. */
  output: string;
  /** `repr` of the last expression, cut at `max_return_chars` (null: none, or an error). */
  result: string | null;
  /** The exception the code raised, e.g. `ZeroDivisionError: …`. */
  error: string | null;
  /** `execution_error` when the code raised; else null. */
  error_code: string | null;
  /** Variables the code created or changed, sorted. */
  variables_changed: string[];
  /** Variables that could not be kept (functions, classes, modules, open objects). */
  not_persisted: string[];
}

export interface Expiry {
  /** When it expires (ISO-8601 UTC). */
  expires_at: string | null;
}

export interface FreshnessMetadata {
  /** Mean freshness of the results (null: no results). */
  avg_freshness: number | null;
  /** Lowest freshness of the results. */
  min_freshness: number | null;
  /** Highest freshness of the results. */
  max_freshness: number | null;
  /** Results with freshness under 0.1. */
  severe_count: number;
  /** Results with freshness from 0.1 to 0.5. */
  moderate_count: number;
}

export interface GenerationSummary {
  /** LLM calls made. */
  calls: number;
  /** Input tokens they used. */
  input_tokens: number;
  /** Output tokens they used. */
  output_tokens: number;
}

export interface GraphAnalysis {
  /** The graph's size. */
  snapshot: GraphSnapshot;
  /** As GET /v1/graph/communities. */
  communities?: Community[];
  /** As GET /v1/graph/centrality. */
  central_nodes?: CentralNode[];
  /** As GET /v1/graph/bridges. */
  bridges?: Bridge[];
  /** As GET /v1/graph/stats. */
  stats: GraphStats;
  /** A cap (`MEMORYLAYER_GRAPH_ANALYSIS_MAX_EDGES`, `…_MAX_NODES`) left edges or memories out of the graph. */
  truncated: boolean;
}

export interface GraphAnalysisRequest {
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** Only the memories of this context. */
  context_id?: string | null;
  /** Accepted for the reference's clients: every live memory is a node here. */
  include_rpg?: boolean;
  /** Also join memories that are evidence about one entity (typed relations) by a `shares_entity` edge (our extension). */
  include_relations?: boolean;
}

export interface GraphSnapshot {
  /** The workspace analysed. */
  workspace_id: string;
  /** The context filter, if one was given. */
  context_id?: string | null;
  /** Memories in the graph. */
  node_count?: number;
  /** Edges: pairs of memories joined by an association. */
  edge_count?: number;
  /** Echoes `include_rpg`; every live memory is a node. */
  includes_rpg?: boolean;
}

export interface GraphSnapshotResponse {
  /** The graph's size. */
  snapshot: GraphSnapshot;
  /** A cap (`MEMORYLAYER_GRAPH_ANALYSIS_MAX_EDGES`, `…_MAX_NODES`) left edges or memories out of the graph. */
  truncated: boolean;
}

export interface GraphStats {
  /** Memories in the graph. */
  node_count?: number;
  /** Edges in the graph. */
  edge_count?: number;
  /** Communities found. */
  community_count?: number;
  /** Edges present over edges possible (0–1). */
  density?: number;
  /** Mean edges per memory. */
  avg_degree?: number;
  /** The most edges any memory has. */
  max_degree?: number;
  /** Memories with more than twice the median degree. */
  god_node_count?: number;
}

export interface GraphStatsResponse {
  /** The graph's aggregate statistics. */
  stats: GraphStats;
  /** A cap (`MEMORYLAYER_GRAPH_ANALYSIS_MAX_EDGES`, `…_MAX_NODES`) left edges or memories out of the graph. */
  truncated: boolean;
}

export interface HTTPValidationError {
  /** What was wrong with the request. */
  detail?: ValidationError[];
}

export interface Health {
  /** `healthy` while the process answers. */
  status: string;
}

export interface ImportResult {
  /** Memories written. */
  imported: number;
  /** Memories already in the workspace. */
  skipped_duplicates: number;
  /** Associations written. */
  associations_imported: number;
  /** Versioned resources written, with their revisions. */
  resources_imported?: number;
  /** Versioned resources whose id or key the workspace already holds. */
  resources_skipped?: number;
  /** Items refused (see `details`). */
  errors: number;
  /** Why each refused item was refused. */
  details: unknown[];
  /** Export format 2: whether the rows kept their ids (an empty target, no id taken) or were all given derived ones (docs/export-format.md). */
  ids?: "kept" | "remapped" | null;
  /** Export format 2: rows written, by line type. */
  imported_by_kind?: {
    [key: string]: number;
  };
  /** Export format 2: rows the workspace already held (or that name one left out), by line type. */
  skipped_by_kind?: {
    [key: string]: number;
  };
}

export interface Info {
  /** `MemoryLayer.ai`, as the reference. */
  name: string;
  /** The API version. */
  version: string;
  /** A free-text description. */
  description: string;
}

/** 201 of an ingest route: the reference's ``MemoryResponse`` (no ``replayed``). */
export interface IngestedMemory {
  /** The memory. */
  memory: RememberedMemory;
}

export interface IngestionJob {
  /** The object's id. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The documents the job processes. */
  document_ids: string[];
  /** `queued`, `running`, `completed`, `failed` or `cancelled`. */
  status: string;
  /** 0 until done, then 100. */
  progress_percent: number;
  /** Documents finished. */
  documents_processed: number;
  /** Memories the job added (not those it found stored). */
  total_memories_created: number;
  /** Each failed attempt: document_id, code, error, attempt, final. */
  errors: {
    [key: string]: unknown;
  }[];
  /** `reprocess`, or `deduplicated` with the `original_document_id`. */
  metadata: {
    [key: string]: unknown;
  };
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When the first attempt started. */
  started_at: string | null;
  /** When it completed, failed or was cancelled. */
  completed_at: string | null;
}

export interface IngestionJobList {
  /** This page of jobs, newest first. */
  jobs: IngestionJob[];
  /** Jobs on this page (as the reference counts). */
  total: number;
  /** The page size asked for. */
  limit: number;
  /** How many were skipped. */
  offset: number;
}

export interface InjectRequest {
  /** The variable to set (a Python identifier). */
  key: string;
  /** Any JSON value; stored as the matching Python value. */
  value: unknown;
  /** `value` is a string of JSON: parse it first (400 `invalid_json` if not). */
  parse_json?: boolean;
}

export interface InjectResult {
  /** The variable that was set. */
  variable: string;
  /** Its Python type name. */
  type: string | null;
  /** The start of its `repr` (200 characters, then `...`). */
  preview: string;
  /** Always null (failures are HTTP errors); kept for the SDK. */
  error: string | null;
}

export interface Job {
  /** The object's id. */
  id: string;
  /** Same as `id` (the SDK reads `job_id`). */
  job_id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The thread. */
  thread_id: string | null;
  /** First message index the job reads. */
  from_index: number | null;
  /** Last message index the job reads. */
  to_index: number | null;
  /** queued, running, succeeded or failed. */
  status: string;
  /** How many times the job ran. */
  attempts: number;
  /** What went wrong (null: nothing). */
  error: string | null;
  /** What the job produced (null until it finishes). */
  result: {
    [key: string]: unknown;
  } | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When the job started. */
  started_at: string | null;
  /** When the job finished. */
  finished_at: string | null;
}

export interface JobEnvelope {
  /** The object's id. */
  id: string;
  /** Same as `id` (the SDK reads `job_id`). */
  job_id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The thread. */
  thread_id: string | null;
  /** First message index the job reads. */
  from_index: number | null;
  /** Last message index the job reads. */
  to_index: number | null;
  /** queued, running, succeeded or failed. */
  status: string;
  /** How many times the job ran. */
  attempts: number;
  /** What went wrong (null: nothing). */
  error: string | null;
  /** What the job produced (null until it finishes). */
  result: {
    [key: string]: unknown;
  } | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When the job started. */
  started_at: string | null;
  /** When the job finished. */
  finished_at: string | null;
  /** The job. */
  job: Job;
}

export interface KbArticle {
  /** `index`, `community-{n}` or `entity-{slug}-{suffix}`. */
  id: string;
  /** index, community or entity. */
  article_type: string;
  /** Its title. */
  title: string;
  /** Its body: Obsidian-flavoured Markdown with front matter and wikilinks. */
  content_md: string;
  /** What it was written from (ids, sizes). */
  metadata?: {
    [key: string]: unknown;
  };
  /** When it was generated (ISO-8601 UTC). */
  generated_at: string;
}

export interface KbArticleList {
  /** The articles: the index, communities by size, entities. */
  articles: KbArticle[];
  /** How many are in this answer. */
  total: number;
}

export interface KbBridge {
  /** The community of one end. */
  source_community_id: number;
  /** The community of the other end. */
  target_community_id: number;
  /** One end's memory. */
  memory_id_source: string;
  /** The other end's memory. */
  memory_id_target: string;
  /** The association's relationship, or `shares_entity`. */
  relationship_type: string;
  /** The link's strength (0–1). */
  strength?: number;
}

export interface KbCentralNode {
  /** The memory. */
  memory_id: string;
  /** Its first line, shortened. */
  label?: string | null;
  /** Its links. */
  degree?: number;
  /** Normalised betweenness: exact up to 100 memories, estimated from sampled sources above. */
  betweenness?: number;
  /** Its community. */
  community_id?: number;
}

export interface KbCommunity {
  /** Its number: 0 is the largest. */
  id: number;
  /** Its memories, by id. */
  memory_ids?: string[];
  /** How many memories. */
  size?: number;
  /** Links inside it over possible links (0–1). */
  cohesion_score?: number;
  /** Its three best-linked memories. */
  central_node_ids?: string[];
  /** Its article's title, when one was generated. */
  label?: string | null;
}

export interface KbGenerateRequest {
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** A named sub-space of the workspace (`_default`); reserved by the reference, not a filter. */
  context_id?: string | null;
  /** Accepted for the reference's SDK; there are no RPG nodes. */
  include_rpg?: boolean;
  /** The most community articles (1–500). */
  max_communities?: number;
  /** The most entity articles (0–200), the best-connected entities first. */
  max_god_nodes?: number;
  /** Accepted for the reference's SDK: every call writes the articles afresh. */
  regenerate?: boolean;
  /** Accepted for the reference's SDK: generation always runs in the call. */
  background?: boolean;
}

export interface KbGraphAnalysis {
  /** What was analysed. */
  snapshot: KbGraphSnapshot;
  /** Its communities, largest first. */
  communities?: KbCommunity[];
  /** The 100 most central memories, most central first. */
  central_nodes?: KbCentralNode[];
  /** Links between communities, strongest first. */
  bridges?: KbBridge[];
  /** Its statistics. */
  stats?: KbGraphStats;
}

export interface KbGraphResponse {
  /** The analysis. */
  analysis?: KbGraphAnalysis | null;
  /** Always false: every call analyses the live graph. */
  cached?: boolean;
}

export interface KbGraphSnapshot {
  /** The workspace analysed. */
  workspace_id: string;
  /** The context it was limited to (null: all). */
  context_id?: string | null;
  /** Memories in the graph. */
  node_count?: number;
  /** Links between them. */
  edge_count?: number;
  /** Always false: there are no RPG nodes here. */
  includes_rpg?: boolean;
}

export interface KbGraphStats {
  /** Memories in the graph. */
  node_count?: number;
  /** Links between them (associations and shared entities). */
  edge_count?: number;
  /** Communities found (singletons included). */
  community_count?: number;
  /** Edges over possible edges (0–1). */
  density?: number;
  /** Average links per memory. */
  avg_degree?: number;
  /** The most links any memory has. */
  max_degree?: number;
  /** Memories with more than twice the median links. */
  god_node_count?: number;
}

export interface KeyCreate {
  /** The workspaces the key may use (1–100). */
  workspaces: string[];
  /** read or read_write (default). */
  access?: "read" | "read_write";
  /** When the key stops working (null: never). */
  expires_at?: string | null;
  /** A display name. */
  name?: string | null;
  /** What the key may do in its tenant's user space (scope `user` memories, shared by every workspace of the tenant): none, read (default), or read_write. */
  shared_spaces?: "none" | "read" | "read_write";
  /** The tenant that owns the key; its workspaces become the tenant's (409 if another tenant owns one). Omitted: the tenant that owns the workspaces, or for new ones a tenant of its own. */
  tenant_id?: string | null;
}

export interface Knowledgebase {
  /** The workspace it was generated for. */
  workspace_id: string;
  /** Articles stored (index, communities, entities). */
  article_count?: number;
  /** Community articles among them. */
  community_count?: number;
  /** When it was generated (ISO-8601 UTC). */
  generated_at: string;
  /** The graph it was cut from. */
  stats?: KbGraphStats | null;
  /** How much of the graph reached an article (`coverage_ratio`, `coverage_covered`, …). */
  coverage?: {
    [key: string]: unknown;
  } | null;
}

export interface LoadRequest {
  /** The variable to store the recalled memories in. */
  var: string;
  /** What to recall from the session's workspace. */
  query: string;
  /** How many memories to load at most (1–500). */
  limit?: number;
  /** Only these memory types. */
  types?: ("episodic" | "semantic" | "procedural" | "working")[] | null;
  /** Only memories with these tags. */
  tags?: string[] | null;
  /** Drop memories under this relevance (0–1). */
  min_relevance?: number | null;
  /** Store each memory's embedding vector too. */
  include_embeddings?: boolean;
  /** Only memories of this user (recall's `user_id` filter). */
  user_id?: string | null;
}

export interface LoadResult {
  /** Memories stored in the variable. */
  count: number;
  /** The variable they were stored in, as a list of plain dicts. */
  variable: string;
  /** The query they were recalled for. */
  query: string;
  /** Size of recall's candidate pool before the limit. */
  total_available: number;
  /** Always null (failures are HTTP errors); kept for the SDK. */
  error: string | null;
}

/** A `.mcp.json` document, the shape MCP clients read. */
export interface McpJson {
  /** Each server by name: `command`/`args`/`env` (stdio) or `url`/`headers`/`type`. */
  mcpServers: {
    [key: string]: {
      [key: string]: unknown;
    };
  };
}

export interface McpServer {
  /** The object's id. */
  id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** Its stable key, unique in the workspace for its kind. */
  key: string;
  /** The user it is private to (null: shared). */
  user_id?: string | null;
  /** Its name (its key in the workspace). */
  name: string;
  /** What it offers. */
  description?: string | null;
  /** stdio, http, sse or streamable-http. */
  transport: string;
  /** The executable (stdio). */
  command?: string | null;
  /** Command arguments (stdio). */
  args: string[];
  /** Environment variables (stdio): values `***` unless revealed. */
  env: {
    [key: string]: string;
  };
  /** Its URL (http, sse, streamable-http). */
  url?: string | null;
  /** HTTP headers: values `***` unless revealed. */
  headers: {
    [key: string]: string;
  };
  /** Any JSON object, as written. */
  metadata: {
    [key: string]: unknown;
  };
  /** Where it is canonical: server, filesystem or mirrored. */
  source_mode: string;
  /** SHA-256 of its runtime config (canonical JSON). */
  manifest_hash: string;
  /** Whether it is active. */
  enabled: boolean;
  /** Its revision: 1 at creation, one more per update. */
  revision: number;
  /** The revision's ETag. */
  etag: string;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string;
}

export interface McpServerCreate {
  /** The server's name (its key in the workspace): 1-64 lowercase letters, digits and single hyphens, not starting or ending with one. Fixed once created. */
  name: string;
  /** What it offers (up to 1024). */
  description?: string | null;
  /** stdio, http, sse or streamable-http. */
  transport: "stdio" | "http" | "sse" | "streamable-http";
  /** The executable (stdio only). */
  command?: string | null;
  /** Command arguments (stdio only). */
  args?: string[];
  /** Environment variables (stdio only; secrets). */
  env?: {
    [key: string]: string;
  };
  /** Its URL (http, sse, streamable-http). */
  url?: string | null;
  /** HTTP headers (http, sse; may be secrets). */
  headers?: {
    [key: string]: string;
  };
  /** Any JSON object, stored and returned as given (not part of `content`). */
  metadata?: {
    [key: string]: unknown;
  };
  /** server, filesystem or mirrored. */
  source_mode?: "server" | "filesystem" | "mirrored";
  /** Whether it is active (default true). */
  enabled?: boolean;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** The user it is private to. */
  user_id?: string | null;
}

export interface McpServerImport {
  /** Server name -> its config, as in a `.mcp.json` (up to 256). */
  mcpServers: {
    [key: string]: unknown;
  };
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** The user they are private to. */
  user_id?: string | null;
  /** server, filesystem or mirrored. */
  source_mode?: "server" | "filesystem" | "mirrored";
}

export interface McpServerImportResponse {
  /** Servers created. */
  imported: number;
  /** Servers of the same name updated. */
  updated: number;
  /** Entries refused (each named in `errors`). */
  skipped: number;
  /** `<name>: <why>` for each entry refused. */
  errors: string[];
}

export interface McpServerListResponse {
  /** The servers, most recently changed first. */
  mcp_servers: McpServer[];
  /** How many are in this answer. */
  total_count: number;
}

export interface McpServerResolve {
  /** A server's exact name. */
  name?: string | null;
  /** What the server should offer. */
  query?: string | null;
  /** Only servers of this transport. */
  transport?: string | null;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
}

export interface McpServerResolveResponse {
  /** The server resolved (null: none). */
  mcp_server?: McpServer | null;
  /** By query: the matches, best first. */
  candidates?: McpServer[];
}

export interface McpServerResponse {
  /** The MCP server. */
  mcp_server: McpServer;
}

export interface McpServerSync {
  /** SHA-256 of the local config. */
  manifest_hash?: string;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
}

export interface McpServerSyncResponse {
  /** What the mirror should do: push, pull, conflict or in_sync. */
  action: string;
  /** Why. */
  reason: string;
  /** The server's manifest hash. */
  server_manifest_hash: string;
}

/** A partial change: the fields sent replace theirs, ``metadata`` is merged. */
export interface McpServerUpdate {
  /** What it offers (up to 1024). */
  description?: string | null;
  /** The executable (stdio only). */
  command?: string | null;
  /** New arguments (stdio only). */
  args?: string[] | null;
  /** New environment variables (stdio only). */
  env?: {
    [key: string]: string;
  } | null;
  /** Its URL (http, sse, streamable-http). */
  url?: string | null;
  /** New HTTP headers (http, sse). */
  headers?: {
    [key: string]: string;
  } | null;
  /** Keys to merge into its metadata. */
  metadata?: {
    [key: string]: unknown;
  } | null;
  /** server, filesystem or mirrored. */
  source_mode?: "server" | "filesystem" | "mirrored" | null;
  /** Ignored: computed here. */
  manifest_hash?: string | null;
  /** Enable or disable it. */
  enabled?: boolean | null;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
}

/** One memory, as the reference server's ``Memory``. ``embedding`` is sent only when asked for. */
export interface Memory {
  /** `mem_` + 16 hex. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** A named sub-space of the workspace (`_default`); reserved by the reference, not a filter. */
  context_id: string | null;
  /** The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space. */
  user_id: string | null;
  /** Who observed it (e.g. the agent), for multi-agent memories. */
  observer_id: string | null;
  /** Whom it is about. */
  subject_id: string | null;
  /** The session it came from. */
  session_id: string | null;
  /** The text. Leading and trailing whitespace is stripped; empty text is refused. */
  content: string;
  /** sha256 hex of the UTF-8 content (or segment). */
  content_hash: string;
  /** episodic, semantic, procedural or working; classified by rules when left out. */
  type: "episodic" | "semantic" | "procedural" | "working";
  /** A finer kind: preference, decision, fact, directive, profile, event, … */
  subtype: string | null;
  /** 0–1 (default 0.5): weighs ranking; decay lowers it. */
  importance: number;
  /** Labels for filtering (matched case-insensitively); stored stripped, case kept, exact duplicates removed. */
  tags: string[];
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata: {
    [key: string]: unknown;
  };
  /** Any JSON object about how the memory was refined; covered by the ETag. */
  refinement_metadata: {
    [key: string]: unknown;
  };
  /** A stable key of yours, unique in the workspace (needs Idempotency-Key and If-None-Match). */
  logical_key: string | null;
  /** Exempt from decay and archival. */
  pinned: boolean;
  /** active, archived or deleted. */
  status: string;
  /** Up to 200 characters: whole sentences of the content, chosen without an LLM (null: none yet, or tiers are off). */
  abstract?: string | null;
  /** Up to 500 characters: whole sentences of the content, chosen without an LLM (null: none yet, or tiers are off). */
  overview?: string | null;
  /** The model (and dimensions) that embedded it, e.g. `local-minilm@384`. */
  embedding_model: string | null;
  /** Always 0: recall does not count reads here (kept for the reference's wire). */
  access_count: number;
  /** Always null: recall does not record reads here (kept for the reference's wire). */
  last_accessed_at: string | null;
  /** Multiplier applied by decay (1.0: never decayed). */
  decay_factor: number;
  /** Increases by one on every change; see /revisions. */
  revision: number;
  /** `"memory-<revision>-<sha256>"`: send as If-Match to update only this version. */
  etag: string;
  /** The thread it was extracted from. */
  source_thread_id: string | null;
  /** The thread messages it was extracted from. */
  source_message_ids: string[];
  /** The memory it was derived from (e.g. a checkpoint's raw memory). */
  source_memory_id: string | null;
  /** Groups the versions of one fact: a newer one supersedes the older. */
  fact_key: string | null;
  /** An ordered stream (e.g. one chat); the server numbers its memories atomically. */
  sequence_key: string | null;
  /** Position in `sequence_key`'s stream, assigned by the server. */
  sequence_index: number | null;
  /** Start of the fact's validity. */
  valid_from: string | null;
  /** End of the fact's validity (null: still valid). */
  valid_to: string | null;
  /** The memory that replaced this one. */
  superseded_by: string | null;
  /** When the event happened (ISO-8601); temporal filters fall back to created_at. */
  event_time: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string;
  /** When it was soft-deleted (null: live). */
  deleted_at: string | null;
  /** The embedding vector (e.g. 384 floats); only with `include_embeddings`. */
  embedding?: number[] | null;
}

export interface MemoryCreate {
  /** The text. Leading and trailing whitespace is stripped; empty text is refused. */
  content: string;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** episodic, semantic, procedural or working; classified by rules when left out. */
  type?: "episodic" | "semantic" | "procedural" | "working" | null;
  /** A finer kind: preference, decision, fact, directive, profile, event, … */
  subtype?: string | null;
  /** 0–1 (default 0.5): weighs ranking; decay lowers it. */
  importance?: number;
  /** Labels for filtering (matched case-insensitively); stored stripped, case kept, exact duplicates removed. */
  tags?: string[];
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata?: {
    [key: string]: unknown;
  };
  /** A stable key of yours, unique in the workspace (needs Idempotency-Key and If-None-Match). */
  logical_key?: string | null;
  /** Any JSON object about how the memory was refined; covered by the ETag. */
  refinement_metadata?: {
    [key: string]: unknown;
  };
  /** Exempt from decay and archival. */
  pinned?: boolean;
  /** Ids of memories to link to the new one (`related_to`). */
  associations?: string[];
  /** A named sub-space of the workspace (`_default`); reserved by the reference, not a filter. */
  context_id?: string | null;
  /** Who observed it (e.g. the agent), for multi-agent memories. */
  observer_id?: string | null;
  /** Whom it is about. */
  subject_id?: string | null;
  /** The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space. */
  user_id?: string | null;
  /** The session it came from. */
  session_id?: string | null;
  /** `workspace` (default) or `user` (the user's space shared across workspaces). */
  scope?: "workspace" | "user" | null;
  /** When the event happened (ISO-8601); temporal filters fall back to created_at. */
  event_time?: string | null;
  /** An ordered stream (e.g. one chat); the server numbers its memories atomically. */
  sequence_key?: string | null;
  /** Typed relations this memory is evidence for (`EntityRelationInput`, at most 100). */
  relations?: EntityRelationInput[];
}

export interface MemoryEnvelope {
  /** The memory. */
  memory: Memory;
}

export interface MemoryList {
  /** The memories, best first (or in `time_order`). */
  memories: Memory[];
  /** The number of memories on this page (as the reference counts). */
  total_count: number;
}

export interface MemoryMutation {
  /** The memory after the write (a retry: as the first write left it). */
  memory: Memory;
  /** True when this answers a retry of the same Idempotency-Key. */
  replayed: boolean;
}

/**
 * A memory's whole semantic document (``PUT /v1/memories/{id}/semantic``), as the reference replaces it:
 * a field left out goes back to its default; importance, metadata, event time and ownership are kept.
 */
export interface MemoryReplace {
  /** The text. Leading and trailing whitespace is stripped; empty text is refused. */
  content: string;
  /** episodic, semantic, procedural or working (required). */
  type: "episodic" | "semantic" | "procedural" | "working";
  /** A finer kind: preference, decision, fact, directive, profile, event, … */
  subtype?: string | null;
  /** Labels for filtering (matched case-insensitively); stored stripped, case kept, exact duplicates removed. */
  tags?: string[];
  /** Any JSON object about how the memory was refined; covered by the ETag. */
  refinement_metadata?: {
    [key: string]: unknown;
  };
  /** Exempt from decay and archival. */
  pinned?: boolean;
}

export interface MemoryUpdate {
  /** The text. Leading and trailing whitespace is stripped; empty text is refused. */
  content?: string | null;
  /** episodic, semantic, procedural or working; classified by rules when left out. */
  type?: "episodic" | "semantic" | "procedural" | "working" | null;
  /** A finer kind: preference, decision, fact, directive, profile, event, … */
  subtype?: string | null;
  /** 0–1 (default 0.5): weighs ranking; decay lowers it. */
  importance?: number | null;
  /** Labels for filtering (matched case-insensitively); stored stripped, case kept, exact duplicates removed. */
  tags?: string[] | null;
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata?: {
    [key: string]: unknown;
  } | null;
  /** Any JSON object about how the memory was refined; covered by the ETag. */
  refinement_metadata?: {
    [key: string]: unknown;
  } | null;
  /** Exempt from decay and archival. */
  pinned?: boolean | null;
  /** When the event happened (ISO-8601); temporal filters fall back to created_at. */
  event_time?: string | null;
}

export interface MergeRequest {
  /** The entity to fold away (it becomes `merged`). */
  source_id: string;
  /** The entity that survives and takes the relations and aliases. */
  target_id: string;
  /** Why (accepted for the reference's SDK). */
  reason?: string;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
}

export interface Message {
  /** The object's id. */
  id: string;
  /** The thread. */
  thread_id: string;
  /** 0-based position in the thread. */
  message_index: number;
  /** Who spoke: user, assistant, system, tool… */
  role: string;
  /** A string, or a list of content parts `{type, text?, data?}`. */
  content: unknown;
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata: {
    [key: string]: unknown;
  };
  /** The `id` the client gave the message, if any. */
  client_message_id: string | null;
  /** Who said it (absent: the thread's user). */
  name?: string | null;
  /** The speaker's stable id, if given. */
  speaker_id?: string | null;
  /** When it was said, if the client said so (absent: when it was stored). */
  occurred_at?: string | null;
  /** When it was said: `occurred_at` when given, else when stored. */
  created_at: string;
}

export interface MessageCreate {
  /** Your id for the message: appending it again is a no-op. */
  id?: string | null;
  /** Who spoke: user, assistant, system, tool… */
  role: string;
  /** A string, or a list of content parts `{type, text?, data?}`. */
  content: string | ContentPart[];
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata?: {
    [key: string]: unknown;
  };
  /** Who said it, as OpenAI's message `name` (1–128 characters; none: the thread's user). */
  name?: string | null;
  /** A stable id for the speaker (names change; the id keeps their facts together). */
  speaker_id?: string | null;
  /** When it was said (ISO-8601; naive is UTC; at most 5 minutes ahead). Default: now. */
  created_at?: string | null;
  /** Same as `created_at` (either may be sent). */
  occurred_at?: string | null;
}

export interface MessagePage {
  /** The messages, by index. */
  messages: Message[];
  /** The thread. */
  thread_id: string;
  /** How many messages the thread has. */
  total_count: number;
}

export interface MessagesAppend {
  /** The messages, by index. */
  messages: MessageCreate[];
}

export interface MessagesAppended {
  /** The messages, by index. */
  messages: Message[];
  /** The thread. */
  thread_id: string;
  /** Messages the extraction job will read. */
  new_message_count: number;
  /** The extraction job to poll at /v1/jobs/{job_id}, if one was queued. */
  job_id: string | null;
}

export interface Observation {
  /** The memory. */
  memory_id: string;
  /** Its content. */
  content: string;
  /** Why it is in scope (`self`). */
  role: "self" | "mention" | "subject_tagged";
  /** Always null: nothing is ranked. */
  relevance?: number | null;
  /** When it happened, if known. */
  event_time?: string | null;
  /** Always null: nothing is searched. */
  match_signals?: string[] | null;
}

/** What one observer publishes about one view (PUT); the observer is named by the path. */
export interface ObservationReplace {
  /** The observer process's generation (opaque, not blank). */
  generation: string;
  /** Its cursor within the generation: a replace in the same generation must raise it. */
  sequence: number;
  /** The tool host last bound to it (with `execution_site`). */
  tool_host_id?: string | null;
  /** client, worker or remote (with `tool_host_id`). */
  execution_site?: "client" | "worker" | "remote" | null;
  /** An opaque root binding only its tool host interprets. */
  root_ref?: string | null;
  /** What it can do (a set: blanks dropped, sorted, up to 256). */
  capabilities?: string[];
  /** Version-control facts. */
  vcs?: VcsObservation | null;
  /** When it was observed, with a timezone (default: when the server got it). */
  observed_at?: string | null;
  /** When it stops being current (after `observed_at`). */
  expires_at?: string | null;
  /** Any JSON object, stored and returned as given (not part of `content`). */
  metadata?: {
    [key: string]: unknown;
  };
  /** The document's schema version (1, the only one). */
  schema_version?: number;
}

export interface PageSearch {
  /** What to look for, in words. */
  query: string;
  /** How many pages at most. */
  limit?: number;
  /** Only these documents' pages. */
  doc_ids?: string[] | null;
}

export interface PageSearchResult {
  /** Pages, most similar first. */
  pages: DocumentPage[];
  /** How many were returned. */
  total_count: number;
  /** The query, as sent. */
  query: string;
}

export interface Participant {
  /** The person's name. */
  name: string;
  /** A stable id for the speaker (names change; the id keeps their facts together). */
  speaker_id?: string | null;
  /** The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space. */
  user_id?: string | null;
}

export interface PresignedUpload {
  /** The document, `pending` until its bytes arrive. */
  document: Document;
  /** The job the bucket's upload event starts. */
  job: IngestionJob;
  /** POST the form `fields` and then the file (as `file`) here. */
  upload_url: string;
  /** Form fields the POST must carry, as given. */
  fields: {
    [key: string]: string;
  };
  /** Seconds the URL is valid for. */
  expires_in: number;
  /** The largest file the URL takes. */
  max_bytes: number;
}

export interface PromptNote {
  /** The object's id. */
  id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** Its stable key, unique in the workspace for its kind. */
  key: string;
  /** The schema version of the document. */
  schema_version: number;
  /** Any JSON object, as written. */
  metadata: {
    [key: string]: unknown;
  };
  /** Its revision: 1 at creation, one more for each accepted write. */
  revision: number;
  /** The revision's ETag (also the `ETag` header): send it as `If-Match`. */
  etag: string;
  /** Who created it (`key:<id>`; null: auth off). */
  created_by?: string | null;
  /** Who wrote this revision. */
  updated_by?: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string;
  /** When it was deleted (null: live). */
  deleted_at?: string | null;
  /** Its title. */
  title: string;
  /** Its text. */
  content: string;
  /** Whether agents should use it. */
  enabled: boolean;
}

export interface PromptNoteCreate {
  /** A title (1-200 characters, not blank). */
  title: string;
  /** The note's text (up to 64 KiB). */
  content: string;
  /** Whether agents should use it (default true). */
  enabled?: boolean;
  /** The version of this document's schema (default 1), chosen by the writer. */
  schema_version?: number;
  /** Any JSON object, stored and returned as given (not part of `content`). */
  metadata?: {
    [key: string]: unknown;
  };
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** A stable key, unique in the workspace for this kind (even after a delete): starts with a letter or digit, then letters, digits, `.`, `_`, `/`, `-`; at most 200 characters. Fixed once created. */
  key: string;
}

export interface PromptNoteListResponse {
  /** The prompt notes, most recently changed first. */
  notes: PromptNote[];
  /** Pass as `page_token` for the next page (null: the last page). */
  next_page_token?: string | null;
}

export interface PromptNoteReplace {
  /** A title (1-200 characters, not blank). */
  title: string;
  /** The note's text (up to 64 KiB). */
  content: string;
  /** Whether agents should use it (default true). */
  enabled?: boolean;
  /** The version of this document's schema (default 1), chosen by the writer. */
  schema_version?: number;
  /** Any JSON object, stored and returned as given (not part of `content`). */
  metadata?: {
    [key: string]: unknown;
  };
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
}

export interface PromptNoteResponse {
  /** The prompt note. */
  note: PromptNote;
  /** True when this answers a retry of an earlier write (same key). */
  replayed?: boolean;
}

export interface PromptNoteRevision {
  /** The prompt note as this revision left it. */
  note: PromptNote;
  /** The write that made this revision: create, replace, delete or restore. */
  action: string;
  /** The `Idempotency-Key` of that write. */
  operation_id: string;
}

export interface PromptNoteRevisionListResponse {
  /** Its revisions, newest first. */
  revisions: PromptNoteRevision[];
  /** Pass as `page_token` for the next page (null: the last page). */
  next_page_token?: string | null;
}

export interface QueryRequest {
  /** What to ask the LLM about the variables. */
  prompt: string;
  /** The variables shown to the LLM (at most 100). */
  variables?: string[];
  /** Cut the rendered variables to this many characters (default: the server's output cap). */
  max_context_chars?: number | null;
  /** Also store the LLM's answer in this variable. */
  result_var?: string | null;
}

export interface QueryResult {
  /** The LLM's answer. */
  response: string;
  /** The variables it was shown. */
  variables_used: string[];
  /** The variable the answer was stored in (null: not stored). */
  result_var: string | null;
  /** Always null (failures are HTTP errors); kept for the SDK. */
  error: string | null;
}

export interface Readiness {
  /** `ready`, or `not_ready` (with a 503). */
  status: string;
  /** Each dependency's state: database connected or unavailable. */
  services: {
    [key: string]: string;
  };
}

export interface RecallRequest {
  /** The question or keywords; `*` browses by recency without ranking. */
  query: string;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** Only these memory types (any of them). */
  types?: ("episodic" | "semantic" | "procedural" | "working")[];
  /** Only these subtypes (any of them). */
  subtypes?: string[];
  /** Only memories with every one of these tags (matched case-insensitively). */
  tags?: string[];
  /** A named sub-space of the workspace (`_default`); reserved by the reference, not a filter. */
  context_id?: string | null;
  /** Who observed it (e.g. the agent), for multi-agent memories. */
  observer_id?: string | null;
  /** Whom it is about. */
  subject_id?: string | null;
  /** The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space. */
  user_id?: string | null;
  /** Also search the shared `_global` workspace (when the key reaches it). */
  include_global?: boolean;
  /** Also search the user's `_global_user` space (needs `user_id`). */
  include_global_user?: boolean;
  /** rag (default), hybrid, llm or agentic; llm and agentic need a configured LLM. */
  mode?: "rag" | "llm" | "hybrid" | "agentic" | null;
  /** Cosine floor: loose 0.15, moderate 0.3 (default), strict 0.6. */
  tolerance?: "loose" | "moderate" | "strict";
  /** How many to return at most. */
  limit?: number;
  /** How many to skip (paging). */
  offset?: number;
  /** Send each memory's embedding vector (384 floats for the default model). */
  include_embeddings?: boolean;
  /** Drop results under this relevance (≤0 disables the floor; null: the tolerance's). */
  min_relevance?: number | null;
  /** 0–1 (default 0.2): how much newer memories are preferred. */
  recency_weight?: number | null;
  /** Expand results along associations (default true). */
  include_associations?: boolean | null;
  /** How many association hops to expand (0–5, default 2). */
  traverse_depth?: number | null;
  /** At most this many memories added by expansion (default 50). */
  max_expansion?: number | null;
  /** Only memories created after this time. */
  created_after?: string | null;
  /** Only memories created before this time. */
  created_before?: string | null;
  /** Only memories whose event_time (else created_at) is after this time. */
  event_after?: string | null;
  /** Only memories whose event_time (else created_at) is before this time. */
  event_before?: string | null;
  /** Order the results by time (asc or desc) instead of by score. */
  time_order?: "asc" | "desc" | null;
  /** abstract (≤ 200 characters), overview (≤ 500) or full (default): send each memory's extractive tier (whole sentences of it) or its content. */
  detail_level?: "abstract" | "overview" | "full";
  /** Also return archived memories. */
  include_archived?: boolean;
  /** Also return superseded versions of facts. */
  include_history?: boolean;
  /** Never return these memory ids. */
  exclude_ids?: string[];
  /** Fit the answer into about this many tokens (estimated as characters / 3): each memory steps down full → overview → abstract → cut short before it is left out. */
  budget_tokens?: number | null;
  /** Compute `retrieval_confidence` and its reasons; false (or the server's `retrieval_confidence_enabled` off) answers the compatibility values: weak, no reasons. */
  include_confidence?: boolean;
  /** Run the relational recall arm when the query names a relation (default true). */
  include_relations?: boolean;
  /** Recent conversation turns `{role?, content}`: the last few ground the query's meaning (its embedding), so a follow-up like 'and where does she live?' finds what it refers to. */
  context?: ContextTurn[];
  /** The reference's hybrid gate (use the LLM when the top score is below it). Accepted; recall here never calls an LLM, so hybrid answers as rag (docs/wire.md). */
  rag_threshold?: number;
}

/**
 * The reference server's ``RecallResult``, without the keys that are always null here (query_rewritten,
 * trajectory, …): what the SDKs read, no more.
 */
export interface RecallResponse {
  /** The memories, best first (or in `time_order`). */
  memories: RecalledMemory[];
  /** Size of the fused candidate pool before the limit. */
  total_count: number;
  /** Tokens the query used (0: no LLM involved). */
  query_tokens: number;
  /** Time the server spent searching, in milliseconds. */
  search_latency_ms: number;
  /** The mode that ran (rag without an LLM). */
  mode_used: string;
  /** How the relational arm reached its memories (empty without `include_relations` or a relation in the query). */
  relation_paths: EntityRelationPath[];
  /** Summary of the results' freshness. */
  freshness_metadata: FreshnessMetadata;
  /** The query's intent as classified by rules (e.g. `general`). */
  query_intent: string[];
  /** strong (two independent signals), moderate (keyword or relational only) or weak. */
  retrieval_confidence: "strong" | "moderate" | "weak";
  /** Why, e.g. `multiple_independent_retrieval_signals`, `empty_result`. */
  confidence_reasons: string[];
  /** What the token budget did. */
  budget_summary: BudgetSummary;
  /** LLM calls and tokens (left out: no LLM was used). */
  generation_summary?: {
    [key: string]: unknown;
  } | null;
}

/** A memory as recall returns it: the memory plus how it was found. */
export interface RecalledMemory {
  /** `mem_` + 16 hex. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** A named sub-space of the workspace (`_default`); reserved by the reference, not a filter. */
  context_id?: string | null;
  /** The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space. */
  user_id?: string | null;
  /** Who observed it (e.g. the agent), for multi-agent memories. */
  observer_id?: string | null;
  /** Whom it is about. */
  subject_id?: string | null;
  /** The session it came from. */
  session_id?: string | null;
  /** The text. Leading and trailing whitespace is stripped; empty text is refused. */
  content: string;
  /** sha256 hex of the UTF-8 content (or segment). */
  content_hash: string;
  /** episodic, semantic, procedural or working; classified by rules when left out. */
  type: "episodic" | "semantic" | "procedural" | "working";
  /** A finer kind: preference, decision, fact, directive, profile, event, … */
  subtype?: string | null;
  /** 0–1 (default 0.5): weighs ranking; decay lowers it. */
  importance: number;
  /** Labels for filtering (matched case-insensitively); stored stripped, case kept, exact duplicates removed. */
  tags: string[];
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata: {
    [key: string]: unknown;
  };
  /** Any JSON object about how the memory was refined; covered by the ETag. */
  refinement_metadata: {
    [key: string]: unknown;
  };
  /** A stable key of yours, unique in the workspace (needs Idempotency-Key and If-None-Match). */
  logical_key?: string | null;
  /** Exempt from decay and archival. */
  pinned: boolean;
  /** active, archived or deleted. */
  status: string;
  /** Up to 200 characters: whole sentences of the content, chosen without an LLM (null: none yet, or tiers are off). */
  abstract?: string | null;
  /** Up to 500 characters: whole sentences of the content, chosen without an LLM (null: none yet, or tiers are off). */
  overview?: string | null;
  /** The model (and dimensions) that embedded it, e.g. `local-minilm@384`. */
  embedding_model?: string | null;
  /** Always 0: recall does not count reads here (kept for the reference's wire). */
  access_count: number;
  /** Always null: recall does not record reads here (kept for the reference's wire). */
  last_accessed_at?: string | null;
  /** Multiplier applied by decay (1.0: never decayed). */
  decay_factor: number;
  /** Increases by one on every change; see /revisions. */
  revision: number;
  /** `"memory-<revision>-<sha256>"`: send as If-Match to update only this version. */
  etag: string;
  /** The thread it was extracted from. */
  source_thread_id?: string | null;
  /** The thread messages it was extracted from. */
  source_message_ids: string[];
  /** The memory it was derived from (e.g. a checkpoint's raw memory). */
  source_memory_id?: string | null;
  /** Groups the versions of one fact: a newer one supersedes the older. */
  fact_key?: string | null;
  /** An ordered stream (e.g. one chat); the server numbers its memories atomically. */
  sequence_key?: string | null;
  /** Position in `sequence_key`'s stream, assigned by the server. */
  sequence_index?: number | null;
  /** Start of the fact's validity. */
  valid_from?: string | null;
  /** End of the fact's validity (null: still valid). */
  valid_to?: string | null;
  /** The memory that replaced this one. */
  superseded_by?: string | null;
  /** When the event happened (ISO-8601); temporal filters fall back to created_at. */
  event_time?: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string;
  /** When it was soft-deleted (null: live). */
  deleted_at?: string | null;
  /** The embedding vector (e.g. 384 floats); only with `include_embeddings`. */
  embedding?: number[] | null;
  /** Fused relevance of the arms that found it (0–1). */
  relevance_score: number;
  /** Relevance after the scope and recency boosts; the ranking key. */
  boosted_score: number;
  /** Which arms found it: vector, keyword, context, association, recency, relational. */
  match_signals: string[];
  /** Where it was found (same_workspace for now). */
  source_scope: string;
  /** Days since it was created. */
  age_days: number;
  /** 2^(−age_days/30). */
  freshness_score: number;
  /** Present (true) only when `budget_tokens` cut its content. */
  truncated?: boolean | null;
}

export interface RefinementEdit {
  /** What the edit does: create, replace, delete or restore. */
  action: "create" | "replace" | "delete" | "restore";
  /** What it edits: prompt_note, memory, skill, agent_specification. */
  resource_kind: "prompt_note" | "memory" | "skill" | "agent_specification";
  /** The edited resource's key. */
  resource_key: string;
  /** The edited resource's id. */
  resource_id?: string | null;
  /** The ETag the edit expected. */
  expected_etag?: string | null;
  /** The ETag before the edit. */
  before_etag?: string | null;
  /** The ETag after the edit. */
  after_etag?: string | null;
  /** Why. */
  reason: string;
  /** The content the edit writes. */
  content?: {
    [key: string]: unknown;
  } | null;
  /** The resource before. */
  before?: RefinementResourceSnapshot | null;
  /** The resource after. */
  after?: RefinementResourceSnapshot | null;
  /** Whether it was applied (null: not attempted). */
  applied?: boolean | null;
  /** Why applying it failed. */
  error?: string | null;
}

export interface RefinementEvidence {
  /** What the evidence is: message, tool_result, resource_revision, …. */
  kind: "message" | "tool_result" | "resource_revision" | "evaluation" | "user_instruction" | "other";
  /** Where it is (an id, a URL, a path). */
  reference: string;
  /** What it shows. */
  description: string;
  /** A hash of the evidence's content, to detect later change. */
  content_hash?: string | null;
}

export interface RefinementExternalReference {
  /** The external system (a task tracker, an approval tool). */
  system: string;
  /** Its id there. */
  id: string;
  /** The attempt's id there. */
  attempt_id?: string | null;
}

export interface RefinementRecord {
  /** The object's id. */
  id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** Its stable key, unique in the workspace for its kind. */
  key: string;
  /** The refinement it belongs to. */
  refinement_id: string;
  /** proposal, decision, application or rollback. */
  phase: "proposal" | "decision" | "application" | "rollback";
  /** What started the refinement. */
  trigger: string;
  /** session, workspace, user, tenant or global. */
  scope: "session" | "workspace" | "user" | "tenant" | "global";
  /** What changes. */
  summary: string;
  /** Why. */
  rationale: string;
  /** What it should achieve. */
  expected_outcome: string;
  /** What supports it. */
  evidence: RefinementEvidence[];
  /** The edits. */
  edits: RefinementEdit[];
  /** The phase's outcome. */
  outcome: "proposed" | "approved" | "rejected" | "applied" | "partially_applied" | "failed" | "rolled_back" | "no_op";
  /** The record this one follows. */
  parent_record_id?: string | null;
  /** The record a rollback undoes. */
  rollback_of_record_id?: string | null;
  /** A task elsewhere. */
  task_ref?: RefinementExternalReference | null;
  /** An approval elsewhere. */
  approval_ref?: RefinementExternalReference | null;
  /** The schema version of the record (1 or 2). */
  schema_version: number;
  /** Any JSON object, as written. */
  metadata: {
    [key: string]: unknown;
  };
  /** Always 1: a record is never rewritten. */
  revision: number;
  /** Its ETag (also the `ETag` header). */
  etag: string;
  /** Who wrote it (`key:<id>`; null: auth off). */
  created_by?: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
}

export interface RefinementRecordCreate {
  /** A stable key, unique in the workspace for this kind (even after a delete): starts with a letter or digit, then letters, digits, `.`, `_`, `/`, `-`; at most 200 characters. Fixed once created. */
  key: string;
  /** The refinement this record belongs to (its records share it). */
  refinement_id: string;
  /** proposal, decision, application or rollback. */
  phase: "proposal" | "decision" | "application" | "rollback";
  /** What started the refinement. */
  trigger: string;
  /** How far it reaches: session, workspace, user, tenant or global. */
  scope: "session" | "workspace" | "user" | "tenant" | "global";
  /** What changes. */
  summary: string;
  /** Why. */
  rationale: string;
  /** What it should achieve. */
  expected_outcome: string;
  /** What supports it (1-256 items). */
  evidence: RefinementEvidence[];
  /** The edits (required unless the outcome is no_op). */
  edits?: RefinementEdit[];
  /** The phase's outcome (each phase allows its own). */
  outcome: "proposed" | "approved" | "rejected" | "applied" | "partially_applied" | "failed" | "rolled_back" | "no_op";
  /** The record this one follows. */
  parent_record_id?: string | null;
  /** The record a rollback undoes (required for rollback). */
  rollback_of_record_id?: string | null;
  /** A task elsewhere. */
  task_ref?: RefinementExternalReference | null;
  /** An approval elsewhere. */
  approval_ref?: RefinementExternalReference | null;
  /** 1, or 2 (needed for `restore` edits). */
  schema_version?: number;
  /** Any JSON object, stored and returned as given (not part of `content`). */
  metadata?: {
    [key: string]: unknown;
  };
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
}

export interface RefinementRecordListResponse {
  /** The records, newest first. */
  records: RefinementRecord[];
  /** Pass as `page_token` for the next page (null: the last page). */
  next_page_token?: string | null;
  /** How many records this page looked at (filters skip some). */
  scanned_count?: number;
  /** True when the scan stopped before the page filled: ask for the next page. */
  scan_truncated?: boolean;
}

export interface RefinementRecordResponse {
  /** The refinement record. */
  record: RefinementRecord;
  /** True when this answers a retry of an earlier write (same key). */
  replayed?: boolean;
}

export interface RefinementResourceSnapshot {
  /** The resource's id. */
  resource_id?: string | null;
  /** The resource's key. */
  resource_key: string;
  /** Its ETag at that moment. */
  etag?: string | null;
  /** Its schema version. */
  schema_version?: number | null;
  /** Its content. */
  content?: {
    [key: string]: unknown;
  } | null;
  /** Its metadata. */
  metadata?: {
    [key: string]: unknown;
  } | null;
  /** Whether it was deleted. */
  deleted?: boolean;
}

export interface ReflectRequest {
  /** The question or keywords; `*` browses by recency without ranking. */
  query: string;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** How long the reflection may be: abstract ≤150 tokens, overview ≤500, full (the default) ≤4096. */
  detail_level?: "abstract" | "overview" | "full" | null;
  /** Return the ids of the memories used. */
  include_sources?: boolean;
  /** How deep to reflect (1–5; accepted for the SDK). */
  depth?: number;
  /** Only these memory types (any of them). */
  types?: ("episodic" | "semantic" | "procedural" | "working")[];
  /** Only these subtypes (any of them). */
  subtypes?: string[];
  /** Only memories with every one of these tags (matched case-insensitively). */
  tags?: string[];
  /** A named sub-space of the workspace (`_default`); reserved by the reference, not a filter. */
  context_id?: string | null;
  /** Who observed it (e.g. the agent), for multi-agent memories. */
  observer_id?: string | null;
  /** Whom it is about. */
  subject_id?: string | null;
}

export interface ReflectResponse {
  /** The synthesis, or a note saying no LLM is configured. */
  reflection: string;
  /** Ids of the memories it rests on. */
  source_memories: string[];
  /** The memories recall found, with their relevance. */
  evidence: Evidence[];
  /** 0–1 confidence of the synthesis (0 when there is none). */
  confidence: number;
  /** LLM tokens used (input + output). */
  tokens_processed: number;
  /** Whether this server has an LLM. */
  llm_configured: boolean;
  /** True when nothing relevant was found, so nothing was claimed. */
  abstained: boolean;
}

export interface RelatedEntitiesResponse {
  /** The entity asked about. */
  entity_id: string;
  /** Related entities, most shared memories first. */
  related: RelatedEntity[];
}

export interface RelatedEntity {
  /** The related entity. */
  entity: Entity;
  /** Live memories both are found in. */
  shared_memories: number;
  /** `shared_memories` over the entity's own memory count (0-1). */
  score: number;
  /** Direct active relations between the two, if any. */
  relationships: string[];
}

/** What a write did with the memory's typed relations (docs/relations.md); sent only when something was tried. */
export interface RelationWriteResult {
  /** Relations written with both entities resolved. */
  resolved: number;
  /** Relations whose entity names matched no entity and were not created. */
  unresolved: number;
  /** Relations refused (unknown relationship, bad span, wrong entity kind). */
  rejected: number;
  /** Relations that already existed with this memory as evidence. */
  duplicate: number;
  /** Ids of the relations this write touched. */
  relation_ids: string[];
  /** One message per rejected relation. */
  errors: string[];
}

export interface RememberResponse {
  /** The memory. */
  memory: RememberedMemory;
  /** True when an Idempotency-Key replay returned the stored memory. */
  replayed: boolean;
}

/** A memory as a write returns it: with the transient ``relation_write_result`` (never stored). */
export interface RememberedMemory {
  /** `mem_` + 16 hex. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** A named sub-space of the workspace (`_default`); reserved by the reference, not a filter. */
  context_id: string | null;
  /** The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space. */
  user_id: string | null;
  /** Who observed it (e.g. the agent), for multi-agent memories. */
  observer_id: string | null;
  /** Whom it is about. */
  subject_id: string | null;
  /** The session it came from. */
  session_id: string | null;
  /** The text. Leading and trailing whitespace is stripped; empty text is refused. */
  content: string;
  /** sha256 hex of the UTF-8 content (or segment). */
  content_hash: string;
  /** episodic, semantic, procedural or working; classified by rules when left out. */
  type: "episodic" | "semantic" | "procedural" | "working";
  /** A finer kind: preference, decision, fact, directive, profile, event, … */
  subtype: string | null;
  /** 0–1 (default 0.5): weighs ranking; decay lowers it. */
  importance: number;
  /** Labels for filtering (matched case-insensitively); stored stripped, case kept, exact duplicates removed. */
  tags: string[];
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata: {
    [key: string]: unknown;
  };
  /** Any JSON object about how the memory was refined; covered by the ETag. */
  refinement_metadata: {
    [key: string]: unknown;
  };
  /** A stable key of yours, unique in the workspace (needs Idempotency-Key and If-None-Match). */
  logical_key: string | null;
  /** Exempt from decay and archival. */
  pinned: boolean;
  /** active, archived or deleted. */
  status: string;
  /** Up to 200 characters: whole sentences of the content, chosen without an LLM (null: none yet, or tiers are off). */
  abstract?: string | null;
  /** Up to 500 characters: whole sentences of the content, chosen without an LLM (null: none yet, or tiers are off). */
  overview?: string | null;
  /** The model (and dimensions) that embedded it, e.g. `local-minilm@384`. */
  embedding_model: string | null;
  /** Always 0: recall does not count reads here (kept for the reference's wire). */
  access_count: number;
  /** Always null: recall does not record reads here (kept for the reference's wire). */
  last_accessed_at: string | null;
  /** Multiplier applied by decay (1.0: never decayed). */
  decay_factor: number;
  /** Increases by one on every change; see /revisions. */
  revision: number;
  /** `"memory-<revision>-<sha256>"`: send as If-Match to update only this version. */
  etag: string;
  /** The thread it was extracted from. */
  source_thread_id: string | null;
  /** The thread messages it was extracted from. */
  source_message_ids: string[];
  /** The memory it was derived from (e.g. a checkpoint's raw memory). */
  source_memory_id: string | null;
  /** Groups the versions of one fact: a newer one supersedes the older. */
  fact_key: string | null;
  /** An ordered stream (e.g. one chat); the server numbers its memories atomically. */
  sequence_key: string | null;
  /** Position in `sequence_key`'s stream, assigned by the server. */
  sequence_index: number | null;
  /** Start of the fact's validity. */
  valid_from: string | null;
  /** End of the fact's validity (null: still valid). */
  valid_to: string | null;
  /** The memory that replaced this one. */
  superseded_by: string | null;
  /** When the event happened (ISO-8601); temporal filters fall back to created_at. */
  event_time: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string;
  /** When it was soft-deleted (null: live). */
  deleted_at: string | null;
  /** The embedding vector (e.g. 384 floats); only with `include_embeddings`. */
  embedding?: number[] | null;
  /** The typed-relation report of this write; null unless a relation was written, tried or refused. */
  relation_write_result?: RelationWriteResult | null;
}

export interface Representation {
  /** Who holds the view (unresolved: no id, `provenance.unresolved`). */
  observer: Entity;
  /** Whom it is about. */
  subject: Entity;
  /** Observer and subject are one entity (a self view). */
  is_self: boolean;
  /** The observer's memories about the subject in the workspace, newest first. */
  observations: Observation[];
  /** A compact profile (null: none). */
  profile?: RepresentationProfile | null;
  /** Always empty: no LLM. */
  derived_beliefs?: {
    [key: string]: unknown;
  }[];
  /** How it was resolved and scoped (self or intersection), with counts. */
  provenance?: {
    [key: string]: unknown;
  };
}

export interface RepresentationProfile {
  /** A profile memory's content, else the top three joined. */
  summary?: string | null;
  /** The memories it is made of. */
  source_memory_ids?: string[];
  /** Always false: no LLM. */
  derived?: boolean;
}

export interface RepresentationRequest {
  /** Who holds the view (an entity's name). */
  observer: string;
  /** Whom it is about (an entity's name). */
  subject: string;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** Resolve this side only as an entity of this type (person, organization, …). */
  observer_type?: string | null;
  /** Resolve this side only as an entity of this type (person, organization, …). */
  subject_type?: string | null;
  /** Observations at most (1-200, default 20). */
  limit?: number;
  /** Attach the profile (default true). */
  include_profile?: boolean;
}

/** The reference's body (``extraction_options``), or the options at the top level as SDK 0.2.1 sends them. */
export interface Reprocess {
  /** Extraction options to change. */
  extraction_options?: {
    [key: string]: unknown;
  } | null;
  [key: string]: unknown;
}

/** The job's fields at the top level, which SDK 0.2.1 reads, plus the reference's envelope. */
export interface ReprocessAccepted {
  /** The object's id. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The documents the job processes. */
  document_ids: string[];
  /** `queued`, `running`, `completed`, `failed` or `cancelled`. */
  status: string;
  /** 0 until done, then 100. */
  progress_percent: number;
  /** Documents finished. */
  documents_processed: number;
  /** Memories the job added (not those it found stored). */
  total_memories_created: number;
  /** Each failed attempt: document_id, code, error, attempt, final. */
  errors: {
    [key: string]: unknown;
  }[];
  /** `reprocess`, or `deduplicated` with the `original_document_id`. */
  metadata: {
    [key: string]: unknown;
  };
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When the first attempt started. */
  started_at: string | null;
  /** When it completed, failed or was cancelled. */
  completed_at: string | null;
  /** The document, back to `pending`. */
  document: Document;
  /** The new ingestion job (the same as the top level). */
  job: IngestionJob;
}

export interface Revision {
  /** The memory as it was after this revision (wire form). */
  memory: {
    [key: string]: unknown;
  };
  /** Increases by one on every change; see /revisions. */
  revision: number;
  /** What made this revision: create, replace (an update), delete, restore, supersede… */
  action: string;
  /** The write that made the revision (an idempotency key or batch id). */
  operation_id: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
}

export interface RevisionPage {
  /** The revisions, newest first. */
  revisions: Revision[];
  /** Pass as `page_token` for the next page; null on the last. */
  next_page_token: string | null;
}

export interface RlmRequest {
  /** What the loop should find out or compute. */
  goal: string;
  /** First load the memories recalled for this into `_memories`. */
  memory_query?: string | null;
  /** How many memories `memory_query` loads at most (1–500). */
  memory_limit?: number;
  /** Plan-run-judge steps at most (also capped by the server). */
  max_iterations?: number;
  /** Accepted for the SDK; the planner sees every variable anyway. */
  variables?: string[] | null;
  /** Also store the final result in this variable. */
  result_var?: string | null;
  /** `minimal` keeps only each step's iteration and action in `trace`. */
  detail_level?: "minimal" | "brief" | "standard" | "detailed";
}

export interface RlmResult {
  /** `_final_result` (else `result`) from the sandbox, as text or JSON; null if neither is set. */
  result: string | null;
  /** Steps taken. */
  iterations: number;
  /** One entry per step: `iteration`, `action` (execute or stopped), and for executions `code`, `output`, `error` and the `verdict` (ACHIEVED, CONTINUE, FAILED or goal_achieved_by_code); only `iteration` and `action` with `detail_level: minimal`. */
  trace: {
    [key: string]: unknown;
  }[];
  /** Always null (failures are HTTP errors); kept for the SDK. */
  error: string | null;
  /** True when the code set `_goal_achieved` or the LLM judged so. */
  goal_achieved: boolean;
}

/** Every variable of the sandbox (``/inspect`` without ``variable``); empty when there is no sandbox. */
export interface SandboxState {
  /** How many variables the sandbox holds. */
  variable_count: number;
  /** Each variable by name. */
  variables: {
    [key: string]: SandboxVariable;
  };
  /** Sum of the variables' pickled sizes. */
  total_size_bytes: number;
}

/** The session's sandbox, read from its row: never creates one, never runs the executor. */
export interface SandboxStatus {
  /** Whether the session has a sandbox yet (its first write creates it). */
  exists: boolean;
  /** How many variables it holds. */
  variable_count: number;
  /** The variables' names, sorted (left out: no sandbox). */
  variables?: string[] | null;
  /** Size of the stored state (compressed) in bytes. */
  total_size_bytes: number;
  /** Address-space limit of each execution. */
  memory_limit_bytes: number;
  /** Largest state the sandbox may store (413 `state_too_large`). */
  state_limit_bytes: number;
  /** `created_at`, `exec_count`, `total_operations`, `last_exec_at`, `checkpointed_at` and `restored` (always true: every call starts from the stored state); empty without a sandbox. */
  metadata: {
    [key: string]: unknown;
  };
}

export interface SandboxVariable {
  /** The value's Python type name, e.g. `list`. */
  type: string;
  /** The start of its `repr`, cut at `preview_chars` (then `...`). */
  preview: string;
  /** Size of the pickled value in bytes. */
  size_bytes: number;
}

/** One variable (``/inspect?variable=…``). */
export interface SandboxVariableDetail {
  /** The variable's name. */
  variable: string;
  /** The value's Python type name, e.g. `list`. */
  type: string;
  /** The start of its `repr`, cut at `preview_chars` (then `...`). */
  preview: string;
  /** Size of the pickled value in bytes. */
  size_bytes: number;
}

export interface SectionLimits {
  /** At most this many directive items (0–100, default 8). */
  directives?: number;
  /** At most this many working-memory items (0–200, default 20). */
  working_memory?: number;
  /** At most this many recent-activity items (0–200, default 20). */
  recent_activity?: number;
  /** At most this many contradiction items (0–100, default 5). */
  contradictions?: number;
  /** At most this many checkpoint items (0–100, default 8). */
  checkpoints?: number;
}

export interface SeedEntitiesRequest {
  /** The entities to create or update (1–1000). */
  entities: SeedEntity[];
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
}

export interface SeedEntitiesResponse {
  /** The workspace seeded. */
  workspace_id: string;
  /** Entities created or updated. */
  seeded: number;
  /** Names with no letter or digit, so not stored. */
  failed: string[];
  /** Names whose entity_type is not a kind (`[a-z][a-z0-9_]{0,63}` after case folding). */
  skipped_invalid_type: string[];
  /** How many of `seeded` are new entities. */
  created: number;
  /** The seeded entities' ids, in request order. */
  entity_ids: string[];
}

export interface SeedEntity {
  /** The canonical name. */
  name: string;
  /** Its kind (`person`, `org`, …); folded to `[a-z0-9_]`. */
  entity_type?: string;
  /** Other names it resolves by (up to 100). */
  aliases?: string[];
  /** Kept in its provenance. */
  description?: string | null;
  /** Ids in outside systems, e.g. `{"wikidata": "Q95"}`. */
  external_ids?: {
    [key: string]: string | number;
  };
  /** Its confidence (an update only raises it). */
  confidence?: number;
}

export interface SequenceKeys {
  /** Every live `sequence_key` of the workspace. */
  keys: string[];
}

export interface Session {
  /** The object's id. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** A named sub-space of the workspace (`_default`); reserved by the reference, not a filter. */
  context_id: string | null;
  /** The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space. */
  user_id: string | null;
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata: {
    [key: string]: unknown;
  };
  /** Commit the session's working memory when it ends or expires (default true). */
  auto_commit: boolean;
  /** When the session was committed (null: not yet). */
  committed_at: string | null;
  /** When it expires (ISO-8601 UTC). */
  expires_at: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
}

export interface SessionCreate {
  /** The session's id (else `sess_` + 32 hex). */
  session_id?: string | null;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** Seconds to live (sessions: 60–86400, default 3600; working memory: stored, not enforced). */
  ttl_seconds?: number;
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata?: {
    [key: string]: unknown;
  };
  /** A named sub-space of the workspace (`_default`); reserved by the reference, not a filter. */
  context_id?: string | null;
  /** The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space. */
  user_id?: string | null;
  /** Commit the session's working memory when it ends or expires (default true). */
  auto_commit?: boolean;
  /** Working memory to set at creation, as `{key: value}`. */
  working_memory?: {
    [key: string]: unknown;
  } | null;
  /** Also return a briefing of recent workspace activity. */
  briefing?: boolean;
  /** Briefing options: lookback_minutes or lookback_hours, limit. */
  briefing_options?: {
    [key: string]: unknown;
  } | null;
}

export interface SessionCreated {
  /** The object's id. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** A named sub-space of the workspace (`_default`); reserved by the reference, not a filter. */
  context_id: string | null;
  /** The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space. */
  user_id: string | null;
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata: {
    [key: string]: unknown;
  };
  /** Commit the session's working memory when it ends or expires (default true). */
  auto_commit: boolean;
  /** When the session was committed (null: not yet). */
  committed_at: string | null;
  /** When it expires (ISO-8601 UTC). */
  expires_at: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** The session. */
  session: Session;
  /** The workspace briefing, when `briefing` was asked. */
  briefing: {
    [key: string]: unknown;
  } | null;
}

/** A session, wrapped and flat (the sync SDK 0.2.1 builds `Session(**data)` from the top level). */
export interface SessionEnvelope {
  /** The object's id. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** A named sub-space of the workspace (`_default`); reserved by the reference, not a filter. */
  context_id: string | null;
  /** The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space. */
  user_id: string | null;
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata: {
    [key: string]: unknown;
  };
  /** Commit the session's working memory when it ends or expires (default true). */
  auto_commit: boolean;
  /** When the session was committed (null: not yet). */
  committed_at: string | null;
  /** When it expires (ISO-8601 UTC). */
  expires_at: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** The session. */
  session: Session;
}

export interface SessionList {
  /** The sessions. */
  sessions: Session[];
  /** The number of sessions sent. */
  total_count: number;
}

export interface Skill {
  /** The object's id. */
  id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** Its stable key, unique in the workspace for its kind. */
  key: string;
  /** The user it is private to (null: shared). */
  user_id?: string | null;
  /** Its name (its key in the workspace). */
  name: string;
  /** What it does. */
  description: string;
  /** Its version. */
  version: string;
  /** A license identifier. */
  license?: string | null;
  /** Compatibility notes. */
  compatibility?: string | null;
  /** Space-separated tools it may use. */
  allowed_tools?: string | null;
  /** The SKILL.md body (markdown). */
  body: string;
  /** Any JSON object, as written. */
  metadata: {
    [key: string]: unknown;
  };
  /** Where it is canonical: server, filesystem or mirrored. */
  source_mode: string;
  /** SHA-256 of its rendered SKILL.md. */
  manifest_hash: string;
  /** SHA-256 over its files' sorted `path:content_hash` (empty: no files). */
  bundle_hash: string;
  /** Whether it is active. */
  enabled: boolean;
  /** Its manifest revision: 1 at creation, one more per accepted write. */
  revision: number;
  /** The revision's ETag (also the `ETag` header): send it as `If-Match`. */
  etag: string;
  /** Who created it (`key:<id>`; null: auth off). */
  created_by?: string | null;
  /** Who wrote this revision. */
  updated_by?: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string;
  /** When it was deleted (null: live). */
  deleted_at?: string | null;
}

export interface SkillCreate {
  /** The skill's name (its key in the workspace): 1-64 lowercase letters, digits and single hyphens, not starting or ending with one. Fixed once created. */
  name: string;
  /** What the skill does (1-1024 characters). */
  description: string;
  /** Its version (default 0.1.0). */
  version?: string;
  /** A license identifier. */
  license?: string | null;
  /** Compatibility notes (up to 500 characters). */
  compatibility?: string | null;
  /** A space-separated list of the tools it may use. */
  allowed_tools?: string | null;
  /** The SKILL.md body, markdown (up to 256 KiB). */
  body?: string;
  /** Any JSON object, stored and returned as given (not part of `content`). */
  metadata?: {
    [key: string]: unknown;
  };
  /** Where it is canonical: server, filesystem, mirrored. */
  source_mode?: "server" | "filesystem" | "mirrored";
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** The user it is private to (none: shared). */
  user_id?: string | null;
  /** Bundle files written with it (unconditional create only; up to 256). */
  files?: SkillFileInline[];
}

export interface SkillFileInfo {
  /** Its path in the bundle. */
  path: string;
  /** script, reference, asset (by its top directory) or other. */
  kind: string;
  /** Its size in bytes. */
  size_bytes: number;
  /** SHA-256 of its content. */
  content_hash: string;
  /** Its MIME type, as uploaded. */
  mime_type?: string | null;
}

export interface SkillFileInline {
  /** Its path in the bundle (e.g. `scripts/run.py`). */
  path: string;
  /** Its text (UTF-8). */
  content?: string;
  /** Its MIME type (`type/subtype`, optional `; name=value` parameters). */
  mime_type?: string | null;
}

export interface SkillFileUpsert {
  /** Its content, base64. */
  content_b64?: string | null;
  /** Its MIME type (`type/subtype`, optional `; name=value` parameters). */
  mime_type?: string | null;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
}

export interface SkillFilesListResponse {
  /** Its files, by path. */
  files: SkillFileInfo[];
}

export interface SkillListResponse {
  /** The skills, most recently changed first. */
  skills: Skill[];
  /** How many are in this answer. */
  total_count: number;
}

/** A whole manifest (PUT /v1/skills/{id}/manifest): what a conditional write replaces. */
export interface SkillReplace {
  /** What the skill does (1-1024 characters). */
  description: string;
  /** Its version (default 0.1.0). */
  version?: string;
  /** A license identifier. */
  license?: string | null;
  /** Compatibility notes (up to 500 characters). */
  compatibility?: string | null;
  /** A space-separated list of the tools it may use. */
  allowed_tools?: string | null;
  /** The SKILL.md body, markdown (up to 256 KiB). */
  body?: string;
  /** Any JSON object, stored and returned as given (not part of `content`). */
  metadata?: {
    [key: string]: unknown;
  };
  /** Where it is canonical: server, filesystem, mirrored. */
  source_mode?: "server" | "filesystem" | "mirrored";
  /** Whether it is active (default true). */
  enabled?: boolean;
}

export interface SkillResolve {
  /** A skill's exact name. */
  name?: string | null;
  /** What the skill should do (words). */
  query?: string | null;
  /** Accepted; one workspace here. */
  scope_hint?: string | null;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** Accepted; skills here have no addenda. */
  include_addenda?: boolean;
}

export interface SkillResolveResponse {
  /** The skill resolved (null: none). */
  skill?: Skill | null;
  /** By query: the matching skills, best first. */
  candidates?: Skill[];
}

export interface SkillResponse {
  /** The skill. */
  skill: Skill;
  /** True when this answers a retry of an earlier write (same key). */
  replayed?: boolean;
}

export interface SkillRevision {
  /** The skill as this revision left it (its current `bundle_hash`). */
  skill: Skill;
  /** The write that made this revision: create, replace, delete or restore. */
  action: string;
  /** The `Idempotency-Key` of that write. */
  operation_id: string;
}

export interface SkillRevisionListResponse {
  /** Its manifest revisions, newest first. */
  revisions: SkillRevision[];
  /** Pass as `page_token` for the next page (null: the last page). */
  next_page_token?: string | null;
}

export interface SkillSync {
  /** SHA-256 of the local SKILL.md. */
  manifest_hash?: string;
  /** SHA-256 of the local bundle. */
  bundle_hash?: string;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
}

export interface SkillSyncResponse {
  /** What the mirror should do: push, pull, conflict or in_sync. */
  action: string;
  /** Why. */
  reason: string;
  /** The server's manifest hash. */
  server_manifest_hash: string;
  /** The server's bundle hash. */
  server_bundle_hash: string;
}

/** A partial change (PUT /v1/skills/{id}): the fields sent replace theirs, ``metadata`` is merged. */
export interface SkillUpdate {
  /** A new description (1-1024 characters). */
  description?: string | null;
  /** A new version. */
  version?: string | null;
  /** A license identifier. */
  license?: string | null;
  /** Compatibility notes (up to 500 characters). */
  compatibility?: string | null;
  /** A space-separated list of the tools it may use. */
  allowed_tools?: string | null;
  /** A new SKILL.md body. */
  body?: string | null;
  /** Keys to merge into its metadata. */
  metadata?: {
    [key: string]: unknown;
  } | null;
  /** server, filesystem or mirrored. */
  source_mode?: "server" | "filesystem" | "mirrored" | null;
  /** Enable or disable it. */
  enabled?: boolean | null;
  /** Ignored: computed here. */
  manifest_hash?: string | null;
  /** Ignored: computed here. */
  bundle_hash?: string | null;
}

/** What a tenant stores now (read when asked, not per hour). */
export interface StoredUsage {
  /** The tenant. */
  tenant_id: string;
  /** Live memories (not deleted). */
  memories: number;
  /** Their text's bytes (UTF-8). */
  bytes: number;
}

export interface Thread {
  /** The object's id. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space. */
  user_id: string | null;
  /** A named sub-space of the workspace (`_default`); reserved by the reference, not a filter. */
  context_id: string | null;
  /** Who observed it (e.g. the agent), for multi-agent memories. */
  observer_id: string | null;
  /** Whom it is about. */
  subject_id: string | null;
  /** A title. */
  title: string | null;
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata: {
    [key: string]: unknown;
  };
  /** The surface the thread belongs to: `web` (null means web) or `office`. */
  scope: string | null;
  /** Who owns the thread: `user` (default) or `workspace`. */
  ownership: string | null;
  /** The thread this one continues. */
  parent_thread: string | null;
  /** Messages in the thread. */
  message_count: number;
  /** The last message index extraction has read. */
  last_decomposed_index: number | null;
  /** What to do when the thread goes idle (e.g. `decompose`). */
  idle_action: string | null;
  /** A summary of the thread (null: none yet). */
  summary: string | null;
  /** When extraction last ran. */
  last_decomposed_at: string | null;
  /** When it expires (ISO-8601 UTC). */
  expires_at: string | null;
  /** When the thread was hidden (null: visible). */
  hidden_at: string | null;
  /** Who takes part: `{name, speaker_id?, user_id?}`, as created and as messages named them. */
  participants?: {
    [key: string]: unknown;
  }[];
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string;
}

export interface ThreadCreate {
  /** The thread's id (generated when left out). */
  id?: string | null;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space. */
  user_id?: string | null;
  /** A named sub-space of the workspace (`_default`); reserved by the reference, not a filter. */
  context_id?: string | null;
  /** Who observed it (e.g. the agent), for multi-agent memories. */
  observer_id?: string | null;
  /** Whom it is about. */
  subject_id?: string | null;
  /** A title. */
  title?: string | null;
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata?: {
    [key: string]: unknown;
  };
  /** When it expires (ISO-8601 UTC). */
  expires_at?: string | null;
  /** What to do when the thread goes idle (e.g. `decompose`). */
  idle_action?: string | null;
  /** The surface the thread belongs to: `web` (null means web) or `office`. */
  scope?: string | null;
  /** Who owns the thread: `user` (default) or `workspace`. */
  ownership?: string;
  /** The thread this one continues. */
  parent_thread?: string | null;
  /** Who takes part: `{name, speaker_id?, user_id?}`; a message naming one of them is theirs. */
  participants?: Participant[];
}

/** The thread wrapped, as the reference, and flat too: SDK 0.2.1 builds ``ChatThread(**data)``. */
export interface ThreadEnvelope {
  /** The object's id. */
  id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space. */
  user_id: string | null;
  /** A named sub-space of the workspace (`_default`); reserved by the reference, not a filter. */
  context_id: string | null;
  /** Who observed it (e.g. the agent), for multi-agent memories. */
  observer_id: string | null;
  /** Whom it is about. */
  subject_id: string | null;
  /** A title. */
  title: string | null;
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata: {
    [key: string]: unknown;
  };
  /** The surface the thread belongs to: `web` (null means web) or `office`. */
  scope: string | null;
  /** Who owns the thread: `user` (default) or `workspace`. */
  ownership: string | null;
  /** The thread this one continues. */
  parent_thread: string | null;
  /** Messages in the thread. */
  message_count: number;
  /** The last message index extraction has read. */
  last_decomposed_index: number | null;
  /** What to do when the thread goes idle (e.g. `decompose`). */
  idle_action: string | null;
  /** A summary of the thread (null: none yet). */
  summary: string | null;
  /** When extraction last ran. */
  last_decomposed_at: string | null;
  /** When it expires (ISO-8601 UTC). */
  expires_at: string | null;
  /** When the thread was hidden (null: visible). */
  hidden_at: string | null;
  /** Who takes part: `{name, speaker_id?, user_id?}`, as created and as messages named them. */
  participants?: {
    [key: string]: unknown;
  }[];
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string;
  /** The thread. */
  thread: Thread;
}

export interface ThreadFull {
  /** The thread. */
  thread: Thread;
  /** The messages, by index. */
  messages: Message[];
  /** Messages in the thread. */
  total_messages: number;
}

export interface ThreadList {
  /** The threads. */
  threads: Thread[];
  /** The number of threads on this page. */
  total_count: number;
}

export interface ThreadUpdate {
  /** A title. */
  title?: string | null;
  /** Any JSON object, stored as given (the server adds a few keys of its own). */
  metadata?: {
    [key: string]: unknown;
  } | null;
  /** What to do when the thread goes idle (e.g. `decompose`). */
  idle_action?: string | null;
}

export interface Token {
  /** The object's id. */
  id: string;
  /** The token's name. */
  name: string;
  /** Who holds the token (a label; default User). */
  principal_type?: string;
  /** The workspaces the token may use: the minting key's that its patterns matched. */
  workspace_patterns: string[];
  /** The scopes it was minted with (`*`, read, write, shared:read, …). */
  scopes: string[];
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When it stops working (ISO-8601 UTC; never later than its key's; null: never). */
  expires_at: string | null;
  /** Whether it was revoked (it is refused from then on). */
  revoked?: boolean;
  /** What its scopes allow in its workspaces. */
  access: "read" | "read_write";
  /** What its scopes allow in its tenant's user space. */
  shared_spaces: "none" | "read" | "read_write";
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
}

export interface TokenCreate {
  /** A display name. */
  name: string;
  /** Who holds the token (a label; default User). */
  principal_type?: string;
  /** Which of the minting key's workspaces the token may use: ids or globs (default `*`, all). The admin key names workspaces outright. */
  workspace_patterns?: string[];
  /** `*` (all the minting key may do, the default), `read`, `write`, `shared:read`, `shared:write` (the tenant's user space). Never more than the minting key may do (403). */
  scopes?: string[];
  /** Days until it stops working (null: when its key does). */
  expires_in_days?: number | null;
}

export interface TokenCreated {
  /** The object's id. */
  id: string;
  /** The token's name. */
  name: string;
  /** Who holds the token (a label; default User). */
  principal_type?: string;
  /** The workspaces the token may use: the minting key's that its patterns matched. */
  workspace_patterns: string[];
  /** The scopes it was minted with (`*`, read, write, shared:read, …). */
  scopes: string[];
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When it stops working (ISO-8601 UTC; never later than its key's; null: never). */
  expires_at: string | null;
  /** Whether it was revoked (it is refused from then on). */
  revoked?: boolean;
  /** What its scopes allow in its workspaces. */
  access: "read" | "read_write";
  /** What its scopes allow in its tenant's user space. */
  shared_spaces: "none" | "read" | "read_write";
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** The secret: shown once, store it now (send it as `Authorization: Bearer`). */
  token: string;
}

export interface TokenList {
  /** The tokens under the calling key, newest first. */
  tokens: Token[];
}

export interface TraversePath {
  /** Memory ids along the path. */
  nodes: string[];
  /** The edges along the path. */
  edges: Association[];
  /** The path's score (product of strengths, decayed per hop). */
  total_strength: number;
  /** How many hops from the start memory the path takes. */
  depth: number;
}

export interface TraverseRequest {
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** How many hops to walk (1–5, default 2). */
  max_depth?: number;
  /** Only edges of these types (empty: all). */
  relationship_types?: string[];
  /** both (default), outgoing or incoming. */
  direction?: "both" | "outgoing" | "incoming";
  /** Only edges at least this strong. */
  min_strength?: number;
}

export interface TraverseResponse {
  /** Every path from the start memory, breadth-first. */
  paths: TraversePath[];
  /** How many paths were found. */
  total_paths: number;
  /** The distinct memories reached: the start first, then in the order the walk reached them. */
  unique_nodes: string[];
  /** True when a node, edge or size bound stopped the walk early. */
  truncated: boolean;
  /** Time the walk took, in milliseconds. */
  query_latency_ms: number;
}

export interface UploadRequest {
  /** The file's name (its type is read from it). */
  filename: string;
  /** The file's content type. */
  content_type?: string | null;
  /** As upload's form fields. */
  extraction_options?: {
    [key: string]: unknown;
  } | null;
}

/** One tenant's use in one hour of one operation kind, ended one way (GET /v1/admin/usage). */
export interface UsageHour {
  /** The tenant (`:admin`: the admin key's own calls). */
  tenant_id: string;
  /** The hour's start (ISO-8601 UTC). */
  hour: string;
  /** read, write, recall, upload (priced by size), sandbox, admin (keys and tokens), or document (a document's pages, counted when its job completes), extraction (a conversation's extraction job: its model tokens). */
  kind: string;
  /** ok; client_error (4xx) or server_error (5xx); replayed (an Idempotency-Key answered from the store: billed once, as its first request). */
  outcome: string;
  /** Requests. */
  requests: number;
  /** The rate limiter's units: a request's weight by its work and size. */
  units: number;
  /** Document pages parsed. */
  document_pages: number;
  /** Milliseconds of sandbox (context environment) execution. */
  sandbox_ms: number;
  /** LLM tokens in and out, as the provider reported them. */
  generation_tokens: number;
  /** Embedding tokens, where the provider reports them (OpenAI). */
  embedding_tokens: number;
}

export interface UsageReport {
  /** The first hour reported (ISO-8601 UTC). */
  since: string;
  /** The end of the period (exclusive). */
  until: string;
  /** The tenant asked for (null: every tenant). */
  tenant_id: string | null;
  /** Hourly rows, oldest first. */
  hours: UsageHour[];
  /** True when the row cap (10,000) cut the rows: ask again with `since` at the last hour returned. */
  truncated: boolean;
  /** Each tenant's stored memories and bytes now. */
  stored: StoredUsage[];
}

export interface UserCounts {
  /** The `user_id` the workspace's rows carry. */
  user_id: string;
  /** Live memories carrying this user_id. */
  memories: number;
  /** Threads of this user. */
  threads: number;
  /** Sessions of this user (live or not yet expired). */
  sessions: number;
}

export interface UserErase {
  /** Count what would be erased; delete nothing. */
  dry_run?: boolean;
}

export interface UserList {
  /** The workspace listed. */
  workspace_id: string;
  /** Its users, by id. */
  users: UserCounts[];
  /** Pass as `after` for the next page (null: the last page). */
  next_after: string | null;
}

export interface UserRepresentation {
  /** The user. */
  user_id: string;
  /** The user's memories in the user space, newest first. */
  observations: Observation[];
  /** A compact profile (null: none). */
  profile?: RepresentationProfile | null;
  /** Always empty: no LLM. */
  derived_beliefs?: {
    [key: string]: unknown;
  }[];
  /** How it was assembled, with counts. */
  provenance?: {
    [key: string]: unknown;
  };
}

export interface UserRepresentationRequest {
  /** The user (required here: keys carry no user). */
  user_id?: string | null;
  /** The workspace; when not named here: `?workspace_id`, the `X-Workspace-ID` header, the `X-Session-ID` session's workspace, the key's only workspace, then `_default`. */
  workspace_id?: string | null;
  /** Observations at most (1-200, default 20). */
  limit?: number;
  /** Attach the profile (default true). */
  include_profile?: boolean;
}

export interface ValidationError {
  /** Where: `body`, then the path into it. */
  loc: (string | number)[];
  /** What is wrong. */
  msg: string;
  /** The error's kind, e.g. `missing` or `string_too_short`. */
  type: string;
  /** The value that was refused. */
  input?: unknown;
  /** Details of the rule. */
  ctx?: {
    [key: string]: unknown;
  };
}

/** Portable version-control facts about a view (never a host-local path). */
export interface VcsObservation {
  /** The VCS: git. */
  kind?: "git";
  /** An opaque repository id. */
  repository_id?: string | null;
  /** An opaque worktree id. */
  worktree_id?: string | null;
  /** The checked-out revision. */
  head_revision?: string | null;
  /** The branch. */
  branch?: string | null;
  /** Whether there are uncommitted changes. */
  dirty?: boolean | null;
  /** Whether HEAD is detached. */
  detached?: boolean | null;
}

export interface ViewCreate {
  /** directory, git_worktree, checkout, snapshot or overlay. */
  kind: "directory" | "git_worktree" | "checkout" | "snapshot" | "overlay";
  /** A name to show. */
  display_name?: string | null;
  /** The memory context it works in. */
  memory_context_id?: string | null;
  /** What it can do (a set: blanks dropped, sorted, up to 256). */
  capabilities?: string[];
  /** Any JSON object, stored and returned as given (not part of `content`). */
  metadata?: {
    [key: string]: unknown;
  };
  /** The document's schema version (1, the only one). */
  schema_version?: number;
  /** The view's stable id in the workspace (its key, fixed once created; a tombstone keeps it): starts with a letter or digit, then letters, digits and `. _ : @ + = ~ -`; at most 200. */
  view_id: string;
}

/** A view's whole description (PUT): what a conditional replace writes. */
export interface ViewReplace {
  /** directory, git_worktree, checkout, snapshot or overlay. */
  kind: "directory" | "git_worktree" | "checkout" | "snapshot" | "overlay";
  /** A name to show. */
  display_name?: string | null;
  /** The memory context it works in. */
  memory_context_id?: string | null;
  /** What it can do (a set: blanks dropped, sorted, up to 256). */
  capabilities?: string[];
  /** Any JSON object, stored and returned as given (not part of `content`). */
  metadata?: {
    [key: string]: unknown;
  };
  /** The document's schema version (1, the only one). */
  schema_version?: number;
}

export interface WorkingMemoryEntry {
  /** A working-memory key (1–256 characters). */
  key: string;
  /** Any JSON value. */
  value: unknown;
  /** Seconds to live (sessions: 60–86400, default 3600; working memory: stored, not enforced). */
  ttl_seconds: number | null;
  /** When it expires (ISO-8601 UTC). */
  expires_at: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string | null;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string | null;
}

export interface WorkingMemoryItem {
  /** A working-memory key (1–256 characters). */
  key: string;
  /** Any JSON value. */
  value: unknown;
  /** Seconds to live (sessions: 60–86400, default 3600; working memory: stored, not enforced). */
  ttl_seconds?: number | null;
}

/**
 * One key (``{key, value, ttl_seconds}``, the reference's form), or several: ``{"items": {k: v}}`` or
 * ``{"items": [{key, value, ttl_seconds}, …]}``.
 */
export interface WorkingMemorySet {
  /** A working-memory key (1–256 characters). */
  key?: string | null;
  /** Any JSON value. */
  value?: unknown;
  /** Seconds to live (sessions: 60–86400, default 3600; working memory: stored, not enforced). */
  ttl_seconds?: number | null;
  /** Several entries at once: `{key: value}` or `[{key, value, ttl_seconds}]`. */
  items?: {
    [key: string]: unknown;
  } | WorkingMemoryItem[] | null;
}

/**
 * What setting working memory answers: the entry (`{key, value}` was sent) or, for `{items}`, the entries
 * with their count. Only the shape that applies is sent (the route leaves the other's fields unset).
 */
export interface WorkingMemorySetResult {
  /** The key set (one entry). */
  key?: string | null;
  /** Its value, any JSON value (one entry). */
  value?: unknown;
  /** Seconds to live, as stored (one entry). */
  ttl_seconds?: number | null;
  /** When the entry expires (one entry). */
  expires_at?: string | null;
  /** When it was created (one entry). */
  created_at?: string | null;
  /** When it last changed (one entry). */
  updated_at?: string | null;
  /** The entries (`items` was sent). */
  items?: WorkingMemoryEntry[] | null;
  /** The number of entries sent (`items`). */
  total_count?: number | null;
}

export interface Workspace {
  /** The object's id. */
  id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** A display name. */
  name: string;
  /** Any JSON object of settings. */
  settings: {
    [key: string]: unknown;
  };
  /** Labels, stored as sent; `GET /v1/workspaces?tags=` filters by them. */
  tags: string[];
  /** The model (and dimensions) that embedded it, e.g. `local-minilm@384`. */
  embedding_model: string | null;
  /** When it was created (ISO-8601 UTC); a reserved workspace not used yet: when the database was set up. */
  created_at: string;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string;
}

export interface WorkspaceCreate {
  /** The workspace's id (generated when left out). */
  id?: string | null;
  /** A display name. */
  name: string;
  /** Any JSON object of settings. */
  settings?: {
    [key: string]: unknown;
  };
  /** Labels, stored as sent; `GET /v1/workspaces?tags=` filters by them. */
  tags?: string[];
}

/** A workspace, wrapped and flat (SDK 0.2.1 builds `Workspace(**data)` from the top level). */
export interface WorkspaceEnvelope {
  /** The object's id. */
  id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** A display name. */
  name: string;
  /** Any JSON object of settings. */
  settings: {
    [key: string]: unknown;
  };
  /** Labels, stored as sent; `GET /v1/workspaces?tags=` filters by them. */
  tags: string[];
  /** The model (and dimensions) that embedded it, e.g. `local-minilm@384`. */
  embedding_model: string | null;
  /** When it was created (ISO-8601 UTC); a reserved workspace not used yet: when the database was set up. */
  created_at: string;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string;
  /** The workspace. */
  workspace: Workspace;
  /** Counts of memories (GET only). */
  stats?: {
    [key: string]: unknown;
  } | null;
}

export interface WorkspaceList {
  /** The workspaces. */
  workspaces: Workspace[];
}

export interface WorkspaceUpdate {
  /** A display name. */
  name?: string | null;
  /** Any JSON object of settings. */
  settings?: {
    [key: string]: unknown;
  } | null;
  /** Labels, stored as sent; `GET /v1/workspaces?tags=` filters by them. */
  tags?: string[] | null;
}

export interface WorkspaceVcsObservation {
  /** The VCS: git. */
  kind: string;
  /** An opaque repository id. */
  repository_id?: string | null;
  /** An opaque worktree id. */
  worktree_id?: string | null;
  /** The checked-out revision. */
  head_revision?: string | null;
  /** The branch. */
  branch?: string | null;
  /** Whether there are uncommitted changes. */
  dirty?: boolean | null;
  /** Whether HEAD is detached. */
  detached?: boolean | null;
}

export interface WorkspaceView {
  /** The object's id. */
  id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** Its stable id in the workspace (how it is addressed). */
  view_id: string;
  /** directory, git_worktree, checkout, snapshot or overlay. */
  kind: "directory" | "git_worktree" | "checkout" | "snapshot" | "overlay";
  /** A name to show. */
  display_name?: string | null;
  /** The memory context it works in. */
  memory_context_id?: string | null;
  /** What it can do (sorted, unique). */
  capabilities: string[];
  /** Any JSON object, as written. */
  metadata: {
    [key: string]: unknown;
  };
  /** The document's schema version. */
  schema_version: number;
  /** Its revision: 1 at creation, one more for each accepted write. */
  revision: number;
  /** Where its last change sits in the database's order of changes. */
  sequence: number;
  /** The revision's ETag (also the `ETag` header): send it as `If-Match`. */
  etag: string;
  /** Who created it (`key:<id>`; null: auth off). */
  created_by?: string | null;
  /** Who wrote this revision. */
  updated_by?: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string;
  /** When it was deleted (null: live). */
  deleted_at?: string | null;
}

export interface WorkspaceViewListResponse {
  /** The views, most recently changed first. */
  views: WorkspaceView[];
  /** Pass as `page_token` for the next page (null: the last page). */
  next_page_token?: string | null;
}

export interface WorkspaceViewObservation {
  /** The object's id. */
  id: string;
  /** The tenant owning the workspace (`_default` unless keys say otherwise). */
  tenant_id: string;
  /** The workspace it belongs to. */
  workspace_id: string;
  /** The view it is about. */
  view_id: string;
  /** Who published it (how it is addressed under the view). */
  observer_id: string;
  /** The observer process's generation. */
  generation: string;
  /** The observer's cursor within the generation. */
  sequence: number;
  /** The tool host last bound to it. */
  tool_host_id?: string | null;
  /** client, worker or remote. */
  execution_site?: "client" | "worker" | "remote" | null;
  /** An opaque root binding for the tool host. */
  root_ref?: string | null;
  /** What it can do (sorted, unique). */
  capabilities: string[];
  /** Version-control facts. */
  vcs?: WorkspaceVcsObservation | null;
  /** When it was observed. */
  observed_at: string;
  /** When it stops being current. */
  expires_at?: string | null;
  /** Any JSON object, as written. */
  metadata: {
    [key: string]: unknown;
  };
  /** The document's schema version. */
  schema_version: number;
  /** Its revision: 1 at creation, one more per accepted write. */
  resource_revision: number;
  /** Where its last change sits in the database's order of changes. */
  resource_sequence: number;
  /** The revision's ETag (also the `ETag` header): send it as `If-Match`. */
  etag: string;
  /** Who created it (`key:<id>`; null: auth off). */
  created_by?: string | null;
  /** Who wrote this revision. */
  updated_by?: string | null;
  /** When it was created (ISO-8601 UTC). */
  created_at: string;
  /** When it last changed (ISO-8601 UTC). */
  updated_at: string;
  /** When it was deleted (null: live). */
  deleted_at?: string | null;
}

export interface WorkspaceViewObservationListResponse {
  /** The view's live observations, most recently changed first. */
  observations: WorkspaceViewObservation[];
  /** Pass as `page_token` for the next page (null: the last page). */
  next_page_token?: string | null;
}

export interface WorkspaceViewObservationResponse {
  /** The observation. */
  observation: WorkspaceViewObservation;
  /** True when this answers a retry of an earlier write (same key). */
  replayed?: boolean;
}

export interface WorkspaceViewObservationRevision {
  /** The observation as this revision left it. */
  observation: WorkspaceViewObservation;
  /** The write that made this revision: create, replace, delete or restore. */
  action: string;
  /** The `Idempotency-Key` of that write. */
  operation_id: string;
}

export interface WorkspaceViewObservationRevisionListResponse {
  /** Its revisions, newest first. */
  revisions: WorkspaceViewObservationRevision[];
  /** Pass as `page_token` for the next page (null: the last page). */
  next_page_token?: string | null;
}

export interface WorkspaceViewResponse {
  /** The view. */
  view: WorkspaceView;
  /** True when this answers a retry of an earlier write (same key). */
  replayed?: boolean;
}

export interface WorkspaceViewRevision {
  /** The view as this revision left it. */
  view: WorkspaceView;
  /** The write that made this revision: create, replace, delete or restore. */
  action: string;
  /** The `Idempotency-Key` of that write. */
  operation_id: string;
}

export interface WorkspaceViewRevisionListResponse {
  /** Its revisions, newest first. */
  revisions: WorkspaceViewRevision[];
  /** Pass as `page_token` for the next page (null: the last page). */
  next_page_token?: string | null;
}

/** An export as one JSON object (the reference's shape; our NDJSON export's lines, gathered). */
export interface WorkspaceExportData {
  /** The export format's version. */
  version?: string;
  /** When it was exported (ISO-8601 UTC). */
  exported_at?: string | null;
  /** The workspace it was exported from. */
  workspace_id?: string | null;
  /** The memories, each as the export writes it (`id`, `content`, …). */
  memories?: {
    [key: string]: unknown;
  }[];
  /** The associations (`source_id`, `target_id`, `relationship`, …). */
  associations?: {
    [key: string]: unknown;
  }[];
  /** How many memories the workspace had (informative). */
  total_memories?: number;
  /** How many associations it had (informative). */
  total_associations?: number;
  /** The export's paging offset (informative). */
  offset?: number;
  /** The export's paging limit (informative). */
  limit?: number;
}

/**
 * The JSON import body. A bare export object (without `data`) is accepted too, and so is the NDJSON export
 * itself (`Content-Type: application/x-ndjson`).
 */
export interface WorkspaceImportRequest {
  /** The export to import. */
  data: WorkspaceExportData;
}

/** A refusal: a machine-readable `code` and a sentence for people. */
export interface Error {
  /** The refusal. */
  detail: {
    /** What went wrong, e.g. `memory_not_found`. */
    code: string;
    /** What went wrong, for people. */
    message: string;
  };
}

/** Every operation, by "METHOD /path": its path and query parameters, JSON body and success answer. */
export interface Operations {
  /** The server's name and API version. */
  "GET /": {
    path: never;
    query: never;
    body: never;
    bodyRequired: false;
    response: Info;
  };
  /** Liveness: the process answers. */
  "GET /health": {
    path: never;
    query: never;
    body: never;
    bodyRequired: false;
    response: Health;
  };
  /** Readiness: the database answers (503 `not_ready` when it does not). */
  "GET /health/ready": {
    path: never;
    query: never;
    body: never;
    bodyRequired: false;
    response: Readiness;
  };
  /** The workspace's memories, newest first (no ranking: use recall to search). */
  "GET /v1/memories": {
    path: never;
    query: {
      /** How many at most. */
      limit?: number;
      /** How many to skip (paging). */
      offset?: number;
      /** Only memories of this type (an unknown one is a 422). */
      type?: "episodic" | "semantic" | "procedural" | "working" | null;
      /** Only memories of this subtype. */
      subtype?: string | null;
      /** Only memories with this tag. */
      tag?: string | null;
      /** Only memories in this context. */
      context_id?: string | null;
      /** Only this stream's memories, in `sequence_index` order. */
      sequence_key?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Send each memory's embedding vector (384 floats for the default model). */
      include_embeddings?: boolean;
      /** Same as `include_embeddings`. */
      include_embedding?: boolean;
    };
    body: never;
    bodyRequired: false;
    response: MemoryList;
  };
  /**
   * Store a memory (deduplicated within the workspace: an identical content returns the stored one).
   *
   * Conditional create: send both `Idempotency-Key` and `If-None-Match: *`. The `ETag` header is the memory's.
   */
  "POST /v1/memories": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Send each memory's embedding vector (384 floats for the default model). */
      include_embeddings?: boolean;
      /** Same as `include_embeddings`. */
      include_embedding?: boolean;
    };
    body: MemoryCreate;
    bodyRequired: true;
    response: RememberResponse;
  };
  /** Every live stream key of the workspace (e.g. every chat of a LlamaIndex store). */
  "GET /v1/memories/sequence-keys": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: SequenceKeys;
  };
  /**
   * Search the workspace (and the shared spaces the key reaches): vector and keyword arms fused, boosted
   * by scope and recency, expanded along associations, cut to `limit` and to `budget_tokens`.
   *
   * The body is the recaller's result as JSON, unvalidated on this hot path; tests check it against the declared
   * `RecallResponse` schema.
   */
  "POST /v1/memories/recall": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: RecallRequest;
    bodyRequired: true;
    response: RecallResponse;
  };
  /** A grounded answer citing memory ids; abstains (no LLM call) when nothing relevant is found. */
  "POST /v1/memories/answer": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: AnswerRequest;
    bodyRequired: true;
    response: AnswerResponse;
  };
  /** The reference's shape over the grounded answer; without an LLM, the evidence and a note saying so. */
  "POST /v1/memories/reflect": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: ReflectRequest;
    bodyRequired: true;
    response: ReflectResponse;
  };
  /**
   * Up to `max_batch_operations` creates, updates and deletes; each succeeds or fails on its own.
   *
   * Failures past the first 20 are left out of `results` and counted in `error_summary` (one entry per distinct
   * message, with every failed index), so a batch of bad operations does not answer a wall of repeated text.
   */
  "POST /v1/memories/batch": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: BatchRequest;
    bodyRequired: true;
    response: BatchResponse;
  };
  /** One memory by id, in any workspace the key reaches; the `ETag` header is for `If-Match` updates. */
  "GET /v1/memories/{memory_id}": {
    path: {
      /** The memory's id. */
      memory_id: string;
    };
    query: {
      /** Also find a soft-deleted memory. */
      include_deleted?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Send each memory's embedding vector (384 floats for the default model). */
      include_embeddings?: boolean;
      /** Same as `include_embeddings`. */
      include_embedding?: boolean;
    };
    body: never;
    bodyRequired: false;
    response: MemoryEnvelope;
  };
  /** Change some fields of a memory (a new revision); with `If-Match`, only if it is still that version. */
  "PUT /v1/memories/{memory_id}": {
    path: {
      /** The memory's id. */
      memory_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: MemoryUpdate;
    bodyRequired: true;
    response: MemoryEnvelope;
  };
  /** Delete a memory: soft (kept, hidden, `deleted_at` set) unless `hard=true`. */
  "DELETE /v1/memories/{memory_id}": {
    path: {
      /** The memory's id. */
      memory_id: string;
    };
    query: {
      /** Delete for good instead of soft-deleting. */
      hard?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: void;
  };
  /**
   * Soft-delete a memory as a new revision: send `Idempotency-Key` and `If-Match` (its current ETag; a stale
   * one is a 412). It leaves recall and listings until restored; a retry answers the first result.
   */
  "POST /v1/memories/{memory_id}/delete": {
    path: {
      /** The memory's id. */
      memory_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: MemoryMutation;
  };
  /**
   * Bring a soft-deleted memory back as a new revision: send `Idempotency-Key` and `If-Match` (the ETag of
   * the deleted memory). 409 when it is not deleted; a hard-deleted memory is gone (404).
   */
  "POST /v1/memories/{memory_id}/restore": {
    path: {
      /** The memory's id. */
      memory_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: MemoryMutation;
  };
  /**
   * Replace a live memory's semantic document (content, type, subtype, tags, refinement metadata, pin) as a
   * new revision; the content is embedded again and its relations derived again. Send `Idempotency-Key` and
   * `If-Match`.
   */
  "PUT /v1/memories/{memory_id}/semantic": {
    path: {
      /** The memory's id. */
      memory_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: MemoryReplace;
    bodyRequired: true;
    response: MemoryMutation;
  };
  /** The memory's history, newest first: a snapshot per create, update, decay and delete. */
  "GET /v1/memories/{memory_id}/revisions": {
    path: {
      /** The memory's id. */
      memory_id: string;
    };
    query: {
      /** How many at most. */
      limit?: number;
      /** The `next_page_token` of the previous page. */
      page_token?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: RevisionPage;
  };
  /** Lower the memory's importance by `decay_rate` (pinned memories too: decay is asked for explicitly). */
  "POST /v1/memories/{memory_id}/decay": {
    path: {
      /** The memory's id. */
      memory_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: DecayRequest | null;
    bodyRequired: false;
    response: MemoryEnvelope;
  };
  /** Link this memory to `target_id` with a typed relationship (idempotent per source, target and type). */
  "POST /v1/memories/{memory_id}/associate": {
    path: {
      /** The memory's id. */
      memory_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: AssociationCreate;
    bodyRequired: true;
    response: AssociationCreated;
  };
  /** The memory's edges, optionally only some relationship types and one direction. */
  "GET /v1/memories/{memory_id}/associations": {
    path: {
      /** The memory's id. */
      memory_id: string;
    };
    query: {
      /** Only these relationship types, comma-separated. */
      relationships?: string | null;
      /** both (default), outgoing or incoming. */
      direction?: string;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: AssociationList;
  };
  /** Remove an edge. */
  "DELETE /v1/memories/{memory_id}/associations/{association_id}": {
    path: {
      /** The memory's id. */
      memory_id: string;
      /** The association's id. */
      association_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: void;
  };
  /** Change an edge's strength or replace its metadata. */
  "PATCH /v1/memories/{memory_id}/associations/{association_id}": {
    path: {
      /** The memory's id. */
      memory_id: string;
      /** The association's id. */
      association_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: AssociationUpdate;
    bodyRequired: true;
    response: void;
  };
  /** Walk the association graph from this memory (bounded depth, edges per node and nodes). */
  "POST /v1/memories/{memory_id}/traverse": {
    path: {
      /** The memory's id. */
      memory_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: TraverseRequest | null;
    bodyRequired: false;
    response: TraverseResponse;
  };
  /** The key's workspaces (and the reserved ones, for an unscoped key), optionally by tags. */
  "GET /v1/workspaces": {
    path: never;
    query: {
      /** Only workspaces with these tags. */
      tags?: string[] | null;
      /** all (default): every tag must match; any: one is enough. */
      match?: string;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: WorkspaceList;
  };
  /** Create a workspace (an id is generated when none is given). */
  "POST /v1/workspaces": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: WorkspaceCreate;
    bodyRequired: true;
    response: WorkspaceEnvelope;
  };
  /** One workspace, with counts of its memories. */
  "GET /v1/workspaces/{workspace_id}": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: WorkspaceEnvelope;
  };
  /** Rename a workspace or replace its settings or tags. */
  "PUT /v1/workspaces/{workspace_id}": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: WorkspaceUpdate;
    bodyRequired: true;
    response: WorkspaceEnvelope;
  };
  /** Delete a workspace and everything in it. */
  "DELETE /v1/workspaces/{workspace_id}": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: void;
  };
  /** The relationship types and subtypes this workspace accepts (the reference server's ontology). */
  "GET /v1/workspaces/{workspace_id}/schema": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: {
      [key: string]: unknown;
    };
  };
  /** The workspace as NDJSON: a header line, then one line per row, then (2.0) an end line with the counts. */
  "GET /v1/workspaces/{workspace_id}/export": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
    };
    query: {
      /** How many to skip (paging). */
      offset?: number;
      /** How many memories at most (0 means all). */
      limit?: number;
      /** Also export the associations (default true). */
      include_associations?: boolean;
      /** 2.0 (default): the whole workspace, row for row (docs/export-format.md); 1.0: memories and associations only. A slice (offset, limit) or include_associations=false is always 1.0. */
      version?: "1.0" | "2.0";
      /** Export MCP servers' `env` and `headers` values and data providers' passwords as stored (default: masked, `***`); a key that may write only. */
      include_secrets?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: unknown;
  };
  /**
   * Accepts ``{"data": {...export...}}``, a bare export object, or the NDJSON export itself (a version-2
   * file is read line by line, all of it written or nothing).
   */
  "POST /v1/workspaces/{workspace_id}/import": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: WorkspaceImportRequest;
    bodyRequired: false;
    response: ImportResult;
  };
  /** The workspace's contexts. */
  "GET /v1/workspaces/{workspace_id}/contexts": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: ContextList;
  };
  /** Create a context in the workspace (a named sub-space; reserved by the reference, not a filter). */
  "POST /v1/workspaces/{workspace_id}/contexts": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: ContextCreate;
    bodyRequired: true;
    response: ContextEnvelope;
  };
  /** Delete a context. */
  "DELETE /v1/workspaces/{workspace_id}/contexts/{context_id}": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
      /** The context's id. */
      context_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: void;
  };
  /** The workspace's views, most recently changed first; `next_page_token` continues. */
  "GET /v1/workspaces/{workspace_id}/views": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
    };
    query: {
      /** How many at most (1-500, default 100). */
      limit?: number;
      /** The `next_page_token` of the previous page. */
      page_token?: string | null;
      /** Also deleted ones (tombstones, which `restore` revives). */
      include_deleted?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: WorkspaceViewListResponse;
  };
  /**
   * Create a view: send `Idempotency-Key` and `If-None-Match: *`; a taken `view_id` is a 409 (a deleted
   * view keeps its id: restore it).
   */
  "POST /v1/workspaces/{workspace_id}/views": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: ViewCreate;
    bodyRequired: true;
    response: WorkspaceViewResponse;
  };
  /** Every accepted write of a view (deleted ones too), newest first, with the view as it left it. */
  "GET /v1/workspaces/{workspace_id}/views/{view_id}/revisions": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
      /** The view's `view_id`. */
      view_id: string;
    };
    query: {
      /** How many at most (1-500, default 100). */
      limit?: number;
      /** The `next_page_token` of the previous page. */
      page_token?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: WorkspaceViewRevisionListResponse;
  };
  /** One view by its `view_id`; the `ETag` header is its current revision's. */
  "GET /v1/workspaces/{workspace_id}/views/{view_id}": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
      /** The view's `view_id`. */
      view_id: string;
    };
    query: {
      /** Also deleted ones (tombstones, which `restore` revives). */
      include_deleted?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: WorkspaceViewResponse;
  };
  /** Replace a live view's description: send `Idempotency-Key` and `If-Match` (a stale ETag is a 412). */
  "PUT /v1/workspaces/{workspace_id}/views/{view_id}": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
      /** The view's `view_id`. */
      view_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: ViewReplace;
    bodyRequired: true;
    response: WorkspaceViewResponse;
  };
  /** Leave a tombstone (its `view_id` stays taken; its observations are hidden until a restore). */
  "DELETE /v1/workspaces/{workspace_id}/views/{view_id}": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
      /** The view's `view_id`. */
      view_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: WorkspaceViewResponse;
  };
  /** Revive a deleted view (and so its observations): `If-Match` is the tombstone's ETag; a live one is 409. */
  "POST /v1/workspaces/{workspace_id}/views/{view_id}/restore": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
      /** The view's `view_id`. */
      view_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: WorkspaceViewResponse;
  };
  /** A live view's live observations, most recently changed first. */
  "GET /v1/workspaces/{workspace_id}/views/{view_id}/observations": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
      /** The view's `view_id`. */
      view_id: string;
    };
    query: {
      /** How many at most (1-500, default 100). */
      limit?: number;
      /** The `next_page_token` of the previous page. */
      page_token?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: WorkspaceViewObservationListResponse;
  };
  /** Every accepted publish, delete and restore of one observer's observation, newest first. */
  "GET /v1/workspaces/{workspace_id}/views/{view_id}/observations/{observer_id}/revisions": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
      /** The view's `view_id`. */
      view_id: string;
      /** The observer's `observer_id`. */
      observer_id: string;
    };
    query: {
      /** How many at most (1-500, default 100). */
      limit?: number;
      /** The `next_page_token` of the previous page. */
      page_token?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: WorkspaceViewObservationRevisionListResponse;
  };
  /** One observer's observation of a live view; the `ETag` header is its current revision's. */
  "GET /v1/workspaces/{workspace_id}/views/{view_id}/observations/{observer_id}": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
      /** The view's `view_id`. */
      view_id: string;
      /** The observer's `observer_id`. */
      observer_id: string;
    };
    query: {
      /** Also a deleted one (its tombstone's ETag is what a restore sends). */
      include_deleted?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: WorkspaceViewObservationResponse;
  };
  /**
   * Publish an observer's state for a live view: `If-None-Match: *` creates it (201), `If-Match: <etag>`
   * replaces it (200; within one `generation` the `sequence` must advance, else 400); exactly one of the two.
   */
  "PUT /v1/workspaces/{workspace_id}/views/{view_id}/observations/{observer_id}": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
      /** The view's `view_id`. */
      view_id: string;
      /** The observer's `observer_id`. */
      observer_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: ObservationReplace;
    bodyRequired: true;
    response: WorkspaceViewObservationResponse;
  };
  /** Leave a tombstone of an observation (`restore` revives it). */
  "DELETE /v1/workspaces/{workspace_id}/views/{view_id}/observations/{observer_id}": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
      /** The view's `view_id`. */
      view_id: string;
      /** The observer's `observer_id`. */
      observer_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: WorkspaceViewObservationResponse;
  };
  /** Revive a deleted observation: `If-Match` is the tombstone's ETag; a live one is a 409. */
  "POST /v1/workspaces/{workspace_id}/views/{view_id}/observations/{observer_id}/restore": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
      /** The view's `view_id`. */
      view_id: string;
      /** The observer's `observer_id`. */
      observer_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: WorkspaceViewObservationResponse;
  };
  /** The users of the workspace (every `user_id` its memories, threads or sessions carry), by id, with counts. */
  "GET /v1/users": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** How many at most. */
      limit?: number;
      /** Users after this id. */
      after?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: UserList;
  };
  /**
   * Erase everything of one user in the caller's workspaces of its tenant, for good: memories and their
   * revisions (theirs by `user_id`, and those about them by `subject_id`), memories derived from them, relation evidence (and relations left with none, and the entities
   * only they brought), threads and their messages, sessions with working memory and sandbox state. `dry_run`
   * answers the same counts and deletes nothing. A read-only key gets 403.
   */
  "POST /v1/users/{user_id}/erase": {
    path: {
      /** The user_id to erase. */
      user_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: UserErase | null;
    bodyRequired: false;
    response: EraseResult;
  };
  /** The workspace's top-level, unarchived threads (or one thread's sub-threads), optionally filtered. */
  "GET /v1/threads": {
    path: never;
    query: {
      /** Only this user's threads. */
      user_id?: string | null;
      /** How many at most. */
      limit?: number;
      /** How many to skip (paging). */
      offset?: number;
      /** Only this surface: `web` (also threads with no scope) or `office`. */
      scope_filter?: string | null;
      /** Only threads owned this way: `user` or `workspace`. */
      ownership_filter?: string | null;
      /** Include archived (hidden) threads, for an Archived view. */
      include_hidden?: boolean;
      /** List this thread's sub-threads (left out: top-level threads only). */
      parent_thread?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: ThreadList;
  };
  /** Start a conversation thread; appended messages feed memory extraction. */
  "POST /v1/threads": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: ThreadCreate;
    bodyRequired: true;
    response: ThreadEnvelope;
  };
  /** One user's threads across every workspace this key may see (no workspace is needed). */
  "GET /v1/threads/user/{user_id}": {
    path: {
      /** The user whose threads to list. */
      user_id: string;
    };
    query: {
      /** `user` (default) or `workspace`-owned threads. */
      ownership?: string;
      /** Only this surface: `web` (also threads with no scope) or `office`. */
      scope_filter?: string | null;
      /** How many at most. */
      limit?: number;
      /** How many to skip (paging). */
      offset?: number;
      /** Include archived (hidden) threads, for an Archived view. */
      include_hidden?: boolean;
      /** List this thread's sub-threads (left out: top-level threads only). */
      parent_thread?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: ThreadList;
  };
  /** One thread (without its messages: see /full or /messages). */
  "GET /v1/threads/{thread_id}": {
    path: {
      /** The thread's id. */
      thread_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: ThreadEnvelope;
  };
  /** Change a thread's title, metadata or idle action. */
  "PUT /v1/threads/{thread_id}": {
    path: {
      /** The thread's id. */
      thread_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: ThreadUpdate;
    bodyRequired: true;
    response: ThreadEnvelope;
  };
  /** Delete a thread and its messages (memories already extracted from it stay). */
  "DELETE /v1/threads/{thread_id}": {
    path: {
      /** The thread's id. */
      thread_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: void;
  };
  /** A thread with a page of its messages (the first 100 by default); `total_messages` counts them all. */
  "GET /v1/threads/{thread_id}/full": {
    path: {
      /** The thread's id. */
      thread_id: string;
    };
    query: {
      /** How many messages at most. */
      limit?: number;
      /** How many to skip (paging). */
      offset?: number;
      /** asc (default) or desc by message index. */
      order?: string;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: ThreadFull;
  };
  /**
   * Hide a thread from the default listings without deleting it; still readable by id, extraction
   * unchanged. Restore brings it back, and so does a new message.
   */
  "POST /v1/threads/{thread_id}/archive": {
    path: {
      /** The thread's id. */
      thread_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: ThreadEnvelope;
  };
  /** Bring an archived thread back into the default listings. */
  "POST /v1/threads/{thread_id}/restore": {
    path: {
      /** The thread's id. */
      thread_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: ThreadEnvelope;
  };
  /** A page of a thread's messages, by index. */
  "GET /v1/threads/{thread_id}/messages": {
    path: {
      /** The thread's id. */
      thread_id: string;
    };
    query: {
      /** How many at most. */
      limit?: number;
      /** How many to skip (paging). */
      offset?: number;
      /** Only messages after this index (-1: from the start). */
      after_index?: number | null;
      /** asc (default) or desc by message index. */
      order?: string;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: MessagePage;
  };
  /**
   * Append messages (idempotent per message `id`), creating the thread on its first append; queues an
   * extraction job, to poll at /v1/jobs/{job_id}.
   */
  "POST /v1/threads/{thread_id}/messages": {
    path: {
      /** The thread's id. */
      thread_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: MessagesAppend;
    bodyRequired: true;
    response: MessagesAppended;
  };
  /** Delete one message of a thread. */
  "DELETE /v1/threads/{thread_id}/messages/{message_id}": {
    path: {
      /** The thread's id. */
      thread_id: string;
      /** The message's id. */
      message_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: void;
  };
  /** Extract, now, from the messages not yet read (what appending queues on its own). */
  "POST /v1/threads/{thread_id}/decompose": {
    path: {
      /** The thread's id. */
      thread_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: Decomposed;
  };
  /** An extraction job's status: wrapped, and flat too (the SDK reads the top level). */
  "GET /v1/jobs/{job_id}": {
    path: {
      /** The job's id. */
      job_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: JobEnvelope;
  };
  /** The workspace's sessions (live ones unless `include_expired`). */
  "GET /v1/sessions": {
    path: never;
    query: {
      /** Only sessions in this context. */
      context_id?: string | null;
      /** Also list expired sessions. */
      include_expired?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: SessionList;
  };
  /** Open a session (its workspace is created if new), optionally with working memory and a briefing. */
  "POST /v1/sessions": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: SessionCreate;
    bodyRequired: true;
    response: SessionCreated;
  };
  /** What happened in the workspace lately: activity, open threads, contradictions, recent memories. */
  "GET /v1/sessions/briefing": {
    path: never;
    query: {
      /** How far back to look, in minutes. */
      lookback_minutes?: number;
      /** abstract (default), overview or full: how much of each memory to send. */
      detail_level?: string;
      /** How many recent memories, open threads and contradictions at most (each). */
      limit?: number;
      /** Include the recent memories themselves. */
      include_memories?: boolean;
      /** Include unresolved contradictions. */
      include_contradictions?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: BriefingEnvelope;
  };
  /** One live session (an expired one is a 404, even before cleanup removes it). */
  "GET /v1/sessions/{session_id}": {
    path: {
      /** The session's id. */
      session_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: SessionEnvelope;
  };
  /** End a session (committed first when `auto_commit`); its working memory goes with it. */
  "DELETE /v1/sessions/{session_id}": {
    path: {
      /** The session's id. */
      session_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: void;
  };
  /** Keep the session alive: its expiry moves to now + `extend_seconds` (default: its TTL). */
  "POST /v1/sessions/{session_id}/touch": {
    path: {
      /** The session's id. */
      session_id: string;
    };
    query: {
      /** New lifetime from now, in seconds (default: the session's TTL). */
      extend_seconds?: number | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: Expiry;
  };
  /** Working memory as `{key: value}`: every key, or only `key` (a comma-separated list for several). */
  "GET /v1/sessions/{session_id}/memory": {
    path: {
      /** The session's id. */
      session_id: string;
    };
    query: {
      /** One key, or several comma-separated (default: every key). */
      key?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: {
      [key: string]: unknown;
    };
  };
  /** Set one working-memory key (`{key, value}`: answers the entry) or several (`{items}`: answers them all). */
  "POST /v1/sessions/{session_id}/memory": {
    path: {
      /** The session's id. */
      session_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: WorkingMemorySet;
    bodyRequired: true;
    response: WorkingMemorySetResult;
  };
  /** Mark the session committed and report what its working memory gave (no LLM extraction here). */
  "POST /v1/sessions/{session_id}/commit": {
    path: {
      /** The session's id. */
      session_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: CommitOptions | null;
    bodyRequired: false;
    response: CommitResult;
  };
  /**
   * Store a transcript segment durably, then index its lines as memories.
   *
   * `content_hash` must be the sha256 of the UTF-8 segment (else 400); a segment over the size limit is a 413.
   * Idempotent per `idempotency_key`: a replay answers the same checkpoint (and retries a failed indexing); the
   * same key with another segment is a 409.
   */
  "POST /v1/sessions/{session_id}/checkpoints": {
    path: {
      /** The session's id. */
      session_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: CheckpointCreate;
    bodyRequired: true;
    response: Checkpoint;
  };
  /** One checkpoint of the session, with its capture and index status. */
  "GET /v1/sessions/{session_id}/checkpoints/{checkpoint_id}": {
    path: {
      /** The session's id. */
      session_id: string;
      /** The checkpoint's id. */
      checkpoint_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: Checkpoint;
  };
  /**
   * What a model should know now, rendered within `budget_tokens`: directives, working memory,
   * contradictions, topic matches, recent activity, checkpoints. Deterministic, no LLM. The returned
   * `cursor` asks /context-delta for what changed since.
   */
  "POST /v1/sessions/{session_id}/context-pack": {
    path: {
      /** The session's id. */
      session_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: ContextPackRequest | null;
    bodyRequired: false;
    response: ContextPack;
  };
  /**
   * What changed since `cursor` (memories, working memory, checkpoints, context-environment checkpoints in
   * `sandbox_changes`; deletes as tombstones), in order and
   * within `budget_tokens`, with the next cursor. An expired cursor is a 409 `cursor_expired`: take a new pack.
   */
  "POST /v1/sessions/{session_id}/context-delta": {
    path: {
      /** The session's id. */
      session_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: ContextDeltaRequest;
    bodyRequired: true;
    response: ContextDelta;
  };
  /**
   * Run Python in the session's sandbox, in a confined process with no network, keys or files; variables
   * persist between calls (functions, classes and modules do not: `not_persisted`). An exception raised by the
   * code is a 200 with `error` and `error_code: execution_error`; refused code, time, memory and output limits
   * are 422, a state over the cap 413. `llm_query(prompt)` in the code asks the configured LLM.
   */
  "POST /v1/context/execute": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: ExecuteRequest;
    bodyRequired: true;
    response: ExecuteResult;
  };
  /**
   * The sandbox's variables with their type, a preview and their size, read from the stored summary: no code
   * runs and no sandbox is created (none yet: no variables). With `variable`, that one only (404
   * `variable_not_found` if absent). Read-only keys may call it.
   */
  "POST /v1/context/inspect": {
    path: never;
    query: {
      /** One variable to describe (default: every variable). */
      variable?: string | null;
      /** Cut each preview to this many characters (0–1000). */
      preview_chars?: number;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: SandboxState | SandboxVariableDetail;
  };
  /**
   * Recall memories in the session's workspace, with the caller's `types`, `tags`, `min_relevance` and
   * `user_id` filters, and store them in variable `var` as a list of plain dicts (`id`, `content`, `type`,
   * `importance`, `tags`, `created_at`, and `metadata`/`abstract`/`embedding` when present), ready for code in
   * /execute.
   */
  "POST /v1/context/load": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: LoadRequest;
    bodyRequired: true;
    response: LoadResult;
  };
  /**
   * Set variable `key` to a JSON value (with `parse_json`, a string of JSON parsed first; 400 `invalid_json`
   * if it is not).
   */
  "POST /v1/context/inject": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: InjectRequest;
    bodyRequired: true;
    response: InjectResult;
  };
  /**
   * Ask the configured LLM `prompt` about the named variables (rendered by the sandbox, within
   * `max_context_chars`); `result_var` also stores the answer. 403 `generation_not_allowed` without an LLM or
   * under the deterministic policy.
   */
  "POST /v1/context/query": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: QueryRequest;
    bodyRequired: true;
    response: QueryResult;
  };
  /**
   * A recursive-language-model loop: optionally load memories for `memory_query` into `_memories`, then let
   * the LLM write code, run it in the sandbox like any caller code, and judge the output, until the code sets
   * `_goal_achieved`, the LLM says ACHIEVED or FAILED, or the iteration, time or LLM-call ceiling is reached.
   * 403 `generation_not_allowed` without an LLM.
   */
  "POST /v1/context/rlm": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: RlmRequest;
    bodyRequired: true;
    response: RlmResult;
  };
  /**
   * Whether the session has a sandbox, its variables, size and limits. Reads the row only: never creates a
   * sandbox or runs code. Read-only keys may call it.
   */
  "GET /v1/context/status": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: SandboxStatus;
  };
  /**
   * Mark the sandbox's state checkpointed and record a `sandbox_checkpoint` context event, which the
   * session's /context-delta shows in `sandbox_changes` (the state itself is always durable: it lives in
   * Postgres). A session without a sandbox: nothing to do, still 204.
   */
  "POST /v1/context/checkpoint": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: void;
  };
  /** Delete the session's sandbox and its variables now (deleting or expiring the session does it too). */
  "DELETE /v1/context/cleanup": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: void;
  };
  /** Every API key (without the secrets), revoked ones included. */
  "GET /v1/admin/api-keys": {
    path: never;
    query: never;
    body: never;
    bodyRequired: false;
    response: ApiKeyList;
  };
  /** Create an API key for some workspaces (admin key only). The key is in this response only. */
  "POST /v1/admin/api-keys": {
    path: never;
    query: never;
    body: KeyCreate;
    bodyRequired: true;
    response: ApiKeyCreated;
  };
  /** Revoke a key: it is refused from now on. */
  "DELETE /v1/admin/api-keys/{key_id}": {
    path: {
      /** The API key's id. */
      key_id: string;
    };
    query: never;
    body: never;
    bodyRequired: false;
    response: void;
  };
  /**
   * What each tenant used, per hour, operation kind and outcome, to bill from; and what each stores now.
   * A report covers at most 92 days and 10,000 hourly rows (`truncated` says the cap cut them).
   */
  "GET /v1/admin/usage": {
    path: never;
    query: {
      /** One tenant's usage (default: every tenant's). */
      tenant_id?: string | null;
      /** The first hour (ISO-8601; no offset: UTC; default: 24 hours before `until`). */
      since?: string | null;
      /** The end, exclusive (default: the end of the current hour). */
      until?: string | null;
      /** json (default), or csv: the hourly rows only. */
      format?: "json" | "csv";
    };
    body: never;
    bodyRequired: false;
    response: UsageReport;
  };
  /** The tokens minted under the calling key (the admin key: every token), without their secrets. */
  "GET /v1/tokens": {
    path: never;
    query: {
      /** Include revoked tokens (default false). */
      include_revoked?: boolean;
    };
    body: never;
    bodyRequired: false;
    response: TokenList;
  };
  /** Mint a token no wider than the calling key. The secret is in this response only. */
  "POST /v1/tokens": {
    path: never;
    query: never;
    body: TokenCreate;
    bodyRequired: true;
    response: TokenCreated;
  };
  /** One token under the calling key, without its secret. */
  "GET /v1/tokens/{token_id}": {
    path: {
      /** The token's id. */
      token_id: string;
    };
    query: never;
    body: never;
    bodyRequired: false;
    response: Token;
  };
  /** Delete a token (and those minted under it): refused and no longer listed. */
  "DELETE /v1/tokens/{token_id}": {
    path: {
      /** The token's id. */
      token_id: string;
    };
    query: never;
    body: never;
    bodyRequired: false;
    response: void;
  };
  /** Revoke a token (and those minted under it): refused from the next request on, still listed. */
  "POST /v1/tokens/{token_id}/revoke": {
    path: {
      /** The token's id. */
      token_id: string;
    };
    query: never;
    body: never;
    bodyRequired: false;
    response: void;
  };
  /** The workspace's entities (`active`, or the `merged` tombstones), by id. */
  "GET /v1/entities": {
    path: never;
    query: {
      /** active (default) entities, or the merged tombstones. */
      status?: "active" | "merged";
      /** How many at most. */
      limit?: number;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: EntityList;
  };
  /** The entity a name or alias resolves to (exact after normalisation, never fuzzy); 404 when none does. */
  "GET /v1/entities/resolve": {
    path: never;
    query: {
      /** The name or alias to resolve. */
      name: string;
      /** Prefer the entity of this kind when names collide. */
      entity_type?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: EntityResolution;
  };
  /**
   * Fold `source_id` into `target_id`: its relations are rewired, its name and aliases become the target's
   * aliases and it stays as a `merged` tombstone. Returns the target.
   */
  "POST /v1/entities/merge": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: MergeRequest;
    bodyRequired: true;
    response: EntityEnvelope;
  };
  /** One entity with its active relations (either direction). */
  "GET /v1/entities/{entity_id}": {
    path: {
      /** The entity's id. */
      entity_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: EntityDetail;
  };
  /** The entity's aliases. */
  "GET /v1/entities/{entity_id}/aliases": {
    path: {
      /** The entity's id. */
      entity_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: EntityAliases;
  };
  /**
   * Add names the entity resolves by (ones it already has are skipped); a merged entity refuses them.
   * Returns the entity.
   */
  "POST /v1/entities/{entity_id}/aliases": {
    path: {
      /** The entity's id. */
      entity_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: AliasesAdd;
    bodyRequired: true;
    response: EntityEnvelope;
  };
  /**
   * Run the deterministic entity extraction over the workspace's live memories: profiles, the relations
   * their text states plainly, the resolve-only patterns. Idempotent: a rerun writes nothing new. One call reads
   * at most `max_memories` (capped) within a time budget; `next_after` continues.
   */
  "POST /v1/entities/backfill": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Memories read per transaction. */
      batch_size?: number;
      /** Stop after this many (continue with `after`); none, or more than the server's cap (`MEMORYLAYER_ENTITY_BACKFILL_MAX_MEMORIES`, default 500): the cap. */
      max_memories?: number | null;
      /** The reference's wipe-first rebuild: refused here (422), see docs/wire.md. */
      reset?: boolean;
      /** Start after this memory id (a previous answer's `next_after`). */
      after?: string;
    };
    body: never;
    bodyRequired: false;
    response: EntityBackfillResponse;
  };
  /**
   * Create or update a catalog of entities (typed upsert: an existing one gains the aliases, external ids
   * and description it lacks). Idempotent. A kind that cannot be one is skipped and named.
   */
  "POST /v1/entities/seed": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: SeedEntitiesRequest;
    bodyRequired: true;
    response: SeedEntitiesResponse;
  };
  /**
   * Merge entities of the same kind whose normalised names or aliases collide into the most established
   * one (relations and evidence moved, names kept as aliases). Deterministic, no embeddings.
   */
  "POST /v1/entities/dedupe": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Accepted for the reference's clients: names collide exactly (1.0). */
      threshold?: number | null;
      /** Active entities read (oldest first). */
      limit?: number;
    };
    body: never;
    bodyRequired: false;
    response: EntityDedupeResponse;
  };
  /**
   * The reference's external-KB (Wikidata) linking. No knowledge base is configured here, so eligible
   * entities are counted and skipped, as the reference's default no-op linker does; nothing changes.
   */
  "POST /v1/entities/enrich": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Comma-separated kinds eligible for linking. */
      types?: string;
      /** Entities considered at most. */
      limit?: number;
      /** Re-link entities already linked (nothing is linked here). */
      overwrite?: boolean;
    };
    body: never;
    bodyRequired: false;
    response: EntityEnrichResponse;
  };
  /**
   * The entity's profile card: the entity with its aliases, its relations (with names), its top evidence,
   * its insights and a summary written from them. Deterministic; no LLM.
   */
  "GET /v1/entities/{entity_id}/card": {
    path: {
      /** The entity's id. */
      entity_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Accepted: the card is built on every call. */
      force_refresh?: boolean;
    };
    body: never;
    bodyRequired: false;
    response: EntityCardResponse;
  };
  /**
   * Where the entity came from (origin, first memories, external ids) and the evidence that keeps it: each
   * memory stating one of its relations, with the thread and messages it was extracted from.
   */
  "GET /v1/entities/{entity_id}/provenance": {
    path: {
      /** The entity's id. */
      entity_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: EntityProvenance;
  };
  /**
   * Entities found in the same live memories as this one (evidence of relations, or about them), most
   * shared first, with their direct relations to it. Reads at most the entity's 5,000 newest memories.
   */
  "GET /v1/entities/{entity_id}/related": {
    path: {
      /** The entity's id. */
      entity_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** How many at most. */
      limit?: number;
      /** Fewest shared memories to count. */
      min_shared?: number;
    };
    body: never;
    bodyRequired: false;
    response: RelatedEntitiesResponse;
  };
  /**
   * The `inference` memories about the entity (POST …/derive writes them), newest first, with counts of
   * what the store holds about it and its most recent facts. Derives nothing.
   */
  "GET /v1/entities/{entity_id}/insights": {
    path: {
      /** The entity's id. */
      entity_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Only insights of this observer. */
      observer_id?: string | null;
      /** How many insights at most. */
      limit?: number;
    };
    body: never;
    bodyRequired: false;
    response: EntityInsightsResponse;
  };
  /**
   * Let the LLM propose insights from the entity's memories; the grounded ones (citing memories it was
   * shown) are stored as `inference` memories about it. 403 `generation_not_allowed` without an LLM the
   * enrichment policy allows.
   */
  "POST /v1/entities/{entity_id}/derive": {
    path: {
      /** The entity's id. */
      entity_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: EntityDeriveRequest;
    bodyRequired: true;
    response: EntityDeriveResponse;
  };
  /**
   * Store one email as a memory (sender, recipients, subject and date in its text) and write the
   * relations its envelope declares (`sent_to` per recipient, `sent_by`, thread and message ids).
   */
  "POST /v1/ingest/email": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: EmailIngest;
    bodyRequired: true;
    response: IngestedMemory;
  };
  /** Newest first; with filters, a page looks at up to 1000 records (`scanned_count`, `scan_truncated`). */
  "GET /v1/refinement-records": {
    path: never;
    query: {
      /** How many at most (1-500, default 100). */
      limit?: number;
      /** The `next_page_token` of the previous page. */
      page_token?: string | null;
      /** Only these (repeat the parameter or separate by commas). */
      phase?: string[] | null;
      /** Only these (repeat the parameter or separate by commas). */
      outcome?: string[] | null;
      /** Only these (repeat the parameter or separate by commas). */
      scope?: string[] | null;
      /** Only records with an edit of this kind of resource. */
      resource_kind?: string[] | null;
      /** Only this refinement's. */
      refinement_id?: string | null;
      /** Only records whose texts contain this (any case). */
      search?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: RefinementRecordListResponse;
  };
  /** Send `Idempotency-Key` and `If-None-Match: *`; the `ETag` header is revision 1's. A retry with the same key and body answers the first result (`replayed: true`). */
  "POST /v1/refinement-records": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: RefinementRecordCreate;
    bodyRequired: true;
    response: RefinementRecordResponse;
  };
  /** Most recently changed first; `next_page_token` continues (tombstones with `include_deleted`). */
  "GET /v1/prompt-notes": {
    path: never;
    query: {
      /** How many at most (1-500, default 100). */
      limit?: number;
      /** The `next_page_token` of the previous page. */
      page_token?: string | null;
      /** Also deleted ones (tombstones, which `restore` revives). */
      include_deleted?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: PromptNoteListResponse;
  };
  /** Send `Idempotency-Key` and `If-None-Match: *`; the `ETag` header is revision 1's. A retry with the same key and body answers the first result (`replayed: true`). */
  "POST /v1/prompt-notes": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: PromptNoteCreate;
    bodyRequired: true;
    response: PromptNoteResponse;
  };
  /** Every accepted write (create, replace, delete, restore), newest first, with the resource as it left it and the write's `Idempotency-Key`. */
  "GET /v1/prompt-notes/{note_id}/revisions": {
    path: {
      /** The prompt note's id. */
      note_id: string;
    };
    query: {
      /** How many at most (1-500, default 100). */
      limit?: number;
      /** The `next_page_token` of the previous page. */
      page_token?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: PromptNoteRevisionListResponse;
  };
  /** One by id; the `ETag` header is its current revision's. */
  "GET /v1/prompt-notes/{note_id}": {
    path: {
      /** The prompt note's id. */
      note_id: string;
    };
    query: {
      /** Also deleted ones (tombstones, which `restore` revives). */
      include_deleted?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: PromptNoteResponse;
  };
  /** Replace its whole document: send `Idempotency-Key` and `If-Match` (its current ETag; a stale one is a 412 and changes nothing). */
  "PUT /v1/prompt-notes/{note_id}": {
    path: {
      /** The prompt note's id. */
      note_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: PromptNoteReplace;
    bodyRequired: true;
    response: PromptNoteResponse;
  };
  /** Leave a tombstone (its id and key stay taken; `restore` revives it): send `Idempotency-Key` and `If-Match`. */
  "DELETE /v1/prompt-notes/{note_id}": {
    path: {
      /** The prompt note's id. */
      note_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: PromptNoteResponse;
  };
  /** Revive a tombstone with the document it had: send `Idempotency-Key` and `If-Match` (the tombstone's ETag); a live one is a 409. */
  "POST /v1/prompt-notes/{note_id}/restore": {
    path: {
      /** The prompt note's id. */
      note_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: PromptNoteResponse;
  };
  /** Most recently changed first; `next_page_token` continues (tombstones with `include_deleted`). */
  "GET /v1/agent-specifications": {
    path: never;
    query: {
      /** How many at most (1-500, default 100). */
      limit?: number;
      /** The `next_page_token` of the previous page. */
      page_token?: string | null;
      /** Also deleted ones (tombstones, which `restore` revives). */
      include_deleted?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: AgentSpecificationListResponse;
  };
  /** Send `Idempotency-Key` and `If-None-Match: *`; the `ETag` header is revision 1's. A retry with the same key and body answers the first result (`replayed: true`). */
  "POST /v1/agent-specifications": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: AgentSpecificationCreate;
    bodyRequired: true;
    response: AgentSpecificationResponse;
  };
  /** Every accepted write (create, replace, delete, restore), newest first, with the resource as it left it and the write's `Idempotency-Key`. */
  "GET /v1/agent-specifications/{specification_id}/revisions": {
    path: {
      /** The agent specification's id. */
      specification_id: string;
    };
    query: {
      /** How many at most (1-500, default 100). */
      limit?: number;
      /** The `next_page_token` of the previous page. */
      page_token?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: AgentSpecificationRevisionListResponse;
  };
  /** One by id; the `ETag` header is its current revision's. */
  "GET /v1/agent-specifications/{specification_id}": {
    path: {
      /** The agent specification's id. */
      specification_id: string;
    };
    query: {
      /** Also deleted ones (tombstones, which `restore` revives). */
      include_deleted?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: AgentSpecificationResponse;
  };
  /** Replace its whole document: send `Idempotency-Key` and `If-Match` (its current ETag; a stale one is a 412 and changes nothing). */
  "PUT /v1/agent-specifications/{specification_id}": {
    path: {
      /** The agent specification's id. */
      specification_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: AgentSpecificationReplace;
    bodyRequired: true;
    response: AgentSpecificationResponse;
  };
  /** Leave a tombstone (its id and key stay taken; `restore` revives it): send `Idempotency-Key` and `If-Match`. */
  "DELETE /v1/agent-specifications/{specification_id}": {
    path: {
      /** The agent specification's id. */
      specification_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: AgentSpecificationResponse;
  };
  /** Revive a tombstone with the document it had: send `Idempotency-Key` and `If-Match` (the tombstone's ETag); a live one is a 409. */
  "POST /v1/agent-specifications/{specification_id}/restore": {
    path: {
      /** The agent specification's id. */
      specification_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: AgentSpecificationResponse;
  };
  /** One by id; the `ETag` header is its current revision's. */
  "GET /v1/refinement-records/{record_id}": {
    path: {
      /** The refinement record's id. */
      record_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: RefinementRecordResponse;
  };
  /** Live skills of the workspace, most recently changed first. */
  "GET /v1/skills": {
    path: never;
    query: {
      /** Only the skill of this name. */
      name?: string | null;
      /** Only enabled (true) or disabled (false) ones. */
      enabled?: boolean | null;
      /** Accepted: one workspace shadows nothing. */
      include_shadowed?: boolean;
      /** Accepted: skills here have no addenda. */
      include_addenda?: boolean;
      /** Accepted: skills are per workspace here. */
      include_global?: boolean;
      /** How many at most (1-500, default 100). */
      limit?: number;
      /** How many to skip (0-10000). */
      offset?: number;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: SkillListResponse;
  };
  /**
   * Create a skill. With `Idempotency-Key` and `If-None-Match: *` a conditional create (no inline files);
   * without them the reference's plain create (inline `files` allowed). A taken name is a 409.
   */
  "POST /v1/skills": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: SkillCreate;
    bodyRequired: true;
    response: SkillResponse;
  };
  /**
   * By `name`: that skill if live and enabled (`skill: null` otherwise). By `query`: the skills whose name,
   * description and body share most of its words (`candidates`, best first; `skill` the first).
   */
  "POST /v1/skills/resolve": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: SkillResolve;
    bodyRequired: true;
    response: SkillResolveResponse;
  };
  /** Its manifest revisions (create, replace, delete, restore), newest first; files are not in them. */
  "GET /v1/skills/{skill_id}/revisions": {
    path: {
      /** The skill's id. */
      skill_id: string;
    };
    query: {
      /** How many at most (1-500, default 100). */
      limit?: number;
      /** The `next_page_token` of the previous page. */
      page_token?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: SkillRevisionListResponse;
  };
  /** One skill; the `ETag` header is its manifest revision's. */
  "GET /v1/skills/{skill_id}": {
    path: {
      /** The skill's id. */
      skill_id: string;
    };
    query: {
      /** Also deleted ones (tombstones, which `restore` revives). */
      include_deleted?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: SkillResponse;
  };
  /** Change the fields sent (metadata is merged): an unconditional write, still a revision. */
  "PUT /v1/skills/{skill_id}": {
    path: {
      /** The skill's id. */
      skill_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: SkillUpdate;
    bodyRequired: true;
    response: SkillResponse;
  };
  /** The unconditional delete: a tombstone like `POST /{id}/delete` (files kept for a restore). */
  "DELETE /v1/skills/{skill_id}": {
    path: {
      /** The skill's id. */
      skill_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: void;
  };
  /** Its SKILL.md: frontmatter (name, description, version, …) and body, as text/markdown. */
  "GET /v1/skills/{skill_id}/manifest": {
    path: {
      /** The skill's id. */
      skill_id: string;
    };
    query: {
      /** Accepted: skills here have no addenda. */
      include_addenda?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: string;
  };
  /** Replace its whole manifest: send `Idempotency-Key` and `If-Match` (a stale ETag is a 412). */
  "PUT /v1/skills/{skill_id}/manifest": {
    path: {
      /** The skill's id. */
      skill_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: SkillReplace;
    bodyRequired: true;
    response: SkillResponse;
  };
  /** Tombstone it (files kept; `restore` revives it): send `Idempotency-Key` and `If-Match`. */
  "POST /v1/skills/{skill_id}/delete": {
    path: {
      /** The skill's id. */
      skill_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: SkillResponse;
  };
  /** Revive a tombstone with its manifest and files: send `Idempotency-Key` and `If-Match`. */
  "POST /v1/skills/{skill_id}/restore": {
    path: {
      /** The skill's id. */
      skill_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: SkillResponse;
  };
  /** Compare a mirror's hashes with the server's: push, pull, conflict or in_sync (nothing is written). */
  "POST /v1/skills/{skill_id}/sync": {
    path: {
      /** The skill's id. */
      skill_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: SkillSync;
    bodyRequired: true;
    response: SkillSyncResponse;
  };
  /** Its bundle files, by path. */
  "GET /v1/skills/{skill_id}/files": {
    path: {
      /** The skill's id. */
      skill_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: SkillFilesListResponse;
  };
  /**
   * Its files in one answer: NDJSON (a header line, one line per file with `content_b64`, a footer with the
   * bundle hash) or a tar.gz. Streamed file by file, each read from the database as its turn comes: a bundle
   * (up to 256 files of 1 MiB) never sits in memory whole.
   */
  "GET /v1/skills/{skill_id}/bundle": {
    path: {
      /** The skill's id. */
      skill_id: string;
    };
    query: {
      /** `ndjson` (default) or `tar.gz`. */
      format?: string;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: string;
  };
  /**
   * One file's bytes: with the MIME type it was uploaded with if that type is inert (plain text, Markdown,
   * CSV, JSON, PNG, JPEG, GIF, WebP), else as an `application/octet-stream` attachment.
   */
  "GET /v1/skills/{skill_id}/files/{file_path}": {
    path: {
      /** The skill's id. */
      skill_id: string;
      /** The file's path in the bundle. */
      file_path: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: ArrayBuffer;
  };
  /**
   * Write one file (`content_b64`; up to 1 MiB, 256 files a skill); its `bundle_hash` follows, its manifest
   * ETag does not change.
   */
  "PUT /v1/skills/{skill_id}/files/{file_path}": {
    path: {
      /** The skill's id. */
      skill_id: string;
      /** The file's path in the bundle. */
      file_path: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: SkillFileUpsert;
    bodyRequired: true;
    response: SkillFileInfo;
  };
  /** Remove one file (one already absent is no error; an unknown skill is a 404). */
  "DELETE /v1/skills/{skill_id}/files/{file_path}": {
    path: {
      /** The skill's id. */
      skill_id: string;
      /** The file's path in the bundle. */
      file_path: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: void;
  };
  /** The workspace's servers, most recently changed first. */
  "GET /v1/mcp-servers": {
    path: never;
    query: {
      /** Only the server of this name. */
      name?: string | null;
      /** Only this transport. */
      transport?: string | null;
      /** Only enabled (true) or disabled (false) ones. */
      enabled?: boolean | null;
      /** Only this user's. */
      user_id?: string | null;
      /** Accepted: one workspace shadows nothing. */
      include_shadowed?: boolean;
      /** How many at most (1-500, default 100). */
      limit?: number;
      /** How many to skip (0-10000). */
      offset?: number;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Answer `env` and `headers` values as stored (default: `***`); a key that may write only. */
      reveal_secrets?: boolean;
    };
    body: never;
    bodyRequired: false;
    response: McpServerListResponse;
  };
  /** Register a server (stdio needs `command`, the others `url`); a taken name is a 409. */
  "POST /v1/mcp-servers": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Answer `env` and `headers` values as stored (default: `***`); a key that may write only. */
      reveal_secrets?: boolean;
    };
    body: McpServerCreate;
    bodyRequired: true;
    response: McpServerResponse;
  };
  /**
   * By `name`: that server if enabled. By `query`: enabled servers sharing most of its words (`candidates`,
   * best first; `transport` filters).
   */
  "POST /v1/mcp-servers/resolve": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Answer `env` and `headers` values as stored (default: `***`); a key that may write only. */
      reveal_secrets?: boolean;
    };
    body: McpServerResolve;
    bodyRequired: true;
    response: McpServerResolveResponse;
  };
  /**
   * A `.mcp.json` document: each entry creates a server, or updates the one of its name; a bad entry is
   * skipped and named in `errors`.
   */
  "POST /v1/mcp-servers/import": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: McpServerImport;
    bodyRequired: true;
    response: McpServerImportResponse;
  };
  /** The enabled servers as a `.mcp.json` document (`{"mcpServers": {name: config}}`). */
  "GET /v1/mcp-servers/export": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Answer `env` and `headers` values as stored (default: `***`); a key that may write only. */
      reveal_secrets?: boolean;
    };
    body: never;
    bodyRequired: false;
    response: McpJson;
  };
  /** One server by id; secrets in its config are masked unless `reveal_secrets`. */
  "GET /v1/mcp-servers/{server_id}": {
    path: {
      /** The server's id. */
      server_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Answer `env` and `headers` values as stored (default: `***`); a key that may write only. */
      reveal_secrets?: boolean;
    };
    body: never;
    bodyRequired: false;
    response: McpServerResponse;
  };
  /** Change the fields sent (`metadata` merged); still a revision. */
  "PUT /v1/mcp-servers/{server_id}": {
    path: {
      /** The server's id. */
      server_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Answer `env` and `headers` values as stored (default: `***`); a key that may write only. */
      reveal_secrets?: boolean;
    };
    body: McpServerUpdate;
    bodyRequired: true;
    response: McpServerResponse;
  };
  /** Remove it for good (its name is free again), as the reference. */
  "DELETE /v1/mcp-servers/{server_id}": {
    path: {
      /** The server's id. */
      server_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: void;
  };
  /** Compare a local config's hash with the server's: push, pull, conflict or in_sync (nothing written). */
  "POST /v1/mcp-servers/{server_id}/sync": {
    path: {
      /** The server's id. */
      server_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: McpServerSync;
    bodyRequired: true;
    response: McpServerSyncResponse;
  };
  /** The workspace's providers, newest first, with the total count. */
  "GET /v1/data-providers": {
    path: never;
    query: {
      /** How many at most (1-200, default 50). */
      limit?: number;
      /** How many to skip (0-1000). */
      offset?: number;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Answer secrets in `connection_args` (passwords, tokens, keys) as stored (default: `***`); a key that may write only. */
      reveal_secrets?: boolean;
    };
    body: never;
    bodyRequired: false;
    response: DataProviderListResponse;
  };
  /** Register a document source (type, name, config); the first revision. */
  "POST /v1/data-providers": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Answer secrets in `connection_args` (passwords, tokens, keys) as stored (default: `***`); a key that may write only. */
      reveal_secrets?: boolean;
    };
    body: DataProviderCreate;
    bodyRequired: true;
    response: DataProviderResponse;
  };
  /** One provider by id; 404 `not_found` if the workspace has none by that id. */
  "GET /v1/data-providers/{provider_id}": {
    path: {
      /** The provider's id. */
      provider_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Answer secrets in `connection_args` (passwords, tokens, keys) as stored (default: `***`); a key that may write only. */
      reveal_secrets?: boolean;
    };
    body: never;
    bodyRequired: false;
    response: DataProviderResponse;
  };
  /** Change the fields sent; still a revision. */
  "PUT /v1/data-providers/{provider_id}": {
    path: {
      /** The provider's id. */
      provider_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** Answer secrets in `connection_args` (passwords, tokens, keys) as stored (default: `***`); a key that may write only. */
      reveal_secrets?: boolean;
    };
    body: DataProviderUpdate;
    bodyRequired: true;
    response: DataProviderResponse;
  };
  /** Remove it for good, as the reference; documents it brought stay. */
  "DELETE /v1/data-providers/{provider_id}": {
    path: {
      /** The provider's id. */
      provider_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: void;
  };
  /** A local provider's documents arrive by upload: the answer lists nothing fetched. */
  "POST /v1/data-providers/{provider_id}/sync": {
    path: {
      /** The provider's id. */
      provider_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: DataProviderSyncResponse;
  };
  /**
   * What `observer` holds about `subject` in the workspace: both resolved in the entity registry (never
   * created); the observer's memories (`observer_id`) about the subject (`subject_id`, or evidence of one of its
   * relations), newest first. An unknown name answers an empty representation (`provenance.unresolved`).
   */
  "POST /v1/representation": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: RepresentationRequest;
    bodyRequired: true;
    response: Representation;
  };
  /**
   * The user's memories in the tenant's user space (`scope: user`), newest first, and a profile; no
   * `user_id` answers an empty representation (`provenance.error: no_user_id`), as the reference.
   */
  "POST /v1/representation/user": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: UserRepresentationRequest;
    bodyRequired: true;
    response: UserRepresentation;
  };
  /** The workspace's documents, newest first. */
  "GET /v1/documents": {
    path: never;
    query: {
      /** Only documents in this status. */
      status?: string | null;
      /** Only documents of this type. */
      document_type?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
      /** How many at most. */
      limit?: number;
      /** How many to skip (paging). */
      offset?: number;
    };
    body: never;
    bodyRequired: false;
    response: DocumentList;
  };
  /** Store a document (at most ``document_max_bytes``) and queue its ingestion; poll the job or document. */
  "POST /v1/documents": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: Body_upload_document_v1_documents_post;
    bodyRequired: true;
    response: DocumentAccepted;
  };
  /** Large files: a presigned POST straight to the bucket; its upload event starts the job. */
  "POST /v1/documents/uploads": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: UploadRequest;
    bodyRequired: true;
    response: PresignedUpload;
  };
  /** The workspace's ingestion jobs, newest first. */
  "GET /v1/documents/jobs": {
    path: never;
    query: {
      /** Only jobs in this status. */
      status?: string | null;
      /** How many at most. */
      limit?: number;
      /** How many to skip (paging). */
      offset?: number;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: IngestionJobList;
  };
  /** One ingestion job: its status, progress and errors. */
  "GET /v1/documents/jobs/{job_id}": {
    path: {
      /** The job's id. */
      job_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: IngestionJob;
  };
  /** Cancel a queued or running job (a finished one is answered as it is). */
  "POST /v1/documents/jobs/{job_id}/cancel": {
    path: {
      /** The job's id. */
      job_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: IngestionJob;
  };
  /** Pages ranked by the similarity of their text embedding to the query's. */
  "POST /v1/documents/search": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: PageSearch;
    bodyRequired: true;
    response: PageSearchResult;
  };
  /** One document and its processing status. */
  "GET /v1/documents/{document_id}": {
    path: {
      /** The document's id. */
      document_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: Document;
  };
  /** Remove the document, its pages and its stored bytes (and, if asked, its memories). */
  "DELETE /v1/documents/{document_id}": {
    path: {
      /** The document's id. */
      document_id: string;
    };
    query: {
      /** Also forget the memories derived from it. */
      delete_memories?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: DocumentDeleted;
  };
  /** The live memories derived from the document, with their provenance. */
  "GET /v1/documents/{document_id}/memories": {
    path: {
      /** The document's id. */
      document_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: DocumentMemories;
  };
  /** The document's pages in order. */
  "GET /v1/documents/{document_id}/pages": {
    path: {
      /** The document's id. */
      document_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: DocumentPageList;
  };
  /** One page of the document. */
  "GET /v1/documents/{document_id}/pages/{page_id}": {
    path: {
      /** The document's id. */
      document_id: string;
      /** The page's id. */
      page_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: DocumentPage;
  };
  /** Derive the document again (optionally with new options); nothing is duplicated. */
  "POST /v1/documents/{document_id}/reprocess": {
    path: {
      /** The document's id. */
      document_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: Reprocess | null;
    bodyRequired: false;
    response: ReprocessAccepted;
  };
  /** Re-check the stored bytes against the hash; re-run a document that never completed. */
  "POST /v1/documents/{document_id}/verify": {
    path: {
      /** The document's id. */
      document_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: DocumentVerify;
  };
  /**
   * Compare the workspace's live memories and record the contradictions not recorded before (no LLM:
   * negations of the same statement, one subject and predicate with two values, `contradicts` associations).
   * One scan records at most `MEMORYLAYER_CONTRADICTION_SCAN_MAX_PAIRS` pairs; `next_cursor` continues.
   */
  "POST /v1/workspaces/{workspace_id}/contradictions/scan": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: ContradictionScanRequest | null;
    bodyRequired: false;
    response: ContradictionScan;
  };
  /** The workspace's unresolved contradictions whose two memories are both still live, newest first. */
  "GET /v1/workspaces/{workspace_id}/contradictions": {
    path: {
      /** The workspace's id. */
      workspace_id: string;
    };
    query: {
      /** How many at most (default 10). */
      limit?: number;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: ContradictionList;
  };
  /**
   * Resolve an open contradiction: keep one memory and supersede the other (its history stays), merge them
   * into A, or keep both. A resolved one, or one whose memory is gone, is a 409 and changes nothing.
   */
  "POST /v1/contradictions/{contradiction_id}/resolve": {
    path: {
      /** The contradiction's id. */
      contradiction_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: ContradictionResolveRequest;
    bodyRequired: true;
    response: Contradiction;
  };
  /** The size of the workspace's graph: its live memories are the nodes, associations the edges. */
  "GET /v1/graph/snapshot": {
    path: never;
    query: {
      /** Only the memories of this context. */
      context_id?: string | null;
      /** Accepted for the reference's clients: every live memory is a node here. */
      include_rpg?: boolean;
      /** Also join memories that are evidence about one entity (typed relations) by a `shares_entity` edge (our extension; the reference's graph is associations only). */
      include_relations?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: GraphSnapshotResponse;
  };
  /** Communities of memories (label propagation, weighted by strength), largest first. */
  "GET /v1/graph/communities": {
    path: never;
    query: {
      /** Only the memories of this context. */
      context_id?: string | null;
      /** Also join memories that are evidence about one entity (typed relations) by a `shares_entity` edge (our extension; the reference's graph is associations only). */
      include_relations?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: CommunitiesResponse;
  };
  /** Each memory's degree and betweenness centrality, most between first. */
  "GET /v1/graph/centrality": {
    path: never;
    query: {
      /** Only the memories of this context. */
      context_id?: string | null;
      /** Also join memories that are evidence about one entity (typed relations) by a `shares_entity` edge (our extension; the reference's graph is associations only). */
      include_relations?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: CentralityResponse;
  };
  /** The associations that join two communities, strongest first. */
  "GET /v1/graph/bridges": {
    path: never;
    query: {
      /** Only the memories of this context. */
      context_id?: string | null;
      /** Also join memories that are evidence about one entity (typed relations) by a `shares_entity` edge (our extension; the reference's graph is associations only). */
      include_relations?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: BridgesResponse;
  };
  /** Aggregate statistics: nodes, edges, communities, density, degrees. */
  "GET /v1/graph/stats": {
    path: never;
    query: {
      /** Only the memories of this context. */
      context_id?: string | null;
      /** Also join memories that are evidence about one entity (typed relations) by a `shares_entity` edge (our extension; the reference's graph is associations only). */
      include_relations?: boolean;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: GraphStatsResponse;
  };
  /** Snapshot, communities, centrality, bridges and statistics from one build of the graph. */
  "POST /v1/graph/analyze": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: GraphAnalysisRequest;
    bodyRequired: true;
    response: GraphAnalysis;
  };
  /**
   * Communities before and after adding edges between memories about one entity and between nearest
   * embeddings, over the same graph. Nothing is stored.
   */
  "POST /v1/graph/densify-preview": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: DensifyPreviewRequest;
    bodyRequired: true;
    response: DensifyPreview;
  };
  /** Who did what: the events the caller may read, newest first, a page at a time. */
  "GET /v1/audit/events": {
    path: never;
    query: {
      /** Only this workspace's events (one of the key's). */
      workspace_id?: string | null;
      /** Only this type: memory, workspace, api_key. */
      event_type?: string | null;
      /** Only events at or after this time (ISO-8601; no offset: UTC). */
      since?: string | null;
      /** How many at most (1-1000). */
      limit?: number;
      /** The `next_page_token` of the previous page. */
      page_token?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: AuditEventList;
  };
  /** How many events of each type the caller may read (optionally one workspace's, or since a time). */
  "GET /v1/audit/events/summary": {
    path: never;
    query: {
      /** Only this workspace's events (one of the key's). */
      workspace_id?: string | null;
      /** Only events at or after this time (ISO-8601; no offset: UTC). */
      since?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: AuditSummary;
  };
  /**
   * Write the workspace's knowledgebase, in place of the last one: an index, one article per community of
   * linked memories (up to `max_communities`) and one per entity (up to `max_god_nodes`, the best-connected
   * first), each in Markdown with wikilinks between them. Deterministic: no LLM is asked.
   */
  "POST /v1/knowledgebase/generate": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: KbGenerateRequest;
    bodyRequired: true;
    response: Knowledgebase;
  };
  /** The last generation's summary: its article and community counts, when, and the graph's statistics. */
  "GET /v1/knowledgebase": {
    path: never;
    query: {
      /** Accepted for the reference's SDK. */
      context_id?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: Knowledgebase;
  };
  /**
   * The stored articles: the index, then communities (largest first), then entities. Empty before the first
   * generation.
   */
  "GET /v1/knowledgebase/articles": {
    path: never;
    query: {
      /** Only `index`, `community` or `entity` articles. */
      article_type?: string | null;
      /** How many at most (1–1000). */
      limit?: number;
      /** How many to skip (paging). */
      offset?: number;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: KbArticleList;
  };
  /** One stored article. */
  "GET /v1/knowledgebase/articles/{article_id}": {
    path: {
      /** `index`, `community-{n}` or `entity-{slug}-{suffix}`. */
      article_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: KbArticle;
  };
  /**
   * The stored articles as an Obsidian vault: `index.md`, `communities/community-{n}.md` and
   * `entities/{slug}-{suffix}.md`, linked by the wikilinks in their text.
   */
  "GET /v1/knowledgebase/export": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: ArrayBuffer;
  };
  /**
   * A fresh analysis of the workspace's memory graph (memories linked by associations and by the entities
   * they are evidence about): communities, central memories, bridges between communities, statistics.
   */
  "GET /v1/knowledgebase/graph": {
    path: never;
    query: {
      /** false: communities, bridges and statistics only (no betweenness). */
      include_central_nodes?: boolean;
      /** Only the memories of this context. */
      context_id?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: KbGraphResponse;
  };
  /** One community of the live graph, with its article's title when the last generation wrote one. */
  "GET /v1/knowledgebase/graph/communities/{community_id}": {
    path: {
      /** The community's number (0: the largest). */
      community_id: number;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: KbCommunity;
  };
  /** A page listing the workspaces this key may see, each linking to its knowledgebase. */
  "GET /kb": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: string;
  };
  /**
   * A workspace's knowledgebase as a page: its articles in the side bar, one rendered (`?article=`, else
   * the index), wikilinks made links between them.
   */
  "GET /kb/{workspace_id}": {
    path: {
      /** The workspace whose knowledgebase to show. */
      workspace_id: string;
    };
    query: {
      /** The article to show (default: the index). */
      article?: string | null;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: string;
  };
  /**
   * What the calling key may do, for the console page: whether it may write (the page hides its write
   * buttons unless `can_write`), whether it is the admin key, and which workspaces it reaches.
   */
  "GET /console/api/whoami": {
    path: never;
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: ConsoleWhoami;
  };
  /**
   * The workspace's newest extraction jobs, newest first, for the console's jobs tab (`GET /v1/jobs/{id}`
   * reads one).
   */
  "GET /console/api/jobs": {
    path: never;
    query: {
      /** How many jobs at most (1–200, default 50). */
      limit?: number;
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: ConsoleJobs;
  };
  /**
   * The typed entity relations this memory is evidence of (`Bob Lee —reviewed→ PR-12`), with both
   * entities' names and kinds and how the memory evidences each, for the console's memory panel. Deleted
   * memories are included: their evidence shows as inactive.
   */
  "GET /console/api/memories/{memory_id}/relations": {
    path: {
      /** The memory's id. */
      memory_id: string;
    };
    query: {
      /** The workspace to use when the body does not name one. */
      workspace_id?: string | null;
    };
    body: never;
    bodyRequired: false;
    response: ConsoleMemoryRelations;
  };
}

/** An operation's key, e.g. `"POST /v1/memories"`. */
export type OperationKey = keyof Operations;
