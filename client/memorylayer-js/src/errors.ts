/**
 * The SDK's error tree, one class per HTTP failure, all under {@link MemoryLayerError} (as the Python SDK's):
 *
 *     MemoryLayerError                 any failure (a transport error has no status)
 *     ├── TransportError               no HTTP answer (connection refused, timeout), even after retries
 *     ├── AuthenticationError          401
 *     ├── AuthorizationError           403
 *     ├── NotFoundError                404
 *     ├── ConflictError                409
 *     ├── PreconditionFailedError      412
 *     ├── PayloadTooLargeError         413
 *     ├── ValidationError              400, 422
 *     ├── RateLimitError               429   (.retryAfter seconds, if the server said)
 *     ├── ServerError                  5xx
 *     └── JobTimeoutError              waitForJob gave up
 *
 * Every error carries `status`, `code` (the server's `detail.code` when present), `detail` (the body's
 * `detail`) and the request's `method` and `url`.
 */

export interface ErrorFields {
  status?: number | undefined;
  code?: string | undefined;
  detail?: unknown;
  method?: string | undefined;
  url?: string | undefined;
  cause?: unknown;
}

export class MemoryLayerError extends Error {
  /** The HTTP status; undefined when no answer came. */
  readonly status: number | undefined;
  /** The server's machine-readable `detail.code`, e.g. `memory_not_found`. */
  readonly code: string | undefined;
  /** The body's `detail`: an object with `code` and `message`, or FastAPI's list of field errors. */
  readonly detail: unknown;
  readonly method: string | undefined;
  readonly url: string | undefined;

  constructor(message: string, fields: ErrorFields = {}) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = new.target.name;
    this.status = fields.status;
    this.code = fields.code;
    this.detail = fields.detail;
    this.method = fields.method;
    this.url = fields.url;
  }

  override toString(): string {
    const status = this.status ? `${this.status} ` : "";
    const where = this.method ? ` (${this.method} ${this.url})` : "";
    return `${this.name}: ${status}${this.message}${where}`;
  }
}

export class TransportError extends MemoryLayerError {}
export class AuthenticationError extends MemoryLayerError {}
export class AuthorizationError extends MemoryLayerError {}
export class NotFoundError extends MemoryLayerError {}
export class ConflictError extends MemoryLayerError {}
export class PreconditionFailedError extends MemoryLayerError {}
export class PayloadTooLargeError extends MemoryLayerError {}
export class ValidationError extends MemoryLayerError {}
export class ServerError extends MemoryLayerError {}
export class JobTimeoutError extends MemoryLayerError {}

export class RateLimitError extends MemoryLayerError {
  /** The server's Retry-After, in seconds, when it sent one. */
  readonly retryAfter: number | undefined;

  constructor(message: string, fields: ErrorFields & { retryAfter?: number | undefined } = {}) {
    super(message, fields);
    this.retryAfter = fields.retryAfter;
  }
}

const BY_STATUS: Record<number, typeof MemoryLayerError> = {
  400: ValidationError,
  401: AuthenticationError,
  403: AuthorizationError,
  404: NotFoundError,
  409: ConflictError,
  412: PreconditionFailedError,
  413: PayloadTooLargeError,
  422: ValidationError,
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function messageOf(detail: unknown, fallback: string): string {
  if (typeof detail === "string" && detail) return detail;
  if (isRecord(detail)) return String(detail.message ?? detail.msg ?? detail.code ?? fallback);
  if (Array.isArray(detail) && isRecord(detail[0])) {
    const first = detail[0];
    const loc = Array.isArray(first.loc) ? first.loc.join(".") : "";
    const msg = String(first.msg ?? fallback);
    return loc ? `${loc}: ${msg}` : msg;
  }
  return fallback;
}

/** The error for a failed response, from its parsed body (JSON, or the text when it was not JSON). */
export function errorForStatus(
  status: number,
  body: unknown,
  request: { method: string; url: string; reason?: string; retryAfter?: number | undefined },
): MemoryLayerError {
  const detail = isRecord(body) && "detail" in body ? body.detail : body;
  const code = isRecord(detail) && typeof detail.code === "string" ? detail.code : undefined;
  const message = messageOf(detail, request.reason || `HTTP ${status}`);
  const fields = { status, code, detail, method: request.method, url: request.url };
  if (status === 429) return new RateLimitError(message, { ...fields, retryAfter: request.retryAfter });
  const Class = BY_STATUS[status] ?? (status >= 500 ? ServerError : MemoryLayerError);
  return new Class(message, fields);
}
