import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGithubMock, GOOD_TOKEN } from "../mocks/github";
import { serveHandlers } from "../support/msw-loopback";
import { Session, type ServerProcess, startServer } from "./server-process";

/**
 * An AI agent on another machine, as Claude Desktop or Cursor would connect:
 * the SDK's own client over HTTP against the production build
 * (build/server.js) at /mcp, with a REST API key (docs/mcp.md). Every tool
 * is called once; the tracker tools send to the GitHub stand-in the API tests
 * use, served on a loopback socket.
 */

const github = createGithubMock();
let stub: Awaited<ReturnType<typeof serveHandlers>>;
let server: ServerProcess;
let dataDir: string;
let key: string;
let readOnlyKey: string;
let strangerKey: string;

async function ok(res: Promise<{ status: number; body: any }>, what: string) {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function connect(apiKey: string) {
  const client = new Client({ name: "e2e-agent", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } }),
  );
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-e2e-mcp-"));
  stub = await serveHandlers(github.handlers, "https://github.test");
  server = await startServer(dataDir, { GITHUB_API_URL: `${stub.url}/api/v3` });
  const owner = new Session(server.baseUrl, "10.80.0.1");
  await owner.register(`mcp-owner-${Date.now()}@example.com`, "Agent-Pass-77");
  key = (await ok(owner.call("POST", "/api/admin/rest-api-keys", { name: "Agent" }), "key")).apiKey.key;
  readOnlyKey = (await ok(owner.call("POST", "/api/admin/rest-api-keys", { name: "Reader", scopes: ["read"] }), "read-only key")).apiKey.key;
  await ok(owner.call("POST", "/api/integrations/trackers", { service: "github", token: GOOD_TOKEN }), "tracker");
  const stranger = new Session(server.baseUrl, "10.80.0.2");
  await stranger.register(`mcp-stranger-${Date.now()}@example.com`, "Agent-Pass-77");
  strangerKey = (await ok(stranger.call("POST", "/api/admin/rest-api-keys", { name: "Stranger" }), "key")).apiKey.key;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await stub?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("MCP against the production build", () => {
  it("an agent calls every tool: writes a PRD, reviews it, comments, derives stories and sends them to a tracker", async () => {
    const agent = await connect(key);
    const { tools } = await agent.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
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
      ].sort(),
    );
    const used = new Set<string>();
    const tool = async (name: string, args: Record<string, unknown>) => {
      used.add(name);
      const result = await call(agent, name, args);
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
      return { result, data: result.structuredContent as any, text: textOf(result) };
    };

    const projectId = (await tool("create_project", { name: "Agent-written kiosk PRD" })).data.id as string;
    await tool("add_conversation_answer", { projectId, answer: "Guests wait 9 minutes to pay at the kiosk; we want one tap." });
    const generated = await tool("generate_prd", { projectId });
    expect(generated.data.sections.length).toBeGreaterThan(2);
    expect((await tool("get_prd", { projectId })).text).toContain("9 minutes");
    const section = generated.data.sections[1] as string;
    const one = await tool("get_prd", { projectId, section });
    expect(one.text).toContain(section);
    expect(one.text).not.toContain(generated.data.sections[2]);
    expect((await tool("get_project", { projectId })).data).toMatchObject({ id: projectId, name: "Agent-written kiosk PRD" });
    expect(JSON.stringify((await tool("search_projects", { query: "kiosk" })).data)).toContain(projectId);

    const check = (await tool("check_prd", { projectId })).data;
    expect(Object.keys(check).length).toBeGreaterThan(0);
    const score = (await tool("score_prd", { projectId })).data;
    expect(JSON.stringify(score)).toMatch(/\d/);
    expect((await tool("coach_prd", { projectId })).text.length).toBeGreaterThan(50);

    await tool("add_comment", { projectId, content: "Which payment terminals must the kiosk support?", section });
    expect((await tool("list_comments", { projectId })).text).toContain("Which payment terminals");

    const stories = await tool("derive_user_stories", { projectId });
    const outputId = stories.data.outputId as string;
    expect(stories.data.stories).toMatch(/###/);
    const trackers = (await tool("list_trackers", {})).data.trackers as { id: string; service: string }[];
    expect(trackers).toEqual([expect.objectContaining({ service: "github", accountLabel: "octocat" })]);
    const target = { projectId, connectionId: trackers[0]!.id, target: "acme/app", outputId };
    const preview = (await tool("send_stories_to_tracker", target)).data;
    expect(preview.creates).toBeGreaterThan(0);
    expect(github.issues).toHaveLength(0);
    const sent = (await tool("send_stories_to_tracker", { ...target, preview: false })).data;
    expect(sent).toMatchObject({ created: preview.creates, failed: 0 });
    expect(github.issues).toHaveLength(preview.creates);
    // Sent again: updated, not duplicated.
    expect((await tool("send_stories_to_tracker", { ...target, preview: false })).data).toMatchObject({ created: 0, updated: preview.creates });
    expect(github.issues).toHaveLength(preview.creates);

    const { resources } = await agent.listResources();
    expect(resources.map((r) => r.uri)).toContain(`prd://projects/${projectId}`);
    const resource = await agent.readResource({ uri: `prd://projects/${projectId}` });
    expect((resource.contents[0] as { text: string }).text).toContain("9 minutes");
    expect([...used].sort()).toEqual(names);
    await agent.close();

    // A key limited to reading may read but not write.
    const reader = await connect(readOnlyKey);
    expect((await call(reader, "get_prd", { projectId })).isError).toBeFalsy();
    const refused = await call(reader, "add_comment", { projectId, content: "Should not land" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/FORBIDDEN/);
    await reader.close();

    // Another organization's key sees none of it.
    const stranger = await connect(strangerKey);
    const foreign = await call(stranger, "get_prd", { projectId });
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toMatch(/NOT_FOUND/);
    const foreignSend = await call(stranger, "send_stories_to_tracker", { ...target, preview: false });
    expect(foreignSend.isError).toBe(true);
    expect((await stranger.listResources()).resources.map((r) => r.uri)).not.toContain(`prd://projects/${projectId}`);
    await stranger.close();
    expect(github.issues).toHaveLength(preview.creates);
  }, 120_000);

  it("refuses an invalid key with 401 and a Bearer challenge", async () => {
    const res = await fetch(`${server.baseUrl}/mcp`, {
      method: "POST",
      headers: { Authorization: "Bearer svc_not_a_real_key", "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
    await expect(connect("svc_not_a_real_key")).rejects.toThrow();
  });
});
