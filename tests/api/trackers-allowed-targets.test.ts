import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { db } from "~/db.server";
import { createGithubMock, GITHUB_API_URL, GOOD_TOKEN } from "../mocks/github";
import { loopbackOnly } from "../mocks/unhandled";
import { signedUpClient, type TestClient } from "../support/client";
import { parseHtml } from "../support/html";
import { projectWithPrd } from "../support/integrations";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";
import { pageText } from "../support/page";
import { serveApp } from "../support/serve";

/**
 * Where a tracker connection may send stories (docs/trackers.md, "Where
 * stories may be sent"). The organization's token reaches every repository
 * its owner can push to; an owner or admin chooses the ones editors may send
 * to, and a send anywhere else is refused with 403, through the API, the
 * page and MCP (one domain function behind all three).
 */

const STORIES = "## Receipts\n\n### Snap a receipt\nAs an employee, I want to photograph a receipt.\n";

const gh = createGithubMock();
const github = setupServer(...gh.handlers);
let app: Awaited<ReturnType<typeof serveApp>>;
let owner: Account;
let editor: Account;
let connectionId: string;
let projectId: string;

const form = (client: TestClient, path: string, values: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
  return client.call("POST", path, { body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
};
const send = (account: Account, path: "preview" | "send", target: string) =>
  account.client.post(`/api/projects/${projectId}/tracker/${path}`, { connectionId, target, markdown: STORIES });
const allowed = async () => (await owner.client.get("/api/integrations/trackers")).body.connections[0].allowedTargets;

beforeAll(async () => {
  process.env.GITHUB_API_URL = GITHUB_API_URL;
  resetConfigForTests();
  github.listen({ onUnhandledRequest: loopbackOnly });
  // msw tees each response for these listeners; unread, the copy stalls the MCP client's stream.
  for (const type of ["response:mocked", "response:bypass"] as const) {
    github.events.on(type, ({ response }) => {
      if (response.body && !response.bodyUsed) void response.body.cancel().catch(() => {});
    });
  }
  owner = await signedUpClient({ name: "Ada Admin" });
  await setPlan(owner.organization.id, "enterprise");
  editor = await joinOrg(owner.organization.id, "member", "Eddie Editor");
  // The editor's own project: a member edits what they created.
  projectId = await projectWithPrd(editor.client, "Receipts", "# Receipts\n");
  const connected = await owner.client.post("/api/integrations/trackers", { service: "github", token: GOOD_TOKEN });
  expect(connected.status, connected.text).toBe(201);
  connectionId = connected.body.connection.id;
});

afterAll(async () => {
  await app?.close();
  github.close();
  delete process.env.GITHUB_API_URL;
  resetConfigForTests();
});

describe("before an admin chooses", () => {
  it("the settings page says plainly that any repository the token reaches is allowed, and an editor can send to one", async () => {
    expect(await allowed()).toBeNull();
    const text = (account: Account) => async () =>
      parseHtml((await account.client.get("/settings/trackers")).text).querySelector("[data-testid=allowed-targets]")?.textContent;
    expect(await text(owner)()).toContain("Not limited Any repository this token can reach: every editor can send stories to all of them.");
    expect(await text(editor)()).toContain("An owner or admin can limit this.");
    const sent = await send(editor, "send", "acme/other");
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.created).toBe(1);
  });
});

describe("choosing the list", () => {
  it("a member cannot change it: 403 through the API and the form, and the page says who can", async () => {
    expectError(
      await editor.client.call("PUT", `/api/integrations/trackers/${connectionId}/allowed-targets`, { json: { allowedTargets: ["acme/other"] } }),
      403,
      "FORBIDDEN",
    );
    const posted = await form(editor.client, `/settings/trackers/${connectionId}`, { intent: "save", mode: "any" });
    expect(posted.status).toBe(403);
    expect(pageText(await editor.client.get(`/settings/trackers/${connectionId}`))).toContain("Where stories may be sent is chosen by admins");
    expect(parseHtml((await editor.client.get("/settings/trackers")).text).querySelector(`a[href="/settings/trackers/${connectionId}"]`)).toBeNull();
    expect(await allowed()).toBeNull();
  });

  it("an admin allows only acme/app with the form, JavaScript off: the repositories the token reaches, the used one checked", async () => {
    const page = await owner.client.get(`/settings/trackers/${connectionId}`);
    expect(page.status, page.text).toBe(200);
    const doc = parseHtml(page.text);
    const boxes = [...doc.querySelectorAll("input[name=targets]")].map((b) => [b.getAttribute("value"), b.hasAttribute("checked")]);
    expect(boxes).toEqual([
      ["acme/app", false],
      ["acme/other", true],
    ]);
    expect(doc.querySelector("input[name=mode][value=any]")?.hasAttribute("checked")).toBe(true);
    const saved = await form(owner.client, `/settings/trackers/${connectionId}`, { intent: "save", mode: "only", targets: ["acme/app"] });
    expect(saved.status, saved.text).toBe(302);
    expect(saved.headers.get("Location")).toBe("/settings/trackers");
    const after = pageText(await owner.client.get("/settings/trackers"));
    expect(after).toContain("stories may now be sent only to acme/app.");
    expect(after).toContain("Only this repository: acme/app.");
    expect(await allowed()).toEqual([{ id: "acme/app", name: "acme/app" }]);
    const targets = (await editor.client.get(`/api/integrations/trackers/${connectionId}/targets`)).body.targets;
    expect(targets.map((t: { id: string; allowed: boolean }) => [t.id, t.allowed])).toEqual([
      ["acme/app", true],
      ["acme/other", false],
    ]);
    const audit = await db.selectFrom("auditLogs").select("metadata").where("action", "=", "tracker.allowed_targets_set").execute();
    expect(audit.map((a) => JSON.parse(a.metadata).allowedTargets)).toEqual([["acme/app"]]);
  });

  it("refuses an empty list and a repository the token cannot push to (400), beside the field on the page", async () => {
    const put = (allowedTargets: unknown) =>
      owner.client.call("PUT", `/api/integrations/trackers/${connectionId}/allowed-targets`, { json: { allowedTargets } });
    expectError(await put([]), 400, "VALIDATION_ERROR");
    const readonly = await put(["acme/app", "someone/readonly"]);
    expectError(readonly, 400, "VALIDATION_ERROR");
    expect(readonly.body.details).toEqual([
      { path: "allowedTargets", message: "someone/readonly is not a repository this GitHub connection can create issues in" },
    ]);
    const none = await form(owner.client, `/settings/trackers/${connectionId}`, { intent: "save", mode: "only" });
    expect(none.status).toBe(400);
    expect(parseHtml(none.text).querySelector("#allowed-targets-error")?.textContent).toBe("Choose at least one, or allow any the token can reach");
    expect(await allowed()).toEqual([{ id: "acme/app", name: "acme/app" }]);
  });
});

describe("sending with a list", () => {
  it("an editor's preview and send to a repository not on the list are refused with 403 and create nothing; on the list they work", async () => {
    const before = gh.issues.length;
    for (const path of ["preview", "send"] as const) {
      for (const target of ["acme/other", "ACME/Other"]) {
        const refused = await send(editor, path, target);
        expectError(refused, 403, "FORBIDDEN");
        expect(refused.body.error).toBe(
          `Stories cannot be sent to ${target}: this GitHub connection may send only to acme/app. An owner or admin can allow another repository in Settings → Issue trackers.`,
        );
      }
    }
    expect(gh.issues.length).toBe(before);
    expect(gh.calls.filter((c) => c.method !== "GET")).toHaveLength(1); // the one send made before the list
    const sent = await send(editor, "send", "acme/app");
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.created).toBe(1);
    expect(gh.issues.length).toBe(before + 1);
  });

  it("the page refuses it beside the target field, and suggests only the allowed repositories", async () => {
    const page = await editor.client.get(`/projects/${projectId}/tracker`);
    expect([...parseHtml(page.text).querySelectorAll("#tracker-targets option")].map((o) => o.getAttribute("value"))).toEqual(["acme/app"]);
    const refused = await form(editor.client, `/projects/${projectId}/tracker`, {
      intent: "preview",
      source: "paste",
      markdown: STORIES,
      connectionId,
      target: "acme/other",
    });
    expect(refused.status).toBe(403);
    expect(parseHtml(refused.text).querySelector("#field-target-hint")?.textContent).toContain("Stories cannot be sent to acme/other");
  });

  it("an agent over MCP is refused the same way, even with an owner's API key", async () => {
    app = await serveApp();
    const key = (await owner.client.post("/api/admin/rest-api-keys", { name: "Agent", scopes: ["write"] })).body.apiKey.key as string;
    const agent = new Client({ name: "allowed-targets-test", version: "1.0.0" });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    const before = gh.issues.length;
    const refused = (await agent.callTool({
      name: "send_stories_to_tracker",
      arguments: { projectId, connectionId, target: "acme/other", markdown: STORIES, preview: false },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect((refused.content[0] as { text: string }).text).toContain("Stories cannot be sent to acme/other");
    expect(gh.issues.length).toBe(before);
    await agent.close();
  });

  it("null allows any repository again", async () => {
    const res = await owner.client.call("PUT", `/api/integrations/trackers/${connectionId}/allowed-targets`, { json: { allowedTargets: null } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.connection.allowedTargets).toBeNull();
    expect((await send(editor, "preview", "acme/other")).status).toBe(200);
  });
});
