// uploadFile against the whole local document stack (moto's S3 and SQS, the documents function polling the
// queue): tests/client/test_js_upload.py starts it and names it in MEMORYLAYER_DOCUMENTS_URL. A file over
// DIRECT_UPLOAD_MAX_BYTES goes through the presigned route, straight to the bucket; a small one through the API.

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { DIRECT_UPLOAD_MAX_BYTES, MemoryLayerClient } from "../dist/index.js";

const URL = process.env.MEMORYLAYER_DOCUMENTS_URL;
assert.ok(URL, "MEMORYLAYER_DOCUMENTS_URL names the document stack (tests/client/test_js_upload.py sets it)");

/** A one-page PDF with a text layer showing `lines`, `padding` bytes heavier (an unreferenced stream, as a
 * scan's image would weigh): what tests/helpers/documents.py `pdf()` writes. */
function pdf(lines, padding = 0) {
  const ops = ["BT", "/F1 11 Tf", "14 TL", "50 780 Td", ...lines.flatMap((l) => [`(${l}) Tj`, "T*"]), "ET"].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 3 0 R >> >> >>",
    `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
  ].map((body) => Buffer.from(body, "latin1"));
  if (padding) {
    const pad = Buffer.alloc(padding, 0x41);
    objects.push(Buffer.concat([Buffer.from(`<< /Length ${padding} >>\nstream\n`), pad, Buffer.from("\nendstream")]));
  }
  const parts = [Buffer.from("%PDF-1.4\n")];
  let size = parts[0].length;
  const offsets = objects.map((body, i) => {
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")]);
    parts.push(chunk);
    const at = size;
    size += chunk.length;
    return at;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)];
  parts.push(Buffer.from(`${xref.join("")}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** A client in a fresh workspace that records every request it sends (method and URL without the query). */
function recording() {
  const sent = [];
  const fetch = (url, init = {}) => {
    sent.push(`${init.method ?? "GET"} ${String(url).split("?", 1)[0]}`);
    return globalThis.fetch(url, init);
  };
  const workspaceId = `ws_js_up_${randomBytes(6).toString("hex")}`;
  return { ml: new MemoryLayerClient({ baseUrl: URL, workspaceId, maxRetries: 1, fetch }), sent };
}

describe("uploadFile", () => {
  let dir;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "ml-upload-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("a file over the direct limit goes through the presigned route, and wait returns the finished job", async () => {
    const path = join(dir, "annual-report.pdf");
    await writeFile(path, pdf(["The harbour opens at six.", "Ferries leave hourly."], 5 * 1024 * 1024));
    const size = (await stat(path)).size;
    assert.ok(size > DIRECT_UPLOAD_MAX_BYTES, `${size} bytes`);

    const { ml, sent } = recording();
    const { document, job } = await ml.uploadFile(path, { wait: true, waitTimeoutMs: 120_000, pollIntervalMs: 200 });
    assert.equal(job.status, "completed", JSON.stringify(job.errors));
    assert.equal(document.status, "completed");
    assert.equal(document.filename, "annual-report.pdf");
    assert.equal(document.size_bytes, size);
    assert.ok(document.memory_ids.length > 0);

    assert.ok(sent.includes(`POST ${URL}/v1/documents/uploads`), sent.join("\n"));
    assert.ok(!sent.includes(`POST ${URL}/v1/documents`), "never through the API's body");
    const toBucket = sent.filter((s) => s.startsWith("POST ") && !s.startsWith(`POST ${URL}/`));
    assert.equal(toBucket.length, 1, sent.join("\n"));

    const { memories } = await ml.recall("when do the ferries leave?", { min_relevance: 0 });
    assert.ok(memories.some((m) => m.content.includes("Ferries leave hourly")), JSON.stringify(memories));
  });

  test("a small Blob goes through the API; without wait the job is answered as queued", async () => {
    const { ml, sent } = recording();
    const text = "The lighthouse keeper logs the weather at dawn.\n";
    const accepted = await ml.uploadFile(new Blob([text], { type: "text/plain" }), { filename: "log.txt" });
    assert.equal(accepted.document.filename, "log.txt");
    assert.deepEqual(sent, [`POST ${URL}/v1/documents`]);
    const job = await ml.waitForDocumentJob(accepted.job.id, { timeoutMs: 60_000, pollIntervalMs: 200 });
    assert.equal(job.status, "completed", JSON.stringify(job.errors));
    await assert.rejects(ml.uploadFile(new Uint8Array([1, 2, 3])), /needs a filename/);
  });
});
