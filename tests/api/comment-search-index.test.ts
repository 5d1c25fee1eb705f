import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { db } from "~/db.server";
import { searchComments } from "~/domain/search/comment-search.server";
import { signedUpClient } from "../support/client";
import type { Actor } from "~/domain/actor";

/**
 * The trigram index behind comment search (migration 0026): it follows
 * comments as they are written, edited and removed, and the search reads it
 * rather than every comment of the organization.
 */

describe("comment search index", () => {
  it("finds a comment by its words as edited, never by words it no longer has, and forgets a removed project's comments", async () => {
    const owner = await signedUpClient();
    const actor: Actor = {
      user: { id: owner.user.id, email: owner.email, name: owner.user.name, emailVerified: true, timezone: "UTC" },
      org: { id: owner.organization.id, name: owner.organization.name, plan: "free" },
      role: "owner",
      via: "session",
      isSuperadmin: false,
      ip: null,
      userAgent: null,
    };
    const projectId = (await owner.client.post("/api/projects", { name: "Okapi" })).body.id;
    const posted = await owner.client.post(`/api/projects/${projectId}/comments`, { content: "The okapi migration needs a rollback plan." });
    expect(posted.status, posted.text).toBe(201);
    const commentId = posted.body.comment.id;
    expect((await searchComments(actor, "rollback")).total).toBe(1);
    // Substrings and case, as LIKE: "MIGRAT" finds "migration".
    expect((await searchComments(actor, "MIGRAT okapi")).total).toBe(1);

    const edited = await owner.client.patch(`/api/projects/${projectId}/comments/${commentId}`, { content: "The okapi migration needs a canary first." });
    expect(edited.status, edited.text).toBe(200);
    expect((await searchComments(actor, "rollback")).total).toBe(0);
    expect((await searchComments(actor, "canary")).results.map((r) => r.commentId)).toEqual([commentId]);
    // Words shorter than three letters alone are not searched (they would read every comment).
    expect((await searchComments(actor, "a")).total).toBe(0);

    expect((await owner.client.delete(`/api/projects/${projectId}`)).status).toBeLessThan(300);
    expect((await searchComments(actor, "canary")).total).toBe(0);
    // The index holds exactly the comments that exist.
    const rows = await sql<{ n: number }>`SELECT count(*) AS n FROM commentText WHERE content LIKE '%canary%'`.execute(db);
    const live = await db
      .selectFrom("comments")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("content", "like", "%canary%")
      .executeTakeFirstOrThrow();
    expect(Number(rows.rows[0]!.n)).toBe(Number(live.n));
  });

  it("reads the trigram index, not the comments table, to find candidates", async () => {
    const plan = await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT rowid FROM commentText WHERE content LIKE '%canary%'`.execute(db);
    expect(plan.rows.map((r) => r.detail).join("\n")).toMatch(/VIRTUAL TABLE INDEX/);
  });
});
