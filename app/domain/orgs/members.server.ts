import { db } from "~/db.server";
import type { Actor } from "../actor";

/** Members of the actor's organization, for pickers (assignee, collaborators). */
export async function listMembers(actor: Actor) {
  return db
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.userId")
    .select(["u.id", "u.name", "u.email", "m.role"])
    .where("m.orgId", "=", actor.org.id)
    .orderBy("u.name")
    .execute();
}
