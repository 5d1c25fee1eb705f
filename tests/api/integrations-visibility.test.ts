import { beforeAll, describe, expect, it } from "vitest";
import { ORIGIN, type TestClient, signedUpClient } from "../support/client";
import { parseHtml } from "../support/html";
import { setEnv } from "../support/ai";
import { connect, INTEGRATION_ENV, useIntegrationMocks } from "../support/integrations";
import { type Account, joinOrg } from "../support/org";
import { pageText } from "../support/page";

/**
 * Settings → Integrations shows members only what this server has set up,
 * and explains the rest to owners and admins (the variables only in a
 * details element), driven like a browser without JavaScript.
 */

const mocks = useIntegrationMocks();
const ALL_VARIABLES = Object.keys(INTEGRATION_ENV);
const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };
const postForm = (client: TestClient, fields: Record<string, string>) =>
  client.call("POST", "/settings/integrations", { body: new URLSearchParams(fields), headers: FORM_HEADERS });
async function page(client: TestClient) {
  const res = await client.get("/settings/integrations");
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return { html: res.text, text: pageText(res) };
}
/** Removes the OAuth client of these services for the duration of `work`. */
async function withoutClients(providers: ("NOTES" | "WIKI" | "DOCS")[], work: () => Promise<void>) {
  const names = providers.flatMap((p) => [`${p}_CLIENT_ID`, `${p}_CLIENT_SECRET`]);
  setEnv(Object.fromEntries(names.map((n) => [n, undefined])));
  try {
    await work();
  } finally {
    setEnv(Object.fromEntries(names.map((n) => [n, INTEGRATION_ENV[n]])));
  }
}

let owner: Account;
let member: Account;
beforeAll(async () => {
  owner = await signedUpClient({ name: "Ines Integrations" });
  member = await joinOrg(owner.organization.id, "member", "Mats Member");
});

describe("a service the server has not set up", () => {
  it("is not shown to a member at all: neither the service nor any variable name", async () => {
    await withoutClients(["WIKI", "DOCS"], async () => {
      const { html, text } = await page(member.client);
      expect(text).toContain("Connect Notion");
      for (const hidden of ["Confluence", "Google Docs", "Not set up", "server administrator"]) expect(text).not.toContain(hidden);
      for (const variable of ALL_VARIABLES) expect(html).not.toContain(variable);
    });
  });

  it("a member of a server with none set up gets a plain empty state", async () => {
    await withoutClients(["NOTES", "WIKI", "DOCS"], async () => {
      const { html, text } = await page(member.client);
      const heading = parseHtml(html).querySelector("#no-integrations-heading");
      expect(heading?.textContent).toBe("No integrations available yet");
      expect(text).toContain("appears here once your server administrator sets it up. Ask an owner or admin of your organization");
      expect(text).not.toContain("Export a project");
      for (const service of ["Connect Notion", "Connect Confluence Cloud", "Connect Google Docs"]) expect(text).not.toContain(service);
      for (const variable of ALL_VARIABLES) expect(html).not.toContain(variable);
    });
  });

  it("is explained to an owner in plain words, with the variables and the redirect URI only inside a details element", async () => {
    await withoutClients(["DOCS"], async () => {
      const { html, text } = await page(owner.client);
      expect(text).toContain(
        "Your server administrator has not set up Google Docs yet, so nobody in your organization can connect it. They need to register PRD Studio with Google and add the client ID and secret it gets to the server's settings — see docs/integrations.md.",
      );
      expect(text).not.toContain("Connect Google Docs");
      const card = parseHtml(html).querySelector('[data-testid="setup-docs"]')!;
      const details = card.querySelector("details")!;
      expect(details.querySelector("summary")?.textContent).toBe("What the server administrator needs");
      expect(details.textContent).toContain("Set DOCS_CLIENT_ID and DOCS_CLIENT_SECRET in the server's environment, then restart it.");
      expect(details.textContent).toContain("http://localhost:3000/api/integrations/docs/callback");
      // Outside the details, the card names no variable.
      details.remove();
      expect(card.textContent).not.toMatch(/_CLIENT_/);
      // The configured services are offered as before.
      expect(text).toContain("Connect Notion");
      expect(text).toContain("Connect Confluence Cloud");
    });
  });

  it("a member's forged Connect is refused in plain words, without the variables", async () => {
    await withoutClients(["WIKI"], async () => {
      const res = await postForm(member.client, { intent: "connect", provider: "wiki" });
      expect(res.status).toBe(409);
      expect(pageText(res)).toContain("Your server administrator has not set up Confluence Cloud yet, so it cannot be connected.");
      expect(res.text).not.toContain("WIKI_CLIENT_ID");
    });
  });

  it("a member still connected to a service the server no longer sets up sees it, to disconnect it", async () => {
    await connect(member.client, "notes", mocks);
    await withoutClients(["NOTES"], async () => {
      const { html, text } = await page(member.client);
      expect(text).toContain("Notion is no longer set up on this server, so nothing can be exported to it. You can disconnect it.");
      expect(html).toContain('aria-label="Disconnect Notion"');
      expect(text).not.toContain("Reconnect Notion");
      expect(html).not.toContain("NOTES_CLIENT_ID");
      // Not offered as an export target.
      expect(html).not.toMatch(/name="provider" value="notes"[^>]*type="radio"|type="radio"[^>]*value="notes"/);
      const res = await postForm(member.client, { intent: "disconnect", provider: "notes" });
      expect(res.status).toBe(302);
      const after = await page(member.client);
      expect(after.text).toContain("Notion disconnected.");
      expect(after.text).not.toContain("Notion · Notes workspace");
    });
  });
});

describe("connections stay their owner's", () => {
  it("another member, and another organization's owner, see Notion as not connected", async () => {
    await connect(owner.client, "notes", mocks);
    expect((await page(owner.client)).text).toContain("Connected to Acme Product Wiki");
    const teammate = await page(member.client);
    expect(teammate.text).not.toContain("Acme Product Wiki");
    expect(teammate.text).toContain("Connect Notion");
    const outsider = await signedUpClient({ name: "Olaf Outsider" });
    const other = await page(outsider.client);
    expect(other.text).not.toContain("Acme Product Wiki");
    expect(other.text).toContain("Connect Notion");
    // Disconnecting from the other organization does not touch the owner's connection.
    expect((await postForm(outsider.client, { intent: "disconnect", provider: "notes" })).status).toBe(302);
    expect((await page(owner.client)).text).toContain("Connected to Acme Product Wiki");
  });
});
