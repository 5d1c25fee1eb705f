import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { retryPolicy } from "~/domain/integrations/http.server";
import { createDocsMock, DOCS_CLIENT } from "../mocks/docs";
import { createNotesMock, NOTES_CLIENT } from "../mocks/notes";
import { createWikiMock, WIKI_CLIENT } from "../mocks/wiki";
import type { TestClient } from "./client";

/** The three integration stand-ins behind one msw server, with the OAuth clients configured. */

export const INTEGRATION_ENV: Record<string, string> = {
  NOTES_CLIENT_ID: NOTES_CLIENT.id,
  NOTES_CLIENT_SECRET: NOTES_CLIENT.secret,
  WIKI_CLIENT_ID: WIKI_CLIENT.id,
  WIKI_CLIENT_SECRET: WIKI_CLIENT.secret,
  DOCS_CLIENT_ID: DOCS_CLIENT.id,
  DOCS_CLIENT_SECRET: DOCS_CLIENT.secret,
};

export type Provider = "notes" | "wiki" | "docs";

/** Registers beforeAll/afterAll hooks; unhandled outgoing requests fail the test. */
export function useIntegrationMocks(env: Record<string, string> = {}) {
  const mocks = { notes: createNotesMock(), wiki: createWikiMock(), docs: createDocsMock() };
  const server = setupServer(...mocks.notes.handlers, ...mocks.wiki.handlers, ...mocks.docs.handlers);
  const all = { ...INTEGRATION_ENV, ...env };
  /** Retry-After waits requested by the client, instead of sleeping. */
  const waits: number[] = [];
  const sleep = retryPolicy.sleep;
  beforeAll(() => {
    Object.assign(process.env, all);
    resetConfigForTests();
    retryPolicy.sleep = async (ms) => {
      waits.push(ms);
    };
    server.listen({ onUnhandledRequest: "error" });
  });
  afterAll(() => {
    server.close();
    retryPolicy.sleep = sleep;
    for (const key of Object.keys(all)) delete process.env[key];
    resetConfigForTests();
  });
  return { ...mocks, server, waits };
}

export type IntegrationMocks = ReturnType<typeof useIntegrationMocks>;

/** Starts the flow through the API and approves it at the stand-in: the code and state the browser would bring back. */
export async function authorizeAt(client: TestClient, provider: Provider, mocks: IntegrationMocks) {
  const res = await client.get(`/api/integrations/${provider}/connect`);
  expect(res.status, res.text).toBe(200);
  return { url: res.body.url as string, ...mocks[provider].authorize(res.body.url) };
}

/** The whole connect flow: connect → approve → callback (302 to the settings page). */
export async function connect(client: TestClient, provider: Provider, mocks: IntegrationMocks) {
  const { code, state } = await authorizeAt(client, provider, mocks);
  const res = await client.get(`/api/integrations/${provider}/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`);
  expect(res.status, res.text).toBe(302);
  expect(res.headers.get("Location")).toBe("/settings/integrations");
  return res;
}

/** A project of `client`'s organization with this PRD content; returns its id. */
export async function projectWithPrd(client: TestClient, name: string, content: string) {
  const created = await client.post("/api/projects", { name });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  if (content) {
    const saved = await client.post(`/api/projects/${id}/prd`, { content });
    expect(saved.status, saved.text).toBeLessThan(300);
  }
  return id;
}

/** Export events of an organization, oldest first, with their data parsed. */
export async function exportEvents(orgId: string) {
  const { db } = await import("~/db.server");
  const rows = await db.selectFrom("events").selectAll().where("orgId", "=", orgId).where("name", "like", "export.%").orderBy("createdAt").execute();
  return rows.map((r) => ({ name: r.name, data: JSON.parse(r.data) as Record<string, unknown> }));
}
