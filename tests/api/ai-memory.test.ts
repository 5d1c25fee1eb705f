import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";

/** The per-user memory store: CRUD, ordering, soft delete, extraction, isolation. */

let ana: Account;
let ben: Account; // same organization as Ana
let outsider: Account;

beforeAll(async () => {
  ana = await signedUpClient({ name: "Ana" });
  await setPlan(ana.organization.id, "enterprise");
  ben = await joinOrg(ana.organization.id, "admin", "Ben");
  outsider = await signedUpClient({ name: "Otto" });
});

const remember = (account: Account, body: Record<string, unknown>) => account.client.post("/api/memory", body);

describe("memories", () => {
  it("creates a memory with defaults and returns it wrapped", async () => {
    const res = await remember(ana, { memoryType: "preference", category: "style", content: "Write PRDs in British English. Keep them short." });
    expect(res.status, res.text).toBe(201);
    expect(res.body.memory).toMatchObject({
      id: expect.any(String),
      userId: ana.user.id,
      memoryType: "preference",
      category: "style",
      content: "Write PRDs in British English. Keep them short.",
      summary: "Write PRDs in British English.",
      importance: 5,
      isActive: true,
      sourceProjectId: null,
      lastUsedAt: null,
    });
  });

  it("validates type, category, content and importance 1–10", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ category: "style", content: "x" }, "memoryType"],
      [{ memoryType: "wish", category: "style", content: "x" }, "memoryType"],
      [{ memoryType: "decision", category: "finance", content: "x" }, "category"],
      [{ memoryType: "decision", category: "technical", content: "  " }, "content"],
      [{ memoryType: "decision", category: "technical", content: "x", importance: 11 }, "importance"],
      [{ memoryType: "decision", category: "technical", content: "x", importance: 0 }, "importance"],
      [{ memoryType: "decision", category: "technical", content: "x", importance: 2.5 }, "importance"],
    ];
    for (const [body, path] of cases) {
      const res = await remember(ana, body);
      expectError(res, 400, "VALIDATION_ERROR");
      expect(res.body.details[0].path, JSON.stringify(body)).toBe(path);
    }
  });

  it("lists by importance, then recent use; filters by type and category; limit defaults to 20", async () => {
    const who = await signedUpClient({ name: "Lister" });
    for (let i = 1; i <= 22; i++) {
      await remember(who, {
        memoryType: i % 2 ? "decision" : "preference",
        category: i % 3 ? "technical" : "team",
        content: `Fact ${i}`,
        importance: (i % 10) + 1,
      });
    }
    const all = await who.client.get("/api/memory");
    expect(all.body.memories).toHaveLength(20);
    const importances = all.body.memories.map((m: { importance: number }) => m.importance);
    expect(importances).toEqual([...importances].sort((a: number, b: number) => b - a));
    // Among equal importance, the recently used one comes first.
    const sameImportance = all.body.memories.filter((m: { importance: number }) => m.importance === 10);
    expect(sameImportance.length).toBeGreaterThan(1);
    const older = sameImportance.at(-1);
    await db.updateTable("memories").set({ lastUsedAt: new Date().toISOString() }).where("id", "=", older.id).execute();
    const reordered = await who.client.get("/api/memory?limit=5");
    expect(reordered.body.memories[0].id).toBe(older.id);
    const decisions = await who.client.get("/api/memory?type=decision&category=team&limit=50");
    expect(decisions.body.memories.length).toBeGreaterThan(0);
    for (const m of decisions.body.memories) expect(m).toMatchObject({ memoryType: "decision", category: "team" });
    expectError(await who.client.get("/api/memory?limit=0"), 400, "VALIDATION_ERROR");
    expectError(await who.client.get("/api/memory?type=wish"), 400, "VALIDATION_ERROR");
  });

  it("soft-deletes: gone from the default list, listed with active=false", async () => {
    const created = (await remember(ana, { memoryType: "decision", category: "technical", content: "We chose SQLite for storage" })).body.memory;
    const del = await ana.client.delete(`/api/memory?id=${created.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    const active = await ana.client.get("/api/memory?limit=100");
    expect(active.body.memories.map((m: { id: string }) => m.id)).not.toContain(created.id);
    const withDeleted = await ana.client.get("/api/memory?limit=100&active=false");
    expect(withDeleted.body.memories.find((m: { id: string }) => m.id === created.id)).toMatchObject({ isActive: false });
    expectError(await ana.client.delete(`/api/memory?id=${created.id}`), 404, "NOT_FOUND");
    expectError(await ana.client.delete("/api/memory"), 400, "VALIDATION_ERROR");
  });

  it("are strictly per user, even inside one organization", async () => {
    const mine = (await remember(ana, { memoryType: "feedback", category: "style", content: "Too many tables last time" })).body.memory;
    for (const other of [ben, outsider]) {
      const list = await other.client.get("/api/memory?limit=200&active=false");
      expect(list.body.memories.map((m: { id: string }) => m.id)).not.toContain(mine.id);
      expectError(await other.client.delete(`/api/memory?id=${mine.id}`), 404, "NOT_FOUND");
    }
    const stillThere = await db.selectFrom("memories").select("isActive").where("id", "=", mine.id).executeTakeFirstOrThrow();
    expect(stillThere.isActive).toBe(1);
  });

  it("accepts a source project only when the user can read it", async () => {
    const project = (await ana.client.post("/api/projects", { name: "Memory source" })).body.id;
    const ok = await remember(ana, { memoryType: "project_context", category: "team", content: "Team of five", sourceProjectId: project });
    expect(ok.body.memory.sourceProjectId).toBe(project);
    expectError(await remember(outsider, { memoryType: "project_context", category: "team", content: "x", sourceProjectId: project }), 404, "NOT_FOUND");
  });
});

describe("memory extraction", () => {
  const conversation = [
    { role: "user", content: "We use Postgres and deploy everything on Fly.io. I prefer concise PRDs with bullet points." },
    { role: "assistant", content: "Noted. Anything else?" },
    { role: "user", content: "We decided to launch in the EU first." },
  ];

  it("extracts, saves and skips near-duplicates on a second run", async () => {
    const first = await ben.client.post("/api/memory/extract", { conversation });
    expect(first.status, first.text).toBe(200);
    expect(first.body.model).toBe("builtin");
    expect(first.body.extracted).toBeGreaterThan(0);
    expect(first.body.saved).toBe(first.body.memories.length);
    expect(first.body.saved).toBeGreaterThan(0);
    for (const m of first.body.memories) expect(m).toMatchObject({ userId: ben.user.id, isActive: true, sourceConversation: conversation });
    const text = first.body.memories.map((m: { content: string }) => m.content).join(" ");
    expect(text).toMatch(/Postgres|Fly\.io|concise|EU/);

    const second = await ben.client.post("/api/memory/extract", { conversation });
    expect(second.body.extracted).toBe(first.body.extracted);
    expect(second.body.saved).toBe(0);
    expect(second.body.memories).toEqual([]);
  });

  it("enforces at most 50 messages of at most 10,000 characters with roles user or assistant", async () => {
    const tooMany = Array.from({ length: 51 }, () => ({ role: "user", content: "hi" }));
    const a = await ben.client.post("/api/memory/extract", { conversation: tooMany });
    expectError(a, 400, "VALIDATION_ERROR");
    expect(a.body.details[0].path).toBe("conversation");
    const tooLong = await ben.client.post("/api/memory/extract", { conversation: [{ role: "user", content: "x".repeat(10_001) }] });
    expectError(tooLong, 400, "VALIDATION_ERROR");
    expect(tooLong.body.details[0].path).toBe("conversation.0.content");
    const system = await ben.client.post("/api/memory/extract", { conversation: [{ role: "system", content: "x" }] });
    expectError(system, 400, "VALIDATION_ERROR");
    expect(system.body.details[0].path).toBe("conversation.0.role");
    const fifty = Array.from({ length: 50 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: "x".repeat(10_000) }));
    const max = await ben.client.post("/api/memory/extract", { conversation: fifty });
    expect(max.status, max.text).toBe(200);
  });

  it("returns nothing for small talk", async () => {
    const res = await ben.client.post("/api/memory/extract", { conversation: [{ role: "user", content: "Hello! How are you?" }] });
    expect(res.body).toMatchObject({ extracted: 0, saved: 0, memories: [] });
  });
});

describe("memories in prompts", () => {
  it("are marked as used when an AI task includes them", async () => {
    const m = (await remember(ana, { memoryType: "project_context", category: "technical", content: "Our stack is Remix and SQLite", importance: 10 })).body
      .memory;
    await ana.client.post("/api/chat", { messages: [{ role: "user", content: "Outline a PRD" }] });
    const row = await db.selectFrom("memories").select("lastUsedAt").where("id", "=", m.id).executeTakeFirstOrThrow();
    expect(row.lastUsedAt).not.toBeNull();
  });
});
