import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineBounds, offlinePoolState, stopOfflineWorkers } from "~/ai/builtin/offline-pool.server";
import { signedUpClient } from "../support/client";
import { type Account, expectError, setPlan } from "../support/org";
import { expectSseStream } from "../support/sse";

/**
 * Issue 33, item 4: user text reached `new RegExp` in the offline drafter.
 * A persona "(about 2,600 bookings a year)" made PRD generation answer 500
 * (`Invalid regular expression: /\byear)(?:s|es)?\b/i`), and a persona of
 * "(a+)+" × 50 beside a requirement of one long letter run held the server's
 * thread for minutes: `/api/health` stopped answering for everyone. Now no
 * user text is compiled into a pattern, and the drafter runs in worker
 * threads under a time budget (app/ai/builtin/offline-pool.server.ts): a
 * task past it is stopped and fails cleanly, and the server keeps answering.
 */

const EVIL = `${"(a+)+".repeat(50)}!`;
let owner: Account;
let projectId: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olga Owner" });
  await setPlan(owner.organization.id, "enterprise");
  const res = await owner.client.post("/api/projects", { name: "Clinic bookings" });
  expect(res.status, res.text).toBe(201);
  projectId = res.body.id;
});
afterAll(() => stopOfflineWorkers());

/** Times GET /api/health every 100 ms until `work` settles: the slowest answer and how many there were. */
async function healthWhile<T>(work: Promise<T>) {
  let done = false;
  const settled = work.finally(() => {
    done = true;
  });
  const times: number[] = [];
  const poll = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await owner.client.get("/api/health");
      times.push(performance.now() - started);
      expect(res.status, res.text).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const [value] = await Promise.all([settled, poll]);
  return { value, slowest: Math.max(...times), polls: times.length };
}

describe("user text in the offline drafter's patterns", () => {
  it("writes the PRD for a persona line in brackets, “(about 2,600 bookings a year)”", async () => {
    for (const message of [
      "Patients miss 18% of appointments at our clinics and call the front desk to rebook.",
      "Cut no-shows from 18% to 9% by June 2027.",
      "Primary: front-desk staff (about 2,600 bookings a year). Secondary: clinic managers.",
      "- Send an SMS reminder 48 hours before each appointment\n- Let the patient confirm or cancel for the year\n- Export the week's no-shows as a CSV file for the clinic manager",
    ]) {
      const res = await owner.client.post(`/api/projects/${projectId}/chat`, { message });
      expect(res.status, res.text).toBe(200);
    }
    const res = await owner.client.post("/api/generate-prd", { projectId, style: "comprehensive" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.model).toBe("builtin");
    expect(res.body.content).toContain("2,600");
    for (const path of ["/api/ai/user-stories", "/api/ai/launch-content"]) {
      const body = { content: res.body.content, source: "prd", contentType: "blog_post" };
      const { last } = expectSseStream(await owner.client.post(path, body));
      expect(last.fullContent.length, path).toBeGreaterThan(100);
    }
  });

  it("answers user stories for (a+)+ × 50 beside a long run of one letter, while /api/health keeps answering", async () => {
    const content = `# Clinic\n\n## Target Users\n\nPrimary: ${EVIL}\n\n## Requirements\n\n- Send ${"a".repeat(40)} to the ${EVIL}\n- ${"a".repeat(5_000)}\n- Let the ${EVIL} confirm ${"a".repeat(60)}\n`;
    const { value: res, slowest, polls } = await healthWhile(owner.client.post("/api/ai/user-stories", { content, source: "prd" }));
    const { last } = expectSseStream(res);
    expect(last.model).toBe("builtin");
    expect(last.fullContent).toContain("# User Stories");
    expect(polls).toBeGreaterThan(0);
    expect(slowest).toBeLessThan(1_000);
  });
});

describe("the offline drafter's time budget", () => {
  const big = `# Clinic\n\n## Requirements\n\n${"- Send an SMS reminder to the patients who opted in, 48 hours before.\n".repeat(6_000)}`;

  it("stops a task past the budget: the stream ends with GENERATION_ERROR, JSON answers 502, and the next task gets a fresh worker", async () => {
    const budget = offlineBounds.timeoutMs;
    offlineBounds.timeoutMs = 50;
    // Thousands of different requirements: far more than 50 ms of work on any machine (identical lines are one story).
    const distinct = `# Clinic\n\n## Requirements\n\n${Array.from({ length: 4_000 }, (_, i) => `- Send SMS reminder number ${i} to the patients of clinic ${i % 97}, ${i % 48} hours before.`).join("\n")}\n`;
    try {
      const stream = await owner.client.post("/api/ai/user-stories", { content: distinct, source: "prd" });
      const { last } = expectSseStream(stream, "error");
      expect(last).toMatchObject({ type: "error", code: "GENERATION_ERROR" });
      expect(last.message).toMatch(/offline drafter took longer than 50 ms/);
      const json = await owner.client.post("/api/ai/suggestions", { content: distinct });
      expectError(json, 502, "PROVIDER_ERROR");
      expect(json.body.error).toMatch(/offline drafter took longer/);
    } finally {
      offlineBounds.timeoutMs = budget;
    }
    const { last } = expectSseStream(
      await owner.client.post("/api/ai/user-stories", { content: "- Send an SMS reminder to the patient", source: "requirements" }),
    );
    expect(last.fullContent).toContain("reminder");
  });

  it("keeps /api/health answering while both workers draft large inputs", async () => {
    const work = Promise.all([
      owner.client.post("/api/ai/coach", { prdContent: big }),
      owner.client.post("/api/ai/user-stories", { content: big, source: "prd" }),
      owner.client.post("/api/ai/technical-specs", { prdContent: big }),
    ]);
    const { value, slowest } = await healthWhile(work);
    for (const res of value) expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(slowest).toBeLessThan(1_000);
    expect(offlinePoolState().workers).toBeLessThanOrEqual(offlineBounds.workers);
  });
});

describe("long PRD checks in the offline workers", () => {
  it("run on one worker at a time, so a burst of them leaves the other worker to drafting", async () => {
    const long = Array.from({ length: 8_000 }, (_, i) => `## Area ${i}\n- Make area ${i} fast TODO`).join("\n");
    const checks = Array.from({ length: 6 }, (_, i) => owner.client.post(`/api/projects/${projectId}/prd/check`, { content: `${long}\n- variant ${i}` }));
    let checksAtOnce = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        checksAtOnce = Math.max(checksAtOnce, offlinePoolState().lanes.check ?? 0);
        await new Promise((r) => setImmediate(r));
      }
    })();
    // A drafting request sent after the burst is answered while checks still wait their turn.
    let checksDone = 0;
    for (const check of checks) void check.then(() => checksDone++);
    const drafted = await owner.client.post("/api/ai/user-stories", {
      content: "Clinic staff can book a patient's next visit from the calendar.",
      source: "requirements",
    });
    expect(drafted.status, drafted.text).toBe(200);
    const doneWhenDrafted = checksDone;
    const answers = await Promise.all(checks);
    sampling = false;
    await sampler;
    for (const res of answers) expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(checksAtOnce).toBe(1);
    expect(doneWhenDrafted).toBeLessThan(checks.length);
  });
});
