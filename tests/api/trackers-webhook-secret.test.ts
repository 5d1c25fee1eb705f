import crypto from "node:crypto";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { db } from "~/db.server";
import { decrypt } from "~/utils/crypto.server";
import { nowIso } from "~/utils/ids.server";
import { createLinearMock, LINEAR_API_URL, LINEAR_KEY, TEAM_ID } from "../mocks/linear";
import { type Account, expectError, joinOrg } from "../support/org";
import { signedUpClient } from "../support/client";
import { parseHtml } from "../support/html";
import { projectWithPrd } from "../support/integrations";

/** Pasting the signing secret a service generated (Linear's webhook settings) into a tracker connection (docs/trackers.md). */

const linear = createLinearMock();
const server = setupServer(...linear.handlers);
const PASTED = "lin_wh_c0ffee0123456789abcdef";

let owner: Account;
let connectionId: string;
let projectId: string;

beforeAll(async () => {
  process.env.LINEAR_API_URL = LINEAR_API_URL;
  resetConfigForTests();
  server.listen({ onUnhandledRequest: "error" });
  owner = await signedUpClient({ name: "Olive Owner" });
  projectId = await projectWithPrd(owner.client, "Expenses", "# Expenses\n");
  connectionId = (await owner.client.post("/api/integrations/trackers", { service: "linear", token: LINEAR_KEY })).body.connection.id;
  await db
    .insertInto("trackerIssues")
    .values({
      id: "ti-1",
      orgId: owner.organization.id,
      projectId,
      connectionId,
      service: "linear",
      target: TEAM_ID,
      storyKey: "k1",
      section: null,
      externalId: "issue-1",
      externalNumber: 1,
      externalKey: "ENG-1",
      url: "https://linear.app/acme/issue/ENG-1",
      title: "Snap a receipt",
      state: "open",
      lastSyncedAt: nowIso(),
      createdAt: nowIso(),
    })
    .execute();
});

afterAll(() => {
  server.close();
  delete process.env.LINEAR_API_URL;
  resetConfigForTests();
});

const storedSecret = async () =>
  decrypt(
    (await db.selectFrom("trackerConnections").select("webhookSecretEncrypted").where("id", "=", connectionId).executeTakeFirstOrThrow())
      .webhookSecretEncrypted,
  );
const deliver = (secret: string, stateType: string) => {
  const body = JSON.stringify({
    action: "update",
    type: "Issue",
    data: { id: "issue-1", title: "Snap a receipt", state: { type: stateType } },
    webhookTimestamp: Date.now(),
  });
  return owner.client.call("POST", `/api/webhooks/trackers/linear/${connectionId}`, {
    body,
    cookies: false,
    headers: { "Content-Type": "application/json", "Linear-Signature": crypto.createHmac("sha256", secret).update(body).digest("hex") },
  });
};
const form = (values: Record<string, string>) => ({ body: new URLSearchParams(values), headers: { "Content-Type": "application/x-www-form-urlencoded" } });

describe("using the signing secret from the service", () => {
  it("members cannot set it (403) and a blank or spaced secret is refused next to the field", async () => {
    const member = await joinOrg(owner.organization.id, "member", "Mo Member");
    expectError(await member.client.post(`/api/integrations/trackers/${connectionId}/webhook-secret`, { secret: PASTED }), 403, "FORBIDDEN");
    const bad = await owner.client.post(`/api/integrations/trackers/${connectionId}/webhook-secret`, { secret: "has spaces in it" });
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.details[0].path).toBe("secret");
    const page = await owner.client.call("POST", "/settings/trackers", form({ intent: "webhookSecret", connectionId, secret: "short" }));
    expect(page.status).toBe(400);
    const doc = parseHtml(page.text);
    expect(doc.querySelector(`#secret-${connectionId}-error`)?.textContent).toBe("Paste the whole signing secret (at least 8 characters)");
    expect(doc.querySelector(`label[for=secret-${connectionId}]`)?.textContent).toBe("Use the signing secret from Linear");
    expect(await storedSecret()).not.toBe(PASTED);
  });

  it("after pasting (API), webhooks signed with the pasted secret are accepted and the old secret is refused", async () => {
    const old = (await storedSecret())!;
    expect((await deliver(old, "started")).body).toEqual({ received: true, updated: 1 });
    const res = await owner.client.post(`/api/integrations/trackers/${connectionId}/webhook-secret`, { secret: PASTED });
    expect(res.status, res.text).toBe(200);
    expect(res.body.connection.webhookSecret).toBe(PASTED);
    expectError(await deliver(old, "completed"), 401, "UNAUTHORIZED");
    expect((await deliver(PASTED, "completed")).body).toEqual({ received: true, updated: 1 });
    const row = await db.selectFrom("trackerIssues").select("state").where("id", "=", "ti-1").executeTakeFirstOrThrow();
    expect(row.state).toBe("done");
  });

  it("the settings page saves a pasted secret with JavaScript off (post/redirect/get)", async () => {
    const res = await owner.client.call("POST", "/settings/trackers", form({ intent: "webhookSecret", connectionId, secret: "lin_wh_second000000000" }));
    expect(res.status).toBe(302);
    expect(await storedSecret()).toBe("lin_wh_second000000000");
    const page = parseHtml((await owner.client.get("/settings/trackers")).text);
    expect(page.querySelector("[role=status]")?.textContent).toContain("Linear webhooks are now checked with the signing secret you pasted.");
    expect(page.body.textContent).toContain("Use the signing secret from Linear");
  });
});
