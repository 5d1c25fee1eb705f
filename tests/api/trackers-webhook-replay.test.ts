import crypto from "node:crypto";
import { sign } from "@octokit/webhooks-methods";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { decrypt } from "~/utils/crypto.server";
import { nowIso } from "~/utils/ids.server";
import { createGithubMock, GITHUB_API_URL, GOOD_TOKEN } from "../mocks/github";
import { createJiraMock, JIRA_EMAIL, JIRA_SITE, JIRA_TOKEN } from "../mocks/jira";
import { createLinearMock, LINEAR_API_URL, LINEAR_KEY, TEAM_ID } from "../mocks/linear";
import { signedUpClient } from "../support/client";
import { projectWithPrd } from "../support/integrations";
import { type Account, expectError } from "../support/org";
import { useTrackerStandIn } from "../support/trackers";

/**
 * Replayed tracker webhooks (docs/trackers.md, "Replayed webhooks"). A signed
 * delivery stays valid forever: whoever captured one (a proxy's log, a
 * misdirected retry) could send it again to undo what happened since, such
 * as closing an issue that was reopened. Each applied delivery is remembered
 * by the service's delivery id and by its signed body; a repeat is answered
 * 200 (so the service does not retry it) and changes nothing.
 */

const gh = createGithubMock();
const linear = createLinearMock();
const jira = createJiraMock();
useTrackerStandIn({ GITHUB_API_URL, LINEAR_API_URL, JIRA_ALLOWED_HOSTS: "jira.test" }, [...gh.handlers, ...linear.handlers, ...jira.handlers]);

const STORIES = "## Receipts\n\n### Snap a receipt\nAs an employee, I want to photograph a receipt.\n";

let owner: Account;
let projectId: string;
const connections: Record<"github" | "linear" | "jira", string> = { github: "", linear: "", jira: "" };

async function connectAndSend(service: "github" | "linear" | "jira", body: Record<string, unknown>, target: string) {
  const res = await owner.client.post("/api/integrations/trackers", { service, ...body });
  expect(res.status, res.text).toBe(201);
  connections[service] = res.body.connection.id;
  const sent = await owner.client.post(`/api/projects/${projectId}/tracker/send`, { connectionId: connections[service], target, markdown: STORIES });
  expect(sent.status, sent.text).toBe(200);
  expect(sent.body.created).toBe(1);
}

beforeAll(async () => {
  owner = await signedUpClient({ name: "Rita Replay" });
  projectId = await projectWithPrd(owner.client, "Replays", "# Replays\n");
  await connectAndSend("github", { token: GOOD_TOKEN }, "acme/app");
  await connectAndSend("linear", { token: LINEAR_KEY }, TEAM_ID);
  await connectAndSend("jira", { token: JIRA_TOKEN, settings: { siteUrl: JIRA_SITE, email: JIRA_EMAIL } }, "EXP");
});

const secretOf = async (id: string) =>
  decrypt((await db.selectFrom("trackerConnections").select("webhookSecretEncrypted").where("id", "=", id).executeTakeFirstOrThrow()).webhookSecretEncrypted)!;
const issueOf = (service: string) =>
  db
    .selectFrom("trackerIssues")
    .selectAll()
    .where("projectId", "=", projectId)
    .where("service", "=", service as never)
    .executeTakeFirstOrThrow();
const post = (service: string, body: string, headers: Record<string, string>) =>
  owner.client.call("POST", `/api/webhooks/trackers/${service}/${connections[service as "github"]}`, {
    body,
    cookies: false,
    headers: { "Content-Type": "application/json", ...headers },
  });
const hmac = (key: string, body: string) => crypto.createHmac("sha256", key).update(body).digest("hex");

