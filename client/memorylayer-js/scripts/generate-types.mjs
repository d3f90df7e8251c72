#!/usr/bin/env node
// TypeScript types from the server's OpenAPI 3.1 document: one declaration per component schema, and an
// `Operations` map ("METHOD /path" → path, query, body, response) that the client's calls are typed by.
// No dependencies, deterministic output (the document's own order), so the checked-in file can be compared.
//
//   node scripts/generate-types.mjs openapi.json > src/openapi.ts     (or the document on stdin)

import { readFileSync } from "node:fs";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

function typeName(ref) {
  const name = ref.split("/").pop();
  return name.replace(/[^A-Za-z0-9_]/g, "_");
}

function key(name) {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

function comment(text, indent) {
  if (!text || !String(text).trim()) return "";
  const lines = String(text).trim().replace(/\*\//g, "*\\/").split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? ` ${l}` : ""}`).join("\n")}\n${indent} */\n`;
}

function union(parts) {
  const unique = [...new Set(parts)];
  if (unique.includes("unknown")) return "unknown";
  return unique.length ? unique.join(" | ") : "never";
}

// Wrapped in parentheses where it is an element of an array or an intersection.
function atom(type) {
  return /[|&]/.test(type) && !/^\{[\s\S]*\}$/.test(type) ? `(${type})` : type;
}

function literal(value) {
  return JSON.stringify(value);
}

/** A schema as a TypeScript type expression; `indent` is the nesting of inline object literals. */
function render(schema, indent = "") {
  if (schema === true || schema === undefined || schema === null) return "unknown";
  if (schema === false) return "never";
  if (schema.$ref) return typeName(schema.$ref);
  if ("const" in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  if (schema.anyOf || schema.oneOf) return union((schema.anyOf || schema.oneOf).map((s) => render(s, indent)));
  if (schema.allOf) {
    const parts = schema.allOf.map((s) => atom(render(s, indent)));
    return parts.length === 1 ? parts[0] : parts.join(" & ");
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return union(types.map((t) => render({ ...schema, type: t }, indent)));
  switch (types[0]) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      if (Array.isArray(schema.prefixItems)) {
        return `[${schema.prefixItems.map((s) => render(s, indent)).join(", ")}]`;
      }
      return `${atom(render(schema.items, indent))}[]`;
    case "object":
      return objectType(schema, indent);
    default:
      return schema.properties ? objectType(schema, indent) : "unknown";
  }
}

/** The members of an object schema, one per line (with their descriptions), and its index signature. */
function members(schema, indent) {
  const required = new Set(schema.required || []);
  const lines = Object.entries(schema.properties || {}).map(
    ([name, prop]) =>
      comment(prop.description, indent) +
      `${indent}${key(name)}${required.has(name) ? "" : "?"}: ${render(prop, indent)};\n`,
  );
  const extra = schema.additionalProperties;
  const hasProperties = lines.length > 0;
  if (extra === false) return lines.join("");
  // JSON Schema allows other keys unless it says otherwise; with declared properties they stay `unknown`.
  const value = hasProperties || extra === undefined || extra === true ? "unknown" : render(extra, indent);
  if (hasProperties && extra === undefined) return lines.join("");
  return lines.join("") + `${indent}[key: string]: ${value};\n`;
}

function objectType(schema, indent) {
  const body = members(schema, `${indent}  `);
  return body ? `{\n${body}${indent}}` : "Record<string, never>";
}

function declaration(name, schema) {
  const doc = comment(schema.description, "");
  const isInterface = (schema.type === "object" || (!schema.type && schema.properties)) && !schema.anyOf;
  if (isInterface && (schema.properties || schema.additionalProperties === undefined)) {
    return `${doc}export interface ${name} {\n${members(schema, "  ")}}\n`;
  }
  return `${doc}export type ${name} = ${render(schema)};\n`;
}

const TEXT = /^(text\/|application\/x-ndjson)/;

function bodyType(content) {
  if (!content) return "never";
  if (content["application/json"]) return render(content["application/json"].schema, "    ");
  if (content["multipart/form-data"]) return render(content["multipart/form-data"].schema, "    ");
  const kind = Object.keys(content)[0];
  return TEXT.test(kind) ? "string" : "ArrayBuffer";
}

function responseType(responses) {
  const codes = Object.keys(responses || {})
    .filter((c) => /^2\d\d$/.test(c))
    .sort();
  for (const code of codes) {
    const content = responses[code].content;
    if (content && Object.keys(content).length) return bodyType(content);
  }
  return "void";
}

function parameters(params, where) {
  const chosen = params.filter((p) => p.in === where);
  if (!chosen.length) return "never";
  const schema = {
    type: "object",
    additionalProperties: false,
    properties: Object.fromEntries(
      chosen.map((p) => [p.name, { ...p.schema, description: p.description ?? p.schema?.description }]),
    ),
    required: chosen.filter((p) => p.required).map((p) => p.name),
  };
  return render(schema, "    ");
}

function operations(paths) {
  const lines = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = [...(item.parameters || []), ...(op.parameters || [])];
      const body = op.requestBody;
      lines.push(
        comment(op.description || op.summary, "  ") +
          `  ${JSON.stringify(`${method.toUpperCase()} ${path}`)}: {\n` +
          `    path: ${parameters(params, "path")};\n` +
          `    query: ${parameters(params, "query")};\n` +
          `    body: ${bodyType(body?.content)};\n` +
          `    bodyRequired: ${body?.required ? "true" : "false"};\n` +
          `    response: ${responseType(op.responses)};\n` +
          "  };\n",
      );
    }
  }
  return lines.join("");
}

function generate(doc) {
  const schemas = doc.components?.schemas || {};
  const out = [
    "// Generated from the MemoryLayer server's OpenAPI document by scripts/generate-types.mjs: do not edit.",
    "// tests/unit/test_js_sdk_types.py regenerates it from the app and fails when the two differ.",
    `// API version ${doc.info?.version ?? "unknown"} (OpenAPI ${doc.openapi}).`,
    "/* eslint-disable */",
    "",
  ];
  for (const [name, schema] of Object.entries(schemas)) out.push(declaration(typeName(name), schema));
  out.push(
    '/** Every operation, by "METHOD /path": its path and query parameters, JSON body and success answer. */',
  );
  out.push(`export interface Operations {\n${operations(doc.paths || {})}}\n`);
  out.push("/** An operation's key, e.g. `\"POST /v1/memories\"`. */");
  out.push("export type OperationKey = keyof Operations;\n");
  return out.join("\n");
}

const source = process.argv[2] ? readFileSync(process.argv[2], "utf8") : readFileSync(0, "utf8");
process.stdout.write(generate(JSON.parse(source)));
