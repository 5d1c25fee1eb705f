import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { createGithubMock, GITHUB_API_URL, GOOD_TOKEN } from "../mocks/github";
import { loopbackOnly } from "../mocks/unhandled";
import { signedUpClient } from "../support/client";
import { projectWithPrd } from "../support/integrations";
import { type Account, setPlan } from "../support/org";
import { serveApp } from "../support/serve";

/**
 * An agent sends stories to a tracker over MCP (docs/mcp.md): the SDK's own
 * client against the app on a loopback socket, GitHub as the msw stand-in
 * the tracker tests use. Preview first, then send; re-sending updates.
 */

const STORIES = `## Receipts

### Story 1: Snap a receipt
As an employee, I want to photograph a receipt, so that I do not keep paper.

**Acceptance criteria**
- Given a photo, when I upload it, then the amount is read.

### Story 2: Approve a report
As a manager, I want to approve reports, so that people are paid.

**Acceptance criteria**
- Given a submitted report, when I approve it, then finance sees it.
`;

const gh = createGithubMock();
const github = setupServer(...gh.handlers);
let app: Awaited<ReturnType<typeof serveApp>>;
let owner: Account;
let projectId: string;
let connectionId: string;
let writeKey: string;
let readKey: string;

async function connect(key: string) {
  const client = new Client({ name: "mcp-trackers-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return client;
}
const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

beforeAll(async () => {
  process.env.GITHUB_API_URL = GITHUB_API_URL;
  resetConfigForTests();
  github.listen({ onUnhandledRequest: loopbackOnly });
  // msw tees each response to hand a copy to these listeners; unread, the copy stalls the MCP client's stream.
  for (const type of ["response:mocked", "response:bypass"] as const) {
    github.events.on(type, ({ response }) => {
      if (response.body && !response.bodyUsed) void response.body.cancel().catch(() => {});
    });
  }
  app = await serveApp();
  owner = await signedUpClient({ name: "Mira Mcp" });
  await setPlan(owner.organization.id, "enterprise");
  projectId = await projectWithPrd(owner.client, "Expenses", "# Expenses\n\n## Receipts\n\nSnap receipts.\n");
  const connected = await owner.client.post("/api/integrations/trackers", { service: "github", token: GOOD_TOKEN });
  expect(connected.status, connected.text).toBe(201);
  connectionId = connected.body.connection.id;
  const mint = async (body: Record<string, unknown>) => (await owner.client.post("/api/admin/rest-api-keys", body)).body.apiKey.key as string;
  writeKey = await mint({ name: "Agent", scopes: ["write"] });
  readKey = await mint({ name: "Reader", scopes: ["read"] });
});

afterAll(async () => {
  await app?.close();
  github.close();
  delete process.env.GITHUB_API_URL;
  resetConfigForTests();
});

describe("send_stories_to_tracker over MCP", () => {
  it("lists the tracker without its secret, previews without sending, sends, and updates on a second send", async () => {
    const agent = await connect(writeKey);
    const listed = await call(agent, "list_trackers", {});
    expect(listed.structuredContent).toEqual({
      trackers: [{ id: connectionId, service: "github", serviceName: "GitHub", accountLabel: expect.any(String), targetKind: "repository" }],
    });
    expect(textOf(listed)).not.toMatch(/secret/i);

    const args = { projectId, connectionId, target: "acme/app", markdown: STORIES };
    const preview = await call(agent, "send_stories_to_tracker", args);
    expect(preview.isError, textOf(preview)).toBeFalsy();
    expect(preview.structuredContent).toMatchObject({ creates: 2, updates: 0 });
    expect(gh.calls).toHaveLength(0);

    const sent = await call(agent, "send_stories_to_tracker", { ...args, preview: false });
    expect(sent.isError, textOf(sent)).toBeFalsy();
    expect((sent.structuredContent as { results: { action: string }[] }).results.map((r) => r.action)).toEqual(["created", "created"]);
    expect(gh.issues.map((i) => i.title)).toEqual(["Snap a receipt", "Approve a report"]);

    const again = await call(agent, "send_stories_to_tracker", { ...args, preview: false });
    expect((again.structuredContent as { results: { action: string }[] }).results.map((r) => r.action)).toEqual(["updated", "updated"]);
    expect(gh.issues).toHaveLength(2);
    await agent.close();
  });

  it("refuses a read-scoped key, naming the scope, and sends nothing", async () => {
    const reader = await connect(readKey);
    const before = gh.calls.length;
    const refused = await call(reader, "send_stories_to_tracker", { projectId, connectionId, target: "acme/app", markdown: STORIES, preview: false });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/write scope/);
    expect(gh.calls.length).toBe(before);
    await reader.close();
  });
});
