// The client's own behaviour, against a scripted HTTP server on the loopback address: configuration from
// options and MEMORYLAYER_* variables, retries that honour Retry-After, timeouts and aborts, error mapping.

import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, describe, test } from "node:test";

import {
  MemoryLayerClient,
  NotFoundError,
  RateLimitError,
  ServerError,
  TransportError,
  ValidationError,
  retryAfterSeconds,
} from "../dist/index.js";

/** A server that answers each request with the next scripted reply (the last one repeats). */
function scripted() {
  const state = { replies: [], seen: [] };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      state.seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      const reply = state.replies.length > 1 ? state.replies.shift() : state.replies[0];
      const send = () => {
        res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
        res.end(reply.body === undefined ? "{}" : JSON.stringify(reply.body));
      };
      reply.delayMs ? setTimeout(send, reply.delayMs) : send();
    });
  });
  return { server, state };
}

const { server, state } = scripted();
let url;

before(async () => {
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${server.address().port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

function client(options = {}) {
  return new MemoryLayerClient({ baseUrl: url, workspaceId: "ws_t", backoff: 0.001, ...options });
}

function script(...replies) {
  state.replies = replies;
  state.seen = [];
}

describe("configuration", () => {
  test("options win; MEMORYLAYER_URL, _API_KEY and _WORKSPACE_ID fill what is left out", async () => {
    const saved = { ...process.env };
    try {
      process.env.MEMORYLAYER_URL = `${url}/v1/`;
      process.env.MEMORYLAYER_API_KEY = "ml_env_key";
      process.env.MEMORYLAYER_WORKSPACE_ID = "ws_env";
      const fromEnv = new MemoryLayerClient();
      assert.equal(fromEnv.baseUrl, url); // a trailing /v1 is dropped, as the Python SDK does
      script({ body: { status: "healthy" } });
      assert.deepEqual(await fromEnv.health(), { status: "healthy" });
      assert.equal(state.seen[0].headers.authorization, "Bearer ml_env_key");
      assert.equal(state.seen[0].headers["x-workspace-id"], "ws_env");
      assert.match(state.seen[0].headers["user-agent"], /^memorylayer-js\//);

      const explicit = new MemoryLayerClient({ baseUrl: url, apiKey: "ml_arg", workspaceId: "ws_arg" });
      script({ body: { status: "healthy" } });
      await explicit.health({ workspaceId: "ws_call" });
      assert.equal(state.seen[0].headers.authorization, "Bearer ml_arg");
      assert.equal(state.seen[0].headers["x-workspace-id"], "ws_call");
    } finally {
      process.env = saved;
    }
  });

  test("the workspace goes in the header and in the bodies that take it; query arrays repeat", async () => {
    script({ status: 201, body: { memory: { id: "mem_1" }, replayed: false } });
    await client().remember("hello", { tags: ["a"] });
    assert.equal(state.seen[0].url, "/v1/memories");
    assert.deepEqual(JSON.parse(state.seen[0].body), { tags: ["a"], content: "hello", workspace_id: "ws_t" });
    script({ body: { workspaces: [] } });
    await client().listWorkspaces({ tags: ["x", "y"], match: "any" });
    assert.equal(state.seen[0].url, "/v1/workspaces?tags=x&tags=y&match=any");
  });

  test("path parameters are encoded, and a missing one is refused before anything is sent", async () => {
    script({ body: { memory: { id: "a/b" } } });
    await client().getMemory("a/b");
    assert.equal(state.seen[0].url, "/v1/memories/a%2Fb");
    state.seen = [];
    await assert.rejects(client().getMemory(""), TypeError);
    assert.equal(state.seen.length, 0);
  });
});

describe("retries", () => {
  test("a GET answered 429 with Retry-After is retried after it", async () => {
    script({ status: 429, headers: { "retry-after": "0" }, body: { detail: { code: "rate_limited" } } }, {
      body: { status: "healthy" },
    });
    assert.deepEqual(await client().health(), { status: "healthy" });
    assert.equal(state.seen.length, 2);
  });

  test("503 is retried up to maxRetries, then a ServerError with the server's code", async () => {
    script({ status: 503, body: { detail: { code: "database_unavailable", message: "try later" } } });
    const error = await client({ maxRetries: 2 }).health().catch((e) => e);
    assert.ok(error instanceof ServerError);
    assert.equal(error.status, 503);
    assert.equal(error.code, "database_unavailable");
    assert.equal(error.message, "try later");
    assert.equal(state.seen.length, 3);
  });

  test("a POST is not retried unless it carries an Idempotency-Key", async () => {
    const busy = { status: 503, body: { detail: { code: "busy" } } };
    const ok = { status: 201, body: { memory: { id: "mem_1" }, replayed: false } };
    script(busy, ok);
    await assert.rejects(client().remember("x"), ServerError);
    assert.equal(state.seen.length, 1);

    script(busy, ok);
    const memory = await client().remember("x", {}, { idempotencyKey: true });
    assert.equal(memory.id, "mem_1");
    assert.equal(state.seen.length, 2);
    const keys = state.seen.map((s) => s.headers["idempotency-key"]);
    assert.ok(keys[0] && keys[0] === keys[1], "the retry replays the same key");
  });

  test("a versioned write always carries a key (replayed by its retry) and its precondition", async () => {
    const busy = { status: 503, body: { detail: { code: "busy" } } };
    script(busy, { body: { memory: { id: "mem_1", revision: 2 }, replayed: false } });
    const deleted = await client().deleteMemoryVersioned("mem_1", { ifMatch: '"memory-1-a"' });
    assert.equal(deleted.revision, 2);
    const [first, retry] = state.seen;
    assert.deepEqual([first.method, first.url, retry.url], ["POST", "/v1/memories/mem_1/delete", first.url]);
    assert.equal(first.headers["if-match"], '"memory-1-a"');
    assert.equal(first.headers["if-none-match"], undefined);
    const key = first.headers["idempotency-key"];
    assert.ok(key && key === retry.headers["idempotency-key"], "the retry replays the same key");

    script({ status: 201, body: { view: { view_id: "main" }, replayed: false } });
    await client().createWorkspaceView("main", "snapshot", {}, { idempotencyKey: "op-1", workspaceId: "ws_v" });
    const [create] = state.seen;
    assert.deepEqual(
      [create.url, create.headers["idempotency-key"], create.headers["if-none-match"], create.headers["if-match"]],
      ["/v1/workspaces/ws_v/views", "op-1", "*", undefined],
    );
    assert.deepEqual(JSON.parse(create.body), { view_id: "main", kind: "snapshot" });
  });

  test("a Retry-After beyond maxRetryAfter is not waited for: RateLimitError carries it", async () => {
    script({ status: 429, headers: { "retry-after": "120" }, body: { detail: { code: "rate_limited" } } });
    const error = await client({ maxRetryAfter: 60 }).health().catch((e) => e);
    assert.ok(error instanceof RateLimitError);
    assert.equal(error.retryAfter, 120);
    assert.equal(error.code, "rate_limited");
    assert.equal(state.seen.length, 1);
  });

  test("Retry-After as an HTTP date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    const headers = new Headers({ "Retry-After": "Thu, 01 Jan 2026 00:00:05 GMT" });
    assert.equal(retryAfterSeconds(headers, now), 5);
    assert.equal(retryAfterSeconds(new Headers({ "Retry-After": "soon" }), now), undefined);
  });

  test("a refused connection is retried, then a TransportError", async () => {
    let calls = 0;
    const refused = async () => {
      calls += 1;
      throw Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } });
    };
    const error = await client({ fetch: refused, maxRetries: 2 }).remember("x").catch((e) => e);
    assert.ok(error instanceof TransportError);
    assert.equal(error.status, undefined);
    assert.equal(calls, 3, "nothing was sent, so even a POST is retried");
  });
});

