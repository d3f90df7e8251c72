import { MemoryLayerClient, NotFoundError } from "@memorylayer/client";

// Left out, the URL, key and workspace come from MEMORYLAYER_URL, MEMORYLAYER_API_KEY, MEMORYLAYER_WORKSPACE_ID.
const client = new MemoryLayerClient({ timeoutMs: 10_000 });

const tea = await client.remember("Alice prefers green tea", { tags: ["prefs"], importance: 0.8 });
const { memories } = await client.recall("what does Alice drink?", { limit: 5 });
console.log("recalled:", memories[0].content);

// A session's working memory, and the context pack an agent's prompt is built from.
const session = await client.createSession({ working_memory: { goal: "plan the offsite" } });
const pack = await client.contextPack(session.id, { topic: "offsite", budget_tokens: 512 });
console.log("context pack mentions the goal:", pack.rendered.includes("plan the offsite"));

// A conversation: its messages are extracted into memories by a background job.
const thread = await client.createThread({ user_id: "dana" });
const said = { role: "user", content: "My name is Dana and I live in Lyon." };
const added = await client.appendMessages(thread.id, [said]);
const job = await client.waitForJob(added.job_id, { timeoutMs: 30_000 });
const facts = await client.recall("where does the user live?", { min_relevance: 0 });
console.log(`job ${job.status}:`, facts.memories.map((m) => m.content).find((c) => c.includes("Lyon")));

// Failures are typed errors carrying the HTTP status and the server's code.
await client.forget(tea.id);
try {
  await client.getMemory(tea.id);
} catch (error) {
  if (!(error instanceof NotFoundError)) throw error;
  console.log("forgotten:", error.status, error.code);
}
