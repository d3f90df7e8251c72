/**
 * The retry policy, the Python SDK's: exponential backoff (`backoff * 2**attempt`, capped) that honours
 * `Retry-After`. Retried: 429/502/503/504 and transport errors, for idempotent calls (by method, or a POST
 * sent with an Idempotency-Key); a connection that could not be opened at all (nothing was sent) is retried
 * for every call. A Retry-After longer than `maxRetryAfter` is not waited for: the error is thrown at once.
 */

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH"]);
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 turns retrying off). */
  maxRetries?: number;
  /** Seconds before the first retry, doubled each time (default 0.5). */
  backoff?: number;
  /** The longest backoff, in seconds (default 8). */
  maxBackoff?: number;
  /** The longest Retry-After waited for, in seconds (default 60). */
  maxRetryAfter?: number;
}

export class RetryPolicy {
  readonly maxRetries: number;
  readonly backoff: number;
  readonly maxBackoff: number;
  readonly maxRetryAfter: number;

  constructor(options: RetryOptions = {}) {
    this.maxRetries = Math.max(0, options.maxRetries ?? 3);
    this.backoff = options.backoff ?? 0.5;
    this.maxBackoff = options.maxBackoff ?? 8;
    this.maxRetryAfter = options.maxRetryAfter ?? 60;
  }

  static retryable(method: string, headers: Headers): boolean {
    return IDEMPOTENT.has(method) || headers.has("Idempotency-Key");
  }

  /** Seconds to wait before trying again after an error response, or undefined to give up. */
  afterResponse(retryable: boolean, response: Response, attempt: number): number | undefined {
    if (attempt >= this.maxRetries || !retryable || !RETRY_STATUSES.has(response.status)) return undefined;
    const hinted = retryAfterSeconds(response.headers);
    if (hinted === undefined) return this.delay(attempt);
    return hinted <= this.maxRetryAfter ? hinted : undefined;
  }

  /** After a transport failure: `neverSent` when the connection could not be opened. */
  afterFailure(retryable: boolean, neverSent: boolean, attempt: number): number | undefined {
    if (attempt >= this.maxRetries) return undefined;
    return neverSent || retryable ? this.delay(attempt) : undefined;
  }

  private delay(attempt: number): number {
    return Math.min(this.backoff * 2 ** attempt, this.maxBackoff);
  }
}

/** `Retry-After` as seconds: delta-seconds or an HTTP date. */
export function retryAfterSeconds(headers: Headers, now: number = Date.now()): number | undefined {
  const value = headers.get("Retry-After")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.max(0, Number(value));
  const when = Date.parse(value);
  return Number.isNaN(when) ? undefined : Math.max(0, (when - now) / 1000);
}

/** Wait `seconds`, or reject as soon as `signal` aborts. */
export function sleep(seconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, seconds * 1000);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
