import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Session, type ServerProcess, startServer } from "./server-process";

/**
 * An AI agent on another machine, as Claude Desktop or Cursor would connect:
 * the SDK's own client over HTTP against the production build
 * (build/server.js) at /mcp, with a REST API key (docs/mcp.md).
 */

let server: ServerProcess;
let dataDir: string;
let key: string;
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
  server = await startServer(dataDir);
  const owner = new Session(server.baseUrl, "10.80.0.1");
  await owner.register(`mcp-owner-${Date.now()}@example.com`, "Agent-Pass-77");
  key = (await ok(owner.call("POST", "/api/admin/rest-api-keys", { name: "Agent" }), "key")).apiKey.key;
  const stranger = new Session(server.baseUrl, "10.80.0.2");
  await stranger.register(`mcp-stranger-${Date.now()}@example.com`, "Agent-Pass-77");
  strangerKey = (await ok(stranger.call("POST", "/api/admin/rest-api-keys", { name: "Stranger" }), "key")).apiKey.key;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("MCP against the production build", () => {
  it("an agent creates a project, answers, generates the PRD and reads a section; another organization's key sees none of it", async () => {
    const agent = await connect(key);
    const { tools } = await agent.listTools();
    expect(tools.map((t) => t.name)).toContain("generate_prd");

    const created = await call(agent, "create_project", { name: "Agent-written kiosk PRD" });
    expect(created.isError).toBeFalsy();
    const projectId = (created.structuredContent as { id: string }).id;
    const answered = await call(agent, "add_conversation_answer", { projectId, answer: "Guests wait 9 minutes to pay at the kiosk; we want one tap." });
    expect(answered.isError).toBeFalsy();
    const generated = await call(agent, "generate_prd", { projectId });
    expect(generated.isError, textOf(generated)).toBeFalsy();
    const whole = await call(agent, "get_prd", { projectId });
    expect(textOf(whole)).toContain("9 minutes");
    const { resources } = await agent.listResources();
    expect(resources.map((r) => r.uri)).toContain(`prd://projects/${projectId}`);
    await agent.close();

    const stranger = await connect(strangerKey);
    const foreign = await call(stranger, "get_prd", { projectId });
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toMatch(/NOT_FOUND/);
    expect((await stranger.listResources()).resources.map((r) => r.uri)).not.toContain(`prd://projects/${projectId}`);
    await stranger.close();
  }, 90_000);

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
