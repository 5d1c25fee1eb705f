import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { setEnv } from "../support/ai";
import { GOOD_PASSWORD, signedUpClient, TestClient, uniqueEmail } from "../support/client";

/**
 * LiteFS simulated by its mount layout: `${LITEFS_DIR}/.primary` exists (and
 * names the primary) on a replica, and is absent on the primary.
 */
const litefsDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-litefs-"));
process.env.LITEFS_DIR = litefsDir;
const { resetConfigForTests } = await import("~/config.server");
resetConfigForTests();

const { db, isPrimary, primaryInstance } = await import("~/db.server");
const { enqueue } = await import("~/jobs/queue.server");
const { registerJobHandler, runDueJobs } = await import("~/jobs/worker.server");
const { schedulerRunning } = await import("~/jobs/scheduler.server");
const { startBackground, stopBackground } = await import("~/lifecycle.server");
const { checkRole } = await import("~/ops/role-watch.server");

const marker = path.join(litefsDir, ".primary");
const becomeReplica = (primary = "machine-b") => fs.writeFileSync(marker, `${primary}\n`);
const becomePrimary = () => fs.rmSync(marker, { force: true });

const jobStatus = async (id: string) => (await db.selectFrom("jobs").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;

afterAll(() => {
  becomePrimary();
  delete process.env.LITEFS_DIR;
  resetConfigForTests();
  fs.rmSync(litefsDir, { recursive: true, force: true });
});

describe("primary detection", () => {
  it("reads the .primary file on every call", () => {
    becomePrimary();
    expect(isPrimary()).toBe(true);
    expect(primaryInstance()).toBeNull();
    becomeReplica("machine-b");
    expect(isPrimary()).toBe(false);
    expect(primaryInstance()).toBe("machine-b");
    becomeReplica("machine-c");
    expect(primaryInstance()).toBe("machine-c");
    becomePrimary();
    expect(isPrimary()).toBe(true);
  });
});

describe("writes on a replica", () => {
  let client: TestClient;
  beforeAll(async () => {
    becomePrimary();
    ({ client } = await signedUpClient());
  });
  afterAll(() => becomePrimary());

  it("replays API writes to the primary and serves reads locally", async () => {
    becomeReplica("machine-b");
    const projectCount = async () => (await db.selectFrom("projects").select("id").execute()).length;
    const before = await projectCount();
    const write = await client.post("/api/projects", { name: "Written on a replica" });
    expect(write.status).toBe(409);
    expect(write.headers.get("fly-replay")).toBe("instance=machine-b");
    expect(await projectCount()).toBe(before);

    const anonymous = await new TestClient("10.9.9.9").post("/api/auth/register", { name: "X", email: uniqueEmail(), password: GOOD_PASSWORD });
    expect(anonymous.status).toBe(409);
    expect(anonymous.headers.get("fly-replay")).toBe("instance=machine-b");

    const read = await client.get("/api/auth/me");
    expect(read.status).toBe(200);
    expect(read.headers.get("fly-replay")).toBeNull();

    // A GET that writes (the audit-log export is itself audited) is replayed too.
    const exported = await client.get("/api/admin/audit-logs/export");
    expect(exported.status).toBe(409);
    expect(exported.headers.get("fly-replay")).toBe("instance=machine-b");

    becomePrimary();
    const onPrimary = await client.post("/api/projects", { name: "Written on the primary" });
    expect(onPrimary.status).toBe(201);
    expect(onPrimary.headers.get("fly-replay")).toBeNull();
  });

  it("replays HTML form posts (with and without JavaScript) and serves pages locally", async () => {
    becomeReplica("machine-b");
    const form = new URLSearchParams({ email: uniqueEmail(), password: GOOD_PASSWORD });
    const headers = { "Content-Type": "application/x-www-form-urlencoded" };
    const post = await new TestClient("10.9.9.10").call("POST", "/sign-in", { body: form.toString(), headers });
    expect(post.status).toBe(409);
    expect(post.headers.get("fly-replay")).toBe("instance=machine-b");

    const fetcher = await new TestClient("10.9.9.11").call("POST", "/sign-in.data", { body: form.toString(), headers });
    expect(fetcher.status).toBe(409);
    expect(fetcher.headers.get("fly-replay")).toBe("instance=machine-b");

    const page = await client.get("/home");
    expect(page.status).toBe(200);
    expect(page.headers.get("fly-replay")).toBeNull();
  });
});

describe("worker and scheduler hand-over", () => {
  const ran: string[] = [];
  let release: () => void = () => {};
  registerJobHandler("test.litefs", {
    async run(payload: { name: string; wait?: boolean }) {
      if (payload.wait) await new Promise<void>((resolve) => (release = resolve));
      ran.push(payload.name);
    },
  });

  afterAll(async () => {
    becomePrimary();
  });

  it("a machine that loses the lease finishes the job in hand and claims no other", async () => {
    becomePrimary();
    // One job at a time in the lane, so the second is still unclaimed when the lease is lost.
    setEnv({ JOB_CONCURRENCY: "other=1" });
    onTestFinished(() => setEnv({ JOB_CONCURRENCY: undefined }));
    await runDueJobs({ now: new Date(Date.now() + 1000) }); // what sign-up queued (e-mails, events)
    const first = await enqueue(db, "test.litefs", { name: "in-flight", wait: true });
    const second = await enqueue(db, "test.litefs", { name: "after-demotion" }, { runAt: new Date(Date.now() + 1) });
    const running = runDueJobs({ now: new Date(Date.now() + 1000) });
    await expect.poll(() => jobStatus(first)).toBe("running");
    becomeReplica();
    release();
    expect(await running).toBe(1);
    expect(await jobStatus(first)).toBe("done");
    expect(await jobStatus(second)).toBe("queued");
    expect(await runDueJobs({ now: new Date(Date.now() + 1000) })).toBe(0);
    expect(ran).toEqual(["in-flight"]);
    becomePrimary();
    expect(await runDueJobs({ now: new Date(Date.now() + 1000) })).toBe(1);
    expect(ran).toEqual(["in-flight", "after-demotion"]);
  });

  it("a promoted replica starts the scheduler and the worker; a demoted primary stops them", async () => {
    becomeReplica();
    // Long intervals: the test steps the role watch itself with checkRole().
    await startBackground({ roleCheckMs: 3_600_000, workerPollMs: 20 });
    try {
      expect(schedulerRunning()).toBe(false);
      const queued = await enqueue(db, "test.litefs", { name: "queued-on-replica" });
      expect(await runDueJobs()).toBe(0);
      expect(await jobStatus(queued)).toBe("queued");

      becomePrimary();
      expect(await checkRole()).toBe("primary");
      expect(schedulerRunning()).toBe(true);
      await expect.poll(() => jobStatus(queued), { timeout: 10_000 }).toBe("done");
      expect(ran).toContain("queued-on-replica");

      becomeReplica("machine-c");
      expect(await checkRole()).toBe("replica");
      expect(schedulerRunning()).toBe(false);
      const later = await enqueue(db, "test.litefs", { name: "queued-after-demotion" });
      expect(await runDueJobs()).toBe(0);
      expect(await jobStatus(later)).toBe("queued");
    } finally {
      await stopBackground();
    }
  });
});
