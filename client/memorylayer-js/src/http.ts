/**
 * The request machinery every method goes through: configuration (arguments, then MEMORYLAYER_* variables),
 * one typed `request` per operation of the generated `Operations` map, the retry loop and error mapping.
 */

import { MemoryLayerError, TransportError, errorForStatus } from "./errors.js";
import type { OperationKey, Operations } from "./api.js";
import { RetryPolicy, retryAfterSeconds, sleep, type RetryOptions } from "./retry.js";

export const VERSION = "0.3.0";
export const DEFAULT_BASE_URL = "http://localhost:61001";

export interface ClientOptions extends RetryOptions {
  /** The server, e.g. `https://…/prod`; falls back to MEMORYLAYER_URL, then http://localhost:61001. */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer …`; falls back to MEMORYLAYER_API_KEY. */
  apiKey?: string;
  /** Sent as `X-Workspace-ID` (and in bodies that take it); falls back to MEMORYLAYER_WORKSPACE_ID. */
  workspaceId?: string;
  /** Milliseconds each attempt may take (default 30 000). */
  timeoutMs?: number;
  /** Headers added to every request. */
  headers?: Record<string, string>;
  /** A fetch of your own (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
}

/** What any method call may also say. */
export interface CallOptions {
  /** This call's workspace instead of the client's. */
  workspaceId?: string;
  /** Aborts the call (and any retry wait); the abort's reason is thrown as it is. */
  signal?: AbortSignal;
  /** This call's per-attempt timeout instead of the client's. */
  timeoutMs?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

type Slot<T> = [T] extends [never] ? undefined : T;

/** One operation's request: its path and query parameters and body, as the generated types say. */
export interface RequestArgs<K extends OperationKey> extends CallOptions {
  path?: Slot<Operations[K]["path"]>;
  query?: Slot<Partial<Operations[K]["query"]>> | Record<string, unknown>;
  body?: Slot<Operations[K]["body"]> | FormData | string;
  /** Overrides the Accept header (e.g. NDJSON). */
  accept?: string;
}

export type ResponseOf<K extends OperationKey> = Operations[K]["response"];

// Failures where the request never left: safe to retry whatever the method.
const NEVER_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]);

function env(name: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  return value ? value : undefined;
}

function failureCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === "string" ? cause.code : undefined;
}

function appendQuery(url: URL, query: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      url.searchParams.append(name, item instanceof Date ? item.toISOString() : String(item));
    }
  }
}

async function readBody(response: Response): Promise<unknown> {
  const type = response.headers.get("content-type") ?? "";
  if (response.status === 204) return undefined;
  if (type.includes("json") && !type.includes("ndjson")) {
    const text = await response.text();
    return text ? JSON.parse(text) : undefined;
  }
  if (!type || type.startsWith("text/") || type.includes("ndjson")) {
    const text = await response.text();
    return text || undefined;
  }
  return response.arrayBuffer();
}

async function errorBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => "");
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export class BaseClient {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly workspaceId: string | undefined;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  private readonly headers: Record<string, string>;
  /** The fetch every call goes through (the client's option, else the global one). */
  protected readonly fetcher: typeof fetch;

  constructor(options: ClientOptions = {}) {
    const root = (options.baseUrl || env("MEMORYLAYER_URL") || DEFAULT_BASE_URL).replace(/\/+$/, "");
    this.baseUrl = root.endsWith("/v1") ? root.slice(0, -3) : root;
    this.apiKey = options.apiKey || env("MEMORYLAYER_API_KEY");
    this.workspaceId = options.workspaceId || env("MEMORYLAYER_WORKSPACE_ID");
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retry = new RetryPolicy(options);
    this.fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.headers = { "User-Agent": `memorylayer-js/${VERSION}`, Accept: "application/json", ...options.headers };
    if (this.apiKey) this.headers.Authorization = `Bearer ${this.apiKey}`;
  }

  /**
   * Any operation of the API, typed by the generated `Operations` map: the methods are written with it, and
   * it reaches the operations they leave out.
   *
   *     const page = await client.request("GET /v1/skills", { query: { limit: 10 } });
   */
  async request<K extends OperationKey>(operation: K, args: RequestArgs<K> = {}): Promise<ResponseOf<K>> {
    const [method, template] = operation.split(" ", 2) as [string, string];
    const params = (args.path ?? {}) as Record<string, string>;
    const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined || value === null || value === "") {
        throw new TypeError(`${operation}: path parameter ${name} is required`);
      }
      return encodeURIComponent(String(value));
    });
    const url = new URL(this.baseUrl + path);
    if (args.query) appendQuery(url, args.query as Record<string, unknown>);

    const headers = new Headers(this.headers);
    if (args.accept) headers.set("Accept", args.accept);
    const workspace = args.workspaceId || this.workspaceId;
    if (workspace) headers.set("X-Workspace-ID", workspace);
    for (const [name, value] of Object.entries(args.headers ?? {})) headers.set(name, value);
    let body: RequestInit["body"];
    if (args.body instanceof FormData || typeof args.body === "string") {
      body = args.body;
    } else if (args.body !== undefined) {
      body = JSON.stringify(args.body);
      headers.set("Content-Type", "application/json");
    }
    return (await this.send(method, url, headers, body, args)) as ResponseOf<K>;
  }

  /** The workspace this call is about: the call's, else the client's (an error when neither is set). */
  protected needWorkspace(options?: CallOptions): string {
    const workspace = options?.workspaceId || this.workspaceId;
    if (!workspace) throw new TypeError("workspaceId is required (pass it, or set it on the client)");
    return workspace;
  }

  /** `body` plus `workspace_id` (the call's or the client's), for the routes that read it there. */
  protected withWorkspace<T extends object>(body: T, options?: CallOptions): T & { workspace_id?: string } {
    const workspace = options?.workspaceId || this.workspaceId;
    return workspace ? { ...body, workspace_id: workspace } : body;
  }

  private async send(
    method: string,
    url: URL,
    headers: Headers,
    body: RequestInit["body"],
    options: CallOptions,
  ): Promise<unknown> {
    const retryable = RetryPolicy.retryable(method, headers);
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    for (let attempt = 0; ; attempt += 1) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      let response: Response;
      try {
        response = await this.fetcher(url, { method, headers, body, signal });
        if (response.ok) return await readBody(response);
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (error instanceof MemoryLayerError || error instanceof SyntaxError) throw error;
        const timedOut = timeout.aborted;
        const code = failureCode(error);
        const delay = this.retry.afterFailure(retryable, !timedOut && NEVER_SENT.has(code ?? ""), attempt);
        if (delay === undefined) {
          const what = timedOut ? `timed out after ${timeoutMs} ms` : `${code ?? "fetch failed"}: ${String(error)}`;
          throw new TransportError(what, { method, url: url.toString(), cause: error });
        }
        await sleep(delay, options.signal);
        continue;
      }
      const delay = this.retry.afterResponse(retryable, response, attempt);
      if (delay === undefined) {
        throw errorForStatus(response.status, await errorBody(response), {
          method,
          url: url.toString(),
          reason: response.statusText,
          retryAfter: response.status === 429 ? retryAfterSeconds(response.headers) : undefined,
        });
      }
      await response.body?.cancel();
      await sleep(delay, options.signal);
    }
  }
}
