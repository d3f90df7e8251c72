/**
 * The client: one method per operation of the Python SDK's main surface, each a typed `request` of the
 * generated `Operations` map, so a route the server drops or reshapes fails the build (`tsc`), not a user.
 *
 *     const client = new MemoryLayerClient({ workspaceId: "ws_demo" });
 *     const memory = await client.remember("Alice prefers tea", { tags: ["prefs"] });
 *     const { memories } = await client.recall("what does Alice drink?");
 *
 * Bodies and answers keep the wire's snake_case field names (the generated types); only the client's own
 * options are camelCase.
 */

import { JobTimeoutError, MemoryLayerError, NotFoundError, PayloadTooLargeError } from "./errors.js";
import { BaseClient, type CallOptions, type ClientOptions } from "./http.js";
import type {
  Association,
  Job,
  Memory,
  MessageCreate,
  OperationKey,
  Operations,
  RememberedMemory,
  Session,
  Thread,
  Workspace,
  WorkspaceView,
  WorkspaceViewObservation,
} from "./api.js";
import { sleep } from "./retry.js";

type Body<K extends OperationKey> = Operations[K]["body"];
type Query<K extends OperationKey> = Partial<Operations[K]["query"]>;
type Answer<K extends OperationKey> = Operations[K]["response"];
/** A body's fields but the ones a method takes as its own arguments (and the workspace, from the options). */
type Fields<K extends OperationKey, Own extends string = never> = Omit<Body<K>, Own | "workspace_id">;
type Filters<K extends OperationKey, Own extends string = never> = Omit<Query<K>, Own | "workspace_id">;

/** Options of the writes that may be retried safely once they carry an Idempotency-Key. */
export interface WriteOptions extends CallOptions {
  /** A key of yours, or `true` for a fresh one: the POST is then safe to retry (and is retried). */
  idempotencyKey?: string | boolean;
}

/**
 * Options of a versioned write (memory revisions, views, observations): `ifMatch` is the ETag of the revision it
 * replaces (a stale one is a PreconditionFailedError, 412); an Idempotency-Key is always sent (fresh unless given).
 */
export interface ConditionalOptions extends WriteOptions {
  ifMatch: string;
}

/** A create that a new session answers with: the session, and its briefing when asked for. */
export type NewSession = Session & { briefing: Answer<"POST /v1/sessions">["briefing"] };

/** What an observer publishes about a view. */
type ViewObservationBody = Body<"PUT /v1/workspaces/{workspace_id}/views/{view_id}/observations/{observer_id}">;

/** One batch operation: the wire's `{op: ...}` form, or the official SDK's `{type, data}`. */
export type BatchOperation =
  | Body<"POST /v1/memories/batch">["operations"][number]
  | { type: "create" | "update" | "delete"; data: Record<string, unknown> };

/** A workspace's NDJSON export, parsed: the header's fields, the memories and the associations. */
export interface WorkspaceExport {
  workspace_id: string;
  total_memories: number;
  total_associations: number;
  memories: Record<string, unknown>[];
  associations: Record<string, unknown>[];
  [key: string]: unknown;
}

/** Up to this size `uploadFile` sends a document through the API; larger ones go straight to the bucket. Below
 * the deployed API's 6 MB request cap with room for the multipart framing. */
export const DIRECT_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;
const DOCUMENT_JOB_FINISHED = new Set(["completed", "failed", "cancelled"]);
const CONTENT_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  txt: "text/plain",
  md: "text/markdown",
  markdown: "text/markdown",
  html: "text/html",
  htm: "text/html",
  csv: "text/csv",
  json: "application/json",
};

/** A document and its ingestion job, as an upload answers them (or as they are once the job is finished). */
export type DocumentWithJob = Answer<"POST /v1/documents">;

/** `uploadFile`'s options: its own (camelCase) and the upload's extraction fields (the wire's names). */
export interface UploadFileFields {
  /** The file's name; a path's own name by default (needed for bytes or an unnamed Blob). */
  filename?: string;
  /** Guessed from the filename's extension, else `application/octet-stream`. */
  content_type?: string;
  target_context_id?: string;
  chunk_size?: number;
  importance?: number;
  /** Poll the ingestion job until it is finished, then answer the document and job as they are. */
  wait?: boolean;
  /** How long `wait` waits (JobTimeoutError after), 600 s by default. */
  waitTimeoutMs?: number;
  pollIntervalMs?: number;
  /** Files up to this size go through the API (`POST /v1/documents`), larger ones through a presigned upload. */
  directMaxBytes?: number;
}

function newKey(): string {
  return globalThis.crypto.randomUUID().replace(/-/g, "");
}

function idempotencyHeaders(key: string | boolean | undefined): Record<string, string> {
  if (key === true) return { "Idempotency-Key": newKey() };
  return typeof key === "string" && key ? { "Idempotency-Key": key } : {};
}

/**
 * A versioned write's headers: its Idempotency-Key (always sent, fresh unless given, so the call's retries
 * replay it) and `If-Match`, or `If-None-Match: *` to create; the call's own `headers` last.
 */
