import { beforeAll, describe, expect, it } from "vitest";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { db } from "~/db.server";
import { runDueJobs } from "~/jobs/worker.server";
import { ORIGIN, type TestClient, signedUpClient } from "../support/client";
import { type Account, joinOrg, setPlan } from "../support/org";
import { pageText } from "../support/page";

registerBackgroundWork();

/** The schedules pages, driven like a browser without JavaScript. */

const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };
const postForm = (client: TestClient, path: string, fields: Record<string, string>) =>
  client.call("POST", path, { body: new URLSearchParams(fields), headers: FORM_HEADERS });
const PAGE = "/exports/schedules";

let owner: Account;
let projectId: string;

/** Every field as the no-JS form posts it, for a weekly e-mail export. */
const form = (extra: Record<string, string> = {}) => ({
  projectId,
  scheduleType: "weekly",
  scheduledAt: "",
  cronExpression: "",
  triggerStatus: "",
  timezone: "Europe/Berlin",
  format: "html",
  deliveryMethod: "email",
  recipients: "team@example.com\ncto@example.com",
  customSubject: "",
  webhookUrl: "",
  customMessage: "",
  ...extra,
});

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olga Owner" });
  await setPlan(owner.organization.id, "pro");
  projectId = (await owner.client.post("/api/projects", { name: "Atlas" })).body.id;
  await owner.client.post(`/api/projects/${projectId}/prd`, { content: "# Goals\nShip it.\n" });
});

