import { beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { db } from "~/db.server";
import { ORIGIN, type TestClient, signedUpClient } from "../support/client";
import { projectWithPrd, useIntegrationMocks } from "../support/integrations";
import { type Account, joinOrg } from "../support/org";
import { pageText } from "../support/page";

/** /settings/integrations driven like a browser without JavaScript. */

const mocks = useIntegrationMocks();
const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };
const postForm = (client: TestClient, fields: Record<string, string>) =>
  client.call("POST", "/settings/integrations", { body: new URLSearchParams(fields), headers: FORM_HEADERS });
const page = async (client: TestClient, query = "") => {
  const res = await client.get(`/settings/integrations${query}`);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return pageText(res);
};

let owner: Account;
beforeAll(async () => {
  owner = await signedUpClient({ name: "Pia Pages" });
});

describe("settings → integrations", () => {
  it("lists the three services with a Connect button each, and the tab in the settings navigation", async () => {
    const res = await owner.client.get("/settings/integrations");
    expect(res.text).toContain('href="/settings/integrations"');
    const text = pageText(res);
    for (const service of ["Notion", "Confluence Cloud", "Google Docs"]) expect(text).toContain(`Connect ${service}`);
    expect(text).toContain("Not connected.");
    expect(text).toContain("No projects yet");
  });

  it("explains a service the server has not set up to admins (variables in the details), and hides it from members", async () => {
    const saved = process.env.WIKI_CLIENT_ID;
    delete process.env.WIKI_CLIENT_ID;
    resetConfigForTests();
    try {
      const text = await page(owner.client);
      expect(text).toContain("Your server administrator has not set up Confluence Cloud yet");
      expect(text).toContain("WIKI_CLIENT_ID");
      expect(text).not.toContain("Connect Confluence Cloud");
      expect(text).toContain("Connect Notion");
      const member = await joinOrg(owner.organization.id, "member", "Mo Member");
      const memberText = await page(member.client);
      expect(memberText).not.toContain("Confluence");
      expect(memberText).not.toContain("WIKI_CLIENT_ID");
      expect(memberText).toContain("Connect Notion");
      const refused = await postForm(owner.client, { intent: "connect", provider: "wiki" });
      expect(refused.status).toBe(409);
      expect(pageText(refused)).toContain("Your server administrator has not set up Confluence Cloud yet, so it cannot be connected.");
    } finally {
      process.env.WIKI_CLIENT_ID = saved;
      resetConfigForTests();
    }
  });

  it("Connect redirects the browser to the provider; the callback lands back with a notice and the connected state", async () => {
    const res = await postForm(owner.client, { intent: "connect", provider: "notes" });
    expect(res.status).toBe(302);
    const location = res.headers.get("Location")!;
    expect(location.startsWith("https://api.notion.com/v1/oauth/authorize?")).toBe(true);
    const { code, state } = mocks.notes.authorize(location);
    const back = await owner.client.get(`/api/integrations/notes/callback?code=${code}&state=${state}`);
    expect(back.status).toBe(302);
    expect(back.headers.get("Location")).toBe("/settings/integrations");
    const text = await page(owner.client);
    expect(text).toContain("Notion connected: Acme Product Wiki.");
    expect(text).toMatch(/Connected to Acme Product Wiki \(pat@acme\.example\) since \d{1,2} \w{3} \d{4}\./);
    expect(text).toContain("Reconnect Notion");
    expect(await page(owner.client)).not.toContain("Notion connected: Acme Product Wiki.");
  });

  it("shows why a callback failed, without echoing anything from the URL but the reason", async () => {
    const denied = await page(owner.client, "?error=access_denied&provider=wiki");
    expect(denied).toContain("Confluence Cloud was not connected. You cancelled the authorization");
    const forged = await page(owner.client, "?error=<b>hacked</b>&provider=notes");
    expect(forged).not.toContain("hacked");
    expect(forged).not.toContain("was not connected");
  });

  it("exports a project to the connected workspace from the form, and reports field errors", async () => {
    const projectId = await projectWithPrd(owner.client, "Form Export", "# Form Export\n\nExported through the page.");
    const form = await owner.client.get("/settings/integrations");
    expect(form.text).toContain(`value="${projectId}"`);
    expect(form.text).toContain('name="parentPageId"');
    const res = await postForm(owner.client, { intent: "export", provider: "notes", projectId, parentPageId: "" });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const created = [...mocks.notes.pages.values()].find((p) => p.title === "Form Export")!;
    expect(pageText(res)).toContain(`Exported to Notion: ${created.url}`);
    const bad = await postForm(owner.client, { intent: "export", provider: "notes", projectId, parentPageId: "nope" });
    expect(bad.status).toBe(400);
    expect(pageText(bad)).toContain("Use a Notion page id");
    const notConnected = await postForm(owner.client, { intent: "export", provider: "docs", projectId });
    expect(notConnected.status).toBe(409);
    expect(pageText(notConnected)).toContain("Your Google account is not connected");
  });

  it("Disconnect removes the connection and says so", async () => {
    const res = await postForm(owner.client, { intent: "disconnect", provider: "notes" });
    expect(res.status).toBe(302);
    const text = await page(owner.client);
    expect(text).toContain("Notion disconnected.");
    expect(text).toContain("Connect Notion");
    const rows = await db.selectFrom("integrationConnections").select("id").where("userId", "=", owner.user.id).execute();
    expect(rows).toEqual([]);
  });
});
