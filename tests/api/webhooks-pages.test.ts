import { beforeAll, describe, expect, it } from "vitest";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { db } from "~/db.server";
import { runDueJobs } from "~/jobs/worker.server";
import { setEnv } from "../support/ai";
import { ORIGIN, type TestClient, signedUpClient } from "../support/client";
import { type Account, joinOrg, setPlan } from "../support/org";
import { startReceiver, verifySignature } from "./webhooks-support";
import { pageText } from "../support/page";

registerBackgroundWork();

/** The webhook settings pages, driven like a browser without JavaScript. */

const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };
const postForm = (client: TestClient, path: string, fields: Record<string, string>) =>
  client.call("POST", path, { body: new URLSearchParams(fields), headers: FORM_HEADERS });
const text = pageText;

let owner: Account;
beforeAll(async () => {
  owner = await signedUpClient({ name: "Paula Pages" });
});

describe("/settings/webhooks", () => {
  it("explains the plan limit on Free and hides the page from members", async () => {
    const page = await owner.client.get("/settings/webhooks");
    expect(page.status).toBe(200);
    expect(text(page)).toContain("No webhooks yet");
    expect(text(page)).toContain("Webhooks are not included in the Free plan");
    expect(page.text).toContain('href="/settings/webhooks"');
    const member = await joinOrg(owner.organization.id, "member", "Max Member");
    const denied = await member.client.get("/settings/webhooks");
    expect(text(denied)).toContain("Webhooks are managed by admins");
    expect(denied.text).not.toContain('href="/settings/webhooks"');
    expect((await postForm(member.client, "/settings/webhooks", { name: "x", url: "https://a.example.com", "events.*": "on" })).status).toBe(403);
  });

  it("creates a webhook from the form, shows the secret once, then tests, edits, switches and deletes it", async () => {
    await setPlan(owner.organization.id, "starter");
    setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: "true" });
    const receiver = await startReceiver();
    try {
      const empty = await postForm(owner.client, "/settings/webhooks", { name: "Hook", url: receiver.url });
      expect(empty.status).toBe(400);
      expect(text(empty)).toContain("Choose at least one event");

      const page = await owner.client.get("/settings/webhooks");
      expect(page.text).toMatch(/<input[^>]*name="events\.project\.\*"/);
      expect(page.text).toMatch(/<label[^>]*for="field-url"/);

      const created = await postForm(owner.client, "/settings/webhooks", {
        name: "Form hook",
        url: receiver.url,
        "events.project.*": "on",
        "events.prd.generated": "on",
      });
      expect(created.status).toBe(200);
      const secret = /data-testid="webhook-secret">([^<]+)</.exec(created.text)?.[1];
      expect(secret).toMatch(/^whsec_/);
      const row = await db.selectFrom("webhooks").selectAll().where("orgId", "=", owner.organization.id).executeTakeFirstOrThrow();
      expect(JSON.parse(row.events)).toEqual(["project.*", "prd.generated"]);
      const list = await owner.client.get("/settings/webhooks");
      expect(text(list)).toContain("Form hook");
      expect(list.text).not.toContain(secret);

      const path = `/settings/webhooks/${row.id}`;
      const test = await postForm(owner.client, path, { intent: "test" });
      expect(test.status).toBe(302);
      await runDueJobs();
      expect(receiver.received).toHaveLength(1);
      expect(verifySignature(secret!, receiver.received[0]!.raw, receiver.received[0]!.headers["x-webhook-signature"])).toBe(true);
      const detail = await owner.client.get(path);
      expect(text(detail)).toContain("Test delivery queued");
      expect(text(detail)).toMatch(/webhook\.test delivered 1 200/);

      const bad = await postForm(owner.client, path, { intent: "update", name: "Renamed", url: "not a url", "events.*": "on" });
      expect(bad.status).toBe(400);
      expect(text(bad)).toContain("Enter a full http:// or https:// URL");
      expect(await postForm(owner.client, path, { intent: "update", name: "Renamed", url: receiver.url, "events.*": "on" })).toMatchObject({ status: 302 });
      expect(text(await owner.client.get(path))).toContain("Renamed");

      expect((await postForm(owner.client, path, { intent: "disable" })).status).toBe(302);
      expect((await db.selectFrom("webhooks").select("isActive").where("id", "=", row.id).executeTakeFirstOrThrow()).isActive).toBe(0);
      expect((await postForm(owner.client, path, { intent: "delete", name: "Renamed" })).headers.get("Location")).toBe("/settings/webhooks");
      expect(text(await owner.client.get("/settings/webhooks"))).toContain("Webhook “Renamed” deleted");
      expect((await owner.client.get(path)).status).toBe(404);
    } finally {
      setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: undefined });
      await receiver.close();
    }
  });
});