describe("schedules pages without JavaScript", () => {
  it("explains the plan on free and shows an empty state on Pro", async () => {
    const free = await signedUpClient();
    const page = await free.client.get(PAGE);
    expect(page.status).toBe(200);
    expect(pageText(page)).toContain("Scheduled exports need the Pro plan");
    expect(pageText(page)).toContain("Free plan");
    const mine = await owner.client.get(PAGE);
    expect(pageText(mine)).toContain("No scheduled exports yet");
    for (const label of [
      "Project",
      "Schedule",
      "Date and time",
      "Cron expression",
      "Project status that sends it",
      "Timezone",
      "Format",
      "Delivery",
      "Recipients",
      "Webhook URL",
      "Message (optional)",
    ]) {
      expect(pageText(mine)).toContain(label);
    }
    expect(mine.text).toContain('for="field-cronExpression"');
    expect(mine.text).toContain('<option value="Europe/Berlin">');
  });

  it("creates a weekly e-mail export, ignoring fields of other types; errors keep the input", async () => {
    const bad = await postForm(owner.client, PAGE, form({ scheduleType: "custom_cron", cronExpression: "every day", recipients: "team@example.com, nope" }));
    expect(bad.status).toBe(400);
    expect(pageText(bad)).toContain("Check the highlighted fields");
    expect(pageText(bad)).toContain("“nope” is not a valid e-mail address");
    expect(bad.text).toMatch(/<textarea[^>]*name="recipients"[^>]*>team@example.com, nope<\/textarea>/);
    const badCron = await postForm(owner.client, PAGE, form({ scheduleType: "custom_cron", cronExpression: "every day" }));
    expect(badCron.status).toBe(400);
    expect(pageText(badCron)).toContain("Invalid cron expression");
    expect(badCron.text).toContain('value="every day"');
    expect(badCron.text).toMatch(/<option value="cron" selected="">/);

    // A leftover cron expression does not count against a weekly schedule.
    const ok = await postForm(owner.client, PAGE, form({ cronExpression: "every day", scheduledAt: "2030-01-03T16:30" }));
    expect(ok.status, ok.text.slice(0, 300)).toBe(302);
    const location = ok.headers.get("Location")!;
    expect(location).toMatch(/^\/exports\/schedules\/[0-9a-f-]{36}$/);
    const detail = await owner.client.get(location);
    const t = pageText(detail);
    expect(t).toContain("Scheduled export created. First run: Thu 3 Jan 2030, 16:30 (Europe/Berlin)");
    expect(t).toContain("Every Thursday at 16:30 (Europe/Berlin)");
    expect(t).toContain("e-mail to team@example.com, cto@example.com");
    expect(t).toContain("No deliveries yet");
    expect(detail.text).toContain('value="2030-01-03T16:30"');
    const row = await db
      .selectFrom("scheduledExports")
      .select(["cronExpression", "scheduleType"])
      .where("id", "=", location.split("/").pop()!)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ cronExpression: null, scheduleType: "weekly" });
    expect(pageText(await owner.client.get(PAGE))).toContain("Every Thursday at 16:30 (Europe/Berlin)");
  });

  it("runs now, pauses, resumes, edits and deletes from the detail page; the log shows the delivery", async () => {
    const created = await postForm(owner.client, PAGE, form());
    const path = created.headers.get("Location")!;
    const run = await postForm(owner.client, path, { intent: "run" });
    expect(run.status).toBe(302);
    let t = pageText(await owner.client.get(path));
    expect(t).toContain("Export queued");
    expect(t).toContain("pending");
    // Without SMTP_URL the messages land in the outbox: delivered there.
    await runDueJobs();
    t = pageText(await owner.client.get(path));
    expect(t).toContain("delivered");
    expect(t).toContain("team@example.com, cto@example.com");
    const outbox = pageText(await owner.client.get("/settings/outbox"));
    expect(outbox).toContain("Scheduled export: Atlas");
    expect(outbox).toContain("Attached: Atlas.html");

    expect((await postForm(owner.client, path, { intent: "pause" })).status).toBe(302);
    t = pageText(await owner.client.get(path));
    expect(t).toContain("Scheduled export paused");
    expect(t).toContain("Next run: paused");
    expect(t).toContain("Resume");
    await postForm(owner.client, path, { intent: "resume" });
    expect(pageText(await owner.client.get(path))).toContain("Scheduled export resumed");

    const saved = await postForm(owner.client, path, form({ intent: "save", format: "markdown", customSubject: "Atlas PRD", includeChangelog: "on" }));
    expect(saved.status).toBe(302);
    t = pageText(await owner.client.get(path));
    expect(t).toContain("Scheduled export saved");
    expect(t).toContain("MARKDOWN by e-mail");
    const invalid = await postForm(owner.client, path, form({ intent: "save", timezone: "Mars/Olympus" }));
    expect(invalid.status).toBe(400);
    expect(pageText(invalid)).toContain("Unknown timezone “Mars/Olympus”");

    const toHook = await postForm(owner.client, path, form({ intent: "save", deliveryMethod: "webhook", webhookUrl: "https://hooks.example.com/prd" }));
    expect(toHook.status).toBe(200);
    expect(toHook.text).toMatch(/data-testid="webhook-secret">whsec_[0-9a-f]{48}</);

    const deleted = await postForm(owner.client, path, { intent: "delete" });
    expect(deleted.headers.get("Location")).toBe(PAGE);
    expect(pageText(await owner.client.get(PAGE))).toContain("Scheduled export deleted");
    expect((await owner.client.get(path)).status).toBe(404);
  });

  it("shows a webhook schedule's secret once after creating it", async () => {
    const res = await postForm(owner.client, PAGE, form({ deliveryMethod: "webhook", webhookUrl: "https://hooks.example.com/prd", recipients: "" }));
    expect(res.status).toBe(200);
    expect(pageText(res)).toContain("Copy the webhook signing secret now");
    expect(res.text).toMatch(/data-testid="webhook-secret">whsec_[0-9a-f]{48}</);
  });

  it("members see other people's schedules read-only, viewers cannot create, other organizations get 404", async () => {
    const created = await postForm(owner.client, PAGE, form());
    const path = created.headers.get("Location")!;
    const member = await joinOrg(owner.organization.id, "member", "Mia Member");
    const page = await member.client.get(path);
    expect(page.status).toBe(200);
    expect(pageText(page)).toContain("only people who can edit the project may change or run it");
    expect(page.text).not.toContain('value="run"');
    // No project they can edit: the form offers only "All projects".
    const memberForm = await member.client.get(PAGE);
    expect(memberForm.text).toContain('<option value="" selected="">All projects (weekly digest)</option>');
    expect(memberForm.text).not.toContain(`<option value="${projectId}"`);
    expect((await postForm(member.client, path, { intent: "run" })).status).toBe(403);

    const viewer = await joinOrg(owner.organization.id, "viewer", "Vic Viewer");
    expect(pageText(await viewer.client.get(PAGE))).toContain("Viewers cannot schedule exports");

    const stranger = await signedUpClient();
    await setPlan(stranger.organization.id, "pro");
    expect((await stranger.client.get(path)).status).toBe(404);
  });

  it("schedules a digest of all projects; a member's digest holds only what they can read, never another organization's", async () => {
    const page = await owner.client.get(PAGE);
    expect(page.text).toContain('<option value="">All projects (weekly digest)</option>');
    expect(page.text).toContain(`<option value="${projectId}" selected="">Atlas</option>`);

    const member = await joinOrg(owner.organization.id, "member", "Dana Digest");
    const created = await postForm(member.client, PAGE, form({ projectId: "" }));
    expect(created.status, created.text.slice(0, 300)).toBe(302);
    const path = created.headers.get("Location")!;
    const detail = await member.client.get(path);
    expect(pageText(detail)).toContain("All projects (digest)");
    expect(detail.text).toContain('<option value="" selected="">All projects (weekly digest)</option>');
    expect(detail.text).toContain('value="run"');
    const row = await db.selectFrom("scheduledExports").select(["projectId", "createdById"]).where("id", "=", path.split("/").pop()!).executeTakeFirstOrThrow();
    expect(row).toEqual({ projectId: null, createdById: member.user.id });
    expect(pageText(await owner.client.get(PAGE))).toContain("All projects (digest)");

    // A status-change digest is refused with the reason, the input kept.
    const bad = await postForm(member.client, PAGE, form({ projectId: "", scheduleType: "on_status_change", triggerStatus: "APPROVED" }));
    expect(bad.status).toBe(400);
    expect(pageText(bad)).toContain("A status-change export follows one project");

    // Run it from the page: the outbox shows the digest, with Atlas and without another organization's project.
    const stranger = await signedUpClient();
    await setPlan(stranger.organization.id, "pro");
    const theirs = (await stranger.client.post("/api/projects", { name: "Stranger Things" })).body.id;
    await stranger.client.post(`/api/projects/${theirs}/prd`, { content: "# Secret\nNot yours.\n" });
    expect((await postForm(member.client, path, { intent: "run" })).status).toBe(302);
    await runDueJobs();
    expect(pageText(await member.client.get(path))).toContain("delivered");
    const mail = await db
      .selectFrom("emails")
      .select(["subject", "text"])
      .where("toAddress", "=", "team@example.com")
      .where("subject", "like", "Weekly PRD digest%")
      .executeTakeFirstOrThrow();
    expect(mail.text).toContain("- Atlas (Draft");
    expect(mail.text).not.toContain("Stranger Things");

    // Another member reads it but may not run it; a viewer does not see it.
    const colleague = await joinOrg(owner.organization.id, "member", "Kit Colleague");
    const read = await colleague.client.get(path);
    expect(pageText(read)).toContain("only its creator, owners and admins may change or run it");
    expect(read.text).not.toContain('value="run"');
    const viewer = await joinOrg(owner.organization.id, "viewer", "Vera Viewer");
    expect((await viewer.client.get(path)).status).toBe(404);
    expect(pageText(await viewer.client.get(PAGE))).not.toContain("All projects (digest)");
    expect((await stranger.client.get(path)).status).toBe(404);
  });
});
