import { sql } from "kysely";
import { db } from "~/db.server";
import type { Actor } from "../actor";
import { projectAccess, readersOf } from "../projects/access.server";
import { MENTIONABLE_MAX } from "./collaboration.schema";

/**
 * Who may be @mentioned on a project: the members of its organization who can
 * read it (the visibility rule, as `resolveMentions` applies it), by name, at
 * most 200. Any reader of the project may ask; the list is what the comment
 * box offers after `@` (the API and the page share it).
 */
export async function mentionableUsers(actor: Actor, projectId: string) {
  const { project } = await projectAccess(actor, projectId);
  return db
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.userId")
    .select(["u.id", "u.name", "u.email"])
    .where(readersOf(project))
    .orderBy(sql`u.name COLLATE NOCASE`)
    .orderBy("u.id")
    .limit(MENTIONABLE_MAX)
    .execute();
}