function versionedHeaders(options: WriteOptions & { ifMatch?: string }): Record<string, string> {
  const { idempotencyKey, ifMatch, headers } = options;
  const own = idempotencyHeaders(typeof idempotencyKey === "string" && idempotencyKey ? idempotencyKey : true);
  if (ifMatch === undefined) own["If-None-Match"] = "*";
  else own["If-Match"] = ifMatch;
  return { ...own, ...headers };
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function parseExport(text: string | undefined): WorkspaceExport {
  let header: Record<string, unknown> = {};
  const memories: Record<string, unknown>[] = [];
  const associations: Record<string, unknown>[] = [];
  for (const line of (text ?? "").split("\n")) {
    if (!line.trim()) continue;
    const item = JSON.parse(line) as { type?: string; data?: Record<string, unknown> };
    if (item.type === "header") header = item as Record<string, unknown>;
    else if (item.type === "memory" && item.data) memories.push(item.data);
    else if (item.type === "association" && item.data) associations.push(item.data);
  }
  const { type: _type, ...fields } = header;
  return {
    ...fields,
    workspace_id: String(header.workspace_id ?? ""),
    total_memories: Number(header.total_memories ?? memories.length),
    total_associations: Number(header.total_associations ?? associations.length),
    memories,
    associations,
  };
}

export class MemoryLayerClient extends BaseClient {
  constructor(options: ClientOptions = {}) {
    super(options);
  }

  // ------------------------------------------------------------------ memories
  /**
   * Store a memory. `sequence_key` appends it to an ordered stream (the server assigns the index);
   * `idempotencyKey: true` makes the POST safe to retry. A `logical_key` write is create-only (If-None-Match).
   */
  async remember(
    content: string,
    fields: Fields<"POST /v1/memories", "content"> = {},
    options: WriteOptions = {},
  ): Promise<RememberedMemory> {
    const headers = idempotencyHeaders(options.idempotencyKey ?? (fields.logical_key ? true : undefined));
    if (fields.logical_key) headers["If-None-Match"] = "*";
    const answer = await this.request("POST /v1/memories", {
      ...options,
      body: this.withWorkspace({ ...fields, content }, options),
      headers: { ...headers, ...options.headers },
    });
    return answer.memory;
  }

  /** Hybrid (vector + keyword) search: `await client.recall("tea", { tags: ["prefs"], limit: 5 })`. */
  async recall(
    query: string,
    fields: Fields<"POST /v1/memories/recall", "query"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/memories/recall">> {
    const body = this.withWorkspace({ limit: 10, ...fields, query }, options);
    return this.request("POST /v1/memories/recall", { ...options, body });
  }

  /** A grounded answer citing memory ids (`answer` is null without a server LLM: read `evidence`). */
  async answer(
    query: string,
    fields: Fields<"POST /v1/memories/answer", "query"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/memories/answer">> {
    const body = this.withWorkspace({ ...fields, query }, options);
    return this.request("POST /v1/memories/answer", { ...options, body });
  }

  /** A synthesis over the memories relevant to `query`. */
  async reflect(
    query: string,
    fields: Fields<"POST /v1/memories/reflect", "query"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/memories/reflect">> {
    const body = this.withWorkspace({ ...fields, query }, options);
    return this.request("POST /v1/memories/reflect", { ...options, body });
  }

  /** One memory (NotFoundError `memory_not_found` if absent or forgotten). */
  async getMemory(
    memoryId: string,
    query: Filters<"GET /v1/memories/{memory_id}"> = {},
    options: CallOptions = {},
  ): Promise<Memory> {
    const answer = await this.request("GET /v1/memories/{memory_id}", {
      ...options,
      path: { memory_id: memoryId },
      query,
    });
    return answer.memory;
  }

  /** Change the given fields; `ifMatch: memory.etag` makes it a compare-and-swap (412 if stale). */
  async updateMemory(
    memoryId: string,
    changes: Body<"PUT /v1/memories/{memory_id}">,
    options: CallOptions & { ifMatch?: string } = {},
  ): Promise<Memory> {
    const headers = options.ifMatch ? { "If-Match": options.ifMatch, ...options.headers } : options.headers;
    const answer = await this.request("PUT /v1/memories/{memory_id}", {
      ...options,
      path: { memory_id: memoryId },
      body: changes,
      ...(headers ? { headers } : {}),
    });
    return answer.memory;
  }

  /** Soft-delete (or `hard: true`: erase) a memory; NotFoundError if already gone. */
  async forget(memoryId: string, { hard = false } = {}, options: CallOptions = {}): Promise<true> {
    await this.request("DELETE /v1/memories/{memory_id}", {
      ...options,
      path: { memory_id: memoryId },
      query: { hard },
    });
    return true;
  }

  /** One page, newest first; with `sequence_key`, that stream in index order. */
  async listMemories(
    query: Filters<"GET /v1/memories"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/memories">> {
    return this.request("GET /v1/memories", { ...options, query: { limit: 50, offset: 0, ...query } });
  }

  /** Every matching memory, page by page: `for await (const m of client.iterateMemories({ tag: "x" }))`. */
  async *iterateMemories(
    query: Omit<Filters<"GET /v1/memories">, "limit" | "offset"> & { page_size?: number } = {},
    options: CallOptions = {},
  ): AsyncGenerator<Answer<"GET /v1/memories">["memories"][number]> {
    const { page_size: pageSize = 200, ...filters } = query;
    for (let offset = 0; ; offset += pageSize) {
      const page = await this.listMemories({ ...filters, limit: pageSize, offset }, options);
      yield* page.memories;
      if (page.memories.length < pageSize) return;
    }
  }

  /** Every live `sequence_key` of the workspace (e.g. every chat). */
  async sequenceKeys(options: CallOptions = {}): Promise<string[]> {
    return (await this.request("GET /v1/memories/sequence-keys", options)).keys;
  }

  /** Several creates/updates/deletes in one request; one failing does not fail the others. */
  async batchMemories(
    operations: BatchOperation[],
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/memories/batch">> {
    const wire = operations.map((op) =>
      "type" in op && !("op" in op) && typeof op.data === "object" ? { op: op.type, ...op.data } : op,
    ) as Body<"POST /v1/memories/batch">["operations"];
    const body = this.withWorkspace({ operations: wire }, options);
    return this.request("POST /v1/memories/batch", { ...options, body });
  }

  /** Lower a memory's importance by `decayRate`. */
  async decay(memoryId: string, decayRate = 0.1, options: CallOptions = {}): Promise<Memory> {
    const answer = await this.request("POST /v1/memories/{memory_id}/decay", {
      ...options,
      path: { memory_id: memoryId },
      body: this.withWorkspace({ decay_rate: decayRate }, options),
    });
    return answer.memory;
  }

  /** A memory's history, oldest first; pass `next_page_token` back as `page_token` for the next page. */
  async revisions(
    memoryId: string,
    query: Filters<"GET /v1/memories/{memory_id}/revisions"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/memories/{memory_id}/revisions">> {
    return this.request("GET /v1/memories/{memory_id}/revisions", {
      ...options,
      path: { memory_id: memoryId },
      query: { limit: 100, ...query },
    });
  }

  /**
   * Soft-delete a memory as a new revision (`ifMatch`: its current etag): it leaves recall and listings until
   * `restoreMemory`; a retry with the same `idempotencyKey` answers the first result.
   */
  async deleteMemoryVersioned(memoryId: string, options: ConditionalOptions): Promise<Memory> {
    const answer = await this.request("POST /v1/memories/{memory_id}/delete", {
      ...options,
      path: { memory_id: memoryId },
      headers: versionedHeaders(options),
    });
    return answer.memory;
  }

  /** Bring a soft-deleted memory back (`ifMatch`: the deleted memory's etag); ConflictError if it is live. */
  async restoreMemory(memoryId: string, options: ConditionalOptions): Promise<Memory> {
    const answer = await this.request("POST /v1/memories/{memory_id}/restore", {
      ...options,
      path: { memory_id: memoryId },
      headers: versionedHeaders(options),
    });
    return answer.memory;
  }

  /**
   * Replace a memory's semantic document (fields left out take their defaults) as a new revision; the content
   * is embedded again. `ifMatch`: its current etag.
   */
  async replaceMemorySemantic(
    memoryId: string,
    content: string,
    type: Body<"PUT /v1/memories/{memory_id}/semantic">["type"],
    fields: Omit<Body<"PUT /v1/memories/{memory_id}/semantic">, "content" | "type">,
    options: ConditionalOptions,
  ): Promise<Memory> {
    const answer = await this.request("PUT /v1/memories/{memory_id}/semantic", {
      ...options,
      path: { memory_id: memoryId },
      body: { ...fields, content, type },
      headers: versionedHeaders(options),
    });
    return answer.memory;
  }

  // ------------------------------------------------------------------ associations
  /** Link two memories: `await client.associate(a.id, b.id, "solves", { strength: 0.9 })`. */
  async associate(
    sourceId: string,
    targetId: string,
    relationship: string,
    fields: Fields<"POST /v1/memories/{memory_id}/associate", "target_id" | "relationship"> = {},
    options: CallOptions = {},
  ): Promise<Association> {
    const body = this.withWorkspace({ strength: 0.5, ...fields, target_id: targetId, relationship }, options);
    const answer = await this.request("POST /v1/memories/{memory_id}/associate", {
      ...options,
      path: { memory_id: sourceId },
      body,
    });
    return answer.association;
  }

  /** Edges touching a memory (`direction`: both, outgoing, incoming). */
  async getAssociations(
    memoryId: string,
    { direction = "both", relationships }: { direction?: string; relationships?: string[] } = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/memories/{memory_id}/associations">["associations"]> {
    const answer = await this.request("GET /v1/memories/{memory_id}/associations", {
      ...options,
      path: { memory_id: memoryId },
      query: { direction, relationships: relationships?.length ? relationships.join(",") : undefined },
    });
    return answer.associations;
  }

  /** Change an edge's strength and/or replace its metadata. */
  async updateAssociation(
    memoryId: string,
    associationId: string,
    changes: Body<"PATCH /v1/memories/{memory_id}/associations/{association_id}">,
    options: CallOptions = {},
  ): Promise<void> {
    await this.request("PATCH /v1/memories/{memory_id}/associations/{association_id}", {
      ...options,
      path: { memory_id: memoryId, association_id: associationId },
      body: changes,
    });
  }

  /** Remove an edge (NotFoundError if it does not exist). */
  async deleteAssociation(memoryId: string, associationId: string, options: CallOptions = {}): Promise<void> {
    await this.request("DELETE /v1/memories/{memory_id}/associations/{association_id}", {
      ...options,
      path: { memory_id: memoryId, association_id: associationId },
    });
  }

  /** Paths through the association graph from `memoryId`. */
  async traverse(
    memoryId: string,
    fields: Fields<"POST /v1/memories/{memory_id}/traverse"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/memories/{memory_id}/traverse">> {
    return this.request("POST /v1/memories/{memory_id}/traverse", {
      ...options,
      path: { memory_id: memoryId },
      body: this.withWorkspace({ max_depth: 2, direction: "both" as const, min_strength: 0, ...fields }, options),
    });
  }

  // ------------------------------------------------------------------ contradictions
  /** Compare the workspace's live memories and record the contradictions not recorded before. */
  async scanContradictions(
    fields: NonNullable<Body<"POST /v1/workspaces/{workspace_id}/contradictions/scan">> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/workspaces/{workspace_id}/contradictions/scan">> {
    return this.request("POST /v1/workspaces/{workspace_id}/contradictions/scan", {
      ...options,
      path: { workspace_id: this.needWorkspace(options) },
      body: fields,
    });
  }

  /** The open contradictions (both memories still live), newest first. */
  async listContradictions(
    query: Filters<"GET /v1/workspaces/{workspace_id}/contradictions"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/workspaces/{workspace_id}/contradictions">["contradictions"]> {
    const answer = await this.request("GET /v1/workspaces/{workspace_id}/contradictions", {
      ...options,
      path: { workspace_id: this.needWorkspace(options) },
      query: { limit: 10, ...query },
    });
    return answer.contradictions;
  }

  /**
   * `keep_a` / `keep_b` (the other memory is superseded, its history kept), `keep_both`, or `merge` (memory A
   * becomes `merged_content`, B is superseded by it); ConflictError once resolved.
   */
  async resolveContradiction(
    contradictionId: string,
    resolution: Body<"POST /v1/contradictions/{contradiction_id}/resolve">["resolution"],
    { merged_content }: { merged_content?: string } = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/contradictions/{contradiction_id}/resolve">> {
    return this.request("POST /v1/contradictions/{contradiction_id}/resolve", {
      ...options,
      path: { contradiction_id: contradictionId },
      body: merged_content === undefined ? { resolution } : { resolution, merged_content },
    });
  }

  // ------------------------------------------------------------------ entities and ingest
  /** The workspace's entities (`status: "merged"`: the merged-away tombstones), by id. */
  async listEntities(
    query: Filters<"GET /v1/entities"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/entities">> {
    return this.request("GET /v1/entities", { ...options, query: { status: "active", limit: 100, ...query } });
  }

  /** One entity and its active relations. */
  async getEntity(entityId: string, options: CallOptions = {}): Promise<Answer<"GET /v1/entities/{entity_id}">> {
    return this.request("GET /v1/entities/{entity_id}", { ...options, path: { entity_id: entityId } });
  }

  /** The entity a name or alias resolves to, or null when none does. */
  async resolveEntity(
    name: string,
    query: Filters<"GET /v1/entities/resolve", "name"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/entities/resolve">["resolution"] | null> {
    try {
      const answer = await this.request("GET /v1/entities/resolve", { ...options, query: { ...query, name } });
      return answer.resolution;
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  /** Add names the entity resolves by; returns the entity. */
  async addEntityAliases(
    entityId: string,
    aliases: string[],
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/entities/{entity_id}/aliases">["entity"]> {
    const answer = await this.request("POST /v1/entities/{entity_id}/aliases", {
      ...options,
      path: { entity_id: entityId },
      body: { aliases },
    });
    return answer.entity;
  }

  /** The entity's aliases (NotFoundError if there is no such entity). */
  async entityAliases(entityId: string, options: CallOptions = {}): Promise<string[]> {
    const path = { entity_id: entityId };
    return (await this.request("GET /v1/entities/{entity_id}/aliases", { ...options, path })).aliases;
  }

  /** Fold `sourceId` into `targetId` (relations rewired, names kept as aliases); returns the target. */
  async mergeEntities(
    sourceId: string,
    targetId: string,
    { reason }: { reason?: string } = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/entities/merge">["entity"]> {
    const body = { source_id: sourceId, target_id: targetId, reason };
    return (await this.request("POST /v1/entities/merge", { ...options, body })).entity;
  }

  /** The entity's card: the entity, its named relations, top evidence, insights and a summary (no LLM). */
  async entityCard(
    entityId: string,
    query: Filters<"GET /v1/entities/{entity_id}/card"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/entities/{entity_id}/card">> {
    return this.request("GET /v1/entities/{entity_id}/card", { ...options, path: { entity_id: entityId }, query });
  }

  /** Where the entity came from and each memory (thread, messages) that is evidence of its relations. */
  async entityProvenance(
    entityId: string,
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/entities/{entity_id}/provenance">> {
    return this.request("GET /v1/entities/{entity_id}/provenance", { ...options, path: { entity_id: entityId } });
  }

  /** Entities found in the same memories as this one, most shared first. */
  async relatedEntities(
    entityId: string,
    query: Filters<"GET /v1/entities/{entity_id}/related"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/entities/{entity_id}/related">["related"]> {
    const answer = await this.request("GET /v1/entities/{entity_id}/related", {
      ...options,
      path: { entity_id: entityId },
      query: { limit: 10, min_shared: 1, ...query },
    });
    return answer.related;
  }

  /** The `inference` memories about the entity, with counts and its recent facts (derives nothing). */
  async entityInsights(
    entityId: string,
    query: Filters<"GET /v1/entities/{entity_id}/insights"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/entities/{entity_id}/insights">> {
    return this.request("GET /v1/entities/{entity_id}/insights", {
      ...options,
      path: { entity_id: entityId },
      query: { limit: 20, ...query },
    });
  }

  /**
   * Let the server's LLM derive insights from the entity's memories (stored as `inference` memories);
   * AuthorizationError `generation_not_allowed` when it has none.
   */
  async deriveEntityInsights(
    entityId: string,
    fields: Fields<"POST /v1/entities/{entity_id}/derive"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/entities/{entity_id}/derive">> {
    return this.request("POST /v1/entities/{entity_id}/derive", {
      ...options,
      path: { entity_id: entityId },
      body: this.withWorkspace(fields, options),
    });
  }

  /** Create or update a catalog of entities: `[{ name: "Acme", entity_type: "org", aliases: ["ACME"] }]`. */
  async seedEntities(
    entities: Body<"POST /v1/entities/seed">["entities"],
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/entities/seed">> {
    return this.request("POST /v1/entities/seed", { ...options, body: this.withWorkspace({ entities }, options) });
  }

  /**
   * Run the deterministic entity extraction over the workspace's stored memories (idempotent); a capped run
   * (`max_memories`) continues with `after: result.next_after`.
   */
  async backfillEntities(
    query: Filters<"POST /v1/entities/backfill"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/entities/backfill">> {
    return this.request("POST /v1/entities/backfill", { ...options, query: { batch_size: 200, ...query } });
  }

  /** Merge entities of one kind whose names or aliases collide into the most established of them. */
  async dedupeEntities(
    query: Filters<"POST /v1/entities/dedupe"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/entities/dedupe">> {
    return this.request("POST /v1/entities/dedupe", { ...options, query });
  }

  /** The reference's external-KB linking: eligible entities are counted and skipped (no knowledge base here). */
  async enrichEntities(
    { types, ...query }: Omit<Filters<"POST /v1/entities/enrich">, "types"> & { types?: string[] } = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/entities/enrich">> {
    return this.request("POST /v1/entities/enrich", {
      ...options,
      query: { ...query, types: types?.length ? types.join(",") : undefined },
    });
  }

  /** Store one email as a memory, with the relations its envelope declares. */
  async ingestEmail(
    sender: string,
    body: string,
    fields: Fields<"POST /v1/ingest/email", "sender" | "body"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/ingest/email">["memory"]> {
    const answer = await this.request("POST /v1/ingest/email", {
      ...options,
      body: this.withWorkspace({ ...fields, sender, body }, options),
    });
    return answer.memory;
  }

  // ------------------------------------------------------------------ sessions and working memory
  /** Open a session (id generated if omitted); `briefing: true` attaches a workspace briefing. */
  async createSession(fields: Fields<"POST /v1/sessions"> = {}, options: CallOptions = {}): Promise<NewSession> {
    const answer = await this.request("POST /v1/sessions", {
      ...options,
      body: this.withWorkspace(fields, options),
    });
    return { ...answer.session, briefing: answer.briefing ?? null };
  }

  /** A live session (NotFoundError once expired or deleted). */
  async getSession(sessionId: string, options: CallOptions = {}): Promise<Session> {
    const answer = await this.request("GET /v1/sessions/{session_id}", {
      ...options,
      path: { session_id: sessionId },
    });
    return answer.session;
  }

  /** The workspace's sessions (live ones unless `include_expired`). */
  async listSessions(query: Filters<"GET /v1/sessions"> = {}, options: CallOptions = {}): Promise<Session[]> {
    return (await this.request("GET /v1/sessions", { ...options, query })).sessions;
  }

  /** End a session (its working memory is committed first when `auto_commit`). */
  async deleteSession(sessionId: string, options: CallOptions = {}): Promise<void> {
    await this.request("DELETE /v1/sessions/{session_id}", { ...options, path: { session_id: sessionId } });
  }

  /** Push a session's expiry out (by `extendSeconds`, default an hour); returns the new expiry. */
  async touchSession(sessionId: string, extendSeconds?: number, options: CallOptions = {}): Promise<string | null> {
    const answer = await this.request("POST /v1/sessions/{session_id}/touch", {
      ...options,
      path: { session_id: sessionId },
      query: { extend_seconds: extendSeconds },
    });
    return answer.expires_at;
  }

  /** What happened in the workspace lately (`lookback_minutes`, default 60). */
  async briefing(
    query: Filters<"GET /v1/sessions/briefing"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/sessions/briefing">["briefing"]> {
    return (await this.request("GET /v1/sessions/briefing", { ...options, query })).briefing;
  }

  /** Set one working-memory key to any JSON value. */
  async setWorkingMemory(
    sessionId: string,
    key: string,
    value: unknown,
    { ttl_seconds }: { ttl_seconds?: number } = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/sessions/{session_id}/memory">> {
    return this.request("POST /v1/sessions/{session_id}/memory", {
      ...options,
      path: { session_id: sessionId },
      body: ttl_seconds === undefined ? { key, value } : { key, value, ttl_seconds },
    });
  }

  /** Set several working-memory keys in one request: `{ goal: "x", owner: "ana" }`. */
  async setWorkingMemoryItems(
    sessionId: string,
    items: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<NonNullable<Answer<"POST /v1/sessions/{session_id}/memory">["items"]>> {
    const answer = await this.request("POST /v1/sessions/{session_id}/memory", {
      ...options,
      path: { session_id: sessionId },
      body: { items },
    });
    return answer.items ?? [];
  }

  /** The session's working memory as `{key: value}` (only `key`'s entry when given). */
  async getWorkingMemory(sessionId: string, key?: string, options: CallOptions = {}): Promise<Record<string, unknown>> {
    const answer = await this.request("GET /v1/sessions/{session_id}/memory", {
      ...options,
      path: { session_id: sessionId },
      query: { key },
    });
    return (answer ?? {}) as Record<string, unknown>;
  }

  /** Turn the session's working memory into long-term memories (committing twice adds nothing). */
  async commitSession(
    sessionId: string,
    fields: Body<"POST /v1/sessions/{session_id}/commit"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/sessions/{session_id}/commit">> {
    return this.request("POST /v1/sessions/{session_id}/commit", {
      ...options,
      path: { session_id: sessionId },
      body: fields,
    });
  }

  /**
   * Store a transcript segment durably (a replay with the same `idempotency_key` returns the same
   * checkpoint); the SHA-256 content hash is computed here.
   */
  async createCheckpoint(
    sessionId: string,
    transcriptSegment: string,
    fields: Omit<Body<"POST /v1/sessions/{session_id}/checkpoints">, "transcript_segment" | "content_hash">,
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/sessions/{session_id}/checkpoints">> {
    const content_hash = await sha256Hex(transcriptSegment);
    return this.request("POST /v1/sessions/{session_id}/checkpoints", {
      ...options,
      path: { session_id: sessionId },
      body: { ...fields, transcript_segment: transcriptSegment, content_hash },
    });
  }

  async getCheckpoint(
    sessionId: string,
    checkpointId: string,
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/sessions/{session_id}/checkpoints/{checkpoint_id}">> {
    return this.request("GET /v1/sessions/{session_id}/checkpoints/{checkpoint_id}", {
      ...options,
      path: { session_id: sessionId, checkpoint_id: checkpointId },
    });
  }

  /** The session's context (directives, working memory, matches, recent activity …) within a budget. */
  async contextPack(
    sessionId: string,
    fields: Body<"POST /v1/sessions/{session_id}/context-pack"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/sessions/{session_id}/context-pack">> {
    return this.request("POST /v1/sessions/{session_id}/context-pack", {
      ...options,
      path: { session_id: sessionId },
      body: fields,
    });
  }

  /** What changed since `cursor` (ConflictError `cursor_expired`: take a new context pack). */
  async contextDelta(
    sessionId: string,
    cursor: string,
    fields: Omit<Body<"POST /v1/sessions/{session_id}/context-delta">, "cursor"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/sessions/{session_id}/context-delta">> {
    return this.request("POST /v1/sessions/{session_id}/context-delta", {
      ...options,
      path: { session_id: sessionId },
      body: { ...fields, cursor },
    });
  }

  // ------------------------------------------------------------------ context environment
  // A Python sandbox per session (the session goes in X-Session-ID): variables persist between calls.
  private sandbox(sessionId: string, options: CallOptions): CallOptions {
    return { ...options, headers: { ...options.headers, "X-Session-ID": sessionId } };
  }

  /**
   * Run Python in the session's sandbox. An exception in the code comes back in `error` (not thrown);
   * refused code and the time, memory and output limits throw ValidationError (422).
   */
  async contextExec(
    sessionId: string,
    code: string,
    fields: Omit<Body<"POST /v1/context/execute">, "code"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/context/execute">> {
    return this.request("POST /v1/context/execute", {
      ...this.sandbox(sessionId, options),
      body: { return_result: true, max_return_chars: 10_000, ...fields, code },
    });
  }

  /** Every variable of the sandbox, or only `variable` (NotFoundError if it does not exist). */
  async contextInspect(
    sessionId: string,
    variable?: string,
    { preview_chars = 200 }: { preview_chars?: number } = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/context/inspect">> {
    return this.request("POST /v1/context/inspect", {
      ...this.sandbox(sessionId, options),
      query: { variable, preview_chars },
    });
  }

  /** Recall `query` in the session's workspace into sandbox variable `name`, as a list of objects. */
  async contextLoad(
    sessionId: string,
    name: string,
    query: string,
    fields: Omit<Body<"POST /v1/context/load">, "var" | "query"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/context/load">> {
    return this.request("POST /v1/context/load", {
      ...this.sandbox(sessionId, options),
      body: { limit: 50, ...fields, var: name, query },
    });
  }

  /** Set sandbox variable `key` to a JSON value (`parse_json`: `value` is a JSON string to parse). */
  async contextInject(
    sessionId: string,
    key: string,
    value: unknown,
    { parse_json = false }: { parse_json?: boolean } = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/context/inject">> {
    return this.request("POST /v1/context/inject", {
      ...this.sandbox(sessionId, options),
      body: { key, value, parse_json },
    });
  }

  /** Ask the server's LLM about the named variables (AuthorizationError without a server LLM). */
  async contextQuery(
    sessionId: string,
    prompt: string,
    variables: string[],
    fields: Omit<Body<"POST /v1/context/query">, "prompt" | "variables"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/context/query">> {
    return this.request("POST /v1/context/query", {
      ...this.sandbox(sessionId, options),
      body: { ...fields, prompt, variables },
    });
  }

  /** Let the server's LLM write and run code in the sandbox until `goal` is reached. */
  async contextRlm(
    sessionId: string,
    goal: string,
    fields: Omit<Body<"POST /v1/context/rlm">, "goal"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/context/rlm">> {
    return this.request("POST /v1/context/rlm", { ...this.sandbox(sessionId, options), body: { ...fields, goal } });
  }

  /** Whether the session has a sandbox yet, its variables, size and limits (never creates one). */
  async contextStatus(sessionId: string, options: CallOptions = {}): Promise<Answer<"GET /v1/context/status">> {
    return this.request("GET /v1/context/status", this.sandbox(sessionId, options));
  }

  /** Mark the sandbox's state checkpointed. */
  async contextCheckpoint(sessionId: string, options: CallOptions = {}): Promise<void> {
    await this.request("POST /v1/context/checkpoint", this.sandbox(sessionId, options));
  }

  /** Delete the session's sandbox and its variables now. */
  async contextCleanup(sessionId: string, options: CallOptions = {}): Promise<void> {
    await this.request("DELETE /v1/context/cleanup", this.sandbox(sessionId, options));
  }

  // ------------------------------------------------------------------ threads and jobs
  /** A conversation whose messages feed memory extraction (`id`: a client-chosen thread id). */
  async createThread(fields: Fields<"POST /v1/threads"> = {}, options: CallOptions = {}): Promise<Thread> {
    const answer = await this.request("POST /v1/threads", { ...options, body: this.withWorkspace(fields, options) });
    return answer.thread;
  }

  /** The workspace's top-level, unarchived threads (`include_hidden`, `parent_thread`, filters). */
  async listThreads(query: Filters<"GET /v1/threads"> = {}, options: CallOptions = {}): Promise<Thread[]> {
    return (await this.request("GET /v1/threads", { ...options, query })).threads;
  }

  /** One user's threads across every workspace this key may see. */
  async listUserThreads(
    userId: string,
    query: Query<"GET /v1/threads/user/{user_id}"> = {},
    options: CallOptions = {},
  ): Promise<Thread[]> {
    const answer = await this.request("GET /v1/threads/user/{user_id}", {
      ...options,
      path: { user_id: userId },
      query: { ownership: "user", limit: 50, offset: 0, ...query },
    });
    return answer.threads;
  }

  async getThread(threadId: string, options: CallOptions = {}): Promise<Thread> {
    return (await this.request("GET /v1/threads/{thread_id}", { ...options, path: { thread_id: threadId } })).thread;
  }

  /** The thread and a page of its messages (the server's default: the first 100, in order). */
  async getThreadWithMessages(
    threadId: string,
    query: Filters<"GET /v1/threads/{thread_id}/full"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/threads/{thread_id}/full">> {
    return this.request("GET /v1/threads/{thread_id}/full", { ...options, path: { thread_id: threadId }, query });
  }

  async updateThread(
    threadId: string,
    changes: Body<"PUT /v1/threads/{thread_id}">,
    options: CallOptions = {},
  ): Promise<Thread> {
    const answer = await this.request("PUT /v1/threads/{thread_id}", {
      ...options,
      path: { thread_id: threadId },
      body: changes,
    });
    return answer.thread;
  }

  /** Hide a thread from the default listings (still readable by id); `restoreThread` undoes it. */
  async archiveThread(threadId: string, options: CallOptions = {}): Promise<Thread> {
    const path = { thread_id: threadId };
    return (await this.request("POST /v1/threads/{thread_id}/archive", { ...options, path })).thread;
  }

  async restoreThread(threadId: string, options: CallOptions = {}): Promise<Thread> {
    const path = { thread_id: threadId };
    return (await this.request("POST /v1/threads/{thread_id}/restore", { ...options, path })).thread;
  }

  async deleteThread(threadId: string, options: CallOptions = {}): Promise<void> {
    await this.request("DELETE /v1/threads/{thread_id}", { ...options, path: { thread_id: threadId } });
  }

  /** Append `{role, content[, id, metadata]}` messages; extraction runs as job `job_id`. */
  async appendMessages(
    threadId: string,
    messages: MessageCreate[],
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/threads/{thread_id}/messages">> {
    return this.request("POST /v1/threads/{thread_id}/messages", {
      ...options,
      path: { thread_id: threadId },
      body: { messages },
    });
  }

  async listMessages(
    threadId: string,
    query: Filters<"GET /v1/threads/{thread_id}/messages"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/threads/{thread_id}/messages">> {
    return this.request("GET /v1/threads/{thread_id}/messages", {
      ...options,
      path: { thread_id: threadId },
      query,
    });
  }

  async deleteMessage(threadId: string, messageId: string, options: CallOptions = {}): Promise<void> {
    await this.request("DELETE /v1/threads/{thread_id}/messages/{message_id}", {
      ...options,
      path: { thread_id: threadId, message_id: messageId },
    });
  }

  /** Extract memories now from the messages not yet processed (no queue round trip). */
  async decomposeThread(
    threadId: string,
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/threads/{thread_id}/decompose">> {
    return this.request("POST /v1/threads/{thread_id}/decompose", { ...options, path: { thread_id: threadId } });
  }

  async getJob(jobId: string, options: CallOptions = {}): Promise<Job> {
    return (await this.request("GET /v1/jobs/{job_id}", { ...options, path: { job_id: jobId } })).job;
  }

  /** Poll a job until it is `done` or `failed` and return it; JobTimeoutError after `timeoutMs`. */
  async waitForJob(
    jobId: string,
    { timeoutMs = 60_000, pollIntervalMs = 250 }: { timeoutMs?: number; pollIntervalMs?: number } = {},
    options: CallOptions = {},
  ): Promise<Job> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await this.getJob(jobId, options);
      if (job.status === "done" || job.status === "failed") return job;
      if (Date.now() >= deadline) {
        throw new JobTimeoutError(`job ${jobId} still ${job.status} after ${timeoutMs} ms`, { code: "job_timeout" });
      }
      await sleep(pollIntervalMs / 1000, options.signal);
    }
  }

  // ------------------------------------------------------------------ workspaces
  /** `await client.createWorkspace("Project X", { id: "ws_x" })` (id made if omitted). */
  async createWorkspace(
    name: string,
    fields: Omit<Body<"POST /v1/workspaces">, "name"> = {},
    options: CallOptions = {},
  ): Promise<Workspace> {
    const answer = await this.request("POST /v1/workspaces", { ...options, body: { ...fields, name } });
    return answer.workspace;
  }

  /** The named workspace, or the client's own. */
  async getWorkspace(workspaceId?: string, options: CallOptions = {}): Promise<Workspace> {
    const path = { workspace_id: workspaceId ?? this.needWorkspace(options) };
    return (await this.request("GET /v1/workspaces/{workspace_id}", { ...options, path })).workspace;
  }

  /** All workspaces, or those carrying `tags` (`match`: all or any). */
  async listWorkspaces(
    { tags, match = "all" }: { tags?: string[]; match?: "all" | "any" } = {},
    options: CallOptions = {},
  ): Promise<Workspace[]> {
    const query = tags?.length ? { tags, match } : {};
    return (await this.request("GET /v1/workspaces", { ...options, query })).workspaces;
  }

  async updateWorkspace(
    workspaceId: string,
    changes: Body<"PUT /v1/workspaces/{workspace_id}">,
    options: CallOptions = {},
  ): Promise<Workspace> {
    const answer = await this.request("PUT /v1/workspaces/{workspace_id}", {
      ...options,
      path: { workspace_id: workspaceId },
      body: changes,
    });
    return answer.workspace;
  }

  async deleteWorkspace(workspaceId: string, options: CallOptions = {}): Promise<void> {
    await this.request("DELETE /v1/workspaces/{workspace_id}", { ...options, path: { workspace_id: workspaceId } });
  }

  /** The relationship types and subtypes the workspace accepts. */
  async workspaceSchema(
    workspaceId?: string,
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/workspaces/{workspace_id}/schema">> {
    const path = { workspace_id: workspaceId ?? this.needWorkspace(options) };
    return this.request("GET /v1/workspaces/{workspace_id}/schema", { ...options, path });
  }

  /** A named context in the workspace. */
  async createContext(
    name: string,
    fields: Omit<Body<"POST /v1/workspaces/{workspace_id}/contexts">, "name"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/workspaces/{workspace_id}/contexts">["context"]> {
    const answer = await this.request("POST /v1/workspaces/{workspace_id}/contexts", {
      ...options,
      path: { workspace_id: this.needWorkspace(options) },
      body: { ...fields, name },
    });
    return answer.context;
  }

  async listContexts(
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/workspaces/{workspace_id}/contexts">["contexts"]> {
    const path = { workspace_id: this.needWorkspace(options) };
    return (await this.request("GET /v1/workspaces/{workspace_id}/contexts", { ...options, path })).contexts;
  }

  async deleteContext(contextId: string, options: CallOptions = {}): Promise<void> {
    await this.request("DELETE /v1/workspaces/{workspace_id}/contexts/{context_id}", {
      ...options,
      path: { workspace_id: this.needWorkspace(options), context_id: contextId },
    });
  }

  /** The workspace's NDJSON export, parsed (`limit: 0`: everything). */
  async exportWorkspace(
    workspaceId?: string,
    query: Filters<"GET /v1/workspaces/{workspace_id}/export"> = {},
    options: CallOptions = {},
  ): Promise<WorkspaceExport> {
    const text = await this.request("GET /v1/workspaces/{workspace_id}/export", {
      ...options,
      path: { workspace_id: workspaceId ?? this.needWorkspace(options) },
      query: { include_associations: true, offset: 0, limit: 0, ...query },
      accept: "application/x-ndjson",
    });
    return parseExport(typeof text === "string" ? text : undefined);
  }

  /** Load an export (from `exportWorkspace`) into a workspace. */
  async importWorkspace(
    workspaceId: string,
    data: WorkspaceExport | Body<"POST /v1/workspaces/{workspace_id}/import">["data"],
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/workspaces/{workspace_id}/import">> {
    return this.request("POST /v1/workspaces/{workspace_id}/import", {
      ...options,
      path: { workspace_id: workspaceId },
      body: { data: data as Body<"POST /v1/workspaces/{workspace_id}/import">["data"] },
    });
  }

  // ------------------------------------------------------------------ workspace views and observations
  // Views of the workspace (checkouts, worktrees, snapshots) and what observers publish about each: versioned
  // documents, written with an Idempotency-Key and `ifMatch` (the current etag; a stale one is a 412).
  private views(options: CallOptions): { workspace_id: string } {
    return { workspace_id: this.needWorkspace(options) };
  }

  /** A new view (`kind`: directory, git_worktree, checkout, snapshot or overlay); ConflictError if the id is taken. */
  async createWorkspaceView(
    viewId: string,
    kind: Body<"POST /v1/workspaces/{workspace_id}/views">["kind"],
    fields: Omit<Body<"POST /v1/workspaces/{workspace_id}/views">, "view_id" | "kind"> = {},
    options: WriteOptions = {},
  ): Promise<WorkspaceView> {
    const answer = await this.request("POST /v1/workspaces/{workspace_id}/views", {
      ...options,
      path: this.views(options),
      body: { ...fields, view_id: viewId, kind },
      headers: versionedHeaders(options),
    });
    return answer.view;
  }

  /** A page of views, most recently changed first; pass `next_page_token` back as `page_token`. */
  async listWorkspaceViews(
    query: Filters<"GET /v1/workspaces/{workspace_id}/views"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/workspaces/{workspace_id}/views">> {
    return this.request("GET /v1/workspaces/{workspace_id}/views", { ...options, path: this.views(options), query });
  }

  /** One view (`include_deleted`: its tombstone too, whose etag a restore sends). */
  async getWorkspaceView(
    viewId: string,
    query: Filters<"GET /v1/workspaces/{workspace_id}/views/{view_id}"> = {},
    options: CallOptions = {},
  ): Promise<WorkspaceView> {
    const answer = await this.request("GET /v1/workspaces/{workspace_id}/views/{view_id}", {
      ...options,
      path: { ...this.views(options), view_id: viewId },
      query,
    });
    return answer.view;
  }

  /** Replace a view's description (fields left out take their defaults); `ifMatch`: its etag. */
  async replaceWorkspaceView(
    viewId: string,
    kind: Body<"PUT /v1/workspaces/{workspace_id}/views/{view_id}">["kind"],
    fields: Omit<Body<"PUT /v1/workspaces/{workspace_id}/views/{view_id}">, "kind">,
    options: ConditionalOptions,
  ): Promise<WorkspaceView> {
    const answer = await this.request("PUT /v1/workspaces/{workspace_id}/views/{view_id}", {
      ...options,
      path: { ...this.views(options), view_id: viewId },
      body: { ...fields, kind },
      headers: versionedHeaders(options),
    });
    return answer.view;
  }

  /** Tombstone a view (its observations are hidden until `restoreWorkspaceView`). */
  async deleteWorkspaceView(viewId: string, options: ConditionalOptions): Promise<WorkspaceView> {
    const answer = await this.request("DELETE /v1/workspaces/{workspace_id}/views/{view_id}", {
      ...options,
      path: { ...this.views(options), view_id: viewId },
      headers: versionedHeaders(options),
    });
    return answer.view;
  }

  /** Revive a deleted view; `ifMatch`: the tombstone's etag (ConflictError if it is live). */
  async restoreWorkspaceView(viewId: string, options: ConditionalOptions): Promise<WorkspaceView> {
    const answer = await this.request("POST /v1/workspaces/{workspace_id}/views/{view_id}/restore", {
      ...options,
      path: { ...this.views(options), view_id: viewId },
      headers: versionedHeaders(options),
    });
    return answer.view;
  }

  /** A view's revisions (deletes and restores too), newest first, each with the view as it left it. */
  async listWorkspaceViewRevisions(
    viewId: string,
    query: Filters<"GET /v1/workspaces/{workspace_id}/views/{view_id}/revisions"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/workspaces/{workspace_id}/views/{view_id}/revisions">> {
    return this.request("GET /v1/workspaces/{workspace_id}/views/{view_id}/revisions", {
      ...options,
      path: { ...this.views(options), view_id: viewId },
      query,
    });
  }

  /**
   * Publish an observer's state for a view: without `ifMatch` the first publish (ConflictError if taken), with
   * it a replace (within one `generation` the `sequence` must advance, else a ValidationError).
   */
  async publishViewObservation(
    viewId: string,
    observerId: string,
    generation: string,
    sequence: number,
    fields: Omit<ViewObservationBody, "generation" | "sequence"> = {},
    options: WriteOptions & { ifMatch?: string } = {},
  ): Promise<WorkspaceViewObservation> {
    const answer = await this.request("PUT /v1/workspaces/{workspace_id}/views/{view_id}/observations/{observer_id}", {
      ...options,
      path: { ...this.views(options), view_id: viewId, observer_id: observerId },
      body: { ...fields, generation, sequence },
      headers: versionedHeaders(options),
    });
    return answer.observation;
  }

  /** A page of a live view's observations, most recently changed first. */
  async listViewObservations(
    viewId: string,
    query: Filters<"GET /v1/workspaces/{workspace_id}/views/{view_id}/observations"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/workspaces/{workspace_id}/views/{view_id}/observations">> {
    return this.request("GET /v1/workspaces/{workspace_id}/views/{view_id}/observations", {
      ...options,
      path: { ...this.views(options), view_id: viewId },
      query,
    });
  }

  /** One observer's observation of a live view (`include_deleted`: its tombstone too). */
  async getViewObservation(
    viewId: string,
    observerId: string,
    query: Filters<"GET /v1/workspaces/{workspace_id}/views/{view_id}/observations/{observer_id}"> = {},
    options: CallOptions = {},
  ): Promise<WorkspaceViewObservation> {
    const answer = await this.request("GET /v1/workspaces/{workspace_id}/views/{view_id}/observations/{observer_id}", {
      ...options,
      path: { ...this.views(options), view_id: viewId, observer_id: observerId },
      query,
    });
    return answer.observation;
  }

  /** Tombstone an observation (`restoreViewObservation` revives it). */
  async deleteViewObservation(
    viewId: string,
    observerId: string,
    options: ConditionalOptions,
  ): Promise<WorkspaceViewObservation> {
    const path = { ...this.views(options), view_id: viewId, observer_id: observerId };
    const headers = versionedHeaders(options);
    const op = this.request("DELETE /v1/workspaces/{workspace_id}/views/{view_id}/observations/{observer_id}", {
      ...options,
      path,
      headers,
    });
    return (await op).observation;
  }

  /** Revive a deleted observation; `ifMatch`: the tombstone's etag. */
  async restoreViewObservation(
    viewId: string,
    observerId: string,
    options: ConditionalOptions,
  ): Promise<WorkspaceViewObservation> {
    const path = { ...this.views(options), view_id: viewId, observer_id: observerId };
    const headers = versionedHeaders(options);
    const op = this.request("POST /v1/workspaces/{workspace_id}/views/{view_id}/observations/{observer_id}/restore", {
      ...options,
      path,
      headers,
    });
    return (await op).observation;
  }

  /** An observation's revisions (publishes, deletes, restores), newest first. */
  async listViewObservationRevisions(
    viewId: string,
    observerId: string,
    query: Filters<"GET /v1/workspaces/{workspace_id}/views/{view_id}/observations/{observer_id}/revisions"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/workspaces/{workspace_id}/views/{view_id}/observations/{observer_id}/revisions">> {
    const path = { ...this.views(options), view_id: viewId, observer_id: observerId };
    return this.request("GET /v1/workspaces/{workspace_id}/views/{view_id}/observations/{observer_id}/revisions", {
      ...options,
      path,
      query,
    });
  }

  // ------------------------------------------------------------------ documents
  /**
   * Upload a small document (the server's `document_max_bytes`) and queue its ingestion; the same bytes
   * again answer the earlier document. Returns the document and its ingestion job.
   */
  async uploadDocument(
    data: Blob | Uint8Array | string,
    filename: string,
    fields: Omit<Body<"POST /v1/documents">, "file"> & { content_type?: string } = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/documents">> {
    const { content_type: type = "application/octet-stream", ...form } = fields;
    const body = new FormData();
    for (const [name, value] of Object.entries(form)) {
      if (value !== undefined && value !== null) body.append(name, String(value));
    }
    const blob = data instanceof Blob ? data : new Blob([data] as ConstructorParameters<typeof Blob>[0], { type });
    body.append("file", blob, filename);
    return this.request("POST /v1/documents", { ...options, body });
  }

  /**
   * A document of any size in one call: `source` is a path (Node), a Blob/File or bytes. Up to `directMaxBytes`
   * it goes through `uploadDocument`; larger, or when the server answers 413, through `createDocumentUpload` and
   * a POST of the file to the bucket. `wait: true` polls the ingestion job until it is finished.
   *
   *     const { document, job } = await client.uploadFile("report.pdf", { wait: true }); // 20 MB: the bucket
   */
  async uploadFile(
    source: string | Blob | Uint8Array,
    fields: UploadFileFields = {},
    options: CallOptions = {},
  ): Promise<DocumentWithJob> {
    const { filename, content_type, wait = false, waitTimeoutMs = 600_000, pollIntervalMs = 500 } = fields;
    const { directMaxBytes = DIRECT_UPLOAD_MAX_BYTES, ...rest } = fields;
    const extraction: Record<string, string | number> = {};
    for (const key of ["target_context_id", "chunk_size", "importance"] as const) {
      if (rest[key] !== undefined && rest[key] !== null) extraction[key] = rest[key];
    }
    let data: Blob | Uint8Array;
    let name = filename;
    if (typeof source === "string") {
      // Imported here so the package still loads where there is no file system (browsers, workers).
      const { readFile } = await import("node:fs/promises");
      const { basename } = await import("node:path");
      data = await readFile(source);
      name ??= basename(source);
    } else {
      data = source;
      name ??= typeof File !== "undefined" && source instanceof File ? source.name : undefined;
    }
    if (!name) throw new TypeError("uploadFile needs a filename for bytes or an unnamed Blob");
    const ext = name.includes(".") ? name.split(".").pop()!.toLowerCase() : "";
    const type = content_type || (data instanceof Blob && data.type) || CONTENT_TYPES[ext] || "application/octet-stream";
    const blob = data instanceof Blob ? data : new Blob([data] as ConstructorParameters<typeof Blob>[0], { type });

    let accepted: DocumentWithJob | undefined;
    if (blob.size <= directMaxBytes) {
      try {
        accepted = await this.uploadDocument(blob, name, { ...extraction, content_type: type }, options);
      } catch (error) {
        if (!(error instanceof PayloadTooLargeError)) throw error; // the server's cap is lower: the bucket takes it
      }
    }
    if (!accepted) {
      const grant = await this.createDocumentUpload(
        name,
        { content_type: type, extraction_options: Object.keys(extraction).length ? extraction : null },
        options,
      );
      const form = new FormData();
      for (const [key, value] of Object.entries(grant.fields)) form.append(key, value);
      form.append("file", blob, name); // last: S3 ignores fields after the file
      const where = grant.upload_url.split("?", 1)[0];
      const timeout = AbortSignal.timeout(options.timeoutMs ?? Math.max(this.timeoutMs, 300_000));
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      const sent = await this.fetcher(grant.upload_url, { method: "POST", body: form, signal });
      if (!sent.ok) {
        const text = (await sent.text()).slice(0, 500);
        throw new MemoryLayerError(`the bucket refused the upload: ${text}`, {
          status: sent.status,
          method: "POST",
          url: where,
        });
      }
      accepted = { document: grant.document, job: grant.job };
    }
    if (!wait) return accepted;
    const job = await this.waitForDocumentJob(accepted.job.id, { timeoutMs: waitTimeoutMs, pollIntervalMs }, options);
    return { document: await this.getDocument(accepted.document.id, options), job };
  }

  /** Poll a document ingestion job until it is `completed`, `failed` or `cancelled`; JobTimeoutError after. */
  async waitForDocumentJob(
    jobId: string,
    { timeoutMs = 600_000, pollIntervalMs = 500 }: { timeoutMs?: number; pollIntervalMs?: number } = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/documents/jobs/{job_id}">> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await this.getDocumentJob(jobId, options);
      if (DOCUMENT_JOB_FINISHED.has(job.status)) return job;
      if (Date.now() >= deadline) {
        throw new JobTimeoutError(`document job ${jobId} still ${job.status} after ${timeoutMs} ms`, {
          code: "job_timeout",
        });
      }
      await sleep(pollIntervalMs / 1000, options.signal);
    }
  }

  /** (documents, total), newest first. */
  async listDocuments(
    query: Filters<"GET /v1/documents"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/documents">> {
    return this.request("GET /v1/documents", { ...options, query: { limit: 50, offset: 0, ...query } });
  }

  async getDocument(documentId: string, options: CallOptions = {}): Promise<Answer<"GET /v1/documents/{document_id}">> {
    return this.request("GET /v1/documents/{document_id}", { ...options, path: { document_id: documentId } });
  }

  /** Remove the document, its pages and its bytes; `delete_memories`: forget its memories too. */
  async deleteDocument(
    documentId: string,
    { delete_memories = false }: { delete_memories?: boolean } = {},
    options: CallOptions = {},
  ): Promise<void> {
    await this.request("DELETE /v1/documents/{document_id}", {
      ...options,
      path: { document_id: documentId },
      query: { delete_memories },
    });
  }

  /** A document ingestion job (`getJob` is the thread extraction job's). */
  async getDocumentJob(jobId: string, options: CallOptions = {}): Promise<Answer<"GET /v1/documents/jobs/{job_id}">> {
    return this.request("GET /v1/documents/jobs/{job_id}", { ...options, path: { job_id: jobId } });
  }

  /** A presigned URL for a large file: POST `fields` and the file to `upload_url`; the job starts then. */
  async createDocumentUpload(
    filename: string,
    fields: Omit<Body<"POST /v1/documents/uploads">, "filename"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/documents/uploads">> {
    return this.request("POST /v1/documents/uploads", { ...options, body: { ...fields, filename } });
  }

  /** Pages ranked by text-embedding similarity to `query`. */
  async searchDocumentPages(
    query: string,
    fields: Omit<Body<"POST /v1/documents/search">, "query"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/documents/search">> {
    return this.request("POST /v1/documents/search", { ...options, body: { limit: 10, ...fields, query } });
  }

  async getDocumentPages(
    documentId: string,
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/documents/{document_id}/pages">["pages"]> {
    const path = { document_id: documentId };
    return (await this.request("GET /v1/documents/{document_id}/pages", { ...options, path })).pages;
  }

  async getDocumentPage(
    documentId: string,
    pageId: string,
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/documents/{document_id}/pages/{page_id}">> {
    const path = { document_id: documentId, page_id: pageId };
    return this.request("GET /v1/documents/{document_id}/pages/{page_id}", { ...options, path });
  }

  /** The memories derived from the document, with their provenance (page, span). */
  async getDocumentMemories(
    documentId: string,
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/documents/{document_id}/memories">> {
    const path = { document_id: documentId };
    return this.request("GET /v1/documents/{document_id}/memories", { ...options, path });
  }

  /** Derive the document again (optionally with new options); nothing is duplicated. */
  async reprocessDocument(
    documentId: string,
    extractionOptions: NonNullable<Body<"POST /v1/documents/{document_id}/reprocess">>["extraction_options"] = {},
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/documents/{document_id}/reprocess">> {
    return this.request("POST /v1/documents/{document_id}/reprocess", {
      ...options,
      path: { document_id: documentId },
      body: { extraction_options: extractionOptions },
    });
  }

  /** Re-check the stored bytes against the hash (`intact`), re-running a document that never completed. */
  async verifyDocument(
    documentId: string,
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/documents/{document_id}/verify">> {
    const path = { document_id: documentId };
    return this.request("POST /v1/documents/{document_id}/verify", { ...options, path });
  }

  async listDocumentJobs(
    query: Filters<"GET /v1/documents/jobs"> = {},
    options: CallOptions = {},
  ): Promise<Answer<"GET /v1/documents/jobs">["jobs"]> {
    const paged = { limit: 50, offset: 0, ...query };
    return (await this.request("GET /v1/documents/jobs", { ...options, query: paged })).jobs;
  }

  async cancelDocumentJob(
    jobId: string,
    options: CallOptions = {},
  ): Promise<Answer<"POST /v1/documents/jobs/{job_id}/cancel">> {
    return this.request("POST /v1/documents/jobs/{job_id}/cancel", { ...options, path: { job_id: jobId } });
  }

  // ------------------------------------------------------------------ service
  /** `{status: "healthy"}` when the server is up. */
  async health(options: CallOptions = {}): Promise<Answer<"GET /health">> {
    return this.request("GET /health", options);
  }

  /** `{status: "ready", services: {...}}` once the database answers (ServerError 503 before). */
  async ready(options: CallOptions = {}): Promise<Answer<"GET /health/ready">> {
    return this.request("GET /health/ready", options);
  }

  /** The server's name and version. */
  async info(options: CallOptions = {}): Promise<Answer<"GET /">> {
    return this.request("GET /", options);
  }
}
