import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_EMAIL, PEOPLE } from "#db/seed/demo/people";
import { type DemoSeedResult, describeSeed, seedDemo } from "#db/seed/demo/seed";
import { db } from "~/db.server";
import { signedUpClient, TestClient } from "../support/client";
import { expectError } from "../support/org";

/** The demo workspace of `npm run db:seed` (db/seed/demo/), read back through the API as its people would. */

let first: DemoSeedResult;
const owner = new TestClient("10.61.0.1");
const viewer = new TestClient("10.61.0.2");
let teleopId: string;

const byName = (name: string) => first.projects.find((p) => p.name === name)!;

async function rowCounts() {
  const counts: Record<string, number> = {};
  for (const table of [
    "users",
    "organizations",
    "projects",
    "prdVersions",
    "projectQaPairs",
    "comments",
    "notifications",
    "projectShares",
    "stakeholderViews",
    "approvalRequests",
    "templates",
  ] as const) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

beforeAll(async () => {
  first = await seedDemo();
  teleopId = byName("Remote teleoperation console").id;
  for (const [client, email] of [
    [owner, DEMO_EMAIL],
    [viewer, PEOPLE.find((p) => p.role === "viewer")!.email],
  ] as const) {
    const res = await client.post("/api/auth/sign-in", { email, password: first.password });
    expect(res.status, res.text).toBe(200);
  }
}, 60_000);

describe("npm run db:seed", () => {
  it("creates Acme Robotics with an owner, an admin, two members and a viewer, and prints how to sign in", async () => {
    expect(first.created).toBe(true);
    expect(first.people.map((p) => p.role).sort()).toEqual(["admin", "member", "member", "owner", "viewer"]);
    const me = await owner.get("/api/auth/me");
    expect(me.body).toMatchObject({
      user: { email: DEMO_EMAIL, emailVerified: true },
      organization: { name: "Acme Robotics", plan: "enterprise", role: "owner" },
    });
    const printed = describeSeed(first);
    expect(printed).toContain(`e-mail:   ${DEMO_EMAIL}`);
    expect(printed).toContain(`password: ${first.password}`);
    expect(printed).toContain("Remote teleoperation console");
  });

  it("has seven projects at different stages", async () => {
    const res = await owner.get("/api/projects?limit=50");
    expect(res.body.total).toBe(7);
    const byStatus: Record<string, number> = {};
    for (const p of res.body.projects as { status: string }[]) byStatus[p.status] = (byStatus[p.status] ?? 0) + 1;
    expect(byStatus).toEqual({ DRAFT: 1, IN_PROGRESS: 1, READY_FOR_PRD: 1, IN_REVIEW: 2, APPROVED: 1, COMPLETED: 1 });
  });

  it("has a builder conversation and a generated PRD with versions", async () => {
    const conversation = await owner.get(`/api/projects/${teleopId}/conversation`);
    expect(conversation.body.qaPairs.length).toBeGreaterThanOrEqual(6);
    expect(conversation.body.qaPairs[0].answer).toContain("stuck");
    const prd = await owner.get(`/api/projects/${teleopId}/prd`);
    expect(prd.status, prd.text).toBe(200);
    expect(prd.body.prd.content).toMatch(/^# Remote teleoperation console/);
    expect(prd.body.prd.content).toContain("## Goals and Success Metrics");
    expect(prd.body.prd.content).toContain("60% of stuck-robot incidents");
    const versions = await owner.get(`/api/projects/${teleopId}/prd/versions`);
    expect(versions.body.versions.map((v: { source: string }) => v.source)).toEqual(["snapshot", "edit", "generate"]);
    // A draft project waits on the builder's next question, with no PRD yet.
    const draft = byName("Charging dock firmware updates over the air");
    expect((await owner.get(`/api/projects/${draft.id}/conversation`)).body).toMatchObject({ complete: false, nextQuestion: expect.any(String) });
    expectError(await owner.get(`/api/projects/${draft.id}/prd`), 404, "NOT_FOUND");
  });

  it("has comments with mentions, a reply and a resolved thread", async () => {
    const { comments } = (await owner.get(`/api/projects/${teleopId}/comments`)).body;
    const mentioned = comments.flatMap((c: { mentions: { name: string }[] }) => c.mentions.map((m) => m.name));
    expect(mentioned).toContain("Priya Nair");
    const threadWithReply = comments.find((c: { replies: unknown[] }) => c.replies.length > 0);
    expect(threadWithReply.replies[0].mentions.map((m: { name: string }) => m.name)).toEqual(["Tom Okafor"]);
    expect(comments.filter((c: { resolved: boolean }) => c.resolved)).toHaveLength(1);
    expect(comments.some((c: { user: { name: string } }) => c.user.name === "Elena García")).toBe(true);
  });

  it("has a share link that opens the PRD without an account, with one review pending and one approved", async () => {
    expect(first.shareUrl).toMatch(/^http:\/\/localhost:3000\/share\//);
    const token = decodeURIComponent(first.shareUrl!.split("/share/")[1]!);
    const visitor = new TestClient("10.61.0.9");
    const page = await visitor.get(`/share/${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Remote teleoperation console");
    expect((await visitor.get(`/api/projects/${teleopId}`, { headers: { "x-share-token": token } })).status).toBe(200);
    const reviews = await visitor.get(`/api/stakeholder-review/by-token?token=${encodeURIComponent(token)}`);
    expect(reviews.body.reviews.map((r: { reviewStatus: string }) => r.reviewStatus).sort()).toEqual(["approved", "pending"]);
    // The approved one was decided by its reviewer, through her personal review link.
    expect(reviews.body.reviews.find((r: { reviewStatus: string }) => r.reviewStatus === "approved")).toMatchObject({
      resolvedVia: "personal_link",
      resolvedByName: "Ingrid Visser",
    });
  });

  it("has a sign-off workflow with a pending request, AI results and notifications", async () => {
    const pending = await owner.get("/api/approvals?status=pending");
    expect(pending.body.approvals).toHaveLength(1);
    expect(pending.body.approvals[0]).toMatchObject({ status: "pending", target: { id: teleopId }, canDecide: true });
    const outputs = await owner.get(`/api/projects/${teleopId}/ai-outputs`);
    expect(outputs.body.outputs.map((o: { kind: string }) => o.kind).sort()).toEqual(["user_stories", "wireframe"]);
    const notifications = await owner.get("/api/notifications");
    expect(notifications.body.unreadCount).toBeGreaterThanOrEqual(3);
    expect(notifications.body.notifications.map((n: { type: string }) => n.type)).toEqual(expect.arrayContaining(["mention", "approval"]));
  });

  it("shows the viewer only the project shared with her, and other organizations nothing", async () => {
    const mine = await viewer.get("/api/projects");
    expect(mine.body.projects.map((p: { id: string }) => p.id)).toEqual([teleopId]);
    const outsider = await signedUpClient({ name: "Someone Else" });
    expectError(await outsider.client.get(`/api/projects/${teleopId}`), 404, "NOT_FOUND");
    expectError(await outsider.client.get(`/api/projects/${teleopId}/comments`), 404, "NOT_FOUND");
    expect((await outsider.client.get("/api/projects")).body.total).toBe(0);
  });

  it("changes nothing when run again, and says so", async () => {
    const before = await rowCounts();
    const again = await seedDemo();
    expect(again.created).toBe(false);
    expect(again.incomplete).toBeUndefined();
    expect(again.shareUrl).toBe(first.shareUrl);
    expect(again.projects).toEqual(first.projects);
    expect(describeSeed(again)).toContain("already exists: nothing was changed");
    // The password was printed once, when it was made; it is not kept anywhere to print again.
    expect(again.password).toBeNull();
    expect(describeSeed(again)).not.toContain(first.password!);
    expect(describeSeed(again)).toContain("Forgot password");
    expect(await rowCounts()).toEqual(before);
  });
});
