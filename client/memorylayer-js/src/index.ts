/** `@memorylayer/client`: a fetch-based TypeScript client for the MemoryLayer API, with no dependencies. */

export * from "./client.js";
export * from "./errors.js";
export { BaseClient, DEFAULT_BASE_URL, VERSION } from "./http.js";
export type { CallOptions, ClientOptions, RequestArgs, ResponseOf } from "./http.js";
export { RetryPolicy, retryAfterSeconds } from "./retry.js";
export type { RetryOptions } from "./retry.js";
// Every generated schema, as `api.Name` (one of them, FastAPI's `ValidationError`, shares its name with an
// error class); the ones a caller meets most are exported by name as well.
export type * as api from "./api.js";
export type {
  Association,
  Checkpoint,
  ContextPack,
  Contradiction,
  Job,
  Memory,
  MessageCreate,
  OperationKey,
  Operations,
  RecallResponse,
  RememberedMemory,
  Session,
  Thread,
  Workspace,
  WorkspaceView,
  WorkspaceViewObservation,
} from "./api.js";
