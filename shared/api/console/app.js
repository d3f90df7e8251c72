// The memory console: plain DOM, no framework, no CDN. Everything shown comes from the /v1 API (and the two
// /console/api routes), called with the key typed in the page. Text from the API is only ever set with
// textContent, never parsed as HTML.
"use strict";

const BASE = location.pathname.replace(/console\/.*$/, ""); // "/" locally, "/<stage>/" behind a gateway stage
const state = { key: "", workspace: "", canWrite: false, selected: null, tab: "memories" };
const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "class") node.className = value;
    else if (name === "onclick") node.addEventListener("click", value);
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child ?? "")));
  return node;
}

// One column (a phone): a panel opened below a long list would appear off screen, so bring it into view.
const ONE_COLUMN = window.matchMedia("(max-width: 720px)");
function reveal(panel) {
  if (ONE_COLUMN.matches) panel.scrollIntoView({ block: "start" });
}

// A table cell that names its column, so a phone can show each row as a card (app.css, `.cards`).
function cell(label, ...children) {
  return el("td", { "data-label": label }, ...children);
}

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (state.key) headers.Authorization = `Bearer ${state.key}`;
  if (state.workspace) headers["X-Workspace-ID"] = state.workspace;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(BASE + path.replace(/^\//, ""), {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = data.detail;
    const text = typeof detail === "string" ? detail : detail?.message || JSON.stringify(detail);
    const code = detail?.code ? ` (${detail.code})` : "";
    throw new Error(`${method} ${path}: HTTP ${response.status}${code}: ${text}`);
  }
  return data;
}

const when = (iso) => (iso ? new Date(iso).toLocaleString() : "");
const csv = (text) => text.split(",").map((s) => s.trim()).filter(Boolean);
const enc = encodeURIComponent;

// ---------------------------------------------------------------- connect
async function connect(event) {
  event?.preventDefault();
  state.key = $("api-key").value.trim();
  state.workspace = $("workspace").value.trim() || "_default";
  // The key stays in memory unless the user asks to keep it (then in this tab's session storage only).
  const keep = $("keep-key").checked;
  sessionStorage.setItem("memorylayer.console", JSON.stringify({ workspace: state.workspace, ...(keep ? { key: state.key } : {}) }));
  showError("");
  clearPanes(); // another workspace (or key): nothing of the last one may stay on screen
  try {
    const who = await api("GET", "/console/api/whoami");
    state.canWrite = who.can_write;
    $("who").textContent = who.can_write ? "read-write" : "read-only";
    $("who").className = `badge ${who.can_write ? "rw" : "ro"}`;
    for (const node of document.querySelectorAll(".write-only")) node.hidden = !state.canWrite;
    const list = await api("GET", "/v1/workspaces").catch(() => ({ workspaces: [] }));
    $("workspaces").replaceChildren(...list.workspaces.map((w) => el("option", { value: w.id }, w.name || w.id)));
    await search();
    if (state.tab !== "memories") await showTab(state.tab);
  } catch (error) {
    showError(error.message);
  }
}

// What belongs to one workspace and one memory: emptied on a switch, after Forget, and before a new memory opens.
function clearPanes() {
  state.selected = null;
  opened++; // an answer still on its way for the last memory is dropped
  $("detail").hidden = true;
  for (const id of ["d-fields", "d-assoc", "d-relations", "d-history"]) $(id).replaceChildren();
  $("d-title").textContent = "";
  $("d-content").textContent = "";
  $("thread").hidden = true;
  $("t-messages").replaceChildren();
  for (const id of ["results", "threads", "sessions", "jobs", "documents"]) $(id).replaceChildren();
  $("search-summary").textContent = "";
}

// ---------------------------------------------------------------- memories
function recallBody() {
  const body = {
    query: $("query").value.trim() || "*",
    limit: Number($("f-limit").value) || 20,
    include_associations: $("f-assoc").checked,
    include_archived: $("f-archived").checked,
  };
  const types = [...document.querySelectorAll("input[name=types]:checked")].map((box) => box.value);
  if (types.length) body.types = types;
  if (csv($("f-tags").value).length) body.tags = csv($("f-tags").value);
  if (csv($("f-subtypes").value).length) body.subtypes = csv($("f-subtypes").value);
  if ($("f-tolerance").value) body.tolerance = $("f-tolerance").value;
  if ($("f-after").value) body.created_after = `${$("f-after").value}T00:00:00Z`;
  if ($("f-before").value) body.created_before = `${$("f-before").value}T23:59:59Z`;
  return body;
}

let searches = 0;

