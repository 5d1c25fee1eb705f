import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { db } from "~/db.server";
import { remixHandler } from "../support/build";
import { ORIGIN, type TestClient } from "../support/client";
import type { Account } from "../support/org";

/** Helpers shared by the export tests: raw (binary) responses, PRDs, events. */

/** A same-origin request with the client's cookies, answered as a raw Response (binary bodies intact, stream unread). */
export function rawCall(
  client: TestClient,
  method: string,
  urlPath: string,
  init: { json?: unknown; form?: URLSearchParams; headers?: Record<string, string> } = {},
) {
  const headers = new Headers(init.headers);
  if (!headers.has("Origin")) headers.set("Origin", ORIGIN);
  headers.set("Host", new URL(ORIGIN).host);
  if (client.jar.size) headers.set("Cookie", [...client.jar].map(([k, v]) => `${k}=${v}`).join("; "));
  let body: BodyInit | undefined;
  if (init.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    body = init.form;
  }
  return remixHandler()(new Request(`${ORIGIN}${urlPath}`, { method, headers, body }), { ip: client.ip });
}

export async function rawPost(client: TestClient, urlPath: string, json: unknown) {
  const res = await rawCall(client, "POST", urlPath, { json });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = Buffer.from(bytes).toString("utf8");
  const body = (res.headers.get("Content-Type") ?? "").includes("json") ? JSON.parse(text) : null;
  return { status: res.status, headers: res.headers, bytes, text, body };
}

export async function newProjectWithPrd(a: Account, name: string, content: string) {
  const created = await a.client.post("/api/projects", { name });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  const saved = await a.client.post(`/api/projects/${id}/prd`, { content });
  expect(saved.status, saved.text).toBeLessThan(300);
  return id;
}

/** The text pdftotext (poppler-utils) reads from a PDF. */
export function pdfText(bytes: Uint8Array) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pdf-"));
  const file = path.join(dir, "doc.pdf");
  fs.writeFileSync(file, bytes);
  try {
    return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function eventsNamed(orgId: string, name: string) {
  const rows = await db.selectFrom("events").selectAll().where("orgId", "=", orgId).where("name", "=", name).orderBy("createdAt").execute();
  return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, any> }));
}
