import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_TOOLS } from "~/http/mcp/mcp-tools.server";
import { prdHeadings, prdSection } from "~/http/mcp/prd-sections";
import { signedUpClient, type TestClient } from "../support/client";
import { type Account, setPlan } from "../support/org";
import { pageText } from "../support/page";
import { serveApp } from "../support/serve";

/**
 * The MCP server at /mcp (docs/mcp.md), driven by the SDK's own client over a
 * real loopback socket: authentication with REST API keys exactly as /api,
 * scopes, organization isolation, every tool and the PRD resources.
 */

const KEYS = "/api/admin/rest-api-keys";
const TOOL_NAMES = [
  "search_projects",
  "get_project",
  "get_prd",
  "create_project",
  "add_conversation_answer",
  "generate_prd",
  "check_prd",
  "score_prd",
  "coach_prd",
  "list_comments",
  "add_comment",
  "derive_user_stories",
  "list_trackers",
  "send_stories_to_tracker",
];

let app: Awaited<ReturnType<typeof serveApp>>;
let owner: Account;
let outsider: Account;
let writeKey: string;
let readKey: string;
let outsiderKey: string;
let projectId: string;

async function mint(client: TestClient, body: Record<string, unknown>) {
  const res = await client.post(KEYS, body);
  expect(res.status, res.text).toBe(201);
  return res.body.apiKey as { id: string; key: string; scopes: string[] };
}

async function connect(key: string) {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { result, text: textOf(result), data: result.isError ? null : (result.structuredContent as any) };
}