describe("GitHub", () => {
  const deliver = async (body: string, delivery: string) =>
    post("github", body, {
      "X-GitHub-Event": "issues",
      "X-GitHub-Delivery": delivery,
      "X-Hub-Signature-256": await sign(await secretOf(connections.github), body),
    });
  const event = async (action: "closed" | "reopened", updatedAt = new Date()) => {
    const row = await issueOf("github");
    const issue = gh.shape(gh.issues.find((i) => String(i.id) === row.externalId)!);
    return JSON.stringify({ action, issue: { ...issue, state: action === "closed" ? "closed" : "open", updated_at: updatedAt.toISOString() } });
  };

  it("a delivery sent twice with the same X-GitHub-Delivery changes the state once: a reopened issue is not closed again", async () => {
    const closed = await event("closed");
    const first = await deliver(closed, "d-1");
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ received: true, updated: 1 });
    expect((await issueOf("github")).state).toBe("done");
    expect((await deliver(await event("reopened"), "d-2")).body.updated).toBe(1);
    expect((await issueOf("github")).state).toBe("open");

    const again = await deliver(closed, "d-1");
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, updated: 0, ignored: "duplicate" });
    expect((await issueOf("github")).state).toBe("open");
  });

  it("the same signed body under a new delivery id is a repeat too (the header is not signed)", async () => {
    const closed = await event("closed", new Date(Date.now() - 60_000));
    expect((await deliver(closed, "d-3")).body.updated).toBe(1);
    expect((await deliver(await event("reopened"), "d-4")).body.updated).toBe(1);
    const forged = await deliver(closed, "d-forged-5");
    expect(forged.status).toBe(200);
    expect(forged.body.ignored).toBe("duplicate");
    expect((await issueOf("github")).state).toBe("open");
  });

  it("a delivery older than what is remembered is not applied, and what is remembered is forgotten after 7 days", async () => {
    const old = await deliver(await event("closed", new Date(Date.now() - 8 * 24 * 3600_000)), "d-old");
    expect(old.status).toBe(200);
    expect(old.body).toEqual({ received: true, updated: 0, ignored: "too_old" });
    expect((await issueOf("github")).state).toBe("open");

    await db
      .insertInto("trackerWebhookDeliveries")
      .values({ connectionId: connections.github, deliveryKey: "id:ancient", receivedAt: nowIso(new Date(Date.now() - 8 * 24 * 3600_000)) })
      .execute();
    const kept = await db.selectFrom("trackerWebhookDeliveries").select("deliveryKey").where("connectionId", "=", connections.github).execute();
    expect(kept.map((r) => r.deliveryKey)).toContain("id:ancient");
    expect((await deliver(await event("closed"), "d-6")).body.updated).toBe(1);
    const after = await db.selectFrom("trackerWebhookDeliveries").select(["deliveryKey", "receivedAt"]).execute();
    expect(after.map((r) => r.deliveryKey)).not.toContain("id:ancient");
    expect(after.every((r) => Date.parse(r.receivedAt) > Date.now() - 7 * 24 * 3600_000)).toBe(true);
  });

  it("an unsigned or forged repeat is still refused (401), and is not remembered", async () => {
    const before = await db.selectFrom("trackerWebhookDeliveries").select("deliveryKey").execute();
    const body = await event("reopened");
    expectError(
      await post("github", body, { "X-GitHub-Event": "issues", "X-GitHub-Delivery": "d-7", "X-Hub-Signature-256": `sha256=${"0".repeat(64)}` }),
      401,
      "UNAUTHORIZED",
    );
    expect(await db.selectFrom("trackerWebhookDeliveries").select("deliveryKey").execute()).toEqual(before);
    // The genuine delivery with that id is then applied.
    expect((await deliver(body, "d-7")).body.updated).toBe(1);
  });
});

describe("Linear", () => {
  const event = async (stateType: string, at = Date.now()) => {
    const row = await issueOf("linear");
    return JSON.stringify({
      action: "update",
      type: "Issue",
      data: { id: row.externalId, identifier: row.externalKey, title: row.title, state: { id: "s", name: stateType, type: stateType } },
      webhookId: "wh-linear-1",
      webhookTimestamp: at,
    });
  };
  const deliver = async (body: string, delivery: string) =>
    post("linear", body, { "Linear-Event": "Issue", "Linear-Delivery": delivery, "Linear-Signature": hmac(await secretOf(connections.linear), body) });

  it("a delivery repeated within Linear's minute changes the state once, under its id or another", async () => {
    const done = await event("completed");
    expect((await deliver(done, "l-1")).body).toEqual({ received: true, updated: 1 });
    expect((await issueOf("linear")).state).toBe("done");
    expect((await deliver(await event("started", Date.now() + 1), "l-2")).body.updated).toBe(1);
    expect((await issueOf("linear")).state).toBe("in_progress");
    for (const id of ["l-1", "l-3"]) {
      const again = await deliver(done, id);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ received: true, updated: 0, ignored: "duplicate" });
    }
    expect((await issueOf("linear")).state).toBe("in_progress");
  });

  it("a delivery older than a minute is refused, as Linear documents (401)", async () => {
    expectError(await deliver(await event("completed", Date.now() - 2 * 60_000), "l-4"), 401, "UNAUTHORIZED");
    expect((await issueOf("linear")).state).toBe("in_progress");
  });
});

describe("Jira", () => {
  const event = async (category: string, timestamp = Date.now()) => {
    const row = await issueOf("jira");
    return JSON.stringify({
      timestamp,
      webhookEvent: "jira:issue_updated",
      issue: { id: row.externalId, key: row.externalKey, fields: { summary: row.title, status: { statusCategory: { key: category } } } },
    });
  };
  const deliver = async (body: string, identifier: string) =>
    post("jira", body, { "X-Atlassian-Webhook-Identifier": identifier, "X-Hub-Signature": `sha256=${hmac(await secretOf(connections.jira), body)}` });

  it("a delivery sent twice with the same X-Atlassian-Webhook-Identifier changes the state once", async () => {
    const done = await event("done");
    expect((await deliver(done, "j-1")).body).toEqual({ received: true, updated: 1 });
    expect((await deliver(await event("new", Date.now() + 1), "j-2")).body.updated).toBe(1);
    expect((await issueOf("jira")).state).toBe("open");
    const again = await deliver(done, "j-1");
    expect(again.status).toBe(200);
    expect(again.body.ignored).toBe("duplicate");
    // Jira's retry keeps the identifier even if its body differs.
    expect((await deliver(await event("done", Date.now() + 2), "j-1")).body.ignored).toBe("duplicate");
    // The body under another identifier is a repeat as well.
    expect((await deliver(done, "j-9")).body.ignored).toBe("duplicate");
    expect((await issueOf("jira")).state).toBe("open");
  });

  it("a delivery stamped more than 6 days ago is acknowledged and not applied", async () => {
    const old = await deliver(await event("done", Date.now() - 7 * 24 * 3600_000), "j-old");
    expect(old.body).toEqual({ received: true, updated: 0, ignored: "too_old" });
    expect((await issueOf("jira")).state).toBe("open");
  });
});