async function search(event) {
  event?.preventDefault();
  showError("");
  const mine = ++searches;
  try {
    const result = await api("POST", "/v1/memories/recall", recallBody());
    if (mine !== searches) return; // a newer search was started meanwhile: its answer wins
    $("search-summary").textContent =
      `${result.memories.length} shown · confidence ${result.retrieval_confidence ?? "n/a"} · ${Math.round(result.search_latency_ms ?? 0)} ms`;
    $("results").replaceChildren(...result.memories.map((m) =>
      el("li", { class: "clickable", "data-id": m.id, onclick: () => openMemory(m.id) },
        m.content,
        el("span", { class: "meta" },
          `${m.type}${m.subtype ? "/" + m.subtype : ""} · ${m.tags.join(", ") || "no tags"} · ` +
          `relevance ${m.relevance_score?.toFixed(3) ?? "–"} · ${when(m.created_at)}`))));
  } catch (error) {
    showError(error.message);
  }
}

let opened = 0;

async function openMemory(id) {
  showError("");
  const mine = ++opened;
  try {
    const ws = enc(state.workspace);
    const [{ memory }, assoc, related, history] = await Promise.all([
      api("GET", `/v1/memories/${enc(id)}?workspace_id=${ws}&include_deleted=true`),
      api("GET", `/v1/memories/${enc(id)}/associations`),
      api("GET", `/console/api/memories/${enc(id)}/relations`),
      api("GET", `/v1/memories/${enc(id)}/revisions?workspace_id=${ws}&limit=50`).catch(() => ({ revisions: [] })),
    ]);
    // Fetch the other end of every edge before drawing anything, so the panel never shows a half-updated mix.
    const edges = assoc.associations;
    const others = await Promise.all(edges.map((edge) => {
      const other = edge.source_id === id ? edge.target_id : edge.source_id;
      return api("GET", `/v1/memories/${enc(other)}?workspace_id=${ws}`).then((r) => r.memory).catch(() => ({ id: other, content: "(not visible)" }));
    }));
    if (mine !== opened) return; // another memory was opened (or the workspace switched) meanwhile
    state.selected = memory;
    for (const li of $("results").children) li.classList.toggle("selected", li.dataset.id === id);
    $("detail").hidden = false;
    $("d-title").textContent = memory.id;
    $("d-content").textContent = memory.content;
    const fields = {
      type: memory.type + (memory.subtype ? `/${memory.subtype}` : ""), tags: memory.tags.join(", "),
      importance: memory.importance, status: memory.deleted_at ? `deleted ${when(memory.deleted_at)}` : memory.status,
      pinned: memory.pinned, created: when(memory.created_at), updated: when(memory.updated_at),
      "event time": when(memory.event_time), "accessed": `${memory.access_count}×`, subject: memory.subject_id,
      source: memory.source_memory_id, metadata: JSON.stringify(memory.metadata),
    };
    $("d-fields").replaceChildren(...Object.entries(fields)
      .filter(([, v]) => v !== null && v !== undefined && v !== "")
      .flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
    $("d-assoc").replaceChildren(...(edges.length ? edges.map((edge, i) => {
      const outgoing = edge.source_id === id;
      return el("li", { class: "clickable association", onclick: () => openMemory(others[i].id) },
        el("span", { class: "rel" }, `${outgoing ? "" : "← "}${edge.relationship}${outgoing ? " →" : ""}`), " ",
        others[i].content,
        el("span", { class: "meta" }, `${others[i].id} · strength ${edge.strength}`));
    }) : [el("li", { class: "muted" }, "none")]));
    $("d-relations").replaceChildren(...(related.relations.length ? related.relations.map((r) =>
      el("li", { class: `relation${r.evidence_active ? "" : " inactive"}`, "data-id": r.id },
        el("span", { class: "entity" }, r.source.name), el("span", { class: "kind" }, r.source.type), " ",
        el("span", { class: "rel" }, `${r.relationship} →`), " ",
        el("span", { class: "entity" }, r.target.name), el("span", { class: "kind" }, r.target.type),
        el("span", { class: "meta" },
          `${r.evidence_kinds.join(", ")} evidence · confidence ${r.confidence.toFixed(2)}` +
          `${r.evidence_active ? "" : " · inactive (memory deleted or changed)"} · ${r.id}`)))
      : [el("li", { class: "muted" }, "none")]));
    $("d-history").replaceChildren(...(history.revisions.length ? history.revisions.map((rev) =>
      el("li", {}, `${rev.action} · revision ${rev.memory.revision ?? "?"} · ${when(rev.memory.updated_at)}`,
        el("span", { class: "meta" }, rev.memory.content))) : [el("li", { class: "muted" }, "no history")]));
    $("d-forget").hidden = !state.canWrite || Boolean(memory.deleted_at);
    reveal($("detail"));
  } catch (error) {
    showError(error.message);
  }
}

async function forgetSelected() {
  if (!state.selected || !confirm(`Forget ${state.selected.id}?`)) return;
  try {
    const id = state.selected.id;
    await api("DELETE", `/v1/memories/${enc(id)}`);
    clearPanes(); // the forgotten memory's pane would show it as if it were still there
    await search();
    $("search-summary").textContent = `forgot ${id} · ${$("search-summary").textContent}`;
  } catch (error) {
    showError(error.message);
  }
}

async function remember(event) {
  event.preventDefault();
  try {
    const { memory } = await api("POST", "/v1/memories", { content: $("new-content").value, tags: csv($("new-tags").value) });
    $("new-content").value = "";
    await search();
    await openMemory(memory.id);
  } catch (error) {
    showError(error.message);
  }
}

// ---------------------------------------------------------------- threads, sessions, jobs
async function loadThreads() {
  const { threads } = await api("GET", "/v1/threads?limit=200");
  $("threads").replaceChildren(...(threads.length ? threads.map((t) =>
    el("li", { class: "clickable", onclick: () => openThread(t.id) }, t.title || t.id,
      el("span", { class: "meta" }, `${t.message_count} messages · extracted up to ${t.last_decomposed_index} · ${when(t.updated_at)}`)))
    : [el("li", { class: "muted" }, "no threads")]));
}

async function openThread(id) {
  const full = await api("GET", `/v1/threads/${enc(id)}/full`);
  $("thread").hidden = false;
  $("t-title").textContent = full.thread.title || id;
  $("t-messages").replaceChildren(...full.messages.map((m) =>
    el("li", {}, el("span", { class: "role" }, m.role),
      typeof m.content === "string" ? m.content : m.content.map((part) => part.text ?? `[${part.type}]`).join(" "))));
  reveal($("thread"));
}

async function loadSessions() {
  const { sessions } = await api("GET", "/v1/sessions?include_expired=true");
  $("sessions").replaceChildren(...sessions.map((s) =>
    el("tr", {}, cell("Session", s.id), cell("Context", s.context_id), cell("Created", when(s.created_at)),
      cell("Expires", when(s.expires_at)))));
}

// A job's result in a line (its counts), the whole JSON folded away below it: raw JSON in a cell would stretch
// the table (and the page) to its longest line.
function jobOutcome(job) {
  if (job.error) return el("span", { class: "job-error" }, job.error);
  if (!job.result) return "";
  const counts = Object.entries(job.result).filter(([, v]) => typeof v === "number").map(([k, v]) => `${k} ${v}`);
  return el("details", { class: "job-result" },
    el("summary", {}, counts.join(" · ") || "result"),
    el("pre", {}, JSON.stringify(job.result, null, 2)));
}

async function loadJobs() {
  const { jobs } = await api("GET", "/console/api/jobs");
  $("jobs").replaceChildren(...jobs.map((j) =>
    el("tr", {}, cell("Job", j.job_id), cell("Thread", j.thread_id), cell("Messages", `${j.from_index}–${j.to_index}`),
      cell("Status", j.status), cell("Attempts", j.attempts), cell("Created", when(j.created_at)),
      cell("Result", jobOutcome(j)))));
}

function size(bytes) {
  return bytes >= 1048576 ? `${(bytes / 1048576).toFixed(1)} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} kB` : `${bytes} B`;
}

async function loadDocuments() {
  const { documents } = await api("GET", "/v1/documents?limit=200");
  $("documents").replaceChildren(...documents.map((d) =>
    el("tr", {}, cell("Document", d.id), cell("File", d.filename),
      cell("Status", d.error_message ? `${d.status}: ${d.error_message}` : d.status), cell("Pages", d.page_count),
      cell("Memories", d.memory_ids.length), cell("Size", size(d.size_bytes)), cell("Created", when(d.created_at)))));
}

const loaders = { threads: loadThreads, sessions: loadSessions, jobs: loadJobs, documents: loadDocuments };

async function showTab(name) {
  state.tab = name;
  for (const button of document.querySelectorAll("nav button")) button.classList.toggle("active", button.dataset.tab === name);
  for (const section of document.querySelectorAll(".tab")) section.hidden = section.id !== `tab-${name}`;
  showError("");
  try {
    await loaders[name]?.();
  } catch (error) {
    showError(error.message);
  }
}

// ---------------------------------------------------------------- start
document.addEventListener("DOMContentLoaded", () => {
  const saved = JSON.parse(sessionStorage.getItem("memorylayer.console") || "{}");
  const params = new URLSearchParams(location.search);
  $("api-key").value = saved.key || "";
  $("keep-key").checked = Boolean(saved.key);
  $("workspace").value = params.get("workspace") || saved.workspace || "_default";
  $("connect").addEventListener("submit", connect);
  $("search").addEventListener("submit", search);
  $("remember").addEventListener("submit", remember);
  $("d-forget").addEventListener("click", forgetSelected);
  for (const button of document.querySelectorAll("nav button")) button.addEventListener("click", () => showTab(button.dataset.tab));
  connect();
});