describe("timeouts and aborts", () => {
  test("an attempt slower than timeoutMs is a TransportError", async () => {
    script({ delayMs: 300, body: {} });
    const error = await client({ timeoutMs: 30, maxRetries: 0 }).health().catch((e) => e);
    assert.ok(error instanceof TransportError);
    assert.match(error.message, /timed out after 30 ms/);
  });

  test("the caller's AbortSignal ends the call with its own reason, without retrying", async () => {
    script({ delayMs: 300, body: {} });
    let calls = 0;
    const counted = (...args) => ((calls += 1), fetch(...args));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user gave up")), 20);
    await assert.rejects(client({ fetch: counted }).health({ signal: controller.signal }), /user gave up/);
    assert.equal(calls, 1);
  });
});

describe("errors", () => {
  test("each status is its own class, carrying the code, detail, method and url", async () => {
    script({ status: 404, body: { detail: { code: "memory_not_found", message: "memory mem_x not found" } } });
    const error = await client().getMemory("mem_x").catch((e) => e);
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.name, "NotFoundError");
    assert.deepEqual([error.status, error.code, error.method], [404, "memory_not_found", "GET"]);
    assert.equal(error.url, `${url}/v1/memories/mem_x`);
    assert.match(String(error), /^NotFoundError: 404 memory mem_x not found \(GET http/);
  });

  test("FastAPI's field errors become the message; there is no code", async () => {
    const msg = "String should have at least 1 character";
    const detail = [{ type: "string_too_short", loc: ["body", "content"], msg }];
    script({ status: 422, body: { detail } });
    const error = await client().remember("").catch((e) => e);
    assert.ok(error instanceof ValidationError);
    assert.equal(error.message, "body.content: String should have at least 1 character");
    assert.equal(error.code, undefined);
    assert.deepEqual(error.detail, detail);
  });
});