/** A raw JSON-RPC initialize POST (to see the HTTP status and headers the SDK client hides). */
const rawInitialize = (headers: Record<string, string>) =>
  fetch(`${app.url}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });

beforeAll(async () => {
  app = await serveApp();
  owner = await signedUpClient({ name: "Mira Owner" });
  outsider = await signedUpClient({ name: "Otto Outsider" });
  await setPlan(owner.organization.id, "enterprise");
  await setPlan(outsider.organization.id, "enterprise");
  writeKey = (await mint(owner.client, { name: "agent", scopes: ["write"] })).key;
  readKey = (await mint(owner.client, { name: "reader", scopes: ["read"] })).key;
  outsiderKey = (await mint(outsider.client, { name: "other org" })).key;
});

afterAll(async () => {
  await app?.close();
});

describe("MCP over streamable HTTP at /mcp", () => {
  it("initializes and lists exactly the tools", async () => {
    const client = await connect(writeKey);
    expect(client.getServerVersion()?.name).toBe("prd-studio");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    expect(MCP_TOOLS.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) expect(tool.description, tool.name).toBeTruthy();
    const create = tools.find((t) => t.name === "create_project")!;
    expect(create.inputSchema.required).toEqual(["name"]);
    expect((create.inputSchema.properties as Record<string, { description?: string }>).name!.description).toBeTruthy();
    await client.close();
  });

  it("runs every tool through the domain functions, offline (no AI key)", async () => {
    const client = await connect(writeKey);

    const created = await call(client, "create_project", { name: "Courier Tracker", description: "Live parcel tracking for couriers and customers" });
    expect(created.result.isError, created.text).toBeFalsy();
    projectId = created.data.id;
    expect(created.data).toMatchObject({ name: "Courier Tracker", url: `http://localhost:3000/projects/${projectId}` });

    const got = await call(client, "get_project", { projectId });
    expect(got.data).toMatchObject({ id: projectId, name: "Courier Tracker" });

    const answered = await call(client, "add_conversation_answer", {
      projectId,
      answer: "Couriers lose time calling customers; customers want to see where their parcel is and when it arrives.",
    });
    expect(answered.result.isError, answered.text).toBeFalsy();
    expect(typeof answered.data.response).toBe("string");
    expect(answered.data).toHaveProperty("nextQuestion");

    const generated = await call(client, "generate_prd", { projectId, style: "lean" });
    expect(generated.result.isError, generated.text).toBeFalsy();
    expect(generated.data.version.number).toBeGreaterThanOrEqual(1);
    expect(generated.data.style).toBe("lean");
    expect(generated.data.model).toBe("builtin");
    expect(generated.data.summary).toMatch(/words in \d+ sections/);

    const whole = await call(client, "get_prd", { projectId });
    expect(whole.result.isError).toBeFalsy();
    const headings = prdHeadings(whole.text);
    expect(headings.length).toBeGreaterThan(1);
    const heading = headings[1]!.title;
    const section = await call(client, "get_prd", { projectId, section: heading.toUpperCase() });
    expect(section.result.isError, section.text).toBeFalsy();
    expect(section.text.split("\n")[0]).toContain(heading);
    expect(section.text.length).toBeLessThan(whole.text.length);
    const missing = await call(client, "get_prd", { projectId, section: "No Such Heading" });
    expect(missing.result.isError).toBe(true);
    expect(missing.text).toContain('No section "No Such Heading"');
    expect(missing.text).toContain(`- ${heading}`);

    const checked = await call(client, "check_prd", { projectId });
    expect(checked.result.isError, checked.text).toBeFalsy();
    expect(checked.data).toBeTruthy();

    const scored = await call(client, "score_prd", { projectId });
    expect(scored.result.isError, scored.text).toBeFalsy();
    expect(scored.data.score.overallScore).toBeGreaterThanOrEqual(0);

    const coached = await call(client, "coach_prd", { projectId });
    expect(coached.result.isError, coached.text).toBeFalsy();
    expect(coached.data.summary).toContain("Overall:");
    expect(typeof coached.data.review.overallScore).toBe("number");

    const comment = await call(client, "add_comment", { projectId, content: "Can we cover failed deliveries?", section: heading });
    expect(comment.result.isError, comment.text).toBeFalsy();
    const comments = await call(client, "list_comments", { projectId });
    expect(JSON.stringify(comments.data.comments)).toContain("Can we cover failed deliveries?");

    const stories = await call(client, "derive_user_stories", { projectId });
    expect(stories.result.isError, stories.text).toBeFalsy();
    expect(stories.data.stories.length).toBeGreaterThan(20);
    expect(stories.data.outputId).toBeTruthy();

    const listed = await call(client, "search_projects", {});
    expect(listed.data.projects.map((p: { id: string }) => p.id)).toContain(projectId);
    const found = await call(client, "search_projects", { query: "Courier", limit: 5 });
    expect(found.result.isError, found.text).toBeFalsy();
    expect(found.data.projects[0]).toMatchObject({ id: projectId, name: "Courier Tracker", url: expect.stringContaining(projectId) });
    expect(found.data.projects[0].status).toBeTruthy();
    expect(found.data.projects[0].updatedAt).toBeTruthy();

    await client.close();
  });

  it("serves each PRD as a text/markdown resource and lists them", async () => {
    const client = await connect(writeKey);
    const { resources } = await client.listResources();
    const mine = resources.find((r) => r.uri === `prd://projects/${projectId}`);
    expect(mine).toMatchObject({ mimeType: "text/markdown" });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain("prd://projects/{projectId}");
    const read = await client.readResource({ uri: `prd://projects/${projectId}` });
    expect(read.contents[0]).toMatchObject({ uri: `prd://projects/${projectId}`, mimeType: "text/markdown" });
    expect((read.contents[0] as { text: string }).text).toMatch(/^#/m);
    await client.close();
  });

  it("refuses write tools to a read-scoped key, naming the scope", async () => {
    const client = await connect(readKey);
    const refused = await call(client, "create_project", { name: "Should not exist" });
    expect(refused.result.isError).toBe(true);
    expect(refused.text).toBe("FORBIDDEN: This API key lacks the write scope");
    const comment = await call(client, "add_comment", { projectId, content: "nope" });
    expect(comment.text).toContain("lacks the write scope");
    // Reading still works.
    const got = await call(client, "get_project", { projectId });
    expect(got.result.isError, got.text).toBeFalsy();
    await client.close();
  });

  it("keeps another organization's key out: NOT_FOUND, and not in search or resources", async () => {
    const client = await connect(outsiderKey);
    const got = await call(client, "get_project", { projectId });
    expect(got.result.isError).toBe(true);
    expect(got.text).toMatch(/^NOT_FOUND: /);
    expect(got.text).not.toContain("Courier");
    const prd = await call(client, "get_prd", { projectId });
    expect(prd.text).toMatch(/^NOT_FOUND: /);
    const found = await call(client, "search_projects", { query: "Courier" });
    expect(found.data.projects).toEqual([]);
    const listed = await call(client, "search_projects", {});
    expect(listed.data.projects.map((p: { id: string }) => p.id)).not.toContain(projectId);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).not.toContain(`prd://projects/${projectId}`);
    await expect(client.readResource({ uri: `prd://projects/${projectId}` })).rejects.toThrow(/NOT_FOUND/);
    await client.close();
  });

  it("answers 401 with WWW-Authenticate and a JSON-RPC error to a missing or invalid key", async () => {
    const missing = await rawInitialize({});
    expect(missing.status).toBe(401);
    expect(missing.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    expect(await missing.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32001 }, id: null });

    const invalid = await rawInitialize({ Authorization: `Bearer svc_${"0".repeat(40)}` });
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    const body = await invalid.json();
    expect(body).toMatchObject({ jsonrpc: "2.0", error: { code: -32001 }, id: null });
    expect(body.error.message).toMatch(/^UNAUTHORIZED: /);

    await expect(connect(`svc_${"1".repeat(40)}`)).rejects.toThrow();
  });

  it("answers 401 to a revoked key", async () => {
    const key = await mint(owner.client, { name: "soon revoked" });
    const ok = await rawInitialize({ Authorization: `Bearer ${key.key}` });
    expect(ok.status).toBe(200);
    expect((await owner.client.delete(`${KEYS}/${key.id}`)).status).toBe(200);
    const revoked = await rawInitialize({ Authorization: `Bearer ${key.key}` });
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    expect((await revoked.json()).error.code).toBe(-32001);
  });

  it("refuses a POST from a web page on another site (foreign Origin) with 403", async () => {
    const res = await rawInitialize({ Authorization: `Bearer ${writeKey}`, Origin: "https://evil.example" });
    expect(res.status).toBe(403);
  });

  it("answers 405 to GET (stateless server) once authenticated", async () => {
    const res = await fetch(`${app.url}/mcp`, { headers: { Authorization: `Bearer ${writeKey}`, Accept: "text/event-stream" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST");
  });
});

describe("PRD sections", () => {
  const md = "# Title\n\nIntro\n\n## Goals\n\nShip it.\n\n### Detail\n\nMore.\n\n```md\n## Not a heading\n```\n\n## Risks\n\nFew.\n";
  it("cuts a section to the next heading of its level, ignoring fenced code", () => {
    expect(prdSection(md, "goals")).toEqual({ content: "## Goals\n\nShip it.\n\n### Detail\n\nMore.\n\n```md\n## Not a heading\n```" });
    expect(prdSection(md, "Nope")).toEqual({ available: ["Title", "Goals", "Detail", "Risks"] });
  });
});

describe("Settings → Connect an AI agent (MCP)", () => {
  it("shows the server URL, the three configs and the tools", async () => {
    const res = await owner.client.get("/settings/mcp");
    expect(res.status, res.text).toBe(200);
    const text = pageText(res);
    expect(text).toContain("http://localhost:3000/mcp");
    expect(text).toContain("claude_desktop_config.json");
    expect(text).toContain("mcp-remote");
    expect(text).toContain(".cursor/mcp.json");
    expect(text).toContain(".vscode/mcp.json");
    expect(text).toContain('"type": "http"');
    for (const name of TOOL_NAMES) expect(text).toContain(name);
    expect(res.text).toContain('href="/settings/api-keys"');
  });
});
